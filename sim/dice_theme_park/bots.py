"""Bots for Dice Theme Park: presets from strategies/ turned into the kernel's bot arrays."""

from __future__ import annotations

import numpy as np

from sim.core.errors import PlaytestError
from sim.dice_theme_park import features as F
from sim.dice_theme_park import moves as M
from strategies.presets import PresetError, load_presets


def presets() -> dict:
    try:
        return load_presets("dice_theme_park")
    except PresetError as e:
        raise PlaytestError(str(e)) from None


def bot_arrays(names: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(selectors, params, weights[bot, decision kind, feature]) for the named bots. A
    preset's ``[NAME.all]`` table weighs every decision kind; a kind's own table adds to it."""
    known = presets()
    selectors = np.zeros(len(names), dtype=np.int64)
    params = np.zeros(len(names))
    weights = np.zeros((len(names), len(M.KINDS), F.N_FEATURES))
    for i, name in enumerate(names):
        if name not in known:
            raise PlaytestError(f"unknown bot '{name}' (Dice Theme Park bots: "
                                f"{', '.join(known)})")
        preset = known[name]
        selectors[i] = preset.selector
        params[i] = preset.param
        for kind, row in preset.weights.items():
            if kind != "all" and kind not in M.KINDS:
                raise PlaytestError(f"bot '{name}': unknown decision kind '{kind}' (Dice Theme "
                                    f"Park: all, {', '.join(M.KINDS)})")
            for feature, w in row.items():
                if feature not in F.FEATURES:
                    raise PlaytestError(f"bot '{name}': unknown feature '{feature}' "
                                        f"({', '.join(F.FEATURES)})")
                kinds = range(len(M.KINDS)) if kind == "all" else [M.KINDS.index(kind)]
                for k in kinds:
                    weights[i, k, F.FEATURES.index(feature)] += w
    return selectors, params, weights
