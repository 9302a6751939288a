"""An action log -> readable lines: each phase, each die that moves, each operation with the
requirement it met and the dice used."""

from __future__ import annotations

import numpy as np

from sim.dice_theme_park import data as D
from sim.dice_theme_park import moves as M
from sim.dice_theme_park import state as S
from sim.dice_theme_park.search import LOG_WEIGHED
from strategies.search import weighed_line

UPGRADES = ("gift shop", "special effect", "generator")


def _die(d: D.DiceThemeParkData, code: int) -> str:
    if code < 0:
        return "?"
    tint, rest = divmod(int(code), 64)
    colour, pips = divmod(rest, 8)
    text = f"{d.colours[colour]} {pips}"
    return text + (f" (as {d.colours[tint - 1]})" if tint else "")


def _hex(d: D.DiceThemeParkData, h: int) -> str:
    return f"({int(d.park['q'][h])}, {int(d.park['r'][h])})"


def _tile(d: D.DiceThemeParkData, st: np.ndarray, p: int, h: int) -> str:
    a = st[S.seat(p) + S.TILE + h]
    return f"{d.attraction_names[a]} {_hex(d, h)}" if a >= 0 else _hex(d, h)


def format_log(log: np.ndarray, nlog: int, d: D.DiceThemeParkData, st: np.ndarray,
               seat_bots: list[str]) -> list[str]:
    """One line per logged decision (``st``, the final state, names the tiles on hexes)."""
    lines = []
    current = None
    for row in log[:nlog]:
        r, kind, p, move, follow, x, y, z = (int(v) for v in row)
        t, a, b, c = M.decode(move)
        phase = "setup" if r < 0 else f"round {r + 1}"
        if phase != current:
            lines.append(f"-- {phase}")
            current = phase
        who = f"  seat {p} ({seat_bots[p]}):"
        if kind == LOG_WEIGHED:  # x rollouts, y rank, z the decision kind
            lines.append(weighed_line(who[:-1], y, f"{M.KINDS[z]} move {move}", follow, x))
            continue
        if kind == M.K_START:
            text = f"keeps {d.attraction_names[x]} on {_hex(d, b)}"
        elif kind == M.K_ADMIN:
            text = f"keeps the administrator {d.administrator_names[x]}"
        elif kind == M.K_SKILL:
            text = f"keeps the skill {d.skill_names[x]} (its mascot on it)"
        elif kind == M.K_TAKE_SKILL:
            text = f"  takes the skill {d.skill_names[x]} for the new mascot"
        elif kind == M.K_LOWER:
            text = f"administrator: staff pips sum -{a}"
        elif kind == M.K_STAFF:
            text = f"plays {D.STAFF[a]} + {D.STAFF[b]}"
        elif kind == M.K_MONORAIL:
            dice = ", ".join(_die(d, v) for v in (x, y, z) if v >= 0)
            text = f"takes monorail {a + 1}: {dice} onto the entrance"
        elif t == M.PASS:
            text = {M.K_OPERATE: "stops operating"}.get(kind, f"passes ({M.KINDS[kind]})")
        elif kind == M.K_CONCIERGE:
            text = (f"concierge: {_die(d, x)} +{b}" if t == M.T_ACT
                    else f"concierge: {_die(d, x)} and {_die(d, z)} +1 each")
        elif kind == M.K_BUILD:
            text = f"builds {d.attraction_names[x]} on {_hex(d, b)}" + (
                f" (amenity bonus {follow})" if follow else "")
        elif kind == M.K_FREE_BUILD:
            text = f"builds {d.attraction_names[x]} from the discard pile on {_hex(d, b)}"
        elif kind == M.K_BONUS_PIPS:
            text = f"amenity bonus: {_die(d, x)} set to {b}"
        elif kind == M.K_MASCOT:
            text = "hires a mascot"
        elif kind == M.K_MAP:
            text = "buys a map"
        elif kind == M.K_UPGRADE:
            verb = "installs" if t == M.T_ACT else "removes (architect)"
            text = f"{verb} a {UPGRADES[a]} on {_tile(d, st, p, b)}"
        elif kind == M.K_MOVE:
            text = f"  moves the party's {_die(d, x)} to {_tile(d, st, p, b)}"
        elif kind == M.K_SAVE:
            text = f"ticket agent: saves a {_die(d, x)}, set to {b} on the entrance"
        elif kind == M.K_ADMIN_SAVE:
            text = f"administrator: saves a {_die(d, x)}, set to {b} on the entrance"
        elif kind == M.K_REARRANGE:
            dice = ", ".join(_die(d, v) for v in (x, y, z) if v >= 0)
            text = f"  administrator: rearranges the monorail's dice: {dice}"
        elif kind == M.K_LEFTOVER:
            text = f"administrator: takes a {_die(d, x)} from monorail {a + 1}"
        elif kind == M.K_SWAP:
            text = (f"administrator: passes {D.STAFF[b]} instead of {D.STAFF[x]} (the "
                    "administrator leaves the game)")
        elif kind == M.K_AGAIN:
            text = f"  the skill moves {_die(d, x)} from {_hex(d, y)} to {_tile(d, st, p, b)}"
        elif t == M.T_SKILL:
            text = _skill_text(d, st, p, x, y, z, a, b, move >> 32)
        elif t == M.T_ACT:
            party = ", ".join(_die(d, v) for v in (x, y, z) if v >= 0)
            req = D.REQUIREMENTS[int(d.attractions["requirement"][st[S.seat(p) + S.TILE + a]])] \
                if st[S.seat(p) + S.TILE + a] >= 0 else "?"
            kept = c >> 1  # the administrator's party die not lowered, 1-based
            text = (f"operates {_tile(d, st, p, a)} [{req}] with {party}"
                    + (" (manager)" if c & 1 else "")
                    + (f" (administrator: the {_die(d, (x, y, z)[kept - 1])} not lowered)"
                       if kept else ""))
        else:
            what = {M.T_MAP: "a map moves", M.T_GUIDE: "the guide moves"}
            if t in what:
                text = f"{what[t]} {_die(d, x)} from {_hex(d, y)} to {_tile(d, st, p, b)}"
            elif t == M.T_PIPS:
                text = f"{'extra' if c else 'mascot'}: {_die(d, x)} {'+1' if b else '-1'}"
            else:
                text = f"{'extra' if c else 'mascot'}: {_die(d, x)} counts as {d.colours[b]}"
        lines.append(f"{who} {text}")
    return lines


def _skill_text(d: D.DiceThemeParkData, st: np.ndarray, p: int, card: int, x: int, y: int,
                a: int, b: int, dirs: int) -> str:
    """A skill use: the card, then what it did (x, y: the die or dice touched, or the die
    and its hex; a, b: the move's)."""
    name = d.skill_names[card]
    power = list(D.SKILL_POWERS)[int(d.skills["power"][card])]
    if power in ("money_per_die", "stars_per_die"):
        what = f"on {_tile(d, st, p, a)}"
    elif power == "nudge_two":
        what = (f"{_die(d, x)} {'+' if dirs & 1 else '-'}1, "
                f"{_die(d, y)} {'+' if dirs & 2 else '-'}1")
    elif power in ("push", "pull", "leap"):
        what = f"{_die(d, x)} from {_hex(d, y)} to {_tile(d, st, p, b)}"
    elif power == "recolour":
        what = f"{_die(d, x)} exchanged for a {d.colours[b]} die"
    elif power == "shift_pips":
        what = f"{_die(d, x)} {'+' if b else '-'}{int(d.skills['amount'][card])}"
    else:
        what = f"{_die(d, x)} turned over (2 <-> 5)"
    return f"mascot uses {name}: {what}"


def format_final(st: np.ndarray, d: D.DiceThemeParkData, seat_bots: list[str],
                 wins: np.ndarray, dice: np.ndarray) -> list[str]:
    lines = ["-- end"]
    for p in range(st[S.N_PLAYERS]):
        b = S.seat(p)
        parts = ", ".join(f"{name} {st[b + S.SCORE + k]}" for k, name in enumerate(S.SOURCES)
                          if st[b + S.SCORE + k])
        lines.append(f"  seat {p} ({seat_bots[p]}): {st[b + S.STARS]} stars ({parts}); "
                     f"${st[b + S.MONEY]} left, {dice[p]} dice in the park"
                     + (f"; wins {wins[p]:g}" if wins[p] else ""))
    return lines
