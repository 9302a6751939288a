"""One report for every game: a toy game registered from the tests gets a complete report
from the same code as Festival."""

import re

import pytest

from reports.bench import cases
from reports.cli import main
from reports.html import write_report
from sim.core.runner import run


def test_a_registered_toy_game_gets_a_complete_report(tmp_path, toy_registered):
    out = tmp_path / "run"
    run("toy", 4000, 3, ["plain", "strong", "twin"], 5, out, chunk_size=1000, progress=False)
    page = write_report(out).read_text()
    for heading in ("Toy: 4,000 simulated games, 3 players", "Summary",
                    "What this run cannot resolve", "What matters", "Seat advantage", "Bots",
                    "By bot slot", "Colour (dealt)", "Side (kept)", "Weather (dealt, whole game)",
                    "Medals won (outcome)", "Association only", "Scores", "Game length and end",
                    "Convergence", "Precision", "Method"):
        assert heading in page, heading
    # self-contained: every image is inlined, nothing links outside the page
    images = re.findall(r"<img src='([^']*)'", page)
    assert len(images) >= 8 and all(src.startswith("data:image/png;base64,") for src in images)
    report = out / "report"
    for csv in ("effects", "win_rate_by_seat", "seat_tests", "win_rate_by_bot",
                "win_rate_by_slot", "colour_dealt", "side_kept", "weather", "medals_won",
                "score_distribution", "game_length", "ending", "convergence", "precision"):
        assert (report / f"{csv}.csv").exists(), csv
    assert not list(report.glob("*.png"))
    assert cases("toy") == [("plain", 2), ("plain", 4)]


def test_one_bot_everywhere_shows_no_bot_chart(tmp_path, toy_registered):
    out = tmp_path / "run"
    run("toy", 2000, 2, ["plain", "plain"], 1, out, progress=False)
    page = write_report(out).read_text()
    assert "One bot in every seat: no bot comparison" in page
    assert "alt='win rate by bot'" not in page
    assert "mirror image of seat 0" in page  # 2 players: one seat comparison


def test_a_report_without_rotation_makes_no_seat_claim(tmp_path, toy_registered):
    out = tmp_path / "run"
    run("toy", 2000, 2, ["strong", "plain"], 1, out, rotate=False, progress=False)
    page = write_report(out).read_text()
    assert "No seat claim is made" in page and "Seat 0 minus" not in page


def test_bench_and_report_name_a_game_without_an_engine(capsys, monkeypatch):
    from sim.core import registry

    monkeypatch.setattr(registry, "DATA_ONLY", ("someday",))
    assert main(["bench", "someday"]) == 2
    err = capsys.readouterr().err
    assert "someday has data but no engine yet" in err and err.count("\n") == 1


@pytest.mark.parametrize("games", [1, 5])
def test_a_tiny_run_still_gets_a_report(tmp_path, toy_registered, games, recwarn):
    out = tmp_path / "run"
    run("toy", games, 4, ["plain", "strong", "plain", "twin"], 3, out, progress=False)
    page = write_report(out).read_text()
    assert "Summary" in page and "Method" in page
    if games == 1:
        assert "Too few games to fit the model" in page


def test_the_bench_child_plays_the_mode_it_is_given():
    """``playtest bench --mode/--set`` reach each measuring process's prepare: a mode that
    does not exist is refused there too."""
    from reports.bench import _measure
    from sim.core.errors import PlaytestError

    with pytest.raises(PlaytestError, match="--mode 'long' is unknown"):
        _measure("dice_theme_park", "random", 2, 1, None, {"mode": "long"})
