"""The HTML report of a run folder, for any registered game: one self-contained index.html
(plots inlined) and one CSV per table beside it."""

from __future__ import annotations

import html
import time
from pathlib import Path

import pandas as pd

from analysis import MODEL_GAMES
from analysis.analyse import Analysis, analyse
from analysis.catalogue import slug
from analysis.folders import output_folder, write_csv, write_text
from reports import plots
from sim.core.checks import path
from sim.core.errors import PlaytestError
from sim.core.registry import game_module
from sim.core.run_folder import load_results, read_info
from strategies.presets import game_presets, random_choosers

CSS = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; color: #222;
       line-height: 1.45; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.8em 0; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
td { white-space: nowrap; } .scroll { overflow-x: auto; }
img { max-width: 100%; border: 1px solid #eee; margin: 0.5em 0; }
.note { color: #555; font-size: 0.92em; } nav a { margin-right: 1em; }
.summary { background: #f6f8fb; border-left: 4px solid #4c78a8; padding: 0.6em 1.2em; }
.warn { background: #fff4e5; border-left: 4px solid #f58518; padding: 0.4em 1em; }
"""

COUNTS = {"seat_games", "games", "eligible_seat_games", "slots", "df"}
RATES = {"win_rate", "ci_low", "ci_high", "even_share", "others_win_rate", "held_share",
         "chosen_share", "share", "share_of_games", "start_player_win_rate"}


def _fmt(column: str):
    """How a column reads in the page (the CSV files keep every digit)."""
    if column.startswith("p_"):
        return lambda p: "" if p != p else ("<1e-300" if p < 1e-300 else f"{p:.3g}")
    if column.endswith("_pp"):
        return lambda x: "" if x != x else f"{x:+.1f}"
    if column in RATES:
        return lambda x: "" if x != x else f"{100 * x:.1f}%"
    if column in COUNTS:
        return lambda x: "" if x != x else f"{x:,.0f}"
    if column == "wins":
        return lambda x: f"{x:,.1f}"
    return None


def table_html(df: pd.DataFrame, columns: list[str] | None = None) -> str:
    if columns:
        df = df[[c for c in columns if c in df.columns]]
    if not len(df):
        return "<p class='note'>(no rows)</p>"
    fmt = {c: f for c in df.columns  # a column already formatted as text stays as it is
           if (f := _fmt(c)) is not None and pd.api.types.is_numeric_dtype(df[c])}
    return "<div class='scroll'>" + df.to_html(
        index=False, float_format=lambda x: f"{x:,.2f}", formatters=fmt, border=0,
        na_rep="") + "</div>"


def img(uri: str, alt: str) -> str:
    return f"<img src='{uri}' alt='{html.escape(alt)}'>"


def note(text: str) -> str:
    return f"<p class='note'>{text}</p>"


RATE = ["seat_games", "win_rate", "ci_low", "ci_high", "diff_pp", "diff_low_pp",
        "diff_high_pp", "p_value", "p_holm", "mean_score", "mean_rank"]
POINTS = ["points", "points_low", "points_high"]
HELD = ["eligible_seat_games", "seat_games", "held_share", "win_rate", "ci_low", "ci_high",
        "others_win_rate", "diff_pp", "diff_low_pp", "diff_high_pp"]


def _summary(a: Analysis) -> str:
    items = "".join(f"<li>{html.escape(s)}</li>" for s in a.findings)
    limits = "".join(f"<li>{html.escape(s)}</li>" for s in a.limits)
    return (f"<div class='summary'><h2 id='summary'>Summary</h2><ul>{items}</ul>"
            f"<p><b>What this run cannot resolve</b></p><ul>{limits}</ul></div>")


def _run_section(info: dict, a: Analysis, presets: dict) -> str:
    req = info["request"]
    rows = [("games", f"{a.games:,}"), ("players", a.players),
            ("bots (by slot)", ", ".join(req["bots"])),
            *((f"bot {b}", presets[b].description) for b in dict.fromkeys(req["bots"])
              if b in presets),
            ("seat rotation", "yes: game i seats bot slot (seat + i) mod players"
             if req.get("rotate", True) else "no: slot = seat"),
            ("master seed", req["seed"]), ("data hash", req.get("data_hash", "")),
            ("backend", info.get("backend")), ("simulation seconds", info.get("seconds")),
            ("playtest version", info.get("version")),
            ("report written", time.strftime("%Y-%m-%d %H:%M"))]
    body = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(str(v))}</td></tr>"
                   for k, v in rows)
    return f"<h2 id='run'>Run</h2><table>{body}</table>"


def _effects_section(a: Analysis) -> str:
    fx = a.tables["effects"]
    sample = (f"The model is fitted on the first {a.model_games:,} of the run's {a.games:,} "
              "games (every game is dealt independently, so they are a random sample); its "
              "intervals are that sample's. <code>playtest report --model-games N</code> "
              "fits more." if a.model_games < a.games else
              f"The model is fitted on all {a.games:,} games.")
    parts = ["<h2 id='effects'>What matters</h2>",
             note("A logistic regression of winning on seat, bot and every dealt element "
                  "(a dealt hand is answered per item under Setup), standard errors "
                  "clustered by game. Each effect is an average marginal effect: the change "
                  "in win rate, in percentage points, when a seat-game moves from the "
                  "reference level to this one, all else as it was. Points: the mean score "
                  "difference from the reference, with a bootstrap interval that resamples "
                  "whole games. p_holm: Holm-adjusted within the block. "
                  + sample)]
    if not len(fx):
        return "".join(parts) + note("Too few games to fit the model.")
    causal = fx[fx["block"] != "observational"]
    parts.append(img(plots.differences(causal, causal["factor"] + " " + causal["level"],
                                       "effect_pp", "ci_low_pp", "ci_high_pp",
                                       "Effects on win rate against each reference level",
                                       "percentage points, 95% interval"), "effects"))
    cols = ["factor", "level", "reference", "seat_games", "effect_pp", "ci_low_pp",
            "ci_high_pp", "p_holm", "points", "points_ci_low", "points_ci_high"]
    parts.append(table_html(causal, cols))
    obs = fx[fx["block"] == "observational"]
    if len(obs):
        parts.append("<h3>Kept elements (observational)</h3>" + note(
            "Chosen by the players, not dealt: a second model adds them to the first, each "
            "option against the first option of the same dealt context, averaged over the "
            "seat-games of that context; points compare scores after removing each bot's "
            "mean. A bot's choice follows from what it expects, so these are associations "
            "(see the kept table for the within-bot comparison).") + table_html(obs, cols))
    return "".join(parts)


def _seat_section(a: Analysis) -> str:
    seat = a.tables["win_rate_by_seat"]
    parts = ["<h2 id='seats'>Seat advantage</h2>"]
    if a.confounded:
        parts.append("<p class='warn'>Seats were not rotated and the bots differ: seat k "
                     "always held the same bot, so this table mixes the seat's effect with "
                     "the bot's. No seat claim is made from it; run without --no-rotate to "
                     "measure the seats.</p>")
    else:
        mirror = (" In a 2-player game seat 1 is the mirror image of seat 0: one comparison, "
                  "one p-value." if a.players == 2 else "")
        parts.append(note("Seat 0 starts. Differences from an even share in percentage "
                          "points; p-values exact below 30 seat-games, Holm-adjusted across "
                          "the seats." + mirror))
    parts.append(img(plots.rate_bars(seat, "seat", "Win rate by seat (seat 0 starts)",
                                     1 / a.players), "win rate by seat"))
    parts.append(table_html(seat, ["seat"] + RATE))
    if not a.confounded:
        parts.append("<h3>Tests</h3>" + table_html(a.tables["seat_tests"]))
    return "".join(parts)


def _bot_section(a: Analysis) -> str:
    bots = a.tables["win_rate_by_bot"]
    parts = ["<h2 id='bots'>Bots</h2>"]
    if len(bots) > 1:
        parts.append(img(plots.rate_bars(bots, "bot", "Win rate by bot", 1 / a.players),
                         "win rate by bot"))
    else:
        parts.append(note("One bot in every seat: no bot comparison."))
    parts.append(table_html(bots, ["bot", "slots", "interval"] + RATE))
    parts.append("<h3>By bot slot</h3>" + note(
        "Each slot (a position in --bots) plays one seat-game per game. A bot in several "
        "slots should win equally in each: the check below tests it (p is uniform when it "
        "holds, so p &lt; 0.05 one time in twenty).") + table_html(
        a.tables["win_rate_by_slot"], ["bot_slot", "bot", "seat_games", "win_rate", "ci_low",
                                       "ci_high", "mean_score"]))
    if len(a.tables["identical_bots"]):
        parts.append(table_html(a.tables["identical_bots"]))
    parts.append("<h3>By bot and seat</h3>" + table_html(a.tables["win_rate_by_bot_and_seat"]))
    return "".join(parts)


def _setup_section(a: Analysis) -> str:
    d = a.decl
    if not (d.elements or d.game_elements or d.held_sets):
        return ""
    parts = ["<h2 id='setup'>Setup</h2>"]
    for e in d.of_kind("dealt"):
        t = a.tables[f"{e.column}_dealt"]
        hand = (" A hand of items: each row is one item, the seat-games dealt it against "
                "those not dealt it." if e.sep else "")
        parts.append(f"<h3>{html.escape(e.label)} (dealt)</h3>" + note(
            "Dealt at random, so a difference is caused by the element. Lift: the holders' "
            "win rate minus the non-holders' (other seat-games), percentage points, clustered "
            "by game, and the same for mean scores (points); p-values exact (Fisher) below 30 "
            "seat-games; Holm (family-wise) and Benjamini-Hochberg (p_bh, false discovery) "
            "adjusted within the table." + hand))
        if len(t):
            parts.append(img(plots.differences(t, t[e.column], "diff_pp", "diff_low_pp",
                                               "diff_high_pp", f"{e.label}: holders minus "
                                               "non-holders", "percentage points, 95% "
                                               "interval"), e.label))
        parts.append(table_html(t, [e.column, "held_share"] + RATE + ["p_bh"] + POINTS))
    for e in d.of_kind("kept"):
        t = a.tables[f"{e.column}_kept"]
        if d.hand(e.context):
            parts.append(f"<h3>{html.escape(e.label)} (kept)</h3>" + note(
                f"Chosen by the bots from the dealt {e.context}, so compared within each bot "
                "and per item: among the seat-games dealt the item, its win rate and mean "
                "score when kept against when passed (Newcombe and Welch intervals; p_holm "
                "Holm-adjusted within the table). Observational: a bot keeps what it "
                "expects to win with. Where the bot chooses at random (causal = True), the "
                "choice is randomised and the comparison is causal."))
            parts.append(table_html(t))
            continue
        within = f" and within the dealt {e.context}" if e.context else ""
        parts.append(f"<h3>{html.escape(e.label)} (kept)</h3>" + note(
            f"Chosen by the bots, so compared within each bot{within}: how often the bot "
            "chose each option, and its win rate against the first option. Observational: a "
            "bot picks what it expects to win with. Where the bot chooses at random "
            "(causal = True), the choice is randomised and the comparison is causal."))
        parts.append(table_html(t, [c for c in t.columns if c != "wins"]))
    for ge in d.game_elements:
        parts.append(f"<h3>{html.escape(ge.label)} (dealt, whole game)</h3>" + note(
            "Dealt at random for the whole game: its effect on length, scores and the start "
            "player's rate.") + table_html(a.tables[slug(ge.label)]))
    for hs in d.held_sets:
        t = a.tables[slug(hs.label)]
        parts.append(f"<h3>{html.escape(hs.label)} (outcome)</h3>" + note(
            f"Association only, so no significance marks: holding a {hs.item} follows from "
            "play, and the seats that manage it are often winning anyway. Holders against "
            "eligible non-holders, percentage points, clustered by game."))
        if len(t):
            parts.append(img(plots.differences(t, t[hs.item], "diff_pp", "diff_low_pp",
                                               "diff_high_pp", f"{hs.label}: holders minus "
                                               "non-holders (association)",
                                               "percentage points, 95% interval"), hs.label))
        parts.append(table_html(t, [hs.item] + HELD + POINTS))
    return "".join(parts)


def _scores_section(a: Analysis, df: pd.DataFrame) -> str:
    dist = a.tables["score_distribution"]
    parts = ["<h2 id='scores'>Scores</h2>", img(plots.score_hist(df), "score histogram")]
    if a.decl.sources:
        parts.append(img(plots.source_bars(dist), "score sources"))
    return "".join(parts) + table_html(dist)


def _length_section(a: Analysis, df: pd.DataFrame) -> str:
    d = a.decl
    if not d.length:
        return ""
    games = df[df["seat"] == 0]
    column = d.length[-1]
    parts = ["<h2 id='length'>Game length and end</h2>",
             img(plots.length_hist(games, column, d.end), "game length"),
             table_html(a.tables["game_length"])]
    if d.end:
        parts.append(table_html(a.tables[d.end]))
    return "".join(parts)


def _convergence_section(a: Analysis) -> str:
    run = a.tables["convergence"]
    parts = ["<h2 id='convergence'>Convergence</h2>", note(
        "The running estimate of the headline rates after each number of games, with its 95% "
        "band: where the lines have settled inside their bands, more games change little.")]
    for factor in run["factor"].unique():
        parts.append(img(plots.convergence(run, factor, 1 / a.players), f"running {factor}"))
    return "".join(parts)


def _method_section(a: Analysis) -> str:
    lines = [
        "Every game has its own random stream from (master seed, game index): any game "
        "replays alone with <code>playtest replay</code>, and the rows do not depend on "
        "chunking, threads or backend.",
        *(html.escape(n) for n in a.decl.notes),
        "Rates: Wilson score intervals (statsmodels); a bot in several slots gets a Wilson "
        "interval at its effective sample size, clustered by game.",
        "Differences between seat-games of the same games (holders and non-holders, slots of "
        "one bot) are clustered by game. Tests are exact (binomial, Fisher) below 30 "
        "seat-games. Model: statsmodels Logit with cluster-robust covariance; bootstrap: "
        "scipy.stats.bootstrap, 999 resamples of whole games, percentile intervals.",
        "Dealt elements are assigned at random, so their comparisons are causal; kept "
        "elements are choices, compared within bot and dealt context; outcomes are "
        "associations.",
        "Every table is in a CSV file beside this page.",
    ]
    return "<h2 id='method'>Method</h2><ul class='note'>" + "".join(
        f"<li>{x}</li>" for x in lines) + "</ul>"


def _precision_section(a: Analysis) -> str:
    return ("<h2 id='precision'>Precision</h2>" + note(
        "Half-width of each 95% interval, and how many seat-games a rate needs for +/-1 and "
        "+/-0.5 percentage points (statsmodels' sample size for a confidence interval). A "
        "seat or slot plays one seat-game per game.") + table_html(a.tables["precision"]))


SECTIONS = [("summary", "Summary"), ("run", "Run"), ("effects", "What matters"),
            ("seats", "Seats"), ("bots", "Bots"), ("setup", "Setup"), ("scores", "Scores"),
            ("length", "Length"), ("convergence", "Convergence"), ("precision", "Precision"),
            ("method", "Method")]


def write_report(run_dir: str | Path, out: str | Path | None = None,
                 model_games: int = MODEL_GAMES) -> Path:
    """Analyse the run in ``run_dir`` and write the report into ``out`` (default
    run/report): index.html and a CSV per table."""
    if isinstance(model_games, bool) or not isinstance(model_games, int) or model_games < 0:
        raise PlaytestError(f"--model-games must be zero (all) or positive, got {model_games!r}")
    run_dir = path("run", run_dir, optional=False)
    out = path("out", out)
    info = read_info(run_dir)
    game = info["request"]["game"]
    decl = game_module(game).declare(info)
    df = load_results(run_dir)
    out = output_folder(out or run_dir / "report")  # before the analysis
    presets = game_presets(game)
    a = analyse(df, decl, random_choosers(presets), model_games)
    for name, table in a.tables.items():
        write_csv(out / f"{name}.csv", table)
    title = f"{decl.title}: {a.games:,} simulated games, {a.players} players"
    body = [_summary(a), _run_section(info, a, presets), _effects_section(a), _seat_section(a),
            _bot_section(a), _setup_section(a), _scores_section(a, df), _length_section(a, df),
            _convergence_section(a), _precision_section(a), _method_section(a)]
    shown = "".join(body)  # a link for each section this game has
    nav = "<nav>" + "".join(f"<a href='#{k}'>{v}</a>" for k, v in SECTIONS
                            if f"id='{k}'" in shown) + "</nav>"
    return write_page(out / "index.html", f"playtest: {title}", body, nav)


def write_page(page: Path, title: str, body: list[str], nav: str = "") -> Path:
    """One self-contained HTML page: the title, the navigation, the sections (written whole
    or not at all)."""
    return write_text(page, f"<!doctype html><html><head><meta charset='utf-8'><title>"
                      f"{html.escape(title)}</title><style>{CSS}</style></head><body>"
                      f"<h1>{html.escape(title)}</h1>{nav}" + "\n".join(body)
                      + "</body></html>")
