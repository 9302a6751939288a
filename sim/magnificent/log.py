"""An action log -> readable lines: each die taken, each boost, each action; each tile placed
drawn on the player's camp grid; each poster, tent and show; the round end's draft and
scoring."""

from __future__ import annotations

import numpy as np

from sim.magnificent import data as D
from sim.magnificent import moves as M
from sim.magnificent import state as S
from sim.magnificent import tables as T
from sim.magnificent.search import LOG_WEIGHED
from strategies.search import weighed_line

KIND_NAMES = ("orange", "green", "purple", "clear")


def _die(code: int) -> str:
    return f"{KIND_NAMES[code // 8]} {code % 8}"


def _effect(effect: int, amount: int) -> str:
    name = D.TRAINER_EFFECTS[effect]
    return f"{name} +{amount}" if name in ("power", "travel", "show", "build_level") \
        else f"{amount} {name.replace('_', ' ')}"


def _camp_lines(d: D.MagnificentData, tab: np.ndarray, squares: dict, new: int) -> list[str]:
    """The camp grid: '.' a free square, a colour's letter an earlier tile, the letter in
    capitals the tile just placed."""
    rows, cols = int(tab[T.PARAMS + T.P["camp_rows"]]), int(tab[T.PARAMS + T.P["camp_cols"]])
    lines = []
    for r in range(rows):
        cells = []
        for c in range(cols):
            bit = r * cols + c
            letter = squares.get(bit, ".")
            cells.append(letter.upper() if (new >> bit) & 1 else letter)
        lines.append("      " + " ".join(cells))
    return lines


def format_log(log: np.ndarray, nlog: int, d: D.MagnificentData, tab: np.ndarray,
               st: np.ndarray, seat_bots: list[str]) -> list[str]:
    """One line per logged decision (the camps drawn as the tiles are placed)."""
    lines = []
    current = None
    camps: list[dict] = [{} for _ in range(st[S.N_PLAYERS])]
    for row in log[:nlog]:
        r, kind, p, move, follow, x, y, _z = (int(v) for v in row)
        phase = "setup" if r < 0 else ("the end" if r >= d.params["rounds"]
                                       else f"round {r + 1}")
        if phase != current:
            lines.append(f"-- {phase}")
            current = phase
        who = f"  seat {p} ({seat_bots[p]}):"
        extra: list[str] = []
        if kind == LOG_WEIGHED:  # x rollouts, y rank, _z the decision kind
            lines.append(weighed_line(who[:-1], y, f"{M.KINDS[_z]} move {move}", follow, x))
            continue
        if kind == M.K_TRAINER_SETUP:
            text = f"picks trainer tile {d.trainer_names[x]} ({_effect(*d.trainers[x])})"
        elif kind == M.K_DIE:
            text = f"takes {_die(move)}"
        elif kind == M.K_CARD:
            text = (f"  puts it on master card {d.master_card_names[y]} "
                    f"(top: {list(D.MASTER_BONUSES)[d.master_cards['bonus'][y]]})")
        elif kind == M.K_COLOUR:
            text = f"  the clear die counts as {KIND_NAMES[move]}"
        elif kind == M.K_BOOST:
            if move == M.STOP:
                continue
            text = "  " + {M.B_GEM: "spends a gem of the colour: power +2",
                           M.B_CLEAR: "spends a clear gem: power +2"}.get(move, "")
            if M.B_BONUS <= move < M.B_TILE:
                bonus = list(D.MASTER_BONUSES)[d.master_cards["bonus"][x]]
                text = (f"  {'uses' if move == M.B_BONUS else 'copies'} the top bonus of "
                        f"{d.master_card_names[x]}: {bonus} {d.master_cards['bonus_amount'][x]}")
            elif M.B_TILE <= move < M.B_SPACE:
                text = (f"  a trainer marker on its trainer tile {d.trainer_names[y]} "
                        f"({_effect(*d.trainers[y])})")
            elif move >= M.B_SPACE:
                i = move - M.B_SPACE
                text = (f"  a trainer marker on the board's trainer space {i + 1} "
                        f"({_effect(*d.trainer_spaces[i])})")
        elif kind == M.K_ACTION:
            colour = KIND_NAMES[y]
            if move < M.A_TRAVEL:
                level = move - M.A_BUILD
                text = f"  power {x}: builds level {level + 1} in {colour}"
            elif move < M.A_PERFORM:
                text = f"  power {x}: travels the {colour} wagon {move - M.A_TRAVEL} spaces"
            else:
                s = move - M.A_PERFORM
                text = (f"  power {x}: performs on space {s + 1} "
                        f"({int(d.performance['shows'][s])} shows)")
        elif kind == M.K_PLACE:
            mask = int(tab[T.PLACE_MASK + x * T.MAX_PLACEMENTS + move])
            letter = KIND_NAMES[int(d.camp_tiles["colour"][x])][0]
            for bit in range(64):
                if (mask >> bit) & 1:
                    camps[p][bit] = letter
            text = f"    places {d.camp_tile_names[x]}:"
            extra = _camp_lines(d, tab, camps[p], mask)
        elif kind == M.K_POSTER:
            where = "the deck" if move == M.POSTER_DECK else f"display space {move}"
            text = f"    takes poster {d.poster_names[x]} from {where}"
        elif kind == M.K_POSTER_SPACE:
            if move == M.DISCARD_NEW:
                text = "    lets the new poster go (every space is full)"
            else:
                text = f"    puts it in poster space {move + 1}" + (
                    f", discarding {d.poster_names[y]}" if y >= 0 else "")
        elif kind == M.K_TENT_SPACE:
            text = f"    takes tent {d.tent_names[x]} onto tent space {move + 1}"
        elif kind == M.K_SHOW:
            if move == M.STOP:
                continue
            tent = "the printed tent" if y == S.PRINTED else f"tent {d.tent_names[y]}"
            text = f"    shows {d.poster_names[x]} over {tent}"
        elif kind == M.K_REARRANGE:
            if move == M.STOP:
                continue
            i, j = divmod(move - 1, S.POSTER_SPACES)
            text = f"    moves the poster in space {i + 1} to space {j + 1}"
        elif kind == M.K_DRAFT:
            text = f"drafts {d.master_card_names[x]}" + (
                f" with trainer tile {d.trainer_names[y]}" if y >= 0 else "")
        elif kind == M.K_SCORE:
            text = f"scores {d.master_card_names[x]}: {y} points"
        else:
            if move == M.STOP:
                continue
            text = f"fills camp section {move} with gems"
        lines.append(f"{who} {text}")
        lines.extend(extra)
    return lines


def format_final(st: np.ndarray, d: D.MagnificentData, seat_bots: list[str],
                 wins: np.ndarray) -> list[str]:
    lines = ["-- end scoring"]
    for p in range(st[S.N_PLAYERS]):
        b = S.seat(p)
        parts = ", ".join(f"{name} {st[b + S.SRC + k]}" for k, name in enumerate(S.SOURCES)
                          if st[b + S.SRC + k])
        lines.append(f"  seat {p} ({seat_bots[p]}, board {D.BOARDS[st[b + S.BOARD]]}): "
                     f"{st[b + S.SCORE]} points ({parts}); {st[b + S.COINS]} coins left"
                     + (f"; wins {wins[p]:g}" if wins[p] else ""))
    return lines
