"""Mutation testing: does the test suite catch a small mistake? (A script, not a test: it
takes about an hour.)

    python tests/mutants.py [--only N,N] [--tree DIR]

Each mutant changes one line of sim/core, sim/festival or analysis. A copy of the checkout
(``--tree``, a fixed path so that numba's cache carries over between mutants whose engine is
the same) gets one mutant at a time, and ``pytest -x`` runs the suite with the test files
that most likely catch it first. A mutant is killed when a test fails. Hand-written
rather than a tool: mutmut's trampolines and numba's compiled kernels do not mix, and the
kernels take 25 s to compile, so a tool's hundreds of mutants per file would take days; this
list holds the mistakes a change of the engine, the runner, the streams or the analysis
could plausibly make. Equivalent mutants (no behaviour changes) are not listed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (file, old text, new text, test files to run first): old appears exactly once in file
MUTANTS = [
    # the random streams
    ("sim/core/rng.py", "np.uint64(game_index) + _GOLDEN", "np.uint64(game_index)",
     ["test_festival_setup.py"]),
    ("sim/core/rng.py", "splitmix64_mix(np.uint64(master_seed)) ^ splitmix64_mix(",
     "splitmix64_mix(np.uint64(master_seed)) + splitmix64_mix(", ["test_festival_setup.py"]),
    ("sim/core/rng.py", "for i in range(n - 1, 0, -1):\n        j = randint(s, i + 1)",
     "for i in range(n - 1, 0, -1):\n        j = randint(s, i)", ["test_festival_setup.py"]),
    ("sim/core/rng.py", "return np.int64(u * n)", "return np.int64(u * (n - 1))",
     ["test_rng.py"]),
    # the deal
    ("sim/festival/rules.py", "q = randint(rng, p + 1)", "q = randint(rng, p)",
     ["test_festival_setup.py"]),
    ("sim/festival/rules.py", "tab[TB.CROWD_SIDES + k * 2 + randint(rng, 2)]",
     "tab[TB.CROWD_SIDES + k * 2 + 1]", ["test_festival_setup.py"]),
    ("sim/festival/rules.py", "shuffle(rng, st, S.STACK + p * S.STACK_CAP, n_tiles)",
     "shuffle(rng, st, S.STACK + p * S.STACK_CAP, n_tiles - 1)", ["test_festival_invariants.py"]),
    ("sim/festival/rules.py", "shuffle(rng, st, S.PILE, piles * size)", "pass",
     ["test_festival_rules.py", "test_hidden_information.py"]),
    # who sits where and which stacks a seat reaches
    ("sim/festival/play.py", "return (seat + game_index) % n_players if rotate else seat",
     "return (seat + game_index + 1) % n_players if rotate else seat",
     ["test_festival_setup.py"]),
    ("sim/festival/play.py", "return (seat + game_index) % n_players if rotate else seat",
     "return (seat - game_index) % n_players if rotate else seat", ["test_festival_setup.py"]),
    ("sim/festival/rules.py", "return p - 1 if p > 0 else st[S.N_PLAYERS] - 1",
     "return p + 1 if p + 1 < st[S.N_PLAYERS] else 0", ["test_festival_setup.py"]),
    ("sim/festival/rules.py", "return p - 1 if p > 0 else st[S.N_PLAYERS] - 1",
     "return p - 1 if p > 0 else 0", ["test_festival_setup.py"]),
    # turn order, end and scoring
    ("sim/festival/rules.py", "if st[S.TRIGGER] != S.TRIGGER_NONE and p == n - 1:",
     "if st[S.TRIGGER] != S.TRIGGER_NONE:", ["test_festival_rules.py"]),
    ("sim/festival/rules.py",
     "if st[S.STACK_N + s] == 0:\n                    kind = S.TRIGGER_STACK",
     "if st[S.STACK_N + s] == 1:\n                    kind = S.TRIGGER_STACK",
     ["test_festival_rules.py"]),
    ("sim/festival/rules.py", "if tab[TB.TILE_COLOUR + tile] == colour:\n                pc += h",
     "if tab[TB.TILE_COLOUR + tile] == colour:\n                pc += 1",
     ["test_festival_rules.py"]),
    ("sim/festival/rules.py", "key = scores[p] * 64 + st[S.SEAT + p * S.SEAT_SIZE + S.CROWD_N]\n"
     "        if key > best:", "key = scores[p] * 64\n        if key > best:",
     ["test_festival_rules.py"]),
    ("sim/festival/rules.py", "wins[p] = 1.0 / winners if key == best else 0.0",
     "wins[p] = 1.0 if key == best else 0.0", ["test_festival_rules.py"]),
    ("sim/festival/rules.py", "if scores[q] * 64 + st[S.SEAT + q * S.SEAT_SIZE + S.CROWD_N] > key:",
     "if scores[q] * 64 + st[S.SEAT + q * S.SEAT_SIZE + S.CROWD_N] >= key:",
     ["test_festival_rules.py"]),
    ("sim/festival/rules.py", "st[b + S.CROWD_POINTS] += tab[TB.CROWD_VALUE + cond]",
     "st[b + S.CROWD_POINTS] += 1", ["test_festival_rules.py"]),
    ("sim/festival/rules.py", "if st[b + S.HELD_N] < tab[TB.PARAMS + S.P_MAX_UNCOMPLETED]:",
     "if st[b + S.HELD_N] <= tab[TB.PARAMS + S.P_MAX_UNCOMPLETED]:",
     ["test_festival_rules.py"]),
    # the results table
    ("sim/festival/batch.py", "seat_out[SO_BOT, g, p] = bot_of(p, game_index, n, rotate)",
     "seat_out[SO_BOT, g, p] = p", ["test_festival_setup.py"]),
    ("sim/festival/results.py", '"rounds": pa.array(((turns + n_players - 1) // n_players)',
     '"rounds": pa.array(((turns) // n_players)', ["test_festival_invariants.py"]),
    # the runner
    ("sim/core/runner.py", "return i, start, min(self.size, self.games - start)",
     "return i, start, self.size", ["test_run_folders.py", "test_determinism.py"]),
    ("sim/core/runner.py", "todo = (chunks[i] for i in range(chunks.count) if i not in sound)",
     "todo = iter(chunks)", ["test_run_folders.py"]),
    ("sim/core/runner.py", "        if rows != want:\n            damaged[path]",
     "        if rows < 0:\n            damaged[path]", ["test_run_folders.py"]),
    ("sim/core/runner.py", "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)", "pass",
     ["test_run_folders.py"]),
    ("sim/core/runner.py", "        return {**old, \"games_now\": 0}", "        pass",
     ["test_run_folders.py"]),
    ("sim/core/checks.py", "if value < low or (high is not None and value > high):",
     "if value < low:", ["test_bad_input.py"]),
    # the analysis
    ("analysis/stats.py", "if n < EXACT_BELOW:", "if n < 0:", ["test_statistics.py"]),
    ("analysis/stats.py", "return float(proportions_ztest(wins, n, value=p0, prop_var=p0)[1])",
     "return float(proportions_ztest(wins, n, value=p0)[1])", ["test_statistics.py"]),
    ("analysis/stats.py", "g / (g - 1) * (rows - 1) / (rows - k)", "1.0",
     ["test_statistics.py"]),
    ("analysis/stats.py", "se = math.sqrt(max(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1], 0.0))",
     "se = math.sqrt(max(cov[0, 0] + cov[1, 1], 0.0))", ["test_statistics.py"]),
    ("analysis/effects.py", "x0[:, cols] = 0  # every seat-game at the reference level", "pass",
     ["test_statistics.py", "test_analysis.py"]),
    ("analysis/effects.py", "grad[j] += d1.mean()", "pass", ["test_statistics.py"]),
    ("analysis/seats.py", "family[1:] = np.nan  # the mirror image of seat 0", "pass",
     ["test_analysis.py", "test_reports.py"]),
    ("analysis/seats.py", 'return df["bot"].nunique() > 1 and bool(',
     'return df["bot"].nunique() > 0 and bool(', ["test_analysis.py"]),
    ("analysis/elements.py", "(s_held, n_held), (s_all - s_held, n_all - n_held))",
     "(s_held, n_held), (s_all, n_all))", ["test_analysis.py"]),
    ("analysis/elements.py", 'out["causal"] = out["bot"].astype(str).isin(random_bots)',
     'out["causal"] = True', ["test_analysis.py"]),
    ("analysis/elements.py", 'out["chosen_share"] = out["seat_games"] / cell["seat_games"]'
     '.transform("sum")', 'out["chosen_share"] = out["seat_games"] / len(df)',
     ["test_analysis.py"]),
    ("analysis/bots.py", 'if row["slots"] > 1:', 'if row["slots"] > 9:', ["test_analysis.py"]),
    ("analysis/rates.py", '"win_rate": g["win"].mean(),', '"win_rate": g["win"].max(),',
     ["test_analysis.py"]),
    # written after the tests, without a test in mind (the first run of these: see README)
    ("sim/festival/features.py", "feats[m, F_HEIGHT] = h", "feats[m, F_HEIGHT] = h + 1",
     ["test_festival_features.py"]),
    ("sim/festival/features.py", "feats[m, F_EMPTY] = 1.0 if h == 1 else 0.0",
     "feats[m, F_EMPTY] = 1.0 if h == 2 else 0.0", ["test_festival_features.py"]),
    ("sim/festival/rules.py", "st[b + S.OBJECTIVES_TAKEN] += 1", "st[b + S.OBJECTIVES_TAKEN] += 2",
     ["test_festival_invariants.py"]),
    ("sim/festival/rules.py", "if changed and crowd_measure(tab, cond, st, b) >= tab[",
     "if changed and crowd_measure(tab, cond, st, b) > tab[", ["test_festival_rules.py"]),
    ("sim/festival/batch.py", "game_out[GO_LEFT, g] = left", "game_out[GO_LEFT, g] = left + 1",
     ["test_festival_invariants.py"]),
    ("analysis/distributions.py", 'row[f"p{int(q * 100)}"] = x.quantile(q)',
     'row[f"p{int(q * 100)}"] = x.quantile(1 - q)', ["test_analysis.py"]),
    ("analysis/distributions.py", 'out["share"] = out["games"] / len(games)',
     'out["share"] = out["games"] / len(df)', ["test_analysis.py"]),
    ("analysis/seats.py", "d = DescrStatsW((first_w - last_w", "d = DescrStatsW((last_w - first_w",
     ["test_analysis.py"]),
    ("analysis/seats.py", 'out["diff_pp"] = 100 * (out["win_rate"] - even)',
     'out["diff_pp"] = 100 * (out["win_rate"] - 0.5)', ["test_analysis.py"]),
    ("analysis/points.py", "return s[..., 0] / s[..., 1] - s[..., 2] / s[..., 3]",
     "return s[..., 2] / s[..., 3] - s[..., 0] / s[..., 1]", ["test_analysis.py"]),
    ("analysis/summary.py", 'resolved = causal[(causal["ci_low_pp"] > 0) | (causal["ci_high_pp"]',
     'resolved = causal[(causal["ci_low_pp"] > 0) & (causal["ci_high_pp"]', ["test_analysis.py"]),
    ("analysis/elements.py", '"start_player_win_rate": g["win"].mean(),',
     '"start_player_win_rate": g["win"].max(),', ["test_analysis.py"]),
    ("analysis/effects.py", '"ci_high_pp": 100 * (e + Z95 * s),', '"ci_high_pp": 100 * (e + s),',
     ["test_analysis.py"]),
    ("analysis/convergence.py", "k, n = wins[marks - 1], count[marks - 1]",
     "k, n = wins[marks // 2], count[marks // 2]", ["test_analysis.py"]),
]


def _first_failure(tree: Path, tests: list[str]) -> str | None:
    """The node id of the first test that fails (pytest -x), or None when all pass."""
    res = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-rf", "-p",
                          "no:cacheprovider", *tests], cwd=tree, capture_output=True, text=True)
    if res.returncode == 0:
        return None
    # "FAILED <node id> - <message>": a parametrised id may hold spaces
    failed = [x.removeprefix("FAILED ").split(" - ")[0] for x in res.stdout.splitlines()
              if x.startswith("FAILED ")]
    return failed[0] if failed else " ".join(tests)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", help="comma-separated mutant numbers (default: all)")
    p.add_argument("--tree", default="/tmp/playtest-mutants", help="where the copy lives")
    a = p.parse_args()
    tree = Path(a.tree)
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(".git", ".venv", "runs",
                                                              "__pycache__", "*.egg-info"))
    chosen = [int(x) for x in a.only.split(",")] if a.only else range(len(MUTANTS))
    survivors = []
    for n in chosen:
        file, old, new, first = MUTANTS[n]
        path = tree / file
        original = path.read_text()
        if original.count(old) != 1:
            print(f"{n:2d} SKIPPED: the text to mutate is not once in {file}")
            continue
        path.write_text(original.replace(old, new))
        t0 = time.time()
        killer = None
        # the likeliest test files first, then the whole suite (pytest would merge the two
        # into one collection order if given together)
        # (the slow subprocess tests of interruption run only where a mutant's own test
        # files hold them: they check the runner, which those mutants name)
        for tests in ([f"tests/{f}" for f in first], ["tests", "-m", "not slow"]):
            killer = _first_failure(tree, tests)
            if killer:
                break
        path.write_text(original)
        # a kill counts only if the failing test passes without the mutant (not a flake)
        if killer and _first_failure(tree, [killer]):
            print(f"{n:2d} FLAKY: {killer} fails without the mutant too", flush=True)
            killer = None
        killed = killer is not None
        line = old.strip().splitlines()[0][:60]
        print(f"{n:2d} {'killed  ' if killed else 'SURVIVED'} {time.time() - t0:5.0f} s  "
              f"{file}: {line}" + (f"  <- {killer}" if killed else ""), flush=True)
        if not killed:
            survivors.append(n)
    done = len(list(chosen))
    print(f"\n{done - len(survivors)} of {done} mutants killed "
          f"({100 * (done - len(survivors)) / max(done, 1):.0f}%); survivors: {survivors}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
