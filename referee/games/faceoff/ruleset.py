"""The ruleset object of BANG! Face Off (``bang-faceoff``, FO1–FO58): a
``referee.engine.modular.ModularRuleset`` made of this package's modules,
and the hooks Face Off says differently (the view shared by every viewer
and each seat's own part, FO57; the timeout's defaults, FO9; the public
roles, FO2)."""
from __future__ import annotations

from typing import Any

from referee.engine.modular import ModularRuleset, Parts
from referee.engine.moves import TypedMove
from referee.engine.protocol import Event, Json, Move, Ruleset, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.faceoff import decide, encoded, fold, invariants, legal, moves, options, scenario, schemas, views
from referee.games.faceoff.catalogue import catalogue as _catalogue
from referee.games.faceoff.event_types import EVENT_TYPES
from referee.games.faceoff.legacy import FaceOffV2
from referee.games.faceoff.state import State, flow_controller


class FaceOffRuleset(ModularRuleset[State]):
    """BANG! Face Off (rules FO1–FO58): two players, three figures on a board."""

    name = "bang-faceoff"
    version = "3"
    #: strings that are drawings, not identifiers: the board and the map's rows, a figure's mark
    text_keys = frozenset({"board", "rows", "mark"})
    title = "BANG! Face Off"
    platform_rules = {"game_over": "FO47", "player_count": "FO1", "turn": "FO31", "timeout": "FO9"}
    role_order = ("sheriff", "outlaw")
    #: the catalogue of cards, characters, roles, dice, symbols and maps (issue 24 item 2)
    catalogue = staticmethod(_catalogue)
    #: the modules it is made of (``referee.engine.modular``): ``fold`` folds the events, ``legal``
    #: lists the moves and the awaited seats; ``encoded`` encodes ``public_view`` and a seat's part
    #: (issue 20; FO57). Version 2 wrote the maps as ``faceoff-1``, the card keys of the agenda in
    #: capitals, no result detail: ``legacy.FaceOffV2``
    parts = Parts(options=options, scenario=scenario, moves=moves, schemas=schemas, events=fold,
                  event_types=EVENT_TYPES, views=views, prompts=legal, encoded=encoded, legacy=(FaceOffV2,))

    def option_sets(self, players: int) -> list[dict[str, Any]]:
        return options.option_sets(players)

    def parse_move(self, move: Any) -> TypedMove:
        """The typed move, or ``MalformedMove`` (FO9): a hand-written parser held to ``move_schemas``
        (the conformance suite checks that they agree)."""
        return moves.parse(move)

    def move_from_checked(self, move: Json) -> TypedMove:
        return moves.read(move)

    def play(self, state: State, actor: Seat, move: TypedMove, *, rng: Rng, now: int,
             memo: Memo | None = None) -> tuple[list[Event], State]:
        return decide.apply(state, actor, move, rng, memo)

    def seats(self, state: State) -> int:
        return 2

    def public_view(self, state: State, *, memo: Memo | None = None) -> Json:
        return views.public_view(state, memo)

    def seat_part(self, state: State, seat: Seat | None, *, memo: Memo | None = None) -> Json:
        return views.seat_part(state, seat, memo)

    def result(self, state: State | None) -> Json | None:
        return None if state is None else state.result

    def default_options(self, state: State, seat: Seat) -> list[Move]:
        return legal.default_options(state, seat)

    def turn_seat(self, state: State) -> Seat | None:
        """A game clock's turn (docs/clocks.md): the seat deciding for the active side (FO8, FO32)."""
        seat = flow_controller(state, state.flow.active)
        return seat if seat >= 0 else None

    def public_roles(self, state: State) -> list[str | None]:
        """FO2: both players' roles are public."""
        return ["sheriff" if seat == state.sheriff_seat else "outlaw" for seat in (0, 1)]

    def invariants(self, state: State) -> list[str]:
        return invariants.invariants(state)


RULESET: Ruleset[State] = FaceOffRuleset()  # mypy holds the ruleset to the protocol
