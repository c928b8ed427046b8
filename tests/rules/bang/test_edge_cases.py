"""Edge cases named by the rules text (R29, R51, R53, R59, R64, R65, R74, R83)."""
from __future__ import annotations

from referee.games.bang import RULESET as R
from referee.games.cards.deck import ALL_CARDS
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
    prompt,
)


def test_r53_vulture_sam_sheriff_takes_the_deputys_cards_then_discards_all():
    t = game(5, hands={0: ["BANG-AS"], 1: ["BEER-6H"]}, in_play={1: ["MUSTANG-8H"], 0: ["SCHOFIELD-KS"]},
             life={1: 1},
             chars={0: "vulture_sam", 1: "willy_the_kid"}, roles={1: "deputy", 4: "renegade"})
    play(t, 0, "BANG-AS", 1)
    pass_(t, 1)
    pass_(t, 1)
    types_ = [e.type for e in t.last]
    assert types_.index("cards_inherited") < types_.index("card_discarded")
    assert P(t, 0).hand == () and P(t, 0).in_play == ()
    assert t.state.discard[-3:] == ("BEER-6H", "MUSTANG-8H", "SCHOFIELD-KS")


def test_r29_fewer_cards_than_players_the_last_get_nothing():
    rest = [c for c in ALL_CARDS if c not in ("GENERALSTORE-QS", "BEER-6H")]
    t = game(4, hands={0: ["GENERALSTORE-QS"], 2: rest}, deck=["BEER-6H"])
    play(t, 0, "GENERALSTORE-QS")
    # the deck had one card and the discard pile only the Store itself: two cards for four players
    p = prompt(t)
    assert p["kind"] == "store" and sorted(p["cards"]) == ["BEER-6H", "GENERALSTORE-QS"]
    t.play(0, {"type": "choose", "card": "BEER-6H"})
    assert hand(t, 1) == ["GENERALSTORE-QS"] and kind(t) is None
    assert hand(t, 3) == [] and t.state.limbo == ()


def test_r64_el_gringo_steals_from_the_player_of_the_duel_he_lost():
    t = game(4, hands={0: ["DUEL-JS", "BEER-6H"]}, chars={1: "el_gringo"})
    play(t, 0, "DUEL-JS", 1)
    pass_(t, 1)
    assert hand(t, 1) == ["BEER-6H"] and life(t, 1) == 2


def test_r64_el_gringo_takes_what_there_is():
    t = game(4, in_play={1: ["DYNAMITE-2H"]}, chars={1: "el_gringo"}, hands={0: ["GATLING-10H"]},
             life={1: 3})
    play(t, 0, "GATLING-10H")
    pass_(t, 1)  # the Gatling's player has no card left: nothing to take
    assert hand(t, 1) == [] and life(t, 1) == 2


def test_r65_jesse_jones_card_is_visible_to_jesse_and_the_loser_only():
    t = game(4, turn=3, chars={0: "jesse_jones"}, hands={2: ["BEER-6H"]}, deck=["BANG-2D", "BANG-3D"])
    end_turn(t, 3)
    t.play(0, {"type": "draw", "source": "hand", "target": 2})
    taken = [e for e in t.last if e.type == "card_taken"][0]
    assert present(R.redact(taken, 1)).data.get("card") is None
    assert present(R.redact(taken, None)).data.get("card") is None
    assert (present(R.redact(taken, 2)).data["card"] == "BEER-6H"
            and present(R.redact(taken, 0)).data["card"] == "BEER-6H")
    assert "BEER-6H" not in R.hidden(t.state, 2) and "BEER-6H" in R.hidden(t.state, 1)


def test_r74_suzy_with_nothing_to_draw_waits_for_the_next_emptying():
    rest = [c for c in ALL_CARDS if c not in ("BANG-AS", "BEER-6H")]
    t = game(4, hands={1: ["BANG-AS"], 2: rest}, chars={1: "suzy_lafayette"}, turn=1, deck=["BEER-6H"])
    play(t, 1, "BANG-AS", 2)  # hand empty: draws the last deck card at once
    assert hand(t, 1) == ["BEER-6H"]


def test_r83_black_jack_shown_card_public_first_card_private():
    t = game(4, turn=3, chars={0: "black_jack"}, deck=["BANG-2C", "MISSED-3S", "MISSED-2S"])
    end_turn(t, 3)
    drawn = [e for e in t.last if e.type == "cards_drawn"][0]
    assert present(R.redact(drawn, 1)).data == {"seat": 0, "cards": 2, "reason": "draw"}
    assert "BANG-2C" in R.hidden(t.state, 1) and "MISSED-3S" not in R.hidden(t.state, 1)


def test_r43_default_moves_for_every_prompt_are_legal():
    t = game(4, turn=3, chars={0: "kit_carlson"}, deck=["BANG-2D", "BEER-6H", "MISSED-2S", "BANG-3D"])
    end_turn(t, 3)
    assert R.default_move(t.state, 0) == {"type": "keep", "cards": ["BANG-2D", "BEER-6H"]}
    t2 = game(4, turn=3, chars={0: "pedro_ramirez"}, discard=["BEER-6H"])
    end_turn(t2, 3)
    assert R.default_move(t2.state, 0) == {"type": "draw", "source": "deck"}
    t3 = game(4, hands={0: ["BANG-AS"]}, in_play={1: ["BARREL-QS"]}, chars={1: "lucky_duke"},
              deck=["BANG-2D", "BEER-6H"])
    play(t3, 0, "BANG-AS", 1)
    assert R.default_move(t3.state, 1) == {"type": "pass"}  # no Barrel draw by default
    t3.play(1, {"type": "barrel", "source": "BARREL-QS"})
    assert R.default_move(t3.state, 1) == {"type": "choose", "card": "BANG-2D"}


def test_r51_dead_player_is_never_awaited_and_duel_ends_with_him():
    t = game(4, hands={0: ["DUEL-JS"]}, life={1: 1}, chars={1: "willy_the_kid"},
             deck=["BEER-6H", "BEER-7H", "BANG-2D"])
    play(t, 0, "DUEL-JS", 1)
    pass_(t, 1)
    pass_(t, 1)
    assert not P(t, 1).alive and R.to_act(t.state) == {0} and kind(t) is None
    assert events(t, "player_eliminated")[0]["by"] == 0
