"""Calibration of the analysis on real runs (not a test: it takes a few minutes).

    python -m analysis.calibration [--blocks 1000] [--block-games 1000]

1. Four identical bots: in each block of games, the per-slot 95% intervals should cover the
   true 0.25 (rotation seats every slot in every seat equally) about 95% of the time.
2. Placebo elements: boards re-dealt at random within each game of a block, and a made-up
   element of 20 levels dealt to every seat-game at random: a dealt-element table finds any
   Benjamini-Hochberg discovery (q = 0.05) in about 5% of the blocks.
3. Random bots: the model's board effects should be consistent with zero, since a random
   bot does not use its board.

The README's "Statistics" section holds the latest numbers.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from analysis.effects import effects
from analysis.elements import dealt_table
from analysis.rates import game_codes, win_rates
from analysis.stats import wilson
from sim.core.declaration import Element
from sim.core.registry import game_module
from sim.core.runner import simulate_frame


def slot_coverage(df: pd.DataFrame, block_games: int) -> tuple[float, int]:
    """Share of per-slot intervals (one per slot and block) that cover 1/players."""
    even = 1 / int(df["n_players"].iloc[0])
    rates = win_rates(df.assign(block=df["game_index"] // block_games), ["block", "bot_slot"])
    lo, hi = wilson(rates["wins"], rates["seat_games"])
    return float(np.mean((lo <= even) & (even <= hi))), len(rates)


def placebo_discoveries(df: pd.DataFrame, block_games: int, seed: int = 0) -> dict[str, float]:
    """Share of blocks in which a placebo dealt element has any BH discovery at q = 0.05."""
    rng = np.random.default_rng(seed)
    players = int(df["n_players"].iloc[0])
    found = {"boards re-dealt": [], "20-level element": []}
    for _, block in df.groupby(df["game_index"] // block_games):
        block = block.copy()
        games = len(block) // players
        order = np.argsort(rng.random((games, players)), axis=1) + \
            players * np.arange(games)[:, None]
        block["board"] = block["board"].to_numpy()[order.ravel()]
        block["placebo"] = pd.Categorical(rng.integers(0, 20, len(block)))
        game, _ = game_codes(block)
        for name, column in (("boards re-dealt", "board"), ("20-level element", "placebo")):
            t = dealt_table(block, game, Element(column, "dealt", column))
            found[name].append(bool((t["p_bh"] < 0.05).any()))
    return {k: float(np.mean(v)) for k, v in found.items()}


def random_bot_boards(games: int, seed: int) -> pd.DataFrame:
    """The model's board effects for four random bots, on every game."""
    df = simulate_frame("festival", games, 4, ["random"] * 4, seed)
    decl = game_module("festival").declare(
        {"crowd": [], "cards": [], "n_deck": 0, "crowd_tiles": 0})
    fx = effects(df, decl, seat_bot_confounded=False, model_games=0).table
    return fx[fx["factor"] == "Board"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--blocks", type=int, default=1000)
    p.add_argument("--block-games", type=int, default=1000)
    p.add_argument("--random-games", type=int, default=200_000)
    p.add_argument("--seed", type=int, default=11)
    a = p.parse_args()
    t0 = time.time()
    df = simulate_frame("festival", a.blocks * a.block_games, 4, ["greedy"] * 4, a.seed)
    cover, n = slot_coverage(df, a.block_games)
    print(f"1. four greedy bots, {a.blocks} blocks of {a.block_games:,} games: per-slot 95% "
          f"intervals cover 0.25 in {100 * cover:.2f}% of {n:,} intervals")
    for name, share in placebo_discoveries(df, a.block_games, a.seed).items():
        print(f"2. placebo ({name}): any BH discovery in {100 * share:.1f}% of {a.blocks} "
              "blocks")
    boards = random_bot_boards(a.random_games, a.seed)
    print(f"3. four random bots, {a.random_games:,} games: board effects against "
          f"{boards['reference'].iloc[0]} (percentage points, 95% interval, Holm p):")
    for r in boards.itertuples():
        print(f"   {r.level:8} {r.effect_pp:+.2f} ({r.ci_low_pp:+.2f} to {r.ci_high_pp:+.2f}), "
              f"p_holm {r.p_holm:.2f}")
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
