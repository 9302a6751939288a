"""Score distributions, game length and how games end (descriptive)."""

from __future__ import annotations

import pandas as pd

from analysis.stats import wilson

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def _describe(x: pd.Series, **labels) -> dict:
    """Mean, sd, range and quantiles of one measure, as a table row."""
    x = x.astype(float)
    row = {**labels, "mean": x.mean(), "sd": x.std(), "min": x.min(), "max": x.max()}
    for q in QUANTILES:
        row[f"p{int(q * 100)}"] = x.quantile(q)
    return row


def score_distribution(df: pd.DataFrame, sources: tuple[str, ...]) -> pd.DataFrame:
    """Total score and each source, by bot."""
    return pd.DataFrame([
        _describe(g[col], bot=bot, measure=col)
        for bot, g in df.groupby("bot", observed=True)
        for col in ["score"] + [f"score_{s}" for s in sources]
    ])


def game_length(df: pd.DataFrame, columns: tuple[str, ...]) -> pd.DataFrame:
    games = df[df["seat"] == 0]
    return pd.DataFrame([_describe(games[col], measure=col) for col in columns])


def end_table(df: pd.DataFrame, column: str, length: str | None) -> pd.DataFrame:
    """How often each end condition ended the game, with its interval."""
    games = df[df["seat"] == 0]
    counts = games[column].value_counts()
    counts = counts[counts > 0]
    out = pd.DataFrame({column: counts.index.astype(str), "games": counts.to_numpy()})
    out["share"] = out["games"] / len(games)
    out["ci_low"], out["ci_high"] = wilson(out["games"], len(games))
    if length:
        mean = games.groupby(column, observed=True)[length].mean()
        out[f"mean_{length}"] = mean.reindex(out[column]).to_numpy()
    return out
