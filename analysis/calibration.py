"""Calibration of the analysis on real runs of a game (not a test: it takes a few minutes).

    python -m analysis.calibration GAME --bot BOT --random-bot BOT [--blocks 1000]

1. Identical bots (``--bot`` in every seat): in each block of games, the per-slot 95%
   intervals should cover the true even share (rotation seats every slot in every seat
   equally often) about 95% of the time.
2. Placebo elements: the game's first dealt element re-dealt at random within each game of a
   block, and a made-up element of 20 levels dealt to every seat-game at random: a
   dealt-element table should find any Benjamini-Hochberg discovery (q = 0.05) in about 5%
   of the blocks (its score test; the Wald test of the clustered interval, used before, is
   measured beside it), and the report's summary should name a fake effect in at most 5%
   of ``--summary-blocks`` blocks. The same 20-level placebo on independent Bernoulli wins
   tells the tests apart from any property of the game.
3. A bot that chooses at random (``--random-bot``) does not use what it was dealt: the
   model's dealt-element effects should be consistent with zero.

The README's "Statistics" section holds the latest numbers.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import numpy as np
import pandas as pd

from analysis.analyse import analyse
from analysis.effects import effects
from analysis.elements import dealt_table
from analysis.rates import game_codes, win_rates
from analysis.stats import Z95, adjust, normal_p, wilson
from sim.core.declaration import Element, ResultsDeclaration
from sim.core.registry import game_module
from sim.core.runner import simulate_frame


def slot_coverage(df: pd.DataFrame, block_games: int) -> tuple[float, int]:
    """Share of per-slot intervals (one per slot and block) that cover 1/players."""
    even = 1 / int(df["n_players"].iloc[0])
    rates = win_rates(df.assign(block=df["game_index"] // block_games), ["block", "bot_slot"])
    lo, hi = wilson(rates["wins"], rates["seat_games"])
    return float(np.mean((lo <= even) & (even <= hi))), len(rates)


def _redeal(block: pd.DataFrame, column: str, players: int, rng) -> pd.DataFrame:
    """The block with ``column`` re-dealt at random among the seats of each game, and a
    made-up dealt element of 20 levels, "placebo": two elements with no effect."""
    block = block.copy()
    games = len(block) // players
    order = np.argsort(rng.random((games, players)), axis=1) + \
        players * np.arange(games)[:, None]
    dealt = block[column].astype("category").cat
    block[column] = pd.Categorical.from_codes(dealt.codes.to_numpy()[order.ravel()],
                                              dealt.categories)
    block["placebo"] = pd.Categorical(rng.integers(0, 20, len(block)))
    return block


def placebo_discoveries(df: pd.DataFrame, column: str, block_games: int, seed: int = 0
                        ) -> dict[str, tuple[float, float]]:
    """Share of blocks in which a placebo's dealt table has any BH discovery at q = 0.05,
    (with the score test the table uses, with a Wald test of the clustered interval as
    before): ``column`` re-dealt within each game, and a made-up element of 20 levels."""
    rng = np.random.default_rng(seed)
    players = int(df["n_players"].iloc[0])
    redealt = f"{column} re-dealt"
    found = {redealt: [], "20-level element": []}
    for _, block in df.groupby(df["game_index"] // block_games):
        block = _redeal(block, column, players, rng)
        game, _ = game_codes(block)
        for name, col in ((redealt, column), ("20-level element", "placebo")):
            t = dealt_table(block, game, Element(col, "dealt", col))
            se = (t["diff_high_pp"] - t["diff_low_pp"]) / (2 * Z95)
            wald = adjust(normal_p(t["diff_pp"].to_numpy(), se.to_numpy()), "fdr_bh")
            found[name].append(((t["p_bh"] < 0.05).any(), (wald < 0.05).any()))
    return {k: tuple(np.mean(v, axis=0)) for k, v in found.items()}


def bernoulli_placebo(repeats: int, games: int = 1000, players: int = 4, rate: float = 0.25,
                      seed: int = 0) -> tuple[float, float]:
    """On independent Bernoulli wins (no game effect at all), a 20-level element dealt at
    random: the share of repeats with any BH discovery (q = 0.05) with the score test, and
    with the Wald test of the clustered interval. Both should be near 5%."""
    rng = np.random.default_rng(seed)
    game = np.repeat(np.arange(games), players)
    found = []
    for _ in range(repeats):
        df = pd.DataFrame({"game_index": game, "win": (rng.random(len(game)) < rate) * 1.0,
                           "score": 0.0, "placebo": pd.Categorical(
                               rng.integers(0, 20, len(game)))})
        t = dealt_table(df, game, Element("placebo", "dealt", "placebo"))
        se = (t["diff_high_pp"] - t["diff_low_pp"]) / (2 * Z95)
        wald = adjust(normal_p(t["diff_pp"].to_numpy(), se.to_numpy()), "fdr_bh")
        found.append(((t["p_bh"] < 0.05).any(), (wald < 0.05).any()))
    score, wald = np.mean(found, axis=0)
    return float(score), float(wald)


def placebo_in_summary(df: pd.DataFrame, decl: ResultsDeclaration, column: str,
                       label: str, block_games: int, blocks: int, seed: int = 0
                       ) -> tuple[dict[str, float], int]:
    """Share of blocks whose report summary names a fake effect among its dealt findings:
    the made-up 20-level element, ``column`` (the element ``label``) re-dealt within each
    game, either of them. The whole analysis of each block, as the report runs it."""
    rng = np.random.default_rng(seed + 1)
    players = int(df["n_players"].iloc[0])
    decl = dataclasses.replace(decl, elements=(*decl.elements,
                                               Element("placebo", "dealt", "Placebo")))
    named = []
    for k, (_, block) in enumerate(df.groupby(df["game_index"] // block_games)):
        if k == blocks:
            break
        a = analyse(_redeal(block, column, players, rng), decl, model_games=0)
        said = [line.text for line in a.board if line.section == "dealt"]
        placebo = any(s.startswith("Placebo:") for s in said)
        redealt = any(s.startswith(f"{label}:") for s in said)
        named.append((placebo, redealt, placebo or redealt))
    share = np.mean(named, axis=0)
    return dict(zip(("the 20-level placebo", f"{label} re-dealt", "either"), share)), len(named)


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
    p.add_argument("--summary-blocks", type=int, default=100,
                   help="blocks whose whole analysis is run for the summary check")
    p.add_argument("--random-games", type=int, default=200_000)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--bernoulli", type=int, default=2000,
                   help="repeats of the 20-level placebo on independent Bernoulli wins")
    a = p.parse_args()
    t0 = time.time()
    module = game_module(a.game)
    decl = module.declare(module.prepare(a.players, [a.bot] * a.players)[1])
    dealt = [e for e in decl.of_kind("dealt") if not e.sep]
    df = simulate_frame(a.game, a.blocks * a.block_games, a.players, [a.bot] * a.players,
                        a.seed)
    cover, n = slot_coverage(df, a.block_games)
    print(f"1. {a.players} {a.bot} bots, {a.blocks} blocks of {a.block_games:,} games: per-slot "
          f"95% intervals cover {1 / a.players:.3g} in {100 * cover:.2f}% of {n:,} intervals")
    if dealt:
        for name, (score, wald) in placebo_discoveries(df, dealt[0].column, a.block_games,
                                                       a.seed).items():
            print(f"2. placebo ({name}): any BH discovery in {100 * score:.1f}% of "
                  f"{a.blocks} blocks (score test; Wald test of the clustered interval: "
                  f"{100 * wald:.1f}%)", flush=True)
        shares, n = placebo_in_summary(df, decl, dealt[0].column, dealt[0].label,
                                       a.block_games, a.summary_blocks, a.seed)
        said = ", ".join(f"{name} in {100 * s:.1f}%" for name, s in shares.items())
        print(f"2. the summary named a fake effect of {n} blocks: {said}", flush=True)
    score, wald = bernoulli_placebo(a.bernoulli, seed=a.seed)
    print(f"2. independent Bernoulli wins, 1,000 games of 4, a 20-level placebo: any BH "
          f"discovery in {100 * score:.1f}% of {a.bernoulli:,} repeats with the score test, "
          f"{100 * wald:.1f}% with the Wald test", flush=True)
    fx = random_bot_effects(a.game, a.random_bot, a.players, a.random_games, a.seed)
    print(f"3. {a.players} {a.random_bot} bots, {a.random_games:,} games: dealt-element effects "
          "against the average level (percentage points, 95% interval, Holm p):")
    for r in fx.itertuples():
        print(f"   {r.factor} {r.level}: {r.effect_pp:+.2f} ({r.ci_low_pp:+.2f} to "
              f"{r.ci_high_pp:+.2f}), p_holm {r.p_holm:.2f}")
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
