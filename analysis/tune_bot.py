"""``playtest tune bot``: a preset's weights learned by play with CMA-ES (the ``cma`` package).

The search runs over the weights the base preset lists (each ``[BOT.KIND]`` entry one
coordinate, starting at the preset's value, its step scaled to the weight's size). A
candidate's fitness is its win share against the field, the candidate in every seat in turn
(seats rotated), on the same games for every candidate (one master seed: common random
numbers), so candidates differ by their weights, not their deals. The mean of the search's
distribution after the last generation (less lucky than its best candidate) is then played
on a fresh seed beside the base preset (the same games), and both win shares go into the bots
file's comment with their intervals.

The work folder holds the request and the history (every candidate and its win share),
written after each generation: an interrupted tuning resumes at its last whole generation.
Each generation's samples are drawn from numpy's generator seeded by (seed, generation), and
a resumed tuning rebuilds the optimiser by asking again and telling it the recorded shares
(cma's own pickle does not resume the same samples), so it goes on as an uninterrupted one
would have.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.folders import bots_file_out, claimed, write_csv, write_json, write_text
from analysis.stats import mean_interval
from analysis.tune_rules import CONFIRM_SEED
from sim.core.checks import MAX_GAMES, MAX_SEED, whole
from sim.core.errors import PlaytestError
from sim.core.registry import game_module
from sim.core.runner import bot_record, simulate_frame
from strategies.presets import added_bots, bot_table, bots_toml, load_presets


@dataclass(frozen=True)
class Weights:
    """The coordinates of the search: (decision kind, feature) of each weight the base lists."""

    base: dict  # the base preset's table
    keys: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, table: dict) -> Weights:
        keys = tuple((kind, f) for kind, row in table.items() if isinstance(row, dict)
                     for f in row)
        return cls(table, keys)

    def start(self) -> np.ndarray:
        return np.array([float(self.base[k][f]) for k, f in self.keys])

    def table(self, x: np.ndarray, description: str) -> dict:
        out = copy.deepcopy(self.base)
        out["description"] = description
        for (kind, feature), value in zip(self.keys, x):
            out[kind][feature] = round(float(value), 4)
        return out


def win_share(game: str, name: str, table: dict, field: list[str], games: int, seed: int,
              sets: dict | None, data: str | None, threads: int | None) -> np.ndarray:
    """Per game, the win of the bot ``table`` (as ``name``) against ``field``, seats
    rotated (a shared win counts its share)."""
    with added_bots(game, {name: ("the tuning", table)}):
        df = simulate_frame(game, games, 1 + len(field), [name, *field], seed,
                            threads=threads, data=data, sets=sets)
    mine = df[df["bot_slot"] == 0].sort_values("game_index")
    return mine["win"].to_numpy(dtype=float)


def tune_bot(game: str, base: str = "greedy", against: list[str] | None = None,
             name: str = "tuned", out: str | Path = "tuned.toml", work: str | Path | None = None,
             games: int = 2000, generations: int = 20, popsize: int | None = None,
             sigma: float = 0.5, final_games: int | None = None, seed: int = 0,
             sets: dict | None = None, data: str | None = None, threads: int | None = None,
             progress: bool = True) -> dict:
    """Learn ``base``'s weights against ``against`` (default: the base three times); writes
    the bots file ``out`` and returns the summary (tune.json of the work folder)."""
    import cma

    module = game_module(game)
    presets = load_presets(game)
    if base not in presets or presets[base].search or not presets[base].weights:
        weighed = [n for n, p in presets.items() if p.weights and not p.search]
        raise PlaytestError(f"--from {base}: not a bot of {game} with weights to tune "
                            f"({', '.join(weighed)})")
    if name in presets:
        raise PlaytestError(f"--name {name} is a bot of {game} already; choose another name")
    against = list(against or [base] * 3)
    players = 1 + len(against)
    module.prepare(players, [base, *against], data, True, sets=sets or None)
    whole("games", games, 10, MAX_GAMES)
    whole("generations", generations, 1, 10_000)
    final_games = 10 * games if final_games is None else final_games
    whole("final_games", final_games, 10, MAX_GAMES)
    whole("seed", seed, 0, MAX_SEED - CONFIRM_SEED)
    if popsize is not None:
        whole("popsize", popsize, 2, 1000)
    if not (isinstance(sigma, int | float) and 0 < sigma <= 10):
        raise PlaytestError(f"--sigma must be a number above 0 and at most 10, got {sigma!r}")
    spec = copy.deepcopy(bot_table(game, base))
    weights = Weights.of(spec)
    with added_bots(game, {name: ("--name", spec)}):  # the name, refused now if it cannot be
        pass
    out, work = bots_file_out(out, work, ".tuning")
    # what the search plays: the same again resumes (more --generations go on from there)
    request = {"game": game, "base": base, "base_table": spec, "against": against,
               "name": name, "games": games, "popsize": popsize, "sigma": sigma,
               "seed": seed, "sets": sets or {}, "data": data} | bot_record(game, against)
    with claimed(work, "tune", request):  # locked while the search plays

        def fitness(x: np.ndarray) -> float:
            table = weights.table(x, "candidate")
            return float(win_share(game, name, table, against, games, seed, sets, data,
                                   threads).mean())

        x0 = weights.start()
        scale = np.maximum(np.abs(x0), 0.1 * max(float(np.sqrt(np.mean(x0 ** 2))), 1e-3))
        saved = np.random.get_state()  # cma seeds numpy's global generator: keep the user's
        opts = {"seed": seed + 1, "verbose": -9, "CMA_stds": scale.tolist()}
        if popsize:
            opts["popsize"] = popsize
        es = cma.CMAEvolutionStrategy(x0.tolist(), sigma, opts)
        np.random.set_state(saved)
        history = work / "history.csv"
        rows = _recorded(history, weights) if history.exists() else []
        done = _replay(es, rows, seed, weights, history) if rows else 0
        if not rows:
            rows = [{"generation": 0, "candidate": 0, "win_share": fitness(x0),
                     **dict(zip(_names(weights), x0))}]
        bar = None
        if progress and done < generations:
            from tqdm import tqdm

            bar = tqdm(total=generations, initial=done, unit="generation", desc=f"tune {name}")
        try:
            for g in range(done + 1, generations + 1):
                xs = _ask(es, seed, g)
                shares = [fitness(np.asarray(x)) for x in xs]
                es.tell(xs, [-s for s in shares])
                rows += [{"generation": g, "candidate": i, "win_share": s,
                          **dict(zip(_names(weights), x))}
                         for i, (x, s) in enumerate(zip(xs, shares))]
                write_csv(history, pd.DataFrame(rows))
                if bar is not None:
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
        table = pd.DataFrame(rows)
        # the mean of the search's distribution: less lucky than the best single candidate
        run = {"generations": generations, "final_games": final_games, "threads": threads}
        return _finish(game, name, base, spec, weights, np.asarray(es.mean), against, request,
                       run, work, out, table, progress)


def _finish(game, name, base, spec, weights, x, against, request, run, work, out, table,
            progress):
    """The tuned weights and the base played on fresh seeds, the same games; the bots file."""
    start = time.perf_counter()
    master, n = request["seed"] + CONFIRM_SEED, run["final_games"]
    if progress:
        print(f"confirming on seed {master}: {n:,} games each of the tuned weights and of "
              f"{base}, against {', '.join(against)}")
    args = (against, n, master, request["sets"] or None, request["data"], run["threads"])
    tuned = win_share(game, name, weights.table(x, "tuned"), *args)
    shipped = win_share(game, name, spec, *args)
    share, lo, hi = mean_interval(tuned)
    b_share, b_lo, b_hi = mean_interval(shipped)
    gain, g_lo, g_hi = mean_interval(tuned - shipped)
    sets = request["sets"]
    comment = [
        f"playtest tune bot {game} --from {base} --against {','.join(against)}"
        + "".join(f" --set {k}={v}" for k, v in sets.items())
        + f" --generations {run['generations']} --games {request['games']} --seed "
        f"{request['seed']}",
        f"CMA-ES over the {len(weights.keys)} weights of '{base}': {run['generations']} "
        f"generations, {request['games']:,} games a candidate on seed {request['seed']}",
        f"rules: {'as shipped' if not sets else ', '.join(f'{k}={v}' for k, v in sets.items())}"
        f"{'' if not request['data'] else ', data ' + str(request['data'])}",
        f"on fresh seed {master}, {n:,} games against the field: {name} wins "
        f"{100 * share:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}], {base} {100 * b_share:.1f}% "
        f"[{100 * b_lo:.1f}, {100 * b_hi:.1f}] on the same games; difference "
        f"{100 * gain:+.1f} pp [{100 * g_lo:+.1f}, {100 * g_hi:+.1f}]",
    ]
    description = f"{base} tuned by play against {','.join(against)}" + (
        f" under {', '.join(f'{k}={v}' for k, v in sets.items())}" if sets else "")
    write_text(out, bots_toml(name, weights.table(x, description), comment))
    summary = {"request": request, "status": "complete", "out": str(out), **run,
               "tuned": {"share": share, "low": lo, "high": hi},
               "base": {"share": b_share, "low": b_lo, "high": b_hi},
               "difference": {"pp": 100 * gain, "low": 100 * g_lo, "high": 100 * g_hi},
               "evaluations": int(len(table)),
               "seconds_confirming": round(time.perf_counter() - start, 1)}
    write_json(work / "tune.json", summary)
    return summary


def _names(weights: Weights) -> list[str]:
    return [f"{kind}.{feature}" for kind, feature in weights.keys]


def _ask(es, seed: int, generation: int) -> list:
    """A generation's candidates, drawn from numpy's generator seeded by (seed, generation)
    (cma samples from the global one; the user's state is put back)."""
    saved = np.random.get_state()
    np.random.seed([seed, generation])
    try:
        return es.ask()
    finally:
        np.random.set_state(saved)


def _recorded(history: Path, weights: Weights) -> list[dict]:
    """The candidates a tuning recorded, or one line when the file is not its history."""
    try:
        rows = pd.read_csv(history).to_dict("records")
    except (OSError, ValueError, pd.errors.ParserError) as e:
        raise PlaytestError(f"cannot read {history}: {e}; remove its folder to start the "
                            "tuning again") from None
    if rows and not {"generation", "win_share", *_names(weights)} <= set(rows[0]):
        raise PlaytestError(f"{history} is not this tuning's history; remove its folder to "
                            "start the tuning again")
    return rows


def _replay(es, rows: list[dict], seed: int, weights: Weights, history: Path) -> int:
    """The optimiser as it was after the recorded generations: each asked again (the same
    samples) and told the recorded shares; returns the last whole generation."""
    names = _names(weights)
    last = int(max(r["generation"] for r in rows))
    for g in range(1, last + 1):
        mine = [r for r in rows if r["generation"] == g]
        xs = _ask(es, seed, g)
        if len(mine) != len(xs) or not np.allclose(
                [[r[n] for n in names] for r in mine], xs, rtol=1e-9, atol=1e-12):
            raise PlaytestError(f"{history} does not match this tuning's samples (generation "
                                f"{g}); remove its folder to start the tuning again")
        es.tell(xs, [-r["win_share"] for r in mine])
    return last
