"""Every table of a report, from a results table and its game's declaration."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from analysis import MODEL_GAMES, bots, convergence, distributions, elements, seats
from analysis.catalogue import slug
from analysis.effects import effects
from analysis.rates import game_codes, win_rates
from analysis.stats import games_for_half_width
from analysis.summary import summarise
from sim.core.declaration import ResultsDeclaration


@dataclass
class Analysis:
    decl: ResultsDeclaration
    games: int
    players: int
    confounded: bool  # seat and bot cannot be told apart (no rotation, different bots)
    model_games: int  # games the model and the bootstrap used
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)
    limits: list[str] = field(default_factory=list)


def precision(seat: pd.DataFrame, bot: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for table, t, key in (("win_rate_by_seat", seat, "seat"), ("win_rate_by_bot", bot, "bot")):
        for r in t.itertuples():
            rows.append({"table": table, "group": str(getattr(r, key)),
                         "seat_games": r.seat_games, "win_rate": r.win_rate,
                         "ci_half_width": (r.ci_high - r.ci_low) / 2,
                         "games_for_1pp": games_for_half_width(r.win_rate, 0.01),
                         "games_for_0.5pp": games_for_half_width(r.win_rate, 0.005)})
    return pd.DataFrame(rows)


def analyse(df: pd.DataFrame, decl: ResultsDeclaration, random_bots: set[str] = frozenset(),
            model_games: int = MODEL_GAMES) -> Analysis:
    """All tables by file name (without .csv), the summary sentences and the facts the
    report states. ``random_bots`` are the bots that choose uniformly at random (their kept
    choices are randomised); ``model_games`` caps the games the model uses (0: all)."""
    game, n_games = game_codes(df)
    players = int(df["n_players"].iloc[0])
    confounded = seats.confounded(df)
    fx = effects(df, decl, confounded, model_games)
    a = Analysis(decl, n_games, players, confounded, fx.games)
    t = a.tables
    t["effects"] = fx.table
    t["win_rate_by_seat"] = seats.seat_table(df)
    t["seat_tests"] = pd.DataFrame(
        [seats.first_minus_last(df)] + ([fx.seat_test] if fx.seat_test else []))
    t["win_rate_by_bot"] = bots.bot_table(df, game)
    t["win_rate_by_slot"] = bots.slot_table(df)
    t["identical_bots"] = bots.identical_bots(df, game)
    t["win_rate_by_bot_and_seat"] = win_rates(df, ["bot", "seat"])
    for e in decl.of_kind("dealt"):
        t[f"{e.column}_dealt"] = elements.dealt_table(df, game, e)
    for e in decl.of_kind("kept"):
        sep = decl.hand(e.context)
        t[f"{e.column}_kept"] = (elements.kept_from_hand_table(df, e, sep, set(random_bots))
                                 if sep else elements.kept_table(df, e, set(random_bots)))
    length = decl.length[0] if decl.length else None
    for ge in decl.game_elements:
        t[slug(ge.label)] = elements.game_element_table(df, ge, length)
    for hs in decl.held_sets:
        t[slug(hs.label)] = elements.held_table(df, game, hs)
    t["score_distribution"] = distributions.score_distribution(df, decl.sources)
    if decl.length:
        t["game_length"] = distributions.game_length(df, decl.length)
    if decl.end:
        t[decl.end] = distributions.end_table(df, decl.end, length)
    t["convergence"] = pd.concat([convergence.running_rates(df, "seat")] + (
        [convergence.running_rates(df, "bot")] if df["bot"].nunique() > 1 else []),
        ignore_index=True)
    t["precision"] = precision(t["win_rate_by_seat"], t["win_rate_by_bot"])
    a.findings, a.limits = summarise(fx.table, t["seat_tests"], confounded, fx.games, n_games)
    return a
