"""The decider protocol object for BANG! The Dice Game (DESIGN.md, Architecture)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.modular import ModularRuleset, Parts
from referee.engine.protocol import Event, Json, Ruleset, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.dice import fold, legal, moves, options, scenario, schemas, views
from referee.games.dice.catalogue import catalogue as _catalogue
from referee.games.dice.decide import decide
from referee.games.dice.ending import detail
from referee.games.dice.event_types import EVENT_TYPES
from referee.games.dice.legacy import BangDiceV1
from referee.games.dice.moves import DiceMove, Timeout
from referee.games.dice.role_cards import ROLE_KINDS, kind_of
from referee.games.dice.state import State

EXPANSION_SETS = ({"saloon_dice": True}, {"chief_arrow": True}, {"ghost": True}, {"expansion": True})


class BangDice(ModularRuleset[State]):
    """BANG! The Dice Game (rules D1–D75) with the Old Saloon modules."""

    name = "bang-dice"
    version = "2"
    title = "BANG! The Dice Game"
    role_order = ROLE_KINDS
    platform_rules = {"game_over": "D32", "player_count": "D5", "turn": "D73", "timeout": "D73"}
    #: the rule IDs events name (``arrow_taken.rule``…): references to the rules text, not identifiers
    text_keys = frozenset({"rule"})
    #: the catalogue of cards, characters, roles, dice, symbols and maps (issue 24 item 2)
    catalogue = staticmethod(_catalogue)
    #: the modules it is made of (``referee.engine.modular``). ``views`` encodes the view too (D7: the
    #: seat's own role): the ruleset shares no ``public_view`` with the engine (its ``seat_part`` is the
    #: whole view), so that it encodes every seat's view itself from the parts it keeps per state. v1's
    #: logs (faces upper case, role cards ``OUTLAW-2``, a prose ``reason``, no resign): ``legacy.BangDiceV1``
    parts = Parts(options=options, scenario=scenario, moves=moves, schemas=schemas, events=fold,
                  event_types=EVENT_TYPES, views=views, prompts=legal, encoded=views, legacy=(BangDiceV1,))

    def option_sets(self, players: int) -> list[dict[str, Any]]:
        """The base game, each module alone and all three (D1; no Ghost with 3 players, D71)."""
        return [{}, *[o for o in EXPANSION_SETS if not (players == 3 and "ghost" in o)]]

    def parse_move(self, move: Any) -> DiceMove | Timeout:
        """The typed move, once it matches its schema (``moves.parse``)."""
        return moves.parse(move)

    def move_from_checked(self, move: Json) -> DiceMove | Timeout:
        """The typed value of a move that matches its schema already."""
        return moves.read(move)

    def play(self, state: State, actor: Seat, move: DiceMove, *, rng: Rng, now: int,
             memo: Memo | None = None) -> tuple[list[Event], State]:
        """Answer the awaited decision (D73; its answers found in the game's ``memo``
        where a view listed them), then run the turn on to the next one."""
        return decide(state, actor, move, rng=rng, now=now, memo=memo)

    def seats(self, state: State) -> int:
        return state.players

    def result(self, state: State) -> Json | None:
        """D32, D33, D70, D75: the winners (a team, a Renegade alone, or nobody in a 3-player draw);
        a resigned seat is an eliminated one (its team may still win)."""
        if not state.over:
            return None
        outcome = "draw" if state.draw else None
        resigned = state.resigned or (False,) * state.players
        return {
            "winners": list(state.winners),
            "seats": [{"seat": p, "outcome": outcome or ("win" if p in state.winners else "loss"),
                       "role": kind_of(state.roles[p]), "alive": state.alive[p], "resigned": resigned[p]}
                      for p in range(state.players)],
            "reason": state.reason, "detail": detail(state.reason, state.winners),
        }

    def secrets(self, state: State) -> dict[str, Any]:
        """What the deal hides (D7): each seat's role card."""
        return {f"role:{p}": r for p, r in enumerate(state.roles)}

    def public_secrets(self, state: State, dealt: Mapping[str, Any]) -> set[str]:
        return {f"role:{p}" for p in range(state.players) if views.role_public(state, p)}

    def public_roles(self, state: State) -> list[str | None]:
        return [kind_of(r) if views.role_public(state, p) else None for p, r in enumerate(state.roles)]

    def invariants(self, state: State) -> list[str]:
        """D3, D4, D22, D29, D32, D60, D63 and one awaited decision while the game runs."""
        return [*_arrow_problems(state), *_seat_problems(state), *_turn_problems(state)]


def _arrow_problems(state: State) -> list[str]:
    """D3: the arrows held come from the pile; D22, D60: an emptied pile means the Indians attacked."""
    broken = []
    if state.pile < 0 or min(state.arrows) < 0:
        broken.append(f"D3: arrows held {state.arrows} leave a pile of {state.pile}")
    if state.pile == 0 and not state.over:
        broken.append("D22: the pile is empty but the Indians have not attacked")
    return broken


def _seat_problems(state: State) -> list[str]:
    """D4: a living player's life is within his maximum; D29: an eliminated one holds nothing."""
    broken = []
    for seat in range(state.players):
        if state.alive[seat] and not 0 < state.life[seat] <= state.max_life[seat]:
            broken.append(f"D4: seat {seat} is living at {state.life[seat]}/{state.max_life[seat]}")
        if not state.alive[seat] and (state.life[seat] or state.arrows[seat] or state.chief_holder == seat):
            broken.append(f"D29: eliminated seat {seat} holds life or arrows")
    return broken


def _turn_problems(state: State) -> list[str]:
    """D63: the Ghost is an eliminated player; D73: a running game awaits a decision; D32: none after the end."""
    broken = []
    if state.ghost is not None and state.alive[state.ghost]:
        broken.append("D63: the Ghost is living")
    if not state.over and (state.prompt is None or state.prompt_seat is None):
        broken.append("D73: the game runs but no decision is awaited")
    if state.over and state.agenda:
        broken.append("D32: steps remain after the end")
    return broken

RULESET: Ruleset[State] = BangDice()  # mypy holds the ruleset to the protocol
