"""Bots for Festival: presets from strategies/ turned into the kernel's bot arrays."""

from __future__ import annotations

import numpy as np

from sim.core.errors import PlaytestError
from sim.festival import features as F
from strategies import presets as PR


def bot_arrays(names: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(selectors, params, weights[bot, decision kind, feature]) for the named bots."""
    try:  # N_FEATURES, the kernel's width, is the longer kind's
        return PR.bot_arrays("festival", "Festival", names, F.DECISION_KINDS,
                             {"turn": F.TURN_FEATURES, "start_side": F.START_FEATURES})
    except PR.PresetError as e:
        raise PlaytestError(str(e)) from None
