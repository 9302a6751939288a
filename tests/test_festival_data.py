"""The shipped Festival data, and refusal of broken copies with one clear line."""



import numpy as np
import pytest

from sim.core.errors import PlaytestError
from sim.festival.data import load
from tests.conftest import assert_refused, edited_copy


def test_shipped_counts_and_seed_constraints(fest):
    t = fest.tables
    assert len(fest.tiles) == 16
    assert {(c, d) for c, d in zip(t.tile_colour, t.tile_design)} == {
        (c, d) for c in range(4) for d in range(4)}
    assert fest.colours == ["red", "yellow", "blue", "green"]
    assert len(set(t.board_design)) == 4
    assert fest.n_deck == 28 and len(fest.cards) == 28 + 8
    deck_values = set(t.card_value[:28])
    assert {4, 5} <= deck_values and len(deck_values) >= 4  # seed example uses 4 and 5
    assert set(t.card_value[28:]) == {7}  # starting objectives
    assert sorted(set(t.crowd_value)) == [2, 3]
    assert len(fest.crowd) == 8 and t.crowd_sides.shape == (4, 2)
    assert np.all(t.card_ncells[:28] >= 2) and np.all(t.card_ncells <= 4)


@pytest.fixture
def broken(tmp_path, fest):
    return lambda file, old, new: edited_copy(fest.folder, tmp_path / "festival", file,
                                              old, new)


@pytest.mark.parametrize("file,old,new,expect", [
    ("tiles.csv", "red-D1,red,D1", "red-D1,purple,D1", "tiles.csv, row 2, field 'colour'"),
    ("tiles.csv", "red-D2,red,D2,1", "red-D2,red,D2,2", "tiles_per_player = 16"),
    ("objectives.csv", "col-1,shape,3", "col-1,shape,-3", "row 2, field 'value'"),
    ("objectives.csv", "col-1,shape,3", "col-1,spiral,3", "field 'kind'"),
    ("objectives.csv", '"0,0,red,any;0,1,yellow,any"', '"0,0,red,any;5,1,yellow,any"',
     "outside the 3x3 board"),
    ("objectives.csv", "des-8,shape,6,", "des-8,shape,six,", "'six' is not a whole number"),
    ("objectives.csv", "card,kind,value", "card,type,value", "missing column(s) kind"),
    ("objectives.csv", "pair-2,pair,4,,reconstructed\n", "", "27 cards"),
    ("crowd_pleasers.csv", "board_full", "board_empty", "field 'condition'"),
    ("crowd_pleasers.csv", "1,A,same_colour", "1,B,same_colour", "appears twice"),
    ("boards.csv", "red,triangle,D1", "red,triangle,D9", "field 'target_design'"),
    ("start_objectives.csv", "red-A,red,A,7", "red-A,red,A,x", "not a whole number"),
    ("rules.toml", "max_uncompleted = 6", "max_uncompleted = -1", "max_uncompleted"),
    ("rules.toml", "board_rows = 3", "board_rows = 4", "only a 3x3 board"),
    ("tiles.csv", "red-D1,red,D1,1,public", "red-D1,red,D1,1,public,extra", "wrong number"),
])
def test_broken_copy_is_refused_with_file_row_and_field(broken, file, old, new, expect):
    assert_refused(load, broken(file, old, new), expect)


def test_missing_folder_and_unreadable_file(tmp_path, broken):
    with pytest.raises(PlaytestError, match="no such data folder"):
        load(tmp_path / "nowhere")
    folder = broken("designs.csv", "D1", "D1")
    (folder / "designs.csv").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(PlaytestError, match="cannot read"):
        load(folder)
