"""Training from search (analysis/training.py) and the measured ladder (analysis/ladder.py):
the fit on planted data, what a search's decision records, the round's acceptance, a training
resumed, bad input, and the ladder's pairing."""

import json
import tomllib

import numpy as np
import pytest
from conftest import one_line

from analysis.ladder import Ladder, climb, duel, step_verdict
from analysis.training import Samples, climbs, collect, fit_table, fit_weights, within
from reports.cli import main
from sim.core.game import new_game
from strategies.presets import added_bots

TINY_SEARCH = {"selector": "search", "budget": 16, "rollout": "greedy", "horizon": 2,
               "candidates": 0}


def _planted(rng, groups=400, moves=6, w=(0.5, -1.0, 0.25)):
    """Decisions whose values are a planted linear function of the features, plus a
    constant per decision that is correlated with the decision's features (so that a fit
    across decisions is biased), plus noise that shrinks with the rollouts."""
    w = np.asarray(w)
    group = np.repeat(np.arange(groups), moves)
    shift = rng.normal(size=(groups, len(w)))
    feats = rng.normal(size=(groups * moves, len(w))) + shift[group]
    rollouts = rng.integers(1, 20, size=len(group)).astype(float)
    offset = 3.0 * shift.sum(axis=1)  # what the position is worth, whatever the move
    value = feats @ w + offset[group] + rng.normal(size=len(group)) * 0.3 / np.sqrt(rollouts)
    return feats, value, rollouts, group, w


def test_the_fit_recovers_planted_weights_within_decisions():
    feats, value, rollouts, group, w = _planted(np.random.default_rng(1))
    got = fit_weights(feats, value, rollouts, group)
    assert np.allclose(got, w, atol=0.02), got
    # the same data fitted across decisions (no constant per decision) is far off: the test
    # can tell the two objectives apart
    naive = np.linalg.lstsq(feats, value, rcond=None)[0]
    assert not np.allclose(naive, w, atol=0.2)


def test_the_fit_weighs_a_move_by_its_rollouts():
    rng = np.random.default_rng(2)
    feats, value, rollouts, group, w = _planted(rng)
    # a few moves of one rollout each, valued wildly wrong: weight 1 against the others' 19
    rollouts[:] = 19.0
    bad = rng.choice(len(value), size=len(value) // 10, replace=False)
    rollouts[bad] = 1.0
    value[bad] += 40.0 * feats[bad, 0]
    got = fit_weights(feats, value, rollouts, group)
    unweighted = fit_weights(feats, value, np.ones_like(rollouts), group)
    assert abs(got[0] - w[0]) < abs(unweighted[0] - w[0]) / 3, (got, unweighted)


def test_a_feature_that_never_differs_within_a_decision_weighs_nothing():
    rng = np.random.default_rng(3)
    feats, value, rollouts, group, _ = _planted(rng)
    feats = np.column_stack([feats, (group % 7).astype(float)])  # constant in a decision
    assert fit_weights(feats, value, rollouts, group)[-1] == 0.0
    x = within(feats, group, rollouts)
    assert np.allclose(x[:, -1], 0.0)


def test_a_fitted_table_is_a_bot_that_plays():
    rng = np.random.default_rng(4)
    feats, value, rollouts, group, _ = _planted(rng, w=(1.0, -0.5, 0.0))
    from sim.festival.features import TURN_FEATURES

    width = len(TURN_FEATURES)
    padded = np.zeros((len(value), width))
    padded[:, :3] = feats
    s = Samples(group, np.zeros(len(group), dtype=np.int64), np.zeros(len(group), dtype=np.int64),
                padded, value, rollouts)
    table = fit_table(s, "festival", "planted")
    assert set(table["turn"]) <= set(TURN_FEATURES[:3]) and "start_side" not in table
    assert table["turn"][TURN_FEATURES[0]] == pytest.approx(1.0, abs=0.05)
    with added_bots("festival", {"planted": ("test", table)}):
        from sim.core.runner import simulate_frame

        assert len(simulate_frame("festival", 4, 2, ["planted", "greedy"], 0)) == 8


def test_a_decision_records_the_searching_seats_moves_and_the_searchs_values():
    """Every recorded decision, driven again through the step API: its candidates are the
    deciding seat's legal moves, their features the ones that seat sees, and the move the
    search played is the recorded best. Two search bots of different budgets, seats rotated
    (game 1: seat 0 is slot 1), so that each decision is its own slot's."""
    small = TINY_SEARCH | {"budget": 4}
    tables = {"t": TINY_SEARCH, "t4": small}
    s = collect("festival", 2, ["t", "t4"], tables, None, None, 0, 1, 1)
    assert len(s.group) and set(np.unique(s.seat)) == {0, 1}
    g = new_game("festival", seed=0, players=2, game_index=1)
    with added_bots("festival", {k: ("test", v) for k, v in tables.items()}):
        decision = 0
        while not g.is_over():
            seat, feats = g.seat, g.features()
            move = g.bot_move(["t", "t4"][(seat + 1) % 2])
            if len(g.legal_moves()) > 1:
                rows = s.group == decision
                assert (s.seat[rows] == seat).all()
                names = feats.columns
                recorded = s.feats[rows][:, : len(names)]
                assert 1 <= len(recorded) <= len(feats)
                if seat == 0:  # slot 1's budget of 4 weighs 2 moves at most
                    assert len(recorded) <= 2
                for r in recorded:  # each a legal move's features, for this seat
                    assert (np.abs(feats.to_numpy() - r).max(axis=1) < 1e-12).any()
                stats = g._s.scratch  # what the search left: each candidate's sum and count
                for i in g._s.SEARCH_STATS:
                    stats = stats[i]
                sums, counts = stats[0][1, : len(recorded)], stats[0][2, : len(recorded)]
                assert np.allclose(s.value[rows], sums / counts) and \
                    np.array_equal(s.rollouts[rows], counts)
                best = np.flatnonzero(rows)[np.lexsort((-s.value[rows], -s.rollouts[rows]))[0]]
                assert np.allclose(s.feats[best][: len(names)], feats.loc[move].to_numpy())
                decision += 1
            g.apply(move)
    assert decision == len(np.unique(s.group))


def test_a_round_climbs_only_on_a_resolved_margin():
    assert climbs({"share": 0.52, "low": 0.501, "high": 0.54})
    assert not climbs({"share": 0.56, "low": 0.499, "high": 0.62})
    assert not climbs({"share": 0.5, "low": 0.5, "high": 0.5})
    assert [step_verdict(lo, hi) for lo, hi in [(0.51, 0.6), (0.45, 0.55), (0.4, 0.49)]] == [
        "resolved", "not resolved", "reversed"]


def test_the_duel_swaps_seats_on_the_same_deals():
    """Played both ways on the same deals, the two bots' shares add up to one exactly; a duel
    that did not swap the seats, or dealt its second sitting anew, would not."""
    ab = duel("festival", "greedy", "builder", {}, 40, 3)
    ba = duel("festival", "builder", "greedy", {}, 40, 3)
    assert ab["games"] == 80 and ab["share"] + ba["share"] == pytest.approx(1.0, abs=1e-12)
    four = duel("festival", "greedy", "random", {}, 40, 3, players=4)
    assert four["low"] > 0.5


def _train(tmp_path, name, *extra):
    return ["train", "festival", "--players", "2", "--games", "20", "--rounds", "2",
            "--budget", "4", "--duel-games", "10", "--workers", "1", "--quiet", "--out",
            str(tmp_path / f"{name}.toml"), *extra]


def test_a_resumed_training_ends_as_an_uninterrupted_one(tmp_path, monkeypatch, capsys):
    assert main(_train(tmp_path, "whole")) == 0
    whole = (tmp_path / "whole.toml").read_text()
    made = tomllib.loads(whole)
    assert made["trained"]["selector"] == "greedy" and made["search_trained"]["rollout"] == \
        "trained"
    assert "round 1: rollouts by greedy" in whole
    # interrupted after the first kept chunk of the first round
    import analysis.training as T

    saved, calls = T.Samples.save, []

    def save_then_stop(self, path):
        saved(self, path)
        calls.append(path)
        raise KeyboardInterrupt

    monkeypatch.setattr(T.Samples, "save", save_then_stop)
    assert main(_train(tmp_path, "parts")) == 130
    assert len(calls) == 1 and "finished games and rounds are kept" in capsys.readouterr().err
    monkeypatch.setattr(T.Samples, "save", saved)
    assert main(_train(tmp_path, "parts")) == 0
    parts = (tmp_path / "parts.toml").read_text()
    assert parts.replace("parts", "whole") == whole.replace("parts", "whole")
    record = json.loads((tmp_path / "parts.training" / "train.json").read_text())
    assert record["status"] == "complete" and record["rounds"][0]["decisions"] > 0


def test_a_trained_bots_file_plays_and_replays_without_the_training(tmp_path, capsys):
    assert main(_train(tmp_path, "mine", "--rounds", "1")) == 0
    import shutil

    shutil.rmtree(tmp_path / "mine.training")
    run = tmp_path / "run"
    assert main(["simulate", "festival", "--players", "2", "--games", "4", "--bots",
                 "search_trained:4,trained", "--bots-file", str(tmp_path / "mine.toml"),
                 "--out", str(run), "--quiet"]) == 0
    (tmp_path / "mine.toml").unlink()
    capsys.readouterr()
    assert main(["replay", "--run", str(run), "--game", "1"]) == 0
    assert "weighed" in capsys.readouterr().out


@pytest.mark.parametrize("args, expect", [
    (["--from", "search"], "--from search: not a bot of festival that can play rollouts"),
    (["--from", "nobody"], "--from nobody: not a bot of festival"),
    (["--name", "greedy"], "--name greedy: festival has a bot of that name"),
    (["--name", "a,b"], "cannot name a bot"),
    (["--search", "greedy"], "--search greedy: not a search bot of festival"),
    (["--games", "0"], "games"),
    (["--rounds", "0"], "rounds"),
    (["--players", "9"], "players"),
    (["--budget", "0"], "budget"),
])
def test_train_refuses_in_one_line_before_any_game(tmp_path, capsys, args, expect):
    assert main(["train", "festival", *args, "--out", str(tmp_path / "x.toml"),
                 "--quiet"]) == 2
    one_line(capsys, expect)
    assert not (tmp_path / "x.training").exists()


def test_a_damaged_kept_chunk_is_one_line(tmp_path, capsys):
    args = _train(tmp_path, "d", "--rounds", "1")
    assert main(args) == 0
    chunk = tmp_path / "d.training" / "round-1" / "games-00000000.npz"
    chunk.write_bytes(b"not an archive")
    (tmp_path / "d.training" / "round-1" / "fit.json").unlink()
    capsys.readouterr()
    assert main(args) == 2
    one_line(capsys, "remove it and run the same command again")


def test_the_ladder_measures_each_step_and_resumes(tmp_path, capsys, monkeypatch):
    import analysis.ladder

    monkeypatch.setattr(analysis.ladder, "RUNG_SECONDS", 0.05)  # a rung's timing, briefly
    out = tmp_path / "ladder"
    ladder = climb("festival", ["random", "greedy", "builder"], 2, 30, 0, out)
    assert isinstance(ladder, Ladder) and list(ladder.steps["upper"]) == ["greedy", "builder"]
    first = ladder.steps.iloc[0]
    assert first["verdict"] == "resolved" and first["low"] > 0.5 and first["games"] == 60
    assert ladder.order().startswith("random < greedy ")
    assert (ladder.rungs["games_per_s"] > 0).all()
    again = climb("festival", ["random", "greedy", "builder"], 2, 30, 0, out)
    assert again.steps.equals(ladder.steps)
    assert main(["ladder", "festival", "--bots", "random,greedy", "--games", "20", "--out",
                 str(tmp_path / "cli"), "--quiet"]) == 0
    assert "random < greedy" in capsys.readouterr().out


@pytest.mark.parametrize("args, expect", [
    (["--bots", "greedy"], "a ladder needs two bots at least"),
    (["--bots", "greedy,greedy"], "a ladder needs two bots at least, each once"),
    (["--bots", "greedy,nobody"], "unknown bot 'nobody'"),
    (["--bots", "greedy,random", "--games", "1"], "games"),
])
def test_ladder_refuses_in_one_line(tmp_path, capsys, args, expect):
    assert main(["ladder", "festival", *args, "--out", str(tmp_path / "x"), "--quiet"]) == 2
    one_line(capsys, expect)


def test_a_penalised_fit_keeps_the_priors_choices_and_a_light_one_the_datas():
    feats, value, rollouts, group, w = _planted(np.random.default_rng(5))
    prior = np.array([1.0, 0.0, 0.0])  # far from the planted weights
    heavy = fit_weights(feats, value, rollouts, group, prior, 1e6)
    assert heavy[0] > 0 and np.abs(heavy[1:]).max() < 1e-3 * heavy[0]  # the prior, rescaled
    light = fit_weights(feats, value, rollouts, group, prior, 1e-9)
    assert np.allclose(light, w, atol=0.02)


def test_rounds_go_on_while_they_climb_and_the_last_that_climbed_is_kept(tmp_path,
                                                                         monkeypatch):
    """Duels faked: round 1 beats its rollout bot, round 2 does not. Round 2's search rolls
    out with round 1's bot, and the file holds round 1's."""
    import analysis.training as T

    real = T.duel
    shares = {"trained_round1": (0.7, 0.65, 0.75), "trained_round2": (0.45, 0.4, 0.5)}

    def duel(game, a, b, *args, **kwargs):
        d = real(game, a, b, *args, **kwargs)
        if a in shares:
            d["share"], d["low"], d["high"] = shares[a]
        return d

    monkeypatch.setattr(T, "duel", duel)
    s = T.train("festival", out=tmp_path / "t.toml", players=2, games=10, rounds=3, budget=4,
                duel_games=10, workers=1, progress=False)
    assert [h["climbed"] for h in s["rounds"]] == [True, False]
    assert s["kept_round"] == 1 and s["climbed"]
    assert s["rounds"][1]["rollout_bot"] == "trained_round1"
    made = tomllib.loads((tmp_path / "t.toml").read_text())
    fit = json.loads((tmp_path / "t.training" / "round-1" / "fit.json").read_text())["table"]
    assert {k: v for k, v in made["trained"].items() if isinstance(v, dict)} == \
        {k: v for k, v in fit.items() if isinstance(v, dict)}


def test_only_a_search_bots_decisions_are_recorded():
    s = collect("festival", 2, ["t", "greedy"], {"t": TINY_SEARCH}, None, None, 0, 1, 1)
    assert len(s.group) and set(np.unique(s.seat)) == {1}  # game 1: seat 1 is slot 0


@pytest.mark.parametrize("games, expect", [
    ("10,20", "--games gives 2 numbers for 1 step: give one for every step"),
    ("abc", "--games must be whole numbers, one for every step or one per step"),
    ("10,x", "--games must be whole numbers"),
])
def test_a_ladders_games_are_one_number_or_one_a_step(tmp_path, capsys, games, expect):
    assert main(["ladder", "festival", "--bots", "greedy,random", "--games", games, "--out",
                 str(tmp_path / "x"), "--quiet"]) == 2
    one_line(capsys, expect)


def test_a_prior_that_tells_no_move_apart_gives_the_plain_fit():
    """A prior whose weights lie on features that never differ within a decision scores
    every move alike: its column is all zero, and the shrunk fit is the plain one (not a
    singular matrix)."""
    rng = np.random.default_rng(6)
    feats, value, rollouts, group, w = _planted(rng)
    feats = np.column_stack([feats, (group % 5).astype(float)])
    prior = np.array([0.0, 0.0, 0.0, 1.0])
    got = fit_weights(feats, value, rollouts, group, prior, 10.0)
    assert np.allclose(got, fit_weights(feats, value, rollouts, group))
    assert np.allclose(got[:3], w, atol=0.02)
