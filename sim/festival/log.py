"""Action log -> lines a person can follow move by move."""

from __future__ import annotations

import numpy as np

from sim.festival import rules as R
from sim.festival import state as S
from sim.festival.data import FestivalData
from strategies.search import weighed_line


def _board(st: np.ndarray, data: FestivalData, p: int) -> list[str]:
    """Seat p's board as three rows of 'tile/height' cells."""
    b = S.SEAT + p * S.SEAT_SIZE
    rows = []
    for r in range(3):
        cells = []
        for c in range(3):
            tile = st[b + S.TOP + r * 3 + c]
            h = st[b + S.HEIGHT + r * 3 + c]
            cells.append(f"{data.tiles[tile]:>10}/{h}" if tile >= 0 else f"{'.':>10}  ")
        rows.append("   ".join(cells))
    return rows


def format_log(log: np.ndarray, nlog: int, data: FestivalData, bots: list[str],
               n_players: int) -> list[str]:
    """The game as text, one event a line, turn numbers on moves."""
    lines = []
    turn = 0
    name = lambda p: f"seat {p} ({bots[p]})"  # noqa: E731
    for kind, p, a, b, c, d in log[:nlog]:
        if kind in (R.LOG_TILE, R.LOG_OBJECTIVE, R.LOG_PASS):
            turn += 1
            head = f"turn {turn:3d}  round {(turn - 1) // n_players + 1:2d}  {name(p)}:"
        if kind == R.LOG_CROWD_SETUP:
            lines.append(f"setup: crowd-pleaser {a + 1} shows '{data.crowd[b]}'")
        elif kind == R.LOG_BOARD:
            lines.append(f"setup: {name(p)} plays the {data.colours[a]} board "
                         f"(target design {data.designs[b]})")
        elif kind == R.LOG_START:
            lines.append(f"setup: {name(p)} keeps starting objective {data.cards[a]}")
        elif kind == R.LOG_TILE:
            side = "own (left)" if a == p else "right"
            lines.append(f"{head} takes {data.tiles[b]} from the {side} stack {a}, places it "
                         f"on cell {c // 3},{c % 3} (height {d})")
        elif kind == R.LOG_OBJECTIVE:
            lines.append(f"{head} takes objective {data.cards[b]} "
                         f"({data.tables.card_value[b]} pts) from pile {a + 1}")
        elif kind == R.LOG_PASS:
            lines.append(f"{head} no legal action, passes")
        elif kind == R.LOG_COMPLETE:
            lines.append(f"            {name(p)} completes {data.cards[a]} (+{b})")
        elif kind == R.LOG_CROWD:
            lines.append(f"            {name(p)} claims crowd-pleaser '{data.crowd[a]}' (+{b})")
        elif kind == R.LOG_SEARCH:
            rank, start = d % 8, d // 8 == 1
            lines.append(weighed_line(f"            {name(p)}", rank,
                                      move_name(a, start, data), b, c))
        elif kind == R.LOG_TRIGGER:
            why = S.TRIGGER_NAMES[a]
            lines.append(f"            end triggered ({why}); the round is played out")
    return lines


def move_name(move: int, start: bool, data: FestivalData) -> str:
    """A move code as a person reads it (a starting side's card, or a turn's action)."""
    if start:
        return f"keep {data.cards[move]}"
    if move == R.MOVE_PASS:
        return "pass"
    if move >= R.MOVE_OBJECTIVE:
        return f"objective from pile {move - R.MOVE_OBJECTIVE + 1}"
    side = "right" if move >= R.MOVE_TILE_RIGHT else "own"
    cell = move % R.MOVE_TILE_RIGHT
    return f"{side} stack to cell {cell // 3},{cell % 3}"


def format_final(st: np.ndarray, data: FestivalData, bots: list[str], scores, parts, wins
                 ) -> list[str]:
    lines = ["", "final boards (tile/height; row 0 at the top):"]
    for p in range(st[S.N_PLAYERS]):
        colour = data.colours[st[S.SEAT + p * S.SEAT_SIZE + S.COLOUR]]
        lines.append(f"seat {p} ({bots[p]}), {colour}:")
        lines += ["    " + row for row in _board(st, data, p)]
    lines += ["", "final scores (objectives + crowd + colour + design = total):"]
    for p in range(st[S.N_PLAYERS]):
        crowd_n = st[S.SEAT + p * S.SEAT_SIZE + S.CROWD_N]
        lines.append(f"seat {p} ({bots[p]}): {parts[p, 0]} + {parts[p, 1]} + {parts[p, 2]} + "
                     f"{parts[p, 3]} = {scores[p]}  crowd-pleasers {crowd_n}  win {wins[p]:.3g}")
    return lines
