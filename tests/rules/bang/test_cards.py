"""Card limits and effects: R18–R40."""
from __future__ import annotations

from tests.harness import present, raises_rule
from tests.rules.bang.helpers import (
    P,
    end_turn,
    events,
    game,
    hand,
    kind,
    life,
    pass_,
    play,
    prompt,
    respond,
)


def test_r18_second_bang_in_a_turn_is_illegal():
    t = game(4, hands={0: ["BANG-AS", "BANG-KH"]})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    with raises_rule("R18", "bang_limit"):
        play(t, 0, "BANG-KH", 1)
    assert not any(m.get("card") == "BANG-KH" for m in t.legal(0))


def test_r18_volcanic_lifts_the_limit():
    t = game(4, hands={0: ["BANG-AS", "BANG-KH"]}, in_play={0: ["VOLCANIC-10S"]})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    play(t, 0, "BANG-KH", 1)
    assert kind(t) == "shot"


def test_r18_the_count_survives_losing_the_volcanic():
    t = game(4, hands={0: ["BANG-AS", "BANG-KH", "SCHOFIELD-KS"]}, in_play={0: ["VOLCANIC-10S"]})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    play(t, 0, "SCHOFIELD-KS")  # the Volcanic is replaced, one BANG! already played
    with raises_rule("R18", "bang_limit"):
        play(t, 0, "BANG-KH", 1)


def test_r18_bangs_discarded_to_indians_or_duel_and_gatling_do_not_count():
    t = game(4, hands={0: ["GATLING-10H", "DUEL-JS", "BANG-AS", "BANG-KH"], 1: ["BANG-QH"]})
    play(t, 0, "GATLING-10H")
    for s in (1, 2, 3):
        pass_(t, s)
    assert t.state.bangs == 0
    play(t, 0, "DUEL-JS", 1)
    respond(t, 1, "BANG-QH")
    respond(t, 0, "BANG-KH")
    pass_(t, 1)
    assert t.state.bangs == 0
    play(t, 0, "BANG-AS", 1)
    assert t.state.bangs == 1


def test_r19_no_two_identical_cards_in_play():
    t = game(4, hands={0: ["BARREL-QS"]}, in_play={0: ["BARREL-KS"]})
    with raises_rule("R19", "duplicate_in_play"):
        play(t, 0, "BARREL-QS")


def test_r19_no_jail_on_a_jailed_player():
    t = game(4, hands={0: ["JAIL-4H"]}, in_play={1: ["JAIL-10S"]})
    with raises_rule("R19", "duplicate_in_play"):
        play(t, 0, "JAIL-4H", 1)


def test_r20_a_new_weapon_replaces_the_old_one():
    t = game(4, hands={0: ["SCHOFIELD-KS", "SCHOFIELD-JC"]}, in_play={0: ["VOLCANIC-10S"]})
    play(t, 0, "SCHOFIELD-KS")
    assert P(t, 0).in_play == ("SCHOFIELD-KS",) and t.state.discard == ("VOLCANIC-10S",)
    play(t, 0, "SCHOFIELD-JC")  # even with the same name
    assert P(t, 0).in_play == ("SCHOFIELD-JC",)


def test_r21_blue_cards_stay_in_play_and_act_at_once():
    t = game(4, hands={0: ["MUSTANG-8H", "BARREL-QS", "GATLING-10H"], 1: ["BANG-AS"]},
             deck=["BEER-6H"])
    play(t, 0, "BARREL-QS")
    assert "BARREL-QS" in P(t, 0).in_play
    assert t.state.discard == ()


def test_r22_brown_cards_are_discarded_even_when_cancelled():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-2S"]})
    play(t, 0, "BANG-AS", 1)
    respond(t, 1, "MISSED-2S")
    assert t.state.discard == ("BANG-AS", "MISSED-2S")
    assert life(t, 1) == 4


def test_r23_bang_hits_unless_missed():
    t = game(4, hands={0: ["BANG-AS"]})
    play(t, 0, "BANG-AS", 1)
    assert prompt(t)["awaiting"] == [1]
    pass_(t, 1)
    assert life(t, 1) == 3


def test_r23_bang_cannot_target_self_or_the_dead():
    t = game(5, hands={0: ["BANG-AS"]}, dead=(1,))
    with raises_rule("R23", "invalid_target"):
        play(t, 0, "BANG-AS", 0)
    with raises_rule("R23", "invalid_target"):
        play(t, 0, "BANG-AS", 1)


def test_r24_missed_cannot_be_played_in_phase_two():
    t = game(4, hands={0: ["MISSED-2S"]})
    with raises_rule("R24", "missed_only_in_response"):
        play(t, 0, "MISSED-2S", 1)


def test_r24_missed_is_useless_against_indians():
    t = game(4, hands={0: ["INDIANS-KD"], 1: ["MISSED-2S"]})
    play(t, 0, "INDIANS-KD")
    with raises_rule("R34", "not_a_bang"):
        respond(t, 1, "MISSED-2S")


def test_r25_beer_heals_one_never_above_max():
    t = game(4, hands={0: ["BEER-6H", "BEER-7H"]}, life={0: 4})
    play(t, 0, "BEER-6H")
    assert life(t, 0) == 5
    play(t, 0, "BEER-7H")  # at full life: allowed, no effect
    assert life(t, 0) == 5


def test_r25_beer_out_of_turn_only_when_dying():
    t = game(4, hands={0: ["BANG-AS"], 1: ["BEER-6H"]}, life={1: 2})
    play(t, 0, "BANG-AS", 1)
    with raises_rule("R24", "not_a_missed"):
        respond(t, 1, "BEER-6H")


def test_r26_saloon_heals_everyone_alive():
    t = game(4, hands={0: ["SALOON-5H"]}, life={0: 3, 1: 2, 3: 4}, dead=(2,),
             roles={2: "outlaw", 3: "outlaw"})
    play(t, 0, "SALOON-5H")
    assert [life(t, s) for s in range(4)] == [4, 3, 0, 4]


def test_r27_stagecoach_draws_two():
    t = game(4, hands={0: ["STAGECOACH-9S-1"]}, deck=["BEER-6H", "BEER-7H", "BANG-2D"])
    play(t, 0, "STAGECOACH-9S-1")
    assert hand(t, 0) == ["BEER-6H", "BEER-7H"]


def test_r28_wells_fargo_draws_three():
    t = game(4, hands={0: ["WELLSFARGO-3H"]}, deck=["BEER-6H", "BEER-7H", "BANG-2D", "BANG-3D"])
    play(t, 0, "WELLSFARGO-3H")
    assert hand(t, 0) == ["BEER-6H", "BEER-7H", "BANG-2D"]


def test_r29_general_store_picks_clockwise_last_card_automatic():
    t = game(4, hands={0: ["GENERALSTORE-QS"]}, turn=1, deck=["BEER-6H", "BEER-7H", "BANG-2D", "MISSED-2S"],
             )
    t = game(4, hands={1: ["GENERALSTORE-QS"]}, turn=1,
             deck=["BEER-6H", "BEER-7H", "BANG-2D", "MISSED-2S"])
    play(t, 1, "GENERALSTORE-QS")
    p = prompt(t)
    assert p["kind"] == "store" and p["awaiting"] == [1] and p["order"] == [1, 2, 3, 0]
    assert sorted(p["cards"]) == sorted(["BEER-6H", "BEER-7H", "BANG-2D", "MISSED-2S"])
    with raises_rule("R43", "not_your_turn"):
        t.play(2, {"type": "choose", "card": "BEER-6H"})
    t.play(1, {"type": "choose", "card": "BEER-6H"})
    t.play(2, {"type": "choose", "card": "MISSED-2S"})
    t.play(3, {"type": "choose", "card": "BANG-2D"})
    assert hand(t, 0) == ["BEER-7H"]  # automatic
    assert kind(t) is None and t.state.turn == 1


def test_r29_general_store_picks_are_public():
    t = game(4, hands={0: ["GENERALSTORE-QS"]}, deck=["BEER-6H", "BEER-7H", "BANG-2D", "MISSED-2S"])
    play(t, 0, "GENERALSTORE-QS")
    for s in (1, 2, None):
        assert sorted(t.view(s)["pending"]["cards"]) == sorted(["BEER-6H", "BEER-7H", "BANG-2D", "MISSED-2S"])


def test_r30_panic_takes_a_random_hand_card_or_a_named_in_play_card():
    t = game(4, hands={0: ["PANIC-JH", "PANIC-QH"], 1: ["BEER-6H"]}, in_play={1: ["BARREL-QS"]})
    legal = [m for m in t.legal(0) if m.get("card") == "PANIC-JH" and m["target"] == 1]
    assert legal == [{"type": "play", "card": "PANIC-JH", "target": 1, "pick": "hand"},
                     {"type": "play", "card": "PANIC-JH", "target": 1, "pick": "BARREL-QS"}]
    play(t, 0, "PANIC-JH", 1, "BARREL-QS")
    assert "BARREL-QS" in hand(t, 0) and P(t, 1).in_play == ()
    play(t, 0, "PANIC-QH", 1, "hand")
    assert "BEER-6H" in hand(t, 0) and hand(t, 1) == []


def test_r30_panic_needs_a_target_with_cards():
    t = game(4, hands={0: ["PANIC-JH"]})
    with raises_rule("R30", "target_has_no_cards"):
        play(t, 0, "PANIC-JH", 1, "hand")


def test_r30_panic_random_card_hidden_from_third_parties():
    t = game(4, hands={0: ["PANIC-JH"], 1: ["BEER-6H"]})
    play(t, 0, "PANIC-JH", 1, "hand")
    from referee.games.bang import RULESET as R
    taken = [e for e in t.last if e.type == "card_taken"][0]
    assert present(R.redact(taken, 2)).data.get("card") is None
    assert present(R.redact(taken, 0)).data["card"] == "BEER-6H"
    assert present(R.redact(taken, 1)).data["card"] == "BEER-6H"


def test_r31_cat_balou_discards_any_distance():
    t = game(7, hands={0: ["CATBALOU-KH"]}, in_play={3: ["MUSTANG-8H"]})
    play(t, 0, "CATBALOU-KH", 3, "MUSTANG-8H")
    assert t.state.discard == ("CATBALOU-KH", "MUSTANG-8H") and P(t, 3).in_play == ()


def test_r32_duel_alternates_starting_with_target_first_to_decline_loses():
    t = game(7, hands={0: ["DUEL-JS", "BANG-AS"], 3: ["BANG-KH", "BANG-QH"]})
    play(t, 0, "DUEL-JS", 3)
    assert prompt(t)["awaiting"] == [3]
    respond(t, 3, "BANG-KH")
    assert prompt(t)["awaiting"] == [0]
    respond(t, 0, "BANG-AS")
    respond(t, 3, "BANG-QH")
    pass_(t, 0)
    assert life(t, 0) == 4 and life(t, 3) == 4
    assert kind(t) is None


def test_r32_missed_useless_in_a_duel():
    t = game(4, hands={0: ["DUEL-JS"], 1: ["MISSED-2S"]})
    play(t, 0, "DUEL-JS", 1)
    with raises_rule("R32", "not_a_bang"):
        respond(t, 1, "MISSED-2S")


def test_r33_gatling_shoots_every_other_player_from_the_left():
    t = game(4, hands={0: ["GATLING-10H"], 2: ["MISSED-2S"]})
    play(t, 0, "GATLING-10H")
    assert prompt(t)["awaiting"] == [1]
    pass_(t, 1)
    assert prompt(t)["awaiting"] == [2]
    respond(t, 2, "MISSED-2S")
    assert prompt(t)["awaiting"] == [3]
    pass_(t, 3)
    assert [life(t, s) for s in range(4)] == [5, 3, 4, 3]


def test_r34_indians_discard_a_bang_or_lose_a_life():
    t = game(4, hands={0: ["INDIANS-KD"], 1: ["BANG-AS"], 2: ["BANG-KH"]})
    play(t, 0, "INDIANS-KD")
    respond(t, 1, "BANG-AS")
    pass_(t, 2)  # declining while holding a BANG!
    pass_(t, 3)
    assert [life(t, s) for s in range(4)] == [5, 4, 3, 3]
    assert t.state.bangs == 0


def test_r35_barrel_heart_is_a_miss():
    t = game(4, hands={0: ["BANG-AS"]}, in_play={1: ["BARREL-QS"]}, deck=["BEER-6H"])
    play(t, 0, "BANG-AS", 1)
    assert {"type": "barrel", "source": "BARREL-QS"} in t.legal(1)
    t.play(1, {"type": "barrel", "source": "BARREL-QS"})
    assert kind(t) is None and life(t, 1) == 4
    assert t.state.discard == ("BANG-AS", "BEER-6H")


def test_r35_barrel_other_suit_then_missed_still_allowed_once_per_shot():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-2S"]}, in_play={1: ["BARREL-QS"]},
             deck=["BANG-2D"])
    play(t, 0, "BANG-AS", 1)
    t.play(1, {"type": "barrel", "source": "BARREL-QS"})
    with raises_rule("R35", "barrel_used"):
        t.play(1, {"type": "barrel", "source": "BARREL-QS"})
    respond(t, 1, "MISSED-2S")
    assert life(t, 1) == 4


def test_r36_scope_only_changes_how_its_holder_sees_others():
    from referee.games.bang.distance import sees_at
    t = game(7, in_play={0: ["SCOPE-AS"]})
    assert sees_at(t.state, 0, 2) == 1 and sees_at(t.state, 2, 0) == 2


def test_r37_mustang_only_changes_how_others_see_its_holder():
    from referee.games.bang.distance import sees_at
    t = game(4, hands={0: ["BANG-AS"]}, in_play={1: ["MUSTANG-8H"]})
    assert sees_at(t.state, 0, 1) == 2 and sees_at(t.state, 1, 0) == 1
    with raises_rule("R16"):
        play(t, 0, "BANG-AS", 1)


def test_r38_jail_not_on_the_sheriff():
    t = game(4, hands={1: ["JAIL-4H"]}, turn=1)
    with raises_rule("R38", "jail_on_sheriff"):
        play(t, 1, "JAIL-4H", 0)


def test_r38_jail_heart_escapes_and_plays_normally():
    t = game(4, in_play={1: ["JAIL-4H"]}, deck=["BEER-6H", "BANG-2D", "BANG-3D"],
             chars={1: "willy_the_kid"})
    end_turn(t, 0)
    assert t.state.turn == 1 and t.state.phase == "play"
    assert t.state.discard == ("BEER-6H", "JAIL-4H")  # the "draw!" card first (R41)
    assert hand(t, 1) == ["BANG-2D", "BANG-3D"]


def test_r38_jailed_player_can_still_respond_out_of_turn():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-2S"]}, in_play={1: ["JAIL-4H"]})
    play(t, 0, "BANG-AS", 1)
    respond(t, 1, "MISSED-2S")
    assert life(t, 1) == 4


def test_r39_dynamite_explodes_on_spades_2_to_9():
    t = game(4, in_play={1: ["DYNAMITE-2H"]}, deck=["MISSED-8S", "BANG-2D", "BANG-3D"],
             chars={1: "willy_the_kid"})
    end_turn(t, 0)
    assert life(t, 1) == 1
    assert "DYNAMITE-2H" in t.state.discard
    assert events(t, "life_lost")[0] == {"seat": 1, "amount": 3, "by": None}


def test_r39_dynamite_passes_left_skipping_the_dead():
    t = game(5, in_play={1: ["DYNAMITE-2H"]}, dead=(2,), deck=["MISSED-10C", "BANG-2D", "BANG-3D"],
             chars={1: "willy_the_kid"})
    end_turn(t, 0)
    assert "DYNAMITE-2H" in P(t, 3).in_play and life(t, 1) == 4


def test_r39_dynamite_is_played_only_in_front_of_oneself():
    t = game(4, hands={0: ["DYNAMITE-2H"]})
    assert [m for m in t.legal(0) if m.get("card") == "DYNAMITE-2H"] == [
        {"type": "play", "card": "DYNAMITE-2H"}]
    play(t, 0, "DYNAMITE-2H")
    assert P(t, 0).in_play == ("DYNAMITE-2H",)


def test_r40_weapons_set_reach_not_distance():
    from referee.games.bang.distance import sees_at
    t = game(7, in_play={0: ["WINCHESTER-8S"]})
    assert sees_at(t.state, 0, 3) == 3
