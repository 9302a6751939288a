"""The strong-play targets, measured: a script, not a test (tens of minutes a game).

    python -m analysis.strong_play GAME [--duel-games N] [--search-games N]
                                        [--ladder-games N,...] [--minutes M] [--out DIR]

For the shipped bots files strategies/tuned/GAME.toml and strategies/trained/GAME.toml,
printed as Markdown for the README:

- the trained bot against the tuned bot, 2 players (analysis.ladder.duel: the same deals
  twice, seats swapped), and the trained bot's games/s beside greedy's (4 players, one
  thread);
- search over the trained bot against the default search, 2 players; the trained bot alone
  against the default search (the moonshot);
- the ladder random < greedy < tuned < trained < search < search over trained at 4 players
  (analysis.ladder.climb), each step resolved or not;
- ``balance GAME --tiers greedy,trained --minutes M``: whether every seat finding at the
  trained tier is resolved against the band (inside or beyond it).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from analysis.ladder import climb, duel, rung_speed
from strategies.presets import added_bots, bots_files

ROOT = Path(__file__).resolve().parents[1]
LADDER = ["random", "greedy", "tuned", "trained", "search", "search_trained"]


def _share(d: dict) -> str:
    return f"{100 * d['share']:.1f}% [{100 * d['low']:.1f}, {100 * d['high']:.1f}]"


def measure(game: str, duel_games: int, search_games: int, ladder_games: list[int],
            minutes: float, out: Path) -> list[str]:
    """The targets' lines for ``game`` (the runs kept under ``out``)."""
    from analysis.balance import balance

    files = [ROOT / "strategies" / kind / f"{game}.toml" for kind in ("tuned", "trained")]
    lines = [f"### {game}", ""]
    with added_bots(game, bots_files([str(f) for f in files])):
        d = duel(game, "trained", "tuned", {}, duel_games, 1)
        trained = rung_speed(game, "trained", 4)
        greedy = rung_speed(game, "greedy", 4)
        lines.append(f"- trained against tuned, 2 players, {d['games']:,} games: {_share(d)}; "
                     f"trained plays {trained:,.0f} games/s, greedy {greedy:,.0f} "
                     f"({100 * trained / greedy:.0f}% of greedy's), 4 players, one thread")
        d = duel(game, "search_trained", "search", {}, search_games, 1)
        lines.append(f"- search over trained against search, 2 players, {d['games']:,} games: "
                     f"{_share(d)}")
        d = duel(game, "trained", "search", {}, search_games, 1)
        lines.append(f"- trained alone against search, 2 players, {d['games']:,} games: "
                     f"{_share(d)}")
        ladder = climb(game, LADDER, 4, ladder_games, 0, out / f"ladder-{game}",
                       progress=True)
        lines += ["", "Ladder, 4 players (seed 0):", "", *ladder.lines(),
                  "", f"order: {ladder.order()}", ""]
        b = balance(game, "greedy,trained", 4, minutes=minutes, out=out / f"balance-{game}",
                    progress=True)
        seats = b.findings[b.findings["element"] == "seat"]
        open_ = seats[seats["trained_state"] == "?"]
        games = {t["tier"]: t["games"] for t in b.record["tiers"]}
        lines.append(f"- balance --tiers greedy,trained --minutes {minutes:g}: trained played "
                     f"{games['trained']:,} games (greedy {games['greedy']:,}); "
                     f"{len(seats) - len(open_)} of {len(seats)} seat findings resolved "
                     f"against the band at trained"
                     + (f" (open: seat {', '.join(open_['level'])})" if len(open_) else ""))
        lines.append("")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m analysis.strong_play", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game")
    p.add_argument("--duel-games", type=int, default=4000)
    p.add_argument("--search-games", type=int, default=300)
    p.add_argument("--ladder-games", default="2000,2000,2000,300,300")
    p.add_argument("--minutes", type=float, default=10.0)
    p.add_argument("--out", default="runs/strong_play")
    a = p.parse_args(argv)
    lines = measure(a.game, a.duel_games, a.search_games,
                    [int(g) for g in a.ladder_games.split(",")], a.minutes, Path(a.out))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
