"""Every rule key of every game does what it says, or is refused: changed to another value
(`playtest data GAME --keys` lists them), some game of some player count and mode plays or
scores differently, or some request the default allows is refused. A key that the loader
takes and the engine never reads (`entrance_income` was one) fails here."""

import importlib

import pytest

from sim.core.data import LOADERS, read_toml, rule_items, seeds_dir
from sim.core.errors import PlaytestError
from sim.core.registry import GAMES, game_module
from sim.core.runner import simulate_frame

GAMES_PLAYED = 12


def _others(key: str, value, ranges: dict) -> list:
    """Other values of a rule to try: the ends of its range and its neighbours for a number,
    the other truth value, a list shortened, reversed or shifted, a name changed."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        low, high = ranges.get(key, (None, None))
        tries = [value - 1, value + 1, value // 2, 2 * value, 0, low, high]
        return [v for v in dict.fromkeys(tries) if v is not None and v != value
                and (low is None or low <= v <= high)]
    if isinstance(value, str):
        return [value + "x"]
    if isinstance(value, list) and value:
        tries = [value[:-1], list(reversed(value))]
        if all(isinstance(v, int) for v in value):
            tries += [[v + 1 for v in value], [max(v - 1, 0) for v in value]]
        if all(isinstance(v, str) for v in value):
            tries += [[value[0] + "x", *value[1:]], ["B" if v == "A" else "A" for v in value]]
        return [t for t in tries if t != value]
    return []


def _outcome(game: str, sets: dict, players: int):
    """The games' rows with these overrides, or None when the request is refused."""
    try:
        return simulate_frame(game, GAMES_PLAYED, players, None, 3, sets=sets or None)
    except PlaytestError:
        return None


@pytest.mark.parametrize("game", list(GAMES))
def test_every_rule_key_changes_some_game_or_is_refused(game):
    module = game_module(game)
    ranges = importlib.import_module(LOADERS[game]).RANGES
    rules = read_toml(seeds_dir(game), "rules.toml")
    modes = list(getattr(module, "MODES", [None]))
    configs = [(mode, n) for mode in modes
               for n in range(module.PLAYERS[0], module.PLAYERS[1] + 1)]
    base = {c: _outcome(game, {"mode": c[0]} if c[0] else {}, c[1]) for c in configs}
    assert all(frame is not None for frame in base.values())
    dead = []
    for key, value in rule_items(rules):
        accepted = changed = False
        for other in _others(key, value, ranges):
            for mode, n in configs:
                frame = _outcome(game, {key: other, **({"mode": mode} if mode else {})}, n)
                accepted |= frame is not None
                if frame is None or not frame.equals(base[mode, n]):
                    changed = True
                    break
            if changed:
                break
        if accepted and not changed:
            dead.append(f"{key} = {value!r}")
    assert not dead, f"{game}: rules that change no game: {', '.join(dead)}"
