"""sim/core/arrays.py: the compiled range copy is the slice copy, and copies nothing when the
range is empty or reversed."""

import numpy as np
import pytest
from numba import njit

from sim.core.arrays import copy_range


@njit(_nrt=False)  # as the game kernels: no allocation allowed
def _compiled(dst, src, start, stop):
    copy_range(dst, src, start, stop)


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
@pytest.mark.parametrize("start,stop", [(0, 40), (3, 17), (39, 40), (5, 5), (9, 4)])
def test_a_compiled_range_copy_is_the_slice_copy(dtype, start, stop):
    src = np.arange(40, dtype=dtype) * 3 - 7
    want = np.full(40, -1, dtype=dtype)
    if stop > start:
        want[start:stop] = src[start:stop]
    for copy in (_compiled, copy_range):  # compiled, then interpreted
        got = np.full(40, -1, dtype=dtype)
        copy(got, src, start, stop)
        assert (got == want).all()
