"""Balance across skill tiers: every finding of a report, measured at each level of play.

A tier is a bot (a shipped preset, a bots file's bot, or ``search:N``) that plays every seat
of its run, so its seat and dealt effects are properties of the game at that level of play.
Every tier plays the same master seed: game i is dealt the same at every tier (common random
numbers; a search bot draws its own numbers from a stream of its own). Each tier's run is a
run folder (OUT/tiers/NN-TIER) of the batch runner: resumable, and readable by ``playtest
report`` on its own.

The findings and their verdicts: analysis/verdicts.py.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as st

from analysis import BAND
from analysis.distributions import end_table
from analysis.elements import dealt_table
from analysis.folders import claimed, read_json, write_csv, write_json
from analysis.ladder import climb, measured_rate
from analysis.rates import game_codes
from analysis.seats import first_minus_last, seat_table
from analysis.verdicts import findings, summary
from sim.core.checks import MAX_GAMES, MAX_SEED, path, per_item, rule_sets, whole
from sim.core.errors import ParameterError, PlaytestError
from sim.core.registry import game_module
from sim.core.run_folder import load_results, read_info
from sim.core.runner import bot_record, run
from strategies.presets import PresetError, load_presets, resolve

DEFAULT_TIERS = "random,greedy,search"
DEFAULT_MINUTES = 10.0
MAX_TIER_GAMES = 1_000_000  # a tier's games at most under --minutes (an interval of +-0.1 pp)
MIN_TIER_GAMES = 100  # a tier's games at least under --minutes
PILOT_SECONDS = 2.0  # the speed of a tier is measured on a piece that plays this long
SEARCH_CHUNK = 500  # a search tier's chunk: minutes of play, what an interruption can lose
ORDER_GAMES = 200  # deals of each head to head of adjacent tiers (each played twice)


# ---- the request ----------------------------------------------------------------------


def parse_tiers(tiers) -> list[str]:
    """Tier names from "a,b,c" or a list: two at least, each once."""
    items = [t.strip() for t in tiers.split(",")] if isinstance(tiers, str) else tiers
    if not isinstance(items, list | tuple) or not all(isinstance(t, str) and t.strip()
                                                       for t in items):
        raise ParameterError("tiers", f"must be bot names, as 'a,b,c' or a list, got {tiers!r}")
    items = [t.strip() for t in items]
    twice = next((t for t in items if items.count(t) > 1), None)
    if twice:
        raise ParameterError("tiers", f"'{twice}' is listed twice")
    if len(items) < 2:
        raise ParameterError("tiers", "a balance across tiers needs two tiers at least")
    return items


def _minutes(minutes) -> float:
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or \
            not 0 < minutes <= 7 * 24 * 60 or not math.isfinite(minutes):
        raise ParameterError("minutes", f"must be a number of minutes above 0 and at most a "
                             f"week (10080), got {minutes!r}")
    return float(minutes)


def tier_folder(out: Path, k: int, tier: str) -> Path:
    return out / "tiers" / f"{k:02d}-{re.sub(r'[^A-Za-z0-9_]+', '-', tier).strip('-')}"


def tier_chunk(game: str, tier: str, games: int) -> int | None:
    """The chunk of a tier's run: SEARCH_CHUNK games for a search bot, whose games take a
    second or more each (the runner's default chunk would hold the whole tier, and an
    interruption would lose it all); the runner's default for the others."""
    try:
        searches = resolve(load_presets(game), tier, game).search is not None
    except PresetError:  # a bot the engine knows otherwise: prepare has checked it
        return None
    return min(games, SEARCH_CHUNK) if searches else None


def _two_figures(n: float) -> int:
    """``n`` rounded down to two significant figures."""
    if n < 100:
        return int(n)
    scale = 10 ** (int(math.log10(n)) - 1)
    return int(n // scale * scale)


def games_in(game: str, tier: str, players: int, seed: int, seconds: float, sets: dict,
             data: str | None, threads: int | None) -> int:
    """How many games of ``tier`` fit in ``seconds``: its speed measured on the run's own
    first games (ladder.measured_rate, pieces of PILOT_SECONDS), the pilot's time taken off."""
    rate, spent = measured_rate(game, tier, players, seed, sets or None, data, threads,
                                PILOT_SECONDS, seconds)
    return min(MAX_TIER_GAMES, max(MIN_TIER_GAMES, _two_figures(rate * (seconds - spent))))


# ---- each tier's tables ---------------------------------------------------------------


def _mean_row(x: np.ndarray, **labels) -> dict:
    mean = float(x.mean())
    half = float(st.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))) \
        if len(x) > 1 else np.nan
    return {**labels, "mean": mean, "ci_low": mean - half, "ci_high": mean + half,
            "sd": float(x.std(ddof=1)) if len(x) > 1 else np.nan,
            "p5": float(np.quantile(x, 0.05)), "median": float(np.median(x)),
            "p95": float(np.quantile(x, 0.95))}


def tier_tables(df: pd.DataFrame, decl) -> dict[str, pd.DataFrame]:
    """One tier's seats, dealt effects, score sources, game length and endings."""
    game, _ = game_codes(df)
    seats = seat_table(df)[["seat", "seat_games", "win_rate", "ci_low", "ci_high", "diff_pp",
                            "diff_low_pp", "diff_high_pp", "p_holm"]]
    spread = pd.DataFrame([first_minus_last(df)])
    rows = []
    for e in decl.of_kind("dealt"):
        t = dealt_table(df, game, e)
        if not len(t):
            continue
        rows.append(pd.DataFrame({
            "element": e.column, "label": e.label, "level": t[e.column].astype(str),
            "seat_games": t["seat_games"], "win_rate": t["win_rate"],
            "effect_pp": t["effect_pp"], "effect_low_pp": t["effect_low_pp"],
            "effect_high_pp": t["effect_high_pp"], "points": t["points"],
            "points_low": t["points_low"], "points_high": t["points_high"],
            "p_holm": t["p_holm"]}))
    effects = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()
    per_game = df.groupby(game)  # a game's seats: their mean is one observation
    scores = [_mean_row(per_game["score"].mean().to_numpy(float), measure="score")]
    scores += [_mean_row(per_game[f"score_{s}"].mean().to_numpy(float), measure=f"score_{s}")
               for s in decl.sources]
    first = df[df["seat"] == 0]
    length = [_mean_row(first[c].to_numpy(float), measure=c) for c in decl.length]
    ends = end_table(df, decl.end, decl.length[0] if decl.length else None) \
        if decl.end else pd.DataFrame()
    return {"seats": seats, "seat_spread": spread, "effects": effects,
            "scores": pd.DataFrame(scores), "length": pd.DataFrame(length), "ends": ends}


def needed(decl) -> list[str]:
    """The results columns ``tier_tables`` reads (a run's other columns stay on disk)."""
    columns = ["game_index", "seat", "n_players", "bot", "bot_slot", "win", "rank", "score",
               *(f"score_{s}" for s in decl.sources), *decl.length,
               *([decl.end] if decl.end else []),
               *(e.column for e in decl.of_kind("dealt"))]
    return list(dict.fromkeys(columns))


# ---- the whole run --------------------------------------------------------------------


@dataclass
class Balance:
    """What ``balance`` returns: the findings with their verdicts, each tier's tables (by
    tier, then by name), the summary and the record written to balance.json."""

    findings: pd.DataFrame
    tiers: dict[str, dict[str, pd.DataFrame]]
    summary: list[str]
    record: dict

    def __repr__(self) -> str:
        v = self.findings["verdict"].value_counts().to_dict()
        return f"Balance({', '.join(self.tiers)}: {v})"


def _stacked(per_tier: dict, name: str) -> pd.DataFrame:
    frames = [t[name].assign(tier=tier) for tier, t in per_tier.items() if len(t[name])]
    if not frames:
        return pd.DataFrame()
    out = pd.concat(frames, ignore_index=True)
    return out[["tier"] + [c for c in out.columns if c != "tier"]]


def balance(game: str = "festival", tiers=DEFAULT_TIERS, players: int = 4, games=None,
            minutes: float | None = None, seed: int = 0, out: str | Path | None = None, *,
            sets: dict | None = None, data: str | None = None, threads: int | None = None,
            band: float = BAND, order_games: int = ORDER_GAMES, progress: bool = False
            ) -> Balance:
    """Play one run per tier (every seat that tier's bot, the same deals at every tier) and
    put its findings side by side with a verdict each. The budget is ``games`` (one number
    for every tier or one per tier) or ``minutes`` for all tiers together, shared evenly
    (default 10 minutes); ``band``: the effect in percentage points that matters. ``out``
    keeps the tiers' run folders and the tables (resumable; another ``band`` re-reads them
    without playing). The tiers' order is measured, not assumed: each tier plays the one
    below it head to head on ``order_games`` deals, twice, seats swapped (analysis.ladder;
    0: not measured), and the summary opens with that order.

    >>> b = balance("festival", "random,greedy,search:16", games=[100_000, 100_000, 5_000])
    >>> b.findings[["element", "level", "verdict"]]
    """
    module = game_module(game)
    tiers = parse_tiers(tiers)
    whole("players", players, 1)
    whole("seed", seed, 0, MAX_SEED)
    sets, out, data = rule_sets("sets", sets), path("out", out), path("data", data)
    data = str(data) if data else None
    if isinstance(band, bool) or not isinstance(band, int | float) or not \
            (math.isfinite(band) and band > 0):
        raise ParameterError("band", f"must be a number of percentage points above 0, got "
                             f"{band!r}")
    if threads is not None:
        import numba

        whole("threads", threads, 1, numba.config.NUMBA_NUM_THREADS)
    whole("order_games", order_games, 0, MAX_GAMES)
    if 0 < order_games < 10:
        raise ParameterError("order_games", f"must be 0 (not measured) or 10 at least, got "
                             f"{order_games}")
    if games is not None and minutes is not None:
        raise ParameterError("games", "and --minutes are two budgets: give one")
    if games is not None:
        budget: dict = {"games": per_item("games", games, len(tiers), "tier", 10, MAX_GAMES)}
    else:
        budget = {"minutes": _minutes(DEFAULT_MINUTES if minutes is None else minutes)}
    for tier in tiers:  # every tier is a line-up the game takes, before any game
        module.prepare(players, [tier] * players, data, True, sets=sets or None)
    # the band only reads the games: another band re-reads the same folder
    request = {"game": game, "players": players, "tiers": tiers, "seed": seed,
               "sets": sets or {}, "data": data} | budget | bot_record(game, tiers)
    with claimed(out, "balance", request) as folder:
        played, per_tier, decl = [], {}, None
        for k, tier in enumerate(tiers):
            where = tier_folder(folder, k, tier)
            # a tier's games (under --minutes) and chunk are decided when its run begins
            begun = read_info(where)["request"] if (where / "run.json").exists() else None
            if "games" in budget:
                n = budget["games"][k]
            elif begun:
                n = begun["games"]
            else:
                share = budget["minutes"] * 60 / len(tiers)
                if progress:
                    print(f"balance {game}: measuring the speed of {tier}")
                n = games_in(game, tier, players, seed, share, sets, data, threads)
            chunk = begun["chunk_size"] if begun else tier_chunk(game, tier, n)
            info = run(game, n, players, [tier] * players, seed, where, chunk_size=chunk,
                       threads=threads, data=data, progress=progress, sets=sets or None,
                       command="balance")
            decl = decl or module.declare(info)
            df = load_results(where, columns=needed(decl))
            per_tier[tier] = tier_tables(df, decl)
            del df
            played.append({"tier": tier, "games": n, "folder": str(where.relative_to(folder)),
                           "seconds": info["seconds"],
                           "games_per_second": n / info["seconds"] if info["seconds"] else np.nan})
        order = tier_order(game, tiers, players, order_games, seed, folder, sets, data,
                           threads, progress)
        table = findings(per_tier, tiers, band)
        lines = order_lines(order, tiers, players, order_games) + summary(
            table, per_tier, [p["games"] for p in played], band)
        tier_rows = pd.DataFrame(played)
        half = pd.DataFrame({t: (table[f"{t}_high_pp"] - table[f"{t}_low_pp"]) / 2
                             for t in tiers})
        tier_rows["median_half_width_pp"] = half.median().to_numpy()
        tier_rows["widest_half_width_pp"] = half.max().to_numpy()
        # the games at which the widest interval would be half the band wide on each side
        tier_rows["games_for_half_band"] = np.ceil(
            tier_rows["games"] * (tier_rows["widest_half_width_pp"] / (band / 2)) ** 2)
        write_csv(folder / "tiers.csv", tier_rows)
        write_csv(folder / "findings.csv", table)
        for name in ("seats", "seat_spread", "effects", "scores", "length", "ends"):
            write_csv(folder / f"{name}.csv", _stacked(per_tier, name))
        record = {"request": request, "status": "complete", "band": float(band),
                  "summary": lines, "tiers": played,
                  "order": None if order is None else order.steps.to_dict("records"),
                  "verdicts": table["verdict"].value_counts().to_dict()}
        write_json(folder / "balance.json", record)
        return Balance(table, per_tier, lines, record)


def tier_order(game: str, tiers: list[str], players: int, games: int, seed: int,
               folder: Path, sets, data, threads, progress: bool):
    """The ladder of the tiers as listed (analysis.ladder.climb, kept in FOLDER/order), or
    None when ``games`` is 0."""
    if not games:
        return None
    return climb(game, tiers, players, games, seed, folder / "order", sets or None, data,
                 threads, progress, timed=False)  # the tiers' own runs time them


def order_lines(order, tiers: list[str], players: int, games: int) -> list[str]:
    """The summary's first line: the measured order of the tiers, and whether the last
    listed is established as the strongest."""
    top = tiers[-1]
    if order is None:
        return [f"The order of the tiers was not measured (--order-games 0): {top}, listed "
                "last, is read as the strongest, which is assumed, not established."]
    how = (f"each tier against the one below it head to head, {games:,} deals played twice "
           f"with seats swapped, {players} players")
    steps = order.steps
    weak = steps[steps["verdict"] != "resolved"]
    if not len(weak):
        return [f"Order of the tiers, measured ({how}): {order.order()}; each tier beat the "
                f"one below it, so {top} is established as the strongest by this chain (tiers "
                "two apart were not played)."]
    said = "; ".join(f"{r.upper} against {r.lower} {100 * r.share:.1f}% "
                     f"[{100 * r.low:.1f}, {100 * r.high:.1f}], {r.verdict}"
                     for r in weak.itertuples())
    if steps.iloc[-1]["verdict"] == "resolved":
        strongest = (f" {top} beat {tiers[-2]}, but a step below is open, so it is read as "
                     "the strongest without the whole order established.")
    else:
        strongest = (f" {top} is not established as the strongest tier: the findings read "
                     f"'at the strongest tier' are at {top}, the tier listed last.")
    return [f"Order of the tiers, measured ({how}): {order.order()} ({said}).{strongest}"]


def read_balance(folder: str | Path) -> tuple[dict, dict[str, pd.DataFrame]]:
    """A finished balance folder's record and tables (for its page)."""
    folder = Path(folder)
    record = read_json(folder, "balance")
    tables = {}
    for name in ("tiers", "findings", "seats", "seat_spread", "effects", "scores", "length",
                 "ends"):
        try:
            tables[name] = pd.read_csv(folder / f"{name}.csv", keep_default_na=False,
                                       na_values=[""], dtype={"level": str})
        except pd.errors.EmptyDataError:
            tables[name] = pd.DataFrame()
        except (OSError, pd.errors.ParserError, UnicodeDecodeError) as e:
            raise PlaytestError(f"cannot read {folder / name}.csv: {e}; rerun the same "
                                "balance command to write it again") from None
    return record, tables
