"""Festival driven from Python, one decision at a time: the engine's side of
``sim.core.game.Game`` (the contract: a ``Steps`` class, docs/developers.md).

The compiled functions wrap those of step.py and play.py, the ones the batch kernel runs, so
a game driven from Python follows the same rules and a built-in bot sees the same moves and
features. They are entry points of their own (cached), so the kernel's helpers are never
loaded from the cache, where the kernel could not inline them (sim/core/kernel_cache.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.checks import logged
from sim.core.game import CompiledSteps
from sim.festival import batch, play, step
from sim.festival import features as F
from sim.festival import state as S
from sim.festival.log import format_log
from sim.festival.results import to_table

LOG_ROWS = 4096  # events of the longest game, with room to spare


@njit(cache=True)
def _begin(st, tab, n_players, seed, game_index, rng, log):
    return step.begin(st, tab, n_players, seed, game_index, rng, log)


# the entry points of CompiledSteps, one signature in every engine
@njit(cache=True)
def _advance(st, tab, rng, scratch, log, nlog):
    return step.advance(st, tab, log, nlog)


@njit(cache=True)
def _apply(st, tab, move, scratch, log, nlog):
    return step.apply(st, tab, move, log, nlog)


@njit(cache=True)
def _legal(st, tab, decision, p, moves, scratch):
    return step.legal(st, tab, decision, p, moves)


@njit(cache=True)
def _features(st, tab, decision, p, moves, n, scratch):
    step.features(st, tab, decision, p, moves, n, scratch)


@njit(cache=True)
def _decide(st, tab, decision, p, bots, bot, rng, scratch):
    return play.decide(st, tab, decision, p, bots, bot, rng, scratch)


@njit(cache=True)
def _record(st, tab, seat_out, win_out, game_out, rotate, game_index):
    scores = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
    parts = np.zeros((S.MAX_PLAYERS, 4), dtype=np.int64)
    wins = np.zeros(S.MAX_PLAYERS)
    ranks = np.zeros(S.MAX_PLAYERS, dtype=np.int64)
    batch.record(st, tab, 0, seat_out, win_out, game_out, scores, parts, wins, ranks, rotate,
                 game_index, 0)
    return scores[: st[S.N_PLAYERS]].copy()


class Steps(CompiledSteps):
    """One game of Festival, dealt by ``begin`` and driven decision by decision."""

    DECISIONS = step.DECISIONS  # decision code -> name (the bots' decision kinds)
    OVER = step.OVER
    SEARCH_STATS = (5, 2)  # search.new_buffers' statistics in the scratch
    FEATURES = {"turn": F.TURN_FEATURES, "start_side": F.START_FEATURES}
    _advance, _apply, _legal = staticmethod(_advance), staticmethod(_apply), staticmethod(_legal)
    _features, _decide = staticmethod(_features), staticmethod(_decide)

    def __init__(self, prepared):
        super().__init__(prepared, prepared.data.tab, play.new_buffers(LOG_ROWS))

    def begin(self, seed: int, game_index: int) -> None:
        self.nlog = _begin(self.st, self.tab, np.int64(self.players), np.int64(seed),
                           np.int64(game_index), self.rng, self.log)

    def result(self, names: list[str], seed: int, game_index: int, rotate: bool):
        """The finished game's rows (a one-game results table) and its final scores."""
        n = self.players
        seat_out = np.zeros((batch.NS, 1, n), dtype=np.int64)
        win_out = np.zeros((1, n))
        game_out = np.zeros((batch.NG, 1), dtype=np.int64)
        scores = _record(self.st, self.tab, seat_out, win_out, game_out, rotate, game_index)
        table = to_table(self.prepared.data, names, seed, game_index, seat_out, win_out,
                         game_out)
        return table, [int(x) for x in scores]

    def log_lines(self, names: list[str]) -> list[str]:
        return format_log(self.log, logged(self.log, self.nlog), self.prepared.data, names,
                          self.players)
