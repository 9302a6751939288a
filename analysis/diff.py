"""Two finished runs of one game, side by side: what differs between their requests and
data, and, element by element, each run's win rate and the difference with its interval.

The runs are paired when they share the seed, the player count and the seat rotation: game
i of both was then dealt the same (common random numbers), and each difference is the mean
of the per-game differences over the games both played, with a paired t interval. Otherwise
the runs are independent and each difference is Welch's, from per-game values. A value of a
game is the mean over the seat-games it concerns (a seat, a bot, the seats dealt a level), so
seat-games of one game are never counted as independent.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as st

from analysis.elements import hand_items
from analysis.formatting import overrides
from sim.core.data import files_between
from sim.core.errors import PlaytestError
from sim.core.registry import game_module
from sim.core.run_folder import load_results, verify

REQUEST = ("game", "games", "players", "bots", "seed", "rotate", "chunk_size", "data_hash",
           "sets")


@dataclass
class RunDiff:
    a: dict  # run.json of each run
    b: dict
    paired: bool
    changes: list[tuple[str, str, str]]  # (what, in A, in B)
    table: pd.DataFrame  # part, level, a, b, difference, ci_low, ci_high, games, unit


def _per_game(df: pd.DataFrame, mask: np.ndarray, column: str) -> pd.Series:
    """The mean of ``column`` over the masked seat-games of each game, by game index."""
    rows = df.loc[mask, ["game_index", column]]
    return rows.groupby("game_index")[column].mean()


def _difference(a: pd.Series, b: pd.Series, paired: bool) -> tuple[float, float, float, int]:
    """B - A with a 95% interval, and the games it rests on."""
    if paired:
        both = a.index.intersection(b.index)
        d = (b.loc[both] - a.loc[both]).to_numpy(dtype=float)
        if len(d) < 2:
            return (float(d.mean()) if len(d) else np.nan), np.nan, np.nan, len(d)
        if d.std() == 0:
            return float(d.mean()), float(d.mean()), float(d.mean()), len(d)
        ci = st.ttest_1samp(d, 0.0).confidence_interval(0.95)
        return float(d.mean()), float(ci.low), float(ci.high), len(d)
    x, y = a.to_numpy(dtype=float), b.to_numpy(dtype=float)
    if min(len(x), len(y)) < 2:
        return float(y.mean() - x.mean()), np.nan, np.nan, len(x) + len(y)
    if np.ptp(x) == 0 and np.ptp(y) == 0:  # one value in every game (a bot in every seat)
        d = float(y[0] - x[0])
        return d, d, d, len(x) + len(y)
    ci = st.ttest_ind(y, x, equal_var=False).confidence_interval(0.95)
    return float(y.mean() - x.mean()), float(ci.low), float(ci.high), len(x) + len(y)


def _groups(df: pd.DataFrame, decl) -> list[tuple[str, str, np.ndarray]]:
    """(part, level, seat-game mask) of every seat, bot and dealt level or item."""
    out = [("seat", str(s), (df["seat"] == s).to_numpy()) for s in sorted(df["seat"].unique())]
    out += [("bot", str(b), (df["bot"].astype(str) == str(b)).to_numpy())
            for b in dict.fromkeys(df["bot"].astype(str))]
    for e in decl.of_kind("dealt"):
        if e.column not in df:
            continue
        if e.sep:
            names, held = hand_items(df[e.column], e.sep)
            out += [(e.label, n, held[:, j]) for j, n in enumerate(names)]
        else:
            col = df[e.column].astype(str)
            out += [(e.label, str(v), (col == v).to_numpy()) for v in dict.fromkeys(col)]
    return out


def _changes(a: dict, b: dict) -> list[tuple[str, str, str]]:
    ra, rb = a["request"], b["request"]
    def shown(key: str, value) -> str:
        if key == "sets":
            return overrides(value)
        return ", ".join(value) if key == "bots" else "" if value is None else str(value)

    out = [(k, shown(k, ra.get(k)), shown(k, rb.get(k))) for k in REQUEST
           if shown(k, ra.get(k)) != shown(k, rb.get(k))]
    for k in ("mode", "engine"):
        if a.get(k) != b.get(k):
            out.append((k, str(a.get(k, "")), str(b.get(k, ""))))
    differ = files_between(ra["game"], a.get("data_dir"), b.get("data_dir"))
    if differ:
        out.append(("data files", ", ".join(differ), "differ between the two data folders"))
    return out


def diff_runs(run_a: str | Path, run_b: str | Path) -> RunDiff:
    """Compare two finished runs of one game (see the module's docstring)."""
    if Path(run_a).resolve() == Path(run_b).resolve():
        raise PlaytestError(f"{run_a} is given twice: a diff compares two runs")
    a, b = verify(run_a), verify(run_b)  # finished and sound, or one line saying why not
    game = a["request"]["game"]
    if b["request"]["game"] != game:
        raise PlaytestError(f"{run_a} is a run of {game} and {run_b} of "
                            f"{b['request']['game']}: a diff compares runs of one game")
    module = game_module(game)
    decl_a, decl_b = module.declare(a), module.declare(b)
    ra, rb = a["request"], b["request"]
    paired = all(ra.get(k) == rb.get(k) for k in ("seed", "players", "rotate"))
    da, db = load_results(run_a), load_results(run_b)
    rows = []
    in_b = {(part, level): mask for part, level, mask in _groups(db, decl_b)}
    for part, level, mask in _groups(da, decl_a):
        other = in_b.get((part, level))
        if other is None or not other.any():
            continue
        for column, unit in (("win", "win rate"), ("score", "points")):
            va, vb = _per_game(da, mask, column), _per_game(db, other, column)
            diff, low, high, n = _difference(va, vb, paired)
            rows.append({"part": part, "level": level, "measure": unit,
                         "a": float(va.mean()), "b": float(vb.mean()), "difference": diff,
                         "ci_low": low, "ci_high": high, "games": n})
    for column in [f"score_{s}" for s in decl_a.sources] + list(decl_a.length):
        if column in da and column in db:
            every_a, every_b = np.ones(len(da), bool), np.ones(len(db), bool)
            va, vb = _per_game(da, every_a, column), _per_game(db, every_b, column)
            diff, low, high, n = _difference(va, vb, paired)
            rows.append({"part": "table", "level": column, "measure": "mean",
                         "a": float(va.mean()), "b": float(vb.mean()), "difference": diff,
                         "ci_low": low, "ci_high": high, "games": n})
    table = pd.DataFrame(rows)
    return RunDiff(a, b, paired, _changes(a, b), table)
