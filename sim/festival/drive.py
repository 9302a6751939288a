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

from sim.core.game import copy_buffers
from sim.festival import batch, play, step
from sim.festival import features as F
from sim.festival import state as S
from sim.festival.log import format_log
from sim.festival.results import to_table

LOG_ROWS = 4096  # events of the longest game, with room to spare


@njit(cache=True)
def _begin(st, tab, n_players, seed, game_index, rng, log):
    return step.begin(st, tab, n_players, seed, game_index, rng, log)


@njit(cache=True)
def _advance(st, tab, log, nlog):
    return step.advance(st, tab, log, nlog)


@njit(cache=True)
def _apply(st, tab, move, log, nlog):
    return step.apply(st, tab, move, log, nlog)


@njit(cache=True)
def _legal(st, tab, decision, p, moves):
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


class Steps:
    """One game of Festival, dealt by ``begin`` and driven decision by decision."""

    DECISIONS = step.DECISIONS  # decision code -> name (the bots' decision kinds)
    OVER = step.OVER
    FEATURES = {"turn": F.TURN_FEATURES, "start_side": F.START_FEATURES}

    def __init__(self, prepared):
        self.prepared = prepared
        self.tab = prepared.data.tab
        self.players = prepared.n_players
        self.st, self.rng, self.scratch, self.log = play.new_buffers(LOG_ROWS)
        self.nlog = 0

    def begin(self, seed: int, game_index: int) -> None:
        self.nlog = _begin(self.st, self.tab, np.int64(self.players), np.int64(seed),
                           np.int64(game_index), self.rng, self.log)

    def advance(self) -> tuple[int, int]:
        """Run the rules to the next decision: (decision code, seat)."""
        decision, seat, self.nlog = _advance(self.st, self.tab, self.log, self.nlog)
        return int(decision), int(seat)

    def legal(self, decision: int, seat: int) -> np.ndarray:
        moves = self.scratch[0]
        return moves[: _legal(self.st, self.tab, decision, seat, moves)].copy()

    def features(self, decision: int, seat: int, moves: np.ndarray) -> np.ndarray:
        self.scratch[0][: len(moves)] = moves
        _features(self.st, self.tab, decision, seat, self.scratch[0], len(moves), self.scratch)
        names = self.FEATURES[self.DECISIONS[decision]]
        return self.scratch[1][: len(moves), : len(names)].copy()

    def apply(self, move: int) -> None:
        self.nlog = _apply(self.st, self.tab, np.int64(move), self.log, self.nlog)

    def decide(self, bots, slot: int, decision: int, seat: int) -> int:
        """The move of bot ``slot`` of ``bots`` (a prepared line-up's), drawing its numbers
        from the game's stream."""
        return int(_decide(self.st, self.tab, decision, seat, bots.bots, slot, self.rng,
                           self.scratch))

    def copy(self) -> Steps:
        other = object.__new__(Steps)
        other.__dict__ = dict(self.__dict__)
        other.st, other.rng, other.log = self.st.copy(), self.rng.copy(), self.log.copy()
        other.scratch = copy_buffers(self.scratch)
        return other

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
        return format_log(self.log, self.nlog, self.prepared.data, names, self.players)

