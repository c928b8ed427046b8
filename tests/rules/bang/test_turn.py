"""The turn: R8–R13, the deck and the discard pile R59–R60, decisions R77."""
from __future__ import annotations

import pytest

from referee.engine.protocol import IllegalMove, MalformedMove, OutOfTurn
from referee.games.bang import RULESET as R
from tests.harness import raises_rule
from tests.rules.bang.helpers import P, discard_down, end_turn, events, game, hand, kind, play, types


def test_r8_turn_outline_start_checks_then_draw_then_play():
    t = game(4, turn=3, phase="play", deck=["BANG-2D", "BANG-3D", "BEER-6H", "MISSED-2S"],
             chars={0: "willy_the_kid"})
    end_turn(t, 3)
    assert t.state.turn == 0 and t.state.phase == "play"
    assert hand(t, 0) == ["BANG-2D", "BANG-3D"]


def test_r9_dynamite_is_checked_before_jail():
    t = game(4, turn=3, in_play={0: ["DYNAMITE-2H", "JAIL-4H"]}, roles={0: "outlaw", 2: "sheriff"},
             deck=["BANG-AS", "BEER-6H", "BANG-2D", "BANG-3D"])
    end_turn(t, 3)
    checks = events(t, "draw_checked")
    assert [c["reason"] for c in checks] == ["dynamite", "jail"]
    # the Dynamite (A♠: no explosion) passed on before the Jail check; Jail escaped on a Heart
    assert "DYNAMITE-2H" in P(t, 1).in_play
    assert t.state.turn == 0 and t.state.phase == "play"


def test_r9_failed_jail_skips_the_whole_turn_including_discard():
    t = game(4, in_play={1: ["JAIL-4H"]},
             hands={1: ["BANG-4D", "BANG-5D", "BANG-6D", "BANG-7D", "BANG-8D", "BANG-9D"]},
             deck=["BANG-AS", "BANG-2D", "BANG-3D"], turn=0)
    end_turn(t, 0)
    # seat 1 is jailed: draws "draw!" A♠ (no Heart) and the turn goes straight to seat 2
    assert t.state.turn == 2
    assert len(hand(t, 1)) == 6  # no draw, no discard despite 6 cards > 4 life
    assert "JAIL-4H" in t.state.discard and "JAIL-4H" not in P(t, 1).in_play


def test_r10_draw_phase_draws_two_from_the_top():
    t = game(4, turn=0, phase="start", deck=["BEER-6H", "BEER-7H", "BANG-2D"],
             chars={0: "willy_the_kid"})
    assert hand(t, 0) == ["BEER-6H", "BEER-7H"]
    assert t.state.phase == "play"


def test_r11_play_phase_ends_only_by_the_players_end_turn():
    t = game(4, hands={0: ["BEER-6H"]})
    assert R.to_act(t.state) == {0}
    assert {"type": "end_turn"} in t.legal(0)
    play(t, 0, "BEER-6H")
    assert t.state.turn == 0 and t.state.phase == "play"


def test_r12_discard_exactly_the_excess_down_to_life_one_card_at_a_time():
    t = game(4, hands={1: ["BANG-2D", "BANG-3D", "BANG-4D", "BANG-5D", "BANG-6D"]}, life={1: 3}, turn=1)
    end_turn(t, 1)
    assert t.state.phase == "discard" and kind(t) == "discard"
    with raises_rule("R12", "wrong_discard_count"):  # RULING: one card per move
        t.play(1, {"type": "discard", "cards": ["BANG-2D", "BANG-3D"]})
    with raises_rule("R12", "discard_required"):
        end_turn(t, 1)
    t.play(1, {"type": "discard", "cards": ["BANG-6D"]})
    assert t.state.phase == "discard" and t.state.turn == 1  # one more to go
    t.play(1, {"type": "discard", "cards": ["BANG-2D"]})
    assert hand(t, 1) == ["BANG-3D", "BANG-4D", "BANG-5D"]  # down to life: no more, no less
    assert t.state.discard[-2:] == ("BANG-6D", "BANG-2D")
    assert t.state.turn == 2


def test_r12_no_discard_phase_when_hand_within_limit():
    t = game(4, hands={0: ["BANG-2D"]}, life={0: 1})
    end_turn(t, 0)
    assert t.state.turn == 1


def test_r12_discard_moves_list_every_card_in_hand():
    t = game(4, hands={1: ["BANG-2D", "BANG-3D", "BANG-4D"]}, life={1: 1}, turn=1)
    end_turn(t, 1)
    assert list(t.legal(1)) == [*({"type": "discard", "cards": [c]} for c in ["BANG-2D", "BANG-3D", "BANG-4D"]),
                                {"type": "resign"}]  # R85
    assert R.default_options(t.state, 1) == t.legal(1)[:-1]  # R43: the timeout draws one of them, never R85


def test_r12_regression_a_huge_hand_has_few_discard_moves():
    # every set of the excess was C(hand, life) moves: 40 cards at life 4 made 91,390 of them
    from referee.games.cards.deck import ALL_CARDS
    t = game(4, hands={0: [c for c in ALL_CARDS if c != "BEER-6H"][:40]}, deck=["BEER-6H"])
    end_turn(t, 0)
    assert len([m for m in t.legal(0) if m["type"] == "discard"]) == 40


def test_r13_out_of_turn_player_cannot_play_cards():
    t = game(4, hands={1: ["BEER-6H"]}, life={1: 2})
    with raises_rule("R11", "not_your_turn"):
        play(t, 1, "BEER-6H")


def test_r13_no_phase2_card_inside_a_window():
    t = game(4, hands={0: ["BANG-AS"], 1: ["BEER-6H"]}, life={1: 2})
    play(t, 0, "BANG-AS", 1)
    with raises_rule("R13", "not_now"):
        play(t, 1, "BEER-6H")


def test_r59_empty_deck_reshuffles_the_discard_pile_lazily():
    # the deck holds exactly 0 cards beyond the hands: put everything in the discard pile
    from referee.games.cards.deck import ALL_CARDS
    rest = [c for c in ALL_CARDS if c not in ("BEER-6H",)]
    t = game(4, hands={0: ["BEER-6H"]}, discard=rest, chars={1: "willy_the_kid"})
    assert t.state.deck == ()
    end_turn(t, 0)
    assert "deck_reshuffled" in types(t)
    assert len(hand(t, 1)) == 2 and len(t.state.deck) == 77 and t.state.discard == ()


def test_r59_draw_with_nothing_left_draws_what_there_is():
    from referee.games.cards.deck import ALL_CARDS
    others = [c for c in ALL_CARDS if c != "BEER-6H"]
    t = game(4, hands={0: others[:40], 2: others[40:]}, deck=["BEER-6H"], chars={1: "willy_the_kid"})
    # seat 0 discards down to 5: those cards are the discard pile, reshuffled for seat 1's 2nd card
    t.play(0, {"type": "end_turn"})
    discard_down(t, 0)
    assert hand(t, 1)[0] == "BEER-6H" and len(hand(t, 1)) == 2
    assert "deck_reshuffled" in types(t)


def test_r60_discard_pile_is_public_in_every_view():
    t = game(4, hands={0: ["BEER-6H"]}, life={0: 3})
    play(t, 0, "BEER-6H")
    for s in (0, 1, None):
        assert t.view(s)["discard"] == ["BEER-6H"]


def test_r77_malformed_moves_are_refused_before_rules():
    t = game(4, hands={0: ["BANG-AS"]})
    for bad in ({"type": "fly"}, {"card": "BANG-AS"}, {"type": "play"},
                {"type": "play", "card": "BANG-AS", "target": True},
                {"type": "play", "card": "BANG-AS", "target": 1, "extra": 1},
                {"type": "play", "card": "BEER-6H", "target": 1},
                {"type": "play", "card": "PANIC-JH", "target": 1},
                {"type": "end_turn", "now": True}, {"type": "discard", "cards": "BANG-AS"},
                {"type": "sid", "cards": ["BANG-AS"]}, {"type": "play", "card": "NOPE"},
                {"type": "draw", "source": "hand"}, "pass"):
        with pytest.raises(MalformedMove) as e:
            t.play(0, bad)  # type: ignore[arg-type]
        assert e.value.code == "malformed_move"


def test_r77_the_system_timeout_is_refused_no_clock_in_bang():
    t = game(4)
    assert R.deadline(t.state) is None
    with raises_rule("R77", "no_deadline"):
        t.play(None, {"type": "timeout"})
    with pytest.raises(OutOfTurn):
        t.play(None, {"type": "end_turn"})
    with raises_rule("R77", "system_command"):
        t.play(0, {"type": "timeout"})


def test_r77_default_move_ends_phase_two():
    t = game(4, hands={0: ["BANG-AS"]})
    assert R.default_move(t.state, 0) == {"type": "end_turn"}
    assert R.default_move(t.state, 1) is None


def test_r77_moves_after_the_end_are_game_over():
    t = game(4, hands={0: ["BANG-AS"]}, life={1: 1}, roles={1: "outlaw", 2: "outlaw", 3: "renegade"},
             dead=(2, 3))
    play(t, 0, "BANG-AS", 1)
    t.play(1, {"type": "pass"})
    t.play(1, {"type": "pass"})  # dying window: no Beer
    assert R.result(t.state) is not None
    with raises_rule("R57", "game_over"):
        end_turn(t, 0)
    assert R.legal_moves(t.state, 0) == () and R.to_act(t.state) == set()


def test_r11_illegal_move_never_changes_state():
    t = game(4, hands={0: ["BANG-AS"]})
    before = t.state
    with pytest.raises(IllegalMove):
        play(t, 0, "BANG-AS", 2)  # distance 2, reach 1
    assert t.state is before
