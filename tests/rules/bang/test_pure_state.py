"""A pure state (issue 9 item 4): the ``awaiting`` event records domain facts
(R43, R77), ``evolve`` is a plain function of (state, event), and what
``legal_moves`` and ``view`` return does not depend on the game's memo."""
from __future__ import annotations

import copy
import json

import pytest

from referee.engine.protocol import Event
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.bang import RULESET as R
from referee.games.bang.prompts import encode_frame, stack_of
from referee.games.bang.state import State
from referee.games.sim import Table, playout, random_chooser
from tests.rules.bang.helpers import events, game, play


def test_r43_awaiting_event_names_who_acts_and_the_open_prompt() -> None:
    t = game(4, hands={0: ["BANG-AS"]})
    play(t, 0, "BANG-AS", 1)
    (data,) = events(t, "awaiting")
    assert data == {"to_act": [1], "phase": "play", "bangs": 1, "then": [],
                    "prompt": {"kind": "shot", "seat": 1, "shooter": 0, "card": "BANG-AS", "needed": 1,
                               "misses": 0, "barrels_used": [], "missed_played": 0}}


def test_r45_awaiting_event_lists_what_is_still_owed_beneath_the_prompt() -> None:
    t = game(4, hands={0: ["GATLING-10H"]})
    play(t, 0, "GATLING-10H")
    (data,) = events(t, "awaiting")
    assert data["to_act"] == [1] and data["prompt"]["kind"] == "shot"
    assert data["then"] == [{"kind": "targets_left", "source": 0, "card": "GATLING-10H", "targets": [2, 3]}]


def _games() -> list[Table]:
    out = []
    for n, seed in ((4, 1), (5, 2), (7, 3)):
        t = Table(R, n, seed=f"pure-{seed}")
        playout(t, random_chooser(Rng(f"pick-{seed}".encode())), pick_seat=Rng(b"seat"))
        out.append(t)
    return out


@pytest.fixture(scope="module")
def played() -> list[Table]:
    return _games()


def test_r43_awaiting_data_round_trips_through_the_agenda(played: list[Table]) -> None:
    seen = 0
    for t in played:
        for e in t.events:
            if e.type == "awaiting":
                data = json.loads(json.dumps(e.data))
                stack = stack_of(data)  # the engine's agenda, top last
                rest = stack[:-1] if data["prompt"] is not None else stack
                assert data["prompt"] is None or encode_frame(stack[-1]) == data["prompt"]
                assert [encode_frame(f) for f in reversed(rest)] == data["then"]
                seen += 1
    assert seen > 100


def test_r77_evolve_is_a_plain_function_of_state_and_event(played: list[Table]) -> None:
    for t in played:
        state: State | None = None
        for e in t.events:
            before = copy.deepcopy(state)
            twin = Event(e.type, json.loads(json.dumps(e.data)))  # another object, same data
            nxt = R.evolve(state, e)
            assert R.evolve(state, twin) == nxt
            assert state == before  # the input is not changed
            state = nxt
        assert state == t.state


def test_r77_legal_moves_and_views_do_not_depend_on_the_memo() -> None:
    t = Table(R, 5, seed="pure-cache")
    chooser = random_chooser(Rng(b"pure-cache"))

    def step(table: Table) -> None:
        s, memo = table.state, table.memo  # the game's memo, kept from one state to the next
        first = [(R.legal_moves(s, seat, memo=memo), R.view(s, seat, memo=memo)) for seat in range(5)]
        spectator = R.view(s, None, memo=memo)
        fresh = Memo()
        again = [(R.legal_moves(s, seat, memo=fresh), R.view(s, seat, memo=fresh)) for seat in range(5)]
        assert first == again and spectator == R.view(s, None, memo=fresh) == R.view(s, None)
        assert [R.legal_moves(s, seat) for seat in range(5)] == [moves for moves, _ in first]  # none given
        assert all(isinstance(moves, tuple) for moves, _ in again)

    playout(t, chooser, pick_seat=Rng(b"seat"), on_step=step)
