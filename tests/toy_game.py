"""A toy second game for the tests: a declaration and results tables made by hand, with
effects planted where a test wants them. Registered as a game, it goes through the same
runner, analysis and report as Festival."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
from scipy.special import expit

from sim.core.declaration import Element, GameElement, HeldSet, ResultsDeclaration
from sim.core.errors import PlaytestError

NAME = "toy"
BENCH_BOTS = ("plain",)
PLAYERS = (2, 4)
COLOURS = ["red", "blue", "green", "white"]
MEDALS = ["gold", "silver"]
# planted effects on the logit of winning
BASE = -1.2
SEAT = [0.3, 0.1, 0.0, -0.1]
COLOUR = {"red": 0.0, "blue": 0.25, "green": 0.0, "white": -0.1}
BOT = {"plain": 0.0, "strong": 0.6, "twin": 0.0, "hopeless": -9.0, "contrarian": 0.0}
BOT_COLOUR = {("contrarian", "blue"): -0.85}  # blue is worse for this bot alone
# side B has no effect of its own; contrarian hardly ever chooses it
CHOOSES_B = {"plain": 0.5, "strong": 0.9, "twin": 0.5, "hopeless": 0.5, "contrarian": 0.02}


def declare(info: dict) -> ResultsDeclaration:
    return ResultsDeclaration(
        title="Toy", sources=("dice", "bonus"),
        elements=(Element("colour", "dealt", "Colour"),
                  Element("side", "kept", "Side", context="colour")),
        game_elements=(GameElement(("weather",), "Weather"),),
        held_sets=(HeldSet("medals", "Medals won", "medal", tuple(info["medals"])),),
        length=("turns",), end="ending")


def logit(seat, colour, bot) -> np.ndarray:
    both = np.vectorize(lambda b, c: BOT_COLOUR.get((b, c), 0.0))(bot, colour)
    return (BASE + np.asarray(SEAT)[seat] + np.vectorize(COLOUR.get)(colour)
            + np.vectorize(BOT.get)(bot) + both)


def results(games: int, players: int, bots: list[str], seed: int = 0, start: int = 0,
            rotate: bool = True) -> pd.DataFrame:
    """One row per game and seat, in the results schema, wins drawn from ``logit``."""
    rng = np.random.default_rng([seed, start])
    g = np.repeat(np.arange(start, start + games), players)
    seat = np.tile(np.arange(players), games)
    slot = (seat + g) % players if rotate else seat
    bot = np.array(bots)[slot]
    colour = np.array(COLOURS)[np.argsort(rng.random((games, 4)), axis=1)[:, :players].ravel()]
    side = np.where(rng.random(len(g)) < np.vectorize(CHOOSES_B.get)(bot),
                    np.char.add(colour, "-B"), np.char.add(colour, "-A"))
    win = (rng.random(len(g)) < expit(logit(seat, colour, bot))).astype(float)
    dice = rng.integers(5, 20, len(g)) + 6 * win.astype(int)
    bonus = rng.integers(0, 3, len(g))
    medals = (rng.random(len(g)) < 0.3) * 1 + (rng.random(len(g)) < 0.2 + 0.3 * win) * 2
    turns = np.repeat(rng.integers(8, 14, games), players)
    weather = np.repeat(rng.choice(["sun", "rain"], games), players)
    cat = lambda x, cats: pd.Categorical(x, categories=cats)  # noqa: E731
    df = pd.DataFrame({
        "game_index": g, "seed": seed, "n_players": np.int8(players),
        "seat": seat.astype(np.int8), "bot": cat(bot, list(dict.fromkeys(bots))),
        "bot_slot": slot.astype(np.int8), "score": (dice + bonus).astype(np.int16),
        "rank": np.int8(1), "win": win, "score_dice": dice.astype(np.int16),
        "score_bonus": bonus.astype(np.int16), "turns": turns.astype(np.int16),
        "ending": cat(np.where(turns > 11, "timeout", "finished"), ["finished", "timeout"]),
        "colour": cat(colour, COLOURS),
        "side": cat(side, [f"{c}-{s}" for c in COLOURS for s in "AB"]),
        "weather": cat(weather, ["sun", "rain"]), "medals": medals.astype(np.int32)})
    df["rank"] = (df.groupby("game_index")["score"].rank(ascending=False, method="min")
                  .astype(np.int8))
    return df


def prepare(n_players: int, bot_names: list[str], data_dir=None, rotate: bool = True,
            sets: dict | None = None):
    if not PLAYERS[0] <= n_players <= PLAYERS[1]:
        raise PlaytestError(f"Toy is for 2 to 4 players, not {n_players}")
    unknown = [b for b in bot_names if b not in BOT]
    if unknown:
        raise PlaytestError(f"unknown bot '{unknown[0]}'")
    meta = {"data_dir": "", "data_hash": "toy", "bots": list(bot_names), "medals": MEDALS}
    return (n_players, tuple(bot_names), rotate), meta


def play_chunk(prepared, seed: int, start: int, n: int) -> pa.Table:
    players, bots, rotate = prepared
    return pa.Table.from_pandas(results(n, players, list(bots), seed, start, rotate),
                                preserve_index=False)


class Steps:
    """The step contract (sim.core.game), the smallest: each seat in turn adds 1 to 3 to its
    dice, three turns each; the most dice wins. A bot plays its largest move, or a random
    one for "plain"."""

    DECISIONS = {0: "roll"}
    OVER = 1
    FEATURES = {"roll": ("value",)}

    def __init__(self, prepared):
        self.players = prepared[0]
        self.dice, self.turn, self.events = [0] * self.players, 0, []

    def begin(self, seed: int, game_index: int) -> None:
        self.rng = np.random.default_rng([seed, game_index])

    def advance(self) -> tuple[int, int]:
        over = self.turn >= 3 * self.players
        return (self.OVER, -1) if over else (0, self.turn % self.players)

    def legal(self, decision: int, seat: int) -> np.ndarray:
        return np.array([1, 2, 3])

    def features(self, decision: int, seat: int, moves: np.ndarray) -> np.ndarray:
        return moves.astype(float)[:, None]

    def apply(self, move: int) -> None:
        self.dice[self.turn % self.players] += move
        self.events.append(f"seat {self.turn % self.players} adds {move}")
        self.turn += 1

    def decide(self, prepared, slot: int, decision: int, seat: int) -> int:
        plain = prepared[1][slot] == "plain"
        return int(self.rng.integers(1, 4)) if plain else 3

    def copy(self) -> Steps:
        other = object.__new__(Steps)
        other.__dict__ = dict(self.__dict__)
        other.dice, other.events = list(self.dice), list(self.events)
        other.rng = np.random.default_rng()
        other.rng.bit_generator.state = self.rng.bit_generator.state
        return other

    def result(self, names: list[str], seed: int, game_index: int, rotate: bool):
        known = [n if n in BOT else "plain" for n in names]  # the rest of a row is drawn
        df = results(1, self.players, known, seed, game_index, rotate)
        dice = np.array(self.dice)
        df["score"] = df["score_dice"] = dice.astype(np.int16)
        df["score_bonus"] = np.int16(0)
        df["rank"] = (1 + (dice[None, :] > dice[:, None]).sum(axis=1)).astype(np.int8)
        best = dice == dice.max()
        df["win"] = best / best.sum()
        return pa.Table.from_pandas(df, preserve_index=False), [int(x) for x in dice]

    def log_lines(self, names: list[str]) -> list[str]:
        return list(self.events)
