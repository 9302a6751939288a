"""How the reconstructed attractions compare: requirement difficulty and value per $.

    python -m sim.dice_theme_park.balance

Plain Python, written from rules.md's requirement table (it is also the reference the engine's
compiled requirement check is tested against). The numbers justify the reconstruction in
rules.md ("Balance of the reconstruction"); the engine's runs measure it in play.
"""

from __future__ import annotations

import itertools

import numpy as np

from sim.dice_theme_park import data as D

Die = tuple[int, int]  # (colour index, pips)


def party_meets(kind: str, colour: int, party: tuple[Die, ...]) -> bool:
    """Does ``party`` (dice in the order the requirement names them) meet requirement
    ``kind`` of colour ``colour`` (D.ANY for any)? Coloured elements come first."""
    c = [d[0] for d in party]
    p = [d[1] for d in party]
    coloured = colour == D.ANY or c[0] == colour
    if len(party) == 1:
        return kind == "single" and coloured
    if len(party) == 2:
        return {"pair_even": p[0] % 2 == 0 and p[1] % 2 == 0,
                "pair_odd": p[0] % 2 == 1 and p[1] % 2 == 1,
                "pair_greater": p[0] > p[1],
                "low_high": p[0] <= 3 and p[1] >= 3,
                "pair_equal": p[0] == p[1],
                "colour_greater": coloured and p[0] > p[1],
                "colour_smaller": coloured and p[0] < p[1],
                "odd_even": coloured and p[0] % 2 == 1 and p[1] % 2 == 0}.get(kind, False)
    if len(party) == 3:
        return {"run_three": len(set(p)) == 3, "three_equal": len(set(p)) == 1}.get(kind,
                                                                                    False)
    return False


def can_operate(kind: str, colour: int, dice: list[Die]) -> bool:
    """Is there a party among ``dice`` (the dice on an attraction) meeting the requirement?"""
    return any(party_meets(kind, colour, party) for k in (1, 2, 3)
               for party in itertools.permutations(dice, k))


def difficulty(kind: str, coloured: bool, dice: int, trials: int = 4000,
               seed: int = 0) -> float:
    """Share of random sets of ``dice`` dice (uniform colour and pips) that can operate."""
    rng = np.random.default_rng(seed)
    colour = 0 if coloured else D.ANY
    hits = 0
    for _ in range(trials):
        ds = [(int(rng.integers(3)), int(rng.integers(1, 7))) for _ in range(dice)]
        hits += can_operate(kind, colour, ds)
    return hits / trials


def value_per_dollar(stars: int, income: int, cost: int, operations: float,
                     incomes: float) -> float:
    """Stars and money ($1 counted as 1 star) a tile returns over its expected operations and
    income payments, per $ of its cost."""
    return (stars * operations + income * incomes) / cost if cost else float("inf")


# Expected operations and income payments of a tile in the intro game: an A tile is built in
# setup, round 1 or 2 of 4 (about 3 operations, 2.5 incomes); a B tile in round 3 or 4
# (about 1.5 operations, 0.5 incomes). An upgrade is installed a round after its tile.
LIFE = {"A": (3.0, 2.5), "B": (1.5, 0.5), "basic": (4.0, 3.5)}
UPGRADE_OPERATIONS = {"A": 2.5, "B": 1.0, "basic": 3.0}


def main() -> int:
    d = D.load()
    print("requirement      colour   2 dice 3 dice 4 dice  stars (B tiles: minus their 1)")
    kinds = sorted({(D.REQUIREMENTS[r["requirement"]], r["requirement_colour"] != D.ANY)
                    for r in d.attractions if D.STACKS[r["stack"]] != "entrance"})
    for kind, coloured in kinds:
        stars = sorted({int(r["stars"]) - (D.STACKS[r["stack"]] == "B") for r in d.attractions
                        if D.REQUIREMENTS[r["requirement"]] == kind
                        and (r["requirement_colour"] != D.ANY) == coloured
                        and D.STACKS[r["stack"]] != "entrance"})
        shares = " ".join(f"{difficulty(kind, coloured, n):6.2f}" for n in (2, 3, 4))
        print(f"{kind:16s} {'named' if coloured else 'any':8s} {shares}  {stars}")
    print("\nattraction          stack cost income stars  value/$  upgrade spaces: "
          "special effect value/$")
    for r, name in zip(d.attractions, d.attraction_names):
        stack = D.STACKS[r["stack"]]
        if stack == "entrance":
            continue
        ops, pays = LIFE[stack]
        v = value_per_dollar(int(r["stars"]), int(r["income"]), int(r["cost"]), ops, pays)
        spaces = [int(r[f"upgrade_{k}"]) for k in (1, 2) if r[f"upgrade_{k}"] != D.ANY]
        ups = ", ".join(f"${c}: {2 * UPGRADE_OPERATIONS[stack] / c:.2f}" for c in spaces)
        print(f"{name:20s} {stack:5s} {r['cost']:4d} {r['income']:6d} {r['stars']:5d}  "
              f"{v:7.2f}  {ups or '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
