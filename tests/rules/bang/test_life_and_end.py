"""Life, dying, elimination, penalties and rewards, end of game: R47–R58
(seed 002 is the authority for death, penalties, rewards and the end)."""
from __future__ import annotations

from referee.games.bang import RULESET as R
from tests.harness import present
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
    respond,
)


def test_r47_dynamite_is_one_hit_of_three():
    t = game(4, in_play={1: ["DYNAMITE-2H"]}, life={1: 2}, hands={1: ["BEER-6H", "BEER-7H"]},
             deck=["MISSED-2S", "BANG-2D", "BANG-3D"], chars={1: "willy_the_kid"})
    end_turn(t, 0)
    assert events(t, "life_lost") == [{"seat": 1, "amount": 3, "by": None}]
    assert life(t, 1) == -1 and kind(t) == "dying"


def test_r48_dying_player_needs_enough_beers_to_reach_one():
    t = game(4, in_play={1: ["DYNAMITE-2H"]}, life={1: 2}, hands={1: ["BEER-6H", "BEER-7H"]},
             deck=["MISSED-2S", "BANG-2D", "BANG-3D"], chars={1: "willy_the_kid"})
    end_turn(t, 0)
    respond(t, 1, "BEER-6H")
    assert life(t, 1) == 0 and kind(t) == "dying"
    respond(t, 1, "BEER-7H")
    assert life(t, 1) == 1
    # survived his own Dynamite: the turn goes on to phase 1 and 2
    assert t.state.turn == 1 and t.state.phase == "play" and hand(t, 1) == ["BANG-2D", "BANG-3D"]


def test_r48_pass_while_dying_eliminates_and_life_is_zero():
    t = game(4, hands={0: ["BANG-AS"], 1: ["BEER-6H"]}, life={1: 1})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    pass_(t, 1)
    assert not P(t, 1).alive and life(t, 1) == 0


def test_r48_saloon_cannot_be_played_when_dying():
    t = game(4, hands={0: ["BANG-AS"], 1: ["SALOON-5H"]}, life={1: 1})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    assert list(t.legal(1)) == [{"type": "pass"}, {"type": "resign"}]  # R85: he may resign


def test_r49_beer_has_no_effect_with_two_players_alive():
    t = game(4, hands={0: ["BANG-AS"], 1: ["BEER-6H"]}, life={1: 1}, dead=(2, 3),
             roles={1: "renegade", 2: "outlaw", 3: "outlaw"})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    assert {"type": "respond", "card": "BEER-6H"} in t.legal(1)
    respond(t, 1, "BEER-6H")
    assert life(t, 1) == 0 and kind(t) == "dying"


def test_r50_bart_cassidy_draws_only_if_he_survives():
    t = game(4, hands={0: ["BANG-AS"]}, life={1: 1}, chars={1: "bart_cassidy"}, deck=["BEER-6H"])
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    pass_(t, 1)
    assert not P(t, 1).alive and t.state.deck[0] == "BEER-6H"


def test_r51_cards_discarded_hand_first_then_in_play():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-2S", "BEER-6H"]}, in_play={1: ["BARREL-QS", "JAIL-4H"]},
             life={1: 1}, chars={1: "willy_the_kid"})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    pass_(t, 1)
    assert t.state.discard == ("BANG-AS", "MISSED-2S", "BEER-6H", "BARREL-QS", "JAIL-4H")
    assert P(t, 1).hand == () and P(t, 1).in_play == ()
    elim = events(t, "player_eliminated")[0]
    assert elim == {"seat": 1, "role": "renegade", "by": 0}


def test_r51_role_of_the_dead_is_revealed_to_all():
    t = game(4, hands={0: ["BANG-AS"]}, life={1: 1})
    assert t.view(2)["seats"][1]["role"] is None
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    pass_(t, 1)
    assert t.view(2)["seats"][1]["role"] == "renegade"


def test_r51_active_player_eliminated_turn_passes_left():
    t = game(4, hands={1: ["DUEL-JS"], 2: ["BANG-AS"]}, life={1: 1}, turn=1,
             chars={2: "willy_the_kid"}, deck=["BEER-6H", "BEER-7H"])
    play(t, 1, "DUEL-JS", 2)
    respond(t, 2, "BANG-AS")
    pass_(t, 1)
    pass_(t, 1)
    assert not P(t, 1).alive and t.state.turn == 2 and t.state.phase == "play"


def test_r52_duel_elimination_is_credited_to_the_winner():
    t = game(4, hands={2: ["DUEL-JS"], 1: ["BANG-AS"]}, life={2: 1}, turn=2,
             roles={1: "outlaw", 2: "outlaw", 3: "renegade"}, deck=["BEER-6H", "BEER-7H", "BANG-2D"])
    play(t, 2, "DUEL-JS", 1)
    respond(t, 1, "BANG-AS")
    pass_(t, 2)
    pass_(t, 2)
    assert events(t, "player_eliminated")[0]["by"] == 1
    # the winner eliminated an Outlaw: reward (R54)
    assert hand(t, 1) == ["BEER-6H", "BEER-7H", "BANG-2D"]


def test_r52_dynamite_credits_nobody():
    t = game(4, in_play={3: ["DYNAMITE-2H"]}, life={3: 1}, turn=2, deck=["MISSED-2S", "BANG-2D"],
             roles={3: "outlaw", 2: "outlaw", 1: "renegade"}, chars={3: "willy_the_kid"})
    end_turn(t, 2)
    pass_(t, 3)
    assert events(t, "player_eliminated")[0]["by"] is None
    assert not any(e["reason"] == "reward" for e in events(t, "cards_drawn"))


def test_r53_sheriff_eliminating_a_deputy_discards_everything():
    t = game(5, hands={0: ["BANG-AS", "BEER-6H"]}, in_play={0: ["BARREL-QS"]}, life={1: 1},
             roles={1: "deputy", 4: "renegade"})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    pass_(t, 1)
    assert P(t, 0).hand == () and P(t, 0).in_play == ()
    assert t.state.turn == 0 and t.state.phase == "play"  # he keeps playing his turn


def test_r54_anyone_eliminating_an_outlaw_draws_three_even_an_outlaw():
    t = game(4, hands={2: ["BANG-AS"]}, life={3: 1}, turn=2, deck=["BEER-6H", "BEER-7H", "BANG-2D"],
             in_play={2: ["SCHOFIELD-KS"]})
    play(t, 2, "BANG-AS", 3)
    pass_(t, 3)
    pass_(t, 3)
    assert P(t, 2).role == "outlaw" and hand(t, 2) == ["BEER-6H", "BEER-7H", "BANG-2D"]


def test_r55_sheriff_dies_outlaws_win_even_all_dead():
    # seed 002 example 2: Sheriff killed with a Deputy and the Renegade alive, all Outlaws dead
    t = game(5, hands={1: ["BANG-AS"]}, life={0: 1}, turn=1, dead=(2, 3),
             roles={1: "renegade", 2: "outlaw", 3: "outlaw", 4: "deputy"})
    play(t, 1, "BANG-AS", 0)
    pass_(t, 0)
    pass_(t, 0)
    res = present(R.result(t.state))
    assert res["winning_side"] == "outlaws" and res["winners"] == [2, 3]
    assert res["reason"] == "sheriff_dead"
    assert {s["seat"]: s["outcome"] for s in res["seats"]} == {0: "loss", 1: "loss", 2: "win", 3: "win", 4: "loss"}


def test_r55_renegade_alone_with_the_sheriff_wins_if_the_sheriff_dies():
    t = game(4, hands={1: ["BANG-AS"]}, life={0: 1}, turn=1, dead=(2, 3))
    play(t, 1, "BANG-AS", 0)
    pass_(t, 0)
    pass_(t, 0)
    res = present(R.result(t.state))
    assert res["winning_side"] == "renegade" and res["winners"] == [1]


def test_r56_all_outlaws_and_renegade_dead_sheriff_and_deputies_win():
    t = game(5, hands={0: ["BANG-AS"]}, life={1: 1}, dead=(2, 3), roles={4: "deputy"})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    pass_(t, 1)
    res = present(R.result(t.state))
    assert res["winning_side"] == "sheriff" and res["winners"] == [0, 4]
    assert res["reason"] == "outlaws_and_renegade_dead"
    assert t.state.phase == "over" and R.to_act(t.state) == set()


def test_r57_all_outlaws_dead_renegade_alive_game_goes_on():
    # seed 002 example 1
    t = game(4, hands={0: ["BANG-AS"]}, life={3: 1}, dead=(2,), roles={1: "renegade"},
             in_play={0: ["SCHOFIELD-KS"]})
    play(t, 0, "BANG-AS", 3)
    pass_(t, 3)
    pass_(t, 3)
    assert R.result(t.state) is None and t.state.turn == 0


def test_r57_gatling_deaths_in_seat_order_decide_the_winner():
    # the Renegade's Gatling, Sheriff and one Outlaw left at 1 life each
    t1 = game(4, hands={1: ["GATLING-10H"]}, life={0: 1, 2: 1}, turn=1, dead=(3,))
    play(t1, 1, "GATLING-10H")
    pass_(t1, 2)  # the Outlaw is on the Renegade's left: resolved first
    pass_(t1, 2)
    assert R.result(t1.state) is None
    pass_(t1, 0)
    pass_(t1, 0)
    assert present(R.result(t1.state))["winning_side"] == "renegade"
    t2 = game(4, hands={1: ["GATLING-10H"]}, life={0: 1, 2: 1}, turn=1, dead=(3,),
              roles=["outlaw", "renegade", "sheriff", "outlaw"])
    play(t2, 1, "GATLING-10H")
    pass_(t2, 2)  # now the Sheriff is resolved first
    pass_(t2, 2)
    res = present(R.result(t2.state))
    assert res["winning_side"] == "outlaws"
    assert not any(e.type == "shot" for e in t2.last)


def test_r58_result_lists_every_role_and_outcome():
    t = game(4, hands={0: ["BANG-AS"]}, life={1: 1}, dead=(2, 3))
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    pass_(t, 1)
    res = present(R.result(t.state))
    assert set(res) == {"winners", "seats", "reason", "winning_side", "detail"}
    assert res["detail"].endswith("(R56).")
    assert [s["role"] for s in res["seats"]] == ["sheriff", "renegade", "outlaw", "outlaw"]
    assert [s["alive"] for s in res["seats"]] == [True, False, False, False]
    assert t.view(1)["seats"][2]["role"] == "outlaw"  # all roles public at the end
    assert t.view(None)["result"] == res
