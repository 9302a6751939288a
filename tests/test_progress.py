"""Progress that moves: chunks are played in pieces of a few seconds, the bar advances with
each, compiling is said for every engine that compiles and kept out of the run's seconds,
and a report shows its own steps."""

import json

import numpy as np
import pyarrow as pa
import pytest

import sim.core.runner as runner
from reports.html import write_report
from sim.core.kernel_cache import compiled
from sim.core.run_folder import Chunks, load_results


def test_pieces_cover_each_chunk_in_order_and_follow_the_speed():
    cut = runner.Pieces()
    todo = [(0, 0, 300), (1, 300, 300)]
    pieces = cut.cut(iter(todo))
    first = [next(pieces), next(pieces)]
    assert first == [(0, 0, runner.FIRST_PIECE), (0, runner.FIRST_PIECE, 300 - runner.FIRST_PIECE)]
    cut.measured(1000, 0.5 * runner.PIECE_SECONDS)  # 2000 games in PIECE_SECONDS
    assert cut.size == 2000
    assert list(pieces) == [(1, 300, 300)]
    cut.measured(10, 60.0)  # a very slow game: never under 64 games a piece
    assert cut.size == 64


def test_pieces_arriving_in_any_order_make_whole_chunks():
    chunks = Chunks(games=10, chunk_size=6)  # chunk 0: games 0-5, chunk 1: 6-9
    table = lambda a, b: pa.table({"game_index": list(range(a, b))})  # noqa: E731
    pieces = [(1, 8, 2, table(8, 10)), (0, 3, 3, table(3, 6)), (0, 0, 3, table(0, 3)),
              (1, 6, 2, table(6, 8))]
    out = list(runner._assembled(iter(pieces), chunks))
    assert [(i, n, t is None) for i, n, t in out] == [(1, 2, True), (0, 3, True),
                                                      (0, 3, False), (1, 2, False)]
    assert out[2][2]["game_index"].to_pylist() == list(range(6))
    assert out[3][2]["game_index"].to_pylist() == list(range(6, 10))


def test_the_bar_moves_inside_a_chunk_and_the_rows_do_not_change(tmp_path, monkeypatch, capsys):
    whole = tmp_path / "whole"
    runner.run("festival", 640, 4, ["greedy"] * 4, 3, whole, chunk_size=640, progress=False)
    calls = []
    real = runner._timed
    monkeypatch.setattr(runner, "_timed", lambda *a: (calls.append(a[4]), real(*a))[1])
    monkeypatch.setattr(runner, "FIRST_PIECE", 64)
    monkeypatch.setattr(runner, "PIECE_SECONDS", 1e-9)  # every piece its least: 64 games
    cut = tmp_path / "cut"
    runner.run("festival", 640, 4, ["greedy"] * 4, 3, cut, chunk_size=640, progress=True)
    assert calls == [64] * 10  # ten steps of the bar in one chunk
    err = capsys.readouterr().err
    assert "640/640" in err and "<00:00" in err  # the bar's count and its time left
    assert load_results(cut).equals(load_results(whole))


def test_compiling_is_said_for_each_engine_and_kept_out_of_the_runs_seconds(
        tmp_path, monkeypatch, capsys):
    runner.run("festival", 20, 2, ["greedy"] * 2, 1, tmp_path / "warm", progress=False)
    assert compiled("sim.festival") and not compiled("sim.someday")  # per engine
    monkeypatch.setattr(runner, "compiled", lambda name, searching: False)  # never compiled
    info = runner.run("festival", 20, 2, ["greedy"] * 2, 1, tmp_path / "run", progress=True)
    err = capsys.readouterr().err
    assert ("playtest: compiling the festival kernels for line-ups without a search bot, once "
            "per engine version, about" in err)
    assert info["compile_seconds"] > 0
    recorded = json.loads((tmp_path / "run" / "run.json").read_text())
    assert recorded["compile_seconds"] == info["compile_seconds"]
    assert recorded["seconds"] >= 0


def test_a_line_up_with_a_search_bot_has_a_kernel_of_its_own(tmp_path, monkeypatch):
    """The cache holds the batch kernel per variant: a search bot's line-up is compiled when
    only the plain variant (a None argument) is cached, and the other way round; a damaged
    index counts as not compiled."""
    import pickle

    import numba

    from strategies.selectors import search_switch

    def index(name, *signatures):
        folder = tmp_path / "festival_0"
        folder.mkdir(exist_ok=True)
        with open(folder / name, "wb") as f:
            pickle.dump("numba version", f)
            f.write(pickle.dumps(("stamp", {(sig, "machine", "code"): "data"
                                            for sig in signatures})))

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    plain = (numba.int64, numba.types.none, numba.float64)
    searching = (numba.int64, numba.types.boolean, numba.float64)
    assert not compiled("sim.festival") and not compiled("sim.festival", True)
    index("batch.play_batch-60.py311.nbi", plain)
    assert compiled("sim.festival", None) and not compiled("sim.festival", True)
    index("batch.play_batch-60.py311.nbi", searching)
    assert compiled("sim.festival", True) and not compiled("sim.festival", None)
    index("batch.play_batch-60.py311.nbi", plain, searching)
    assert compiled("sim.festival", True) and compiled("sim.festival", None)
    (tmp_path / "festival_0" / "batch.play_batch-60.py311.nbi").write_bytes(b"damaged")
    assert not compiled("sim.festival", None)
    assert search_switch((np.array([1, 4]),)) is True and search_switch((np.array([1, 1]),)) is None


@pytest.mark.parametrize("progress", [True, False])
def test_a_report_shows_its_own_steps(tmp_path, monkeypatch, capsys, progress):
    import reports.html

    monkeypatch.setattr(reports.html, "BAR_DELAY", 0)  # as a long report would
    runner.run("festival", 200, 4, ["greedy"] * 4, 1, tmp_path / "run", progress=False)
    write_report(tmp_path / "run", progress=progress)
    err = capsys.readouterr().err
    assert ("report: 3/3, the page and its plots" in err) == progress
    assert not err.count("\n")  # erased at the end: the next line starts clean
