"""The BANG! ruleset class (``bang``, rules/bang.md R1–R85): ``BangRuleset``,
a ``ModularRuleset`` made of this package's modules, and ``RULESET``.

Moves (JSON; every ``legal_moves`` entry is complete and accepted unchanged):

* own phase 2 (R11): ``{"type": "play", "card": ID}``; cards with a target add
  ``"target": seat`` (BANG!, Missed! for Calamity Janet, Panic!, Cat Balou,
  Duel, Jail); Panic! and Cat Balou add ``"pick": "hand"`` (a random hand
  card) or the ID of a card in play in front of the target;
  ``{"type": "sid", "cards": [ID, ID]}`` (Sid Ketchum, R72: also in his
  shot, Indians!, Duel and dying windows, never at full life);
  ``{"type": "end_turn"}`` ends phase 2;
* phase 3 (R12): ``{"type": "discard", "cards": [ID]}``, one card per move
  until the hand is down to life (RULING: keeps the legal moves few);
* phase 1 choices: ``{"type": "draw", "source": "deck" | "discard"}`` (Pedro
  Ramirez), ``{"type": "draw", "source": "hand", "target": seat}`` (Jesse
  Jones); ``{"type": "keep", "cards": [ID, ID]}`` (Kit Carlson);
* windows (R43): ``{"type": "barrel", "source": Barrel ID | "jourdonnais"}``,
  ``{"type": "respond", "card": ID}`` (Missed! in a shot window; BANG! for
  Indians! and in a Duel; Beer when dying; Calamity Janet swaps),
  ``{"type": "choose", "card": ID}`` (General Store, Lucky Duke),
  ``{"type": "pass"}``;
* ``{"type": "resign"}`` (R85): listed last in the legal moves of an awaited
  player in his own phases 2 and 3 and when he answers a shot, Indians!, a
  Duel, his dying or his phase-1 choice; he is eliminated (R51) and never
  awaited again;
* the system's ``{"type": "timeout"}`` is always refused (R77): BANG! has no
  clock of its own; the platform's turn clock applies ``default_move``.

Drawing in phase 1, "draw!" checks, passing the Dynamite, rewards, penalties,
eliminations and the end check are automatic (R77). Typed moves: ``moves.py``;
legal moves and who acts: ``legal.py``; deciding: ``decide.py``; events:
``event_types.py`` and ``fold.py``; views: ``views.py``; setup and
scenarios: ``scenario.py``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.modular import ModularRuleset, Parts
from referee.engine.protocol import Event, InvalidSetup, Json, Move, OutOfTurn, Ruleset, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.bang import decide, encoded, fold, legal, moves, options, scenario, schemas, views
from referee.games.bang import invariants as _inv
from referee.games.bang.catalogue import catalogue as _catalogue
from referee.games.bang.event_types import EVENT_TYPES
from referee.games.bang.legacy import BangV2
from referee.games.bang.moves import BangMove
from referee.games.bang.roles import DEPUTY, OUTLAW, RENEGADE, SHERIFF
from referee.games.bang.state import State


class BangRuleset(ModularRuleset[State]):
    """The protocol object for BANG! (referee.engine.protocol.Ruleset)."""

    name = "bang"
    #: v3 (issue 24): the one vocabulary (``seats``, ``last``, the card ID a window is for, a result's
    #: ``detail``) and ``resign`` (R85); v2's logs are read by ``legacy.BangV2``
    version = "3"
    title = "BANG!"
    #: tournaments rotate entrants through the public roles in this order (R83)
    role_order = (SHERIFF, RENEGADE, OUTLAW, DEPUTY)
    #: R84: a new game may keep the surviving characters of a finished one
    carry_option = "carry_characters_from"
    #: a move after the end: the referee awaits no decision (R77); player counts (R5)
    platform_rules = {"game_over": "R57", "player_count": "R5", "turn": "R77", "timeout": "R77"}
    #: the catalogue of cards, characters, roles, dice, symbols and maps (issue 24 item 2)
    catalogue = staticmethod(_catalogue)
    #: the modules it is made of (``referee.engine.modular``): ``legal`` answers who is awaited and how;
    #: ``encoded``, ``public_view`` encoded and a seat's legal moves, prompt and own members (issue 20; R43, R83)
    parts = Parts(options=options, scenario=scenario, moves=moves, schemas=schemas, events=fold,
                  event_types=EVENT_TYPES, views=views, prompts=legal, encoded=encoded, legacy=(BangV2,))

    def parse_move(self, move: Any) -> BangMove:
        """The typed move (``moves.py``): the parser, which the conformance suite holds to ``move_schemas``."""
        return moves.parse(move)

    def move_from_checked(self, move: Json) -> BangMove:
        """The typed move of a move the service checked against ``move_schemas``: what they do not state."""
        return moves.from_checked(move)

    def play(self, state: State, actor: Seat, move: BangMove, *, rng: Rng, now: int,
             memo: Memo | None = None) -> tuple[list[Event], State]:
        return decide.play(state, actor, move, rng=rng, memo=memo)

    def refuse_out_of_turn(self, state: State, actor: Seat, move: BangMove) -> OutOfTurn:
        return decide.refuse_out_of_turn(state, actor)

    def seats(self, state: State) -> int:
        return int(state.n)

    def public_view(self, state: State, *, memo: Memo | None = None) -> Json:
        return views.public_view(state, memo)

    def seat_part(self, state: State, seat: Seat | None, *, memo: Memo | None = None) -> Json:
        return views.seat_part(state, seat, memo)

    def result(self, state: State) -> Json | None:
        out: Json | None = None if state is None else state.result
        return out

    def default_options(self, state: State, seat: Seat) -> tuple[Move, ...]:
        return legal.default_options(state, seat)

    def invariants(self, state: State) -> list[str]:
        return _inv.invariants(state)

    def secrets(self, state: State) -> dict[str, Any]:
        """What the deal hides (R83): each role and starting hand, the deck order."""
        out: dict[str, Any] = {f"role:{p.seat}": p.role for p in state.players}
        out.update({f"hand:{p.seat}": list(p.hand) for p in state.players})
        out["deck"] = list(state.deck)
        return out

    def public_secrets(self, state: State, dealt: Mapping[str, Any]) -> set[str]:
        """Dealt secrets everyone may see now: public roles (the Sheriff's,
        the dead's, all in the 3-player game) and starting hands whose every
        card is public by now."""
        out = {f"role:{s}" for s, role in enumerate(self.public_roles(state)) if role is not None}
        hands = [(name, cards) for name, cards in dealt.items() if name.startswith("hand:")]
        if hands:  # the hidden cards only when a hand is still to judge
            hidden = views.unseen(state, None)
            out.update(name for name, cards in hands if hidden.isdisjoint(cards))
        return out

    def options_for(self, players: int) -> dict[str, Any]:
        """3 players play the optional 3-player game, asked for by name (R5, R82)."""
        return {"three_player": True} if players == 3 else {}

    def carry_over(self, finished: Any, players: int) -> dict[str, Any]:
        """R84: the characters of the players still alive at the end of a
        finished game of the same size (public once it is over); the dead
        draw new ones."""
        if finished.result is None:
            raise InvalidSetup("invalid_options", rule="R84", detail=f"{self.carry_option} names a game "
                               "that is not over")
        if len(finished.players) != players:
            raise InvalidSetup("invalid_options", rule="R84", detail=f"{self.carry_option} names a game of "
                               f"{len(finished.players)} players, not {players}")
        return {"characters": [p.character if p.alive else None for p in finished.players]}

    def public_roles(self, state: State) -> list[str | None]:
        """Each seat's role where everyone may see it (R83): the Sheriff's,
        every role in the 3-player game (R82), a dead player's; else None.
        Tournaments rotate entrants through these."""
        return [p.role if p.role == "sheriff" or state.three_player or not p.alive else None
                for p in state.players]


RULESET: Ruleset[State] = BangRuleset()  # mypy holds the ruleset to the protocol
