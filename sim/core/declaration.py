"""What a game's results table holds, declared by the game so that one analysis reads any game.

Each engine module has ``declare(info) -> ResultsDeclaration``, where ``info`` is the run's
``run.json`` (names that depend on the card data, such as the deck's cards, come from there).
The analysis reads only this declaration and the results table, never a game's name.

Setup elements come in three kinds, and the kind decides which question a table may answer:

- ``dealt``: assigned at random by the rules (a board, a tile's side): a causal comparison;
- ``kept``: a player's choice among dealt options (a starting side): observational, compared
  within bot and within the dealt ``context`` it was chosen from;
- ``outcome``: what happened in play (a card completed): an association only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

KINDS = ("dealt", "kept", "outcome")


@dataclass(frozen=True)
class Element:
    """A setup element held by one seat: one categorical column per seat-game.

    ``context`` (for ``kept``) is the dealt column the choice was made from: options are
    compared only within the same context value. A kept element without one is a choice
    whose options do not depend on the deal: compared within bot only.

    ``sep`` (for ``dealt``) says the column holds a hand of items joined by ``sep`` (two
    starting tiles: "Log Flume + Bumper Boats"). The analysis then speaks of each item (dealt
    it or not) rather than of each hand: hands are too many to compare one by one (190 pairs
    of 20 tiles), and a kept element whose context is a hand is compared per item (kept it
    or passed it).
    """

    column: str
    kind: str
    label: str
    context: str | None = None
    sep: str | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"element {self.column}: kind must be one of {KINDS}")
        if self.kind != "kept" and self.context is not None:
            raise ValueError(f"element {self.column}: only a kept element has a context")
        if self.kind != "dealt" and self.sep is not None:
            raise ValueError(f"element {self.column}: only a dealt element holds a hand (sep)")


@dataclass(frozen=True)
class GameElement:
    """A dealt element of the whole game (the same for every seat), spread over one or more
    categorical columns that hold the same vocabulary (e.g. the side of each tile in play)."""

    columns: tuple[str, ...]
    label: str


@dataclass(frozen=True)
class HeldSet:
    """An outcome recorded as a bit set per seat-game: bit i set means the seat holds
    ``names[i]`` at the end (a card completed, a bonus claimed). Where ``in_play`` names
    game columns, item i is eligible only in games where one of them shows ``names[i]``."""

    column: str
    label: str
    item: str  # what one row of the table is: "card", "condition", ...
    names: tuple[str, ...]
    in_play: tuple[str, ...] = ()


@dataclass(frozen=True)
class ResultsDeclaration:
    """The results table of one game, as the analysis needs to know it.

    Every table also has the schema's fixed columns: game_index, seed, n_players, seat, bot,
    bot_slot, score, rank, win.
    """

    title: str  # the game's name as people write it
    sources: tuple[str, ...] = ()  # score_<source> columns that add up to score
    elements: tuple[Element, ...] = ()
    game_elements: tuple[GameElement, ...] = ()
    held_sets: tuple[HeldSet, ...] = ()
    length: tuple[str, ...] = ()  # per-game length columns (turns, rounds, ...)
    end: str | None = None  # per-game categorical: what ended the game
    notes: tuple[str, ...] = field(default_factory=tuple)  # lines for the report's method
    score_delta: float = 1.0  # a difference of mean scores a designer notices (compare)

    def of_kind(self, kind: str) -> list[Element]:
        return [e for e in self.elements if e.kind == kind]

    def hand(self, column: str | None) -> str | None:
        """The separator of ``column`` when it is a declared dealt hand, else None."""
        return next((e.sep for e in self.elements if e.column == column), None)
