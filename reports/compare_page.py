"""compare.html: what a comparison decided, how it got there, and what pairing gave."""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from analysis.folders import read_json
from analysis.sequential import Design
from reports import plots
from reports.html import img, note, table_html, write_page
from sim.core.errors import PlaytestError

RATES = ("win", "start_win")  # per-game values that are win shares: shown in percent


def _differences_table(also: pd.DataFrame) -> str:
    """One row per paired value, win rates in percent and their differences in points of
    win rate, scores and lengths as they are."""
    rows = []
    for r in also.itertuples():
        k, unit = (100, " pp") if r.value in RATES else (1, "")
        mean = (lambda x: f"{100 * x:.2f}%") if r.value in RATES else (lambda x: f"{x:.2f}")
        rows.append({"value": r.label + (" (tested)" if r.tested else ""), "games": r.games,
                     "A": mean(r.a), "B": mean(r.b),
                     "B - A": f"{k * r.difference:+.2f}{unit}",
                     "95% interval": f"[{k * r.ci_low:+.2f}, {k * r.ci_high:+.2f}]",
                     "p_value": r.p_value, "variance_reduction": r.variance_reduction})
    return table_html(pd.DataFrame(rows))


def write_compare_page(folder: str | Path) -> Path:
    """Write FOLDER/compare.html from FOLDER/compare.json and FOLDER/path.csv."""
    folder = Path(folder)
    content = read_json(folder, "compare")
    try:
        r, req = content["result"], content["request"]
        path = pd.read_csv(folder / "path.csv") if req["mode"] == "sequential" else None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise PlaytestError(f"{folder} holds no finished comparison ({e})") from None
    design = Design(req["alpha"], req["beta"], req["delta"])
    win = req["metric"] == "win"
    unit = "win share" if win else "points"
    scale = (lambda x: f"{100 * x:+.2f} points of win rate") if win else (
        lambda x: f"{x:+.2f} points")
    also = pd.DataFrame(r["also"])
    body = [
        f"<div class='summary'><p><b>{html.escape(r['verdict'])}</b> on the {r['metric']}: "
        f"B - A = {scale(r['difference'])}, {html.escape(r['interval'])} "
        f"[{scale(r['ci_low'])}, {scale(r['ci_high'])}], after {r['games']:,} games per arm "
        f"(A {r['a_mean']:.4g}, B {r['b_mean']:.4g}).</p>"
        f"<p>A: {html.escape(r['arms']['a'])}<br>B: {html.escape(r['arms']['b'])}</p>"
        + (f"<p>A fixed-n paired t-test of the same alpha ({design.alpha}) and power "
           f"({1 - design.beta:.0%} at delta {design.delta}) needs {r['fixed_n']:,} games "
           "per arm at the observed spread.</p>" if req["mode"] == "sequential" else "")
        + "</div>",
        "<h2 id='differences'>Paired differences</h2>",
        note("Game i of both arms is dealt the same (common random numbers). Each row is a "
             "per-game value of both arms and its mean difference B - A with a fixed-n 95% "
             "paired t interval: a description beside the tested row, not a second test. "
             "<i>variance_reduction</i> is the variance of the difference of unpaired arms of "
             "the same size over that of the paired one: pairing made the comparison as "
             "precise as unpaired arms that many times as large."),
        _differences_table(also),
        img(plots.differences(also[also["value"].isin(["win", "start_win"])].assign(
            **{c: 100 * also[c] for c in ("difference", "ci_low", "ci_high")}),
            also.loc[also["value"].isin(["win", "start_win"]), "label"], "difference",
            "ci_low", "ci_high", "Paired difference in win rate", "B - A, percentage points"),
            "win rate differences"),
        img(plots.differences(also[also["value"].isin(["score", "table_score"])],
                              also.loc[also["value"].isin(["score", "table_score"]), "label"],
                              "difference", "ci_low", "ci_high",
                              "Paired difference in score", "B - A, points"),
            "score differences"),
    ]
    if path is not None:
        body += [
            "<h2 id='path'>The sequential test</h2>",
            note(f"Wald's SPRT on the per-game differences, two-sided (Sobel and Wald): "
                 f"each side tests no difference against a difference of delta = "
                 f"{design.delta} {unit} at alpha/2 = {design.alpha / 2} and beta = "
                 f"{design.beta}, looked at after every batch of {req['batch']:,} games. The "
                 "interval is an anytime-valid confidence sequence (normal mixture, "
                 "Waudby-Smith et al. 2024), valid at the stopping time."),
            img(plots.sequential_path(path, design.upper, design.lower, design.delta, unit),
                "sequential path"),
            table_html(path.tail(12)),
        ]
    else:
        body.append(note(f"Fixed-n mode: {r['games']:,} games per arm, a paired t-test at "
                         f"alpha {design.alpha}, then an equivalence test (two one-sided "
                         f"tests) at +/- {design.delta}."))
    title = f"playtest compare: {req['game']}, {req['players']} players"
    return write_page(folder / "compare.html", title, body)
