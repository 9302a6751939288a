"""A tournament's index.html: ratings, head-to-head rates and score distributions."""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from analysis.formatting import signed
from analysis.tournaments import PRIOR, RESAMPLES, Tournament
from reports import plots, run_header
from reports.html import img, note, table_html, write_page


def _shown(df: pd.DataFrame, percent: tuple[str, ...], formats: dict) -> str:
    """A table with rates in percent and other numbers by the given functions (the rest as
    every page writes them)."""
    out = df.copy()
    for c in percent:
        out[c] = out[c].map(lambda x: f"{100 * x:.2f}%")
    for c, spec in formats.items():
        out[c] = out[c].map(spec)
    return table_html(out)


def _rating(x: float) -> str:
    return signed(x, 3)


def write_tournament_page(t: Tournament, folder: str | Path) -> Path:
    """Write FOLDER/index.html for the tournament ``t``."""
    folder = Path(folder)
    req = t.summary["request"]
    h2h = t.head_to_head
    matrix = h2h.pivot(index="bot", columns="opponent", values="rate")
    order = list(t.ratings["bot"])
    matrix = matrix.reindex(index=order, columns=order)
    names = dict(item.split("=", 1) for item in req["bots"])
    aliases = [f"{n} (bot {b})" for n, b in names.items() if n != b]
    rows = t.results.assign(bot=t.results["entrant"].map(dict(enumerate(names))))
    body = [
        "<div class='summary'><p>Best first: <b>" + html.escape(", ".join(order)) + "</b>. "
        f"{t.summary['games']:,} games at {t.summary['tables']} tables of {req['players']} "
        f"({t.summary['games_per_table']:,} games each, seats rotated), master seed "
        f"{req['seed']}.</p>"
        + (f"<p>Entered under another name: {html.escape(', '.join(aliases))}.</p>"
           if aliases else "") + "</div>",
        "<h2 id='run'>What was run</h2>" + run_header.table(run_header.rows(
            req["game"], req["players"], [f"{n} (bot {b})" if n != b else n
                                          for n, b in names.items()],
            req["sets"], req.get("data"), f"{req['seed']} (table j plays on a seed of its own "
            "drawn from it)", f"{t.summary['games']:,}",
            [("tables", f"{t.summary['tables']:,} line-ups of {req['players']}, every "
              f"cyclic seating order, {t.summary['games_per_table']:,} games each")],
            label="entrants")),
        "<h2 id='ratings'>Ratings</h2>",
        note("Bradley-Terry ratings (log-strength, mean 0) fitted by choix on every pair of "
             "each game's finishing order: bot a finishes above bot b with probability "
             "1 / (1 + exp(rating_b - rating_a)); a shared rank counts a half to each. "
             f"Intervals: 95% percentile bootstrap over games ({RESAMPLES} resamples). "
             f"A prior of {PRIOR} games per pair keeps a bot that never wins finite. Win "
             "rates with Wilson intervals (a shared win counts 1/k)."),
        _shown(t.ratings, ("win_rate", "win_low", "win_high"),
               {"rating": _rating, "ci_low": _rating, "ci_high": _rating}),
        img(plots.rating_bars(t.ratings), "ratings"),
        note("The ratings agree with the head-to-head results: no pair is rated against its "
             "head-to-head rate, and every pair whose rate is more than 3 standard errors "
             "from a half has rating intervals apart.") if not t.summary["disagreements"]
        else "<p class='warn'>" + "<br>".join(map(html.escape, t.summary["disagreements"]))
        + "</p>",
        "<h2 id='head-to-head'>Head to head</h2>",
        note("How often the first bot finished above the second in the games both played "
             "(each pair met in the same number of games), with a 95% Wilson interval."),
        img(plots.head_to_head(matrix), "head to head"),
        _shown(h2h.assign(se=100 * h2h["se"]).rename(columns={"se": "se_pp"}),
               ("rate", "ci_low", "ci_high"), {"se_pp": "{:.2f}".format}),
        "<h2 id='scores'>Scores</h2>",
        table_html(t.scores),
        img(plots.score_hist(rows), "score distributions"),
    ]
    title = f"playtest tournament: {req['game']}, {req['players']} players"
    return write_page(folder / "index.html", title, body)
