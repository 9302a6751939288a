"""Shared helpers: hand-built Festival positions and a plain-Python pattern matcher."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from sim.core.errors import PlaytestError
from sim.core.registry import GAMES, register_game
from sim.core.rng import game_stream
from sim.festival import rules as R
from sim.festival import state as S
from sim.festival.data import load
from sim.festival.play import new_buffers
from sim.festival.tables import ANY, KIND_PAIR

pytest_plugins = ["interrupts"]  # the user's Ctrl-C stops the suite (tests/interrupts.py)


def one_line(capsys, expect: str) -> None:
    """What a command wrote to stderr is one line, holding ``expect``, no traceback."""
    err = capsys.readouterr().err
    assert expect in err, err
    assert err.count("\n") == 1 and "Traceback" not in err, err


@pytest.fixture
def toy_registered():
    """The toy game of tests/toy_game.py, playable as "toy" for one test."""
    register_game("toy", "toy_game")
    yield
    GAMES.pop("toy")


@pytest.fixture(scope="session")
def fest():
    return load()


def bump(index: int, by: int = 1):
    """A breach for the tests of an invariant checker: ``st[index] += by``."""
    def change(st, *_):
        st[index] += by
    return change


class Position:
    """A Festival state to edit by hand, with the kernels' own functions to act on it."""

    def __init__(self, data, n_players: int = 4, seed: int = 0, colours=None):
        self.d = data
        self.tab = data.tab
        self.st, self.rng, self.scratch, self.log = new_buffers(log_rows=256)
        self.moves, self.feats, _, self.before, self.work = self.scratch[:5]
        self.rng[:] = game_stream(seed, 0)
        R.setup(self.st, self.tab, n_players, self.rng)
        for p in range(n_players):
            if colours is not None:
                b = self.base(p)
                self.st[b + S.COLOUR] = colours[p]
                self.st[b + S.DESIGN] = data.tables.board_design[colours[p]]
            R.choose_start_side(self.st, self.tab, p,
                                data.tables.start_card[self.st[self.base(p) + S.COLOUR], 0])

    def base(self, p: int) -> int:
        return S.SEAT + p * S.SEAT_SIZE

    def tile(self, colour: str, design: str) -> int:
        return self.d.tiles.index(f"{colour}-{design}")

    def card(self, name: str) -> int:
        return self.d.cards.index(name)

    def put(self, p: int, cell: int, colour: str, design: str, height: int = 1) -> None:
        """Make ``colour-design`` the visible tile of seat p's cell at ``height``."""
        b = self.base(p)
        self.st[b + S.TOP + cell] = self.tile(colour, design)
        self.st[b + S.HEIGHT + cell] = height
        self.st[b + S.TILES_TAKEN] = self.st[b + S.HEIGHT : b + S.HEIGHT + 9].sum()
        self.rebuild_view(p)

    def clear(self, p: int) -> None:
        b = self.base(p)
        self.st[b + S.TOP : b + S.TOP + 9] = -1
        self.st[b + S.HEIGHT : b + S.HEIGHT + 9] = 0
        self.rebuild_view(p)

    def rebuild_view(self, p: int) -> None:
        b = self.base(p)
        self.st[b : b + S.V_DONE_N] = 0
        for c in range(9):
            top, h = self.st[b + S.TOP + c], self.st[b + S.HEIGHT + c]
            if top >= 0:
                m = int(R.bit(c))
                self.st[b + S.V_COL + self.d.tables.tile_colour[top]] |= m
                self.st[b + S.V_DES + self.d.tables.tile_design[top]] |= m
                for level in range(min(h, S.LEVELS)):
                    self.st[b + S.V_LEVEL + level] |= m
        for k in range(4):
            self.st[b + S.V_N_COL + k] = bin(self.st[b + S.V_COL + k]).count("1")
            self.st[b + S.V_N_DES + k] = bin(self.st[b + S.V_DES + k]).count("1")
        for k in range(S.LEVELS):
            self.st[b + S.V_N_LEVEL + k] = bin(self.st[b + S.V_LEVEL + k]).count("1")

    def hold(self, p: int, *names: str) -> None:
        """Seat p's uncompleted objectives become exactly ``names``."""
        b = self.base(p)
        self.st[b + S.HELD_N] = len(names)
        for i, name in enumerate(names):
            self.st[b + S.HELD + i] = self.card(name)

    def met(self, p: int, name: str) -> bool:
        return bool(R.pattern_met(self.tab, self.card(name), self.st, self.base(p)))

    def play(self, p: int, move: int) -> None:
        """Seat p's whole turn: action, step 2, end test and turn order."""
        nlog, placed = R.apply_move(self.st, self.tab, p, move, self.log, 0)
        R.end_of_turn(self.st, self.tab, p, placed, self.log, 0)
        R.advance(self.st, self.tab, p, self.log, 0)

    def legal(self, p: int) -> list[int]:
        n = R.legal_moves(self.st, self.tab, p, self.moves)
        return [int(m) for m in self.moves[:n]]


@pytest.fixture
def position(fest):
    return lambda **kw: Position(fest, **kw)


def played_positions(position, count: int, seed: int, max_turns: int,
                     n_players: int | None = None):
    """Positions reached by random play, 0 to ``max_turns`` turns in (finished games are
    skipped); 2 to 4 players unless ``n_players`` is given."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        players = n_players or int(rng.integers(2, 5))
        pos = position(n_players=players, seed=k + 1000 * seed)
        for _ in range(int(rng.integers(0, max_turns))):
            p = pos.st[S.CURRENT]
            legal = pos.legal(p)
            pos.play(p, legal[int(rng.integers(len(legal)))])
            if pos.st[S.OVER]:
                break
        if not pos.st[S.OVER]:
            yield pos


def reference_progress(data, card: int, top: np.ndarray, height: np.ndarray) -> int:
    """Plain-Python matcher: the most pattern cells satisfied at one placement, trying every
    rotation and position of the card's pattern as drawn. For the pair objective: 2 for two
    identical visible tiles, else 1 for any visible tile."""
    t = data.tables
    if t.card_kind[card] == KIND_PAIR:
        visible = [x for x in top if x >= 0]
        return 2 if len(visible) != len(set(visible)) else int(bool(visible))
    cells = [tuple(t.card_req[card, i]) for i in range(t.card_ncells[card])]
    r0, c0 = t.card_pos[card, 0]
    offsets = [(int(r - r0), int(c - c0)) for r, c in t.card_pos[card, : len(cells)]]
    best = 0
    for _ in range(4):
        for ar in range(3):
            for ac in range(3):
                spots = [(ar + dr, ac + dc) for dr, dc in offsets]
                if not all(0 <= r < 3 and 0 <= c < 3 for r, c in spots):
                    continue
                got = 0
                for (r, c), (colour, design, stacked) in zip(spots, cells):
                    x = top[r * 3 + c]
                    got += (x >= 0 and colour in (ANY, t.tile_colour[x])
                            and design in (ANY, t.tile_design[x])
                            and (not stacked or height[r * 3 + c] >= 2))
                best = max(best, got)
        offsets = [(dc, -dr) for dr, dc in offsets]  # a quarter turn
    return best


def reference_met(data, card: int, top: np.ndarray, height: np.ndarray) -> bool:
    return reference_progress(data, card, top, height) >= data.tables.card_ncells[card]


def edited_copy(source: Path, dest: Path, file: str, old: str, new: str) -> Path:
    """A copy of data folder ``source`` at ``dest`` with the first ``old`` in ``file``
    replaced by ``new`` (which must be there: a test of a broken copy breaks something)."""
    shutil.copytree(source, dest)
    path = dest / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return dest


def assert_refused(load, folder: Path, expect: str) -> None:
    """``load(folder)`` refuses with one line that contains ``expect``."""
    with pytest.raises(PlaytestError) as e:
        load(folder)
    message = str(e.value)
    assert expect in message and "\n" not in message


def dtp_ones_leave(st, tab, p: int, bots, rng, scratch) -> None:
    """Dice Theme Park's upkeep step where seat p's dice at 1 leave the park, driven through
    the step machine (sim/dice_theme_park/step.py) on a hand-built state: from that step for
    seat p, the ticket agents' and the administrator's saves decided by bot 0 of ``bots``,
    until the first decision of another kind (the machine has gone on past the upkeep)."""
    from sim.dice_theme_park import moves as DM
    from sim.dice_theme_park import state as DS
    from sim.dice_theme_park import step
    from sim.dice_theme_park.play import decide

    order = [int(st[DS.ORDER + i]) for i in range(st[DS.N_PLAYERS])]
    st[DS.F_KIND], st[DS.F_PC], st[DS.F_I] = step.RULES, step.P_ONES, order.index(p)
    ctx, details = scratch[5], scratch[6]
    log = np.zeros((0, 8), dtype=np.int64)
    while True:
        kind, seat, _ = step.advance(st, tab, rng, ctx, details, log, 0)
        if kind not in (DM.K_SAVE, DM.K_ADMIN_SAVE):
            return
        move = decide(st, tab, seat, kind, ctx, bots, 0, rng, scratch)
        step.apply(st, tab, move, ctx, details, log, 0)


def hide_magnificent_decks(st, shuffle):
    """``st`` with what no player sees redrawn: the order of the master card, trainer tile
    and poster decks."""
    from sim.magnificent import state as MS

    hidden = st.copy()
    for top, base in ((MS.MASTER_DECK_N, MS.MASTER_DECK), (MS.TRAINER_DECK_N, MS.TRAINER_DECK),
                      (MS.POSTER_DECK_N, MS.POSTER_DECK)):
        n = hidden[top]
        hidden[base: base + n] = shuffle.permutation(hidden[base: base + n])
    return hidden
