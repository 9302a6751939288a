"""Named bots: presets are data (``strategies/presets/<game>.toml``), never code.

A preset names a selector, its parameter and, per decision kind, weights over the game's
move features by name. The engine maps names to its feature columns, so an unknown feature
or decision kind is refused there with the preset named.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from strategies.selectors import NAMES

PRESET_DIR = Path(__file__).resolve().parent / "presets"


class PresetError(ValueError):
    """A bot name or preset file that cannot be used."""


@dataclass(frozen=True)
class Preset:
    name: str
    selector: int
    param: float
    description: str
    weights: dict[str, dict[str, float]] = field(default_factory=dict)  # kind -> feature -> w


def load_presets(game: str, path: Path | None = None) -> dict[str, Preset]:
    """All presets of ``game`` by name."""
    path = path or PRESET_DIR / f"{game}.toml"
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise PresetError(f"cannot read bot presets {path}: {e}") from None
    presets = {}
    for name, spec in raw.items():
        selector = spec.get("selector", "greedy")
        if selector not in NAMES:
            raise PresetError(f"{path}: bot '{name}': unknown selector '{selector}'")
        weights = {k: dict(v) for k, v in spec.items() if isinstance(v, dict)}
        presets[name] = Preset(
            name=name,
            selector=NAMES.index(selector),
            param=float(spec.get("param", 0.0)),
            description=str(spec.get("description", "")),
            weights=weights,
        )
    return presets


def game_presets(game: str) -> dict[str, Preset]:
    """The presets of ``game``, or none for a game without a preset file."""
    return load_presets(game) if (PRESET_DIR / f"{game}.toml").exists() else {}


def random_choosers(presets: dict[str, Preset]) -> set[str]:
    """The bots that choose uniformly among legal moves: their choices are randomised."""
    return {name for name, p in presets.items() if p.selector == NAMES.index("random")}


def bot_arrays(game: str, title: str, names: list[str], kinds: tuple[str, ...],
               features: tuple[str, ...]):
    """(selectors, params, weights[bot, decision kind, feature]) for the named bots of
    ``game`` (``title`` names it in errors). A preset's ``[NAME.all]`` table weighs every
    decision kind; a kind's own table adds to it."""
    known = load_presets(game)
    selectors = np.zeros(len(names), dtype=np.int64)
    params = np.zeros(len(names))
    weights = np.zeros((len(names), len(kinds), len(features)))
    for i, name in enumerate(names):
        if name not in known:
            raise PresetError(f"unknown bot '{name}' ({title} bots: {', '.join(known)})")
        preset = known[name]
        selectors[i] = preset.selector
        params[i] = preset.param
        for kind, row in preset.weights.items():
            if kind != "all" and kind not in kinds:
                raise PresetError(f"bot '{name}': unknown decision kind '{kind}' ({title}: "
                                  f"all, {', '.join(kinds)})")
            for feature, w in row.items():
                if feature not in features:
                    raise PresetError(f"bot '{name}': unknown feature '{feature}' "
                                      f"({', '.join(features)})")
                for k in range(len(kinds)) if kind == "all" else [kinds.index(kind)]:
                    weights[i, k, features.index(feature)] += w
    return selectors, params, weights
