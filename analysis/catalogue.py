"""Every table of a report: its file name, what it shows and what kind of claim it makes.
The report's --help, the README and the report's own headings read this one list."""

from __future__ import annotations

import re

# (file name, claim, what it shows). ELEMENT stands for an element's column or label.
TABLES = [
    ("effects", "causal",
     "what matters: a logistic model of winning on seat, bot and dealt elements, each bot "
     "with its own effects; every level against the average of the levels, per bot and "
     "pooled, in percentage points, beside mean score deviations (points, bootstrap paired "
     "by game); the contrast with the first level (`vs_reference_*`) and the bots' "
     "interaction test"),
    ("win_rate_by_seat", "causal with seat rotation",
     "win rate per seat against an even share (one comparison in a 2-player game)"),
    ("seat_tests", "causal with seat rotation",
     "first seat minus last seat paired within games; joint test of no seat effect"),
    ("win_rate_by_bot", "causal with seat rotation",
     "win rate per bot (clustered by game when a bot fills several slots)"),
    ("win_rate_by_slot", "null check",
     "win rate per bot slot; identical bots in several slots must come out equal"),
    ("identical_bots", "null check", "test that each bot wins equally in each of its slots"),
    ("win_rate_by_bot_and_seat", "descriptive", "win rate of each bot in each seat"),
    ("ELEMENT_dealt", "causal",
     "per level of a dealt element (per item of a dealt hand): its effect against the "
     "average level (`effect_pp`, the model's number), the lift over every other seat-game "
     "(`diff_pp`) and the holder against the seats of games where nobody holds it "
     "(`vs_unheld_pp`), in win rate and points; score-test p-values, Holm and BH adjusted"),
    ("ELEMENT_kept", "observational (causal for a bot that chooses at random)",
     "per bot and dealt context: how often each option is chosen and its win rate against "
     "the context's first option, only where the bot chose both in at least 5% of its "
     "seat-games (`identified`); from a dealt hand, per bot and item: kept against passed"),
    ("ELEMENT (game-level)", "causal",
     "per level of a dealt game element: game length, mean score, start player's win rate"),
    ("ELEMENT (held set)", "association",
     "per item held at the end: holders against eligible non-holders, no significance marks"),
    ("score_distribution", "descriptive", "score and each score source by bot"),
    ("game_length", "descriptive", "game length"),
    ("END", "descriptive", "how often each end condition ended the game"),
    ("convergence", "descriptive", "running win rates with intervals against games played"),
    ("precision", "descriptive",
     "interval half-widths and the games a +/-1 or +/-0.5 point interval needs"),
]


def slug(label: str) -> str:
    """A table's file name from a label: 'Objective cards completed' -> objective_cards_..."""
    return re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")


def help_text() -> str:
    """One line per table, for ``playtest report --help``."""
    width = max(len(name) for name, _, _ in TABLES)
    return "\n".join(f"  {name:<{width}}  [{claim}] {what}" for name, claim, what in TABLES)
