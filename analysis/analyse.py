"""Every table of a report, from a results table and its game's declaration."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from analysis import BAND, MODEL_GAMES, bots, convergence, distributions, elements, seats
from analysis.catalogue import slug
from analysis.effects import effects
from analysis.rates import game_codes, win_rates
from analysis.stats import games_for_half_width
from analysis.summary import Line, summarise
from sim.core.declaration import ResultsDeclaration
from sim.core.errors import PlaytestError
from sim.core.registry import game_module
from sim.core.run_folder import ATTRS
from strategies.presets import random_choosers, run_presets


@dataclass
class Analysis:
    decl: ResultsDeclaration
    games: int
    players: int
    confounded: bool  # seat and bot cannot be told apart (no rotation, different bots)
    model_games: int  # games the model and the bootstrap used
    lineup: list[str] = field(default_factory=list)  # the bot of each slot
    left_out: list[str] = field(default_factory=list)  # bots left out of the model
    band: float = BAND  # percentage points beyond which an effect is flagged
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    board: list[Line] = field(default_factory=list)  # the summary, section by section

    @property
    def findings(self) -> list[str]:
        """The summary's sentences but the limits, in order."""
        return [line.text for line in self.board if line.section != "limits"]

    @property
    def limits(self) -> list[str]:
        return [line.text for line in self.board if line.section == "limits"]


def precision(seat: pd.DataFrame, bot: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for table, t, key in (("win_rate_by_seat", seat, "seat"), ("win_rate_by_bot", bot, "bot")):
        for r in t.itertuples():
            rows.append({"table": table, "group": str(getattr(r, key)),
                         "seat_games": r.seat_games, "win_rate": r.win_rate,
                         "ci_half_width_pp": 100 * (r.ci_high - r.ci_low) / 2,
                         "games_for_1pp": games_for_half_width(r.win_rate, 0.01),
                         "games_for_0.5pp": games_for_half_width(r.win_rate, 0.005)})
    return pd.DataFrame(rows)


def declared(df: pd.DataFrame) -> tuple[ResultsDeclaration, set[str]]:
    """The declaration of the game a results table came from, and its bots that choose at
    random, from the run record ``simulate()`` and ``load_results()`` leave in
    ``df.attrs``; refused in one line when the table carries none."""
    info = df.attrs.get(ATTRS) if isinstance(df, pd.DataFrame) else None
    if not isinstance(info, dict) or "request" not in info:
        raise PlaytestError("analyse() needs the game's declaration: give decl= (the game "
                            "module's declare(run_info)), or a DataFrame from simulate() or "
                            "load_results(), which carries it in df.attrs")
    game = info["request"]["game"]
    return game_module(game).declare(info), random_choosers(run_presets(game, info["request"]))


def analyse(df: pd.DataFrame, decl: ResultsDeclaration | None = None,
            random_bots: set[str] | None = None, model_games: int = MODEL_GAMES,
            band: float = BAND) -> Analysis:
    """All tables by file name (without .csv), the summary board and the facts the report
    states. ``decl``: the game's results declaration (by default from ``df.attrs``, as
    ``simulate()`` and ``load_results()`` leave it); ``random_bots`` are the bots that
    choose uniformly at random (their kept choices are randomised; by default the game's);
    ``model_games`` caps the games the model uses (0: all); ``band``: the effect, in
    percentage points, beyond which a finding is flagged.

    >>> a = analyse(simulate("festival", 20_000, 4))
    >>> a.findings, a.tables["effects"]
    """
    if decl is None:
        decl, chooser = declared(df)
        random_bots = chooser if random_bots is None else random_bots
    if not isinstance(df, pd.DataFrame) or not len(df):
        raise PlaytestError("analyse() needs a results table with at least one game")
    random_bots = set(random_bots or ())
    game, n_games = game_codes(df)
    players = int(df["n_players"].iloc[0])
    confounded = seats.confounded(df)
    fx = effects(df, decl, confounded, model_games)
    slots = df.drop_duplicates("bot_slot").sort_values("bot_slot")
    lineup = slots["bot"].astype(str).tolist()
    a = Analysis(decl, n_games, players, confounded, fx.games, lineup, fx.left_out, band)
    t = a.tables
    t["effects"] = fx.table
    # what the pooled numbers are about: the seat-games of the bots in the model
    kept_in = df[~df["bot"].astype(str).isin(fx.left_out)] if fx.left_out else df
    pooled_game, _ = game_codes(kept_in)
    t["win_rate_by_seat"] = seats.seat_table(df)
    t["seat_tests"] = pd.DataFrame(  # paired within games: every bot, rotation balances it
        [seats.first_minus_last(df)] + ([fx.seat_test] if fx.seat_test else []))
    t["win_rate_by_bot"] = bots.bot_table(df, game)
    t["win_rate_by_slot"] = bots.slot_table(df)
    t["identical_bots"] = bots.identical_bots(df, game)
    t["win_rate_by_bot_and_seat"] = win_rates(df, ["bot", "seat"])
    for e in decl.of_kind("dealt"):
        t[f"{e.column}_dealt"] = elements.dealt_table(kept_in, pooled_game, e)
    for e in decl.of_kind("kept"):
        sep = decl.hand(e.context)
        t[f"{e.column}_kept"] = (elements.kept_from_hand_table(df, e, sep, set(random_bots))
                                 if sep else elements.kept_table(df, e, set(random_bots)))
    length = decl.length[0] if decl.length else None
    for ge in decl.game_elements:
        t[slug(ge.label)] = elements.game_element_table(df, ge, length)
    for hs in decl.held_sets:
        t[slug(hs.label)] = elements.held_table(kept_in, pooled_game, hs)
    t["score_distribution"] = distributions.score_distribution(df, decl.sources)
    if decl.length:
        t["game_length"] = distributions.game_length(df, decl.length)
    if decl.end:
        t[decl.end] = distributions.end_table(df, decl.end, length)
    t["convergence"] = pd.concat([convergence.running_rates(df, "seat")] + (
        [convergence.running_rates(df, "bot")] if df["bot"].nunique() > 1 else []),
        ignore_index=True)
    t["precision"] = precision(t["win_rate_by_seat"], t["win_rate_by_bot"])
    a.board = summarise(t, decl, fx.table, confounded, fx.games, n_games, lineup, fx.left_out,
                        band)
    return a
