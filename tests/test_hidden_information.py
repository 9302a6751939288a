"""Bots decide on public information only: shuffling what no seat can see changes nothing."""

import numpy as np
import pytest

from sim.festival import rules as R
from sim.festival import state as S
from sim.festival.bots import bot_arrays
from sim.festival.policy import decide_turn
from tests.conftest import played_positions


@pytest.mark.parametrize("bot", ["greedy", "hunter", "builder", "explorer", "random"])
def test_choice_unchanged_when_hidden_tiles_are_shuffled(position, bot):
    bots = bot_arrays([bot] * 4)
    rng = np.random.default_rng(1)
    changed_by_top = 0
    for pos in played_positions(position, 60, seed=1, n_players=4, max_turns=25):
        p = pos.st[S.CURRENT]
        stream = pos.rng.copy()
        before = decide_turn(pos.st, pos.tab, p, bots, 0, stream.copy(), pos.scratch)
        for s in range(4):
            n = pos.st[S.STACK_N + s]
            below = pos.st[S.STACK + s * S.STACK_CAP : S.STACK + s * S.STACK_CAP + n - 1]
            below[:] = rng.permutation(below)
        after = decide_turn(pos.st, pos.tab, p, bots, 0, stream.copy(), pos.scratch)
        assert before == after
        # The control: the visible top tile may change the choice (so the test can fail).
        s = R.stack_of(pos.st, p, 0)
        n = pos.st[S.STACK_N + s]
        if n >= 2:
            top = S.STACK + s * S.STACK_CAP + n - 1
            pos.st[top], pos.st[top - 1] = pos.st[top - 1], pos.st[top]
            moved = decide_turn(pos.st, pos.tab, p, bots, 0, stream.copy(), pos.scratch)
            changed_by_top += moved != before
    if bot != "random":
        assert changed_by_top > 0
