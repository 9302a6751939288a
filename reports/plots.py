"""Matplotlib figures for the report (Agg backend: no screen needed)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


def _save(fig, path: Path) -> str:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name


def rate_bars(table: pd.DataFrame, label: str, title: str, path: Path,
              baseline: float | None = None) -> str:
    """Horizontal bars of win rate with 95% Wilson intervals."""
    t = table.reset_index(drop=True)
    n = len(t)
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.32 * n))
    y = np.arange(n)[::-1]
    rate = t["win_rate"].to_numpy()
    err = np.clip(np.vstack([rate - t["ci_low"].to_numpy(), t["ci_high"].to_numpy() - rate]),
                  0, None)
    ax.barh(y, rate, color="#4c78a8", alpha=0.85)
    ax.errorbar(rate, y, xerr=err, fmt="none", ecolor="black", capsize=3, lw=1)
    ax.set_yticks(y, t[label].astype(str))
    if baseline is not None:
        ax.axvline(baseline, color="#e45756", ls="--", lw=1, label=f"baseline {baseline:.3f}")
        ax.legend(loc="lower right", fontsize=8)
    ax.set_xlabel("win rate (shared wins count 1/k), 95% Wilson interval")
    ax.set_title(title, fontsize=10)
    lo = max(0.0, float(t["ci_low"].min()) - 0.05)
    ax.set_xlim(lo, min(1.0, float(t["ci_high"].max()) + 0.05))
    return _save(fig, path)


def lift_dots(table: pd.DataFrame, label: str, title: str, path: Path) -> str:
    """Lift in percentage points with intervals; starred where Holm-significant."""
    t = table.dropna(subset=["lift_pp"]).sort_values("lift_pp").reset_index(drop=True)
    n = len(t)
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.28 * n))
    y = np.arange(n)
    lift = t["lift_pp"].to_numpy()
    err = np.clip(np.vstack([lift - t["lift_low_pp"].to_numpy(),
                             t["lift_high_pp"].to_numpy() - lift]), 0, None)
    sig = t["significant_holm_5pct"].to_numpy()
    ax.errorbar(lift, y, xerr=err, fmt="o", color="#4c78a8", ms=4, capsize=2, lw=1)
    ax.scatter(lift[sig], y[sig], color="#e45756", zorder=3, s=18, label="Holm-adjusted p < 0.05")
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y, t[label].astype(str), fontsize=8)
    ax.set_xlabel("lift over baseline win rate (percentage points), 95% interval")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    return _save(fig, path)


def score_hist(df: pd.DataFrame, path: Path) -> str:
    """Total score distribution per bot."""
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    lo, hi = int(df["score"].min()), int(df["score"].max())
    bins = np.arange(lo, hi + 2) - 0.5
    for bot, g in df.groupby("bot", observed=True):
        ax.hist(g["score"], bins=bins, histtype="step", density=True, lw=1.4, label=str(bot))
    ax.set_xlabel("final score")
    ax.set_ylabel("share of seat-games")
    ax.set_title("Score distribution by bot", fontsize=10)
    ax.legend(fontsize=8)
    return _save(fig, path)


def source_bars(dist: pd.DataFrame, path: Path) -> str:
    """Mean points by source, stacked per bot."""
    parts = dist[dist["measure"] != "score"].pivot(index="bot", columns="measure", values="mean")
    fig, ax = plt.subplots(figsize=(8.5, 1.4 + 0.45 * len(parts)))
    left = np.zeros(len(parts))
    colours = ["#4c78a8", "#f58518", "#e45756", "#72b7b2"]
    for col, colour in zip(parts.columns, colours):
        ax.barh(parts.index.astype(str), parts[col], left=left, color=colour,
                label=col.removeprefix("score_"))
        left += parts[col].to_numpy()
    ax.set_xlabel("mean points")
    ax.set_title("Where the points come from", fontsize=10)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _save(fig, path)


def length_hist(df: pd.DataFrame, path: Path) -> str:
    """Game length in rounds (every game ends on a full round), by end trigger."""
    games = df[df["seat"] == 0]
    fig, ax = plt.subplots(figsize=(7.5, 3.4))
    lo, hi = int(games["rounds"].min()), int(games["rounds"].max())
    bins = np.arange(lo, hi + 2) - 0.5
    for trig, g in games.groupby("end_trigger", observed=True):
        ax.hist(g["rounds"], bins=bins, alpha=0.6, label=f"ended by {trig}")
    ax.set_xlabel("rounds in the game")
    ax.set_ylabel("games")
    ax.set_title("Game length by end trigger", fontsize=10)
    ax.legend(fontsize=8)
    return _save(fig, path)
