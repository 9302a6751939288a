"""The report's first paragraph: the largest effects, one sentence each, and what this run
cannot resolve."""

from __future__ import annotations

import numpy as np
import pandas as pd

TOP = 5


def _signed(x: float, unit: str) -> str:
    return f"{x:+.1f} {unit}"


def effect_sentence(r: pd.Series) -> str:
    pts = ""
    if not np.isnan(r["points"]):
        pts = (f" and {_signed(r['points'], 'points')} (95% interval "
               f"{r['points_ci_low']:+.1f} to {r['points_ci_high']:+.1f})")
    return (f"{r['factor'][0].upper()}{r['factor'][1:]}: {r['level']} rather than "
            f"{r['reference']}: "
            f"{_signed(r['effect_pp'], 'percentage points')} of win rate (95% interval "
            f"{r['ci_low_pp']:+.1f} to {r['ci_high_pp']:+.1f}){pts}.")


def summarise(effects: pd.DataFrame, seat_tests: pd.DataFrame, confounded: bool,
              model_games: int, games: int) -> tuple[list[str], list[str]]:
    """(findings, limits): sentences for the top of the report."""
    findings, limits = [], []
    if confounded:
        findings.append("Seats were not rotated and the bots differ, so every seat always held "
                        "the same bot: seat and bot effects cannot be told apart, and this "
                        "report makes no seat claim (run without --no-rotate for one).")
    elif len(seat_tests):
        for r in seat_tests.itertuples():
            if r.test.startswith("no seat effect") and not np.isnan(r.p_value):
                verdict = "a seat effect" if r.p_value < 0.05 else "no seat effect"
                findings.append(f"Seats: the joint test finds {verdict} (p = {r.p_value:.2g}).")
            elif not np.isnan(r.estimate_pp):
                findings.append(f"{r.test[0].upper()}{r.test[1:]}: "
                                f"{r.estimate_pp:+.1f} percentage points of win rate "
                                f"(95% interval {r.ci_low_pp:+.1f} to {r.ci_high_pp:+.1f}).")
    # confounded rows (a seat with its bot) are effects too, named as what they are
    causal = effects[effects["block"] != "observational"] if len(effects) else effects
    if len(causal):
        resolved = causal[(causal["ci_low_pp"] > 0) | (causal["ci_high_pp"] < 0)]
        top = resolved.reindex(resolved["effect_pp"].abs().sort_values(ascending=False).index)
        findings += [effect_sentence(r) for _, r in top.head(TOP).iterrows()]
        if len(resolved) > TOP:
            more = len(resolved) - TOP
            findings.append(f"{more} more effect{'s are' if more > 1 else ' is'} resolved; see "
                            "the table.")
        if not len(resolved):
            findings.append("No effect of seat, bot or dealt element is resolved by this run.")
        unresolved = causal.drop(resolved.index)
        half = float(((causal["ci_high_pp"] - causal["ci_low_pp"]) / 2).median())
        sample = (f"the model's {model_games:,} games" if model_games < games
                  else f"{games:,} games")
        limits.append(f"From {sample}, an effect smaller than about +/-{half:.1f} percentage "
                      "points cannot be told from zero.")
        if len(unresolved):
            names = ", ".join(f"{r.factor} {r.level}" for r in unresolved.head(TOP).itertuples())
            more = (f" and {len(unresolved) - TOP} more (see the table)"
                    if len(unresolved) > TOP else "")
            limits.append(f"Not resolved (intervals include zero): {names}{more}.")
    return findings, limits
