"""'draw!' and windows: R41–R46, R79."""
from __future__ import annotations

from referee.games.bang import RULESET as R
from referee.games.cards.deck import ALL_CARDS
from tests.harness import raises_rule
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


def test_r41_draw_card_goes_to_the_discard_pile_not_a_hand():
    t = game(4, hands={0: ["BANG-AS"]}, in_play={1: ["BARREL-QS"]}, deck=["BEER-6H"])
    play(t, 0, "BANG-AS", 1)
    t.play(1, {"type": "barrel", "source": "BARREL-QS"})
    assert hand(t, 1) == [] and t.state.discard[-1] == "BEER-6H"
    assert events(t, "draw_checked") == [{"seat": 1, "cards": ["BEER-6H"], "card": "BEER-6H",
                                          "reason": "barrel", "from": "deck"}]


def test_r41_no_card_at_all_fails_for_barrel():
    # every card is in some hand or in play: deck and discard pile are empty
    cards = [c for c in ALL_CARDS if c not in ("BANG-AS", "BARREL-QS")]
    t = game(4, hands={0: ["BANG-AS"] + cards[:39], 2: cards[39:]}, in_play={1: ["BARREL-QS"]})
    play(t, 0, "BANG-AS", 1)
    # the BANG! itself is on the discard pile: the "draw!" reshuffles and turns it
    t.play(1, {"type": "barrel", "source": "BARREL-QS"})
    assert events(t, "draw_checked")[0]["card"] == "BANG-AS"
    pass_(t, 1)
    assert life(t, 1) == 3


def test_r41_dynamite_with_no_card_does_not_explode():
    cards = [c for c in ALL_CARDS if c != "DYNAMITE-2H"]
    t = game(4, hands={0: cards[:30], 1: cards[30:60], 2: cards[60:]}, in_play={3: ["DYNAMITE-2H"]},
             life={0: 5}, turn=3, chars={3: "willy_the_kid"})
    end_turn(t, 3)  # seat 3 holds nothing; turn goes to 0
    assert t.state.turn == 0


def test_r42_lucky_duke_turns_two_and_chooses():
    t = game(4, hands={0: ["BANG-AS"]}, in_play={1: ["BARREL-QS"]}, chars={1: "lucky_duke"},
             deck=["BANG-2D", "BEER-6H"])
    play(t, 0, "BANG-AS", 1)
    t.play(1, {"type": "barrel", "source": "BARREL-QS"})
    p = prompt(t)
    assert p["kind"] == "lucky" and sorted(p["cards"]) == ["BANG-2D", "BEER-6H"]
    assert "moves" not in p and list(t.legal(1)) == [{"type": "choose", "card": "BANG-2D"},
                                                     {"type": "choose", "card": "BEER-6H"}]
    t.play(1, {"type": "choose", "card": "BEER-6H"})
    assert life(t, 1) == 4 and kind(t) is None
    # the card not chosen first, the chosen card on top
    assert t.state.discard == ("BANG-AS", "BANG-2D", "BEER-6H")


def test_r42_lucky_duke_one_card_left_is_the_result():
    cards = [c for c in ALL_CARDS if c not in ("BANG-AS", "BARREL-QS", "BEER-6H")]
    t = game(4, hands={0: ["BANG-AS"] + cards[:40], 2: cards[40:]}, in_play={1: ["BARREL-QS"]},
             chars={1: "lucky_duke"}, deck=["BEER-6H"])
    play(t, 0, "BANG-AS", 1)
    t.play(1, {"type": "barrel", "source": "BARREL-QS"})
    # BEER-6H turned, then the reshuffled discard pile (BANG-AS): two cards, he chooses
    assert kind(t) == "lucky"


def test_r42_lucky_duke_with_a_single_card_to_turn_gets_no_choice_it_is_the_result():
    # Deck one card, discard pile empty: the one card turned decides at once, even a bad one (no
    # window of one card: Lucky Duke chooses only between two).
    cards = [c for c in ALL_CARDS if c not in ("JAIL-4H", "BANG-AS")]
    t = game(4, hands={0: cards[:39], 2: cards[39:]}, in_play={1: ["JAIL-4H"]}, chars={1: "lucky_duke"},
             deck=["BANG-AS"], turn=1, phase="start")
    first_turn = t.events[1:[i for i, e in enumerate(t.events) if e.type == "turn_started"][1]]
    assert [(e.type, e.data) for e in first_turn] == [
        ("turn_started", {"seat": 1}),
        ("cards_revealed", {"seat": 1, "cards": ["BANG-AS"], "reason": "lucky_duke"}),
        ("draw_checked", {"seat": 1, "cards": ["BANG-AS"], "card": "BANG-AS", "reason": "jail", "from": "limbo"}),
        ("card_discarded", {"seat": 1, "cards": ["JAIL-4H"], "reason": "jail"}),
    ]
    assert t.state.turn == 2 and t.state.limbo == ()  # not a Heart: the Jail held, his turn was skipped


def test_r42_lucky_duke_with_no_card_to_turn_fails_his_draw_as_r41_rules():
    cards = [c for c in ALL_CARDS if c != "JAIL-4H"]
    t = game(4, hands={0: cards[:40], 2: cards[40:]}, in_play={1: ["JAIL-4H"]}, chars={1: "lucky_duke"},
             turn=1, phase="start")
    first_turn = t.events[:[i for i, e in enumerate(t.events) if e.type == "turn_started"][1]]
    assert [e.type for e in first_turn] == ["game_started", "turn_started", "card_discarded"]
    assert t.state.turn == 2  # nothing turned: the Jail held (R41's ruling)


def test_r43_window_waits_for_an_explicit_pass_even_with_an_empty_hand():
    t = game(4, hands={0: ["BANG-AS"]})
    play(t, 0, "BANG-AS", 1)
    assert hand(t, 1) == [] and R.to_act(t.state) == {1}
    assert list(t.legal(1)) == [{"type": "pass"}, {"type": "resign"}]  # and R85
    assert R.default_move(t.state, 1) == {"type": "pass"}


def test_r43_only_the_awaited_player_may_act():
    t = game(4, hands={0: ["BANG-AS"], 2: ["MISSED-2S"]})
    play(t, 0, "BANG-AS", 1)
    with raises_rule("R43", "not_your_turn"):
        respond(t, 2, "MISSED-2S")
    with raises_rule("R43", "not_your_turn"):
        end_turn(t, 0)


def test_r43_windows_nest_dying_inside_gatling_finishes_first():
    t = game(4, hands={0: ["GATLING-10H"], 1: ["BEER-6H"]}, life={1: 1})
    play(t, 0, "GATLING-10H")
    pass_(t, 1)
    assert kind(t) == "dying" and prompt(t)["awaiting"] == [1]
    respond(t, 1, "BEER-6H")
    assert kind(t) == "shot" and prompt(t)["awaiting"] == [2]


def test_r44_barrel_draws_come_before_the_first_missed():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-2S"]}, in_play={1: ["BARREL-QS"]},
             chars={0: "slab_the_killer"})
    play(t, 0, "BANG-AS", 1)
    respond(t, 1, "MISSED-2S")
    with raises_rule("R44", "barrel_after_missed"):
        t.play(1, {"type": "barrel", "source": "BARREL-QS"})


def test_r44_wasted_missed_stays_discarded_against_slab():
    t = game(4, hands={0: ["BANG-AS"], 1: ["MISSED-2S"]}, chars={0: "slab_the_killer"})
    play(t, 0, "BANG-AS", 1)
    assert prompt(t)["needed"] == 2
    respond(t, 1, "MISSED-2S")
    assert kind(t) == "shot"
    pass_(t, 1)
    assert life(t, 1) == 3 and "MISSED-2S" in t.state.discard


def test_r44_barrel_stops_being_offered_once_cancelled():
    t = game(4, hands={0: ["BANG-AS"]}, in_play={1: ["BARREL-QS"]}, chars={1: "jourdonnais"},
             deck=["BEER-6H", "BEER-7H"])
    play(t, 0, "BANG-AS", 1)
    assert [m for m in t.legal(1) if m["type"] == "barrel"] == [
        {"type": "barrel", "source": "BARREL-QS"}, {"type": "barrel", "source": "jourdonnais"}]
    t.play(1, {"type": "barrel", "source": "jourdonnais"})
    assert kind(t) is None and life(t, 1) == 4
    assert t.state.deck[0] == "BEER-7H"  # no second draw once the shot is cancelled


def test_r45_gatling_resolves_target_by_target_from_the_left():
    t = game(5, hands={2: ["GATLING-10H"]}, turn=2)
    play(t, 2, "GATLING-10H")
    order = []
    while kind(t) == "shot":
        who = prompt(t)["awaiting"][0]
        order.append(who)
        pass_(t, who)
    assert order == [3, 4, 0, 1]


def test_r46_duel_loss_is_resolved_before_the_duel_finishes():
    t = game(4, hands={0: ["DUEL-JS"], 1: ["BEER-6H"]}, life={1: 1})
    play(t, 0, "DUEL-JS", 1)
    pass_(t, 1)
    assert kind(t) == "dying"
    respond(t, 1, "BEER-6H")
    assert kind(t) is None and life(t, 1) == 1 and t.state.turn == 0


def test_r79_saloon_and_general_store_order_from_the_active_player():
    t = game(4, hands={2: ["GENERALSTORE-QS"]}, turn=2, deck=["BEER-6H", "BEER-7H", "BANG-2D", "MISSED-2S"])
    play(t, 2, "GENERALSTORE-QS")
    assert prompt(t)["order"] == [2, 3, 0, 1]


def test_r63_calamity_janet_bang_as_missed_and_missed_as_bang():
    t = game(4, hands={0: ["MISSED-2S"], 1: ["BANG-AS"]}, chars={0: "calamity_janet", 1: "willy_the_kid"})
    play(t, 0, "MISSED-2S", 1)  # a Missed! played as BANG!
    assert t.state.bangs == 1 and kind(t) == "shot"
    pass_(t, 1)
    assert life(t, 1) == 3
    t2 = game(4, hands={0: ["BANG-AS"], 1: ["BANG-KH"]}, chars={1: "calamity_janet"})
    play(t2, 0, "BANG-AS", 1)
    respond(t2, 1, "BANG-KH")
    assert life(t2, 1) == 4
    assert P(t2, 1).hand == ()
