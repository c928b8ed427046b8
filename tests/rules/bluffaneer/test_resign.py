"""Resigning: F34 (issue 24 item 5). The resigner pays all his coins into
the box and the game ends at once as F28-F30 say."""
from __future__ import annotations

from referee.games import registry
from tests.harness import raises_rule
from tests.rules.bluffaneer.helpers import (
    CLAIM,
    PASS,
    RESIGN,
    ROLL,
    game,
    only,
    state,
    steal,
    types,
)

RULES = registry.get("bluffaneer")
CARDS = [["chest", "sword"], ["ship", "skull"], ["chest", "ship"], ["chest", "ship"]]


def window(players: int = 3, coins: list[int] | None = None):
    """Seat 0 rolled ship+skull holding chest+sword: the claim window is open (t=1000)."""
    return game(players, cards=CARDS[:players], coins=coins, dice=["ship", "skull"]).play(0, ROLL, now=1000)


def test_f34_every_awaited_seat_may_resign_and_it_is_never_a_default() -> None:
    given = game(3)
    assert RESIGN in given.legal(0) and given.legal(1) == []
    assert RULES.default_move(given.state, 0) == ROLL
    opened = window(3)
    assert all(RESIGN in opened.legal(s) for s in (1, 2)) and opened.legal(0) == []
    assert "resign" in RULES.move_schemas and RULES.move_schemas["resign"]["x-rule"] == "F34"


def test_f34_resign_mid_turn_before_the_roll_ends_the_game() -> None:
    given = game(3, coins=[5, 10, 8])
    given.play(0, RESIGN)
    assert types(given.last) == ["resigned", "coins_moved", "game_ended"]
    moved = only(given.last, "coins_moved").data
    assert moved == {"rule": "F34", "transfers": [{"from": 0, "to": None, "owed": 5, "amount": 5}]}
    end = only(given.last, "game_ended").data
    assert end["reason"] == "resigned" and end["zero"] == [0] and end["winner"] == 1
    assert state(given).coins == (0, 10, 8) and given.to_act() == set()
    assert RULES.invariants(given.state) == []


def test_f34_resign_while_naming_a_steal_target() -> None:
    given = game(3, coins=[10, 4, 6], dice=["sword", "sword"]).play(0, ROLL)
    assert RESIGN in given.legal(0) and steal(1) in given.legal(0)
    given.play(0, RESIGN)
    assert state(given).coins == (0, 4, 6) and only(given.last, "game_ended").data["winner"] == 2


def test_f34_resign_while_reacting_in_the_claim_window_lapses_the_window() -> None:
    given = window(3)
    given.play(1, CLAIM, now=1100)
    with raises_rule("F33", "not_your_turn"):  # seat 1 has answered: not awaited now
        given.play(1, RESIGN)
    given.play(2, RESIGN, now=1200)
    assert types(given.last) == ["resigned", "coins_moved", "game_ended"]
    assert RULES.deadline(given.state) is None and given.to_act() == set()
    assert given.view(0)["pending"] is None and given.view(0)["last"] == {"kind": "resigned", "seat": 2}


def test_f34_resign_while_deciding_on_a_claim() -> None:
    given = window(3)
    given.play(1, CLAIM, now=1100).play(2, PASS, now=1200)
    assert given.to_act() == {0}
    given.play(0, RESIGN)
    result = RULES.result(given.state)
    assert state(given).coins[0] == 0 and result is not None and result["reason"] == "resigned"


def test_f34_the_resigner_loses_and_a_tie_among_the_others_is_flipped() -> None:
    given = game(3, coins=[10, 7, 7], flips=[1])
    given.play(0, RESIGN)
    result = RULES.result(given.state)
    assert result is not None and result["reason"] == "resigned"
    assert [s["outcome"] for s in result["seats"]] == ["loss", "loss", "win"]
    assert result["winners"] == [2] and result["tied"] == [1, 2] and result["flip"] == 1
    assert "F34" in result["detail"] and "F30" in result["detail"]
    assert state(given).box == 50 - 7 - 7


def test_f34_no_move_after_a_resignation() -> None:
    given = game(3).play(0, RESIGN)
    with raises_rule("F33", "game_over"):
        given.play(1, RESIGN)
