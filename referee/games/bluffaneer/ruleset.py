"""The ruleset class of Bluffaneer, a ``ModularRuleset`` named with its parts (its modules), and
``RULESET``, the decider protocol object (DESIGN.md, Architecture)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from referee.engine.modular import ModularRuleset, Parts
from referee.engine.protocol import IllegalMove, Json, Ruleset, Seat
from referee.games.bluffaneer import decide, fold, legal, moves, options, scenario, schemas, views
from referee.games.bluffaneer.catalogue import catalogue as _catalogue
from referee.games.bluffaneer.ending import result as game_result
from referee.games.bluffaneer.event_types import EVENT_TYPES
from referee.games.bluffaneer.legacy import BluffaneerV1
from referee.games.bluffaneer.moves import ParsedMove
from referee.games.bluffaneer.state import (
    CLAIMS,
    DECISION,
    OVER,
    STABLE_PHASES,
    TOTAL_COINS,
    State,
)
from referee.games.bluffaneer.symbols import CARD_IDS


class Bluffaneer(ModularRuleset[State]):
    """Bluffaneer (rules F1–F34): dice, one card each, claims and bluffs."""

    name = "bluffaneer"
    #: 2: lower snake case symbols, ``reason`` codes, ``resign`` (issue 24); v1 logs read by ``BluffaneerV1``
    version = "2"
    title = "Bluffaneer"
    platform_rules = {"game_over": "F33", "player_count": "F1", "turn": "F33", "timeout": "F18"}
    #: rule IDs (``F18``) cited in events and prompts: references to the rules text, not identifiers
    text_keys = frozenset({"rule"})
    #: the catalogue of cards, characters, roles, dice, symbols and maps (issue 24 item 2)
    catalogue = staticmethod(_catalogue)
    #: the modules it is made of (``referee.engine.modular``); ``views`` encodes the view too (F31: the
    #: seat's own card in its entry alone)
    parts = Parts(options=options, scenario=scenario, moves=moves, schemas=schemas, events=fold,
                  event_types=EVENT_TYPES, views=views, prompts=legal, encoded=views, legacy=(BluffaneerV1,))

    #: the events a move by a seat the referee awaits causes, folded as emitted, or a refusal (F33)
    play = staticmethod(decide.decide)

    def parse_move(self, move: Any) -> ParsedMove:
        """The typed move: the move parser (F33), which the conformance suite holds to ``move_schemas``."""
        return moves.parse(move)

    def move_from_checked(self, move: Json) -> ParsedMove:
        """The typed move, read from one that matches its schema (``moves.read``)."""
        return moves.read(move)

    #: the claim window closes at its deadline (F18)
    on_timeout = staticmethod(decide.timeout)

    def refuse_out_of_turn(self, state: State, actor: Seat, move: ParsedMove) -> IllegalMove:
        """The rule the move breaks: the roller may not claim (F17), a seat
        answers once (F17), only the roller rolls, robs and decides (F9,
        F12, F21) (``decide.out_of_turn``)."""
        return decide.out_of_turn(state, actor, move) or super().refuse_out_of_turn(state, actor, move)

    def seats(self, state: State) -> int:
        """The table's seats (F1)."""
        return state.players

    def result(self, state: State) -> Json | None:
        """``None`` until the end, then winner, coins, tie and flip (F28–F30)."""
        return game_result(state)

    def deadline(self, state: State) -> int | None:
        """The claim window's deadline D while it is open (F18)."""
        return state.deadline if state.phase == CLAIMS else None

    def secrets(self, state: State) -> dict[str, Any]:
        """What the deal hides (F6, F31): each seat's card and the draw pile's order."""
        out: dict[str, Any] = {f"card:{s}": card for s, card in enumerate(state.hands)}
        out["deck"] = list(state.deck)
        return out

    def public_secrets(self, state: State, dealt: Mapping[str, Any]) -> set[str]:
        """Dealt cards that are public now: revealed (F16, F22, F23) or the game is over."""
        hidden = views.hidden(state, None)
        return {name for name, card in dealt.items() if name.startswith("card:") and card not in hidden}

    def invariants(self, state: State) -> list[str]:
        """Broken invariants: coins conserved (F5), nobody below 0 (F26),
        everyone at 1+ while the game runs (F28), one card each (F24), the 18
        cards each in one place (F4), a settled phase."""
        broken = []
        if sum(state.coins) + state.box != TOTAL_COINS:
            broken.append(f"F5: {sum(state.coins)} coins in hands + {state.box} in the box "
                          f"!= {TOTAL_COINS}")
        if min(state.coins) < 0 or state.box < 0:
            broken.append("F26: a coin count below 0")
        if state.phase != OVER and min(state.coins) < 1:
            broken.append("F28: a player is at 0 coins but the game goes on")
        if any(card is None for card in state.hands):
            broken.append("F24: a player holds no card")
        places = Counter([c for c in state.hands if c is not None]) + Counter(state.deck) \
            + Counter(state.discard)
        if places != Counter(CARD_IDS):
            broken.append("F4: the 18 cards are not each in exactly one place")
        if state.phase not in STABLE_PHASES:
            broken.append(f"phase {state.phase!r} is not a settled phase")
        if (state.phase == CLAIMS) != (state.deadline is not None):
            broken.append("F18: a deadline without an open claim window, or the reverse")
        if state.phase != OVER and (state.phase == DECISION) != (state.claimant is not None):
            broken.append("F21: a claimant without a decision pending, or the reverse")
        return broken


RULESET: Ruleset[State] = Bluffaneer()  # mypy holds the ruleset to the protocol
