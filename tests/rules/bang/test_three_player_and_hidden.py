"""The 3-player game (R82), hidden information (R83), role and character
cards (R80), a new game (R84)."""
from __future__ import annotations

from referee.games.bang import RULESET as R
from tests.harness import present, scenario
from tests.rules.bang.helpers import P, discard_down, end_turn, game, hand, kind, life, pass_, play, respond


def test_r82_three_player_roles_public_deputy_first_no_bonus_life():
    t = scenario("bang", 3, seed="three")
    roles = sorted(p.role for p in t.state.players)
    assert roles == ["deputy", "outlaw", "renegade"]
    deputy = next(p for p in t.state.players if p.role == "deputy")
    assert t.state.turn == deputy.seat
    assert all(p.max_life == {"el_gringo": 3, "paul_regret": 3}.get(p.character, 4) for p in t.state.players)
    for s in (0, 1, 2, None):
        assert [e["role"] for e in t.view(s)["seats"]] == [p.role for p in t.state.players]


def test_r82_eliminating_your_target_wins_at_once():
    # deputy -> renegade -> outlaw -> deputy
    t = game(3, hands={0: ["BANG-AS"]}, life={2: 1})
    play(t, 0, "BANG-AS", 2)  # the Deputy shoots the Renegade
    pass_(t, 2)
    pass_(t, 2)
    res = present(R.result(t.state))
    assert res["winners"] == [0] and res["reason"] == "target_eliminated"


def test_r82_target_killed_by_someone_else_last_man_standing_and_reward():
    t = game(3, hands={1: ["BANG-AS"]}, life={2: 1}, turn=1, deck=["BEER-6H", "BEER-7H", "BANG-2D"])
    play(t, 1, "BANG-AS", 2)  # the Outlaw kills the Renegade (the Deputy's target)
    pass_(t, 2)
    pass_(t, 2)
    assert R.result(t.state) is None
    assert hand(t, 1) == ["BEER-6H", "BEER-7H", "BANG-2D"]  # any credited elimination draws 3


def test_r82_last_man_standing_wins():
    t = game(3, hands={1: ["BANG-AS"]}, life={2: 1, 1: 1}, turn=1, chars={0: "willy_the_kid"},
             deck=["BEER-6H", "BEER-7H", "BANG-2D", "BANG-3D", "BANG-4D"])
    play(t, 1, "BANG-AS", 2)  # the Outlaw kills the Renegade: Deputy and Outlaw play on
    pass_(t, 2)
    pass_(t, 2)
    end_turn(t, 1)
    discard_down(t, 1)  # 3 cards, life 1: discard 2
    assert t.state.turn == 0 and hand(t, 0) == ["BANG-3D", "BANG-4D"]
    play(t, 0, "BANG-3D", 1)
    pass_(t, 1)
    pass_(t, 1)
    res = present(R.result(t.state))
    assert res["winners"] == [0] and res["reason"] == "last_man_standing"
    assert res["winning_side"] == "deputy"


def test_r82_jail_on_anyone_and_dynamite_death_is_last_man_standing():
    t = game(3, hands={1: ["JAIL-4H"]}, turn=1)
    assert {"type": "play", "card": "JAIL-4H", "target": 0} in t.legal(1)
    t2 = game(3, in_play={2: ["DYNAMITE-2H"]}, life={2: 1}, turn=1,
              deck=["MISSED-2S", "BANG-2D", "BANG-3D"], chars={2: "willy_the_kid"})
    end_turn(t2, 1)
    pass_(t2, 2)
    assert R.result(t2.state) is None and not P(t2, 2).alive


def test_r82_beer_useless_with_two_left():
    t = game(3, hands={0: ["BANG-AS"], 1: ["BEER-6H"]}, life={1: 1}, dead=(2,))
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    respond(t, 1, "BEER-6H")
    assert life(t, 1) == 0 and kind(t) == "dying"


def test_r83_views_show_own_hand_and_counts_of_others():
    t = game(4, hands={0: ["BANG-AS"], 1: ["BEER-6H", "MISSED-2S"]})
    v = t.view(1)
    assert v["hand"] == ["BEER-6H", "MISSED-2S"] and v["role"] == "renegade"
    assert v["seats"][0]["hand"] == 1 and v["seats"][0]["role"] == "sheriff"
    # one's own hidden role is ``role``; ``players`` shows only public roles, alike for every viewer
    assert v["seats"][2]["role"] is None and v["seats"][1]["role"] is None
    assert "BANG-AS" not in str(v)
    spectator = t.view(None)
    assert spectator["hand"] is None and spectator["role"] is None
    assert all(p["role"] in ("sheriff", None) for p in spectator["seats"])


def test_r83_drawn_cards_are_counts_for_others_and_deck_order_never_shown():
    t = scenario("bang", 4, seed="hide")
    for e in t.events:
        for s in (0, 1, 2, 3, None):
            red = present(R.redact(e, s))
            if e.type == "cards_drawn" and e.data["seat"] != s:
                assert "cards" not in red.data or isinstance(red.data["cards"], int)
            if e.type == "game_started":
                assert isinstance(red.data["deck"], int)
                for p in red.data["players"]:
                    if p["seat"] != s:
                        assert isinstance(p["hand"], int)
                        assert p["role"] in ("sheriff", None)


def test_r83_hidden_lists_other_hands_and_the_deck():
    t = game(4, hands={0: ["BANG-AS"], 1: ["BEER-6H"]}, deck=["MISSED-2S"])
    h = R.hidden(t.state, 0)
    assert "BEER-6H" in h and "MISSED-2S" in h and "BANG-AS" not in h
    assert {"BANG-AS", "BEER-6H", "MISSED-2S"} <= R.hidden(t.state, None)


def test_r80_role_and_character_cards_are_never_taken():
    t = game(4, hands={0: ["PANIC-JH"]}, in_play={1: ["BARREL-QS"]})
    picks = [m["pick"] for m in t.legal(0) if m.get("card") == "PANIC-JH" and m["target"] == 1]
    assert picks == ["BARREL-QS"]
    play(t, 0, "PANIC-JH", 1, "BARREL-QS")
    assert P(t, 1).character and P(t, 1).role == "renegade"


def test_r84_a_new_game_can_carry_characters_via_the_scenario():
    # the platform's carry-over (R84) builds on scenario characters
    t = game(4, chars={0: "sid_ketchum", 1: "suzy_lafayette"})
    assert P(t, 0).character == "sid_ketchum" and P(t, 1).character == "suzy_lafayette"


def test_r84_new_game_keeps_survivors_characters_and_deals_the_rest():
    t = scenario("bang", 4, seed="again",
                 options={"characters": ["sid_ketchum", None, "suzy_lafayette", None]})
    chars = [p.character for p in t.state.players]
    assert chars[0] == "sid_ketchum" and chars[2] == "suzy_lafayette"
    assert len(set(chars)) == 4
    assert all(len(p.hand) >= p.life for p in t.state.players)  # hands dealt anew


def test_r84_kept_characters_are_validated():
    import pytest

    from referee.engine.protocol import InvalidSetup
    for bad in (["sid_ketchum"], ["nobody", None, None, None], ["sid_ketchum", "sid_ketchum", None, None]):
        with pytest.raises(InvalidSetup):
            R.validate_options({"characters": bad}, 4)
