"""Phase-2 plays (R18–R40) and Sid Ketchum's ability (R72): every legal
``play`` of a card, why one is refused; part of ``rules``."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from referee.games.cards.characters import CALAMITY_JANET, SID_KETCHUM
from referee.games.cards.core import (
    PICKED,
    TARGETED,
    Holder,
    Move,
    MoveLike,
    Refusal,
    has_jail,
    move_field,
    picks,
    reach_of,
)
from referee.games.cards.deck import BLUE, KEY, WEAPON_OF

#: the cards a BANG! limit counts and a reach bounds (R16, R18; a Missed! for Calamity Janet, R63)
_SHOTS = ("BANG", "MISSED")


def card_moves(holder: Holder, card: str, dist: Mapping[int, int], holders: Sequence[Holder], *, bang_ok: bool,
               jailable: Callable[[int], bool]) -> list[Move]:
    """Every legal phase-2 ``play`` of ``card`` from ``holder``'s hand. ``dist``:
    the distance ``holder`` sees every possible target at (its keys are the
    targets); ``bang_ok``: the BANG! limit allows one more (R18);
    ``jailable(target)``: the table lets ``target`` be jailed at all (R38)."""
    key = KEY[card]
    if key in _SHOTS:  # the commonest aimed card, here rather than a call further; the limit first (R18)
        if not bang_ok or (key == "MISSED" and holder.character != CALAMITY_JANET):
            return []  # R18, R24
        reach = reach_of(holder.in_play)
        return [{"type": "play", "card": card, "target": target} for target in sorted(dist) if dist[target] <= reach]
    if key in TARGETED:
        return _aimed_moves(card, key, dist, holders, jailable)
    if card in BLUE and card not in WEAPON_OF and any(KEY[mine] == key for mine in holder.in_play):
        return []  # R19
    return [{"type": "play", "card": card}]


def _aimed_moves(card: str, key: str, dist: Mapping[int, int], holders: Sequence[Holder],
                 jailable: Callable[[int], bool]) -> list[Move]:
    """``card_moves`` of a card aimed at a target but a shot (R30–R32, R38)."""
    if key in PICKED:
        return _picked(card, key, dist, holders)
    if key == "DUEL":
        return _aimed(card, sorted(dist))
    return _aimed(card, [target for target in sorted(dist) if jailable(target) and not has_jail(holders[target])])


def _aimed(card: str, targets: Sequence[int]) -> list[Move]:
    """A ``play`` of ``card`` at each of ``targets``."""
    return [{"type": "play", "card": card, "target": target} for target in targets]


def _picked(card: str, key: str, dist: Mapping[int, int], holders: Sequence[Holder]) -> list[Move]:
    """A ``play`` of Panic! (at distance 1, R30) or Cat Balou (R31) at each target, for each pick."""
    return [{"type": "play", "card": card, "target": target, "pick": pick} for target in sorted(dist)
            if key != "PANIC" or dist[target] <= 1 for pick in picks(holders[target])]


#: the rule each targeted card's refusal names
PLAY_RULE = {"BANG": "R23", "MISSED": "R63", "PANIC": "R30", "CATBALOU": "R31", "DUEL": "R32", "JAIL": "R38"}


def why_not_play(holder: Holder, move: MoveLike, dist: Mapping[int, int], holders: Sequence[Holder], *,
                 bang_ok: bool, jailable: Callable[[int], bool], target_rule: str | None = None,
                 range_rule: str | None = None) -> Refusal:
    """Why ``card_moves`` does not offer ``move`` (a ``play`` of a card in
    ``holder``'s hand). ``target_rule``/``range_rule`` name the table's own rule
    for a target that is not one / out of range (default: the card's, R16, R17)."""
    card: str = move_field(move, "card")
    key = KEY[card]
    target = move_field(move, "target")
    if key == "MISSED" and holder.character != CALAMITY_JANET:
        return "missed_only_in_response", "R24", "Missed! is played only against a shot aimed at you"
    rule = PLAY_RULE.get(key, "R19")
    if key in _SHOTS and not bang_ok:
        return "bang_limit", "R18", "one BANG! per turn unless Volcanic or Willy the Kid"
    if key in TARGETED and target is None:
        return "target_required", target_rule or rule, f"a {key} needs a target"
    if target is not None:
        refused = _why_not_target(holder, card, target, dist, holders, jailable=jailable, target_rule=target_rule,
                                  range_rule=range_rule)
        if refused is not None:
            return refused
    if card in BLUE:
        return "duplicate_in_play", "R19", f"a {key} is already in play in front of you"
    return "illegal_play", "R11", "this card cannot be played now"


def _why_not_target(holder: Holder, card: str, target: object, dist: Mapping[int, int], holders: Sequence[Holder], *,
                    jailable: Callable[[int], bool], target_rule: str | None, range_rule: str | None) -> Refusal | None:
    """Why ``card`` may not be aimed at ``target`` (R21, R22: at all; else ``_why_not_at``), or None."""
    key = KEY[card]
    if key not in TARGETED:  # R21, R22: a blue card goes in front of you, a brown one to the discard
        return "no_target", "R21" if card in BLUE else "R22", f"a {key} takes no target"
    if type(target) is not int or target not in dist:
        return "invalid_target", target_rule or PLAY_RULE.get(key, "R19"), \
            "the target must be another character in the game"
    return _why_not_at(holder, key, target, dist[target], holders[target], jailable=jailable, range_rule=range_rule)


def _why_not_at(holder: Holder, key: str, target: int, distance: int, aimed: Holder, *,
                jailable: Callable[[int], bool], range_rule: str | None) -> Refusal | None:
    """Why a card of ``key`` may not be aimed at ``target`` (``aimed``, seen at
    ``distance``): out of reach (R16, R17), a Jail the target may not take
    (R19, R38), nothing to pick (R30, R31); None: nothing against the target."""
    rule = PLAY_RULE.get(key, "R19")
    if key in _SHOTS:
        reach = reach_of(holder.in_play)
        return "out_of_range", range_rule or "R16", f"{target} is at distance {distance}, reach {reach}"
    if key == "PANIC" and distance > 1:
        return "out_of_range", range_rule or "R17", f"Panic! needs distance 1, {target} is at {distance}"
    if key == "JAIL":
        if not jailable(target):
            return "jail_on_sheriff", "R38", "the Sheriff cannot be jailed"
        return "duplicate_in_play", "R19", "that character already has a Jail"
    if key in PICKED:
        if not aimed.hand and not aimed.in_play:
            return "target_has_no_cards", rule, "the target has no cards"
        return "invalid_pick", rule, "pick 'hand' (a non-empty hand) or a card in play in front of the target"
    return None


def sid_moves(holder: Holder) -> list[Move]:
    """Sid Ketchum: discard 2 → +1 life, not at full life (R72)."""
    if holder.character != SID_KETCHUM or holder.life >= holder.max_life or len(holder.hand) < 2:
        return []
    hand = sorted(holder.hand)
    return [{"type": "sid", "cards": [first, second]} for at, first in enumerate(hand) for second in hand[at + 1:]]


def why_not_sid(holder: Holder, cards: Sequence[str]) -> Refusal | None:
    """Why Sid Ketchum's ability is refused (R72), or None."""
    if holder.character != SID_KETCHUM:
        return "not_sid_ketchum", "R72", "only Sid Ketchum may discard 2 cards for a life point"
    if holder.life >= holder.max_life:
        return "full_life", "R72", "Sid Ketchum cannot use his ability at full life"
    if not all(card in holder.hand for card in cards) or len(set(cards)) != len(cards):
        return "card_not_in_hand", "R72", "both cards must be in your hand"
    return None
