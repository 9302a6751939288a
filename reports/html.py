"""The HTML report of a run folder, for any registered game: one self-contained index.html
(plots inlined) and one CSV per table beside it."""

from __future__ import annotations

import html
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from analysis import BAND, MODEL_GAMES
from analysis.analyse import Analysis, analyse
from analysis.catalogue import slug
from analysis.folders import PAGE, staged_output, write_csv, write_text
from analysis.formatting import interval, number, signed
from reports import plots, run_header
from sim.core.checks import path
from sim.core.errors import PlaytestError
from sim.core.registry import game_module
from sim.core.run_folder import load_results, verify
from strategies.presets import random_choosers, run_presets

CSS = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; color: #222;
       line-height: 1.45; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
h4 { margin: 0.9em 0 0.2em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.8em 0; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
td { white-space: nowrap; } .scroll { overflow-x: auto; max-width: 100%; }
table.run td { white-space: normal; text-align: left; }
img { max-width: 100%; border: 1px solid #eee; margin: 0.5em 0; }
.note { color: #555; font-size: 0.92em; } nav a { margin-right: 1em; }
.csv { color: #777; font-size: 0.8em; font-family: monospace; }
.summary { background: #f6f8fb; border-left: 4px solid #4c78a8; padding: 0.6em 1.2em; }
.flag { color: #b3420c; font-weight: 600; }
.warn { background: #fff4e5; border-left: 4px solid #f58518; padding: 0.4em 1em; }
"""

RATES = {"win_rate", "ci_low", "ci_high", "even_share", "others_win_rate", "held_share",
         "chosen_share", "kept_share", "share", "share_of_games", "start_player_win_rate",
         "win_rate_kept", "win_rate_passed", "win_rate_at_level", "win_low", "win_high"}


def _fmt(column: str, values: pd.Series):
    """How a column reads in the page (the CSV files keep every digit): p-values to three
    figures, percentage points signed to a tenth, rates and shares in percent, whole numbers
    with thousands separators, other numbers to two decimals (a tenth past 100)."""
    if pd.api.types.is_bool_dtype(values):
        return lambda x: "yes" if x else "no"
    if not pd.api.types.is_numeric_dtype(values):
        return None
    if column.startswith("p_") or column.endswith("_p") or column == "p":
        return lambda p: "" if p != p else ("<1e-300" if p < 1e-300 else f"{p:.3g}")
    if column.endswith("half_width_pp"):
        return number
    if column.endswith("_pp"):
        return signed
    if column in RATES or column.endswith("_share"):
        return lambda x: "" if x != x else f"{100 * x:.1f}%"
    finite = values.dropna()
    if len(finite) and (finite == finite.round()).all():
        return lambda x: "" if x != x else f"{x:,.0f}"
    digits = 1 if len(finite) and finite.abs().max() >= 100 else 2
    return lambda x: number(x, digits)


def table_html(df: pd.DataFrame, columns: list[str] | None = None) -> str:
    """A table in a box that scrolls sideways when it is wider than the page."""
    if columns:
        df = df[[c for c in columns if c in df.columns]]
    if not len(df):
        return "<p class='note'>(no rows)</p>"
    fmt = {c: f for c in df.columns if (f := _fmt(c, df[c])) is not None}
    return "<div class='scroll'>" + df.to_html(index=False, formatters=fmt, border=0,
                                               na_rep="", escape=True) + "</div>"


def csv_name(name: str) -> str:
    """Where a table's every digit is: its CSV file beside the page."""
    return f"<p class='csv'>{html.escape(name)}.csv</p>"


def img(uri: str, alt: str) -> str:
    return f"<img src='{uri}' alt='{html.escape(alt)}'>"


def note(text: str) -> str:
    return f"<p class='note'>{text}</p>"


RATE = ["seat_games", "win_rate", "ci_low", "ci_high", "diff_pp", "diff_low_pp",
        "diff_high_pp", "p_value", "p_holm", "mean_score", "mean_rank"]
POINTS = ["points", "points_low", "points_high"]
HELD = ["eligible_seat_games", "seat_games", "held_share", "win_rate", "ci_low", "ci_high",
        "others_win_rate", "diff_pp", "diff_low_pp", "diff_high_pp"]
BOARD = [("seats", "Seat fairness"), ("dealt", "Dealt elements and cards"),
         ("associations", "Choices and outcomes (associations, not causes)"),
         ("bots", "The bots"), ("limits", "What this run can resolve")]


def _summary(a: Analysis) -> str:
    parts = ["<div class='summary'><h2 id='summary'>Summary</h2>", note(
        f"A finding is named when it survives Holm's correction within its element (for a "
        f"dealt hand's items, Benjamini-Hochberg); one beyond +/-{a.band:g} percentage points "
        "is flagged. Effects against the average level, in percentage points of win rate "
        "(pp), with 95% intervals.")]
    for section, title in BOARD:
        lines = [line for line in a.board if line.section == section]
        if not lines:
            continue
        items = "".join(
            f"<li{' class=flag' if line.flagged else ''}>{'&#9873; ' if line.flagged else ''}"
            f"{html.escape(line.text)}</li>" for line in lines)
        parts.append(f"<h4>{title}</h4><ul>{items}</ul>")
    return "".join(parts) + "</div>"


def _run_section(info: dict, a: Analysis, presets: dict) -> str:
    req = info["request"]
    items = run_header.rows(
        req["game"], a.players, req["bots"], req.get("sets"), info.get("data_dir"),
        str(req["seed"]), f"{a.games:,}",
        [*((f"bot {b}", presets[b].description) for b in dict.fromkeys(req["bots"])
           if b in presets),
         ("seat rotation", "yes: game i seats bot slot (seat + i) mod players"
          if req.get("rotate", True) else "no: slot = seat"),
         ("data hash", req.get("data_hash", "")), ("engine", info.get("engine", "")),
         ("backend", info.get("backend")), ("simulation seconds", info.get("seconds")),
         ("report written", time.strftime("%Y-%m-%d %H:%M"))],
        version=info.get("version") or "unknown")
    return "<h2 id='run'>Run</h2>" + run_header.table(items)


def _cell(effect: float, low: float, high: float, digits: int = 1) -> str:
    return "" if effect != effect else f"{signed(effect, digits)} {interval(low, high, digits)}"


def _per_bot(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per level: the pooled effect, then each bot's, as "effect [interval]" in
    percentage points, and the pooled points."""
    pooled = rows[rows["bot"] == "pooled"]
    out = pooled[["level", "seat_games", "p_holm"]].reset_index(drop=True)
    for bot in dict.fromkeys(rows["bot"]):
        r = rows[rows["bot"] == bot].set_index("level")
        out[bot if bot != "pooled" else "pooled, pp"] = [
            _cell(*r.loc[lv, ["effect_pp", "ci_low_pp", "ci_high_pp"]]) for lv in out["level"]]
    out["points, pooled"] = [_cell(*r, digits=2) for r in pooled[
        ["points", "points_ci_low", "points_ci_high"]].itertuples(index=False)]
    return out


def _effects_section(a: Analysis) -> str:
    fx = a.tables["effects"]
    sample = (f"The model is fitted on the first {a.model_games:,} of the run's {a.games:,} "
              "games (every game is dealt independently, so they are a random sample); its "
              "intervals are that sample's. <code>playtest report --model-games N</code> "
              "fits more." if a.model_games < a.games else
              f"The model is fitted on all {a.games:,} games.")
    bots = list(dict.fromkeys(a.lineup))
    parts = ["<h2 id='effects'>What matters</h2>", note(
        "A logistic regression of winning on seat, bot and every dealt element (a dealt hand "
        "is answered per item under Setup), each bot with its own seat and element effects, "
        "standard errors clustered by game. Each effect is the change in win rate, in "
        "percentage points, when a seat-game moves to this level from the average of the "
        "levels, all else as it was: shown for each bot and pooled over them (the first "
        "level's contrast is in effects.csv). Where the bots disagree (the interaction test "
        "below 0.01, or two bots on opposite sides of zero) the pooled number is an average "
        "of different games: read it per bot. Points: the level's mean score against the "
        "levels' average, pooled, with a bootstrap interval over whole games. p_holm: "
        "Holm-adjusted within the element. " + sample)]
    if len(bots) == 1:
        parts.append(note(f"Every seat plays {bots[0]}: these are the game's effects for "
                          f"{a.players} x {bots[0]}, the clean reading of seat and setup."))
    if a.left_out:
        parts.append("<p class='warn'>Left out of the model, and of every pooled number of "
                     "the setup tables: " + html.escape(", ".join(a.left_out)) + " (wins under "
                     "1% of its seat-games; it would dilute every effect).</p>")
    if not len(fx):
        return "".join(parts) + note("Too few games to fit the model.")
    pooled = fx[(fx["bot"] == "pooled") & (fx["factor"] != "bot")]  # the bots: last, apart
    if len(pooled):
        parts.append(img(plots.differences(pooled, pooled["factor"] + " " + pooled["level"],
                                           "effect_pp", "ci_low_pp", "ci_high_pp",
                                           "Effects on win rate against the average level "
                                           "(pooled over the bots in the model)",
                                           "percentage points, 95% interval"), "effects"))
    order = sorted(fx["factor"].unique(), key=lambda f: f == "bot")
    for factor in order:
        rows = fx[fx["factor"] == factor]
        p = rows["interaction_p"].dropna()
        test = (f" Bots differ: interaction test p = {p.iloc[0]:.2g}."
                if len(p) and p.iloc[0] < 0.01 else
                f" Interaction test p = {p.iloc[0]:.2g}." if len(p) else "")
        name = str(factor)
        parts.append(f"<h3>{html.escape(name[:1].upper() + name[1:])}</h3>" + note(test.strip())
                     + table_html(_per_bot(rows)))
    parts.append(csv_name("effects"))
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
        parts.append(note("Seat 0 starts. Every seat-game of the run, every bot's: "
                          "differences from an even share in percentage points; p-values "
                          "exact below 30 seat-games, Holm-adjusted across the seats. The "
                          "model's seat effects, per bot, are under What matters." + mirror))
    parts.append(img(plots.rate_bars(seat, "seat", "Win rate by seat (seat 0 starts)",
                                     1 / a.players), "win rate by seat"))
    parts.append(table_html(seat, ["seat"] + RATE) + csv_name("win_rate_by_seat"))
    if not a.confounded:
        parts.append("<h3>Tests</h3>" + table_html(a.tables["seat_tests"])
                     + csv_name("seat_tests"))
    return "".join(parts)


def _bot_section(a: Analysis) -> str:
    bots = a.tables["win_rate_by_bot"]
    parts = ["<h2 id='bots'>Bots</h2>"]
    if len(bots) > 1:
        parts.append(img(plots.rate_bars(bots, "bot", "Win rate by bot", 1 / a.players),
                         "win rate by bot"))
    else:
        parts.append(note("One bot in every seat: no bot comparison."))
    parts.append(table_html(bots, ["bot", "slots", "interval"] + RATE)
                 + csv_name("win_rate_by_bot"))
    parts.append("<h3>By bot slot</h3>" + note(
        "Each slot (a position in --bots) plays one seat-game per game. A bot in several "
        "slots should win equally in each: the check below tests it (p is uniform when it "
        "holds, so p &lt; 0.05 one time in twenty).") + table_html(
        a.tables["win_rate_by_slot"], ["bot_slot", "bot", "seat_games", "win_rate", "ci_low",
                                       "ci_high", "mean_score"]) + csv_name("win_rate_by_slot"))
    if len(a.tables["identical_bots"]):
        parts.append(table_html(a.tables["identical_bots"]))
    else:
        parts.append(note("No bot plays in two slots: nothing to check."))
    parts.append(csv_name("identical_bots"))
    parts.append("<h3>By bot and seat</h3>" + table_html(a.tables["win_rate_by_bot_and_seat"])
                 + csv_name("win_rate_by_bot_and_seat"))
    return "".join(parts)


DEALT = ["held_share", "seat_games", "win_rate", "effect_pp", "effect_low_pp",
         "effect_high_pp", "diff_pp", "diff_low_pp", "diff_high_pp", "vs_unheld_pp",
         "vs_unheld_low_pp", "vs_unheld_high_pp", "p_value", "p_holm", "p_bh", "points",
         "points_low", "points_high", "mean_score"]


def _heading(label: str, kind: str) -> str:
    """An element's heading: its label, and its kind unless the label says it."""
    return f"<h3>{html.escape(label)}" + ("" if label.lower().endswith(kind) else
                                          f" ({kind})") + "</h3>"


def _not_identified(t: pd.DataFrame) -> pd.DataFrame:
    """A kept table for the page: a comparison that is not identified says so."""
    if "identified" not in t:
        return t
    out = t.copy()
    out["diff_pp"] = out["diff_pp"].map(signed)
    out.loc[~out["identified"].astype(bool), "diff_pp"] = "not identified"
    return out


def _setup_section(a: Analysis) -> str:
    d = a.decl
    if not (d.elements or d.game_elements or d.held_sets):
        return ""
    parts = ["<h2 id='setup'>Setup</h2>"]
    left = (f" {', '.join(a.left_out)} is left out (it hardly ever wins)." if a.left_out
            else "")
    for e in d.of_kind("dealt"):
        t = a.tables[f"{e.column}_dealt"]
        hand = (" A hand of items: each row is one item, the seat-games dealt it against "
                "those not dealt it." if e.sep else "")
        parts.append(_heading(e.label, "dealt") + note(
            "Dealt at random, so a difference is caused by the element. effect: the level's "
            "win rate against the average of the levels' (the model's number under What "
            "matters); lift (diff): the holders against every other seat-game; vs_unheld: the "
            "holder against the seat-games of games where nobody holds it (its own gain, not "
            "the opponents' loss), where such games exist. Percentage points, clustered by "
            "game; p-values from a score test clustered by game (Fisher's exact below 30 "
            "seat-games), Holm (family-wise) and Benjamini-Hochberg (p_bh) within the "
            "table." + hand + left))
        if len(t):
            parts.append(img(plots.differences(t, t[e.column], "effect_pp", "effect_low_pp",
                                               "effect_high_pp", f"{e.label}: against the "
                                               "average level", "percentage points, 95% "
                                               "interval"), e.label))
        parts.append(table_html(t, [e.column] + DEALT) + csv_name(f"{e.column}_dealt"))
    for e in d.of_kind("kept"):
        t = a.tables[f"{e.column}_kept"]
        positivity = (" A comparison is identified only where the bot chose both sides in "
                      "at least 5% of its seat-games; elsewhere it says nothing and reads "
                      "\"not identified\".")
        if d.hand(e.context):
            parts.append(_heading(e.label, "kept") + note(
                f"Chosen by the bots from the dealt {e.context}, so compared within each bot "
                "and per item: among the seat-games dealt the item, its win rate and mean "
                "score when kept against when passed (Newcombe and Welch intervals; p_holm "
                "Holm-adjusted within the table). Observational: a bot keeps what it "
                "expects to win with. Where the bot chooses at random (causal = yes), the "
                "choice is randomised and the comparison is causal." + positivity))
            parts.append(table_html(_not_identified(t)) + csv_name(f"{e.column}_kept"))
            continue
        within = f" and within the dealt {e.context}" if e.context else ""
        parts.append(_heading(e.label, "kept") + note(
            f"Chosen by the bots, so compared within each bot{within}: how often the bot "
            "chose each option, and its win rate against the first option. Observational: a "
            "bot picks what it expects to win with. Where the bot chooses at random "
            "(causal = yes), the choice is randomised and the comparison is causal."
            + positivity))
        parts.append(table_html(_not_identified(t), [c for c in t.columns if c != "wins"])
                     + csv_name(f"{e.column}_kept"))
    for ge in d.game_elements:
        parts.append(_heading(ge.label, "dealt, whole game") + note(
            "Dealt at random for the whole game: its effect on length, scores and the start "
            "player's rate.") + table_html(a.tables[slug(ge.label)]) + csv_name(slug(ge.label)))
    for hs in d.held_sets:
        t = a.tables[slug(hs.label)]
        parts.append(_heading(hs.label, "outcome") + note(
            f"Association only, so no significance marks: holding a {hs.item} follows from "
            "play, and the seats that manage it are often winning anyway. Holders against "
            "eligible non-holders, percentage points, clustered by game." + left))
        if len(t):
            parts.append(img(plots.differences(t, t[hs.item], "diff_pp", "diff_low_pp",
                                               "diff_high_pp", f"{hs.label}: holders minus "
                                               "non-holders (association)",
                                               "percentage points, 95% interval"), hs.label))
        parts.append(table_html(t, [hs.item] + HELD + POINTS) + csv_name(slug(hs.label)))
    return "".join(parts)


def _scores_section(a: Analysis, df: pd.DataFrame) -> str:
    dist = a.tables["score_distribution"]
    parts = ["<h2 id='scores'>Scores</h2>", img(plots.score_hist(df), "score histogram")]
    if a.decl.sources:
        parts.append(img(plots.source_bars(dist), "score sources"))
    return "".join(parts) + table_html(dist) + csv_name("score_distribution")


def _length_section(a: Analysis, df: pd.DataFrame) -> str:
    d = a.decl
    if not d.length:
        return ""
    games = df[df["seat"] == 0]
    column = d.length[-1]
    parts = ["<h2 id='length'>Game length and end</h2>",
             img(plots.length_hist(games, column, d.end), "game length"),
             table_html(a.tables["game_length"]) + csv_name("game_length")]
    if d.end:
        parts.append(table_html(a.tables[d.end]) + csv_name(d.end))
    return "".join(parts)


def _convergence_section(a: Analysis) -> str:
    run = a.tables["convergence"]
    parts = ["<h2 id='convergence'>Convergence</h2>", note(
        "The running estimate of the headline rates after each number of games, with its 95% "
        "band: where the lines have settled inside their bands, more games change little.")]
    for factor in run["factor"].unique():
        parts.append(img(plots.convergence(run, factor, 1 / a.players), f"running {factor}"))
    return "".join(parts) + csv_name("convergence")


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
        "seat or slot plays one seat-game per game.") + table_html(a.tables["precision"])
            + csv_name("precision"))


BAR_DELAY = 3.0  # seconds before the report shows its progress (a quick report shows none)
SECTIONS = [("run", "Run"), ("summary", "Summary"), ("effects", "What matters"),
            ("seats", "Seats"), ("bots", "Bots"), ("setup", "Setup"), ("scores", "Scores"),
            ("length", "Length"), ("convergence", "Convergence"), ("precision", "Precision"),
            ("method", "Method")]


def write_report(run_dir: str | Path, out: str | Path | None = None,
                 model_games: int = MODEL_GAMES, band: float = BAND,
                 progress: bool = False) -> Path:
    """Analyse the run in ``run_dir`` and write the report into ``out`` (default
    run/report): index.html and a CSV per table. ``band``: the effect, in percentage points,
    beyond which the summary flags a finding; ``progress``: a bar on stderr, shown once the
    report has taken a few seconds."""
    if isinstance(model_games, bool) or not isinstance(model_games, int) or model_games < 0:
        raise PlaytestError(f"--model-games must be zero (all) or positive, got {model_games!r}")
    if isinstance(band, bool) or not isinstance(band, int | float) or not 0 < band < 100:
        raise PlaytestError(f"--band must be a number of percentage points above 0 and below "
                            f"100, got {band!r}")
    run_dir = path("run", run_dir, optional=False)
    out = path("out", out)
    info = verify(run_dir)  # a damaged run is refused before anything is written
    game = info["request"]["game"]
    decl = game_module(game).declare(info)
    out = out or run_dir / "report"
    # checked and locked before the analysis; the page and its tables replace the old ones
    # whole when every file is written
    with staged_output(out, "report") as stage, _steps(progress) as step:
        step("reading the games")
        df = load_results(run_dir)
        step("the model and the tables")
        presets = run_presets(game, info["request"])
        a = analyse(df, decl, random_choosers(presets), model_games, float(band))
        step("the page and its plots")
        for name, table in a.tables.items():
            write_csv(stage / f"{name}.csv", table)
        _page(a, info, presets, df, stage)
        step("")  # the last step is done
    return out / PAGE


@contextmanager
def _steps(progress: bool):
    """The report's steps on stderr, once it has taken BAR_DELAY seconds: the step under way
    and the time so far, refreshed every second (a long step still shows it is alive), and
    erased at the end, so an error line after it stands alone."""
    from tqdm import tqdm

    bar = tqdm(total=3, desc="report", unit="step", delay=BAR_DELAY, leave=False,
               disable=not progress, bar_format="{desc}: {n_fmt}/{total_fmt}{postfix} "
               "[{elapsed}]")
    started, stop = time.monotonic(), threading.Event()

    def tick():
        while not stop.wait(1.0):
            if time.monotonic() - started >= BAR_DELAY:
                bar.refresh()

    begun = []

    def step(what: str) -> None:
        if begun:  # the step before this one is done
            bar.update()
        begun.append(what)
        bar.set_postfix_str(what, refresh=False)

    ticker = threading.Thread(target=tick, daemon=True)
    if progress:
        ticker.start()
    try:
        yield step
    finally:
        stop.set()
        if progress:
            ticker.join()
        bar.close()


def _page(a: Analysis, info: dict, presets: dict, df: pd.DataFrame, out: Path) -> Path:
    decl = a.decl
    title = f"{decl.title}: {a.games:,} simulated games, {a.players} players"
    body = [_run_section(info, a, presets), _summary(a), _effects_section(a), _seat_section(a),
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
