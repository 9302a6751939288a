"""Every game and mode plays the same rows as the engine recorded in pinned_rows.json (see
tests/pinned_rows.py): a restructured game loop must not change a single value."""

import json
from pathlib import Path

import pytest
from pinned_rows import CASES, column_hashes, name, rows

PINNED = json.loads((Path(__file__).parent / "pinned_rows.json").read_text())


def test_every_case_is_pinned():
    assert sorted(PINNED) == sorted(name(c) for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=name)
def test_the_rows_are_the_pinned_ones(case):
    got, want = column_hashes(rows(case)), PINNED[name(case)]
    assert list(got) == list(want), "the results' columns changed"
    differ = [c for c in want if got[c] != want[c]]
    assert not differ, f"columns that differ from the pinned rows: {differ}"
