"""The HTML report of a run folder: index.html, one PNG per plot and one CSV per table."""

from __future__ import annotations

import html
import time
from pathlib import Path

import pandas as pd

from analysis.festival import analyse
from reports import plots
from sim.core.errors import PlaytestError
from sim.core.runner import load_results, read_info
from strategies.presets import load_presets

CSS = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; color: #222;
       line-height: 1.45; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.8em 0; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; border: 1px solid #eee; margin: 0.5em 0; }
.note { color: #555; font-size: 0.92em; } nav a { margin-right: 1em; }
"""

SECTIONS = [
    ("run", "Run"), ("seats", "Seat advantage"), ("bots", "Bots"), ("setup", "Setup strength"),
    ("scores", "Scores"), ("length", "Game length and end"), ("precision", "Precision"),
    ("method", "Method"),
]

SHOW = {  # columns shown in the page; the CSV files have all of them
    "rate": ["seat_games", "win_rate", "ci_low", "ci_high", "lift_pp", "p_holm", "mean_score",
             "mean_rank"],
    "held": ["eligible_seat_games", "held_share", "seat_games", "win_rate", "ci_low", "ci_high",
             "lift_pp", "p_holm", "p_bh"],
}


def _p_value(p: float) -> str:
    """p-values below double precision print as a bound, not as 0."""
    if p != p:  # NaN
        return ""
    return "<1e-300" if p < 1e-300 else f"{p:.3g}"


def _table(df: pd.DataFrame, columns: list[str] | None = None) -> str:
    if columns:
        first = [c for c in df.columns if c not in SHOW["rate"] + SHOW["held"]][:1]
        df = df[first + [c for c in columns if c in df.columns]]
    fmt = {c: _p_value for c in df.columns if c.startswith("p_")}
    return df.to_html(index=False, float_format=lambda x: f"{x:.4f}", formatters=fmt,
                      border=0, na_rep="")


def write_report(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """Analyse the run in ``run_dir`` and write the report into ``out`` (default run/report)."""
    run_dir = Path(run_dir)
    info = read_info(run_dir)
    request = info["request"]
    if request["game"] != "festival":
        raise PlaytestError(f"no report for game '{request['game']}' yet")
    df = load_results(run_dir)
    out = Path(out) if out else run_dir / "report"
    out.mkdir(parents=True, exist_ok=True)
    tables = analyse(df, info["cards"][: info["n_deck"]], info["crowd"])
    for name, table in tables.items():
        table.to_csv(out / f"{name}.csv", index=False)

    n_players = request["players"]
    even = 1 / n_players
    img = {
        "seat": plots.rate_bars(tables["win_rate_by_seat"], "seat",
                                "Win rate by seat (seat 0 starts)", out / "seats.png", even),
        "bot": plots.rate_bars(tables["win_rate_by_bot"], "bot", "Win rate by bot",
                               out / "bots.png", even),
        "board": plots.rate_bars(tables["board_dealt"], "board", "Win rate by board (dealt)",
                                 out / "boards.png", even),
        "side": plots.rate_bars(tables["start_side_kept"], "start_side",
                                "Win rate by starting objective side (kept)",
                                out / "start_sides.png", even),
        "cards": plots.lift_dots(tables["objectives_completed"], "card",
                                 "Objective cards: lift of the seats that completed them",
                                 out / "objectives.png"),
        "crowd": plots.lift_dots(tables["crowd_claimed"], "condition",
                                 "Crowd-pleasers: lift of the seats that claimed them",
                                 out / "crowd.png"),
        "hist": plots.score_hist(df, out / "scores.png"),
        "sources": plots.source_bars(tables["score_distribution"], out / "sources.png"),
        "length": plots.length_hist(df, out / "length.png"),
    }
    games = request["games"]
    presets = load_presets(request["game"])
    e = html.escape
    seat0 = tables["win_rate_by_seat"].iloc[0]
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>playtest: Festival, "
             f"{games:,} games</title><style>{CSS}</style></head><body>",
             f"<h1>Festival: {games:,} simulated games, {n_players} players</h1>",
             "<nav>" + "".join(f"<a href='#{k}'>{v}</a>" for k, v in SECTIONS) + "</nav>"]
    parts.append("<h2 id='run'>Run</h2><table>" + "".join(
        f"<tr><th>{e(k)}</th><td>{e(str(v))}</td></tr>" for k, v in [
            ("games", f"{games:,}"), ("players", n_players),
            ("bots (by slot)", ", ".join(request["bots"])),
            *((f"bot {name}", presets[name].description if name in presets else "")
              for name in dict.fromkeys(request["bots"])),
            ("seat rotation", "yes: game i seats bot slot (seat + i) mod players"
             if request["rotate"] else "no: slot = seat"),
            ("master seed", request["seed"]), ("data hash", request["data_hash"]),
            ("backend", info.get("backend")), ("simulation seconds", info.get("seconds")),
            ("playtest version", info.get("version")),
            ("report written", time.strftime("%Y-%m-%d %H:%M")),
        ]) + "</table>")
    parts.append(
        "<h2 id='seats'>Seat advantage</h2>"
        f"<p>The start player (seat 0) wins {seat0['win_rate']:.1%} "
        f"(95% interval {seat0['ci_low']:.1%} to {seat0['ci_high']:.1%}) against an even "
        f"{even:.1%}.</p>"
        f"<img src='{img['seat']}' alt='win rate by seat'>"
        + _table(tables["win_rate_by_seat"], SHOW["rate"]))
    parts.append(
        "<h2 id='bots'>Bots</h2>"
        f"<img src='{img['bot']}' alt='win rate by bot'>"
        + _table(tables["win_rate_by_bot"], SHOW["rate"])
        + "<h3>By bot and seat</h3>" + _table(tables["win_rate_by_bot_and_seat"]))
    parts.append(
        "<h2 id='setup'>Setup strength</h2>"
        "<p class='note'>Lift is the win rate minus the baseline (all seats' win rate), in "
        "percentage points, with the 95% Wilson interval shifted by the baseline. Many items "
        "are compared at once, so p-values are adjusted: <b>Holm</b> (family-wise error, used "
        "for the red marks and the p_holm column) and Benjamini-Hochberg (false-discovery "
        "rate, p_bh), within each table. Boards and crowd-pleaser sides are dealt at random, "
        "so their differences are causal; starting sides are chosen by the bots (kept), and "
        "objective cards completed or crowd-pleasers claimed follow from play: those lifts "
        "show what goes with winning, not what causes it.</p>"
        "<h3>Board (dealt)</h3>"
        f"<img src='{img['board']}' alt='boards'>"
        + _table(tables["board_dealt"], SHOW["rate"])
        + "<h3>Starting objective side (kept)</h3>"
        f"<img src='{img['side']}' alt='starting sides'>"
        + _table(tables["start_side_kept"], SHOW["rate"] + ["chosen_share"])
        + "<h3>Crowd-pleaser sides in play (dealt)</h3>"
        + _table(tables["crowd_sides_in_play"])
        + "<h3>Crowd-pleasers claimed</h3>"
        f"<img src='{img['crowd']}' alt='crowd-pleasers'>"
        + _table(tables["crowd_claimed"], SHOW["held"])
        + "<h3>Objective cards completed</h3>"
        f"<img src='{img['cards']}' alt='objective cards'>"
        + _table(tables["objectives_completed"], SHOW["held"]))
    parts.append(
        "<h2 id='scores'>Scores</h2>"
        f"<img src='{img['hist']}' alt='score histogram'>"
        f"<img src='{img['sources']}' alt='score sources'>"
        + _table(tables["score_distribution"]))
    parts.append(
        "<h2 id='length'>Game length and end</h2>"
        f"<img src='{img['length']}' alt='game length'>"
        + _table(tables["game_length"]) + _table(tables["end_trigger"]))
    parts.append(
        "<h2 id='precision'>Precision</h2>"
        "<p class='note'>Half-width of each 95% interval, and how many seat-games a rate "
        "needs for +/-1 and +/-0.5 percentage points (n = z&sup2; p(1-p) / E&sup2;). A seat "
        "or bot plays one seat-game per game it sits in.</p>"
        + _table(tables["precision"]))
    parts.append(
        "<h2 id='method'>Method</h2><ul class='note'>"
        "<li>Every game has its own random stream from (master seed, game index): any game "
        "replays alone with <code>playtest replay</code>, and the rows do not depend on "
        "chunking, threads or backend.</li>"
        "<li>A win shared by k players counts 1/k to each (official tie-breaks first: most "
        "points, then most crowd-pleasers).</li>"
        "<li>Intervals: Wilson score intervals for rates (Brown, Cai &amp; DasGupta 2001).</li>"
        "<li>Reconstructed card data (objective patterns and values, crowd-pleaser pairs and "
        "values, target designs) is listed in seeds/festival/rules.md; results about single "
        "cards speak of that reconstruction.</li>"
        "<li>Every table is in a CSV file beside this page.</li></ul></body></html>")
    page = out / "index.html"
    page.write_text("\n".join(parts), encoding="utf-8")
    return page
