"""Random legal play to the end (STYLE.md §5): invariants, legal moves and
leak checks after every step, for 3..6 players over many seeds."""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.protocol import Event, fold
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.bluffaneer.state import TOTAL_COINS, State
from referee.games.bluffaneer.symbols import CARD_IDS, SYMBOLS
from referee.games.sim import Table, playout, random_chooser
from tests.harness import text_of

RULES = registry.get("bluffaneer")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def leaks(obj: Any, hidden: set[str]) -> list[str]:
    text = text_of(obj)
    return [card for card in hidden if card in text]


def check_events(before: State, events: list[Event], players: int) -> None:
    """Each event, as each seat receives it, names no card hidden from that
    seat once the event is applied (F31)."""
    state = before
    for event in events:
        state = RULES.evolve(state, event)
        for seat in [None, *range(players)]:
            shown = RULES.redact(event, seat)
            assert not leaks(shown.to_json() if shown else None, RULES.hidden(state, seat)), \
                f"{event.type} leaks to seat {seat}"


def check_step(table: Table, before: State) -> None:
    """Everything that must hold after every step."""
    state: State = table.state
    n = state.players
    assert RULES.invariants(state) == []
    assert sum(state.coins) + state.box == TOTAL_COINS and min(state.coins) >= 0
    assert all(card is not None for card in state.hands)
    places = Counter([*state.hands, *state.deck, *state.discard])
    assert places == Counter(CARD_IDS)
    check_events(before, table.last, n)
    for seat in [None, *range(n)]:
        view = RULES.view(state, seat)
        assert not leaks(view, RULES.hidden(state, seat)), f"view of seat {seat} leaks"
        assert all(v["card"] is None for v in view["seats"] if v["seat"] != seat)
    awaited = RULES.to_act(state)
    for seat in range(n):
        moves = RULES.legal_moves(state, seat)
        assert (seat in awaited) == bool(moves)
        if seat in awaited:
            assert RULES.default_move(state, seat) in moves
        for move in moves:  # state is frozen: deciding on it is deciding on a clone
            events = RULES.decide(state, seat, dict(move), rng=Rng(b"probe", table.rng.position),
                                  now=table.now + 1)
            assert events
    assert table.state is state


def play(table: Table, choose_seed: bytes) -> int:
    history = [table.state]

    def on_step(t: Table) -> None:
        check_step(t, history[-1])
        history.append(t.state)

    steps = playout(table, random_chooser(Rng(choose_seed)), pick_seat=Rng(choose_seed + b"/seat"),
                    on_step=on_step)
    return steps


@pytest.mark.random_play
@SETTINGS
@given(players=st.integers(3, 6), seed=st.binary(min_size=1, max_size=8))
def test_f28_random_legal_play_always_reaches_a_result(players: int, seed: bytes) -> None:
    table = Table(RULES, players, seed=seed)
    assert RULES.invariants(table.state) == []
    play(table, seed + b"/choose")
    result = table.result()
    assert result is not None and len(result["winners"]) == 1
    assert min(table.state.coins) == 0 and RULES.to_act(table.state) == set()
    winner = result["winners"][0]
    assert table.state.coins[winner] == max(table.state.coins)
    assert [s["outcome"] for s in result["seats"]].count("win") == 1
    # events survive storage as JSON: replaying the stored log rebuilds the state
    stored = [Event(e.type, json.loads(json.dumps(e.data))) for e in table.events]
    assert stored == table.events
    assert fold(RULES, stored) == table.state


faces = st.lists(st.sampled_from(SYMBOLS), min_size=6, max_size=6).filter(
    lambda f: set(f) == set(SYMBOLS))


@pytest.mark.random_play
@SETTINGS
@given(players=st.integers(3, 6), seed=st.binary(min_size=1, max_size=8), die_faces=faces,
       window=st.integers(1000, 60000), patience=st.integers(0, 3))
def test_f18_random_play_with_timeouts_and_defaults(players: int, seed: bytes,
                                                    die_faces: list[str], window: int,
                                                    patience: int) -> None:
    """Claim windows time out, seats sometimes play their default (F18, F21)."""
    table = Table(RULES, players, seed=seed,
                  options={"die_faces": die_faces, "claim_window_ms": window})
    chooser = Rng(seed + b"/moves")
    for _ in range(100_000):
        if table.result() is not None:
            break
        before = table.state
        awaited = sorted(table.to_act())
        if RULES.deadline(table.state) is not None and chooser.below(4) < patience:
            table.timeout()
        else:
            seat = awaited[chooser.below(len(awaited))]
            default = RULES.default_move(table.state, seat)
            move = default if default is not None and chooser.below(2) else \
                chooser.choice(table.legal(seat))
            table.play(seat, move, now=table.now + chooser.below(3))  # same-ms claims tie (F19)
        check_step(table, before)
    assert table.result() is not None


def test_f31_spectator_sees_no_card_in_any_hand_during_a_whole_game() -> None:
    table = Table(RULES, 6, seed=b"spectator")

    def on_step(t: Table) -> None:
        view = RULES.view(t.state, None)
        assert all(v["card"] is None for v in view["seats"])
        assert not any(card in text_of(view) for card in t.state.hands)

    playout(table, random_chooser(Rng(b"c")), pick_seat=Rng(b"p"), on_step=on_step)
    assert table.result() is not None
