"""The search bots' skill ladder, measured: a script, not a test (minutes to an hour a game).

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
from pathlib import Path

from analysis.stats import wilson
from analysis.tournaments import tournament
from sim import simulate
from sim.core.errors import PlaytestError
from sim.core.game import steps_of
from sim.core.registry import game_module
from strategies.presets import PresetError, load_presets, resolve
from strategies.selectors import SEARCH


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
    n, seconds, decisions = p.n_players, 0.0, 0
    for g in range(games):
        s.begin(1, g)
        while True:
            decision, seat = s.advance()
            if decision == s.OVER:
                break
            slot = (seat + g) % n if p.rotate else seat
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


def duel(game: str, games: int, seed: int = 0) -> dict:
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
        d = duel(a.game, a.duel_games)
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
