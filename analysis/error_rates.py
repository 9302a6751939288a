"""Error rates of ``compare``'s sequential test on real games (not a test: a few minutes).

    python -m analysis.error_rates [--game festival] [--players 4] [--repeats 200]

1. No difference: identical arms, each on its own seeds (``b_seed``). On common random
   numbers identical arms play identical games and ``compare`` refuses them, so the null is
   measured where it is hardest for the test: unpaired arms. A verdict "A better" or "B
   better" is a false positive; their share should be at most alpha plus noise.
2. A planted difference: ``--bot`` in every seat of A, ``--planted`` in slot 0 of B, on
   common random numbers, with the indifference zone ``delta`` set to the difference itself
   (the design's own power point, the hardest case). The right verdict should come at least
   1 - beta of the time; the games it took are set beside the fixed-n paired t-test's.

Every verdict "no difference larger than delta" must have its interval inside +/- delta:
the table counts those that do not (there should be none).

3. What pairing gives (``--pairing``): for rule variants and a bot swap, the variance of an
   unpaired difference over that of the paired one, estimated from the paired games (the
   arms' variances summed over the differences' variance) and checked against arms really
   played on separate seeds.

The README's "Comparisons" section holds the latest numbers.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from analysis.comparisons import compare
from analysis.sequential import NO_DIFFERENCE
from analysis.stats import wilson


def repeats(n: int, game: str, players: int, bots: list[str], b_bots: list[str] | None,
            unpaired: bool, delta: float, batch: int, alpha: float, beta: float
            ) -> tuple[Counter, np.ndarray, list[int], int]:
    """(verdict counts, games per repeat, fixed-n games per repeat, "no difference" verdicts
    whose interval reaches beyond +/- delta) of ``n`` comparisons, repeat r on master seed r
    (arm B on seed 10^9 + r when ``unpaired``)."""
    verdicts, games, fixed, beyond = Counter(), [], [], 0
    for r in range(n):
        c = compare(game, players, bots, b_bots=b_bots, seed=r,
                    b_seed=10**9 + r if unpaired else None, delta=delta, batch=batch,
                    alpha=alpha, beta=beta)
        verdicts[c.verdict] += 1
        games.append(c.summary["games"])
        fixed.append(c.summary["fixed_n"])
        if c.verdict == NO_DIFFERENCE:
            beyond += not -delta < c.summary["ci_low"] <= c.summary["ci_high"] < delta
    return verdicts, np.array(games), fixed, beyond


def _line(name: str, verdicts: Counter, games: np.ndarray, fixed: list[int], wrong: int,
          n: int, beyond: int) -> str:
    lo, hi = wilson(wrong, n)
    counts = ", ".join(f"{k}: {v}" for k, v in verdicts.most_common())
    return (f"| {name} | {n} | {counts} | {wrong / n:.3f} [{lo[0]:.3f}, {hi[0]:.3f}] | "
            f"{beyond} | {games.mean():,.0f} (max {games.max():,}) | "
            f"{int(np.median(fixed)):,} |")


VARIANTS = {  # name: (arm B's overrides, arm B's slot 0 bot)
    "crowd_pleaser_tiles=2 (scoring: fewer crowd-pleasers)": ({"crowd_pleaser_tiles": 2}, None),
    "crowd_pleaser_tiles=0 (scoring: none)": ({"crowd_pleaser_tiles": 0}, None),
    "end_completed_objectives=5 (an earlier end)": ({"end_completed_objectives": 5}, None),
    "explorer in slot 0 (a bot swap)": ({}, "explorer"),
}


def pairing(game: str, players: int, bot: str, games: int) -> None:
    """The variance reduction of pairing, estimated and measured, per variant and value."""
    print(f"| variant ({games:,} games per arm) | value | B - A | variance reduction, "
          "estimated | measured on separate seeds |\n|---|---|---|---|---|")
    for name, (sets, swap) in VARIANTS.items():
        b_bots = [swap] + [bot] * (players - 1) if swap else None
        runs = [compare(game, players, bot, b_bots=b_bots, b_sets=sets or None, games=games,
                        batch=games, b_seed=b_seed) for b_seed in (None, 10**9)]
        paired, unpaired = ({r["value"]: r for r in c.summary["also"]} for c in runs)
        for value in ("win", "table_score", "length"):
            measured = (unpaired[value]["sd_paired"] / paired[value]["sd_paired"]) ** 2
            print(f"| {name} | {paired[value]['label']} | {paired[value]['difference']:+.3f} "
                  f"| {paired[value]['variance_reduction']:.2f} | {measured:.2f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="festival")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bot", default="greedy")
    p.add_argument("--planted", default="explorer")
    p.add_argument("--repeats", type=int, default=200)
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.2)
    p.add_argument("--pairing", type=int, metavar="GAMES",
                   help="measure only what pairing gives, on GAMES games per arm")
    a = p.parse_args(argv)
    t0 = time.perf_counter()
    if a.pairing:
        pairing(a.game, a.players, a.bot, a.pairing)
        print(f"\n{time.perf_counter() - t0:.0f} s")
        return 0
    same = [a.bot] * a.players
    planted = [a.planted] + same[1:]
    # the planted difference, measured once on many games to set delta at it
    big = compare(a.game, a.players, same, b_bots=planted, games=40_000, batch=10_000,
                  seed=10**6)
    effect = abs(big.summary["difference"])
    right = "B better" if big.summary["difference"] > 0 else "A better"
    print(f"planted: {a.planted} in slot 0 of {a.bot} x {a.players}: B - A = "
          f"{big.summary['difference']:+.4f} over 40,000 games\n")
    print("| case | repeats | verdicts | error rate [95% Wilson] | no difference with the "
          "interval beyond delta | games per arm, mean | fixed-n |\n|---|---|---|---|---|---|---|")
    cases = [("no difference, delta 0.02, batches of 500", same, 0.02, 500, True),
             (f"no difference, delta {effect:.3f}, batches of 20", same, effect, 20, True),
             (f"planted difference, delta {effect:.3f}, batches of 20", planted, effect, 20,
              False),
             ("planted difference, delta 0.02, batches of 500", planted, 0.02, 500, False)]
    for name, b_bots, delta, batch, null in cases:
        verdicts, games, fixed, beyond = repeats(a.repeats, a.game, a.players, same, b_bots,
                                                 null, delta, batch, a.alpha, a.beta)
        wrong = (verdicts["A better"] + verdicts["B better"] if null
                 else a.repeats - verdicts[right])
        print(_line(name, verdicts, games, fixed, wrong, a.repeats, beyond), flush=True)
    print(f"\nalpha {a.alpha}, beta {a.beta}; {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
