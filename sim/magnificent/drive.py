"""The Magnificent driven from Python, one decision at a time: the engine's side of
``sim.core.game.Game`` (the contract: a ``Steps`` class, docs/developers.md).

The compiled functions wrap those of step.py and play.py, the ones the batch kernel runs, so
a game driven from Python follows the same rules and a built-in bot sees the same moves and
features. They are entry points of their own (cached): the kernel's helpers are never loaded
from the cache, where the kernel could not inline them (sim/core/kernel_cache.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.checks import logged
from sim.core.game import CompiledSteps
from sim.magnificent import batch, play, step
from sim.magnificent import features as F
from sim.magnificent import state as S
from sim.magnificent.log import format_log
from sim.magnificent.results import to_table

LOG_ROWS = 20_000  # as replay's


@njit(cache=True)
def _begin(st, tab, n_players, side, seed, game_index, rng, scratch):
    step.begin(st, tab, n_players, side, seed, game_index, rng, scratch[6], False)


# the entry points of CompiledSteps, one signature in every engine
@njit(cache=True)
def _advance(st, tab, rng, scratch, log, nlog):
    decision, seat = step.advance(st, tab, rng, scratch[7])
    return decision, seat, nlog


@njit(cache=True)
def _apply(st, tab, move, scratch, log, nlog):
    return step.apply(st, tab, move, scratch[4], scratch[5], log, nlog)


@njit(cache=True)
def _legal(st, tab, kind, p, moves, scratch):
    return step.legal(st, tab, kind, p, moves, scratch)


@njit(cache=True)
def _features(st, tab, kind, p, moves, n, scratch):
    step.features(st, tab, kind, p, moves, n, scratch)


@njit(cache=True)
def _decide(st, tab, kind, p, bots, bot, rng, scratch):
    ctx = scratch[4]
    ctx[0] = st[S.F_TILE]
    return play.decide(st, tab, p, kind, ctx, bots, bot, rng, scratch)


@njit(cache=True)
def _record(st, tab, seat_out, win_out, game_out, rotate, game_index):
    wins = np.zeros(S.MAX_PLAYERS)
    ranks = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
    batch.record(st, tab, 0, seat_out, win_out, game_out, rotate, game_index, 0, wins, ranks)


class Steps(CompiledSteps):
    """One game of The Magnificent, dealt by ``begin`` and driven decision by decision."""

    DECISIONS = step.DECISIONS  # decision code -> name (the bots' decision kinds)
    OVER = step.OVER
    SEARCH_STATS = (8, 2)  # search.new_buffers' statistics in the scratch
    FEATURES = {kind: F.FEATURES for kind in step.DECISIONS.values()}
    _advance, _apply, _legal = staticmethod(_advance), staticmethod(_apply), staticmethod(_legal)
    _features, _decide = staticmethod(_features), staticmethod(_decide)

    def __init__(self, prepared):
        super().__init__(prepared, prepared.tab, play.new_buffers(LOG_ROWS))

    def begin(self, seed: int, game_index: int) -> None:
        _begin(self.st, self.tab, np.int64(self.players), np.int64(self.prepared.side),
               np.int64(seed), np.int64(game_index), self.rng, self.scratch)

    def result(self, names: list[str], seed: int, game_index: int, rotate: bool):
        """The finished game's rows (a one-game results table) and its final scores."""
        n = self.players
        seat_out = np.zeros((batch.NS, 1, n), dtype=np.int64)
        win_out = np.zeros((1, n))
        game_out = np.zeros((batch.NG, 1), dtype=np.int64)
        _record(self.st, self.tab, seat_out, win_out, game_out, rotate, game_index)
        table = to_table(self.prepared.data, names, self.prepared.side, seed, game_index,
                         seat_out, win_out, game_out)
        return table, [int(self.st[S.seat(p) + S.SCORE]) for p in range(n)]

    def log_lines(self, names: list[str]) -> list[str]:
        return format_log(self.log, logged(self.log, self.nlog), self.prepared.data,
                          self.tab, self.st, names)
