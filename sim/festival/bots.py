"""Bots for Festival: presets from strategies/ turned into the kernel's bot arrays."""

from __future__ import annotations

import numpy as np

from sim.core.errors import PlaytestError
from sim.festival import features as F
from strategies.presets import PresetError, load_presets


def presets() -> dict:
    try:
        return load_presets("festival")
    except PresetError as e:
        raise PlaytestError(str(e)) from None


def bot_arrays(names: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(selectors, params, weights[bot, decision kind, feature]) for the named bots."""
    known = presets()
    selectors = np.zeros(len(names), dtype=np.int64)
    params = np.zeros(len(names))
    weights = np.zeros((len(names), len(F.DECISION_KINDS), F.N_FEATURES))
    feature_names = {"turn": F.TURN_FEATURES, "start_side": F.START_FEATURES}
    for i, name in enumerate(names):
        if name not in known:
            raise PlaytestError(f"unknown bot '{name}' (Festival bots: {', '.join(known)})")
        preset = known[name]
        selectors[i] = preset.selector
        params[i] = preset.param
        for kind, row in preset.weights.items():
            if kind not in feature_names:
                raise PlaytestError(
                    f"bot '{name}': unknown decision kind '{kind}' "
                    f"(Festival: {', '.join(feature_names)})"
                )
            for feature, w in row.items():
                if feature not in feature_names[kind]:
                    raise PlaytestError(
                        f"bot '{name}': unknown {kind} feature '{feature}' "
                        f"({', '.join(feature_names[kind])})"
                    )
                weights[i, F.DECISION_KINDS.index(kind), feature_names[kind].index(feature)] = w
    return selectors, params, weights
