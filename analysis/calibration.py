"""Calibration of the analysis on real runs of a game (not a test: it takes a few minutes).

    python -m analysis.calibration GAME --bot BOT --random-bot BOT [--blocks 1000]

1. Identical bots (``--bot`` in every seat): in each block of games, the per-slot 95%
   intervals should cover the true even share (rotation seats every slot in every seat
   equally often) about 95% of the time.
2. Placebo elements: the game's first dealt element re-dealt at random within each game of a
   block, and a made-up element of 20 levels dealt to every seat-game at random: a
   dealt-element table finds any Benjamini-Hochberg discovery (q = 0.05) in about 5% of the
   blocks.
3. A bot that chooses at random (``--random-bot``) does not use what it was dealt: the
   model's dealt-element effects should be consistent with zero.

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


def placebo_discoveries(df: pd.DataFrame, column: str, block_games: int, seed: int = 0
                        ) -> dict[str, float]:
    """Share of blocks in which a placebo dealt element has any BH discovery at q = 0.05:
    ``column`` re-dealt within each game, and a made-up element of 20 levels."""
    rng = np.random.default_rng(seed)
    players = int(df["n_players"].iloc[0])
    redealt = f"{column} re-dealt"
    found = {redealt: [], "20-level element": []}
    for _, block in df.groupby(df["game_index"] // block_games):
        block = block.copy()
        games = len(block) // players
        order = np.argsort(rng.random((games, players)), axis=1) + \
            players * np.arange(games)[:, None]
        dealt = block[column].astype("category").cat
        block[column] = pd.Categorical.from_codes(dealt.codes.to_numpy()[order.ravel()],
                                                  dealt.categories)
        block["placebo"] = pd.Categorical(rng.integers(0, 20, len(block)))
        game, _ = game_codes(block)
        for name, col in ((redealt, column), ("20-level element", "placebo")):
            t = dealt_table(block, game, Element(col, "dealt", col))
            found[name].append(bool((t["p_bh"] < 0.05).any()))
    return {k: float(np.mean(v)) for k, v in found.items()}


def random_bot_effects(game: str, bot: str, players: int, games: int, seed: int
                       ) -> pd.DataFrame:
    """The model's dealt-element effects for a bot that chooses at random, on every game."""
    module = game_module(game)
    _, meta = module.prepare(players, [bot] * players)
    decl = module.declare(meta)
    df = simulate_frame(game, games, players, [bot] * players, seed)
    fx = effects(df, decl, seat_bot_confounded=False, model_games=0).table
    return fx[fx["factor"].isin([e.label for e in decl.of_kind("dealt")])]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--bot", required=True, help="the bot in every seat for checks 1 and 2")
    p.add_argument("--random-bot", required=True, help="a bot that chooses at random")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--blocks", type=int, default=1000)
    p.add_argument("--block-games", type=int, default=1000)
    p.add_argument("--random-games", type=int, default=200_000)
    p.add_argument("--seed", type=int, default=11)
    a = p.parse_args()
    t0 = time.time()
    module = game_module(a.game)
    dealt = module.declare(module.prepare(a.players, [a.bot] * a.players)[1]).of_kind("dealt")
    df = simulate_frame(a.game, a.blocks * a.block_games, a.players, [a.bot] * a.players,
                        a.seed)
    cover, n = slot_coverage(df, a.block_games)
    print(f"1. {a.players} {a.bot} bots, {a.blocks} blocks of {a.block_games:,} games: per-slot "
          f"95% intervals cover {1 / a.players:.3g} in {100 * cover:.2f}% of {n:,} intervals")
    if dealt:
        for name, share in placebo_discoveries(df, dealt[0].column, a.block_games,
                                               a.seed).items():
            print(f"2. placebo ({name}): any BH discovery in {100 * share:.1f}% of "
                  f"{a.blocks} blocks")
    fx = random_bot_effects(a.game, a.random_bot, a.players, a.random_games, a.seed)
    print(f"3. {a.players} {a.random_bot} bots, {a.random_games:,} games: dealt-element effects "
          "(percentage points, 95% interval, Holm p):")
    for r in fx.itertuples():
        print(f"   {r.factor} {r.level} against {r.reference}: {r.effect_pp:+.2f} "
              f"({r.ci_low_pp:+.2f} to {r.ci_high_pp:+.2f}), p_holm {r.p_holm:.2f}")
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
