"""Resigning (R85): an elimination with nobody to blame (R51), the end
checked as for any death (R55–R57, R82), never a default (R43)."""
from __future__ import annotations

from typing import cast

from referee.engine import vocabulary
from referee.engine.protocol import seat_view
from referee.games.bang import RULESET as R
from referee.games.bang import BangRuleset
from tests.harness import present, raises_rule
from tests.rules.bang.helpers import P, end_turn, events, game, hand, kind, play, types

RESIGN = {"type": "resign"}


def resign(t, seat):
    return t.play(seat, dict(RESIGN))


def test_r85_resign_mid_turn_eliminates_him_and_passes_the_turn():
    t = game(4, hands={1: ["BANG-2D", "BEER-6H"]}, in_play={1: ["BARREL-QS"]}, turn=1,
             deck=["MISSED-2S", "MISSED-3S", "MISSED-4S"])
    assert t.legal(1)[-1] == RESIGN  # listed last in his phase 2
    resign(t, 1)
    assert types(t)[:3] == ["player_resigned", "player_eliminated", "card_discarded"]
    assert events(t, "player_eliminated") == [{"seat": 1, "role": "renegade", "by": None}]
    assert events(t, "card_discarded") == [{"seat": 1, "cards": ["BANG-2D", "BEER-6H", "BARREL-QS"],
                                            "reason": "eliminated"}]
    assert not P(t, 1).alive and t.state.turn == 2 and R.to_act(t.state) == {2}
    assert t.view(0)["seats"][1]["role"] == "renegade"  # revealed as the dead are (R51 step 1)
    assert t.view(0)["last"] == {"kind": "resigned", "seat": 1}
    for _ in range(12):  # a resigned seat is never awaited again
        seat = min(R.to_act(t.state))
        assert seat != 1 and t.legal(1) == ()
        if R.result(t.state) is not None:
            break
        end_turn(t, seat) if t.state.phase == "play" else t.play(seat, present(R.default_move(t.state, seat)))


def test_r85_resign_in_phase_3():
    t = game(4, hands={0: ["BANG-2D", "BANG-3D"]}, life={0: 1}, turn=0)
    end_turn(t, 0)
    assert t.state.phase == "discard" and t.legal(0)[-1] == RESIGN
    resign(t, 0)  # the Sheriff: his resignation ends the game as his death does (R55)
    assert present(R.result(t.state))["reason"] == "sheriff_dead"


def test_r85_resign_while_answering_a_shot_closes_the_window_and_pays_no_reward():
    t = game(4, hands={0: ["BANG-AS"], 3: ["MISSED-2S"]}, deck=["BEER-6H", "BEER-7H", "BEER-8H"])
    play(t, 0, "BANG-AS", 3)
    assert kind(t) == "shot" and t.legal(3) == ({"type": "respond", "card": "MISSED-2S"}, {"type": "pass"}, RESIGN)
    resign(t, 3)  # an Outlaw, but nobody killed him: no reward (R54)
    assert events(t, "player_eliminated") == [{"seat": 3, "role": "outlaw", "by": None}]
    assert "cards_drawn" not in types(t) and hand(t, 0) == []
    assert kind(t) is None and R.to_act(t.state) == {0} and t.state.phase == "play"  # his turn goes on


def test_r85_resign_while_dying_is_credited_as_his_death():
    t = game(4, hands={0: ["BANG-AS"]}, life={3: 1}, deck=["BEER-6H", "BEER-7H", "BEER-8H"])
    play(t, 0, "BANG-AS", 3)
    t.play(3, {"type": "pass"})
    assert kind(t) == "dying" and t.legal(3)[-1] == RESIGN
    resign(t, 3)
    assert events(t, "player_eliminated") == [{"seat": 3, "role": "outlaw", "by": 0}]
    assert events(t, "cards_drawn") == [{"seat": 0, "cards": ["BEER-6H", "BEER-7H", "BEER-8H"],
                                         "reason": "reward"}]  # R54, as had he passed


def test_r85_resign_in_a_duel_ends_the_duel_with_no_loser():
    t = game(4, hands={0: ["DUEL-JS"], 1: ["BANG-2D"]})
    play(t, 0, "DUEL-JS", 1)
    assert kind(t) == "duel" and t.legal(1)[-1] == RESIGN
    resign(t, 1)
    assert "life_lost" not in types(t) and kind(t) is None and R.to_act(t.state) == {0}


def test_r85_the_sheriffs_resignation_ends_the_game_and_the_result_says_so():
    t = game(4, hands={0: ["BANG-AS"]}, turn=0)
    resign(t, 0)
    res = present(R.result(t.state))
    assert res["reason"] == "sheriff_dead" and res["winners"] == [2, 3] and res["winning_side"] == "outlaws"
    assert res["seats"][0]["outcome"] == "loss" and not res["seats"][0]["alive"]
    assert res["detail"].endswith("(R55).")
    assert R.to_act(t.state) == set() and t.legal(0) == ()


def test_r85_a_resigned_deputy_still_wins_with_his_side():
    t = game(5, hands={0: ["GATLING-10H"]}, life={1: 1, 2: 1, 3: 1}, turn=4)
    resign(t, 4)  # the Deputy resigns in his phase 2; the Sheriff plays next
    assert not P(t, 4).alive and t.state.turn == 0 and R.result(t.state) is None
    play(t, 0, "GATLING-10H")
    for seat in (1, 2, 3):
        assert R.to_act(t.state) == {seat}
        t.play(seat, {"type": "pass"})
        t.play(seat, {"type": "pass"})  # dying, no Beer
    res = present(R.result(t.state))
    assert res["winning_side"] == "sheriff" and res["winners"] == [0, 4]
    assert res["seats"][4] == {"seat": 4, "role": "deputy", "outcome": "win", "alive": False}


def test_r85_not_while_picking_from_cards_turned_up():
    t = game(4, hands={0: ["GENERALSTORE-QS"]}, deck=["BEER-6H", "BEER-7H", "BANG-2D", "MISSED-2S"])
    play(t, 0, "GENERALSTORE-QS")
    assert kind(t) == "store" and RESIGN not in t.legal(0)
    with raises_rule("R85", "not_now"):
        resign(t, 0)


def test_r85_resign_is_never_a_default():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-2S"]})
    assert RESIGN not in R.default_options(t.state, 0) and R.default_move(t.state, 0) != RESIGN
    play(t, 0, "BANG-AS", 1)
    assert RESIGN in t.legal(1) and R.default_options(t.state, 1) == ({"type": "pass"},)
    assert t.view(0)["pending"]["default"] == [{"seat": 1, "move": {"type": "pass"}}]


def test_r85_views_keep_the_one_vocabulary_after_a_resignation():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-2S"]})
    play(t, 0, "BANG-AS", 1)
    resign(t, 1)
    words = vocabulary.Lexicon(cast(BangRuleset, R).catalogue(), R.text_keys)
    for seat in (None, 0, 1, 2, 3):
        assert vocabulary.view_problems(words, seat_view(R, t.state, seat), 4) == []
    for event in t.last:
        assert vocabulary.event_problems(words, event) == []
