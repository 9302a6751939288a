"""Mutation testing: does the test suite catch a small mistake? (A script, not a test: it
takes about an hour.)

    python tests/mutants.py [--only N,N] [--tree DIR]

Each mutant changes one line of sim/core, an engine (sim/festival, sim/dice_theme_park,
sim/magnificent) or analysis. A copy of the checkout (``--tree``, a fixed path so that
numba's cache carries over between mutants whose engine is the same) gets one mutant at a
time, and ``pytest -x``
runs the suite with the test files that most likely catch it first. A mutant is killed when
a test fails. Hand-written rather than a tool: mutmut's trampolines and numba's compiled
kernels do not mix, and the kernels take 25 s (Festival) to 90 s (Dice Theme Park) to
compile, so a tool's hundreds of mutants per file would take days; this
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

DR, DE = "test_dice_theme_park_rules.py", "test_dice_theme_park_engine.py"
DP = "test_dice_theme_park_powers.py"
MAG = "sim/magnificent/"
MR, ME, MF = ("test_magnificent_rules.py", "test_magnificent_engine.py",
              "test_magnificent_features.py")

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
    ("sim/festival/rules.py", "side = randint(rng, 2)", "side = 1 + 0 * randint(rng, 2)",
     ["test_festival_setup.py"]),
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
    ("sim/festival/results.py", '"rounds": int_column((turns + n_players - 1) // n_players,',
     '"rounds": int_column(turns // n_players,', ["test_festival_invariants.py"]),
    # the runner
    ("sim/core/runner.py", "return i, start, min(self.size, self.games - start)",
     "return i, start, self.size", ["test_run_folders.py", "test_determinism.py"]),
    ("sim/core/runner.py", "todo = (chunks[i] for i in range(wanted) if i not in sound)",
     "todo = (chunks[i] for i in range(wanted))", ["test_run_folders.py"]),
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
    ("analysis/elements.py", 'np.nan\n    out["causal"] = out["bot"].astype(str).isin(random_bots)',
     'np.nan\n    out["causal"] = True', ["test_analysis.py"]),
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
    # Dice Theme Park: the dice, the setup and the turn order
    ("sim/dice_theme_park/rules.py", "k = randint(rng, total)", "k = randint(rng, total - 1)",
     [DR]),
    ("sim/dice_theme_park/rules.py",
     "                st[S.DICE_N + p] = i + 1 - first",
     "                st[S.DICE_N + p] = i - first", [DR]),
    ("sim/dice_theme_park/rules.py", "st[S.BAG + st[S.DIE_COL + i]] += 1",
     "st[S.ASIDE + st[S.DIE_COL + i]] += 1", [DR]),
    ("sim/dice_theme_park/rules.py",
     "st[S.ASIDE + c] = tab[P_DICE_PER_COLOUR] - tab[TB.IN_BAG + n_players]",
     "st[S.ASIDE + c] = 0", [DR]),
    ("sim/dice_theme_park/rules.py", "(used >> tab[TB.OBJ_COLOUR + deck[top]]) & 1:",
     "(used >> tab[TB.OBJ_COLOUR + deck[top]]) & 0:", [DR]),
    ("sim/dice_theme_park/rules.py", "* 8 + (n - 1 - j)", "* 8 + j", [DR]),
    ("sim/dice_theme_park/rules.py", "staff_sum(st, tab, p) * 100_000 + st[S.seat(p) + S.STARS]",
     "staff_sum(st, tab, p) * 100_000 - st[S.seat(p) + S.STARS]", [DR]),
    ("sim/dice_theme_park/rules.py", "total += tab[TB.ATT_INCOME + a]",
     "total += 0 * tab[TB.ATT_INCOME + a]", [DR]),
    ("sim/dice_theme_park/rules.py", "st[S.MONO_TAKEN + m] = p", "st[S.MONO_TAKEN + m] = -1",
     [DR, DE]),
    # objectives, the end and the tie-breaks
    ("sim/dice_theme_park/rules.py", "return -(-total // equal)", "return total // equal", [DR]),
    ("sim/dice_theme_park/rules.py", "        if k < n - 1:\n            total += stars[k]",
     "        if k < n:\n            total += stars[k]", [DR]),
    ("sim/dice_theme_park/rules.py", "stars = money // tab[P_MONEY_PER_STAR]",
     "stars = money // 2", [DR]),
    ("sim/dice_theme_park/rules.py", "(st[b + S.STARS] * 1000 + dice_after_ones[p]) * 100_000",
     "(st[b + S.STARS] * 1000) * 100_000", [DR]),
    # requirements, icons and operations
    ("sim/dice_theme_park/rules.py", "return p0 <= 3 and p1 >= 3", "return p0 < 3 and p1 > 3",
     [DR]),
    ("sim/dice_theme_park/rules.py", "if kind == REQ_PAIR_GREATER:\n        return p0 > p1",
     "if kind == REQ_PAIR_GREATER:\n        return p0 >= p1", [DR]),
    ("sim/dice_theme_park/rules.py", "coloured = colour < 0 or c0 == colour", "coloured = True",
     [DR]),
    ("sim/dice_theme_park/rules.py", "return coloured and p0 % 2 == 1 and p1 % 2 == 0",
     "return coloured and p0 % 2 == 1 and p1 % 2 == 1", [DR]),
    ("sim/dice_theme_park/rules.py", "return p0 != p1 and p1 != p2 and p0 != p2",
     "return p0 != p1 and p1 != p2", [DR]),
    ("sim/dice_theme_park/rules.py",
     "icons = tab[TB.ATT_ICONS + a] + ((st[b + S.UPGRADE + hex_] >> S.GENERATOR) & 1)",
     "icons = tab[TB.ATT_ICONS + a]", [DR]),
    ("sim/dice_theme_park/rules.py", "if a < 0 or st[b + S.CUBES] >= tab[P_CUBES]:",
     "if a < 0 or st[b + S.CUBES] > tab[P_CUBES]:", [DR, DE]),
    ("sim/dice_theme_park/rules.py",
     "if st[S.DIE_PIPS + i] == 1:\n                discard_die(st, i)",
     "if st[S.DIE_PIPS + i] == 0:\n                discard_die(st, i)", [DR]),
    ("sim/dice_theme_park/rules.py",
     "        if st[S.DIE_AT + i] == at:\n            st[S.DIE_TINT + i] = -1",
     "        if st[S.DIE_AT + i] == at:\n            pass", [DR]),
    ("sim/dice_theme_park/rules.py", "effects = cubes * tab[P_EFFECT_STARS] * (",
     "effects = tab[P_EFFECT_STARS] * (", [DR]),
    ("sim/dice_theme_park/rules.py",
     "money = cubes * tab[P_GIFT_MONEY] * ((up >> S.GIFT_SHOP) & 1)",
     "money = cubes * tab[P_GIFT_MONEY] * ((up >> S.GENERATOR) & 1)", [DR]),
    ("sim/dice_theme_park/rules.py", "if h >= 0 and st[b + S.TILE + h] >= 0:", "if h >= 0:", [DR]),
    ("sim/dice_theme_park/rules.py", "if g >= 0 and st[b + S.TILE + g] >= 0:", "if g >= 0:", [DR]),
    ("sim/dice_theme_park/rules.py", "if pips < 1:\n        discard_die(st, i)",
     "if pips < 0:\n        discard_die(st, i)", [DR]),
    # expand, improve and upkeep
    ("sim/dice_theme_park/rules.py", "if count == tab[P_BONUS_SET_ANY_PIPS]:",
     "if count == tab[P_BONUS_SET_ANY_PIPS] + 1:", [DR]),
    ("sim/dice_theme_park/rules.py", "tab[P_MASCOT_PRICE] - 2 * played(st, p, MASCOT)",
     "tab[P_MASCOT_PRICE] - played(st, p, MASCOT)", [DR]),
    ("sim/dice_theme_park/rules.py",
     "tab[TB.ATT_UPGRADE_COST + a * 2 + used] - played(st, p, ARCHITECT)\n",
     "tab[TB.ATT_UPGRADE_COST + a * 2 + used]\n", [DR]),
    ("sim/dice_theme_park/rules.py",
     "return kinds & ~st[b + S.UPGRADE + hex_] & ~st[b + S.BANNED + hex_]",
     "return kinds & ~st[b + S.BANNED + hex_]", [DR]),
    ("sim/dice_theme_park/rules.py", "st[b + S.BANNED + hex_] |= 1 << kind",
     "st[b + S.BANNED + hex_] |= 0", [DR]),
    ("sim/dice_theme_park/rules.py", "move_die(st, p, i, tab[P_ENTRANCE_HEX])",
     "st[S.DIE_PIPS + i] = pips", [DR]),
    ("sim/dice_theme_park/rules.py", "left = S.seat((p + 1) % n)", "left = S.seat((p + n - 1) % n)",
     [DR]),
    ("sim/dice_theme_park/rules.py", "st[b + S.MAPS_UP] += st[b + S.MAPS_DOWN]",
     "st[b + S.MAPS_UP] += 0", [DR]),
    ("sim/dice_theme_park/rules.py",
     "    for _ in range(st[S.N_PLAYERS] + 1):\n        if st[top] > 0:",
     "    for _ in range(st[S.N_PLAYERS]):\n        if st[top] > 0:", [DR]),
    ("sim/dice_theme_park/rules.py", "next_round] == 1", "next_round] == 0", [DR]),
    # the decisions
    ("sim/dice_theme_park/moves.py", "if st[b + S.HAND + x] >= 1 + (x == y)",
     "if st[b + S.HAND + x] >= 1", [DR, DE]),
    ("sim/dice_theme_park/moves.py", "if tab[TB.ATT_COST + st[S.DISPLAY + k]] <= st[b + S.MONEY]:",
     "if tab[TB.ATT_COST + st[S.DISPLAY + k]] <= st[b + S.MONEY] + 3:", [DR, DE]),
    ("sim/dice_theme_park/rules.py", "st[b + S.MAPS_BOUGHT] < tab[P_MAX_MAPS_BOUGHT]",
     "st[b + S.MAPS_BOUGHT] <= tab[P_MAX_MAPS_BOUGHT]", [DR, DE]),
    ("sim/dice_theme_park/moves.py", "st[b + S.REMOVED] < R.played(st, p, R.ARCHITECT)",
     "st[b + S.REMOVED] <= R.played(st, p, R.ARCHITECT)", [DR, DE]),
    ("sim/dice_theme_park/moves.py",
     "manager = st[b + S.MANAGER_USED] < R.played(st, p, R.MANAGER)",
     "manager = st[b + S.MANAGER_USED] <= R.played(st, p, R.MANAGER)", [DR, DE]),
    ("sim/dice_theme_park/moves.py", "st[b + S.EXTRA_LEFT] > 0 and st[b + S.EXTRA_HEX] == here",
     "st[b + S.EXTRA_LEFT] > 0", [DR, DE]),
    ("sim/dice_theme_park/moves.py", "st[b + S.EXTRA_LEFT] = R.played(st, p, R.MASCOT)",
     "st[b + S.EXTRA_LEFT] = 1", [DR, DE]),
    # the game loop
    ("sim/dice_theme_park/play.py", "for _ in range(R.played(st, p, R.CONCIERGE)):",
     "for _ in range(1):", [DE]),
    ("sim/dice_theme_park/play.py", "if t == M.T_ACT and movable > 0:",
     "if t == M.T_ACT and movable > 1:", [DE]),
    ("sim/dice_theme_park/play.py", "return (seat + game_index) % n_players if rotate else seat",
     "return (seat + game_index + 1) % n_players if rotate else seat", [DE]),
    ("sim/dice_theme_park/play.py", "        R.discard_die(st, ctx[1 + k])", "        pass", [DE]),
    ("sim/dice_theme_park/play.py", "saves = R.played(st, p, R.TICKET_AGENT)", "saves = 0",
     [DE]),
    # the features
    ("sim/dice_theme_park/features.py",
     "elif kind == M.K_MOVE or kind == M.K_AGAIN or t == M.T_MAP or t == M.T_GUIDE:\n"
     "            out[1] = bb",
     "elif kind == M.K_MOVE or kind == M.K_AGAIN or t == M.T_MAP or t == M.T_GUIDE:\n"
     "            out[1] = -1", [DE]),
    ("sim/dice_theme_park/features.py", "_copy(work, st, b, b + S.TILE)",
     "_copy(work, st, b + 1, b + S.TILE)", [DE]),
    ("sim/dice_theme_park/features.py", "if work[S.seat(p) + S.CUBES] >= tab[R.P_CUBES]:",
     "if work[S.seat(p) + S.CUBES] > tab[R.P_CUBES]:", [DE]),
    ("sim/dice_theme_park/features.py",
     "out[3] = per_op * (tab[TB.ATT_ICONS + a] + ((up >> S.GENERATOR) & 1))",
     "out[3] = per_op * tab[TB.ATT_ICONS + a]", [DR]),
    ("sim/dice_theme_park/features.py",
     "row[F_TURN_SUM] = tab[TB.STAFF_PIPS + a] + tab[TB.STAFF_PIPS + b]",
     "row[F_TURN_SUM] = tab[TB.STAFF_PIPS + a]", [DR]),
    # the results
    ("sim/dice_theme_park/batch.py", "seat_out[SO_DICE, g, p] = dice[p]",
     "seat_out[SO_DICE, g, p] = 0", [DE]),
    ("sim/dice_theme_park/batch.py", "seat_out[SO_POSITION, g, p] = i",
     "seat_out[SO_POSITION, g, p] = p",
     [DE]),
    # the features of moves like the previous one (added after the 111 above)
    ("sim/dice_theme_park/features.py", "return t == M.T_ACT and t0 == M.T_ACT and a == a0",
     "return t == M.T_ACT and t0 == M.T_ACT", [DE]),
    ("sim/dice_theme_park/features.py", "if x == 0 and leaves and left[0] == fp[FOOTPRINT]:",
     "if x == 0 and leaves and left[0] >= 0:", [DE]),
    # Dice Theme Park: the random bot's operate pick, counted rather than listed
    ("sim/dice_theme_park/moves.py", "m += tiles - 1  # every tile but its own", "m += tiles",
     [DR, DE]),
    ("sim/dice_theme_park/moves.py", "* (S.COLOURS + (st[S.DIE_PIPS + i] < 6))",
     "* (S.COLOURS + 1)", [DR, DE]),
    ("sim/dice_theme_park/moves.py", "return encode(T_TINT, i, j + (j >= own), use)",
     "return encode(T_TINT, i, j + (j > own), use)", [DR, DE]),
    ("sim/dice_theme_park/moves.py",
     "extra_hex = st[b + S.EXTRA_HEX] if st[b + S.EXTRA_LEFT] > 0 else -1",
     "extra_hex = st[b + S.EXTRA_HEX]", [DR, DE]),
    # Dice Theme Park, the full game: dealing and keeping the cards, the skill display
    ("sim/dice_theme_park/rules.py", "st[b + S.ADMIN_DEALT + k] = st[S.ADMIN_DECK + 2 * i + k]",
     "st[b + S.ADMIN_DEALT + k] = st[S.ADMIN_DECK + 2 * i]", [DP]),
    ("sim/dice_theme_park/rules.py",
     "    st[S.SKILL_DECK + st[S.SKILL_DECK_N]] = st[b + S.SKILL_DEALT + 1 - which]\n"
     "    st[S.SKILL_DECK_N] += 1", "    pass", [DP, DE]),
    ("sim/dice_theme_park/rules.py", "    if reshuffle:\n        shuffle(",
     "    if False:\n        shuffle(", [DP, DE]),
    ("sim/dice_theme_park/rules.py",
     "for _ in range(st[S.N_PLAYERS] + 1):\n        if st[S.SKILL_DECK_N] == 0",
     "for _ in range(st[S.N_PLAYERS]):\n        if st[S.SKILL_DECK_N] == 0", [DP, DE]),
    ("sim/dice_theme_park/rules.py", "st[b + S.TAKEN] |= 1 << card", "st[b + S.TAKEN] |= 0",
     [DP, DE]),
    ("sim/dice_theme_park/play.py", "if modules:\n                R.lay_skill_display(",
     "if False:\n                R.lay_skill_display(", [DP, DE]),
    # the administrators
    ("sim/dice_theme_park/rules.py",
     "return st[b + S.ADMIN] if st[b + S.ADMIN_GONE] == 0 else -1", "return st[b + S.ADMIN]",
     [DP]),
    ("sim/dice_theme_park/rules.py", "\n               - st[b + S.SUM_OFF])", ")", [DP]),
    ("sim/dice_theme_park/rules.py", "return max(0, tab[TB.STAFF_PIPS + st[b + S.PLAYED]]",
     "return max(-9, tab[TB.STAFF_PIPS + st[b + S.PLAYED]]", [DP]),
    ("sim/dice_theme_park/rules.py", "add_stars(st, p, S.SRC_ADMINS, money // per - stars)",
     "add_stars(st, p, S.SRC_ADMINS, money // per)", [DP]),
    ("sim/dice_theme_park/rules.py", "- admin_amount(st, tab, p, A_MASCOT_DISCOUNT))",
     "- 0 * admin_amount(st, tab, p, A_MASCOT_DISCOUNT))", [DP]),
    ("sim/dice_theme_park/rules.py",
     "max(0, tab[P_MAP_PRICE] - admin_amount(st, tab, p, A_MAP_DISCOUNT))",
     "tab[P_MAP_PRICE]", [DP]),
    ("sim/dice_theme_park/rules.py", "- admin_amount(st, tab, p, A_UPGRADE_DISCOUNT))",
     "- 0 * admin_amount(st, tab, p, A_UPGRADE_DISCOUNT))", [DP]),
    ("sim/dice_theme_park/powers.py", "st[S.DIE_COL + new[k]] = colours[order[k]]",
     "st[S.DIE_COL + new[k]] = colours[k]", [DP]),
    ("sim/dice_theme_park/powers.py", "    if plus >= 0:\n        R.raise_die(st, new[plus], 1)",
     "    if plus >= 0:\n        pass", [DP]),
    ("sim/dice_theme_park/powers.py", "    st[S.MONO_COL + k] = -1\n    return i", "    return i",
     [DP, DE]),
    ("sim/dice_theme_park/powers.py", "if count >= tab[TB.ADM_THRESHOLDS + a * 3 + k]:",
     "if count > tab[TB.ADM_THRESHOLDS + a * 3 + k]:", [DP]),
    ("sim/dice_theme_park/powers.py",
     "if t >= 0 and st[b + S.CUBES_ON + h] > 0 and (power == R.A_OPERATED_STARS",
     "if t >= 0 and st[b + S.CUBES_ON + h] > 0 and tab[TB.ATT_STACK + t] != "
     "TB.STACK_ENTRANCE and (power == R.A_OPERATED_STARS", [DP]),
    ("sim/dice_theme_park/powers.py", "st[b + S.CUBES_ON + h] > 0", "st[b + S.CUBES_ON + h] >= 0",
     [DP]),
    ("sim/dice_theme_park/powers.py", "and st[S.DIE_PIPS + i] == 1 \\",
     "and st[S.DIE_PIPS + i] <= 2 \\", [DP]),
    ("sim/dice_theme_park/powers.py", "st[b + S.ADMIN_GONE] = 1", "st[b + S.ADMIN_GONE] = 0", [DP]),
    ("sim/dice_theme_park/play.py", "if R.has_admin(st, tab, p, R.A_SAVE):", "if False:",
     [DP, DE]),
    ("sim/dice_theme_park/moves.py", "if i < 0 or st[S.DIE_COL + i] != colour:", "if i < 0:",
     [DP, DR]),
    # the skills
    ("sim/dice_theme_park/powers.py", "min(tab[TB.SK_LIMIT + card],", "max(0,", [DP]),
    ("sim/dice_theme_park/powers.py", "st[S.DIE_PIPS + a] = 7 - st[S.DIE_PIPS + a]",
     "st[S.DIE_PIPS + a] = 5", [DP]),
    ("sim/dice_theme_park/powers.py", "        st[S.DIE_TINT + a] = -1\n    return 0",
     "        pass\n    return 0", [DP]),
    ("sim/dice_theme_park/powers.py", "st[S.BAG + b] -= 1", "st[S.BAG + b] -= 0", [DP, DE]),
    ("sim/dice_theme_park/powers.py", "if power != R.SK_LEAP and amount > 1:",
     "if power != R.SK_LEAP and amount > 0:", [DP]),
    ("sim/dice_theme_park/powers.py", "st[st_b + S.SKILLS_USED] |= 1 << k",
     "st[st_b + S.SKILLS_USED] |= 0", [DP, DE]),
    ("sim/dice_theme_park/powers.py", "b if power == R.SK_PULL else",
     "b if power == R.SK_PUSH else", [DP]),
    ("sim/dice_theme_park/moves.py", "if (st[b + S.SKILLS_USED] >> k) & 1:", "if False:",
     [DP, DE]),
    ("sim/dice_theme_park/moves.py", "d <= amount if power == R.SK_LEAP else d == 1)",
     "d <= amount if power == R.SK_LEAP else d <= 2)", [DP]),
    ("sim/dice_theme_park/moves.py", "if c != own and st[S.BAG + c] > 0", "if c != own", [DP, DE]),
    ("sim/dice_theme_park/moves.py", "and own == colour and (pips == 2 or pips == 5)",
     "and (pips == 2 or pips == 5)", [DP]),
    ("sim/dice_theme_park/moves.py",
     "and R.can_adjust(st[S.DIE_PIPS + j], amount if dirs & 2 else -amount)",
     "and True", [DP]),
    ("sim/dice_theme_park/moves.py", "if st[S.DIE_COL + slots[h, x]] == colour:", "if True:",
     [DP]),
    ("sim/dice_theme_park/play.py", "saves += 1  # the ticket agents save the others first",
     "saves += 0  # the ticket agents save the others first", [DP]),
    # The Magnificent: setup, gains, the turn, the round end, the end, moves, the loop,
    # features, invariants and the placements' orientations
    (MAG + "rules.py",
     "st[S.POOL + k * S.PIPS + 1 + randint(rng, 6)] += 1",
     "st[S.POOL + k * S.PIPS + randint(rng, 6)] += 1", [MR]),
    (MAG + "rules.py",
     "if s == 0 or not in_play:",
     "if s == 0:", [MR]),
    (MAG + "rules.py",
     "st[S.BOXED + S.B_POSTERS] = ns - n",
     "st[S.BOXED + S.B_POSTERS] = ns", [MR, ME]),
    (MAG + "rules.py",
     "for k in range(S.COLOURS):\n                take_gems(st, tab, p, k, "
     "tab[P_START_GEMS])",
     "for k in range(S.KINDS):\n                take_gems(st, tab, p, k, tab[P_START_GEMS])", [MR]),
    (MAG + "rules.py",
     "st[b + S.MARKERS] = tab[row + 1]",
     "st[b + S.MARKERS] = tab[row]", [MR]),
    (MAG + "rules.py",
     "st[S.TRAINER_DECK_N] += 1\n            st[S.OFFER + i] = -1",
     "st[S.OFFER + i] = -1", [MR, ME]),
    (MAG + "rules.py",
     "if r < tab[P_TRAINER_DRAFTS]:",
     "if r <= tab[P_TRAINER_DRAFTS]:", [MR]),
    (MAG + "rules.py",
     "if st[b + S.GEMS + kind] < tab[P_STORAGE]:",
     "if st[b + S.GEMS + kind] <= tab[P_STORAGE]:", [MR, ME]),
    (MAG + "rules.py",
     "st[b + S.COINS] += tab[P_EXCESS_COINS]",
     "pass", [MR]),
    (MAG + "rules.py",
     "square_bonus(st, tab, p, 1 + j, tab[at + j])",
     "square_bonus(st, tab, p, 1 + j, 1)", [MR]),
    (MAG + "rules.py",
     "elif kind == T.BN_CLEAR_GEM:\n        take_gems(st, tab, p, S.CLEAR, amount)",
     "elif kind == T.BN_CLEAR_GEM:\n        take_gems(st, tab, p, S.GEMS, amount)", [MR]),
    (MAG + "rules.py",
     "st[b + S.POWER] = pips + st[b + S.SUM + colour]",
     "st[b + S.POWER] = pips", [MR]),
    (MAG + "rules.py",
     "st[b + S.SUM + code // 8] += pips",
     "st[b + S.SUM + colour] += pips", [MR]),
    (MAG + "rules.py",
     "while k < tab[P_LEVELS] and tab[T.LEVEL_POWER + k] <= power:",
     "while k < tab[P_LEVELS] and tab[T.LEVEL_POWER + k] < power:", [MR]),
    (MAG + "rules.py",
     "return (mask & camp) == 0 and (camp == 0 or",
     "return (mask & camp) == 0 and (camp == 0 and", [MR]),
    (MAG + "rules.py",
     "return (mask & camp) == 0 and (camp == 0 or",
     "return (camp == 0 or", [MR, ME]),
    (MAG + "rules.py",
     "if level >= highest_level(tab, st[b + S.POWER]) + st[b + S.LEVEL_PLUS]:",
     "if level >= highest_level(tab, st[b + S.POWER]):", [MR]),
    (MAG + "rules.py",
     "if st[S.TILE_SUPPLY + t] < need or not any_fit(tab, camp, t):",
     "if not any_fit(tab, camp, t):", [MR]),
    (MAG + "rules.py",
     "            st[b + S.PENDING + large] -= 1\n    return -1",
     "    return -1", [MR, ME]),
    (MAG + "rules.py",
     "st[S.TILE_SUPPLY + t] -= 1\n    at = T.PLACE_BONUS",
     "at = T.PLACE_BONUS", [MR, ME]),
    (MAG + "rules.py",
     "return min(st[b + S.POWER] + st[b + S.TRAVEL_PLUS], tab[T.TRACK_LEN + st[b + "
     "S.COLOUR]])",
     "return min(st[b + S.POWER], tab[T.TRACK_LEN + st[b + S.COLOUR]])", [MR]),
    (MAG + "rules.py",
     "elif kind == T.KIND_TENT and st[S.TRACK_TENT + w * S.MAX_TRACK + pos] < 0:",
     "elif kind == T.KIND_TENT:", [MR]),
    (MAG + "rules.py",
     "if st[at] >= 0 and free_tent_space(st, p) >= 0:",
     "if st[at] >= 0:", [MR, ME]),
    (MAG + "rules.py",
     "square_bonus(st, tab, p, TENT_TO_BONUS[tab[T.T_BONUS + tent]], tab[T.T_AMOUNT + "
     "tent])",
     "pass", [MR]),
    (MAG + "rules.py",
     "st[S.POSTER_DISPLAY + where] = draw_poster(st)",
     "st[S.POSTER_DISPLAY + where] = -1", [MR, ME]),
    (MAG + "rules.py",
     "if st[b + S.POSTER + k] >= 0:\n            st[S.DISCARDED + S.D_POSTERS] += 1",
     "if st[b + S.POSTER + k] >= 0:\n            pass", [MR, ME]),
    (MAG + "rules.py",
     "if poster < 0 or tent == -1:",
     "if poster < 0:", [MR]),
    (MAG + "rules.py",
     "if st[b + S.PLACED + t] - st[b + S.SHOW_TILES + t] < tab[",
     "if st[b + S.PLACED + t] < tab[", [MR]),
    (MAG + "rules.py",
     "clear -= need - st[b + S.GEMS + c]",
     "clear = -1", [MR]),
    (MAG + "rules.py",
     "add_points(st, p, S.SRC_TENTS, tab[T.T_POINTS + tent])",
     "add_points(st, p, S.SRC_POSTERS, tab[T.T_POINTS + tent])", [MR]),
    (MAG + "rules.py",
     "st[b + S.POSTER + k] = -1\n    st[b + S.SHOWS] += 1",
     "st[b + S.SHOWS] += 1", [MR, ME]),
    (MAG + "rules.py",
     "return top + st[b + S.SUM + S.CLEAR]",
     "return top", [MR]),
    (MAG + "rules.py",
     "-(cost - paid) * tab[T.PENALTY + r]",
     "-(cost - paid) * tab[T.PENALTY]", [MR]),
    (MAG + "rules.py",
     "for s in range(S.MAX_PERF - 1, -1, -1):",
     "for s in range(S.MAX_PERF):", [MR, ME]),
    (MAG + "rules.py",
     "st[b + S.TRAINERS_N] += 1\n        st[b + S.DRAFTED_TRAINER + r] = t",
     "st[b + S.DRAFTED_TRAINER + r] = t", [MR]),
    (MAG + "rules.py",
     "n += st[b + S.TENT + k] != -1\n    elif kind == T.SC_TILE",
     "n += st[b + S.TENT + k] >= 0 and st[b + S.TENT + k] != S.PRINTED\n    elif kind == "
     "T.SC_TILE", [MR]),
    (MAG + "rules.py",
     "n = st[b + S.COINS] // param",
     "n = st[b + S.COINS] // 2", [MR]),
    (MAG + "rules.py",
     "st[b + S.HAND + i] = st[b + S.HAND + i + 1]",
     "pass", [MR]),
    (MAG + "rules.py",
     "st[S.START] = st[S.PERF]",
     "st[S.START] = 0", [MR, ME]),
    (MAG + "rules.py",
     "st[b + S.MARKERS_USED] = 0\n        for i in range(S.CARD_SLOTS):",
     "for i in range(S.CARD_SLOTS):", [MR]),
    (MAG + "rules.py",
     "if (m & camp) == m:\n            n += 1\n    return n\n\n\n@njit\ndef master_value",
     "if (m & camp) != 0:\n            n += 1\n    return n\n\n\n@njit\ndef master_value", [MR]),
    (MAG + "rules.py",
     "return rate > 0 and gaps > 0 and gaps * rate <= gems_held(st, p)",
     "return rate > 0 and gaps > 0 and gaps * rate < gems_held(st, p)", [MR]),
    (MAG + "rules.py",
     "st[b + S.FILLED] |= m & ~st[b + S.CAMP]",
     "st[b + S.FILLED] |= m", [MR]),
    (MAG + "rules.py",
     "master_value(st, tab, p, card) // tab[P_DIVISOR])",
     "(master_value(st, tab, p, card) + 1) // tab[P_DIVISOR])", [MR]),
    (MAG + "rules.py",
     "add_points(st, p, S.SRC_COINS, st[b + S.COINS] // tab[P_COINS_PER_POINT])",
     "add_points(st, p, S.SRC_COINS, st[b + S.COINS] // 4)", [MR]),
    (MAG + "rules.py",
     "and st[bq + S.COINS] > st[bp + S.COINS]):",
     "and st[bq + S.COINS] < st[bp + S.COINS]):", [MR]),
    (MAG + "moves.py",
     "if st[b + S.DIE + i] < 0 and st[b + S.HAND + i] >= 0:",
     "if st[b + S.HAND + i] >= 0:", [ME]),
    (MAG + "moves.py",
     "return st[b + S.MARKERS] > st[b + S.MARKERS_USED]",
     "return st[b + S.MARKERS] >= st[b + S.MARKERS_USED]", [MR, ME]),
    (MAG + "moves.py",
     "if not (used >> i) & 1:\n                    out[n] = B_TILE + i",
     "if True:\n                    out[n] = B_TILE + i", [MR]),
    (MAG + "moves.py",
     "if st[S.PERF + s] < 0 and tab[T.PERF_POWER + s] <= st[b + S.POWER]:",
     "if tab[T.PERF_POWER + s] <= st[b + S.POWER]:", [MR, ME]),
    (MAG + "moves.py",
     "if st[S.PERF + s] < 0 and tab[T.PERF_POWER + s] <= st[b + S.POWER]:",
     "if st[S.PERF + s] < 0 and tab[T.PERF_POWER + s] <= st[b + S.POWER] + 2:", [MR]),
    (MAG + "moves.py",
     "        if n == 0:  # every space full",
     "        if True:  # every space full", [MR]),
    (MAG + "moves.py",
     "if st[b + S.POSTER + j] < 0:\n                        out[n] = 1 + i * "
     "S.POSTER_SPACES + j",
     "if j != i:\n                        out[n] = 1 + i * S.POSTER_SPACES + j", [MR, ME]),
    (MAG + "moves.py",
     "        st[b + S.POWER] += tab[R.P_GEM_POWER]",
     "        st[b + S.POWER] += 1", [MR]),
    (MAG + "moves.py",
     "        st[b + S.USED] |= 1 << i\n        st[b + S.MARKERS_USED] += 1",
     "        st[b + S.USED] |= 1 << i", [MR, ME]),
    (MAG + "moves.py",
     "if tab[T.M_BONUS + card] != T.MB_COPY:\n                out[n] = B_BONUS",
     "if True:\n                out[n] = B_BONUS", [MR]),
    (MAG + "play.py",
     "i = n_players - 1 - j if tab[R.P_PICK_REVERSE] else j",
     "i = j", [ME]),
    (MAG + "play.py",
     "p = (st[S.START] + i) % n_players\n                nlog = play_turn",
     "p = i\n                nlog = play_turn", [ME]),
    (MAG + "play.py",
     "            p = order[i]\n",
     "            p = i\n", [ME]),
    (MAG + "play.py",
     "if st[b + S.TAKEN] // 8 == S.CLEAR:\n        _, _, nlog = _step(st, tab, p, "
     "M.K_COLOUR",
     "if False:\n        _, _, nlog = _step(st, tab, p, M.K_COLOUR", [ME]),
    (MAG + "play.py",
     "for _ in range(S.MAX_PERF):\n            _, move, nlog = _step(st, tab, p, M.K_FILL",
     "for _ in range(0):\n            _, move, nlog = _step(st, tab, p, M.K_FILL", [ME]),
    (MAG + "play.py",
     "        _, move, nlog = _step(st, tab, p, M.K_BOOST, ctx, bots, bot, rng, scratch, "
     "log, nlog, r)\n        nlog = _posters(st, tab, p, ctx, bots, bot, rng, scratch, "
     "log, nlog, r)\n",
     "        _, move, nlog = _step(st, tab, p, M.K_BOOST, ctx, bots, bot, rng, scratch, "
     "log, nlog, r)\n", [ME]),
    (MAG + "play.py",
     "        for _ in range(S.POSTER_SPACES):\n            _, move, nlog = _step(st, tab, "
     "p, M.K_REARRANGE",
     "        for _ in range(0):\n            _, move, nlog = _step(st, tab, p, "
     "M.K_REARRANGE", [ME]),
    (MAG + "features.py",
     "            row[F_TENT] = 1",
     "            row[F_TENT] = 0", [MF]),
    (MAG + "features.py",
     "if m != 0 and (m & after) == m and (m & before) != m:",
     "if m != 0 and (m & after) == m:", [MF]),
    (MAG + "features.py",
     "    row[F_PENALTY] = -(max(0, after - coins)",
     "    row[F_PENALTY] = (max(0, after - coins)", [MF]),
    (MAG + "features.py",
     "row[F_POSTERS] = deck_value(tab)\n",
     "row[F_POSTERS] = poster_value(tab, st[S.POSTER_DECK + st[S.POSTER_DECK_N] - 1])\n", [ME]),
    (MAG + "features.py",
     "row[F_ACTION_GAIN] = action_value(st, tab, p, power + added,",
     "row[F_ACTION_GAIN] = action_value(st, tab, p, power,", [MF]),
    (MAG + "features.py",
     "        if kind == S.CLEAR:  # the colour the player has most of",
     "        if False:  # the colour the player has most of", [MF]),
    (MAG + "features.py",
     "        after = max(before - clear, st[b + S.SUM + kind] + pips) + clear",
     "        after = before + pips", [MF]),
    (MAG + "features.py",
     "- sides_facing(tab, mask, free)",
     "- sides_facing(tab, mask, camp)", [MF]),
    (MAG + "features.py",
     "row[F_NEEDED] += min(need, max(0, wanted - st[b + S.PLACED + t]))",
     "row[F_NEEDED] += min(need, wanted)", [MF]),
    (MAG + "invariants.py",
     "if total != tab[T.DICE + n * S.KINDS + k]:",
     "if total < 0:", [ME]),
    (MAG + "tables.py",
     'v["place_bonus"][t, k, v["square_bonus"][bit] - 1] += v["square_amount"][bit]',
     'v["place_bonus"][t, k, v["square_bonus"][bit] - 1] += 1', [MR]),
    (MAG + "tables.py",
     '1000 * float((deck["points"] + deck["coins"]).mean())',
     '1000 * float(deck["points"].mean())', [MF]),
    (MAG + "tables.py",
     "shape = [(c, -r) for r, c in shape]",
     "shape = [(r, c) for r, c in shape]", [MR]),
    (MAG + "tables.py",
     "shape = [(r, -c) if flip else (r, c) for r, c in cells]",
     "shape = [(r, c) for r, c in cells]", [MR]),
    (MAG + "rules.py",
     "hat = n - 1 - p if tab[P_HAT_ON_TOP] else p",
     "hat = p", [MR]),
    # issue 24: a tent space's poster taken in the travel's turn
    (MAG + "play.py",
     "            # a tent space's own bonus may be a poster (rules.md 28)\n"
     "            nlog = _posters(st, tab, p, ctx, bots, bot, rng, scratch, log, nlog, r)\n",
     "", [ME]),
    # issue 24: Dice Theme Park's rules as the review read them
    ("sim/dice_theme_park/rules.py",  # the kept die no longer one that may move
     "        movable[n] = i\n        n += 1\n    at = p",
     "        if k != keep:\n            movable[n] = i\n            n += 1\n    at = p", [DP]),
    ("sim/dice_theme_park/rules.py", "return 0 <= pips + delta <= 6",
     "return 1 <= pips + delta <= 6", [DP]),
    ("sim/dice_theme_park/powers.py", "R.adjust_pips(st, a, amount if c & 1 else -amount)",
     "st[S.DIE_PIPS + a] += amount if c & 1 else -amount", [DP]),
    ("sim/dice_theme_park/log.py", '(" (manager)" if c & 1 else "")',
     '(" (manager)" if c else "")', [DP]),
    ("sim/dice_theme_park/rules.py", "return tab[P_MAPS_SUPPLY] - taken",
     "return tab[P_MAPS_SUPPLY]", [DR]),
    ("sim/dice_theme_park/rules.py", "return st[b + S.MASCOTS] < tab[P_MASCOTS_EACH] and ",
     "return ", [DR]),
    # every party, however many dice (parties_among's groups of alike dice)
    ("sim/dice_theme_park/rules.py", "uses = 1 + (y == x)\n", "uses = 1\n", [DR]),
    ("sim/dice_theme_park/rules.py", "uses = 1 + (z == x) + (z == y)",
     "uses = 1 + (z == x)", [DR]),
    ("sim/dice_theme_park/rules.py", "if g_n[g] < MAX_PARTY:", "if g_n[g] < 2:", [DR]),
    ("sim/dice_theme_park/rules.py",
     "                    if seen[q] == keys:\n                        new = False",
     "                    if seen[q] == keys:\n                        new = True", [DR]),
    ("sim/dice_theme_park/rules.py", "key = (die_colour(st, i) * 8 + st[S.DIE_PIPS + i]) * 8",
     "key = (st[S.DIE_COL + i] * 8 + st[S.DIE_PIPS + i]) * 8", [DR]),
    ("sim/dice_theme_park/invariants.py", "if in_park > S.MAX_PARK_DICE:",
     "if in_park > S.PARK_DICE:", [DE]),
]


# s: a pytest run this long is a mutant's endless loop (a mutant's own test files take a few
# minutes at most, the whole suite about ten)
TIMEOUT = {"first": 600, "suite": 1800}


def _first_failure(tree: Path, tests: list[str], timeout: int = TIMEOUT["suite"]
                   ) -> tuple[str, list[str]] | None:
    """None when all pass; else what failed, as (a label for the log, the pytest arguments
    that run it again): the first failing test's node id (pytest -x), or the whole ``tests``
    when pytest names none (a crash) or does not end within TIMEOUT (a mutant that loops
    forever)."""
    try:
        res = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-rf", "-p",
                              "no:cacheprovider", *tests], cwd=tree, capture_output=True,
                             text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout} s: {' '.join(tests)}", tests
    if res.returncode == 0:
        return None
    # "FAILED <node id> - <message>": a parametrised id may hold spaces
    failed = [x.removeprefix("FAILED ").split(" - ")[0] for x in res.stdout.splitlines()
              if x.startswith("FAILED ")]
    return (failed[0], [failed[0]]) if failed else (" ".join(tests), tests)


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
    survivors, stale = [], []
    for n in chosen:
        file, old, new, first = MUTANTS[n]
        path = tree / file
        original = path.read_text()
        if original.count(old) != 1:
            print(f"{n:2d} STALE: the text to mutate is not once in {file}")
            stale.append(n)
            continue
        path.write_text(original.replace(old, new))
        t0 = time.time()
        killer = None
        # the likeliest test files first, then the whole suite (pytest would merge the two
        # into one collection order if given together)
        # (the slow subprocess tests of interruption run only where a mutant's own test
        # files hold them: they check the runner, which those mutants name; the check of
        # this list fails on every mutant's copy, so it would count each survivor killed)
        for tests, limit in (([f"tests/{f}" for f in first], TIMEOUT["first"]),
                             (["tests", "-m", "not slow", "--ignore=tests/test_mutants_list.py"],
                              TIMEOUT["suite"])):
            killer = _first_failure(tree, tests, limit)
            if killer:
                break
        path.write_text(original)
        # a kill counts only if the failing test passes without the mutant (not a flake)
        if killer and _first_failure(tree, killer[1]):
            print(f"{n:2d} FLAKY: {killer[0]} fails without the mutant too", flush=True)
            killer = None
        killed = killer is not None
        line = old.strip().splitlines()[0][:60]
        print(f"{n:2d} {'killed  ' if killed else 'SURVIVED'} {time.time() - t0:5.0f} s  "
              f"{file}: {line}" + (f"  <- {killer[0]}" if killed else ""), flush=True)
        if not killed:
            survivors.append(n)
    done = len(list(chosen)) - len(stale)
    print(f"\n{done - len(survivors)} of {done} mutants killed "
          f"({100 * (done - len(survivors)) / max(done, 1):.0f}%); survivors: {survivors}"
          + (f"; stale, not run: {stale}" if stale else ""))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
