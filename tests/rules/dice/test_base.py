"""Base game rules D1–D33 of rules/dice.md (tests named after rule IDs)."""
from __future__ import annotations

import pytest

from referee.engine.protocol import InvalidSetup, MalformedMove
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.dice.dice_faces import DIE_FACES
from referee.games.dice.distance import ring_at
from referee.games.dice.role_cards import ROLES
from referee.games.sim import Table, playout, random_chooser
from tests.harness import raises_rule
from tests.rules.dice.helpers import STOP, act, default, first, game, reroll, roll, shoot, st, target, types

RS = registry.get("bang-dice")
ALL5 = ["gatling", "beer", "shot1", "shot2", "arrow"]


def test_D1_expansion_switches_on_every_module_and_options_are_checked() -> None:
    assert RS.validate_options({"expansion": True}, 5) == {"saloon_dice": True, "chief_arrow": True, "ghost": True}
    assert RS.validate_options({}, 5) == {"saloon_dice": False, "chief_arrow": False, "ghost": False}
    with pytest.raises(InvalidSetup):
        RS.validate_options({"bogus": 1}, 5)


def test_D2_a_base_die_has_the_six_faces_once_each() -> None:
    assert sorted(DIE_FACES["base"]) == sorted(["arrow", "dynamite", "shot1", "shot2", "beer", "gatling"])
    t = roll(game(4, seed="faces"))
    assert all(f in DIE_FACES["base"] for f in st(t).dice) and len(st(t).dice) == 5


def test_D3_arrows_held_plus_pile_are_nine() -> None:
    t = roll(game(4, queue=["arrow", "arrow", "beer", "beer", "beer"]))
    assert st(t).arrows[0] == 2 and st(t).pile == 7


def test_D4_life_never_exceeds_the_maximum_nor_goes_below_zero() -> None:
    t = roll(game(4, queue=["beer", "gatling", "gatling", "dynamite", "dynamite"]))
    act(t, STOP)
    target(t, "beer", 0)  # the Sheriff is at his maximum: wasted, legal
    assert st(t).life[0] == st(t).max_life[0]
    t = roll(game(4, life=[11, 9, 1, 8], queue=["shot1", "shot1", "beer", "beer", "beer"]))
    act(t, STOP)
    shoot(t, 3)
    shoot(t, 3)
    assert st(t).life[3] == 6


@pytest.mark.parametrize("players", range(3, 9))
def test_D5_roles_per_player_count(players: int) -> None:
    t = Table(RS, players, seed=f"roles-{players}")
    assert sorted(st(t).kind(p) for p in range(players)) == sorted(ROLES[players])


def test_D5_fewer_than_three_or_more_than_eight_players_cannot_play() -> None:
    for n in (2, 9):
        with pytest.raises(InvalidSetup) as refused:
            RS.validate_options({}, n)
        assert refused.value.rule == "D5"


def test_D6_D33_the_sheriff_and_his_deputies_win_together_even_dead() -> None:
    t = roll(game(5, life=[11, 1, 0, 0, 0], queue=["shot1", "arrow", "beer", "beer", "beer"]))
    act(t, STOP)
    shoot(t, 1)
    r = RS.result(st(t))
    assert r is not None and r["winners"] == [0, 4]


def test_D7_roles_are_hidden_except_the_sheriffs() -> None:
    t = game(5)
    view = RS.view(st(t), 1)
    assert view["seats"][0]["role"] == "sheriff" and view["seats"][2]["role"] is None
    assert view["role"] == "renegade"
    assert "outlaw_1" in RS.hidden(st(t), 1) and "renegade_1" not in RS.hidden(st(t), 1)


def test_D8_the_sheriff_gets_two_more_life_and_characters_differ() -> None:
    t = Table(RS, 8, seed="chars")
    s = st(t)
    assert len(set(s.characters)) == 8
    sheriff = s.roles.index("sheriff")
    from referee.games.dice.characters import CHARACTERS
    assert s.max_life[sheriff] == CHARACTERS[s.characters[sheriff]] + 2 == s.life[sheriff]


def test_D9_the_sheriff_takes_the_first_turn() -> None:
    t = Table(RS, 6, seed="first")
    assert st(t).turn == st(t).roles.index("sheriff") and st(t).prompt in ("roll", "sid")


def test_D10_D31_turns_pass_clockwise_skipping_the_eliminated() -> None:
    t = roll(game(4, life=[11, 9, 0, 8], queue=["beer", "beer", "beer", "dynamite", "arrow"]))
    act(t, STOP)
    for _ in range(3):
        target(t, "beer", 0)
    assert st(t).turn == 1
    roll(t)
    while st(t).prompt != "roll" or st(t).turn == 1:
        act(t, default(t))
    assert st(t).turn == 3


def test_D11_D12_distance_counts_living_players_only() -> None:
    assert ring_at([0, 1, 2, 3, 4], 0, [2]) == [2, 3]
    assert ring_at([0, 1, 2, 3], 0, [2]) == [2]
    assert ring_at([0, 2, 3, 5], 0, [1]) == [2, 5]


def test_D13_with_three_living_players_a_shot2_hits_next_door() -> None:
    t = roll(game(5, life=[11, 9, 0, 0, 8], queue=["shot2", "beer", "beer", "beer", "beer"]))
    act(t, STOP)
    assert st(t).shot_targets == ((1, 4),)


def test_D14_the_roll_is_the_active_players_first_move() -> None:
    t = game(4)
    assert st(t).prompt == "roll" and RS.legal_moves(st(t), 0) == [{"type": "roll", "saloon": None}, {"type": "resign"}]
    assert RS.legal_moves(st(t), 1) == []


def test_D15_three_rolls_at_most() -> None:
    t = roll(game(4, queue=["beer"] * 5 + ["beer"] * 5 + ["beer"] * 5))
    reroll(t, 1, 2, 3, 4, 5)
    reroll(t, 1, 2, 3, 4, 5)
    assert st(t).rolls == 3 and st(t).prompt == "beer"


def test_D16_dynamite_can_never_be_rerolled() -> None:
    t = roll(game(4, queue=["dynamite", "beer", "beer", "beer", "beer"]))
    with raises_rule("D16", "dynamite_locked"):
        reroll(t, 1, 2)
    assert [1] not in [m.get("dice") for m in RS.legal_moves(st(t), 0)]
    with pytest.raises(MalformedMove):
        act(t, {"type": "reroll", "dice": []})


def test_D17_only_the_dice_rolled_take_immediate_effect() -> None:
    t = roll(game(4, queue=["arrow", "beer", "beer", "beer", "beer", "beer"]))
    assert st(t).arrows[0] == 1
    reroll(t, 2)  # the arrow kept does not count again
    assert st(t).arrows[0] == 1


def test_D18_three_dynamite_end_the_rolling() -> None:
    t = roll(game(4, queue=["dynamite", "dynamite", "dynamite", "beer", "beer"]))
    assert st(t).prompt == "beer" and st(t).life[0] == 10


def test_D19_the_rolling_ends_after_the_last_roll() -> None:
    t = roll(game(4, queue=["beer"] * 15))
    reroll(t, 1)
    reroll(t, 1)
    assert st(t).prompt == "beer"


def test_D20_every_result_is_used() -> None:
    t = roll(game(4, queue=["shot1", "beer", "beer", "beer", "beer"]))
    act(t, STOP)
    assert st(t).prompt == "shoot"
    with raises_rule("D73", "unexpected_move"):
        act(t, STOP)


def test_D21_an_arrow_is_taken_at_once() -> None:
    t = roll(game(4, queue=["arrow", "beer", "beer", "beer", "beer"]))
    assert st(t).arrows == (1, 0, 0, 0) and st(t).prompt == "reroll"


def test_D22_the_last_arrow_brings_the_indian_attack() -> None:
    t = roll(game(4, arrows=[2, 3, 3, 0], queue=["arrow", "beer", "beer", "beer", "beer"]))
    assert st(t).life == (8, 6, 5, 8) and st(t).arrows == (0, 0, 0, 0) and st(t).pile == 9


def test_D23_dynamite_costs_exactly_one_life() -> None:
    t = roll(game(4, queue=["dynamite"] * 5))
    assert st(t).life[0] == 10


def test_D24_shots_hit_together_at_their_distance() -> None:
    t = roll(game(5, queue=["shot1", "shot2", "shot2", "beer", "dynamite"]))
    act(t, STOP)
    assert st(t).shot_targets == ((1, 4), (2, 3), (2, 3))
    with raises_rule("D24", "out_of_range"):
        shoot(t, 2)
    shoot(t, 1)
    shoot(t, 2)
    assert st(t).life[2] == 8
    shoot(t, 2)
    assert st(t).life[1:3] == (8, 6)
    assert [e.data["losses"] for e in t.last if e.type == "life_lost"] == [[[1, 1], [2, 2]]]


def test_D25_a_beer_heals_any_living_player() -> None:
    t = roll(game(4, life=[11, 5, 7, 8], queue=["beer", "beer", "dynamite", "arrow", "arrow"]))
    act(t, STOP)
    target(t, "beer", 1)
    target(t, "beer", 2)
    assert st(t).life[1:3] == (6, 8)


def test_D26_three_gatlings_hit_every_other_player_and_drop_the_arrows() -> None:
    t = roll(game(4, queue=["gatling", "gatling", "gatling", "arrow", "dynamite"]))
    act(t, STOP)
    assert st(t).life == (11, 8, 7, 7) and st(t).arrows[0] == 0


def test_D27_resolution_order_dynamite_shots_beer_gatling() -> None:
    t = roll(game(4, queue=["dynamite", "dynamite", "dynamite", "shot1", "beer", "gatling"]))
    assert st(t).prompt == "shoot" and st(t).life[0] == 10
    shoot(t, 1)
    assert st(t).prompt == "beer"


def test_D28_a_batch_eliminates_clockwise_from_the_active_player() -> None:
    t = roll(game(5, life=[11, 1, 8, 8, 1], options={"ghost": True},
                  queue=["gatling", "gatling", "gatling", "beer", "beer"]))
    act(t, STOP)
    target(t, "beer", 0)
    target(t, "beer", 0)
    deaths = [e.data["seat"] for e in t.last if e.type == "player_eliminated"]
    assert deaths == [1, 4] and st(t).ghost == 1


def test_D29_the_eliminated_reveal_their_role_and_drop_their_arrows() -> None:
    t = roll(game(5, life=[11, 1, 8, 8, 8], arrows=[0, 2, 0, 0, 0],
                  queue=["shot1", "beer", "beer", "beer", "dynamite"]))
    act(t, STOP)
    shoot(t, 1)
    gone = first(t.last, "player_eliminated").data
    assert gone["role"] == "renegade" and gone["role_card"] == "renegade_1"
    assert st(t).arrows[1] == 0 and RS.view(st(t), 2)["seats"][1]["role"] == "renegade"


def test_D30_the_active_player_eliminated_ends_his_turn() -> None:
    t = game(5, turn=2, life=[11, 9, 1, 8, 8], queue=["dynamite", "dynamite", "dynamite", "shot1", "beer"])
    roll(t)
    assert not st(t).alive[2] and st(t).turn == 3 and "shots_planned" not in types(t.last)


def test_D32_the_sheriff_dead_the_outlaws_win() -> None:
    t2 = game(4, turn=3, life=[1, 9, 8, 8], queue=["shot1", "beer", "beer", "beer", "dynamite"])
    roll(t2)
    act(t2, STOP)
    shoot(t2, 0)
    r = RS.result(st(t2))
    assert r is not None and r["winners"] == [2, 3] and RS.legal_moves(st(t2), 0) == []


def test_D32_the_renegade_last_alive_wins_alone() -> None:
    t = game(4, turn=1, life=[1, 9, 0, 0], queue=["shot1", "beer", "beer", "beer", "dynamite"])
    roll(t)
    act(t, STOP)
    shoot(t, 0)
    assert RS.result(st(t))["winners"] == [1]  # type: ignore[index]


def test_D33_every_game_ends_with_one_result() -> None:
    for seed in ("a", "b", "c"):
        t = Table(RS, 6, options={"expansion": True}, seed=seed)
        playout(t, random_chooser(Rng(seed.encode())), pick_seat=Rng(b"p"))
        r = RS.result(st(t))
        assert r is not None and set(r["winners"]) <= set(range(6))


def test_D15_a_scenario_may_start_after_a_roll() -> None:
    t = game(4, roll=2, dice=["shot1", "beer", "arrow", "dynamite", "gatling"], queue=["beer"])
    assert st(t).prompt == "reroll" and st(t).rolls == 2 and st(t).arrows[0] == 0
    reroll(t, 3)
    assert st(t).rolls == 3 and st(t).prompt == "shoot"
    with pytest.raises(InvalidSetup) as refused:
        game(4, roll=1, dice=["dynamite"] * 3 + ["beer", "beer"])
    assert refused.value.rule == "D18"


def test_D21_arrows_still_owed_are_taken_from_the_refilled_pile() -> None:
    t = roll(game(4, arrows=[0, 4, 4, 0], queue=["arrow", "arrow", "beer", "beer", "beer"]))
    assert st(t).life[:3] == (10, 5, 4) and st(t).arrows == (1, 0, 0, 0) and st(t).pile == 8


def test_D30_a_bullet_that_kills_the_roller_ends_his_turn() -> None:
    t = game(5, options={"saloon_dice": True}, turn=1, life=[11, 1, 8, 8, 8],
             queue=["shot1", "beer", "beer", "beer", "bullet"])
    roll(t, "loudmouth")
    assert not st(t).alive[1] and st(t).turn == 2 and st(t).prompt == "roll"
