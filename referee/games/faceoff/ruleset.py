"""The ruleset object of BANG! Face Off (``bang-faceoff``, FO1–FO58): its class, its parts and its invariants."""
from __future__ import annotations

from typing import Any

from referee.engine.base import RulesetBase
from referee.engine.protocol import Event, GameConfig, Json, MalformedMove, Move, Ruleset, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.cards.deck import ALL_CARDS, BLUE
from referee.games.faceoff import board, decide, encoded, legal, moves, scenario, schemas, views
from referee.games.faceoff import options as options_part
from referee.games.faceoff.catalogue import catalogue as _catalogue
from referee.games.faceoff.event_types import EVENT_TYPES
from referee.games.faceoff.fold import evolve
from referee.games.faceoff.legacy import FaceOffV2
from referee.games.faceoff.state import State


class FaceOffRuleset(RulesetBase[State]):
    name = "bang-faceoff"
    version = "3"
    #: version 2 wrote the maps as ``faceoff-1``, the card keys of the agenda in capitals, no result detail
    previous_versions = {"2": FaceOffV2}
    #: strings that are drawings, not identifiers: the board and the map's rows, a figure's mark
    text_keys = frozenset({"board", "rows", "mark"})
    title = "BANG! Face Off"
    min_players = 2
    max_players = 2
    platform_rules = {"game_over": "FO47", "player_count": "FO1", "turn": "FO31", "timeout": "FO9"}
    options_schema = options_part.OPTIONS_SCHEMA
    move_schemas = moves.MOVE_SCHEMAS
    setup_schema = scenario.SETUP_SCHEMA
    view_schema = schemas.VIEW_SCHEMA
    event_schemas = schemas.EVENT_SCHEMAS
    event_types = EVENT_TYPES
    role_order = ("sheriff", "outlaw")
    #: the catalogue of cards, characters, roles, dice, symbols and maps (issue 24 item 2)
    catalogue = staticmethod(_catalogue)

    def check_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        return options_part.check_options(options, players)

    def option_sets(self, players: int) -> list[dict[str, Any]]:
        return options_part.option_sets(players)

    def parse_move(self, move: Any) -> Any:
        """The move as sent, or ``MalformedMove``: a hand-written parser held to ``move_schemas``
        (the conformance suite checks that they agree)."""
        why = moves.malformed(move)
        if why is not None:
            raise MalformedMove("malformed_move", rule="FO9", detail=why)
        return moves.normal(move)

    def setup(self, config: GameConfig, rng: Rng) -> list[Event]:
        return scenario.setup(config, rng)

    def evolve(self, state: Any, event: Event) -> Any:
        return evolve(state, event)

    def play(self, state: Any, actor: Seat, move: Move, *, rng: Rng, now: int,
             memo: Memo | None = None) -> tuple[list[Event], Any]:
        return decide.apply(state, actor, move, rng, memo)

    def seats(self, state: Any) -> int:
        return 2

    def legal_moves(self, state: Any, seat: Seat, *, memo: Memo | None = None) -> list[Move]:
        return legal.legal_moves(state, seat, memo) if state is not None else []

    def public_view(self, state: Any, *, memo: Memo | None = None) -> Json:
        return views.public_view(state, memo)

    def seat_part(self, state: Any, seat: Seat | None, *, memo: Memo | None = None) -> Json:
        return views.seat_part(state, seat, memo)

    def view(self, state: Any, seat: Seat | None, *, memo: Memo | None = None) -> Json:
        return views.view(state, seat, memo)

    #: ``public_view`` encoded, and a seat's legal moves, prompt and own members encoded (issue 20; FO57)
    public_bytes = staticmethod(encoded.public_bytes)
    seat_encoded = staticmethod(encoded.seat_encoded)

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        return views.redact(event, seat)

    def to_act(self, state: Any, *, memo: Memo | None = None) -> set[Seat]:
        return legal.to_act(state) if state is not None else set()

    def result(self, state: Any) -> Json | None:
        return None if state is None else state.result

    def default_move(self, state: Any, seat: Seat) -> Move | None:
        opts = legal.default_options(state, seat)
        return opts[0] if opts else None

    def default_options(self, state: Any, seat: Seat) -> list[Move]:
        return legal.default_options(state, seat)

    def hidden(self, state: Any, seat: Seat | None) -> set[str]:
        return views.hidden(state, seat) if state is not None else set()

    def public_roles(self, state: Any) -> list[str | None]:
        return ["sheriff" if s == state.sheriff_seat else "outlaw" for s in (0, 1)]

    def invariants(self, state: Any) -> list[str]:
        return invariants(state)


_ALL = frozenset(ALL_CARDS)


def invariants(s: State) -> list[str]:
    out: list[str] = []
    places: list[str] = list(s.brown) + list(s.brown_discard) + list(s.blue) + list(s.blue_discard) + list(s.limbo)
    places += [b for b in s.bids if b is not None]
    for ch in s.chars:
        places += list(ch.hand) + list(ch.in_play)
    if len(places) != len(ALL_CARDS) or not _ALL.issuperset(places) or len(set(places)) != len(places):
        out.append("FO4: the 80 cards are not each in exactly one place")
    if any(c in BLUE for c in s.brown + s.brown_discard) or any(c not in BLUE for c in s.blue + s.blue_discard):
        out.append("FO24: a card in a pile of the other colour")
    squares = [ch.pos for ch in s.chars]
    if len(set(squares)) != 3:
        out.append("FO16: two figures on one square")
    if not all(board.floor(s.rows, q) for q in squares):
        out.append("FO12: a figure on rock")
    if any(n in squares or not board.floor(s.rows, n) for n in s.nuggets):
        out.append("FO13: a nugget under a figure or on rock")
    if s.result is None and any(ch.life > ch.max_life for ch in s.chars):
        out.append("FO7: life above max")
    if s.result is None and any(len(t) >= 2 and (not s.variant or any(x[1] for x in t)) for t in s.trophies):
        out.append("FO47: a player has won but the game goes on")
    return out


RULESET: Ruleset[State] = FaceOffRuleset()  # mypy holds the ruleset to the protocol
