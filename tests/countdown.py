"""A throwaway ruleset with a clock of its own, for the in-process drivers
(``referee arena``, ``referee.play.env``): no built-in ruleset leaves a deadline
open with nobody awaited under their play order, this one always does.

* C1 Two players count down from ``start`` (6); seat 0 first.
* C2 The player to act steps down by 1 or 2: ``{"type": "step", "by": k}``.
* C3 After each step the game pauses: nobody is awaited until the deadline
  (the step's time + 500 ms), when the system's ``timeout`` resumes it with
  the other player to act.
* C4 Whoever reaches 0 wins.

``installed()`` makes it findable by ``registry.get`` (the audit and the env
look it up by name) for the length of a test.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from referee.engine.base import RulesetBase
from referee.engine.decision import Decision
from referee.engine.protocol import Event, GameConfig, IllegalMove, Json, Move, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo

PAUSE_MS = 500


@dataclass(frozen=True, slots=True)
class State:
    left: int
    turn: Seat
    paused_until: int | None = None
    winner: Seat | None = None


class Countdown(RulesetBase[State]):
    name = "countdown"
    version = "1"
    title = "Countdown"
    min_players = 2
    max_players = 2
    options_schema = {"type": "object", "additionalProperties": False, "properties": {
        "start": {"type": "integer", "minimum": 1, "maximum": 50, "default": 6, "description": "C1"}}}
    platform_rules = {"game_over": "C4", "player_count": "C1", "turn": "C2", "timeout": "C3"}
    setup_schema = {"type": "null"}
    view_schema = {"type": "object"}
    event_schemas = {"started": {"type": "object"}, "stepped": {"type": "object"}, "resumed": {"type": "object"}}
    move_schemas = {"step": {"type": "object", "additionalProperties": False, "required": ["type", "by"],
                             "properties": {"type": {"const": "step"}, "by": {"enum": [1, 2]}}}}

    def check_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        return {"start": int(options.get("start", 6))}

    def setup(self, config: GameConfig, rng: Rng) -> list[Event]:
        return [Event("started", {"left": config.options["start"]})]

    def evolve(self, state: State | None, event: Event) -> State:
        if event.type == "started":
            return State(event.data["left"], 0)
        assert state is not None
        if event.type == "resumed":
            return replace(state, paused_until=None, turn=1 - state.turn)
        left = state.left - event.data["by"]
        return replace(state, left=left, paused_until=event.data["until"],
                       winner=event.data["seat"] if left <= 0 else None)

    def play(self, state: State, actor: Seat, move: Move, *, rng: Rng, now: int,
             memo: Memo | None = None) -> tuple[list[Event], State]:
        if move["by"] not in (1, 2):
            raise IllegalMove("bad_step", rule="C2", detail="step by 1 or 2")
        decision = Decision(state, self.evolve)
        decision.emit("stepped", {"seat": actor, "by": move["by"], "until": now + PAUSE_MS})
        return decision.events, decision.state

    def on_timeout(self, state: State, *, rng: Rng, now: int) -> tuple[list[Event], State]:
        decision = Decision(state, self.evolve)
        decision.emit("resumed", {})
        return decision.events, decision.state

    def deadline(self, state: State) -> int | None:
        return state.paused_until if state.winner is None else None

    def legal_moves(self, state: State, seat: Seat, *, memo: Memo | None = None) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "step", "by": k} for k in (1, 2) if k <= max(state.left, 1)]

    def view(self, state: State, seat: Seat | None, *, memo: Memo | None = None) -> Json:
        return {"left": state.left, "turn": state.turn, "paused_until": state.paused_until, "pending": None}

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        return event

    def to_act(self, state: State, *, memo: Memo | None = None) -> set[Seat]:
        return set() if state.winner is not None or state.paused_until is not None else {state.turn}

    def result(self, state: State) -> Json | None:
        if state is None or state.winner is None:
            return None
        w = state.winner
        return {"winners": [w], "reason": "reached_zero",
                "seats": [{"seat": s, "outcome": "win" if s == w else "loss"} for s in (0, 1)]}

    def default_move(self, state: State, seat: Seat) -> Move | None:
        return {"type": "step", "by": 1} if seat in self.to_act(state) else None

    def hidden(self, state: State, seat: Seat | None) -> set[str]:
        return set()

    def invariants(self, state: State) -> list[str]:
        return []


RULESET = Countdown()


@contextmanager
def installed() -> Iterator[Countdown]:
    """``registry.get("countdown")`` finds it meanwhile."""
    from referee.games import registry
    registry._loaded["countdown"] = RULESET
    try:
        yield RULESET
    finally:
        registry._loaded.pop("countdown", None)
