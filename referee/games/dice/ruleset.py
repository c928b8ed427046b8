"""The decider protocol object for BANG! The Dice Game (DESIGN.md, Architecture)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.modular import ModularRuleset, Parts
from referee.engine.protocol import Event, IllegalMove, Json, Ruleset, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.dice import events, flow, moves, options, prompts, scenario, schemas, views
from referee.games.dice.agenda import Ctx
from referee.games.dice.catalogue import catalogue as _catalogue
from referee.games.dice.ending import detail
from referee.games.dice.event_types import EVENT_TYPES
from referee.games.dice.events import ARROWS_DISCARDED, LIFE_GAINED
from referee.games.dice.legacy import BangDiceV1
from referee.games.dice.rules import DYNAMITE, ROLE_KINDS, kind_of
from referee.games.dice.state import State

EXPANSION_SETS = ({"saloon_dice": True}, {"chief_arrow": True}, {"ghost": True}, {"expansion": True})


def _refusal(state: State, move: Json) -> IllegalMove:
    """The precise rule a move that is not among the legal answers breaks."""
    kind, prompt = move["type"], state.prompt or ""
    rule = prompts.RULES.get(prompt, "D73")
    if kind not in prompts.ANSWERS.get(prompt, (prompt,)):
        return IllegalMove("unexpected_move", rule="D73",
                           detail=f"the referee awaits a {prompt} decision, not a {kind} move")
    if kind == "reroll":
        dice = move["dice"]
        if any(d > len(state.dice) for d in dice):
            return IllegalMove("no_such_die", rule="D15", detail=f"there are only {len(state.dice)} dice")
        locked = [d for d in dice if state.dice[d - 1] == DYNAMITE]
        return IllegalMove("dynamite_locked", rule="D16", detail=f"dice {locked} show dynamite: never rerolled")
    if kind == "roll":
        return IllegalMove("no_saloon_die", rule="D52", detail="no Saloon die may be used in this turn")
    if kind == "shoot" and move["double"]:
        return IllegalMove("no_double", rule="D46",
                           detail="only Slab the Killer, once, spending a beer, doubles a shot")
    if kind == "shoot":
        return IllegalMove("out_of_range", rule="D24", detail=f"seat {move['target']} is not at this shot's distance")
    if kind == "haunt" and move["double"]:
        return IllegalMove("no_double_token", rule="D65", detail="a ×2 token needs two equal faces, named as die 1")
    if kind in ("bart", "pedro"):
        return IllegalMove("too_many_arrows", rule=rule, detail="more arrows than the ability allows now")
    return IllegalMove("illegal_target", rule=rule, detail=f"{move} is not a legal answer now")


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
    parts = Parts(options=options, scenario=scenario, moves=moves, schemas=schemas, events=events,
                  event_types=EVENT_TYPES, views=views, prompts=prompts, encoded=views, legacy=(BangDiceV1,))

    def option_sets(self, players: int) -> list[dict[str, Any]]:
        """The base game, each module alone and all three (D1; no Ghost with 3 players, D71)."""
        return [{}, *[o for o in EXPANSION_SETS if not (players == 3 and "ghost" in o)]]

    def parse_move(self, move: Any) -> Json:
        return moves.parse(move)

    def play(self, state: State, actor: Seat, move: Json, *, rng: Rng, now: int,
             memo: Memo | None = None) -> tuple[list[Event], State]:
        """Answer the awaited decision (D73; its answers found in the game's ``memo``
        where a view listed them), then run the turn on to the next one."""
        kind = move["type"]
        if kind == "resign":  # D75: listed for every awaited seat
            ctx = Ctx(state, rng, now, list(state.agenda))
            flow.resign(ctx, actor)
            return ctx.events, ctx.state
        norm = {**move, "dice": sorted(move["dice"])} if kind == "reroll" else move
        if norm not in prompts.choices(state, memo):
            raise _refusal(state, norm)
        ctx = Ctx(state, rng, now, list(state.agenda))
        if kind == "sid":
            ctx.emit(LIFE_GAINED, rule="D45", seat=move["target"], amount=1)
            ctx.wait("roll", actor)
        elif kind == "roll":
            flow.first_roll(ctx, move["saloon"])
        elif kind == "reroll":
            flow.reroll(ctx, norm["dice"])
        elif kind == "stop":
            flow.stop(ctx)
        elif kind == "arrow":
            (flow.take_chief if move["chief"] else flow.take_regular)(ctx, state.prompt_data[0])
            flow.run(ctx)
        elif kind in ("broken_arrow", "discard"):
            if move["target"] is not None:
                ctx.emit(ARROWS_DISCARDED, seat=move["target"], regular=1, chief=False, by=actor,
                         rule="D54" if kind == "broken_arrow" else "D40")
            if kind == "discard" and state.prompt_data[0] > 1:
                ctx.push(("kit", state.prompt_data[0] - 1))
            flow.run(ctx)
        elif kind == "shoot":
            flow.declare(ctx, move["target"], move["double"])
        elif kind == "beer":
            flow.beer(ctx, move["target"])
        elif kind == "bart":
            flow.bart(ctx, move["arrows"])
        elif kind == "pedro":
            flow.pedro(ctx, move["regular"], move["chief"])
        else:
            flow.haunt(ctx, move["die"], move["double"], move["target"])
        return ctx.events, ctx.state

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
        """D3, D4, D29, D60, D63 and one awaited decision while the game runs."""
        broken = []
        if state.pile < 0 or min(state.arrows) < 0:
            broken.append(f"D3: arrows held {state.arrows} leave a pile of {state.pile}")
        if state.pile == 0 and not state.over:
            broken.append("D22: the pile is empty but the Indians have not attacked")
        for p in range(state.players):
            if state.alive[p] and not 0 < state.life[p] <= state.max_life[p]:
                broken.append(f"D4: seat {p} is living at {state.life[p]}/{state.max_life[p]}")
            if not state.alive[p] and (state.life[p] or state.arrows[p] or state.chief_holder == p):
                broken.append(f"D29: eliminated seat {p} holds life or arrows")
        if state.ghost is not None and state.alive[state.ghost]:
            broken.append("D63: the Ghost is living")
        if not state.over and (state.prompt is None or state.prompt_seat is None):
            broken.append("D73: the game runs but no decision is awaited")
        if state.over and state.agenda:
            broken.append("D32: steps remain after the end")
        return broken


RULESET: Ruleset[State] = BangDice()  # mypy holds the ruleset to the protocol
