"""FO17–FO31: playing cards on the board."""
from __future__ import annotations

from tests.harness import raises_rule
from tests.rules.faceoff.helpers import game, to_phase3

NEAR = [[7, 3], [8, 3], [7, 5]]  # Sheriff and Outlaw side by side, the Renegade at distance 2


def test_FO17_targets_are_the_other_player_or_the_renegade() -> None:
    t = to_phase3(game(hands=[["DUEL-JS"], [], []]))
    targets = sorted(m["target"] for m in t.legal(0) if m["type"] == "play")
    assert targets == [1, 2]


def test_FO18_second_bang_in_one_turn() -> None:
    t = game(hands=[["BANG-AS", "BANG-QH"], ["MISSED-2S", "MISSED-3S"], []], positions=NEAR)
    to_phase3(t, 0, [[7, 2], [8, 2]])
    t.play(0, {"type": "play", "card": "BANG-AS", "target": 1})
    t.play(1, {"type": "respond", "card": "MISSED-2S"})
    t.play(0, {"type": "play", "card": "BANG-QH", "target": 1})
    t.play(1, {"type": "respond", "card": "MISSED-3S"})
    assert t.state.chars[1].life == 4


def test_FO19_jail_on_the_sheriff_and_phase_4_still_played() -> None:
    t = game(hands=[["BANG-AS"], ["JAIL-10S"], []], sheriff_seat=0, turn=1)
    t.play(1, t.legal(1)[0])
    t.play(1, {"type": "walk", "path": []})
    t.play(1, {"type": "walk", "path": []})
    t.play(1, {"type": "play", "card": "JAIL-10S", "target": 0})
    assert "JAIL-10S" in t.state.chars[0].in_play


def test_FO19_failed_jail_skips_to_discard() -> None:
    hand = ["BANG-AS", "BANG-QH", "BANG-KH", "BANG-AH", "BANG-2D"]
    t = game(hands=[hand, [], []], in_play=[["JAIL-10S"], [], []], brown=["BANG-3D"])
    assert t.state.flow["phase"] == "discard" and t.state.chars[0].pos == (7, 3)
    t.play(0, {"type": "discard", "card": "BANG-AS"})
    assert t.state.flow["active"] == 1
    free = game(in_play=[["JAIL-10S"], [], []], brown=["BEER-6H"])
    assert free.state.flow["phase"] == "move"


def test_FO20_discard_down_to_life() -> None:
    t = to_phase3(game(hands=[["BANG-AS", "BANG-QH", "BANG-KH", "BANG-AH", "BANG-2D"], [], []]))
    t.play(0, {"type": "end_turn"})
    assert t.state.flow["phase"] == "discard"
    with raises_rule("FO20"):
        t.play(0, {"type": "end_turn"})
    t.play(0, {"type": "discard", "card": "BANG-2D"})
    assert t.state.flow["active"] == 1


def test_FO21_path_distance_drives_range_with_modifiers() -> None:
    # Renegade's turn: Outlaw at path 4 (Manhattan 2)
    t = game(hands=[[], [], ["BANG-AS", "SCHOFIELD-KS", "CARABINE-AC"]], turn=2, controller=0,
             positions=[[0, 0], [7, 7], [7, 5]], nuggets=[])
    v = t.view(0)
    assert v["distances"][2][1] == 4
    t.play(0, {"type": "move", "path": [[8, 5], [9, 5]]})
    t.play(0, {"type": "walk", "path": [[8, 5]]})
    t.play(0, {"type": "walk", "path": []})
    assert t.view(0)["distances"][2][1] == 3
    assert not any(m.get("card") == "BANG-AS" and m.get("target") == 1 for m in t.legal(0))
    t.play(0, {"type": "play", "card": "CARABINE-AC"})
    assert {"type": "play", "card": "BANG-AS", "target": 1} in t.legal(0)


def test_FO21_figures_do_not_block_distance_and_mustang_counts() -> None:
    t = game(positions=[[0, 0], [7, 7], [7, 5]], in_play=[[], ["MUSTANG-8H"], []], nuggets=[])
    v = t.view(None)
    assert v["distances"][2][1] == 4 and v["sees_at"][2][1] == 5


def test_FO22_indians_reach_both_others_renegade_answered_by_other_player() -> None:
    t = to_phase3(game(hands=[["INDIANS-KD"], [], []]))
    t.play(0, {"type": "play", "card": "INDIANS-KD"})
    assert t.to_act() == {1}
    top = t.state.flow["stack"][-1]
    assert top["char"] == 1
    t.play(1, {"type": "pass"})
    assert t.state.flow["stack"][-1]["char"] == 2 and t.to_act() == {1}  # the Renegade, by the Outlaw's player
    t.play(1, {"type": "pass"})
    assert [t.state.chars[i].life for i in range(3)] == [4, 3, 3]


def test_FO22_saloon_heals_all_three() -> None:
    t = to_phase3(game(hands=[["SALOON-5H"], [], []], life=[3, 3, 3]))
    t.play(0, {"type": "play", "card": "SALOON-5H"})
    assert [c.life for c in t.state.chars] == [4, 4, 3 + 1]


def test_FO23_beer_always_works() -> None:
    t = to_phase3(game(hands=[["BEER-6H"], [], []], life=[2, 4, 4]))
    t.play(0, {"type": "play", "card": "BEER-6H"})
    assert t.state.chars[0].life == 3


def test_FO24_draws_from_brown_discards_by_colour() -> None:
    t = game(in_play=[["JAIL-10S"], [], []], brown=["BEER-6H"])
    assert t.state.brown_discard == ("BEER-6H",) and t.state.blue_discard == ("JAIL-10S",)


def test_FO25_each_deck_reshuffled_on_its_own() -> None:
    from referee.games.cards.deck import ALL_CARDS, BLUE
    browns = [c for c in ALL_CARDS if c not in BLUE]
    t = game(brown=[], brown_discard=browns[:-3], hands=[browns[-3:], [], []])
    t.play(0, t.legal(0)[0])
    t.play(0, {"type": "draw", "source": "deck"})
    assert any(e.type == "deck_reshuffled" and e.data["deck"] == "brown" for e in t.events)
    assert all(c not in BLUE for c in t.state.brown) and t.state.blue_discard == ()


def test_FO26_general_store_three_cards_last_to_the_renegade() -> None:
    t = to_phase3(game(hands=[["GENERALSTORE-QS"], [], []], brown=["BANG-KD", "BEER-6H", "MISSED-2S"]))
    t.play(0, {"type": "play", "card": "GENERALSTORE-QS"})
    assert sorted(t.state.limbo) == ["BANG-KD", "BEER-6H", "MISSED-2S"] and t.to_act() == {0}
    t.play(0, {"type": "choose", "card": "BEER-6H"})
    assert t.to_act() == {1}
    t.play(1, {"type": "choose", "card": "BANG-KD"})
    assert t.state.chars[2].hand == ("MISSED-2S",) and t.state.limbo == ()


def test_FO27_panic_needs_distance_1_cat_balou_any() -> None:
    t = to_phase3(game(hands=[["PANIC-JH", "CATBALOU-KH"], [], []], in_play=[[], ["BARREL-QS"], []],
                       positions=[[0, 0], [14, 10], [7, 5]], nuggets=[]))
    assert not any(m.get("card") == "PANIC-JH" for m in t.legal(0))
    t.play(0, {"type": "play", "card": "CATBALOU-KH", "target": 1, "pick": "BARREL-QS"})
    assert t.state.blue_discard == ("BARREL-QS",)


def test_FO28_duel_with_the_renegade_answered_by_the_other_player() -> None:
    t = to_phase3(game(hands=[["DUEL-JS"], [], ["BANG-AS"]]))
    t.play(0, {"type": "play", "card": "DUEL-JS", "target": 2})
    assert t.to_act() == {1}
    t.play(1, {"type": "respond", "card": "BANG-AS"})
    assert t.to_act() == {0}
    t.play(0, {"type": "pass"})
    assert t.state.chars[0].life == 3


def test_FO28_no_card_is_played_while_the_active_character_owes_a_duel_answer() -> None:
    """The Duel comes back to its player (FO28, R32): in his own phase 3 he may only answer it, with a
    BANG! or a pass (FO31: R13 per character), until it is over. The move is decided before any
    listing of the seat's moves, as a client's arrives, then the list is checked."""
    t = to_phase3(game(hands=[["DUEL-JS", "BANG-AS", "BARREL-QS", "SCHOFIELD-KS"], ["BANG-QH"], []]))
    t.play(0, {"type": "play", "card": "DUEL-JS", "target": 1})
    t.play(1, {"type": "respond", "card": "BANG-QH"})
    assert t.to_act() == {0} and t.state.flow["phase"] == "play"
    for card in ("BARREL-QS", "SCHOFIELD-KS"):
        with raises_rule("R13", "not_now"):
            t.play(0, {"type": "play", "card": card})
    with raises_rule("R46", "not_now"):  # the Duel's sequence goes on before his turn can end
        t.play(0, {"type": "end_turn"})
    assert t.legal(0) == [{"type": "respond", "card": "BANG-AS"}, {"type": "pass"}]
    t.play(0, {"type": "respond", "card": "BANG-AS"})
    assert t.to_act() == {1}


def test_FO29_weapon_reach_and_replacement() -> None:
    t = to_phase3(game(hands=[["SCHOFIELD-KS", "WINCHESTER-8S"], [], []]))
    t.play(0, {"type": "play", "card": "SCHOFIELD-KS"})
    assert t.view(0)["characters"][0]["reach"] == 2
    t.play(0, {"type": "play", "card": "WINCHESTER-8S"})
    assert t.state.chars[0].in_play == ("WINCHESTER-8S",) and "SCHOFIELD-KS" in t.state.blue_discard


def test_FO30_a_nugget_card_is_an_ordinary_hand_card() -> None:
    t = game(nuggets=[[7, 2]], blue=["BARREL-QS"])
    to_phase3(t, 0, [[7, 2], [7, 1]])
    t.play(0, {"type": "play", "card": "BARREL-QS"})
    assert t.state.chars[0].in_play == ("BARREL-QS",)


def test_FO31_out_of_turn_refused() -> None:
    t = game()
    with raises_rule("FO31", "not_your_turn"):
        t.play(1, {"type": "move", "path": [[7, 8], [7, 9]]})


def test_FO26_general_store_played_by_the_renegade_last_card_to_the_renegade() -> None:
    """Seed §13 over FO26's ruling: "the last card always goes to the Renegade"."""
    t = game(hands=[[], [], ["GENERALSTORE-QS"]], turn=2, controller=0,
             brown=["BANG-KD", "BEER-6H", "MISSED-2S"])
    to_phase3(t, 0)
    t.play(0, {"type": "play", "card": "GENERALSTORE-QS"})
    t.play(0, {"type": "choose", "card": "BEER-6H"})
    assert t.to_act() == {1}
    t.play(1, {"type": "choose", "card": "BANG-KD"})
    assert sorted(t.state.chars[2].hand) == ["BEER-6H", "MISSED-2S"] and t.state.chars[1].hand == ("BANG-KD",)
