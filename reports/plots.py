"""Matplotlib figures for the report (Agg backend: no screen needed), returned as PNG data
URIs so that the report is one self-contained file."""

from __future__ import annotations

import base64
import io
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

BLUE, RED, GREY = "#4c78a8", "#e45756", "#888888"


def _save(fig) -> str:
    with warnings.catch_warnings():  # labels too wide to fit: the figure as it is
        warnings.simplefilter("ignore", UserWarning)
        fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def rate_bars(table: pd.DataFrame, label: str, title: str, even: float | None = None) -> str:
    """Horizontal bars of win rate from zero, with 95% intervals and the even share."""
    t = table.reset_index(drop=True)
    n = len(t)
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.32 * n))
    y = np.arange(n)[::-1]
    rate = 100 * t["win_rate"].to_numpy()
    err = np.clip(np.vstack([rate - 100 * t["ci_low"].to_numpy(),
                             100 * t["ci_high"].to_numpy() - rate]), 0, None)
    ax.barh(y, rate, color=BLUE, alpha=0.85)
    ax.errorbar(rate, y, xerr=err, fmt="none", ecolor="black", capsize=3, lw=1)
    ax.set_yticks(y, t[label].astype(str))
    if even is not None:
        ax.axvline(100 * even, color=RED, ls="--", lw=1, label=f"even share {100 * even:.1f}%")
        ax.legend(loc="lower right", fontsize=8)
    ax.set_xlabel("win rate, % (shared wins count 1/k), 95% interval")
    ax.set_title(title, fontsize=10)
    ax.set_xlim(0, min(100.0, float(100 * t["ci_high"].max()) * 1.1 + 1))
    return _save(fig)


def differences(table: pd.DataFrame, labels: pd.Series, value: str, low: str, high: str,
                title: str, xlabel: str) -> str:
    """Differences from a reference (zero line) with 95% intervals, largest at the top."""
    t = table.assign(_label=labels.to_numpy()).dropna(subset=[value])
    t = t.sort_values(value).reset_index(drop=True)
    n = len(t)
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.28 * max(n, 1)))
    y = np.arange(n)
    v = t[value].to_numpy()
    err = np.clip(np.vstack([v - t[low].to_numpy(), t[high].to_numpy() - v]), 0, None)
    ax.errorbar(v, y, xerr=err, fmt="o", color=BLUE, ms=4, capsize=2, lw=1)
    ax.axvline(0, color=GREY, lw=1)
    ax.set_yticks(y, t["_label"].astype(str), fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    return _save(fig)


def convergence(running: pd.DataFrame, factor: str, even: float) -> str:
    """Running win rate of each level of ``factor`` with its 95% band, against games."""
    t = running[running["factor"] == factor]
    fig, ax = plt.subplots(figsize=(7.5, 3.4))
    for level, g in t.groupby("level", sort=False):
        line, = ax.plot(g["games"], 100 * g["win_rate"], lw=1.3, label=f"{factor} {level}")
        ax.fill_between(g["games"], 100 * g["ci_low"], 100 * g["ci_high"],
                        color=line.get_color(), alpha=0.18, lw=0)
    ax.axhline(100 * even, color=GREY, ls="--", lw=1)
    ax.set_xscale("log")
    ax.set_xlabel("games played")
    ax.set_ylabel("win rate, %")
    ax.set_title(f"Running win rate by {factor}, with 95% intervals", fontsize=10)
    ax.legend(fontsize=8, ncol=2)
    return _save(fig)


def score_hist(df: pd.DataFrame) -> str:
    """Total score distribution per bot."""
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    lo, hi = int(df["score"].min()), int(df["score"].max())
    bins = np.arange(lo, hi + 2) - 0.5
    for bot, g in df.groupby("bot", observed=True):
        counts, _ = np.histogram(g["score"].to_numpy(), bins=bins)
        ax.stairs(counts / counts.sum(), bins, lw=1.4, label=str(bot))
    ax.set_xlabel("final score")
    ax.set_ylabel("share of seat-games")
    ax.set_title("Score distribution by bot", fontsize=10)
    ax.legend(fontsize=8)
    return _save(fig)


def source_segments(dist: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """Each bot's mean points by source as bar segments (source, bot, start, width): gains
    stacked right of zero, losses (penalties) left of it; and each bot's net score."""
    parts = dist[dist["measure"] != "score"].pivot(index="bot", columns="measure", values="mean")
    right, left = np.zeros(len(parts)), np.zeros(len(parts))
    rows = []
    for col in parts.columns:
        v = parts[col].to_numpy()
        start = np.where(v >= 0, right, left)
        rows += [{"source": col.removeprefix("score_"), "bot": str(b), "start": s, "width": w}
                 for b, s, w in zip(parts.index, start, v)]
        right += np.where(v >= 0, v, 0)
        left += np.where(v < 0, v, 0)
    return pd.DataFrame(rows), pd.Series(right + left, index=parts.index.astype(str))


def source_bars(dist: pd.DataFrame) -> str:
    """Mean points by source, stacked per bot: gains right of zero, losses (penalties) left
    of it, and a mark at the net score."""
    segments, net = source_segments(dist)
    fig, ax = plt.subplots(figsize=(8.5, 1.4 + 0.45 * len(net)))
    for source, s in segments.groupby("source", sort=False):
        ax.barh(s["bot"], s["width"], left=s["start"], label=source)
    ax.plot(net.to_numpy(), net.index, "k|", ms=14, mew=2, label="net score")
    ax.axvline(0, color=GREY, lw=1)
    ax.set_xlabel("mean points (losses left of zero)")
    ax.set_title("Where the points come from", fontsize=10)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _save(fig)


def length_hist(games: pd.DataFrame, column: str, by: str | None) -> str:
    """Game length, split by what ended the game where the game says."""
    fig, ax = plt.subplots(figsize=(7.5, 3.4))
    lo, hi = int(games[column].min()), int(games[column].max())
    bins = np.arange(lo, hi + 2) - 0.5
    groups = games.groupby(by, observed=True) if by else [("all", games)]
    for level, g in groups:
        counts, _ = np.histogram(g[column].to_numpy(), bins=bins)
        ax.stairs(counts, bins, fill=True, alpha=0.55, label=f"ended by {level}" if by else None)
    ax.set_xlabel(column)
    ax.set_ylabel("games")
    ax.set_title(f"Game length ({column})", fontsize=10)
    if by:
        ax.legend(fontsize=8)
    return _save(fig)


def sequential_path(path: pd.DataFrame, delta: float, scale: float, unit: str) -> str:
    """The difference look by look with its confidence sequence, against zero (a side
    better once the band leaves it) and +/- delta (no difference once inside)."""
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    finite = path[np.isfinite(path["cs_low"])]
    ax.fill_between(finite["games"], scale * finite["cs_low"], scale * finite["cs_high"],
                    color=BLUE, alpha=0.2, lw=0, label="confidence sequence")
    ax.plot(path["games"], scale * path["difference"], "o-", ms=3, color=BLUE, label="B - A")
    for y in (-delta, delta):
        ax.axhline(scale * y, color=GREY, lw=1, ls="--")
    ax.axhline(0, color="black", lw=0.8)
    if len(finite):
        span = max(float(finite[["cs_low", "cs_high"]].abs().max().max()), 2 * delta)
        ax.set_ylim(-scale * span * 1.1, scale * span * 1.1)
    ax.set_xlabel("games per arm")
    ax.set_ylabel(f"B - A ({unit})")
    ax.set_title("Difference, anytime-valid interval, +/- delta", fontsize=10)
    ax.legend(fontsize=7)
    return _save(fig)


def rating_bars(ratings: pd.DataFrame) -> str:
    """Ratings with their bootstrap intervals, best at the top."""
    t = ratings.sort_values("rating").reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.35 * len(t)))
    y = np.arange(len(t))
    v = t["rating"].to_numpy()
    err = np.clip(np.vstack([v - t["ci_low"].to_numpy(), t["ci_high"].to_numpy() - v]), 0, None)
    ax.errorbar(v, y, xerr=err, fmt="o", color=BLUE, ms=5, capsize=3, lw=1)
    ax.axvline(0, color=GREY, lw=1)
    ax.set_yticks(y, t["bot"].astype(str))
    ax.set_xlabel("rating (log-strength, mean 0), 95% bootstrap interval")
    ax.set_title("Bradley-Terry ratings from finishing orders", fontsize=10)
    return _save(fig)


def head_to_head(matrix: pd.DataFrame) -> str:
    """How often the row bot finished above the column bot, as a heat map."""
    m = matrix.to_numpy(dtype=float)
    fig, ax = plt.subplots(figsize=(1.6 + 0.8 * len(m), 1.2 + 0.6 * len(m)))
    im = ax.imshow(100 * m, cmap="RdBu", vmin=0, vmax=100)
    for i in range(len(m)):
        for j in range(len(m)):
            if np.isfinite(m[i, j]):
                ax.text(j, i, f"{100 * m[i, j]:.0f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(m)), matrix.columns.astype(str), rotation=30, ha="right")
    ax.set_yticks(range(len(m)), matrix.index.astype(str))
    ax.set_title("% of shared games the row bot finished above the column bot", fontsize=9)
    fig.colorbar(im, ax=ax, shrink=0.8)
    return _save(fig)


def tune_history(trials: pd.DataFrame) -> str:
    """A search's objective trial by trial, and the best so far."""
    fig, ax = plt.subplots(figsize=(7.5, 3.2))
    x, y = trials["trial"].to_numpy(), trials["objective"].to_numpy()
    ax.plot(x, y, "o", color=BLUE, ms=4, label="trial")
    ax.step(x, np.minimum.accumulate(y), where="post", color=RED, label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("objective (bands from the goals)")
    ax.legend(fontsize=8)
    return _save(fig)


def tune_term(trials: pd.DataFrame, key: str, term: str, unit: str, goal: float,
              band: float, one_sided: bool) -> str:
    """One target term against one varied value, each trial with its 95% interval, and the
    band that meets the goal."""
    fig, ax = plt.subplots(figsize=(7.5, 3.2))
    v = trials[term].to_numpy()
    below = np.nan_to_num(v - trials[f"{term} low"].to_numpy(dtype=float))  # none: 0
    err = np.clip(np.vstack([below, trials[f"{term} high"].to_numpy() - v]), 0, None)
    x = trials[key].to_numpy(dtype=float)
    ax.errorbar(x, v, yerr=err, fmt="o", color=BLUE, ms=4, capsize=2, lw=1)
    if np.all(x == np.round(x)):  # a whole-number range: no ticks between its values
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.axhspan(goal - (0 if one_sided else band), goal + band, color=RED, alpha=0.12,
               label="band that meets the goal")
    ax.set_xlabel(key)
    ax.set_ylabel(f"{term}{unit}")
    ax.legend(fontsize=8)
    return _save(fig)


TIER_COLOURS = ("#9d9d9d", "#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756", "#72b7b2")


def tier_effects(rows: pd.DataFrame, tiers: list[str], band: float, title: str) -> str:
    """One finding per row (its ``level``), each tier's estimate and interval beside the
    others (weakest at the top of each group), the band shaded around zero."""
    n, k = len(rows), len(tiers)
    fig, ax = plt.subplots(figsize=(8.5, 1.2 + 0.22 * n * k + 0.1 * n))
    ax.axvspan(-band, band, color="#eeeeee", zorder=0, label=f"within +-{band:g} pp")
    ax.axvline(0, color=GREY, lw=1)
    y0 = np.arange(n)[::-1] * (k + 1)
    for j, tier in enumerate(tiers):
        v = rows[f"{tier}_pp"].to_numpy(float)
        err = np.clip(np.vstack([v - rows[f"{tier}_low_pp"].to_numpy(float),
                                 rows[f"{tier}_high_pp"].to_numpy(float) - v]), 0, None)
        ax.errorbar(v, y0 + (k - 1 - j), xerr=err, fmt="o", ms=4, capsize=2, lw=1,
                    color=TIER_COLOURS[j % len(TIER_COLOURS)], label=tier)
    ax.set_yticks(y0 + (k - 1) / 2, rows["level"].astype(str), fontsize=8)
    ax.set_xlabel("win rate against the average level (seats: against an even share), pp; "
                  "simultaneous 95% intervals", fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _save(fig)
