"""Every ruling of bang.md's appendix and the official FAQ answers it cites."""
from __future__ import annotations

from referee.games.bang import RULESET as R
from referee.games.cards.deck import ALL_CARDS
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
    types,
)


def _fill(exclude: tuple[str, ...]) -> list[str]:
    return [c for c in ALL_CARDS if c not in exclude]


# --- appendix ------------------------------------------------------------------

def test_r9_ruling_failed_jail_skips_the_whole_turn_discard_included():
    t = game(4, in_play={1: ["JAIL-4H"]}, deck=["BANG-AS"],
             hands={1: ["BANG-2D", "BANG-3D", "BANG-4D", "BANG-5D", "BANG-6D", "BANG-7D"]}, life={1: 2})
    end_turn(t, 0)
    assert t.state.turn == 2 and len(hand(t, 1)) == 6


def test_r18_ruling_bang_count_survives_losing_the_volcanic():
    t = game(4, hands={0: ["BANG-AS", "BANG-KH", "REMINGTON-KC"]}, in_play={0: ["VOLCANIC-10C"]})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    play(t, 0, "REMINGTON-KC")
    with raises_rule("R18", "bang_limit"):
        play(t, 0, "BANG-KH", 1)


def test_r26_ruling_saloon_still_heals_with_two_players_alive():
    t = game(4, hands={0: ["SALOON-5H"]}, life={0: 2, 1: 2}, dead=(2, 3))
    play(t, 0, "SALOON-5H")
    assert life(t, 0) == 3 and life(t, 1) == 3


def test_r41_ruling_no_card_at_all_jail_fails_dynamite_does_not_explode():
    cards = _fill(("JAIL-4H", "DYNAMITE-2H"))
    t = game(4, hands={0: cards[:39], 2: cards[39:]}, in_play={1: ["JAIL-4H", "DYNAMITE-2H"]},
             turn=1, phase="start")
    started = [e.data["seat"] for e in t.events if e.type == "turn_started"]
    first_turn = t.events[:[i for i, e in enumerate(t.events) if e.type == "turn_started"][1]]
    assert not any(e.type == "draw_checked" for e in first_turn)  # nothing could be turned
    assert started[:2] == [1, 2]  # the Jail failed: seat 1's turn was skipped
    assert life(t, 1) == 4  # the Dynamite did not explode: it was passed on
    assert "DYNAMITE-2H" in P(t, 2).in_play or "DYNAMITE-2H" in P(t, 3).in_play


def test_r42_ruling_lucky_duke_chosen_card_discarded_last():
    t = game(4, in_play={1: ["DYNAMITE-2H"]}, chars={1: "lucky_duke"},
             deck=["MISSED-2S", "BANG-AS", "BANG-2D", "BANG-3D"])
    end_turn(t, 0)
    t.play(1, {"type": "choose", "card": "BANG-AS"})
    assert t.state.discard == ("MISSED-2S", "BANG-AS") and life(t, 1) == 4


def test_r43_ruling_explicit_pass_and_timeout_defaults():
    t = game(4, hands={0: ["INDIANS-KD"]})
    play(t, 0, "INDIANS-KD")
    assert R.to_act(t.state) == {1} and list(t.legal(1)) == [{"type": "pass"}, {"type": "resign"}]
    assert R.default_move(t.state, 1) == {"type": "pass"}
    t.play(1, present(R.default_move(t.state, 1)))
    assert life(t, 1) == 3
    t2 = game(4, hands={0: ["GENERALSTORE-QS"]}, deck=["BEER-6H", "BEER-7H", "BANG-2D", "BANG-3D"])
    play(t2, 0, "GENERALSTORE-QS")
    d = R.default_move(t2.state, 0)
    assert d is not None and d["type"] == "choose" and d in t2.legal(0)


def test_r44_ruling_wasted_missed_and_jourdonnais_barrel_two_hearts_vs_slab():
    t = game(4, hands={0: ["BANG-AS"]}, chars={0: "slab_the_killer", 1: "jourdonnais"},
             in_play={1: ["BARREL-QS"]}, deck=["BEER-6H", "BEER-7H"])
    play(t, 0, "BANG-AS", 1)
    t.play(1, {"type": "barrel", "source": "BARREL-QS"})
    assert kind(t) == "shot" and prompt(t)["misses"] == 1
    t.play(1, {"type": "barrel", "source": "jourdonnais"})
    assert kind(t) is None and life(t, 1) == 4


def test_r44_ruling_slab_one_barrel_heart_plus_one_missed():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-2S"]}, chars={0: "slab_the_killer"},
             in_play={1: ["BARREL-QS"]}, deck=["BEER-6H"])
    play(t, 0, "BANG-AS", 1)
    t.play(1, {"type": "barrel", "source": "BARREL-QS"})
    assert not any(m["type"] == "barrel" for m in t.legal(1))  # one draw per Barrel (R35)
    respond(t, 1, "MISSED-2S")
    assert life(t, 1) == 4


def test_r45_ruling_multi_target_stops_when_the_game_ends():
    t = game(4, hands={2: ["GATLING-10H"]}, life={0: 1}, turn=2, dead=(1,),
             roles={1: "renegade", 2: "outlaw", 3: "outlaw"})
    play(t, 2, "GATLING-10H")
    pass_(t, 3)
    pass_(t, 0)
    pass_(t, 0)
    assert present(R.result(t.state))["winning_side"] == "outlaws"


def test_r50_ruling_el_gringo_at_last_life_cannot_steal_a_beer():
    t = game(4, hands={0: ["BANG-AS", "BEER-6H"]}, chars={1: "el_gringo"}, life={1: 1})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    assert kind(t) == "dying" and hand(t, 1) == []
    pass_(t, 1)
    assert not P(t, 1).alive and hand(t, 0) == ["BEER-6H"]


def test_r51_ruling_fixed_discard_order_no_move_from_the_dead():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-3S", "MISSED-2S"]}, in_play={1: ["SCOPE-AS"]},
             life={1: 1}, chars={1: "willy_the_kid"})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    pass_(t, 1)
    assert t.state.discard[1:] == ("MISSED-3S", "MISSED-2S", "SCOPE-AS")
    assert R.to_act(t.state) == {0}


def test_r52_ruling_duel_credited_to_the_winning_duellist_whoever_played_it():
    t = game(5, hands={1: ["DUEL-JS"]}, life={1: 1}, turn=1, roles={0: "sheriff", 1: "deputy", 4: "renegade"})
    play(t, 1, "DUEL-JS", 0)
    pass_(t, 0)  # the Sheriff declines first and loses
    assert life(t, 0) == 4
    t2 = game(5, hands={1: ["DUEL-JS"], 0: ["BANG-AS", "BEER-6H"]}, life={1: 1}, turn=1,
              roles={0: "sheriff", 1: "deputy", 4: "renegade"})
    play(t2, 1, "DUEL-JS", 0)
    respond(t2, 0, "BANG-AS")
    pass_(t2, 1)
    pass_(t2, 1)
    # the Sheriff won the Deputy's own Duel: credited, so penalised (R53)
    assert events(t2, "player_eliminated")[0]["by"] == 0
    assert hand(t2, 0) == []


def test_r59_ruling_reshuffle_is_lazy_pedro_takes_the_last_discard():
    rest = _fill(("BEER-6H", "MISSED-2S"))
    t = game(4, hands={0: ["BEER-6H"], 2: rest[:-1]}, discard=[rest[-1], "MISSED-2S"],
             chars={1: "pedro_ramirez"})
    assert t.state.deck == ()
    end_turn(t, 0)
    assert t.legal(1)[1] == {"type": "draw", "source": "discard"}
    t.play(1, {"type": "draw", "source": "discard"})
    assert hand(t, 1)[0] == "MISSED-2S" and "deck_reshuffled" in types(t)


def test_r67_ruling_kit_carlson_with_fewer_than_three_cards_takes_them():
    cards = _fill(("BEER-6H", "BEER-7H"))
    t = game(4, hands={1: cards[:39], 2: cards[39:]}, deck=["BEER-6H", "BEER-7H"], turn=3,
             chars={0: "kit_carlson"})
    end_turn(t, 3)
    assert sorted(hand(t, 0)) == ["BEER-6H", "BEER-7H"] and t.state.phase == "play"


def test_r72_ruling_sid_only_in_his_windows_and_phase_two_not_at_full_life():
    t = game(4, hands={0: ["BANG-AS"], 2: ["BANG-KH", "BANG-QH"]}, chars={2: "sid_ketchum"}, life={2: 2})
    play(t, 0, "BANG-AS", 1)  # a window for seat 1, not for Sid
    with raises_rule("R43", "not_your_turn"):
        t.play(2, {"type": "sid", "cards": ["BANG-KH", "BANG-QH"]})
    t2 = game(4, hands={0: ["BANG-AS"], 1: ["BANG-KH", "BANG-QH"]}, chars={1: "sid_ketchum"}, life={1: 3})
    play(t2, 0, "BANG-AS", 1)
    t2.play(1, {"type": "sid", "cards": ["BANG-KH", "BANG-QH"]})  # in his own shot window
    assert life(t2, 1) == 4 and kind(t2) == "shot"


def test_r74_ruling_suzy_draws_immediately_in_the_middle_of_a_card():
    t = game(4, hands={0: ["INDIANS-KD"], 1: ["BANG-AS"]}, chars={1: "suzy_lafayette"}, deck=["BEER-6H"])
    play(t, 0, "INDIANS-KD")
    respond(t, 1, "BANG-AS")
    assert hand(t, 1) == ["BEER-6H"] and prompt(t)["awaiting"] == [2]


def test_r82_ruling_dynamite_death_in_three_player_game_is_last_man_standing():
    t = game(3, in_play={2: ["DYNAMITE-2H"]}, life={2: 1}, turn=1,
             deck=["MISSED-2S", "BANG-2D", "BANG-3D"], chars={2: "willy_the_kid"})
    end_turn(t, 1)
    pass_(t, 2)
    assert R.result(t.state) is None
    assert not any(e["reason"] == "reward" for e in events(t, "cards_drawn"))


# --- official FAQ answers quoted in the rules --------------------------------------

def test_r17_faq_a_weapon_does_not_allow_panic_at_distance_two():
    t = game(5, hands={0: ["PANIC-JH"], 2: ["BEER-6H"]}, in_play={0: ["VOLCANIC-10S"]})
    with raises_rule("R17"):
        play(t, 0, "PANIC-JH", 2, "hand")


def test_r18_faq_gatling_is_not_a_bang_and_duel_discards_are_not_played():
    t = game(4, hands={0: ["GATLING-10H", "BANG-AS"]})
    play(t, 0, "GATLING-10H")
    for s in (1, 2, 3):
        pass_(t, s)
    play(t, 0, "BANG-AS", 1)
    assert t.state.bangs == 1


def test_r26_faq_saloon_is_not_a_beer_in_a_dying_window():
    t = game(4, hands={0: ["BANG-AS"], 1: ["SALOON-5H"]}, life={1: 1})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    with raises_rule("R25", "not_a_beer"):
        respond(t, 1, "SALOON-5H")


def test_r33_faq_one_missed_stops_each_shot_of_slabs_gatling():
    t = game(4, hands={0: ["GATLING-10H"], 1: ["MISSED-2S"]}, chars={0: "slab_the_killer"})
    play(t, 0, "GATLING-10H")
    respond(t, 1, "MISSED-2S")
    assert prompt(t)["awaiting"] == [2] and life(t, 1) == 4


def test_r49_faq_beer_with_two_players_left_yes_but_no_effect():
    t = game(4, hands={0: ["BEER-6H"]}, life={0: 2}, dead=(2, 3))
    play(t, 0, "BEER-6H")
    assert life(t, 0) == 2


def test_r52_faq_gatling_and_indians_player_is_responsible():
    t = game(4, hands={0: ["INDIANS-KD"]}, life={2: 1}, deck=["BEER-6H", "BEER-7H", "BANG-2D"])
    play(t, 0, "INDIANS-KD")
    pass_(t, 1)
    pass_(t, 2)
    pass_(t, 2)
    assert events(t, "player_eliminated")[0]["by"] == 0
    assert hand(t, 0) == ["BEER-6H", "BEER-7H", "BANG-2D"]


def test_r63_faq_calamity_janet_may_use_missed_in_a_duel():
    t = game(4, hands={0: ["DUEL-JS"], 1: ["MISSED-2S"]}, chars={1: "calamity_janet"})
    play(t, 0, "DUEL-JS", 1)
    respond(t, 1, "MISSED-2S")
    assert prompt(t)["awaiting"] == [0]


def test_r72_faq_sid_uses_his_ability_out_of_turn_like_a_beer():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-2S", "BANG-KH"]}, chars={1: "sid_ketchum"}, life={1: 1})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    t.play(1, {"type": "sid", "cards": ["MISSED-2S", "BANG-KH"]})
    assert life(t, 1) == 1 and P(t, 1).alive


def test_r80_faq_role_and_character_cards_are_never_affected():
    t = game(4, hands={0: ["CATBALOU-KH"]})
    assert not any(m.get("card") == "CATBALOU-KH" for m in t.legal(0))
