"""A tournament's index.html: ratings, head-to-head rates and score distributions."""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from analysis.tournaments import PRIOR, RESAMPLES, Tournament
from reports import plots
from reports.html import CSS, img, note, table_html


def _shown(df: pd.DataFrame, percent: tuple[str, ...], decimals: dict[str, int]) -> str:
    """A table with rates in percent and other numbers to the given decimals."""
    out = df.copy()
    for c in percent:
        out[c] = out[c].map(lambda x: f"{100 * x:.2f}%")
    for c, d in decimals.items():
        out[c] = out[c].map(lambda x, d=d: f"{x:+.{d}f}" if c.startswith("rating")
                            or c.startswith("ci_") else f"{x:.{d}f}")
    return table_html(out)


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
           if aliases else "")
        + (f"<p>Rule overrides: {html.escape(str(req['sets']))}.</p>" if req["sets"] else "")
        + "</div>",
        "<h2 id='ratings'>Ratings</h2>",
        note("Bradley-Terry ratings (log-strength, mean 0) fitted by choix on every pair of "
             "each game's finishing order: bot a finishes above bot b with probability "
             "1 / (1 + exp(rating_b - rating_a)); a shared rank counts a half to each. "
             f"Intervals: 95% percentile bootstrap over games ({RESAMPLES} resamples). "
             f"A prior of {PRIOR} games per pair keeps a bot that never wins finite. Win "
             "rates with Wilson intervals (a shared win counts 1/k)."),
        _shown(t.ratings, ("win_rate", "win_low", "win_high"),
               {"rating": 3, "ci_low": 3, "ci_high": 3, "mean_score": 2, "mean_rank": 2}),
        img(plots.rating_bars(t.ratings), "ratings"),
        "<h2 id='head-to-head'>Head to head</h2>",
        note("How often the first bot finished above the second in the games both played "
             "(each pair met in the same number of games), with a 95% Wilson interval."),
        img(plots.head_to_head(matrix), "head to head"),
        _shown(h2h.assign(se=100 * h2h["se"]).rename(columns={"se": "se_pp"}),
               ("rate", "ci_low", "ci_high"), {"above": 1, "se_pp": 2}),
        "<h2 id='scores'>Scores</h2>",
        table_html(t.scores),
        img(plots.score_hist(rows), "score distributions"),
    ]
    title = f"playtest tournament: {req['game']}, {req['players']} players"
    page = folder / "index.html"
    page.write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>"
                    f"{html.escape(title)}</title><style>{CSS}</style></head><body>"
                    f"<h1>{html.escape(title)}</h1>" + "\n".join(body) + "</body></html>",
                    encoding="utf-8")
    return page
