"""A balance run's index.html: the summary, how the verdicts are read, the tiers, then
seat fairness, each dealt element, score sources and game length, tier beside tier."""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from analysis.balance import read_balance
from analysis.formatting import interval, signed
from reports import plots, run_header
from reports.html import csv_name, img, note, table_html, write_page

RULES = """<ul>
<li>A <b>finding</b> is a seat's win rate against an even share, or a dealt level's (a dealt
hand's item's) win rate against the average of the levels: the report's effect, in
percentage points (pp). Each tier's interval is a 95% interval made simultaneous over the
finding's family (the seats; one element's levels) by Bonferroni.</li>
<li>At a tier it reads <b>+</b> or <b>&minus;</b> when the whole interval lies beyond the
band (above +{band} pp or below &minus;{band} pp), <b>0</b> when it lies inside &plusmn;{band}
pp, <b>?</b> otherwise (that tier cannot resolve it).</li>
<li>Tiers are read weakest first, as listed; the last is read as the strongest. Whether
it is: each tier plays the one below it head to head (the tiers' order, below the tiers'
table), and the summary's first line says which steps that resolved. A tier that reads
? resolves nothing; every verdict's reason names the tiers it rests on and those that
resolved nothing.</li>
<li><b>not resolved</b>: ? at the strongest tier, or no other tier resolves it.
<b>within the band at every resolving tier</b>: 0 at the strongest tier and at every tier
that resolves it. <b>only at lower skill</b>: 0 at the strongest tier, + or &minus; at a
lower one, every tier beyond the band weaker than every tier within it.
<b>reverses with skill</b>: beyond the band at the strongest tier and beyond it the other way
at a lower one.</li>
<li>Beyond the band at the strongest tier: <b>grows with skill</b> when a lower tier reads 0
and every such tier is weaker than every lower tier beyond the band; or, beyond the band with
one sign at every resolving tier, when the strongest tier's magnitude exceeds the weakest
resolving tier's by at least the band, the difference's 95% interval lies above zero and no
tier between lies outside the two. <b>shrinks with skill</b> the other way round.
<b>holds at every resolving tier</b>: beyond with one sign at every resolving tier, the
magnitude not clearly changed from the weakest to the strongest.</li>
<li><b>varies across tiers</b>: the states or magnitudes change, but not in the tiers'
order (0 between two tiers beyond the band, or a middle tier's magnitude outside the weakest's
and the strongest's when those differ clearly).</li>
<li>The difference of two tiers is tested as if their estimates were independent. The tiers
play the same deals, but their estimates of one finding were measured uncorrelated (-0.01 to
+0.01 between tiers), so this is about right.</li>
</ul>"""


def _cell(r: pd.Series, tier: str) -> str:
    v = r[f"{tier}_pp"]
    if v != v:
        return "(not dealt)"
    return f"{signed(v)} {interval(r[f'{tier}_low_pp'], r[f'{tier}_high_pp'])} " \
        f"{r[f'{tier}_state']}"


def _verdicts(rows: pd.DataFrame, tiers: list[str], what: str) -> str:
    out = pd.DataFrame({what: rows["level"].astype(str), "verdict": rows["verdict"],
                        **{f"{t} (pp, state)": [_cell(r, t) for _, r in rows.iterrows()]
                           for t in tiers}, "why": rows["reason"]})
    return table_html(out)


def _by_tier(table: pd.DataFrame, tiers: list[str], key: str, value: str) -> pd.DataFrame:
    """Rows of ``key``, a column per tier: the mean and its 95% interval."""
    cells = table.assign(cell=[f"{r['mean']:.2f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
                               for _, r in table.iterrows()])
    out = cells.pivot(index=key, columns="tier", values="cell")
    out = out.reindex(columns=tiers).reindex(table[key].drop_duplicates()).reset_index()
    out.columns.name = None
    return out.rename(columns={key: value})


def _order(record: dict) -> list[str]:
    """The tiers' measured order: each tier's head to head against the one below it."""
    steps = record.get("order")
    if not steps:
        return [note("The tiers' order was not measured (--order-games 0).")]
    rows = pd.DataFrame([{"step": f"{s['lower']} -> {s['upper']}",
                          "upper's share of the wins": f"{100 * s['share']:.1f}% "
                          f"[{100 * s['low']:.1f}, {100 * s['high']:.1f}]",
                          "games": s["games"], "verdict": s["verdict"]} for s in steps])
    return [note("The tiers' order: each tier against the one below it on the same deals "
                 "twice, seats swapped; resolved when the upper tier's 95% interval lies "
                 "above 50%, reversed when below (order/ladder.csv)."), table_html(rows)]


def write_balance_page(folder: str | Path) -> Path:
    """Write FOLDER/index.html for the finished balance in FOLDER."""
    folder = Path(folder)
    record, t = read_balance(folder)
    req = record["request"]
    tiers, band = req["tiers"], record["band"]
    games = [p["games"] for p in record["tiers"]]
    f = t["findings"]
    budget = (f"--minutes {req['minutes']:g}: all tiers together, shared evenly; each tier "
              "played as many games as its measured speed allowed (--games "
              + ",".join(map(str, games)) + " replays it)" if "minutes" in req else
              "--games " + ",".join(map(str, req["games"])))
    tier_table = t["tiers"].assign(report=[f"playtest report {folder / p}"
                                           for p in t["tiers"]["folder"]])
    body = [
        "<div class='summary'><h2 id='summary'>Summary</h2><ul>"
        + "".join(f"<li>{html.escape(line)}</li>" for line in record["summary"])
        + "</ul></div>",
        "<h2 id='run'>What was run</h2>" + run_header.table(run_header.rows(
            req["game"], req["players"], tiers, req["sets"], req.get("data"),
            f"{req['seed']} for every tier: game i is dealt the same at every tier",
            " / ".join(f"{g:,}" for g in games),
            [("budget", budget), ("band", f"{band:g} pp of win rate")],
            label="tiers, weakest first (each plays every seat)")),
        "<h2 id='tiers'>Tiers</h2>",
        note("Each tier's run folder opens in playtest report on its own. The tier's "
             "precision: the half-widths of its findings' simultaneous intervals (median and "
             "widest), and the games at which the widest would be half the band."),
        table_html(tier_table), csv_name("tiers"), *_order(record),
        "<h2 id='verdicts'>How the verdicts are read</h2>", RULES.format(band=f"{band:g}"),
    ]
    seats = f[f["element"] == "seat"]
    spread = t["seat_spread"]
    body += ["<h2 id='seats'>Seat fairness</h2>",
             img(plots.tier_effects(seats.assign(level="seat " + seats["level"]), tiers, band,
                                    "Seat win rate against an even share"), "seats"),
             _verdicts(seats, tiers, "seat"),
             note("Seat 0 minus the last seat, paired within games (95% interval):"),
             table_html(spread[["tier", "games", "estimate_pp", "ci_low_pp", "ci_high_pp",
                                "p_value"]]) if len(spread) else "",
             csv_name("seats"), csv_name("seat_spread")]
    body.append("<h2 id='dealt'>Dealt elements and cards</h2>")
    body.append(note("One chart per element: each level's effect at every tier. Kept "
                     "choices are not findings here: what a bot keeps is its own play, and "
                     "each tier's report compares them within the bot."))
    for element, rows in f[f["element"] != "seat"].groupby("element", sort=False):
        label = rows["label"].iloc[0]
        body += [f"<h3>{html.escape(label)} ({html.escape(element)})</h3>",
                 img(plots.tier_effects(rows, tiers, band, label), label),
                 _verdicts(rows, tiers, element)]
    body.append(csv_name("findings") + csv_name("effects"))
    s = t["scores"]
    body += ["<h2 id='scores'>Score sources</h2>",
             note("Mean points per seat by source at each tier, with 95% intervals over games "
                  "(a game's seats averaged: one observation a game)."),
             table_html(_by_tier(s, tiers, "measure", "points")) if len(s) else "",
             img(plots.source_bars(s.assign(bot=pd.Categorical(s["tier"], tiers))),
                 "sources")
             if len(s) > len(tiers) else "", csv_name("scores")]
    length, ends = t["length"], t["ends"]
    if len(length):
        body += ["<h2 id='length'>Game length</h2>",
                 table_html(_by_tier(length, tiers, "measure", "length")),
                 table_html(length[["tier", "measure", "mean", "sd", "p5", "median", "p95"]]),
                 csv_name("length")]
    if len(ends):
        body += [note("How the games ended, per tier (Wilson intervals):"),
                 table_html(ends), csv_name("ends")]
    title = f"playtest balance: {req['game']}, {req['players']} players"
    nav = "<nav>" + "".join(f"<a href='#{k}'>{v}</a>" for k, v in (
        ("summary", "Summary"), ("run", "Run"), ("tiers", "Tiers"), ("verdicts", "Verdicts"),
        ("seats", "Seats"), ("dealt", "Dealt"), ("scores", "Scores"), ("length", "Length"))
        if f"id='{k}'" in "".join(body)) + "</nav>"
    return write_page(folder / "index.html", title, body, nav)
