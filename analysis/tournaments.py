"""A tournament: many bots at balanced tables, rated from their finishing orders.

Tables: every set of ``players`` entrants, each in every cyclic seating order, plays the same
number of games (a multiple of ``players``) with the runner's seat rotation. So every entrant
meets every other equally often, in every seat, and sits before and after it equally often.
Each table is a run folder (OUT/tables/NNNN) with its own seed drawn from the master seed, so
an interrupted tournament resumes table by table.

Ratings: Bradley-Terry on full rank breaking. Each game's finishing order gives one outcome
for every pair at the table (the higher finisher wins it; a shared rank counts a half to
each); choix fits the model (``ilsr_pairwise_dense``). A rating is a log-strength with mean 0:
entrant a finishes above entrant b with probability 1 / (1 + exp(r_b - r_a)). Intervals are
percentile bootstraps over games (a game's pairs move together).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from pathlib import Path

import choix
import numpy as np
import pandas as pd

from analysis.folders import claimed, write_csv, write_json
from analysis.stats import wilson
from sim.core.checks import MAX_GAMES, MAX_SEED, flag, path, rule_sets, whole
from sim.core.errors import ParameterError
from sim.core.game import PythonBot, play
from sim.core.registry import game_module
from sim.core.run_folder import load_results
from sim.core.runner import bot_record, run
from strategies.presets import load_presets

RESAMPLES = 999
PRIOR = 0.01  # choix's regularisation: keeps a never-beaten or never-winning bot finite
COLUMNS = ["game_index", "bot_slot", "score", "rank", "win"]


@dataclass
class Tournament:
    """What ``tournament`` returns: ratings, head-to-head rates, score distributions and the
    rows they come from (game, entrant, score, rank, win)."""

    ratings: pd.DataFrame
    head_to_head: pd.DataFrame
    scores: pd.DataFrame
    summary: dict
    results: pd.DataFrame

    def __repr__(self) -> str:
        order = ", ".join(self.ratings["bot"])
        return f"Tournament({self.summary['games']:,} games; best first: {order})"


def entrants(bots: list | str) -> list[tuple[str, str | PythonBot]]:
    """(entrant name, bot) pairs from "bot" or "name=bot" items, or Python bots (functions of
    the game, sim.core.game, entered under their function's name); names must differ."""
    if not isinstance(bots, str | list | tuple):
        raise ParameterError("bots", f"must be names, as a list or 'a,b,c', got {bots!r}")
    items = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    out = []
    for item in items:
        if callable(item):
            out.append((getattr(item, "__name__", "python"), item))
            continue
        if not isinstance(item, str) or not item.strip():
            raise ParameterError("bots", f"{item!r} is not a bot name")
        name, sep, bot = item.partition("=")
        name, bot = name.strip(), (bot.strip() if sep else name.strip())
        if not name or not bot:
            raise ParameterError("bots", f"'{item}' is not BOT or NAME=BOT")
        out.append((name, bot))
    names = [n for n, _ in out]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup:
        raise ParameterError("bots", f"'{dup}' is entered twice; enter a bot again under "
                             f"another name, e.g. {dup}2={dict(out)[dup]}")
    if len(out) < 2:
        raise ParameterError("bots", "a tournament needs at least two bots")
    return out


def line_ups(n: int, players: int) -> list[tuple[int, ...]]:
    """Every set of ``players`` of ``n`` entrants, each in every cyclic order."""
    if n < players:
        raise ParameterError("bots", f"{n} bots cannot fill {players}-player tables without "
                             "repeats: give at least as many bots as players, entering one "
                             "again under another name as NAME=BOT (\"g2=greedy\", in Python "
                             "as in the command line)")
    return [(first, *rest) for combo in itertools.combinations(range(n), players)
            for first in combo[:1] for rest in itertools.permutations(combo[1:])]


def table_seed(seed: int, table: int) -> int:
    """The seed of one table, drawn from the master seed (numpy's SeedSequence)."""
    return int(np.random.SeedSequence([seed, table]).generate_state(1, np.uint64)[0]
               & np.uint64(MAX_SEED))


def tournament(game: str = "festival", players: int = 4, bots: list | str | None = None,
               games: int = 50_000, seed: int = 0, out: str | Path | None = None, *,
               sets: dict | None = None, data: str | None = None,
               threads: int | None = None, progress: bool = False) -> Tournament:
    """Play ``bots`` (names, or NAME=BOT to enter a bot under another name; by default every
    bot of the game) against each other at balanced tables of ``players`` for at least
    ``games`` games in all, and rate them. ``out`` keeps the tables (resumable) with
    ratings.csv, head_to_head.csv and scores.csv; without it they go to a temporary folder.
    A Python bot (a function of the game, sim.core.game) enters under its function's name;
    a tournament with one is played in memory, without ``out``.

    >>> t = tournament("festival", 4, "random,builder,hunter,greedy,explorer", games=20000)
    >>> t.ratings
    """
    module = game_module(game)
    whole("players", players, 1)
    field = entrants(list(load_presets(game)) if bots is None else bots)
    sets, progress = rule_sets("sets", sets), flag("progress", progress)
    out, data = path("out", out), path("data", data)
    data = str(data) if data else None
    if threads is not None:
        import numba

        whole("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)
    tables = line_ups(len(field), players)
    games = whole("games", games, 1, MAX_GAMES)
    whole("seed", seed, 0, MAX_SEED)
    per_table = players * math.ceil(games / (len(tables) * players))
    engine_bots = [bot for _, bot in field]
    if any(callable(bot) for bot in engine_bots):
        if out is not None:
            raise ParameterError("out", "is for tournaments of built-in bots: one with a Python "
                                 "bot is played in memory, table by table")
        return _in_python(game, players, field, tables, per_table, seed, sets, data)
    for bot in dict.fromkeys(engine_bots):  # every entrant, not only the first table's
        module.prepare(players, [bot] * players, data, True, sets=sets or None)
    request = {"game": game, "players": players, "bots": [f"{n}={b}" for n, b in field],
               "games": games, "games_per_table": per_table, "tables": len(tables),
               "seed": seed, "sets": sets or {}, "data": data} | bot_record(game, engine_bots)
    with claimed(out, "tournament", request) as folder:
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(tables) * per_table, unit="game", unit_scale=True,
                       desc=f"tournament {game}")
        frames = []
        try:
            for j, seats in enumerate(tables):
                where = folder / "tables" / f"{j:04d}"
                run(game, per_table, players, [engine_bots[i] for i in seats],
                    table_seed(seed, j), where, threads=threads, data=data, progress=False,
                    sets=sets or None, command="tournament")
                df = load_results(where, columns=COLUMNS)
                df["entrant"] = np.asarray(seats)[df["bot_slot"].to_numpy()]
                df["game"] = df["game_index"].to_numpy() + j * per_table
                frames.append(df[["game", "entrant", "score", "rank", "win"]])
                if bar is not None:
                    bar.update(per_table)
        finally:
            if bar is not None:
                bar.close()
        results = pd.concat(frames, ignore_index=True)
        t = rate(results, [n for n, _ in field], players, seed)
        t.summary |= {"request": request, "games": len(tables) * per_table,
                      "tables": len(tables), "games_per_table": per_table}
        write_csv(folder / "ratings.csv", t.ratings)
        write_csv(folder / "head_to_head.csv", t.head_to_head)
        write_csv(folder / "scores.csv", t.scores)
        write_json(folder / "tournament.json", {"request": request, "status": "complete",
                                                "result": t.summary})
        return t


def _in_python(game: str, players: int, field: list, tables: list, per_table: int, seed: int,
               sets: dict, data: str | None) -> Tournament:
    """The tournament of ``tournament`` with Python bots among the entrants: each table's
    games played through sim.core.game.play (a built-in bot there plays as in simulate)."""
    frames = []
    for j, seats in enumerate(tables):
        df = play(game, [field[i][1] for i in seats], per_table, table_seed(seed, j), players,
                  sets=sets or None, data=data)
        df["entrant"] = np.asarray(seats)[df["bot_slot"].to_numpy()]
        df["game"] = df["game_index"].to_numpy() + j * per_table
        frames.append(df[["game", "entrant", "score", "rank", "win"]])
    t = rate(pd.concat(frames, ignore_index=True), [n for n, _ in field], players, seed)
    t.summary |= {"request": {"game": game, "players": players,
                              "bots": [n for n, _ in field], "seed": seed, "sets": sets or {},
                              "data": data},
                  "games": len(tables) * per_table, "tables": len(tables),
                  "games_per_table": per_table}
    return t


def rate(results: pd.DataFrame, names: list[str], players: int, seed: int = 0) -> Tournament:
    """Ratings, head-to-head rates and score distributions from rows of (game, entrant,
    score, rank, win), ``players`` rows per game in game order."""
    k = len(names)
    entrant = results["entrant"].to_numpy().reshape(-1, players)
    rank = results["rank"].to_numpy(dtype=float).reshape(-1, players)
    n_games = len(entrant)
    # one outcome per pair of seats of each game: cell (winner, loser) of a k x k matrix
    cells, shares, game = [], [], []
    for i, j in itertools.combinations(range(players), 2):
        above = (rank[:, i] < rank[:, j]) + 0.5 * (rank[:, i] == rank[:, j])
        for first, second, share in ((i, j, above), (j, i, 1 - above)):
            cells.append(entrant[:, first] * k + entrant[:, second])
            shares.append(share)
            game.append(np.arange(n_games))
    cells, shares, game = map(np.concatenate, (cells, shares, game))
    wins = np.bincount(cells, weights=shares, minlength=k * k).reshape(k, k)
    met = np.bincount(cells, minlength=k * k).reshape(k, k)
    ratings = _fit(wins)
    rng = np.random.default_rng(seed)
    boot = np.empty((RESAMPLES, k))
    for b in range(RESAMPLES):
        weight = np.bincount(rng.integers(0, n_games, n_games), minlength=n_games)[game]
        boot[b] = _fit(np.bincount(cells, weights=shares * weight,
                                   minlength=k * k).reshape(k, k))
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    by = results.groupby("entrant")
    win_low, win_high = wilson(by["win"].sum().reindex(range(k)).to_numpy(),
                               by.size().reindex(range(k)).to_numpy())
    table = pd.DataFrame({
        "bot": names, "rating": ratings, "ci_low": low, "ci_high": high,
        "games": by.size().reindex(range(k)).to_numpy(),
        "win_rate": by["win"].mean().reindex(range(k)).to_numpy(), "win_low": win_low,
        "win_high": win_high, "mean_score": by["score"].mean().reindex(range(k)).to_numpy(),
        "mean_rank": by["rank"].mean().reindex(range(k)).to_numpy()})
    table = table.sort_values("rating", ascending=False, ignore_index=True)
    pairs = [(a, b) for a in range(k) for b in range(k) if a != b and met[a, b]]
    rate_ = np.array([wins[a, b] / met[a, b] for a, b in pairs])
    n = np.array([met[a, b] for a, b in pairs], dtype=float)
    lo, hi = wilson(rate_ * n, n)
    h2h = pd.DataFrame({"bot": [names[a] for a, _ in pairs],
                        "opponent": [names[b] for _, b in pairs], "games": n.astype(int),
                        "above": [wins[a, b] for a, b in pairs], "rate": rate_,
                        "ci_low": lo, "ci_high": hi,
                        "se": np.sqrt(rate_ * (1 - rate_) / n)})
    q = by["score"].quantile([0.05, 0.25, 0.5, 0.75, 0.95]).unstack()
    scores = pd.DataFrame({"bot": names,
                           "mean": by["score"].mean().reindex(range(k)).to_numpy(),
                           "sd": by["score"].std().reindex(range(k)).to_numpy(),
                           **{f"q{int(100 * c):02d}": q[c].reindex(range(k)).to_numpy()
                              for c in q.columns}})
    summary = {"ratings": "Bradley-Terry (choix ilsr_pairwise_dense) on every pair of each "
               f"finishing order; {RESAMPLES} bootstrap resamples of games, 95% percentile "
               "intervals", "order": list(table["bot"])}
    t = Tournament(table, h2h, scores, summary, results)
    t.summary["disagreements"] = disagreements(t)
    return t


def disagreements(t: Tournament, z: float = 3.0) -> list[str]:
    """Where the ratings and the head-to-head results disagree: a pair rated in one order
    whose head-to-head rate is more than ``z`` standard errors the other way, or whose rate
    is more than ``z`` standard errors from a half while their rating intervals overlap."""
    h2h = t.head_to_head.set_index(["bot", "opponent"])
    r = t.ratings.set_index("bot")
    out = []
    for a, b in itertools.combinations(t.ratings["bot"], 2):  # a is rated above b
        if (a, b) not in h2h.index:
            continue
        rate, se = h2h.loc[(a, b), "rate"], h2h.loc[(a, b), "se"]
        clear = abs(rate - 0.5) > z * se
        if clear and rate < 0.5:
            out.append(f"{a} is rated above {b} but finished above it in {rate:.1%} of their "
                       "games")
        elif clear and r.loc[a, "ci_low"] <= r.loc[b, "ci_high"]:
            out.append(f"{a} finished above {b} in {rate:.1%} of their games, yet their "
                       "rating intervals overlap")
    return out


def _fit(wins: np.ndarray) -> np.ndarray:
    return choix.ilsr_pairwise_dense(wins, alpha=PRIOR)


