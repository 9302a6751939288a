"""A rule search's index.html: the confirmation and its verdict first, then the search's
history and each target against each varied value."""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from analysis.folders import read_json
from analysis.targets import ONE_SIDED, measured_text
from analysis.tune_rules import term_of
from reports import plots, run_header
from reports.html import img, note, table_html, write_page


def write_tune_page(folder: str | Path) -> Path:
    """Write FOLDER/index.html for the finished search in FOLDER."""
    folder = Path(folder)
    r = read_json(folder, "tune")
    req, c = r["request"], r["confirmation"]
    terms = term_of(req)
    trials = pd.read_csv(folder / "trials.csv")
    values = ", ".join(f"{k} = {v}" for k, v in r["best"].items())
    rows = []
    for t in terms:
        side = "at most" if t.metric in ONE_SIDED else "within"
        band = (f"{side} {t.goal + t.band:g}{t.unit}" if t.metric in ONE_SIDED
                else f"{side} {t.goal:g} +- {t.band:g}{t.unit}")
        rows.append({"target": t.name, "goal": band, "weight": t.weight,
                     "before": measured_text(c["before"], t.name, t.unit),
                     "best values": measured_text(c["best"], t.name, t.unit),
                     "met": "yes" if t.met(c["best"][t.name + " low"],
                                           c["best"][t.name + " high"]) else "no"})
    verdict = r["verdict"]
    body = [
        f"<div class='summary'><p>Target <b>{html.escape(verdict)}</b> by {html.escape(values)}"
        f" in the confirmation: {c['best']['games']:,} games on master seed {c['seed']}, which "
        "no trial played. The page says met only when every target's 95% interval lies "
        "inside its band: the best of many trials is also the luckiest, so its own figures "
        "are not the verdict.</p></div>",
        "<h2 id='run'>What was run</h2>" + run_header.table(run_header.rows(
            req["game"], req["players"], req["bots"], req["sets"], req.get("data"),
            f"{req['seed']} for every trial (the same games), {c['seed']} for the "
            "confirmation", f"{req['games']:,} a trial, {r['confirm_games']:,} a "
            "confirmation arm",
            [("varied", ", ".join(f"{v['key']} {v['low']:g}..{v['high']:g}"
                                  + ("" if v["integer"] else " (real)")
                                  for v in req["vary"])),
             ("search", f"{r['trials']} trials: " + (
                 "every combination once, in an order drawn from the seed"
                 if r.get("sampler") == "every combination" else
                 "optuna's TPE sampler, trial n seeded by the seed and n"))])),
        "<h2 id='confirmation'>Confirmation</h2>",
        note("Each target's estimate and 95% interval on the confirmation's games, for the "
             "rules as they are (before) and with the best values. Seat spread: seat 0 minus "
             "the last seat, paired within games; effects: a level's win rate against the "
             "average of the levels (the report's effect); spread: the best level minus the "
             "worst, with a 95% upper bound from a bootstrap of games (no lower end: the "
             "bootstrap's spread is biased upward, so its lower end is no evidence of a "
             "spread)."),
        table_html(pd.DataFrame(rows)),
        "<p>Pass the values back as: <code>" + html.escape(" ".join(
            f"--set {k}={v}" for k, v in {**req["sets"], **r["best"]}.items()))
        + "</code> (also in best.toml).</p>",
        "<h2 id='history'>The search</h2>",
        note("The objective is the sum over the targets of weight x |estimate - goal| / band "
             "on the trial's games (lower is better)."),
        img(plots.tune_history(trials), "search history"),
    ]
    for v in req["vary"]:
        for t in terms:
            body.append(img(plots.tune_term(trials, v["key"], t.name, t.unit, t.goal, t.band,
                                            t.metric in ONE_SIDED), f"{t.name} by {v['key']}"))
    body += ["<h2 id='trials'>Trials</h2>", note("trials.csv: every trial's values and "
                                                  "measures."), table_html(trials)]
    title = f"playtest tune rules: {req['game']}, {req['players']} players"
    return write_page(folder / "index.html", title, body)
