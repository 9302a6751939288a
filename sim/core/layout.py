"""Packed tables: named blocks laid end to end in one flat int64 array (an engine's ``tab``)."""

from __future__ import annotations

import numpy as np


def layout(shapes: dict[str, tuple[int, ...]]) -> tuple[dict[str, int], int]:
    """Offsets of the blocks of ``shapes`` laid end to end, and the array's size."""
    offsets, at = {}, 0
    for name, shape in shapes.items():
        offsets[name] = at
        at += int(np.prod(shape))
    return offsets, at
