"""Two arms on common random numbers, played batch by batch until a sequential test decides.

An arm is a line-up plus rule overrides or a data folder. Both arms play the same master seed,
so game i of A and game i of B are dealt the same (every engine deals from the game's own
stream, sim/core/rng.py). The metric is a per-game value of each arm (the win share or the
score of a seat, slot or bot) and the test runs on the per-game differences B - A
(sequential.py). The arms are run folders (OUT/a, OUT/b) of the batch runner, one chunk per
batch, so an interrupted comparison resumes like ``simulate``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.folders import claimed, write_csv, write_json
from analysis.formatting import interval
from analysis.sequential import (
    NO_DIFFERENCE,
    UNDECIDED,
    Design,
    Sequential,
    confidence_sequence,
    paired_summary,
)
from sim.core.checks import MAX_GAMES, MAX_SEED, flag, path, rule_sets, text, whole
from sim.core.errors import ParameterError, PlaytestError
from sim.core.registry import game_module
from sim.core.run_folder import read_chunk
from sim.core.runner import bot_record, resolve_bots, run

METRICS = {"win": "win rate", "score": "mean score", "seat-spread": "first seat's lead"}
# the default indifference zone: 2 points of win rate; a score's is the game's own (its
# declaration's score_delta: a point or two, what a designer notices)
DELTA = {"win": 0.02, "seat-spread": 0.02}
KEY = {"win": "win", "score": "score", "seat-spread": "seat_spread"}  # per-game values
# the seat spread's verdicts in the game's terms: B's larger lead makes A the fairer game
FAIRER = {"B better": "A fairer", "A better": "B fairer"}
BATCH = 2000
MAX_COMPARE_GAMES = 1_000_000
COLUMNS = ["game_index", "seat", "bot_slot", "bot", "win", "score"]


@dataclass(frozen=True)
class Arm:
    """One side of a comparison: a bot per slot, rule overrides, a data folder, a seed."""

    bots: tuple[str, ...]
    sets: dict = field(default_factory=dict)
    data: str | None = None
    seed: int = 0

    def describe(self) -> str:
        parts = [",".join(self.bots)]
        if self.sets:
            parts.append(" ".join(f"{k}={v}" for k, v in self.sets.items()))
        if self.data:
            parts.append(f"data {self.data}")
        return "; ".join(parts)


@dataclass(frozen=True)
class Target:
    """Whose rows a metric reads: ``kind`` seat, slot, bot or holder, and which ones (for a
    holder: the element's column and level, the seats dealt that level)."""

    kind: str
    which: tuple

    @classmethod
    def parse(cls, text: str) -> Target:
        kind, sep, rest = text.partition("=")
        items = tuple(x.strip() for x in rest.split(",") if x.strip())
        if not sep or kind not in ("seat", "slot", "bot", "holder") or not items:
            raise ParameterError("target", f"'{text}' is not seat=N, slot=N[,M...], bot=NAME "
                                 "or holder=ELEMENT:LEVEL")
        if kind == "holder":
            column, colon, level = rest.partition(":")
            if not colon or not column.strip() or not level.strip():
                raise ParameterError("target", f"'{text}' is not holder=ELEMENT:LEVEL (an "
                                     "element's column, as playtest report's tables name it)")
            return cls(kind, (column.strip(), level.strip()))
        if kind == "bot":
            return cls(kind, items)
        try:
            return cls(kind, tuple(int(x) for x in items))
        except ValueError:
            raise ParameterError("target", f"'{text}': a {kind} is a number") from None

    def __str__(self) -> str:
        return f"{self.kind}={','.join(map(str, self.which))}"

    def label(self) -> str:
        if self.kind == "holder":
            return f"the seat dealt {self.which[1]} ({self.which[0]})"
        plural = "s" if len(self.which) > 1 else ""
        return f"{self.kind}{plural} {', '.join(map(str, self.which))}"

    def check(self, players: int, arms: tuple[Arm, Arm], decl=None) -> None:
        if self.kind == "holder":
            dealt = {e.column: e for e in decl.of_kind("dealt")} if decl else {}
            if self.which[0] not in dealt:
                raise ParameterError("target", f"'{self.which[0]}' is not a dealt element of "
                                     f"this game (dealt: {', '.join(dealt) or 'none'})")
        elif self.kind == "bot":
            for name in self.which:
                if any(name not in arm.bots for arm in arms):
                    raise ParameterError("target", f"bot '{name}' is not in both line-ups")
        elif any(not 0 <= k < players for k in self.which):
            raise ParameterError("target", f"{self} is out of range: {self.kind}s are "
                                 f"0..{players - 1}")

    def mask(self, table: pd.DataFrame, sep: str | None = None) -> np.ndarray:
        if self.kind == "holder":
            column, level = self.which
            values = table[column].astype(str)
            held = values.str.split(sep, regex=False).map(lambda items: level in items) \
                if sep else values == level
            return held.to_numpy(dtype=bool)
        if self.kind == "bot":
            return table["bot"].astype(str).isin(self.which).to_numpy()
        column = "seat" if self.kind == "seat" else "bot_slot"
        return table[column].isin(self.which).to_numpy()


@dataclass
class Comparison:
    """What ``compare`` returns: the verdict, the summary written to compare.json, the
    per-game values of both arms and the sequential path (one row per look)."""

    verdict: str
    summary: dict
    games: pd.DataFrame
    path: pd.DataFrame

    def __repr__(self) -> str:
        s = self.summary
        return (f"Comparison({self.verdict!r}: {s['metric']}, B - A = {s['difference']:+.4f} "
                f"[{s['ci_low']:+.4f}, {s['ci_high']:+.4f}] after {s['games']:,} games)")


def make_arms(game: str, players: int, bots=None, a_bots=None, b_bots=None, sets=None,
              a_sets=None, b_sets=None, a_data=None, b_data=None, seed: int = 0,
              b_seed: int | None = None) -> tuple[Arm, Arm]:
    """The two arms: ``bots`` and ``sets`` for both, ``a_*``/``b_*`` for one."""
    sets, a_sets, b_sets = (rule_sets(name, value) for name, value in (
        ("sets", sets), ("a_sets", a_sets), ("b_sets", b_sets)))
    a_data, b_data = (str(p) if p else None for p in (path("a_data", a_data),
                                                      path("b_data", b_data)))
    if bots is not None and (a_bots is not None and b_bots is not None):
        raise ParameterError("bots", "give bots for both arms, or a_bots and b_bots, not all")
    whole("seed", seed, 0, MAX_SEED)
    b_seed = seed if b_seed is None else whole("b_seed", b_seed, 0, MAX_SEED)
    arms = []
    for own_bots, own_sets, data, arm_seed in ((a_bots, a_sets, a_data, seed),
                                               (b_bots, b_sets, b_data, b_seed)):
        line_up = resolve_bots(game, own_bots if own_bots is not None else bots, players)
        arms.append(Arm(tuple(line_up), {**(sets or {}), **(own_sets or {})}, data, arm_seed))
    a, b = arms
    if a == b:
        raise PlaytestError("the two arms are identical (same bots, rules, data and seed): "
                            "give --b-bots, --b-set, --b-data or --b-seed")
    return a, b


def default_metric(arms: tuple[Arm, Arm], players: int, metric: str | None,
                   target: str | None, decl=None) -> tuple[str, Target]:
    """The win rate of the slots whose bot differs; for a rule variant the start player's
    (seat 0) win rate; the table's mean score when every slot differs. The seat spread
    (the first seat's win minus the last's, per game) takes no target."""
    if metric is not None and (not isinstance(metric, str) or metric not in METRICS):
        raise ParameterError("metric", f"{metric!r} is unknown (available: "
                             f"{', '.join(METRICS)})")
    if metric == "seat-spread":
        if target is not None:
            raise ParameterError("target", "is not taken by --metric seat-spread (the first "
                                 "seat against the last, every game)")
        return metric, Target("seat", (0, players - 1))
    if target is not None:
        t = Target.parse(target)
    else:
        differ = tuple(k for k in range(players) if arms[0].bots[k] != arms[1].bots[k])
        if not differ:
            t = Target("seat", (0,))
        elif len(differ) < players:
            t = Target("slot", differ)
        else:
            if metric == "win":
                raise ParameterError("metric", "every slot's bot differs, so the slots' win "
                                     "rates add up to 1 in both arms: give --target or "
                                     "--metric score")
            metric, t = "score", Target("slot", differ)
    t.check(players, arms, decl)
    return metric or "win", t


def _per_game(table: pd.DataFrame, mask: np.ndarray, column: str, players: int) -> np.ndarray:
    """Mean of ``column`` over the masked rows of each game (rows come game by game)."""
    values = table[column].to_numpy(dtype=float).reshape(-1, players)
    m = mask.reshape(-1, players)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (values * m).sum(axis=1) / m.sum(axis=1)


def _values(table: pd.DataFrame, target: Target, length: str | None, players: int,
            sep: str | None = None) -> dict:
    """The per-game values a comparison reads from one chunk of one arm (the game length
    where the game declares one: a game of fixed rounds has none). A game without the
    target (no seat dealt the holder's level) gives NaN, and drops out of the pairs."""
    mask = target.mask(table, sep)
    every = np.ones(len(table), dtype=bool)
    seat = table["seat"].to_numpy()
    values = {"win": _per_game(table, mask, "win", players),
              "score": _per_game(table, mask, "score", players),
              "table_score": _per_game(table, every, "score", players),
              "start_win": _per_game(table, seat == 0, "win", players),
              "seat_spread": _per_game(table, seat == 0, "win", players)
              - _per_game(table, seat == players - 1, "win", players)}
    if length:
        values["length"] = _per_game(table, every, length, players)
    return values


def compare(game: str = "festival", players: int = 4, bots=None, *, a_bots=None,
            b_bots=None, sets: dict | None = None, a_sets: dict | None = None,
            b_sets: dict | None = None, a_data: str | None = None, b_data: str | None = None,
            metric: str | None = None, target: str | None = None, alpha: float = 0.05,
            beta: float = 0.2, delta: float | None = None,
            max_games: int = MAX_COMPARE_GAMES, games: int | None = None, batch: int = BATCH,
            seed: int = 0, b_seed: int | None = None, out: str | Path | None = None,
            rotate: bool = True, threads: int | None = None, progress: bool = False
            ) -> Comparison:
    """Compare arm A with arm B on common random numbers; see the module's docstring.

    ``bots``/``sets`` apply to both arms, ``a_*``/``b_*`` to one. ``metric`` is "win" or
    "score" of ``target`` ("seat=0", "slot=1", "slot=0,2", "bot=greedy"; by default the
    slots whose bot differs, or seat 0 for a rule variant). The sequential test stops as soon
    as it decides at ``alpha``/``beta`` for the indifference zone ``delta``, at the latest
    after ``max_games``; with ``games`` the arms play exactly that many and a fixed-n paired
    t-test decides. ``out`` keeps the arms (resumable); without it they go to a temporary
    folder. ``b_seed`` gives arm B its own seed: no common random numbers (to measure what
    pairing gives).

    >>> c = compare("festival", 4, "greedy", b_bots=["explorer", "greedy", "greedy", "greedy"])
    >>> c.verdict, c.summary["difference"]
    """
    module = game_module(game)
    whole("players", players, 1)
    out, target = path("out", out), text("target", target)
    progress = flag("progress", progress)
    if threads is not None:
        import numba

        whole("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)
    arms = make_arms(game, players, bots, a_bots, b_bots, sets, a_sets, b_sets, a_data,
                     b_data, seed, b_seed)
    # bad bots, data or overrides refused before anything is written
    specs = [module.prepare(players, list(arm.bots), arm.data, rotate, sets=arm.sets or None)
             for arm in arms]
    decl = module.declare(specs[0][1])
    metric, tgt = default_metric(arms, players, metric, target, decl)
    default = DELTA.get(metric, decl.score_delta)
    design = _design(alpha, beta, default if delta is None else delta, metric)
    batch = whole("batch", batch, 10, MAX_GAMES)
    if games is not None:
        total = whole("games", games, 2, MAX_GAMES)
    else:
        total = whole("max_games", max_games, batch, MAX_GAMES)
    if not isinstance(rotate, bool):
        raise ParameterError("rotate", f"must be True or False, got {rotate!r}")
    request = {"game": game, "players": players, "a": _arm_json(arms[0]),
               "b": _arm_json(arms[1]), "metric": metric, "target": str(tgt),
               "alpha": design.alpha, "beta": design.beta, "delta": design.delta,
               "delta_is_default": delta is None,
               "mode": "fixed" if games is not None else "sequential", "games": total,
               "batch": batch, "rotate": rotate} | \
        bot_record(game, [*arms[0].bots, *arms[1].bots])
    if arms[0].seed == arms[1].seed and _same(specs[0][0], specs[1][0]):
        raise PlaytestError(f"the two arms would play the same games: B ({arms[1].describe()}) "
                            "has A's bots, rules and cards; give a --b-set, --b-data or "
                            "--b-bots that changes something")
    with claimed(out, "compare", request) as folder:
        return _play(module, decl, folder, request, arms, metric, tgt, design, total, batch,
                     rotate, threads, progress, fixed=games is not None)


def _same(a, b) -> bool:
    """Two workers' specs play the same games: equal in everything but where their data
    came from (a folder's path, its hash, which covers the overrides as typed)."""
    if dataclasses.is_dataclass(a) and type(a) is type(b):
        return all(_same(getattr(a, f.name), getattr(b, f.name))
                   for f in dataclasses.fields(a) if f.name not in ("folder", "hash"))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
                and a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


# the smallest indifference zone taken (0.01 points of win rate, or of score): below it the
# games a decision needs (Design.fixed_n) pass any count a machine can play
DELTA_FLOOR = 1e-4


def _games_at_floor() -> float:
    """Games a fixed-n test at the default error rates needs at DELTA_FLOOR for a paired
    difference of wins whose standard deviation is 0.5 (it is at most 1)."""
    return Design(delta=DELTA_FLOOR).fixed_n(0.5)


def _design(alpha, beta, delta, metric: str) -> Design:
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not isinstance(value, int | float) or isinstance(value, bool) \
                or not 0 < value < 0.5:
            raise ParameterError(name, f"must be between 0 and 0.5, got {value!r}")
    if not isinstance(delta, int | float) or isinstance(delta, bool) or not (
            math.isfinite(delta) and delta > 0):
        raise ParameterError("delta", f"must be a positive number, got {delta!r}")
    if delta < DELTA_FLOOR:
        raise ParameterError("delta", f"of {delta:g} is below {DELTA_FLOOR:g}, the smallest "
                             "difference a comparison can decide (a win rate's would need "
                             f"about {_games_at_floor():.0e} games at the floor)")
    if metric == "win" and delta >= 1 or metric == "seat-spread" and delta >= 2:
        most = 1 if metric == "win" else 2  # two spreads (each -1..1) differ by less than 2
        raise ParameterError("delta", f"of {delta:g} is beyond a win rate's range: two "
                             f"{METRICS[metric]}s differ by less than {most} (give, say, 0.02 "
                             "for 2 points)")
    return Design(float(alpha), float(beta), float(delta))


def _arm_json(arm: Arm) -> dict:
    return {"bots": list(arm.bots), "sets": arm.sets, "data": arm.data, "seed": arm.seed}


def _play(module, decl, folder, request, arms, metric, tgt, design, total, batch, rotate,
          threads, progress, fixed) -> Comparison:
    players = request["players"]
    key = KEY[metric]
    sep = decl.hand(tgt.which[0]) if tgt.kind == "holder" else None
    test = Sequential(design, horizon=total)
    parts: dict[str, list[dict]] = {"a": [], "b": []}
    length = next(iter(decl.length), None)
    verdict = None
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="game", unit_scale=True, desc=f"compare {request['game']}")
    try:
        for k in range(-(-total // batch)):
            for name, arm in zip("ab", arms):
                out = folder / name
                table = read_chunk(out, k) if (out / "run.json").exists() else None
                if table is None:
                    run(request["game"], total, players, list(arm.bots), arm.seed, out,
                        chunk_size=batch, threads=threads, rotate=rotate, data=arm.data,
                        progress=False, sets=arm.sets or None, upto=(k + 1) * batch,
                        command="compare")
                    table = read_chunk(out, k)
                columns = [*COLUMNS, *([length] if length else []),
                           *([tgt.which[0]] if tgt.kind == "holder" else [])]
                frame = table.select(columns).to_pandas()
                parts[name].append(_values(frame, tgt, length, players, sep))
            if bar is not None:
                bar.update(len(parts["a"][-1]["win"]))
            if k == 0 and not np.isfinite(parts["a"][0][key]).any():
                raise PlaytestError(f"no seat in the first {batch:,} games is "
                                    f"{tgt.label()}: check the element's level")
            if not fixed:
                d = parts["b"][-1][key] - parts["a"][-1][key]
                verdict = test.update(d[np.isfinite(d)])
                if bar is not None:
                    bar.set_postfix_str(f"B-A {test.mean:+.4f}")
                if verdict:
                    break
    finally:
        if bar is not None:
            bar.close()
    values = {arm: {k: np.concatenate([p[k] for p in parts[arm]]) for k in parts[arm][0]}
              for arm in parts}
    n = len(values["a"]["win"])
    a, b = values["a"][key], values["b"][key]
    pairs = np.isfinite(a) & np.isfinite(b)
    main = paired_summary(a[pairs], b[pairs], design.alpha)
    if fixed:
        verdict, low, high = _fixed_verdict(main, design)
    else:
        verdict = verdict or UNDECIDED
        low, high = test.interval()
    if metric == "seat-spread":  # a larger lead of seat 0 is a less fair game, not a better
        verdict = FAIRER.get(verdict, verdict)
    summary = {
        "verdict": verdict, "games": n, "pairs": int(pairs.sum()),
        "metric": f"{METRICS[metric]} of {tgt.label()}" if metric != "seat-spread" else
        f"{METRICS[metric]}: seat 0's win rate minus seat {players - 1}'s, per game",
        "metric_key": f"{metric}:{tgt}", "difference": main["difference"],
        "ci_low": low, "ci_high": high,
        "reading": reading(metric, tgt, main["difference"], low, high, players),
        "interval": ("paired t interval" if fixed else
                     "anytime-valid confidence sequence (normal mixture)")
        + f", {1 - design.alpha:.0%}",
        "delta": design.delta, "delta_is_default": request["delta_is_default"],
        "a_mean": main["a"], "b_mean": main["b"], "arms": {"a": arms[0].describe(),
                                                           "b": arms[1].describe()},
        "fixed_n": design.fixed_n(main.get("sd_paired", 0.0)),
        "also": _also(values, key, tgt, design.alpha, length,
                      None if fixed else test.rho2),
    }
    if not fixed:  # after a data-dependent stop a fixed-n p-value does not hold
        summary["also"] = [{k: v for k, v in row.items() if k != "p_value"}
                           for row in summary["also"]]
    games_frame = pd.DataFrame({f"{k}_{arm}": values[arm][k] for arm in "ab"
                                for k in values[arm]})
    games_frame.insert(0, "game_index", np.arange(n))
    path = pd.DataFrame(test.path)
    write_json(folder / "compare.json", {"request": request, "status": "complete",
                                          "result": summary})
    write_csv(folder / "path.csv", path)
    return Comparison(verdict, summary, games_frame, path)


def reading(metric: str, tgt: Target, difference: float, low: float, high: float,
            players: int) -> str:
    """B - A in the game's terms: what grows or falls, by how much, with its interval."""
    win = metric in ("win", "seat-spread")
    k, unit = (100, " points of win rate") if win else (1, " points")

    def amount(x: float) -> str:
        return f"{k * abs(x):.2f}{unit}"

    way = "grows" if difference > 0 else "shrinks" if difference < 0 else "stays"
    around = f" {interval(k * low, k * high, 2)}"
    if metric == "seat-spread":
        return (f"In B, seat 0's lead over seat {players - 1} {way} by "
                f"{amount(difference)}{around}: B is "
                f"{'less' if difference > 0 else 'more'} fair to the later seats.")
    what = ("the start player's win rate" if str(tgt) == "seat=0" and win else
            f"the {METRICS[metric]} of {tgt.label()}")
    rises = "rises" if difference > 0 else "falls" if difference < 0 else "stays"
    return f"In B, {what} {rises} by {amount(difference)}{around}."


def verdict_line(summary: dict) -> str:
    """The verdict as printed: a stop without a decision says why (the interval still
    includes zero and reaches beyond +/- delta) and where it stopped."""
    verdict = summary["verdict"]
    if verdict != UNDECIDED:
        return verdict
    win = summary["metric_key"].split(":")[0] in ("win", "seat-spread")
    k, unit = (100, " points of win rate") if win else (1, " points")
    where = ("at max-games" if summary["interval"].startswith("anytime")
             else "after the games asked")
    return (f"{UNDECIDED}: {where} ({summary['games']:,} per arm) the interval "
            f"{interval(k * summary['ci_low'], k * summary['ci_high'], 2)} still includes "
            f"zero and reaches beyond +/- {k * summary['delta']:g}{unit}")


def _fixed_verdict(main: dict, design: Design) -> tuple[str, float, float]:
    """The fixed-n decision: the paired t-test at alpha (its interval excludes zero), else
    no difference larger than delta when that interval lies inside +/- delta, else
    stopped without a decision."""
    low, high = main["ci_low"], main["ci_high"]
    if main["p_value"] < design.alpha:
        return ("B better" if main["difference"] > 0 else "A better"), low, high
    if -design.delta < low and high < design.delta:
        return NO_DIFFERENCE, low, high
    return UNDECIDED, low, high


def _also(values: dict, key: str, tgt: Target, alpha: float, length: str | None,
          rho2: float | None) -> list[dict]:
    """Paired differences beside the tested one, each with an interval (a description, not
    a second test) and the variance reduction pairing gave. After a sequential stop
    (``rho2``: the tested value's mixing variance) the intervals are anytime-valid
    confidence sequences too: a fixed-n interval does not hold at a data-dependent stop."""
    rows = [("win", f"win rate of {tgt.label()}"), ("score", f"mean score of {tgt.label()}"),
            ("table_score", "mean score of the table"), ("start_win", "win rate of seat 0"),
            ("seat_spread", "seat 0's win rate minus the last seat's"),
            ("length", f"game length ({length})")]
    out = []
    for name, label in rows:
        if (name == "start_win" and str(tgt) == "seat=0") or name not in values["a"]:
            continue
        a, b = values["a"][name], values["b"][name]
        pairs = np.isfinite(a) & np.isfinite(b)
        s = paired_summary(a[pairs], b[pairs], alpha)
        if rho2 is not None and s.get("sd_paired", 0) > 0:
            s["ci_low"], s["ci_high"] = confidence_sequence(
                s["difference"], s["sd_paired"], s["games"], alpha, rho2)
            s["interval"] = "anytime-valid confidence sequence"
        out.append({"value": name, "label": label, "tested": name == key, **s})
    return out
