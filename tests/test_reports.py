"""One report for every game: a toy game registered from the tests gets a complete report
from the same code as Festival."""

import re
import shutil

import page_reader
import pandas as pd
import pytest

from reports.bench import cases
from reports.cli import main
from reports.html import write_report
from sim.core.errors import PlaytestError
from sim.core.runner import run


def test_a_registered_toy_game_gets_a_complete_report(tmp_path, toy_registered):
    out = tmp_path / "run"
    run("toy", 4000, 3, ["plain", "strong", "twin"], 5, out, chunk_size=1000, progress=False)
    page = write_report(out).read_text()
    for heading in ("Toy: 4,000 simulated games, 3 players", "Summary", "Seat fairness",
                    "Dealt elements and cards", "The bots",
                    "What this run can resolve", "What matters", "Seat advantage", "Bots",
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
    # written to the precision the figures carry: no float's binary tail in any cell
    tails = [(csv.name, cell) for csv in report.glob("*.csv")
             for cell in re.findall(r"[-\d.]+(?:e[-+]\d+)?", csv.read_text())
             if re.search(r"\.\d*(?:0{6,}[1-9]|9{6,}\d)", cell)]
    assert not tails, tails[:5]


def test_a_failed_report_rewrite_leaves_the_old_report_whole(tmp_path, toy_registered,
                                                              monkeypatch):
    """The second report fails after writing its tables: the folder still holds the first
    report's page and tables, untouched, and no staging folder."""
    import reports.html

    out = tmp_path / "run"
    run("toy", 300, 3, ["plain", "strong", "twin"], 5, out, progress=False)
    write_report(out, model_games=300)
    report = out / "report"
    before = {p.name: p.read_bytes() for p in report.iterdir() if p.is_file()}

    def broken(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(reports.html, "_page", broken)
    with pytest.raises(PlaytestError, match="No space left on device"):
        write_report(out, model_games=150)  # other tables than the first report's
    after = {p.name: p.read_bytes() for p in report.iterdir() if p.is_file()}
    assert after == before
    assert not [p for p in report.iterdir() if p.is_dir()]  # no staging folder left


def test_a_report_being_written_refuses_a_second_writer(tmp_path, toy_registered):
    from sim.core.run_folder import folder_lock

    out = tmp_path / "run"
    run("toy", 300, 3, ["plain", "strong", "twin"], 5, out, progress=False)
    with folder_lock(out / "report", "report"):
        with pytest.raises(PlaytestError, match="being written by another report"):
            write_report(out)


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


def test_the_header_says_what_was_run(tmp_path):
    """Overrides, the data folder and the file in which it differs, seed, games, version:
    the first table of the page, in the order a reader asks."""
    from sim.core.data import seeds_dir

    data = tmp_path / "data"
    shutil.copytree(seeds_dir("festival"), data)
    rules = data / "rules.toml"
    rules.write_text(rules.read_text() + "\n# a designer's note\n")
    out = tmp_path / "run"
    run("festival", 200, 4, ["greedy", "random", "greedy", "hunter"], 7, out, data=str(data),
        sets={"crowd_pleaser_tiles": 2}, progress=False)
    page = write_report(out).read_text()
    head = page_reader.run_header(page)
    assert list(head)[:7] == ["game", "players", "bots (by slot)", "rule overrides (--set)",
                              "data", "seed", "games"]
    assert head["game"] == "festival" and head["players"] == "4"
    assert head["bots (by slot)"] == "greedy, random, greedy, hunter"
    assert head["rule overrides (--set)"] == "crowd_pleaser_tiles=2"
    assert head["data"] == f"{data} (differs from the shipped data in rules.toml)"
    assert head["seed"] == "7" and head["games"] == "200"
    assert head["playtest version"] not in ("", "unknown")
    assert page.index("class='run'") < page.index("id='summary'")  # the header comes first


def test_the_header_names_the_mode_or_side_as_the_game_calls_it():
    from reports.run_header import rows

    dtp = dict(rows("dice_theme_park", 2, ["random"] * 2, {"mode": "intro"}, None, "0", "10"))
    assert dtp["mode"] == "intro" and dtp["rule overrides (--set)"] == "none"
    mag = dict(rows("magnificent", 2, ["random"] * 2, None, None, "0", "10"))
    assert mag["side"] == "A"  # the default, said
    assert "mode" not in dict(rows("festival", 2, ["random"] * 2, None, None, "0", "10"))


@pytest.fixture(scope="module")
def dtp_report(tmp_path_factory):
    """A Dice Theme Park report: dealt hands, kept items, penalties, thousands of games."""
    out = tmp_path_factory.mktemp("dtp") / "run"
    run("dice_theme_park", 1200, 4, None, 3, out, progress=False)
    return out, write_report(out).read_text()


def test_every_number_of_the_report_is_formatted(dtp_report):
    out, page = dtp_report
    r = page_reader.read(page)
    bad = [b for t in r.tables for b in page_reader.unformatted(t)]
    assert not bad, bad[:10]
    # a column of whole numbers (scores, counts) shows no decimals
    dist = pd.read_csv(out / "report" / "score_distribution.csv")
    table = next(t for t in r.tables if t.headers[:2] == ["bot", "measure"])
    for name in dist.columns[2:]:
        if (dist[name] == dist[name].round()).all():
            assert all("." not in c for c in table.column(name)), name
    precision = next(t for t in r.tables if "ci_half_width_pp" in t.headers)
    assert all(float(c) > 0 for c in precision.column("ci_half_width_pp"))
    kept = next(t for t in r.tables if "kept_share" in t.headers)
    assert all(c.endswith("%") for c in kept.column("kept_share"))


def test_every_table_names_its_csv_and_headings_say_their_kind_once(dtp_report):
    out, page = dtp_report
    r = page_reader.read(page)
    files = {p.name for p in (out / "report").glob("*.csv")}
    assert set(r.csv) == files  # every CSV is named on the page, every name is a file
    assert "Skills dealt" in r.headings and "Administrators dealt" in r.headings
    assert not [h for h in r.headings if re.search(r"\b(\w+)\b.*\(\1\b", h)]
    # a section's CSV follows its table: the dealt administrators' table is admin_pair_dealt
    at = page.index("<h3>Administrators dealt</h3>")
    assert page.index("admin_pair_dealt.csv", at) < page.index("<h3>", at + 5)


def test_a_signed_number_never_reads_negative_zero():
    from analysis.formatting import interval, signed

    assert signed(-0.0001) == "+0.0" and signed(-0.04, 1) == "+0.0"
    assert signed(-0.06) == "-0.1" and signed(2.345, 2) == "+2.35"
    assert interval(-0.0004, 0.0004, 3) == "[+0.000, +0.000]" and signed(float("nan")) == ""


def test_a_table_cell_never_reads_negative_zero():
    # a bootstrap bound of -0.003 points once printed "-0.00" in the dealt tables
    from reports.html import table_html

    df = pd.DataFrame({"points_low": [-0.003, 1.5], "n": [1234.0, 2.0],
                       "big": [-0.04, 250.0], "ci_half_width_pp": [-0.001, 0.5]})
    r = page_reader.read(f"<html><body>{table_html(df)}</body></html>")
    assert r.tables[0].column("points_low") == ["0.00", "1.50"]
    assert r.tables[0].column("n") == ["1,234", "2"]
    assert r.tables[0].column("big") == ["0.0", "250.0"]
    assert r.tables[0].column("ci_half_width_pp") == ["0.00", "0.50"]


def test_penalties_are_drawn_left_of_zero():
    from reports.plots import source_segments

    dist = pd.DataFrame({"bot": ["a"] * 4 + ["b"] * 4,
                         "measure": ["score", "score_stars", "score_money", "score_penalty"] * 2,
                         "mean": [2.4, 20.0, 5.0, -22.6, 10.0, 8.0, 3.0, -1.0]})
    segments, net = source_segments(dist)
    a = segments[segments["bot"] == "a"].set_index("source")
    assert a.loc["money", "start"] == 0 and a.loc["stars", "start"] == 5.0  # gains: stacked
    assert a.loc["penalty", "start"] == 0 and a.loc["penalty", "width"] == -22.6
    assert net["a"] == pytest.approx(2.4) and net["b"] == pytest.approx(10.0)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """Festival shipped against a variant on the same seed, and the shipped rules on
    another seed."""
    root = tmp_path_factory.mktemp("diff")
    for name, seed, sets in (("a", 2, None), ("b", 2, {"crowd_pleaser_tiles": 2}),
                             ("c", 9, None)):
        run("festival", 600, 3, "greedy", seed, root / name, sets=sets, progress=False)
    return root


def test_diff_pairs_runs_on_the_same_seed_and_lists_what_differs(two_runs, tmp_path):
    from scipy import stats as st

    from analysis.diff import diff_runs
    from sim.core.run_folder import load_results

    d = diff_runs(two_runs / "a", two_runs / "b")
    assert d.paired and d.changes == [("data_hash", d.a["request"]["data_hash"],
                                       d.b["request"]["data_hash"]),
                                      ("sets", "none", "crowd_pleaser_tiles=2")]
    a, b = load_results(two_runs / "a"), load_results(two_runs / "b")
    seat0 = [(t[t["seat"] == 0].set_index("game_index")["win"]) for t in (a, b)]
    per_game = seat0[1] - seat0[0]
    row = d.table.query("part == 'seat' and level == '0' and measure == 'win rate'").iloc[0]
    ci = st.ttest_1samp(per_game, 0).confidence_interval()
    assert row["difference"] == pytest.approx(per_game.mean())
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high))
    assert set(d.table.loc[d.table["part"] == "Board", "level"]) == {
        "red", "yellow", "blue", "green"}
    # another seed: independent games, Welch's interval
    u = diff_runs(two_runs / "a", two_runs / "c")
    assert not u.paired and ("seed", "2", "9") in u.changes
    row = u.table.query("part == 'seat' and level == '0' and measure == 'win rate'").iloc[0]
    c = load_results(two_runs / "c")
    welch = st.ttest_ind(c.loc[c["seat"] == 0, "win"], a.loc[a["seat"] == 0, "win"],
                         equal_var=False).confidence_interval()
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((welch.low, welch.high))


def test_diff_on_the_command_line(two_runs, tmp_path, capsys):
    out = tmp_path / "d"
    assert main(["diff", str(two_runs / "a"), str(two_runs / "b"), "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith("paired diff of festival: ")
    page = (out / "index.html").read_text()
    head = page_reader.run_header(page)
    assert head["rule overrides (--set)"] == "A: none; B: crowd_pleaser_tiles=2"
    assert (out / "diff.csv").exists() and "crowd_pleaser_tiles" in page
    bad = [b for t in page_reader.read(page).tables for b in page_reader.unformatted(t)]
    assert not bad, bad[:10]


@pytest.mark.parametrize("which,expect", [
    ("same", "is given twice"), ("missing", "no run.json"), ("partial", "is incomplete")])
def test_diff_refuses_what_is_not_two_finished_runs(two_runs, tmp_path, capsys, which,
                                                    expect):
    b = {"same": two_runs / "a", "missing": tmp_path / "nothing",
         "partial": tmp_path / "partial"}[which]
    if which == "partial":
        run("festival", 400, 3, "greedy", 2, b, chunk_size=100, upto=100, progress=False)
    assert main(["diff", str(two_runs / "a"), str(b), "--out", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err
    assert expect in err and err.count("\n") == 1
    assert not (tmp_path / "d").exists()


def test_the_bench_reference_is_a_festival_sized_game_timed_beside_festival():
    """The lean reference of ``playtest bench festival``: a seeded game of about Festival's
    length at 4 players (60 decisions), the same games from the same seed, other games from
    another; the bench's child times it by turns with Festival's greedy 4-player line-up and
    no other."""
    from reports import bench, bench_reference

    score, decisions = bench_reference.play(200)
    assert 50 <= decisions <= 70 and score > 0
    assert bench_reference.play(200) == (score, decisions)
    assert bench_reference.play(200, seed=2) != (score, decisions)
    assert bench_reference.play(50, players=2)[1] < decisions
    timed = bench._measure("festival", "greedy", 4, 100, 1, {})
    assert timed["reference_gps"] > 0
    assert "reference_gps" not in bench._measure("festival", "random", 4, 100, 1, {})
