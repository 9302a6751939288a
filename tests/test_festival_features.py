"""Move features against the rules: a move's "points" feature is the score it really adds."""

import numpy as np

from sim.festival import features as F
from sim.festival import rules as R
from sim.festival import state as S
from tests.conftest import played_positions


def _score(st, tab, p):
    out = (np.zeros(4, dtype=np.int64), np.zeros((4, 4), dtype=np.int64), np.zeros(4),
           np.zeros(4, dtype=np.int64))
    R.final_scores(st, tab, *out)
    return out[0][p], out[1][p]


def test_points_feature_is_the_score_a_move_adds(position):
    checked = 0
    for pos in played_positions(position, 80, seed=3, max_turns=40):
        p = pos.st[S.CURRENT]
        n = R.legal_moves(pos.st, pos.tab, p, pos.moves)
        F.turn_features(pos.st, pos.tab, p, pos.moves, n, pos.feats, pos.view, pos.before)
        before, parts_before = _score(pos.st, pos.tab, p)
        for m in range(n):
            trial = pos.st.copy()
            _, placed = R.apply_move(trial, pos.tab, p, pos.moves[m], pos.log, 0)
            R.end_of_turn(trial, pos.tab, p, placed, pos.log, 0)
            after, parts_after = _score(trial, pos.tab, p)
            row = pos.feats[m]
            assert row[F.F_POINTS] == after - before
            assert row[F.F_OBJ] == parts_after[0] - parts_before[0]
            assert row[F.F_CROWD] == parts_after[1] - parts_before[1]
            assert row[F.F_BOARD] == (parts_after[2] + parts_after[3]
                                      - parts_before[2] - parts_before[3])
            checked += 1
    assert checked > 500
