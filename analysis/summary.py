"""The report's first section, a designer's balance board: seat fairness first, then every
dealt element and dealt card ranked by effect (those beyond the band flagged), then what is
only an association (kept choices, outcomes), the bots last, and what the run can resolve.

A finding is named only when it survives Holm within its element (Benjamini-Hochberg for the
exploratory lists of a dealt hand's items); anything else is stated as a bound ("no seat
effect larger than 1.2 percentage points"), never as an absence.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as st

from analysis import BAND
from analysis.catalogue import slug
from analysis.formatting import interval, signed
from analysis.stats import Z95, adjust, normal_p
from sim.core.declaration import ResultsDeclaration

SHOWN = 8  # findings named per section before "and N more"
POWER = 0.8
DISAGREE = 0.01  # an interaction test below this says the bots disagree


@dataclass
class Line:
    section: str  # seats, dealt, associations, bots, limits
    text: str
    flagged: bool = False  # beyond the band


def _pp(x: float) -> str:
    return f"{signed(x)} pp"


def _bound(lo: pd.Series, hi: pd.Series) -> float:
    return float(np.nanmax(np.abs(np.r_[lo.to_numpy(), hi.to_numpy()])))


def _for(lineup: list[str]) -> str:
    """How the effects are qualified: "for 4 x greedy" when every seat plays one bot."""
    bots = list(dict.fromkeys(lineup))
    return f" (for {len(lineup)} x {bots[0]})" if len(bots) == 1 else ""


def seat_lines(seat: pd.DataFrame, seat_tests: pd.DataFrame, fx: pd.DataFrame,
               confounded: bool, lineup: list[str], band: float) -> list[Line]:
    if confounded:
        return [Line("seats", "Seats were not rotated and the bots differ, so every seat always "
                     "held the same bot: seat and bot effects cannot be told apart, and this "
                     "report makes no seat claim (run without --no-rotate for one).")]
    lines = []
    first = seat_tests.iloc[0] if len(seat_tests) else None
    rows = fx[(fx["factor"] == "seat")] if len(fx) else fx
    pooled = rows[rows["bot"] == "pooled"] if len(rows) else rows
    if len(pooled):  # the model's, without the bots left out of it
        table = pooled.rename(columns={"level": "seat", "effect_pp": "diff_pp",
                                       "ci_low_pp": "diff_low_pp",
                                       "ci_high_pp": "diff_high_pp"})
        against = "the average seat"
    else:
        table, against = seat, "an even share"
    found = table[table["p_holm"] < 0.05].sort_values("diff_pp", key=abs, ascending=False)
    for r in found.itertuples():
        lines.append(Line("seats", f"Seat {r.seat}: {_pp(r.diff_pp)} of win rate against "
                          f"{against} {interval(r.diff_low_pp, r.diff_high_pp)}"
                          f"{_for(lineup)}.", abs(r.diff_pp) > band))
    if len(found) and len(pooled):  # the model's contrast, as its seat effects
        last = pooled.iloc[-1]
        lo, hi = -last["vs_reference_high_pp"], -last["vs_reference_low_pp"]
        lines.append(Line("seats", f"Seat 0 against seat {last['level']}, from the model's "
                          "seat effects: "
                          f"{_pp(-last['vs_reference_pp'])} of win rate {interval(lo, hi)}"
                          f"{_for(lineup)}."))
    elif len(found) and first is not None and not np.isnan(first["estimate_pp"]):
        lines.append(Line("seats", f"{first['test'][0].upper()}{first['test'][1:]}: "
                          f"{_pp(first['estimate_pp'])} of win rate "
                          f"{interval(first['ci_low_pp'], first['ci_high_pp'])}."))
    if not len(found):
        bound = _bound(table["diff_low_pp"], table["diff_high_pp"])
        lines.append(Line("seats", f"No seat effect larger than {bound:.1f} pp: every seat's "
                          f"win rate is within that of {against} (95% intervals)"
                          f"{_for(lineup)}."))
    lines += _disagreement(rows, "The seat effect", "seats")
    return lines


def _disagreement(rows: pd.DataFrame, what: str, section: str) -> list[Line]:
    """One line when the bots disagree about a factor: its interaction test below DISAGREE,
    or two bots' intervals on opposite sides of zero for one level."""
    if not len(rows):
        return []
    pooled = rows[rows["bot"] == "pooled"]
    per_bot = rows[rows["bot"] != "pooled"]
    if not len(per_bot):
        return []
    p = float(pooled["interaction_p"].iloc[0]) if len(pooled) else np.nan
    spread = per_bot.groupby("level", observed=True)["effect_pp"].agg(lambda x: x.max() - x.min())
    opposite = per_bot.groupby("level", observed=True).apply(
        lambda g: (g["ci_low_pp"] > 0).any() and (g["ci_high_pp"] < 0).any())
    if not (p < DISAGREE or opposite.any()):
        return []
    level = spread.idxmax()
    each = per_bot[per_bot["level"] == level]
    name = f"seat {level}" if section == "seats" else level
    shown = ", ".join(f"{_pp(r.effect_pp)} for {r.bot}" for r in each.itertuples())
    pooled_level = pooled[pooled["level"] == level]
    tail = (f"; pooled {_pp(pooled_level['effect_pp'].iloc[0])}" if len(pooled_level) else "")
    test = f" (interaction test p = {p:.2g})" if not np.isnan(p) else ""
    return [Line(section, f"{what} differs by bot{test}: {name} is {shown}{tail}. The "
                 "effect belongs to the line-up: read it per bot.")]


def _naming_p(pooled: pd.DataFrame, table: pd.DataFrame | None, column: str
              ) -> tuple[np.ndarray, str]:
    """The Holm p that names each level of a dealt element on the board, and its test: the
    setup table's (a score test, clustered by game, that holds at Holm's small thresholds
    where the model's Wald test runs over); the model's own where there is no table."""
    if table is None or not len(table) or column not in table:
        return pooled["p_holm"].to_numpy(float), "the model's Wald test"
    p = table.set_index(table[column].astype(str))["p_holm"]
    return pooled["level"].astype(str).map(p).to_numpy(float), "the setup table's score test"


def dealt_lines(fx: pd.DataFrame, tables: dict, decl: ResultsDeclaration, lineup: list[str],
                band: float) -> list[Line]:
    """Every dealt element and card ranked by effect: named when it survives Holm (BH for a
    hand's items); an element with none named is stated as a bound."""
    found, bounds, lines = [], [], []
    for e in decl.of_kind("dealt"):
        if e.sep:
            t = tables.get(f"{e.column}_dealt")
            if t is None or not len(t):
                continue
            for r in t[t["p_bh"] < 0.05].itertuples():
                extra = ""
                if not np.isnan(r.vs_unheld_pp):
                    extra = f"; for its holder, against games where nobody holds it " \
                            f"{_pp(r.vs_unheld_pp)}"
                found.append((r.effect_pp, Line(
                    "dealt", f"{e.label}: {getattr(r, e.column)} {_pp(r.effect_pp)} against "
                    f"the average item {interval(r.effect_low_pp, r.effect_high_pp)}; lift "
                    f"over the seats not dealt it {_pp(r.diff_pp)}{extra}{_for(lineup)}.",
                    abs(r.effect_pp) > band)))
            if not (t["p_bh"] < 0.05).any():
                bounds.append((e.label, _bound(t["effect_low_pp"], t["effect_high_pp"]), "item"))
            continue
        rows = fx[(fx["factor"] == e.label)] if len(fx) else fx
        pooled = rows[rows["bot"] == "pooled"] if len(rows) else rows
        if not len(pooled):
            continue
        p, test = _naming_p(pooled, tables.get(f"{e.column}_dealt"), e.column)
        pooled = pooled.assign(named=p < 0.05, naming_p=p)
        for r in pooled[pooled["named"]].itertuples():
            found.append((r.effect_pp, Line(
                "dealt", f"{e.label}: {r.level} {_pp(r.effect_pp)} against the average "
                f"{e.label.lower()} {interval(r.ci_low_pp, r.ci_high_pp)}{_for(lineup)} "
                f"(the model's estimate; named by {test}, Holm p = {r.naming_p:.2g}).",
                abs(r.effect_pp) > band)))
        if not pooled["named"].any():
            bounds.append((e.label, _bound(pooled["ci_low_pp"], pooled["ci_high_pp"]),
                           "level"))
        lines += _disagreement(rows, f"The {e.label.lower()}'s effect", "dealt")
    found.sort(key=lambda x: -abs(x[0]))
    out = [line for _, line in found[:SHOWN]]
    if len(found) > SHOWN:
        more = len(found) - SHOWN
        out.append(Line("dealt", f"{more} more dealt effect{'s' if more > 1 else ''} "
                        "resolved: see Setup."))
    out += [Line("dealt", f"No {label.lower()} {unit} differs from the average by more than "
                 f"{b:.1f} pp (95% intervals).") for label, b, unit in bounds]
    return out + lines


def association_lines(tables: dict, decl: ResultsDeclaration) -> list[Line]:
    """Kept choices (within bot, only where identified, surviving Holm within the table) and
    outcomes (surviving BH within the table), named as associations."""
    lines = []
    for e in decl.of_kind("kept"):
        t = tables.get(f"{e.column}_kept")
        if t is None or not len(t) or "diff_pp" not in t:
            continue
        shown = t[t["p_holm"] < 0.05]
        shown = shown.reindex(shown["diff_pp"].abs().sort_values(ascending=False).index)
        for r in shown.head(3).itertuples():
            option = getattr(r, e.column)
            ref = f" rather than {r.reference}" if "reference" in t else " rather than passing it"
            lines.append(Line("associations", f"{e.label} (association, within bot): {r.bot} "
                              f"keeping {option}{ref} wins {_pp(r.diff_pp)} "
                              f"{interval(r.diff_low_pp, r.diff_high_pp)}."))
        if "identified" in t and (t["identified"] == False).any():  # noqa: E712
            lines.append(Line("associations", f"{e.label}: "
                              f"{int((t['identified'] == False).sum())} choices not "  # noqa: E712
                              "identified (a bot chose one side in under 5% of its seat-games)."))
    for hs in decl.held_sets:
        t = tables.get(slug(hs.label))
        if t is None or not len(t):
            continue
        # named when it survives BH within the table (the table itself carries no marks)
        se = (t["diff_high_pp"] - t["diff_low_pp"]) / (2 * Z95)
        clear = t[adjust(normal_p(t["diff_pp"], se), "fdr_bh") < 0.05]
        clear = clear.reindex(clear["diff_pp"].abs().sort_values(ascending=False).index)
        for r in clear.head(2).itertuples():
            lines.append(Line("associations", f"{hs.label} (association, from play): holding "
                              f"{getattr(r, hs.item)} goes with {_pp(r.diff_pp)} of win rate "
                              f"{interval(r.diff_low_pp, r.diff_high_pp)}."))
    return lines


def bot_lines(bots: pd.DataFrame, left_out: list[str]) -> list[Line]:
    if len(bots) < 2:
        return []
    t = bots.sort_values("win_rate", ascending=False)
    text = ", ".join(f"{r.bot} {100 * r.win_rate:.1f}% [{100 * r.ci_low:.1f}, "
                     f"{100 * r.ci_high:.1f}]" for r in t.itertuples())
    lines = [Line("bots", f"Bots (the measuring instrument): {text}.")]
    if left_out:
        one = len(left_out) == 1
        lines.append(Line("bots", f"{' and '.join(left_out)} won under 1% of "
                          f"{'its' if one else 'their'} seat-games and {'is' if one else 'are'} "
                          "left out of the model: a bot that hardly ever wins dilutes every "
                          "pooled effect."))
    return lines


def named_power_z(levels: int, power: float = POWER) -> float:
    """Standard errors a level's effect needs to be named ``power`` of the time by the rule
    that names it: Holm (or BH) at 5% within its element of ``levels`` levels. A lone effect
    among nulls is named when its p clears the first step, 0.05 / levels, so it needs
    z(1 - 0.025 / levels) + z(power) (2.8 for one level, 3.4 for 5, 3.9 for 20)."""
    return float(st.norm.isf(0.025 / max(levels, 1)) + st.norm.ppf(power))


def sensitivity(fx: pd.DataFrame, model_games: int, games: int) -> list[Line]:
    """What the run can resolve, element by element: the effect a level needs to be named
    80% of the time by its element's Holm test (its typical standard error, its number of
    levels), and the games a 1 pp effect needs there. Each element is stated on its own, so
    an element of many levels moves only its own figure."""
    if not len(fx):
        return []
    rows = fx[fx["bot"] == "pooled"]
    parts = []
    for factor, g in rows.groupby("factor", sort=False):
        se = float(((g["ci_high_pp"] - g["ci_low_pp"]) / (2 * Z95)).median())
        z = named_power_z(len(g))
        detectable = z * se
        need = model_games * detectable**2  # games for a 1 pp effect at 80% power
        parts.append((detectable, f"{factor} {detectable:.1f} pp ({len(g)} levels, "
                                  f"{z:.1f} standard errors; 1 pp needs about {need:,.0f} games)"))
    sample = (f"the model's {model_games:,} games" if model_games < games
              else f"{games:,} games")
    parts.sort(key=lambda x: x[0])
    shown = "; ".join(text for _, text in parts[:SHOWN])
    more = f"; and {len(parts) - SHOWN} more" if len(parts) > SHOWN else ""
    return [Line("limits", f"From {sample}, the effect a level needs to be named 80% of the "
                 "time by its element's Holm test at 5% (a lone effect among null levels): "
                 f"{shown}{more}.")]


def summarise(tables: dict, decl: ResultsDeclaration, fx: pd.DataFrame, confounded: bool,
              model_games: int, games: int, lineup: list[str], left_out: list[str],
              band: float = BAND) -> list[Line]:
    """The balance board, in order: seats, dealt, associations, bots, limits."""
    return (seat_lines(tables["win_rate_by_seat"], tables["seat_tests"], fx, confounded,
                       lineup, band)
            + dealt_lines(fx, tables, decl, lineup, band)
            + association_lines(tables, decl)
            + bot_lines(tables["win_rate_by_bot"], left_out)
            + sensitivity(fx, model_games, games))
