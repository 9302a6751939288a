"""What was run, as every page states it first: the game and its mode or side, the players
and line-up, every rule override, the data folder and how it differs from the shipped one,
the seeds and games, the engine and the playtest version."""

from __future__ import annotations

import html

from analysis.formatting import overrides
from sim.core.data import files_changed
from sim.core.errors import PlaytestError
from sim.core.registry import game_module
from sim.core.runner import playtest_version


def mode_of(game: str, sets: dict | None) -> tuple[str, str] | None:
    """(what the game calls a mode, the mode played), or None for a game without modes."""
    try:
        module = game_module(game)
    except PlaytestError:  # a game no longer registered: its page still reads
        return None
    if not hasattr(module, "MODES"):
        return None
    return getattr(module, "MODE_WORD", "mode"), (sets or {}).get("mode", module.DEFAULT_MODE)


def data_line(game: str, folder: str | None) -> str:
    """The data folder and, against the shipped one, which files differ."""
    changed = files_changed(game, folder)
    if changed is None:
        return "the shipped data"
    if not changed:
        return f"{folder} (an unchanged copy of the shipped data)"
    return f"{folder} (differs from the shipped data in {', '.join(changed)})"


def rows(game: str, players: int, lineup: list[str], sets: dict | None, data: str | None,
         seed: str, games: str, extra: list[tuple[str, str]] = (),
         label: str = "bots (by slot)", version: str | None = None) -> list[tuple[str, str]]:
    """The header's rows, (what, value) each; ``label`` names the line-up's row;
    ``version``: the playtest that played the games (default: this one)."""
    mode = mode_of(game, sets)
    return [("game", game), *([(mode[0], mode[1])] if mode else []),
            ("players", str(players)), (label, ", ".join(lineup)),
            ("rule overrides (--set)", overrides(sets)), ("data", data_line(game, data)),
            ("seed", seed), ("games", games), *extra,
            ("playtest version", version or playtest_version())]


def table(items: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(str(v))}</td></tr>"
                   for k, v in items)
    return f"<div class='scroll'><table class='run'>{body}</table></div>"
