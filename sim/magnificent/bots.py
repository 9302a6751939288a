"""Bots for The Magnificent: presets from strategies/ turned into the kernel's bot arrays."""

from __future__ import annotations

import numpy as np

from sim.core.errors import PlaytestError
from sim.magnificent import features as F
from sim.magnificent import moves as M
from strategies import presets as PR


def bot_arrays(names: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(selectors, params, weights[bot, decision kind, feature]) for the named bots."""
    try:
        return PR.bot_arrays("magnificent", "The Magnificent", names, M.KINDS, F.FEATURES,
                             F.FILLS)
    except PR.PresetError as e:
        raise PlaytestError(str(e)) from None
