"""Verdicts across skill tiers: does a finding hold for strong players?

A finding is a seat's win rate against an even share, or a dealt level's (a hand's item's)
win rate against the average of the levels (the report's effect), in percentage points. At
each tier its interval is a simultaneous 95% one across the finding's family (the seats, or
one element's levels: Bonferroni), and it reads as one of:

- ``+``/``-``: beyond the band (the whole interval above +band or below -band);
- ``0``: within the band (the whole interval inside +-band);
- ``?``: neither (the interval crosses an edge of the band: this tier cannot resolve it).

The verdict, tiers taken weakest first as listed (``verdict``); "resolving" tiers are those
that read ``+``, ``-`` or ``0``, and each verdict's reason names the tiers it rests on and
those that resolved nothing:

- **not resolved**: the strongest tier reads ``?``, or no other tier resolves it;
- **within the band at every resolving tier**: ``0`` at the strongest tier and at every
  resolving tier;
- **only at lower skill**: ``0`` at the strongest tier, beyond the band at a lower one, and
  every resolving tier beyond it weaker than every resolving tier within it;
- **reverses with skill**: beyond the band at the strongest tier, beyond it the other way at
  a lower one;
- **grows with skill**: beyond the band at the strongest tier and ``0`` at a lower one, every
  ``0`` weaker than every lower tier beyond it; or beyond with one sign at every resolving
  tier, the strongest's magnitude larger than the weakest's by at least the band (the
  difference's 95% interval above zero); either way no lower tier's magnitude clearly
  (its difference's 95% interval) above the strongest's;
- **shrinks with skill**: beyond with one sign at every resolving tier, the strongest's
  magnitude smaller than the weakest's by at least the band (clearly), and no tier between
  clearly below the strongest's;
- **varies across tiers**: the tiers' states or magnitudes change, but not in the tiers'
  order (``0`` between two tiers beyond the band, or a lower tier's magnitude clearly past
  the strongest's where it would otherwise grow or shrink);
- **holds at every resolving tier**: beyond the band with the same sign at every resolving
  tier (two at least, the strongest among them), its magnitude not clearly changed between
  the weakest and the strongest.

The difference of two tiers' estimates takes their variances as independent. The tiers play
the same deals (common random numbers), but their estimates of one finding were measured
uncorrelated (a correlation of -0.01 to +0.01 between tiers on shared deals: the deal moves a
win rate little beside the play), so treating them as independent is about right.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats as st

from analysis.formatting import signed
from analysis.stats import Z95

HOLDS = "holds at every resolving tier"
GROWS = "grows with skill"
SHRINKS = "shrinks with skill"
LOW_ONLY = "only at lower skill"
REVERSES = "reverses with skill"
VARIES = "varies across tiers"
NEGLIGIBLE = "within the band at every resolving tier"
UNRESOLVED = "not resolved"


def tier_state(low: float, high: float, band: float) -> str:
    """``+``/``-`` beyond the band, ``0`` within it, ``?`` neither (module docstring)."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return "?"
    if low > band:
        return "+"
    if high < -band:
        return "-"
    if -band <= low and high <= band:
        return "0"
    return "?"


def verdict(estimate, low, high, band: float, names: list[str] | None = None
            ) -> tuple[str, str]:
    """The verdict of one finding and its reason, from its estimate and interval at each
    tier, weakest tier first (module docstring); ``names``: the tiers', for the reason."""
    states = [tier_state(lo, hi, band) for lo, hi in zip(low, high, strict=True)]
    names = names or [f"tier {k + 1}" for k in range(len(states))]
    top = states[-1]
    known = [k for k, s in enumerate(states) if s != "?"]
    at = lambda ks: ", ".join(names[k] for k in ks)  # noqa: E731
    unresolved = [k for k, s in enumerate(states) if s == "?"]
    aside = f" ({at(unresolved)} resolved nothing)" if unresolved else ""
    if top == "?":
        return UNRESOLVED, f"{names[-1]}'s interval crosses an edge of the band"
    if len(known) < 2:
        return UNRESOLVED, f"only {names[-1]} resolves it"
    lower = known[:-1]
    beyond = [k for k in lower if states[k] in "+-"]
    within = [k for k in lower if states[k] == "0"]
    if top == "0":
        if not beyond:
            return NEGLIGIBLE, f"within the band at {at(known)}{aside}"
        why = f"beyond the band at {at(beyond)}, within it at {at(within + [known[-1]])}"
        if within and max(beyond) > min(within):
            return VARIES, why + ", not in the tiers' order" + aside
        return LOW_ONLY, why + aside
    other = "-" if top == "+" else "+"
    if any(states[k] == other for k in lower):
        return REVERSES, (f"beyond the band the other way at "
                          f"{at([k for k in lower if states[k] == other])}{aside}")
    sign = 1.0 if top == "+" else -1.0

    def clearly(j: int, k: int) -> float:
        """Tier j's magnitude minus tier k's when its 95% interval excludes zero, else 0."""
        d = sign * (estimate[j] - estimate[k])
        se = math.hypot(high[j] - low[j], high[k] - low[k]) / (2 * Z95)
        return d if abs(d) - Z95 * se > 0 else 0.0

    # a lower tier beyond the band whose magnitude is clearly past the strongest's: the
    # finding rose and fell, so it does not grow with skill
    past = [j for j in beyond if clearly(j, known[-1]) > 0]
    if within:
        why = f"within the band at {at(within)}, beyond it at {at(beyond + [known[-1]])}"
        if beyond and max(within) > min(beyond):
            return VARIES, why + ", not in the tiers' order" + aside
        if past:
            return VARIES, why + f", but larger at {at(past)} than at {names[-1]}" + aside
        return GROWS, why + aside
    k = known[0]  # the weakest resolving tier: beyond the band with the same sign
    change = sign * (estimate[-1] - estimate[k])  # the magnitude's change
    if abs(change) >= band and clearly(len(states) - 1, k) != 0:
        # a tier between the two clearly past the strongest's magnitude (growth), or below
        # it (shrinking), breaks the trend the two ends show
        middle = [j for j in lower[1:]
                  if (clearly(j, known[-1]) > 0 if change > 0 else clearly(j, known[-1]) < 0)]
        word = "larger" if change > 0 else "smaller"
        if middle:
            return VARIES, (f"{word} by {abs(change):.1f} pp at {names[-1]} than at "
                            f"{names[k]}, but {at(middle)} is {word} still{aside}")
        return (GROWS if change > 0 else SHRINKS), (
            f"{word} by {abs(change):.1f} pp at {names[-1]} than at {names[k]}{aside}")
    return HOLDS, f"beyond the band with one sign at {at(known)}{aside}"


def simultaneous(estimate: np.ndarray, low: np.ndarray, high: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """95% intervals widened to hold simultaneously over the family (Bonferroni), from
    95% intervals centred on the estimate (their standard error is the half-width / Z95)."""
    m = max(int(np.isfinite(estimate).sum()), 1)
    z = st.norm.ppf(1 - 0.025 / m)
    half = (high - low) / 2 * z / Z95
    return estimate - half, estimate + half


def findings(per_tier: dict[str, dict], tiers: list[str], band: float) -> pd.DataFrame:
    """One row per finding (each seat; each dealt level): its estimate and simultaneous
    interval at every tier, its state there, and its verdict."""
    long = []
    for tier in tiers:
        t = per_tier[tier]
        s = t["seats"]
        lo, hi = simultaneous(s["diff_pp"].to_numpy(), s["diff_low_pp"].to_numpy(),
                              s["diff_high_pp"].to_numpy())
        long.append(pd.DataFrame({"tier": tier, "element": "seat", "label": "Seat",
                                  "level": s["seat"].astype(str), "estimate_pp": s["diff_pp"],
                                  "low_pp": lo, "high_pp": hi}))
        e = t["effects"]
        for element, g in (e.groupby("element", sort=False) if len(e) else []):
            lo, hi = simultaneous(g["effect_pp"].to_numpy(), g["effect_low_pp"].to_numpy(),
                                  g["effect_high_pp"].to_numpy())
            long.append(pd.DataFrame({"tier": tier, "element": element, "label": g["label"],
                                      "level": g["level"], "estimate_pp": g["effect_pp"],
                                      "low_pp": lo, "high_pp": hi}))
    long = pd.concat(long, ignore_index=True)
    rows = []
    for (element, level), g in long.groupby(["element", "level"], sort=False):
        g = g.set_index("tier").reindex(tiers)
        est, lo, hi = (g[c].to_numpy(float) for c in ("estimate_pp", "low_pp", "high_pp"))
        v, why = verdict(est, lo, hi, band, tiers)
        row = {"element": element, "label": g["label"].dropna().iloc[0], "level": level,
               "verdict": v, "reason": why}
        for k, tier in enumerate(tiers):
            row |= {f"{tier}_pp": est[k], f"{tier}_low_pp": lo[k], f"{tier}_high_pp": hi[k],
                    f"{tier}_state": tier_state(lo[k], hi[k], band)}
        rows.append(row)
    return pd.DataFrame(rows)


def summary(table: pd.DataFrame, per_tier: dict, games: list[int], band: float
            ) -> list[str]:
    """The page's summary, leading with what holds at the strongest tier, then how the
    games' length and the sources of the points change from the weakest tier to it."""
    tiers = list(per_tier)
    top = tiers[-1]
    name = lambda r: ("seat " + r["level"] if r["element"] == "seat"  # noqa: E731
                      else f"{r['label']}: {r['level']}")
    cell = lambda r, t: (f"{signed(r[f'{t}_pp'])} pp [{signed(r[f'{t}_low_pp'])}, "  # noqa: E731
                         f"{signed(r[f'{t}_high_pp'])}]")
    out = []
    # beyond the band at the strongest tier, whatever the lower tiers say
    strong = table[table[f"{top}_state"].isin(["+", "-"]) & (table["verdict"] != UNRESOLVED)]
    strong = strong.reindex(strong[f"{top}_pp"].abs().sort_values(ascending=False).index)
    if len(strong):
        out.append(f"Beyond the band of {band:g} pp at the strongest tier ({top}, "
                   f"{games[-1]:,} games): " + "; ".join(
                       f"{name(r)} {cell(r, top)}, {r['verdict']}" for _, r in strong.iterrows())
                   + ".")
    elif (table[f"{top}_state"] == "?").all():
        out.append(f"The strongest tier ({top}, {games[-1]:,} games) resolved none of the "
                   f"{len(table)} findings: nothing can be said of them at strong play yet.")
    else:
        settled = int((table[f"{top}_state"] != "?").sum())
        out.append(f"No finding is beyond the band of {band:g} pp at the strongest tier "
                   f"({top}, {games[-1]:,} games), which resolved {settled} of the "
                   f"{len(table)} findings.")
    low = table[table["verdict"] == LOW_ONLY]
    if len(low):
        out.append("Only at lower skill (within the band at the strongest tier): " + "; ".join(
            f"{name(r)} (" + ", ".join(f"{t} {signed(r[f'{t}_pp'])}" for t in tiers) + ")"
            for _, r in low.iterrows()) + ".")
    varies = table[(table["verdict"] == VARIES) & (table[f"{top}_state"] == "0")]
    if len(varies):
        out.append("Varies across tiers, within the band at the strongest tier: " + "; ".join(
            f"{name(r)} (" + ", ".join(f"{t} {signed(r[f'{t}_pp'])}" for t in tiers) + ")"
            for _, r in varies.iterrows()) + ".")
    n = table["verdict"].value_counts()
    if n.get(NEGLIGIBLE, 0):
        out.append(f"{n[NEGLIGIBLE]} of {len(table)} findings are within the band at every "
                   "tier that resolves them (each finding's reason names those tiers).")
    if n.get(UNRESOLVED, 0):
        width = (table[f"{top}_high_pp"] - table[f"{top}_low_pp"]).max() / 2
        out.append(f"{n[UNRESOLVED]} are not resolved: at the strongest tier the widest "
                   f"interval is +-{width:.1f} pp; more games of it resolve more.")
    spread = [per_tier[t]["seat_spread"].iloc[0] for t in tiers]
    out.append(f"{spread[0]['test'].capitalize()}: " + ", ".join(
        f"{t} {signed(s['estimate_pp'])} pp [{signed(s['ci_low_pp'])}, "
        f"{signed(s['ci_high_pp'])}]" for t, s in zip(tiers, spread)) + ".")
    length = [per_tier[t]["length"] for t in tiers]
    if len(length[0]):
        out.append(f"Game length ({length[0]['measure'].iloc[0]}): " + ", ".join(
            f"{t} {x['mean'].iloc[0]:.1f}" for t, x in zip(tiers, length)) + ".")
    low, high = (per_tier[t]["scores"].set_index("measure")["mean"] for t in (tiers[0], top))
    out.append(f"Points a seat, {tiers[0]} -> {top}: " + ", ".join(
        f"{m.removeprefix('score_')} {low[m]:.1f} -> {high[m]:.1f}" for m in low.index) + ".")
    return out
