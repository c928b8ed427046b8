"""Characters: R61–R76, R81."""
from __future__ import annotations

from referee.games.bang import RULESET as R
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


def test_r61_bart_cassidy_draws_one_card_per_life_lost():
    t = game(4, hands={0: ["BANG-AS"]}, chars={1: "bart_cassidy"}, deck=["BEER-6H", "BEER-7H"])
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    assert hand(t, 1) == ["BEER-6H"]
    t2 = game(4, in_play={1: ["DYNAMITE-2H"]}, chars={1: "bart_cassidy"},
              deck=["MISSED-2S", "BEER-6H", "BEER-7H", "BEER-8H", "BANG-2D", "BANG-3D"])
    end_turn(t2, 0)
    assert hand(t2, 1) == ["BEER-6H", "BEER-7H", "BEER-8H", "BANG-2D", "BANG-3D"]


def test_r62_black_jack_shows_second_card_red_draws_one_more():
    t = game(4, turn=3, chars={0: "black_jack"}, deck=["BANG-2C", "BEER-6H", "MISSED-2S"])
    end_turn(t, 3)
    assert hand(t, 0) == ["BANG-2C", "BEER-6H", "MISSED-2S"]
    shown = events(t, "card_shown")
    assert shown == [{"seat": 0, "card": "BEER-6H", "reason": "black_jack"}]
    t2 = game(4, turn=3, chars={0: "black_jack"}, deck=["BANG-2C", "MISSED-3S", "MISSED-2S"])
    end_turn(t2, 3)
    assert hand(t2, 0) == ["BANG-2C", "MISSED-3S"]
    # the shown card is public: no view or event hides it from others
    assert "MISSED-3S" not in R.hidden(t2.state, 2)


def test_r63_calamity_janet_discards_missed_for_indians_and_duel():
    t = game(4, hands={0: ["INDIANS-KD"], 1: ["MISSED-2S"]}, chars={1: "calamity_janet"})
    play(t, 0, "INDIANS-KD")
    respond(t, 1, "MISSED-2S")
    assert life(t, 1) == 4


def test_r63_calamity_missed_as_bang_counts_toward_the_limit():
    t = game(4, hands={0: ["MISSED-2S", "BANG-AS"]}, chars={0: "calamity_janet"})
    play(t, 0, "MISSED-2S", 1)
    pass_(t, 1)
    with raises_rule("R18", "bang_limit"):
        play(t, 0, "BANG-AS", 1)


def test_r64_el_gringo_takes_a_random_card_per_life_point():
    t = game(4, hands={0: ["BANG-AS", "BEER-6H"]}, chars={1: "el_gringo"})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    assert hand(t, 1) == ["BEER-6H"] and hand(t, 0) == []
    taken = [e for e in t.last if e.type == "card_taken"][0]
    assert taken.data["reason"] == "el_gringo"
    assert present(R.redact(taken, 2)).data.get("card") is None  # R83: taker and loser only
    assert present(R.redact(taken, 0)).data["card"] == "BEER-6H"


def test_r64_el_gringo_nothing_when_he_played_the_duel_himself():
    t = game(4, hands={1: ["DUEL-JS"], 2: ["BANG-AS", "BEER-6H"]}, chars={1: "el_gringo"}, turn=1)
    play(t, 1, "DUEL-JS", 2)
    respond(t, 2, "BANG-AS")
    pass_(t, 1)
    assert life(t, 1) == 2 and hand(t, 1) == [] and hand(t, 2) == ["BEER-6H"]


def test_r64_el_gringo_nothing_for_dynamite():
    t = game(4, in_play={1: ["DYNAMITE-2H"]}, hands={0: ["BEER-6H"]}, chars={1: "el_gringo"},
             life={1: 3}, deck=["MISSED-2S", "BANG-2D", "BANG-3D"])
    end_turn(t, 0)
    assert not any(e["reason"] == "el_gringo" for e in events(t, "card_taken"))


def test_r65_jesse_jones_may_draw_first_card_from_a_hand():
    t = game(4, turn=3, chars={0: "jesse_jones"}, hands={2: ["BEER-6H"]}, deck=["BANG-2D", "BANG-3D"])
    end_turn(t, 3)
    assert kind(t) == "draw_choice"
    assert list(t.legal(0)) == [{"type": "draw", "source": "deck"},
                          {"type": "draw", "source": "hand", "target": 2}, {"type": "resign"}]  # R85
    t.play(0, {"type": "draw", "source": "hand", "target": 2})
    assert hand(t, 0) == ["BEER-6H", "BANG-2D"] and t.state.phase == "play"
    with raises_rule("R65"):
        t2 = game(4, turn=3, chars={0: "jesse_jones"}, hands={2: ["BEER-6H"]})
        end_turn(t2, 3)
        t2.play(0, {"type": "draw", "source": "hand", "target": 1})


def test_r65_jesse_without_anyone_holding_cards_draws_normally():
    t = game(4, turn=3, chars={0: "jesse_jones"}, deck=["BANG-2D", "BANG-3D"])
    end_turn(t, 3)
    assert hand(t, 0) == ["BANG-2D", "BANG-3D"]


def test_r66_jourdonnais_has_a_built_in_barrel():
    t = game(4, hands={0: ["BANG-AS"]}, chars={1: "jourdonnais"}, deck=["BEER-6H"])
    play(t, 0, "BANG-AS", 1)
    t.play(1, {"type": "barrel", "source": "jourdonnais"})
    assert life(t, 1) == 4 and kind(t) is None


def test_r67_kit_carlson_keeps_two_of_three_and_returns_one():
    t = game(4, turn=3, chars={0: "kit_carlson"}, deck=["BANG-2D", "BEER-6H", "MISSED-2S", "BANG-3D"])
    end_turn(t, 3)
    assert kind(t) == "kit"
    assert t.view(1)["pending"]["cards"] == 3  # others see only a count
    assert sorted(prompt(t)["cards"]) == ["BANG-2D", "BEER-6H", "MISSED-2S"]
    t.play(0, {"type": "keep", "cards": ["BEER-6H", "BANG-2D"]})
    assert sorted(hand(t, 0)) == ["BANG-2D", "BEER-6H"] and t.state.deck[0] == "MISSED-2S"
    kept = [e for e in t.last if e.type == "kit_kept"][0]
    assert present(R.redact(kept, 1)).data == {"seat": 0, "kept": 2, "returned": 1}
    assert "MISSED-2S" in R.hidden(t.state, 1) and "MISSED-2S" not in R.hidden(t.state, 0)


def test_r68_lucky_duke_jail_two_cards():
    t = game(4, turn=3, chars={0: "lucky_duke"}, in_play={0: ["JAIL-4H"]}, roles={0: "outlaw", 2: "sheriff"},
             deck=["BANG-2D", "BEER-6H", "BANG-3D", "BANG-4D"])
    end_turn(t, 3)
    assert kind(t) == "lucky"
    t.play(0, {"type": "choose", "card": "BEER-6H"})
    assert t.state.turn == 0 and t.state.phase == "play"
    assert t.state.discard == ("BANG-2D", "BEER-6H", "JAIL-4H")


def test_r69_paul_regret_seen_at_plus_one():
    t = game(4, hands={0: ["BANG-AS"]}, chars={1: "paul_regret"})
    assert not any(m.get("target") == 1 for m in t.legal(0))


def test_r70_pedro_ramirez_may_take_the_top_discard():
    t = game(4, turn=3, chars={0: "pedro_ramirez"}, discard=["MISSED-2S", "BEER-6H"], deck=["BANG-2D"])
    end_turn(t, 3)
    assert list(t.legal(0)) == [{"type": "draw", "source": "deck"}, {"type": "draw", "source": "discard"},
                                {"type": "resign"}]  # R85
    t.play(0, {"type": "draw", "source": "discard"})
    assert hand(t, 0) == ["BEER-6H", "BANG-2D"] and t.state.discard == ("MISSED-2S",)


def test_r70_pedro_with_empty_discard_draws_normally():
    t = game(4, turn=3, chars={0: "pedro_ramirez"}, deck=["BANG-2D", "BANG-3D"])
    end_turn(t, 3)
    assert hand(t, 0) == ["BANG-2D", "BANG-3D"]


def test_r71_rose_doolan_sees_at_minus_one():
    t = game(5, hands={0: ["BANG-AS"]}, chars={0: "rose_doolan"})
    assert sorted(m["target"] for m in t.legal(0) if m.get("card") == "BANG-AS") == [1, 2, 3, 4]


def test_r72_sid_ketchum_discards_two_for_a_life_in_phase_two():
    t = game(4, hands={0: ["BANG-AS", "BANG-KH", "BEER-6H"]}, chars={0: "sid_ketchum"}, life={0: 3})
    t.play(0, {"type": "sid", "cards": ["BANG-AS", "BANG-KH"]})
    assert life(t, 0) == 4 and hand(t, 0) == ["BEER-6H"]


def test_r72_sid_not_at_full_life_and_only_sid():
    t = game(4, hands={0: ["BANG-AS", "BANG-KH"]}, chars={0: "sid_ketchum"})
    with raises_rule("R72", "full_life"):
        t.play(0, {"type": "sid", "cards": ["BANG-AS", "BANG-KH"]})
    t2 = game(4, hands={0: ["BANG-AS", "BANG-KH"]}, life={0: 2})
    with raises_rule("R72", "not_sid_ketchum"):
        t2.play(0, {"type": "sid", "cards": ["BANG-AS", "BANG-KH"]})


def test_r72_sid_saves_himself_when_dying_even_with_two_alive():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-2S", "BANG-KH"]}, chars={1: "sid_ketchum"},
             life={1: 1}, dead=(2, 3))
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    t.play(1, {"type": "sid", "cards": ["BANG-KH", "MISSED-2S"]})
    assert life(t, 1) == 1 and kind(t) is None and P(t, 1).alive


def test_r73_slab_needs_two_missed_but_gatling_needs_one():
    t = game(4, hands={0: ["BANG-AS", "GATLING-10H"], 1: ["MISSED-2S", "MISSED-3S"]},
             chars={0: "slab_the_killer"})
    play(t, 0, "BANG-AS", 1)
    respond(t, 1, "MISSED-2S")
    assert kind(t) == "shot"
    respond(t, 1, "MISSED-3S")
    assert kind(t) is None and life(t, 1) == 4
    play(t, 0, "GATLING-10H")
    assert prompt(t)["needed"] == 1


def test_r74_suzy_draws_when_her_hand_empties_even_mid_duel():
    t = game(4, hands={0: ["DUEL-JS", "BANG-AS"], 1: ["BANG-KH"]}, chars={1: "suzy_lafayette"},
             deck=["BANG-2D", "BEER-6H"])
    play(t, 0, "DUEL-JS", 1)
    respond(t, 1, "BANG-KH")
    assert hand(t, 1) == ["BANG-2D"]  # at once, usable in the same Duel
    respond(t, 0, "BANG-AS")
    respond(t, 1, "BANG-2D")
    assert hand(t, 1) == ["BEER-6H"]
    pass_(t, 0)
    assert life(t, 0) == 4


def test_r74_suzy_playing_her_last_card_draws_before_it_resolves():
    t = game(4, hands={0: ["BANG-AS"]}, chars={0: "suzy_lafayette"}, deck=["BEER-6H"])
    play(t, 0, "BANG-AS", 1)
    assert hand(t, 0) == ["BEER-6H"] and kind(t) == "shot"


def test_r75_vulture_sam_takes_all_cards_of_the_eliminated():
    t = game(4, hands={0: ["BANG-AS"], 1: ["BEER-6H"]}, in_play={1: ["BARREL-QS"]}, life={1: 1},
             chars={3: "vulture_sam", 1: "willy_the_kid"})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    pass_(t, 1)
    assert hand(t, 3) == ["BEER-6H", "BARREL-QS"]
    ev = [e for e in t.last if e.type == "cards_inherited"][0]
    assert present(R.redact(ev, 2)).data["hand"] == 1 and present(R.redact(ev, 2)).data["in_play"] == ["BARREL-QS"]


def test_r76_willy_the_kid_plays_any_number_of_bangs():
    t = game(4, hands={0: ["BANG-AS", "BANG-KH", "BANG-QH"]}, chars={0: "willy_the_kid"})
    for card in ("BANG-AS", "BANG-KH", "BANG-QH"):
        play(t, 0, card, 1)
        pass_(t, 1)
    assert life(t, 1) == 1


def test_r81_abilities_work_out_of_turn():
    t = game(4, hands={1: ["BANG-AS"]}, turn=1, chars={0: "bart_cassidy"}, deck=["BEER-6H"])
    play(t, 1, "BANG-AS", 0)
    pass_(t, 0)
    assert hand(t, 0) == ["BEER-6H"]
