"""Nim (rules N1–N4), a throwaway ruleset built only on ``referee.engine``.

* N1 Two players; ``piles`` (option, default ``[3, 4, 5]``) of stones.
* N2 Seat 0 moves first; players alternate.
* N3 A move takes 1 or more stones from one non-empty pile:
  ``{"type": "take", "pile": i, "count": k}``.
* N4 Whoever takes the last stone wins.

Version 2 speaks the one vocabulary (``referee.engine.vocabulary``): the
view's ``seats`` and ``last``, a ``pending`` prompt, a result with its
``detail``. Version 1 logs differ only in that result (no ``detail``):
``NimV1`` reads them.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from referee.engine.base import RulesetBase
from referee.engine.decision import Decision
from referee.engine.legacy import Legacy
from referee.engine.protocol import Event, GameConfig, IllegalMove, InvalidSetup, Json, Move, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo


@dataclass(frozen=True, slots=True)
class State:
    piles: tuple[int, ...]
    turn: Seat
    winner: Seat | None = None
    last: tuple[Seat, int, int] | None = None  # seat, pile, count of the last take


class Nim(RulesetBase[State]):
    name = "nim"
    version = "2"
    title = "Nim"
    min_players = 2
    max_players = 2
    options_schema = {"type": "object", "additionalProperties": False, "x-rule": "N1", "properties": {
        "piles": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 20},
                  "minItems": 1, "maxItems": 6, "default": [3, 4, 5], "x-rule": "N1",
                  "description": "stones per pile (N1)"}}}
    platform_rules = {"game_over": "N4", "player_count": "N1", "turn": "N2", "timeout": "N2"}
    setup_schema = {"type": "null", "description": "Nim takes no scenario (N1)."}
    view_schema = {"type": "object", "additionalProperties": False, "required": ["piles", "turn", "seats", "last"],
                   "properties": {"piles": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                                  "turn": {"type": "integer", "minimum": 0, "maximum": 1},
                                  "seats": {"type": "array", "items": {"type": "object"}},
                                  "last": {"type": ["object", "null"]}}}
    event_schemas = {
        "game_started": {"type": "object", "additionalProperties": False, "required": ["piles"],
                         "properties": {"piles": {"type": "array", "items": {"type": "integer"}}}},
        "taken": {"type": "object", "additionalProperties": False, "required": ["seat", "pile", "count"],
                  "properties": {"seat": {"type": "integer"}, "pile": {"type": "integer"},
                                 "count": {"type": "integer"}}}}
    #: its events in words for the watch page (``RulesetBase.phrases``): how a plug-in brings its own
    phrases = {"game_started": "the game started with piles {piles}",
               "taken": "seat {seat} took {count} from pile {pile}"}
    move_schemas = {"take": {"type": "object", "additionalProperties": False, "x-rule": "N3",
                             "required": ["type", "pile", "count"],
                             "properties": {"type": {"const": "take"}, "pile": {"type": "integer", "minimum": 0},
                                            "count": {"type": "integer", "minimum": 1}}}}

    def check_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """The schema checked the shape; fill in the default piles (N1)."""
        return {"piles": list(options.get("piles", [3, 4, 5]))}

    def setup(self, config: GameConfig, rng: Rng) -> list[Event]:
        if config.scenario is not None:
            raise InvalidSetup("invalid_setup", rule="N1", detail="nim takes no scenario")
        return [Event("game_started", {"piles": list(config.options["piles"])})]

    def evolve(self, state: State | None, event: Event) -> State:
        if event.type == "game_started":
            return State(tuple(event.data["piles"]), 0)
        assert state is not None
        piles = list(state.piles)
        piles[event.data["pile"]] -= event.data["count"]
        seat = event.data["seat"]
        return replace(state, piles=tuple(piles), turn=1 - seat, winner=seat if not any(piles) else None,
                       last=(seat, event.data["pile"], event.data["count"]))

    def play(self, state: State, actor: Seat, move: Move, *, rng: Rng, now: int,
             memo: Memo | None = None) -> tuple[list[Event], State]:
        """Past the base's shared checks (shape, game over, turn): N3."""
        pile, count = move["pile"], move["count"]
        if not 0 <= pile < len(state.piles) or not 1 <= count <= state.piles[pile]:
            raise IllegalMove("bad_take", rule="N3", detail="take 1 or more stones from one pile that has them")
        decision = Decision(state, self.evolve)  # the engine's emit-and-fold builder
        decision.emit("taken", {"seat": actor, "pile": pile, "count": count})
        return decision.events, decision.state

    def legal_moves(self, state: State, seat: Seat, *, memo: Memo | None = None) -> list[Move]:
        if state.winner is not None or seat != state.turn:
            return []
        return [{"type": "take", "pile": i, "count": k}
                for i, n in enumerate(state.piles) for k in range(1, n + 1)]

    def view(self, state: State, seat: Seat | None, *, memo: Memo | None = None) -> Json:
        over = state.winner is not None
        return {"piles": list(state.piles), "turn": state.turn,
                "seats": [{"seat": s, "to_move": not over and s == state.turn} for s in (0, 1)],
                "last": None if state.last is None
                else dict(zip(("kind", "seat", "pile", "count"), ("taken", *state.last))),
                "pending": None if over else {"kind": "take", "awaiting": [state.turn], "deadline": None,
                                              "default": None}}

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        return event  # nothing is hidden in Nim

    def to_act(self, state: State, *, memo: Memo | None = None) -> set[Seat]:
        return set() if state.winner is not None else {state.turn}

    def result(self, state: State) -> Json | None:
        if state is None or state.winner is None:
            return None
        w = state.winner
        return {"winners": [w], "reason": "took_the_last_stone",
                "seats": [{"seat": s, "outcome": "win" if s == w else "loss"} for s in (0, 1)],
                "detail": f"seat {w} took the last stone (N4)"}

    def default_move(self, state: State, seat: Seat) -> Move | None:
        moves = self.legal_moves(state, seat)
        return moves[0] if moves else None

    def hidden(self, state: State, seat: Seat | None) -> set[str]:
        return set()

    def invariants(self, state: State) -> list[str]:
        broken = []
        if any(p < 0 for p in state.piles):
            broken.append("N3: a pile below 0")
        if (state.winner is None) == (not any(state.piles)):
            broken.append("N4: a winner while stones are left, or no winner when none is")
        return broken


class NimV1(Legacy):
    """Nim v1's logs: the same game, its result without ``detail``."""

    version = "1"

    def result_down(self, result: Json) -> Json:
        return {k: v for k, v in result.items() if k != "detail"}


Nim.previous_versions = {"1": NimV1}
RULESET = Nim()
