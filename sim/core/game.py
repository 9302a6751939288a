"""A game driven one decision at a time from Python: for notebooks and for bots written in
Python.

    >>> from sim.core.game import new_game
    >>> g = new_game("festival", seed=7, players=3)
    >>> while not g.is_over():
    ...     g.apply(g.bot_move("greedy"))      # or any of g.legal_moves()
    >>> g.scores()

Each engine provides its steps as ``sim/<game>/drive.py``'s ``Steps`` (the engine contract
in docs/developers.md), the same rules, legal moves and features as the batch kernel, so a
built-in bot called from here plays as it does in ``simulate``. ``play`` plays whole games with any
mix of built-in bots (by name) and Python bots (a function of the game that returns a move),
and returns rows as ``simulate`` does.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

from sim.core.checks import MAX_GAMES, MAX_SEED, whole
from sim.core.errors import ParameterError, PlaytestError
from sim.core.registry import game_module
from sim.core.run_folder import ATTRS
from sim.core.runner import with_mode_or_side

PythonBot = Callable[["Game"], int]


def copy_buffers(x):
    """A deep copy of a game's buffers: an array, or a tuple of them (tuples within)."""
    return tuple(copy_buffers(a) for a in x) if isinstance(x, tuple) else x.copy()


class CompiledSteps:
    """What the three engines' ``drive.Steps`` share: a game's buffers and its compiled
    entry points, each with one signature in every engine (``drive.py`` says what they
    wrap). An engine's class adds ``begin``, ``result``, ``log_lines``, its decisions and
    features, and its buffers."""

    DECISIONS: dict[int, str] = {}
    OVER = -1
    FEATURES: dict[str, tuple[str, ...]] = {}
    SEARCH_STATS: tuple[int, ...] = ()  # where the scratch holds the search's statistics

    def __init__(self, prepared, tab, buffers):
        self.prepared, self.tab, self.players = prepared, tab, prepared.n_players
        self.st, self.rng, self.scratch, self.log = buffers
        self.nlog = 0

    def advance(self) -> tuple[int, int]:
        """Run the rules to the next decision: (decision code, seat)."""
        decision, seat, self.nlog = self._advance(self.st, self.tab, self.rng, self.scratch,
                                                  self.log, self.nlog)
        return int(decision), int(seat)

    def legal(self, decision: int, seat: int) -> np.ndarray:
        moves = self.scratch[0]
        n = self._legal(self.st, self.tab, decision, seat, moves, self.scratch)
        return moves[:n].copy()

    def features(self, decision: int, seat: int, moves: np.ndarray) -> np.ndarray:
        self.scratch[0][: len(moves)] = moves
        self._features(self.st, self.tab, decision, seat, self.scratch[0], len(moves),
                       self.scratch)
        names = self.FEATURES[self.DECISIONS[decision]]
        return self.scratch[1][: len(moves), : len(names)].copy()

    def apply(self, move: int) -> None:
        self.nlog = self._apply(self.st, self.tab, np.int64(move), self.scratch, self.log,
                                self.nlog)

    def decide(self, bots, slot: int, decision: int, seat: int) -> int:
        """The move of bot ``slot`` of ``bots`` (a prepared line-up's), drawing its numbers
        from the game's stream."""
        return int(self._decide(self.st, self.tab, decision, seat, bots.bots, slot, self.rng,
                                self.scratch))

    def rollouts(self) -> int:
        """The rollouts the search bots of this game's buffers have played so far."""
        stats = self.scratch
        for i in self.SEARCH_STATS:
            stats = stats[i]
        return int(stats[3][1])

    def copy(self):
        other = object.__new__(type(self))
        other.__dict__ = dict(self.__dict__)
        other.st, other.rng, other.log = self.st.copy(), self.rng.copy(), self.log.copy()
        other.scratch = copy_buffers(self.scratch)
        return other


def each_decision(s: CompiledSteps, prepared, seed: int, games: range
                  ) -> Iterator[tuple[int, int, int, int]]:
    """Games ``games`` of ``seed`` driven by steps ``s``: (game, decision, seat, slot) at
    each decision, the slot being the line-up's bot that plays the seat (seats rotated as in
    simulate when ``prepared`` rotates). The caller decides and applies the move before the
    next is asked for."""
    n = prepared.n_players
    for g in games:
        s.begin(seed, g)
        while True:
            decision, seat = s.advance()
            if decision == s.OVER:
                break
            yield g, decision, seat, (seat + g) % n if prepared.rotate else seat


def steps_of(game: str):
    """The engine's ``Steps`` class (sim/<game>/drive.py, or the module's own ``Steps``)."""
    module = game_module(game)
    found = getattr(module, "Steps", None)
    if found is None:
        try:
            found = importlib.import_module(f"{module.__name__}.drive").Steps
        except (ModuleNotFoundError, AttributeError):
            raise PlaytestError(f"{game} cannot be driven step by step (its engine has no "
                                "drive.Steps)") from None
    return found


class Game:
    """One game, at a decision or over. Build it with ``new_game``."""

    def __init__(self, game: str, prepared, players: int, seed: int, game_index: int,
                 request: tuple = (), on_empty: Callable[[Game], int] | None = None):
        self.game, self.players, self.seed, self.game_index = game, players, seed, game_index
        self._request = request  # (data, sets): how bot_move prepares a built-in bot
        self._on_empty = on_empty  # what a seat with no legal move plays (-1 by default)
        self._bots: dict[str, object] = {}
        self._s = steps_of(game)(prepared)
        self._s.begin(seed, game_index)
        self._advance()

    def _advance(self) -> None:
        """To the next decision with a legal move, or the end. A seat with none plays -1 (a
        built-in bot in ``play`` is asked first: it draws its numbers, as in simulate)."""
        while True:
            self._decision, self._seat = self._s.advance()
            if self._decision == self._s.OVER:
                self._moves = np.zeros(0, dtype=np.int64)
                return
            self._moves = self._s.legal(self._decision, self._seat)
            if len(self._moves):
                return
            self._s.apply(self._on_empty(self) if self._on_empty else -1)

    @property
    def seat(self) -> int:
        """The seat to decide (seat 0 starts); -1 once the game is over."""
        return -1 if self.is_over() else self._seat

    @property
    def decision(self) -> str:
        """What the seat decides (the bots' decision kinds: "turn", "start_side", ...), or
        "over"."""
        return "over" if self.is_over() else self._s.DECISIONS[self._decision]

    def is_over(self) -> bool:
        return self._decision == self._s.OVER

    def legal_moves(self) -> np.ndarray:
        """The seat's legal moves, as the engine's move codes (``log()`` names them)."""
        return self._moves.copy()

    def features(self) -> pd.DataFrame:
        """One row per legal move (indexed by the move): the features a built-in bot weighs,
        public information only, named as in strategies/presets/<game>.toml."""
        if self.is_over():
            return pd.DataFrame()
        rows = self._s.features(self._decision, self._seat, self._moves)
        return pd.DataFrame(rows, columns=list(self._s.FEATURES[self.decision]),
                            index=self._moves)

    def _check(self, move, who: str) -> None:
        if self.is_over():
            raise PlaytestError("the game is over: no move can be played")
        if isinstance(move, bool) or not isinstance(move, int | np.integer) or \
                move not in self._moves:
            raise PlaytestError(f"{who}{move!r}, which is not a legal move here (seat "
                                f"{self._seat}, {self.decision}: "
                                f"{', '.join(map(str, self._moves))})")

    def apply(self, move: int) -> None:
        """Play ``move`` (one of ``legal_moves()``) and run the rules to the next decision."""
        self._check(move, "")
        self._play(move)

    def _play(self, move: int) -> None:
        self._s.apply(int(move))
        self._advance()

    def bot_move(self, bot: str) -> int:
        """The move the built-in bot ``bot`` plays here. It draws its numbers from the
        game's own stream, as in a simulated game."""
        if self.is_over():
            raise PlaytestError("the game is over: no bot has a move")
        if not isinstance(bot, str):
            raise ParameterError("bot", f"names a built-in bot of {self.game}, got {bot!r} (a "
                                 "Python bot is a function: call it on the game, bot(game))")
        if bot not in self._bots:
            data, sets = self._request or (None, None)
            self._bots[bot] = game_module(self.game).prepare(
                self.players, [bot] * self.players, data, True, sets=sets)[0]
        return self._s.decide(self._bots[bot], 0, self._decision, self._seat)

    def clone(self) -> Game:
        """An independent copy: the same position, and the same stream from here on."""
        other = object.__new__(Game)
        other.__dict__ = dict(self.__dict__)
        other._s = self._s.copy()
        other._moves = self._moves.copy()
        other._bots = dict(self._bots)
        return other

    # copy.copy and copy.deepcopy of a Game are clones: a shallow copy would share the
    # engine's buffers with the original, and each would then play on the other's position
    def __copy__(self) -> Game:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> Game:
        return self.clone()

    def scores(self) -> list[int]:
        """Each seat's final score, once the game is over."""
        if not self.is_over():
            raise PlaytestError("the game is not over: no final scores yet")
        return self._s.result(["-"] * self.players, self.seed, self.game_index, False)[1]

    def log(self, names: Sequence[str] | None = None) -> list[str]:
        """The game so far, one event a line, as ``playtest replay`` prints it (``names``:
        who plays each seat)."""
        names = list(names) if names else ["player"] * self.players
        if len(names) != self.players:
            raise ParameterError("names", f"gives {len(names)} names for {self.players} seats")
        return self._s.log_lines(names)

    def __repr__(self) -> str:
        where = "over" if self.is_over() else (f"seat {self._seat} to decide "
                                               f"({self.decision}, {len(self._moves)} moves)")
        return f"Game({self.game}, seed {self.seed}, game {self.game_index}: {where})"


def _prepare(game: str, players: int, bots: list[str], data, sets, mode, side, rotate=True):
    sets = with_mode_or_side(game, sets, mode, side)
    prepared, meta = game_module(game).prepare(players, bots, data, rotate, sets=sets or None)
    return prepared, meta, sets or None


def new_game(game: str = "festival", seed: int = 0, players: int = 4, game_index: int = 0,
             *, sets: dict | None = None, data: str | None = None, mode: str | None = None,
             side: str | None = None) -> Game:
    """Game ``game_index`` of ``seed``, dealt as ``simulate`` deals it, at its first
    decision. ``sets``, ``data``, ``mode`` and ``side`` as for ``simulate``."""
    steps_of(game)  # an unknown game, or one without steps, is refused first
    whole("seed", seed, 0, MAX_SEED)
    whole("game_index", game_index, 0, MAX_GAMES)
    some = game_module(game).BENCH_BOTS[0]  # any bot: bot_move prepares the one it plays
    prepared, _, sets = _prepare(game, players, [some] * players, data, sets, mode, side)
    return Game(game, prepared, players, seed, game_index, (data, sets))


def play(game: str, bots: Sequence[str | PythonBot], games: int = 100, seed: int = 0,
         players: int | None = None, *, rotate: bool = True, sets: dict | None = None,
         data: str | None = None, mode: str | None = None, side: str | None = None
         ) -> pd.DataFrame:
    """Play ``games`` games with ``bots`` by slot: built-in bots by name, Python bots as
    functions ``bot(game) -> move``; the seats rotate as in ``simulate``. Rows as
    ``simulate`` returns them (a Python bot is named after its function)."""
    steps_of(game)
    if isinstance(bots, str) or not isinstance(bots, Sequence) or \
            not all(isinstance(b, str) or callable(b) for b in bots):
        raise ParameterError("bots", "must be a list of built-in bot names and functions of "
                             "the game, one per slot")
    bots = list(bots)
    players = len(bots) if players is None else players
    whole("games", games, 1, MAX_GAMES)
    whole("seed", seed, 0, MAX_SEED)
    names = [b if isinstance(b, str) else getattr(b, "__name__", "python") for b in bots]
    some = game_module(game).BENCH_BOTS[0]
    engine = [b if isinstance(b, str) else some for b in bots]  # a Python bot's slot: unused
    prepared, meta, sets = _prepare(game, players, engine, data, sets, mode, side, rotate)
    tables = []
    for i in range(games):
        def slot_of(g: Game, i=i) -> int:
            return (g._seat + i) % players if rotate else g._seat

        def on_empty(g: Game) -> int:  # a built-in bot draws its numbers all the same
            slot = slot_of(g)
            return g._s.decide(prepared, slot, g._decision, g._seat) \
                if isinstance(bots[slot], str) else -1

        g = Game(game, prepared, players, seed, i, (data, sets), on_empty)
        while not g.is_over():
            slot = slot_of(g)
            bot = bots[slot]
            if isinstance(bot, str):
                move = g._s.decide(prepared, slot, g._decision, g._seat)
            else:
                move = bot(g)
                g._check(move, f"the Python bot {names[slot]} played ")
            g._play(move)
        tables.append(g._s.result(names, seed, i, rotate)[0])
    df = pa.concat_tables(tables).to_pandas()
    df.attrs[ATTRS] = {"request": {"game": game, "games": games, "players": players,
                                   "bots": names, "seed": seed, "start": 0, "rotate": rotate,
                                   "sets": sets or {}}, **meta}
    return df
