"""compare.html: what a comparison decided, how it got there, and what pairing gave."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pandas as pd

from analysis.comparisons import verdict_line
from analysis.folders import read_json
from analysis.formatting import interval, number, signed
from analysis.sequential import Design
from reports import plots, run_header
from reports.html import img, note, table_html, write_page
from sim.core.errors import PlaytestError

RATES = ("win", "start_win", "seat_spread")  # per-game win shares: shown in percent


def _differences_table(also: pd.DataFrame, sequential: bool) -> str:
    """One row per paired value, win rates in percent and their differences in points of
    win rate, scores and lengths as they are; p-values only after a fixed number of games."""
    rows = []
    for r in also.itertuples():
        k, unit = (100, " pp") if r.value in RATES else (1, "")
        win = r.value in RATES
        row = {"value": r.label + (" (tested)" if r.tested else ""), "games": r.games,
               "A": _mean(r.a, win), "B": _mean(r.b, win),
               "B - A": signed(k * r.difference, 2) + unit,
               "95% interval": interval(k * r.ci_low, k * r.ci_high, 2),
               "variance_reduction": r.variance_reduction}
        if not sequential:
            row["p_value"] = r.p_value
        rows.append(row)
    return table_html(pd.DataFrame(rows))


def _mean(x: float, win: bool) -> str:
    """An arm's mean: a win rate in percent, a score or length as it is."""
    return f"{100 * x:.2f}%" if win else number(x)


def _path_table(path: pd.DataFrame, k: float, unit: str) -> pd.DataFrame:
    """The test look by look, the differences in the metric's unit (win rates in points)."""
    out = pd.DataFrame({"games": path["games"]})
    for c, name in (("difference", "B - A"), ("cs_low", "sequence low"),
                    ("cs_high", "sequence high")):
        out[f"{name}, {unit}"] = path[c].map(lambda x: signed(k * x, 3))
    out[f"sd, {unit}"] = path["sd"].map(lambda x: f"{k * x:.3f}")
    return out


def _version(arm: Path) -> str | None:
    """The playtest version that played an arm (its run.json), if it says."""
    try:
        return str(json.loads((arm / "run.json").read_text())["version"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


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
    win = req["metric"] in ("win", "seat-spread")
    k = 100 if win else 1
    unit = "points of win rate" if win else "points"
    sequential = req["mode"] == "sequential"
    also = pd.DataFrame(r["also"])
    default = ", the default for this metric" if r.get("delta_is_default") else ""
    arms = [run_header.rows(req["game"], req["players"], req[arm]["bots"], req[arm]["sets"],
                            req[arm]["data"], str(req[arm]["seed"]),
                            f"{r['games']:,} per arm", version=_version(folder / arm))
            for arm in ("a", "b")]
    header = [(what, f"A: {va}; B: {vb}" if va != vb else va)
              for (what, va), (_, vb) in zip(*arms)]
    body = [
        f"<div class='summary'><p><b>{html.escape(verdict_line(r))}</b> "
        f"(delta {k * design.delta:g} {unit}{default}). {html.escape(r['reading'])}</p>"
        f"<p>The interval is the {html.escape(r['interval'])}: "
        + ("valid at the data-dependent stop, so no p-value is given beside it." if sequential
           else "a fixed number of games, so the paired t-test's p-value holds.")
        + f" A {_mean(r['a_mean'], win)}, B {_mean(r['b_mean'], win)}"
        + (f" over the {r['pairs']:,} games where both arms have a value" if
           r.get("pairs", r["games"]) < r["games"] else "") + ".</p>"
        + (f"<p>A fixed-n paired t-test of the same alpha ({design.alpha}) and power "
           f"({1 - design.beta:.0%} at delta {k * design.delta:g} {unit}) needs "
           f"{r['fixed_n']:,} games per arm at the observed spread.</p>" if sequential else "")
        + "</div>",
        "<h2 id='run'>What was compared</h2>" + run_header.table(header),
        "<h2 id='differences'>Paired differences</h2>",
        note("Game i of both arms is dealt the same (common random numbers). Each row is a "
             "per-game value of both arms and its mean difference B - A with a 95% interval "
             + ("(an anytime-valid confidence sequence, as the tested row's: the stop was "
                "data-dependent)" if sequential else "(the paired t interval)")
             + ": a description beside the tested row, not a second test. "
             "<i>variance_reduction</i> is the variance of the difference of unpaired arms of "
             "the same size over that of the paired one: pairing made the comparison as "
             "precise as unpaired arms that many times as large."),
        _differences_table(also, sequential),
        img(plots.differences(also[also["value"].isin(RATES)].assign(
            **{c: 100 * also[c] for c in ("difference", "ci_low", "ci_high")}),
            also.loc[also["value"].isin(RATES), "label"], "difference",
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
            note(f"After every batch of {req['batch']:,} games the per-game differences "
                 "give an anytime-valid confidence sequence (normal mixture, Waudby-Smith "
                 f"et al. 2024) at level {1 - design.alpha:.0%}, valid at every look at once "
                 "and so at the stop. The comparison stops at the first look where it "
                 "excludes zero (a side better) or lies inside +/- delta = "
                 f"{k * design.delta:g} {unit} (no difference larger than delta); its "
                 f"spread is tuned for the games a fixed-n test of power {1 - design.beta:.0%} "
                 "needs."),
            img(plots.sequential_path(path, design.delta, k, unit), "sequential path"),
            table_html(_path_table(path.tail(12), k, unit)),
        ]
    else:
        body.append(note(f"Fixed-n mode: {r['games']:,} games per arm, a paired t-test at "
                         f"alpha {design.alpha}; no difference larger than delta when its "
                         f"interval lies inside +/- {k * design.delta:g} {unit}."))
    title = f"playtest compare: {req['game']}, {req['players']} players"
    return write_page(folder / "compare.html", title, body)
