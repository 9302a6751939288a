"""``playtest diff``'s page: what differs between two runs, and each element's change."""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from analysis.diff import RunDiff
from analysis.folders import PAGE, staged_output, write_csv
from analysis.formatting import interval, number, signed
from reports import plots, run_header
from reports.html import csv_name, img, note, table_html, write_page


def _shown(t: pd.DataFrame) -> pd.DataFrame:
    """Win rates in percent and their differences in points of win rate, scores as they
    are, each difference with its interval in one cell."""
    win = t["measure"] == "win rate"
    k = win.map({True: 100.0, False: 1.0})
    out = t[["part", "level", "measure", "games"]].copy()
    out["A"] = [f"{100 * x:.1f}%" if w else number(x) for x, w in zip(t["a"], win)]
    out["B"] = [f"{100 * x:.1f}%" if w else number(x) for x, w in zip(t["b"], win)]
    out["B - A"] = [signed(s * d, 2) + (" pp" if w else "") for d, s, w in
                    zip(t["difference"], k, win)]
    out["95% interval"] = [interval(s * lo, s * hi, 2)
                           for lo, hi, s in zip(t["ci_low"], t["ci_high"], k)]
    return out


def write_diff_page(d: RunDiff, run_a: str, run_b: str, out: str | Path) -> Path:
    """Write OUT/index.html and OUT/diff.csv, whole or not at all."""
    with staged_output(Path(out), "diff") as stage:
        write_csv(stage / "diff.csv", d.table)
        write_page(stage / PAGE, f"playtest diff: {d.a['request']['game']}", _body(d, run_a,
                                                                                  run_b))
    return Path(out) / PAGE


def _body(d: RunDiff, run_a: str, run_b: str) -> list[str]:
    """The diff page's sections."""
    ra, rb = d.a["request"], d.b["request"]
    rows_a = run_header.rows(ra["game"], ra["players"], ra["bots"], ra.get("sets"),
                             d.a.get("data_dir"), str(ra["seed"]), f"{ra['games']:,}",
                             version=d.a.get("version"))
    rows_b = run_header.rows(rb["game"], rb["players"], rb["bots"], rb.get("sets"),
                             d.b.get("data_dir"), str(rb["seed"]), f"{rb['games']:,}",
                             version=d.b.get("version"))
    header = [("run", f"A: {run_a}; B: {run_b}")] + [
        (what, f"A: {va}; B: {vb}" if va != vb else va)
        for (what, va), (_, vb) in zip(rows_a, rows_b)]
    changes = "".join(f"<li>{html.escape(what)}: A {html.escape(a)}, B {html.escape(b)}</li>"
                      for what, a, b in d.changes) or "<li>nothing in the requests</li>"
    t = d.table
    wins = t[(t["measure"] == "win rate") & ~t["part"].isin(["seat", "bot", "table"])]
    body = [
        "<div class='summary'><p>" + (
            "<b>Paired</b>: both runs played the same seed, players and seat rotation, so "
            "game i was dealt the same in both (common random numbers); each difference is "
            "the mean per-game difference over the games both played, with a paired t "
            "interval." if d.paired else
            "<b>Unpaired</b>: the runs differ in seed, players or rotation, so their games "
            "are independent; each difference is Welch's, from per-game values.")
        + "</p><p>What differs between the two runs:</p><ul>" + changes + "</ul></div>",
        "<h2 id='run'>The two runs</h2>" + run_header.table(header),
        "<h2 id='changes'>Element by element</h2>",
        note("A game's value is the mean over the seat-games it concerns (a seat, a bot, the "
             "seats dealt a level or an item), so seat-games of one game are never taken as "
             "independent. Win rates in percent, their differences in points of win rate."),
    ]
    if len(wins):
        body.append(img(plots.differences(
            wins.assign(**{c: 100 * wins[c] for c in ("difference", "ci_low", "ci_high")}),
            wins["part"] + ": " + wins["level"], "difference", "ci_low", "ci_high",
            "Win rate of the seats dealt each level or item, B - A",
            "percentage points, 95% interval"), "differences"))
    body.append(table_html(_shown(t)) + csv_name("diff"))
    return body
