"""The analysis answers the question each table claims to answer: planted effects are
recovered, kept elements stay observational, seats make no claim without rotation."""

import numpy as np
import pandas as pd
import pytest
import toy_game as toy
from scipy.special import expit

from analysis.analyse import analyse
from analysis.elements import dealt_table
from analysis.rates import game_codes
from sim.core.declaration import Element, ResultsDeclaration


@pytest.fixture(scope="module")
def planted():
    df = toy.results(20_000, 4, ["plain", "strong", "plain", "twin"], seed=1)
    return df, analyse(df, toy.declare({"medals": toy.MEDALS}), random_bots={"plain"})


def _true_effect(df, column, level, levels, rows):
    """The planted effect of a level against the average of the levels, over ``rows``:
    every seat-game moved to each level in turn, all else as it was."""
    parts = {"seat": df["seat"].to_numpy(), "colour": df["colour"].astype(str).to_numpy(),
             "bot": df["bot"].astype(str).to_numpy()}
    means = {v: expit(toy.logit(*({**parts, column: np.full(len(df), v)}[k]
                                  for k in ("seat", "colour", "bot"))))[rows].mean()
             for v in levels}
    return 100 * (means[level] - np.mean(list(means.values())))


def test_the_model_recovers_the_planted_effects_per_bot_and_pooled(planted):
    df, a = planted
    fx = a.tables["effects"]
    causal = fx[fx["block"] == "causal"]
    bot = df["bot"].astype(str).to_numpy()
    inside, checked = 0, 0
    for r in causal.itertuples():
        column = {"seat": "seat", "bot": "bot", "Colour": "colour"}[r.factor]
        cast = int if column == "seat" else str
        levels = [cast(v) for v in fx.loc[fx["factor"] == r.factor, "level"].unique()]
        rows = np.ones(len(df), bool) if r.bot == "pooled" else bot == r.bot
        truth = _true_effect(df, column, cast(r.level), levels, rows)
        width = r.ci_high_pp - r.ci_low_pp
        inside += r.ci_low_pp <= truth <= r.ci_high_pp
        assert abs(r.effect_pp - truth) < width, (r.factor, r.bot, r.level, truth)
        assert width < (3.0 if r.bot == "pooled" else 5.0)  # 80,000 seat-games
        checked += 1
    # seats and colours: 4 levels, pooled and for each of 3 bots; the bot: 3 levels, pooled
    assert checked == 4 * 4 + 4 * 4 + 3
    assert inside >= 0.85 * checked  # 95% intervals
    strong = causal[(causal["factor"] == "bot") & (causal["level"] == "strong")].iloc[0]
    assert strong["ci_low_pp"] > 3  # a planted effect is found, not only covered
    assert np.allclose(causal.groupby(["factor", "bot"])["effect_pp"].sum(), 0, atol=1e-9)


def test_a_kept_element_chosen_by_a_better_bot_is_not_reported_as_causal(planted):
    df, a = planted
    assert "Side" not in set(a.tables["effects"]["factor"])  # kept: never in the model
    # pooled over bots, side B looks better (the strong bot picks it 90% of the time) ...
    pooled = df.assign(b=df["side"].astype(str).str.endswith("B")).groupby("b")["win"].mean()
    assert pooled[True] - pooled[False] > 0.025
    # ... but within bot and colour, the kept table finds no difference
    kept = a.tables["side_kept"].dropna(subset=["diff_pp"])
    assert len(kept) == 3 * 4  # three bots, four colours: B against A
    covered = ((kept["diff_low_pp"] <= 0) & (kept["diff_high_pp"] >= 0)).mean()
    assert covered >= 0.8
    assert kept.loc[kept["bot"] == "plain", "causal"].all()
    assert not kept.loc[kept["bot"] == "strong", "causal"].any()
    strong = a.tables["side_kept"].query("bot == 'strong' and side.str.endswith('B')")
    assert strong["chosen_share"].between(0.85, 0.95).all()
    # the summary names no kept element among the effects
    assert not any("Side" in line.text for line in a.board if line.section != "associations")


@pytest.fixture(scope="module")
def mixed():
    """A line-up with a bot that never wins and one for which blue is bad, not good; the
    contrarian bot chooses side B in 2% of its seat-games."""
    df = toy.results(20_000, 4, ["plain", "contrarian", "strong", "hopeless"], seed=11)
    return df, analyse(df, toy.declare({"medals": toy.MEDALS}), random_bots={"plain"})


def test_a_bot_that_never_wins_is_left_out_of_the_pooled_effects(mixed):
    df, a = mixed
    assert a.left_out == ["hopeless"]
    fx = a.tables["effects"]
    assert "hopeless" not in set(fx["bot"]) and "hopeless" not in set(fx["level"])
    assert any("hopeless won under 1%" in s and "left out" in s for s in a.findings)
    dealt = a.tables["colour_dealt"]  # the setup tables leave it out too
    assert (dealt["eligible_seat_games"] == 3 * 20_000).all()
    # its seat-games would have diluted the pooled colour effect by a quarter
    blue = fx.query("factor == 'Colour' and level == 'blue'").set_index("bot")["effect_pp"]
    assert blue["pooled"] == pytest.approx(blue[["plain", "contrarian", "strong"]].mean(),
                                           abs=0.3)


def test_bots_that_disagree_about_an_element_are_told_apart(mixed):
    _, a = mixed
    fx = a.tables["effects"]
    blue = fx.query("factor == 'Colour' and level == 'blue'").set_index("bot")
    assert blue.loc["plain", "ci_low_pp"] > 0 and blue.loc["contrarian", "ci_high_pp"] < 0
    assert blue.loc["pooled", "interaction_p"] < 0.01
    line = next(s for s in a.findings if s.startswith("The colour's effect differs by bot"))
    assert "blue is" in line and "for contrarian" in line and "read it per bot" in line


def test_a_kept_option_a_bot_hardly_ever_chooses_is_not_identified(mixed):
    _, a = mixed
    kept = a.tables["side_kept"]
    b = kept["side"].astype(str).str.endswith("B")
    contrarian = kept[(kept["bot"] == "contrarian") & b]
    assert len(contrarian) == 4 and contrarian["chosen_share"].lt(0.05).all()
    assert not contrarian["identified"].any() and contrarian["diff_pp"].isna().all()
    assert contrarian["p_value"].isna().all()
    plain_b = kept[(kept["bot"] == "plain") & b]
    assert plain_b["identified"].all() and plain_b["diff_pp"].notna().all()
    assert kept.loc[kept["bot"] == "strong", "identified"].all()  # 10% is enough
    assert "Side: 4 choices not identified (a bot chose one side in under 5% of its " \
        "seat-games)." in a.findings


def test_one_bot_everywhere_states_its_effects_for_that_line_up():
    df = toy.results(4000, 3, ["strong"] * 3, seed=5)
    a = analyse(df, toy.declare({"medals": toy.MEDALS}))
    seat_or_colour = [s for s in a.findings if s.startswith(("Seat", "No seat", "Colour",
                                                             "No colour"))]
    assert seat_or_colour and all("(for 3 x strong)" in s for s in seat_or_colour)
    assert set(a.tables["effects"]["bot"]) == {"pooled"}


def test_without_rotation_seat_and_bot_are_confounded_and_no_seat_claim_is_made():
    df = toy.results(3000, 3, ["strong", "plain", "twin"], seed=2, rotate=False)
    a = analyse(df, toy.declare({"medals": toy.MEDALS}))
    assert a.confounded
    assert "no seat claim" in a.findings[0]
    assert not any(s.startswith(("Seat ", "No seat")) for s in a.findings)
    seat_rows = a.tables["effects"].query("factor.str.startswith('seat')")
    assert list(seat_rows["level"]) == [f"seat {k} with {b}" for k, b in
                                        enumerate(["strong", "plain", "twin"])]
    assert set(seat_rows["block"]) == {"confounded"} and set(seat_rows["bot"]) == {"pooled"}
    assert len(a.tables["seat_tests"]) == 1  # no joint test from a confounded model
    same = toy.results(3000, 3, ["plain"] * 3, seed=2, rotate=False)  # one bot: none
    assert not analyse(same, toy.declare({"medals": toy.MEDALS})).confounded


def test_per_slot_table_and_identical_bots(planted):
    df, a = planted
    slots = a.tables["win_rate_by_slot"].set_index("bot_slot")
    assert list(slots["bot"]) == ["plain", "strong", "plain", "twin"]
    for slot in range(4):
        rows = df[df["bot_slot"] == slot]
        assert slots.loc[slot, "seat_games"] == len(rows) == 20_000
        assert slots.loc[slot, "win_rate"] == pytest.approx(rows["win"].mean())
    check = a.tables["identical_bots"]
    assert list(check["bot"]) == ["plain"] and check["bot_slots"].iloc[0] == "0, 2"
    assert check["p_value"].iloc[0] > 0.01  # the same bot twice: no difference planted
    bots = a.tables["win_rate_by_bot"].set_index("bot")
    assert bots.loc["plain", "interval"] == "Wilson, clustered by game"
    assert bots.loc["strong", "interval"] == "Wilson"


def test_lift_is_holders_against_non_holders_on_a_hand_made_table():
    # two games of two seats: red wins both times it is dealt, blue never
    df = pd.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
                       "win": [1.0, 0.0, 0.0, 1.0], "score": [5, 3, 2, 6],
                       "colour": pd.Categorical(["red", "blue", "blue", "red"],
                                                categories=["red", "blue", "green"])})
    df = pd.concat([df.assign(game_index=df["game_index"] + 2 * k) for k in range(20)])
    df.loc[df["game_index"] == 0, "win"] = [0.5, 0.5]  # one shared win
    game, _ = game_codes(df)
    t = dealt_table(df, game, Element("colour", "dealt", "Colour")).set_index("colour")
    assert list(t.index) == ["red", "blue"]  # a level never dealt has no row
    assert t.loc["red", "win_rate"] == pytest.approx(39.5 / 40)
    assert t.loc["red", "others_win_rate"] == pytest.approx(0.5 / 40)
    assert t.loc["red", "diff_pp"] == pytest.approx(100 * 39 / 40)
    assert t.loc["red", "held_share"] == 0.5
    assert t.loc["blue", "diff_pp"] == pytest.approx(-t.loc["red", "diff_pp"])
    assert t.loc["red", "p_holm"] < 1e-6
    # every game deals red: no game without it to compare the holder with
    assert np.isnan(t.loc["red", "vs_unheld_pp"])
    # the levels' average is 50%: red is 48.75 pp above it, as the lift's half
    assert t.loc["red", "effect_pp"] == pytest.approx(100 * (39.5 / 40 - 0.5))


def test_the_holder_is_compared_with_games_where_nobody_holds_it():
    """Ten games deal red and blue, red always winning; ten deal green and blue, each
    winning half. The lift (red against every other seat-game, its own opponents among
    them) is 66.7 pp; against the seats of games without red it is 50 pp."""
    a = pd.DataFrame({"seat": [0, 1], "win": [1.0, 0.0], "colour": ["red", "blue"]})
    b = pd.DataFrame({"seat": [0, 1], "win": [0.5, 0.5], "colour": ["green", "blue"]})
    df = pd.concat([t.assign(game_index=g) for g in range(20) for t in [a if g < 10 else b]],
                   ignore_index=True).assign(score=1)
    df["colour"] = pd.Categorical(df["colour"], categories=["red", "blue", "green"])
    game, _ = game_codes(df)
    t = dealt_table(df, game, Element("colour", "dealt", "Colour")).set_index("colour")
    assert t.loc["red", "diff_pp"] == pytest.approx(100 * (1 - 10 / 30))
    assert t.loc["red", "vs_unheld_pp"] == pytest.approx(50.0)
    assert t.loc["red", "unheld_seat_games"] == 20
    assert np.isnan(t.loc["blue", "vs_unheld_pp"])  # every game deals blue


def _hands(games: int, seed: int) -> pd.DataFrame:
    """Four seats, each dealt 2 of 10 tiles and keeping one at random (bot 'plain') or the
    alphabetically first (bot 'first'); keeping T3 is worth a lot, being dealt it nothing
    more. Wins follow the seats' strengths, one winner per game."""
    rng = np.random.default_rng(seed)
    tiles = np.array([f"T{k}" for k in range(10)])
    dealt = np.sort(np.argsort(rng.random((games, 10)), axis=1)[:, :8].reshape(-1, 2), axis=1)
    bot = np.tile(["plain", "first", "plain", "first"], games)
    pick = np.where(bot == "plain", rng.integers(0, 2, len(bot)), 0)
    kept = dealt[np.arange(len(bot)), pick]
    strength = np.exp(1.5 * (kept == 3)).reshape(games, 4)
    winner = (rng.random(games)[:, None] > np.cumsum(strength, 1) / strength.sum(1, keepdims=True)
              ).sum(1)
    win = (np.arange(4)[None, :] == winner[:, None]).astype(float).ravel()
    hand = np.char.add(np.char.add(tiles[dealt[:, 0]], " + "), tiles[dealt[:, 1]])
    return pd.DataFrame({"game_index": np.repeat(np.arange(games), 4),
                         "seat": np.tile(np.arange(4), games), "bot": bot, "win": win,
                         "score": (10 + 5 * win + rng.integers(0, 3, len(bot))),
                         "hand": pd.Categorical(hand), "tile": pd.Categorical(tiles[kept])})


def test_a_dealt_hand_is_answered_per_item_and_its_kept_item_kept_against_passed():
    from analysis.elements import kept_from_hand_table

    df = _hands(20_000, seed=3)
    game, _ = game_codes(df)
    t = dealt_table(df, game, Element("hand", "dealt", "Hand", sep=" + ")).set_index("hand")
    assert list(t.index) == [f"T{k}" for k in range(10)]  # items, not the 45 hands
    assert t["held_share"].between(0.19, 0.21).all()  # 2 of 10 tiles each
    t3 = df["hand"].astype(str).str.contains("T3").to_numpy()
    assert t.loc["T3", "seat_games"] == t3.sum()
    assert t.loc["T3", "win_rate"] == pytest.approx(df.loc[t3, "win"].mean())
    assert t.loc["T3", "diff_low_pp"] > 5 and t.loc["T3", "p_holm"] < 1e-6
    assert t.loc["T3", "points_low"] > 0  # a winner scores 5 more
    assert (t.drop(index="T3")["diff_pp"] < 0).all()  # the others: not dealt the best tile
    k = kept_from_hand_table(df, Element("tile", "kept", "Tile", context="hand"), " + ",
                             {"plain"}).set_index(["bot", "tile"])
    plain = k.loc[("plain", "T3")]
    assert plain["causal"] and plain["kept_share"] == pytest.approx(0.5, abs=0.03)
    assert plain["diff_low_pp"] > 20 and plain["points_low"] > 0 and plain["p_holm"] < 1e-6
    # 'first' keeps the first tile of its hand: T3 whenever it comes with T4..T9, never
    # with T0..T2; T0 it always keeps, so T0 has no row (nothing passed to compare with)
    assert k.loc[("first", "T3"), "kept_share"] == pytest.approx(6 / 9, abs=0.03)
    assert ("first", "T0") not in k.index and not k.loc["first", "causal"].any()


def test_a_dealt_hand_and_its_kept_item_stay_out_of_the_model():
    df = _hands(3000, seed=4).assign(n_players=np.int8(4), bot_slot=0, rank=1)
    decl = ResultsDeclaration("Hands", elements=(
        Element("hand", "dealt", "Hand", sep=" + "),
        Element("tile", "kept", "Tile", context="hand")))
    a = analyse(df, decl, random_bots={"plain"})
    assert not {"Hand", "Tile"} & set(a.tables["effects"]["factor"])
    assert list(a.tables["hand_dealt"]["hand"])[:2] == ["T0", "T1"]
    assert "kept_share" in a.tables["tile_kept"]
    with pytest.raises(ValueError):
        Element("tile", "kept", "Tile", sep=" + ")


def test_the_model_and_the_setup_table_give_one_number_for_a_level(planted):
    """Both are a level against the average of the levels: they agree to sampling noise of
    the adjustment (the model holds seat and bot fixed), and the reference contrast stays
    in the CSV."""
    _, a = planted
    model = a.tables["effects"].query("factor == 'Colour' and bot == 'pooled'").set_index(
        "level")
    table = a.tables["colour_dealt"].set_index("colour")
    for colour in toy.COLOURS:
        assert model.loc[colour, "effect_pp"] == pytest.approx(
            table.loc[colour, "effect_pp"], abs=0.5)
    assert model.loc["blue", "vs_reference_pp"] == pytest.approx(
        model.loc["blue", "effect_pp"] - model.loc["red", "effect_pp"], abs=1e-9)


def test_the_board_is_ordered_seats_setup_associations_bots_limits(planted):
    _, a = planted
    order = ["seats", "dealt", "associations", "bots", "limits"]
    sections = [order.index(line.section) for line in a.board]
    assert sections == sorted(sections) and set(sections) == set(range(5))
    assert a.board[0].text.startswith("Seat 0: ")  # seat fairness first
    assert a.board[-1].section == "limits"
