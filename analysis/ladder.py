"""Skill ladders, measured.

``climb`` (``playtest ladder``): each rung played head to head against the one above it on
the same deals twice, seats swapped (``duel``), the upper rung's share of the
wins with its 95% interval, resolved or not, and each rung's games a second. ``balance``
states its tiers' order from it.

The search bots' budget ladder is a script, not a test (minutes to an hour a game):

    python -m analysis.ladder GAME [--players N] [--budgets 4,16,64,256] [--games G]
                                   [--duel-games D] [--out DIR]

Three measurements, printed as Markdown for the README:

- the duel: the game's ``search`` (its preset's budget) against ``greedy`` at 2 players,
  seats rotated, its win rate with a Wilson 95% interval;
- the field: a tournament (analysis.tournaments: every table of the entrants, seats
  rotated, Bradley-Terry ratings with bootstrap intervals) of the game's other bots and
  ``search``;
- the ladder: a tournament of ``greedy`` and the search bot at each budget. Where it
  saturates: the first budget rated no higher than the one below it.

Each table gives the rollouts every search bot actually spent a decision (measured beside
greedy bots): a budget of N is the most it may spend, fewer where fewer moves are legal.

A tournament of search bots of several budgets beside the archetypes measures something else:
each search bot plays its rollouts as if every seat were its rollout bot, so a field full of
other search bots is one it models badly, and the ratings of such a mix are not a ladder.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.folders import claimed, read_json, write_csv, write_json
from analysis.stats import mean_interval, wilson
from analysis.tournaments import tournament
from sim import simulate
from sim.core.checks import MAX_GAMES, MAX_SEED, per_item, whole
from sim.core.errors import PlaytestError
from sim.core.game import each_decision, steps_of
from sim.core.registry import game_module
from sim.core.runner import bot_record, simulate_frame
from strategies.presets import PresetError, added_bots, load_presets, resolve
from strategies.selectors import SEARCH

RUNG_SECONDS = 2.0  # a rung's speed is timed on a run this long at least
LADDER_GAMES = 2000  # deals of a step of the ladder, each played twice
MAX_MEASURED = 1_000_000  # the largest run a speed is timed on


@dataclass
class Ladder:
    """What ``climb`` returns: a row per step (lower, upper, the upper's share and interval,
    its verdict) and a row per rung (its games a second, one thread, every seat that bot)."""

    steps: pd.DataFrame
    rungs: pd.DataFrame

    def order(self) -> str:
        """The steps in a line: "greedy < tuned < trained ? search" ('?' where the step is not
        resolved, '>' where the lower rung won)."""
        sign = {"resolved": "<", "not resolved": "?", "reversed": ">"}
        text = self.steps["lower"].iloc[0] if len(self.steps) else ""
        for row in self.steps.itertuples():
            text += f" {sign[row.verdict]} {row.upper}"
        return text

    def lines(self) -> list[str]:
        """The ladder as a Markdown table."""
        speed = self.rungs.set_index("bot")["games_per_s"]
        out = ["| step | upper's share of the wins | 95% interval | games | verdict | "
               "games/s (lower, upper) |", "|---|---|---|---|---|---|"]
        for r in self.steps.itertuples():
            out.append(f"| {r.lower} -> {r.upper} | {100 * r.share:.1f}% | "
                       f"[{100 * r.low:.1f}, {100 * r.high:.1f}] | {r.games:,} | {r.verdict} | "
                       f"{speed[r.lower]:,.0f}, {speed[r.upper]:,.0f} |")
        return out


def duel(game: str, a: str, b: str, tables: dict, games: int, seed: int, players: int = 2,
         sets: dict | None = None, data: str | None = None, threads: int | None = None
         ) -> dict:
    """``a`` against ``b`` on the same ``games`` deals twice, seats swapped (line-ups a,b,a,...
    and b,a,b,...): per deal, the share of the wins that went to ``a``'s seats (a game's wins
    add up to one, a shared win split), averaged over the two sittings (0.5: even); its mean
    and 95% t interval, and the games/s of the duel. ``tables``: bots added for the duel
    ({name: table}), as a bots file's."""
    first = [a if i % 2 == 0 else b for i in range(players)]
    second = [b if i % 2 == 0 else a for i in range(players)]
    shares, seconds = [], 0.0
    with added_bots(game, {k: ("the duel", v) for k, v in tables.items()}):
        for lineup in (first, second):
            t0 = time.perf_counter()
            df = simulate_frame(game, games, players, lineup, seed, rotate=False, data=data,
                                threads=threads, sets=sets)
            seconds += time.perf_counter() - t0
            mine = df[df["bot"] == a].groupby("game_index")["win"].sum()
            shares.append(mine.reindex(range(games), fill_value=0.0).to_numpy())
    per_deal = (shares[0] + shares[1]) / 2
    share, low, high = mean_interval(per_deal)
    return {"a": a, "b": b, "games": 2 * games, "players": players, "share": share,
            "low": low, "high": high, "games_per_s": 2 * games / max(seconds, 1e-9)}


def step_verdict(low: float, high: float) -> str:
    """A step is resolved when the upper rung's interval lies above one half, reversed when
    below."""
    return "resolved" if low > 0.5 else "reversed" if high < 0.5 else "not resolved"


def measured_rate(game: str, bot: str, players: int, seed: int, sets: dict | None,
                  data: str | None, threads: int | None, seconds: float,
                  budget: float = float("inf")) -> tuple[float, float]:
    """(games a second of ``bot`` at every seat, the seconds the measure took): runs of the
    seed's first games growing until one takes ``seconds`` or all of them take ``budget``
    (the first, of 4 games, loads or compiles the kernels and is not a measure)."""
    def timed(n: int) -> float:
        t0 = time.perf_counter()
        simulate_frame(game, n, players, [bot] * players, seed, threads=threads, data=data,
                       sets=sets)
        return time.perf_counter() - t0

    spent, n = timed(4), 8
    while True:
        took = timed(n)
        spent += took
        if took >= seconds or spent >= budget or n >= MAX_MEASURED:
            return n / max(took, 1e-9), spent
        n = min(MAX_MEASURED, n * max(2, min(16, int(seconds / max(took, 1e-3)) + 1)))


def rung_speed(game: str, bot: str, players: int, seed: int = 0, sets: dict | None = None,
               data: str | None = None) -> float:
    """Games a second of ``bot`` at every seat, one thread, timed on a run of RUNG_SECONDS
    (``measured_rate``)."""
    return measured_rate(game, bot, players, seed, sets, data, 1, RUNG_SECONDS)[0]


def climb(game: str, bots: list[str], players: int = 2, games: int | list | str = LADDER_GAMES,
          seed: int = 0, out: str | Path | None = None, sets: dict | None = None,
          data: str | None = None, threads: int | None = None, progress: bool = False,
          timed: bool = True) -> Ladder:
    """The ladder of ``bots`` (weakest first, as the user orders them): each against the
    next on ``games`` deals of ``seed`` (one number, or one a step: "N1,N2,..." too), twice,
    seats swapped; ``out`` keeps each finished step (resumable) and writes ladder.csv,
    rungs.csv and ladder.json. ``timed``: each rung's games a second measured
    (``rung_speed``), else left out."""
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise PlaytestError(f"--bots: a ladder needs two bots at least, each once, got "
                            f"{','.join(bots)}")
    per_step = per_item("games", games, len(bots) - 1, "step", 10, MAX_GAMES)
    whole("seed", seed, 0, MAX_SEED)
    module = game_module(game)
    for bot in bots:  # every rung a line-up the game takes, before any game
        module.prepare(players, [bot] * players, data, True, sets=sets or None)
    request = {"game": game, "bots": list(bots), "players": players, "games": per_step,
               "seed": seed, "sets": sets or {}, "data": data} | bot_record(game, bots)
    with claimed(out, "ladder", request) as folder:
        steps = []
        for k, (lower, upper) in enumerate(zip(bots, bots[1:])):
            kept = folder / f"step-{k}.json"
            if kept.exists():
                d = read_json(folder, f"step-{k}")
            else:
                if progress:
                    print(f"ladder {game}: {upper} against {lower}, {2 * per_step[k]:,} games")
                d = duel(game, upper, lower, {}, per_step[k], seed, players, sets, data,
                         threads)
                write_json(kept, d | {"status": "complete"})
            steps.append({"lower": lower, "upper": upper, "share": d["share"],
                          "low": d["low"], "high": d["high"], "games": d["games"],
                          "verdict": step_verdict(d["low"], d["high"])})
        if progress and timed:
            print(f"ladder {game}: timing each rung, one thread")
        rungs = pd.DataFrame([{"bot": b, "games_per_s": rung_speed(game, b, players, seed,
                                                                   sets, data)
                               if timed else float("nan")} for b in bots])
        ladder = Ladder(pd.DataFrame(steps), rungs)
        write_csv(folder / "ladder.csv", ladder.steps)
        write_csv(folder / "rungs.csv", rungs)
        write_json(folder / "ladder.json", {"request": request, "status": "complete",
                                            "order": ladder.order(), "steps": steps,
                                            "rungs": rungs.to_dict("records")})
        return ladder


def searching_slots(game: str, lineup: list[str]) -> list[int]:
    """The slots of ``lineup`` that a search bot plays."""
    known = load_presets(game)
    try:
        return [i for i, b in enumerate(lineup) if resolve(known, b, game).selector == SEARCH]
    except PresetError as e:
        raise PlaytestError(str(e)) from None


def rollouts_played(game: str, p, games: int) -> dict:
    """A search bot's rollouts, counted and timed: ``games`` games of the prepared line-up
    ``p`` driven decision by decision (sim.core.game's steps), the search seats' decisions
    timed alone; what ``playtest bench`` and the ladder report."""
    slots = searching_slots(game, list(p.bot_names))
    s = steps_of(game)(p)
    seconds, decisions = 0.0, 0
    for _, decision, seat, slot in each_decision(s, p, 1, range(games)):
        t0 = time.perf_counter()
        move = s.decide(p, slot, decision, seat)
        if slot in slots:
            seconds += time.perf_counter() - t0
            decisions += 1
        s.apply(move)
    played = s.rollouts()
    return {"rollouts": played, "rollouts_per_s": played / max(seconds, 1e-9),
            "search_decisions": decisions}


def spent(game: str, players: int, bot: str, games: int = 3) -> float:
    """The rollouts search bot ``bot`` spends a decision, measured in ``games`` games beside
    greedy bots (its budget is the most it may spend)."""
    p, _ = game_module(game).prepare(players, [bot] + ["greedy"] * (players - 1))
    r = rollouts_played(game, p, games)
    return r["rollouts"] / max(r["search_decisions"], 1)


def search_duel(game: str, games: int, seed: int = 0) -> dict:
    """``search`` against ``greedy`` at 2 players: its win rate and Wilson interval."""
    df = simulate(game, games, 2, bots=["search", "greedy"], seed=seed)
    wins = df[df["bot"] == "search"]["win"]
    low, high = wilson(wins.sum(), len(wins))
    return {"games": len(wins), "win_rate": wins.mean(), "low": float(low[0]),
            "high": float(high[0])}


def field(game: str, players: int, games: int, out: Path | None, seed: int = 0):
    """The tournament of the game's bots, ``search`` the only search bot among them."""
    known = load_presets(game)
    bots = [name for name, p in known.items() if p.selector != SEARCH] + ["search"]
    return tournament(game, players, bots, games, seed, out).ratings


def ladder(game: str, players: int, budgets: list[int], games: int, out: Path | None,
           seed: int = 0):
    """The tournament of ``greedy`` and ``search:B`` for each budget B."""
    bots = ["greedy"] + [f"search:{b}" for b in budgets]
    return tournament(game, players, bots, games, seed, out).ratings


def _table(game: str, ratings, players: int) -> None:
    """The ratings, with the rollouts each search bot actually spent a decision."""
    print(f"| bot ({players} players) | rating | 95% interval | win rate | rollouts a decision |")
    print("|---|---|---|---|---|")
    for row in ratings.itertuples():
        used = f"{spent(game, players, row.bot):.1f}" if searching_slots(game, [row.bot]) \
            else ""
        print(f"| {row.bot} | {row.rating:+.2f} | [{row.ci_low:+.2f}, {row.ci_high:+.2f}] | "
              f"{100 * row.win_rate:.1f}% | {used} |")
    print()


def saturation(ratings, budgets: list[int]) -> int | None:
    """The first budget rated no higher than the next lower one (None: the ladder climbs
    to its top). Neighbouring budgets' intervals may overlap on a climbing ladder: the
    table beside it says how far apart they are."""
    rating = ratings.set_index("bot")["rating"]
    for lower, budget in zip(budgets, budgets[1:], strict=False):
        if rating[f"search:{budget}"] <= rating[f"search:{lower}"]:
            return budget
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m analysis.ladder", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game")
    p.add_argument("--players", type=int, help="the ladder's table size (default: the most)")
    p.add_argument("--budgets", default="4,16,64,256")
    p.add_argument("--games", type=int, default=2000, help="each tournament's games")
    p.add_argument("--duel-games", type=int, default=400, help="the duel's games (0: none)")
    p.add_argument("--out", help="keep the tournaments' tables here (resumable)")
    a = p.parse_args(argv)
    players = a.players or game_module(a.game).PLAYERS[1]
    budgets = [int(b) for b in a.budgets.split(",")]
    if a.duel_games:
        d = search_duel(a.game, a.duel_games)
        default = load_presets(a.game)["search"].search[0]
        print(f"search ({default} rollouts) against greedy, 2 players, {d['games']} games: "
              f"{100 * d['win_rate']:.1f}% [{100 * d['low']:.1f}, {100 * d['high']:.1f}]\n")
    out = Path(a.out) if a.out else None
    _table(a.game, field(a.game, players, a.games, out / "field" if out else None), players)
    r = ladder(a.game, players, budgets, a.games, out / "ladder" if out else None)
    _table(a.game, r, players)
    top = saturation(r, budgets)
    print(f"\nsaturates at: {top if top else 'not within ' + a.budgets}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
