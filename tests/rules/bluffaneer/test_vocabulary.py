"""One vocabulary (issue 24 item 1): symbols lower case (F2), the last roll
in the view (F9), a result's reason code and sentence (F28, F29), and v1's
logs read in today's words (the legacy BluffaneerV1)."""
from __future__ import annotations

from typing import cast

from referee.engine.protocol import Event
from referee.games import registry
from referee.games.bluffaneer import Bluffaneer
from referee.games.bluffaneer.legacy import V1_REASON, BluffaneerV1
from referee.games.bluffaneer.symbols import CARD_IDS, DEFAULT_DIE_FACES
from tests.rules.bluffaneer.helpers import CHALLENGE, CLAIM, PASS, ROLL, game, only

RULES = registry.get("bluffaneer")


def test_f2_symbols_are_lower_case_and_card_ids_stay_catalogue_ids() -> None:
    cat = cast(Bluffaneer, RULES).catalogue()
    assert [s["id"] for s in cat["symbols"]] == ["chest", "sword", "ship", "skull"]
    assert cat["dice"][0]["faces"] == list(DEFAULT_DIE_FACES) == ["chest", "ship", "sword", "sword", "skull", "skull"]
    assert [c["id"] for c in cat["cards"]] == list(CARD_IDS) and CARD_IDS[0] == "CHEST-SWORD-1"
    assert cat["cards"][0]["symbols"] == ["chest", "sword"]
    assert RULES.validate_options({}, 3)["die_faces"] == list(DEFAULT_DIE_FACES)


def test_f9_the_last_roll_stays_in_the_view_after_a_double_ends_the_turn() -> None:
    given = game(3, dice=["chest", "chest"]).play(0, ROLL)
    view = given.view(1)
    assert view["turn"] == 1 and view["dice"] == ["chest", "chest"]
    assert view["last"] == {"kind": "dice_rolled", "seat": 0, "dice": ["chest", "chest"]}
    assert view["pending"]["kind"] == "roll" and view["pending"]["default"] == [{"seat": 1, "move": ROLL}]


def test_f23_last_shows_the_revealed_card_of_a_challenge() -> None:
    given = game(3, cards=[["chest", "sword"], ["ship", "skull"]], dice=["ship", "skull"])
    given.play(0, ROLL, now=10).play(1, CLAIM, now=20)
    assert given.view(0)["last"] == {"kind": "claimed", "seat": 1}
    given.play(2, PASS, now=30).play(0, CHALLENGE)
    last = given.view(2)["last"]
    assert last["kind"] == "card_revealed" and last["seat"] == 1 and last["symbols"] == ["ship", "skull"]
    assert last["matches"] is True


def test_f28_the_result_gives_a_reason_code_and_a_sentence() -> None:
    given = game(3, coins=[10, 1, 10], dice=["chest", "chest"], flips=[0]).play(0, ROLL)
    result = RULES.result(given.state)
    assert result is not None and result["reason"] == "last_coin_lost"
    assert "F28" in result["detail"] and result["winners"] == [0]


def test_v1_logs_are_read_in_todays_words_and_written_back_byte_for_byte() -> None:
    old = BluffaneerV1(RULES)
    given = game(3, coins=[10, 1, 10], dice=["chest", "chest"]).play(0, ROLL)
    for event in [*given.events, *given.last]:
        assert old.event_up(old.event_down(event)) == event
    rolled = old.event_down(only(given.last, "dice_rolled"))
    assert rolled.data["dice"] == ["CHEST", "CHEST"]
    ended = old.event_down(only(given.last, "game_ended"))
    assert ended.data["reason"] == V1_REASON
    assert old.event_up(Event("card_revealed", {"seat": 0, "card": "SHIP-SKULL-1", "symbols": ["SHIP", "SKULL"],
                                                 "rule": "F16", "matches": True})).data["symbols"] == ["ship", "skull"]
    assert old.options_up({"die_faces": ["CHEST", "SHIP", "SWORD", "SWORD", "SKULL", "SKULL"]})["die_faces"] == \
        list(DEFAULT_DIE_FACES)
    result = old.result(given.state)
    assert result is not None and result["reason"] == V1_REASON and "detail" not in result
