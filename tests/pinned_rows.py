"""The rows of a few hundred games of every game and mode, pinned column by column.

    python tests/pinned_rows.py > tests/pinned_rows.json

records, for each case below, a hash of every results column of the games it plays; the test
(tests/test_pinned_rows.py) plays them again and names the columns that differ. Recorded on
the engine before the step interface (advance/apply), so that change keeps every row: a
change of the rules that is meant to change rows records them again, and says so in its
commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).parent.parent))

from sim import simulate  # noqa: E402

# (game, mode or None, players, bots, games): every mode and side, every bot, 2-4 players
CASES = [
    ("festival", None, 4, "greedy,hunter,builder,random", 300),
    ("festival", None, 3, "explorer,greedy,random", 100),
    ("festival", None, 2, "hunter,builder", 100),
    *[("dice_theme_park", mode, 4, "greedy,builder,operator,random", 300)
      for mode in ("intro", "full", "short")],
    *[("dice_theme_park", mode, 2, "operator,greedy", 100) for mode in ("intro", "full")],
    ("dice_theme_park", "full", 3, "random,builder,greedy", 100),
    *[("magnificent", side, 4, "greedy,builder,showman,random", 300) for side in ("A", "B")],
    *[("magnificent", side, 3, "showman,greedy,random", 100) for side in ("A", "B")],
    ("magnificent", "A", 2, "builder,greedy", 100),
    # the search bots (issue 27): their rows follow the search presets too (search:8 is the
    # game's search preset at 8 rollouts), so a change of a preset records them again
    ("festival", None, 2, "search:8,greedy", 20),
    ("magnificent", "B", 2, "search:8,greedy", 8),
    ("dice_theme_park", "full", 2, "search:8,greedy", 6),
]
SEED = 20261204


def name(case: tuple) -> str:
    game, mode, players, bots, games = case
    return f"{game}-{mode or 'base'}-{players}p-{bots}-{games}"


def rows(case: tuple) -> pd.DataFrame:
    game, mode, players, bots, games = case
    return simulate(game, games, players, bots=bots.split(","), seed=SEED, mode=mode)


def column_hashes(df: pd.DataFrame) -> dict[str, str]:
    """A hash of each column's values in row order (its name and dtype included)."""
    return {c: f"{str(df[c].dtype)}:"
            f"{int(pd.util.hash_pandas_object(df[c].astype(str), index=False).sum()) % 2**64:016x}"
            for c in df.columns}


if __name__ == "__main__":
    json.dump({name(c): column_hashes(rows(c)) for c in CASES}, sys.stdout, indent=1)
    print()
