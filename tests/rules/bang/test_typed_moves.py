"""BANG!'s moves as typed frozen values (``referee.games.bang.moves``, issue
37 item 5): one class a move type, and every legal move read once at the
boundary gives back, as JSON, exactly the move a client sent."""
from __future__ import annotations

from typing import Any

import pytest

from referee.engine.moves import TypedMove
from referee.engine.protocol import MalformedMove
from referee.engine.rng import Rng
from referee.games.bang import RULESET as R
from referee.games.bang.moves import MOVE_SCHEMAS, MOVES, SHAPES, from_checked, parse
from referee.games.cards.moves import Draw, Play, Sid
from referee.games.sim import Table, playout, random_chooser


def test_r77_every_move_type_has_one_typed_class() -> None:
    assert MOVES.types() == sorted(SHAPES) == sorted(MOVE_SCHEMAS)


def test_r11_a_play_is_written_back_as_every_typed_move_is() -> None:
    for play in (Play(card="BEER-6H"), Play(card="BANG-AS", target=0), Play(card="PANIC-JH", target=3, pick="hand")):
        assert play.to_json() == TypedMove.to_json(play)
        assert list(play.to_json()) == list(TypedMove.to_json(play))


def test_r11_a_play_reads_as_its_class_with_what_it_left_out_none() -> None:
    assert parse({"type": "play", "card": "BEER-6H"}) == Play(card="BEER-6H")
    assert parse({"type": "play", "card": "PANIC-JH", "target": 2, "pick": "hand"}) == \
        Play(card="PANIC-JH", target=2, pick="hand")
    assert parse({"type": "sid", "cards": ["BEER-6H", "BEER-7H"]}) == Sid(cards=("BEER-6H", "BEER-7H"))
    assert from_checked({"type": "draw", "source": "deck"}) == Draw(source="deck")


#: one move of every type, as a client sends it
EVERY_TYPE: list[dict[str, Any]] = [
    {"type": "play", "card": "CATBALOU-KH", "target": 1, "pick": "hand"},
    {"type": "sid", "cards": ["BEER-6H", "BEER-7H"]},
    {"type": "end_turn"}, {"type": "discard", "cards": ["BANG-AS"]}, {"type": "draw", "source": "hand", "target": 2},
    {"type": "keep", "cards": ["BANG-AS", "MISSED-2S"]}, {"type": "choose", "card": "BEER-8H"},
    {"type": "barrel", "source": "jourdonnais"}, {"type": "respond", "card": "MISSED-3S"}, {"type": "pass"},
    {"type": "timeout"}, {"type": "resign"},
]


def test_r77_the_examples_cover_every_type() -> None:
    assert sorted(move["type"] for move in EVERY_TYPE) == MOVES.types()


@pytest.mark.parametrize("move", EVERY_TYPE, ids=lambda move: move["type"])
def test_r77_each_move_type_is_read_as_the_table_reads_it(move: dict[str, Any]) -> None:
    assert parse(move) == from_checked(move) == MOVES.read(move)
    assert parse(move).to_json() == move


def test_r65_the_checks_no_schema_states_still_refuse() -> None:
    with pytest.raises(MalformedMove, match="a target is given exactly with source 'hand'"):
        from_checked({"type": "draw", "source": "hand"})
    with pytest.raises(MalformedMove, match="needs a target"):
        from_checked({"type": "play", "card": "BANG-AS"})


@pytest.mark.parametrize("players", [3, 5, 7])
def test_r43_every_legal_move_reads_as_its_class_and_back(players: int) -> None:
    table = Table(R, players, seed=f"typed-{players}")
    seen: set[str] = set()

    def read_back(played: Table) -> None:
        for seat in R.to_act(played.state, memo=played.memo):
            for move in R.legal_moves(played.state, seat, memo=played.memo):
                typed = parse(move)
                assert type(typed) is MOVES.by_type[move["type"]]
                assert typed.to_json() == move and from_checked(move) == typed == MOVES.read(move)
                seen.add(move["type"])

    playout(table, random_chooser(Rng(b"typed")), pick_seat=Rng(b"seat"), on_step=read_back)
    assert {"play", "end_turn", "pass"} <= seen
