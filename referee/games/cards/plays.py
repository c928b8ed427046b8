"""Phase-2 plays (R18–R40) and Sid Ketchum's ability (R72): every legal
``play`` of a card, why one is refused; part of ``rules``."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from referee.games.cards.characters import CALAMITY_JANET, SID_KETCHUM
from referee.games.cards.core import PICKED, TARGETED, Holder, Move, Refusal, has_jail, picks, reach_of
from referee.games.cards.deck import BLUE, KEY, WEAPON_OF


def card_moves(p: Holder, card: str, dist: Mapping[int, int], holders: Sequence[Holder], *, bang_ok: bool,
               jailable: Callable[[int], bool]) -> list[Move]:
    """Every legal phase-2 ``play`` of ``card`` from ``p``'s hand. ``dist``:
    the distance ``p`` sees every possible target at (its keys are the
    targets); ``bang_ok``: the BANG! limit allows one more (R18);
    ``jailable(t)``: the table lets ``t`` be jailed at all (R38)."""
    k = KEY[card]
    if k in TARGETED:
        if k == "MISSED" and p.character != CALAMITY_JANET:
            return []  # R24
        if k in ("BANG", "MISSED") and not bang_ok:
            return []
        out: list[Move] = []
        if k in ("BANG", "MISSED"):
            r = reach_of(p.in_play)
            out.extend({"type": "play", "card": card, "target": t} for t in sorted(dist) if dist[t] <= r)
        elif k in PICKED:
            for t in sorted(dist):
                if k == "PANIC" and dist[t] > 1:
                    continue
                out.extend({"type": "play", "card": card, "target": t, "pick": pick} for pick in picks(holders[t]))
        elif k == "DUEL":
            out.extend({"type": "play", "card": card, "target": t} for t in sorted(dist))
        else:  # JAIL
            out.extend({"type": "play", "card": card, "target": t} for t in sorted(dist)
                       if jailable(t) and not has_jail(holders[t]))
        return out
    if card in BLUE and card not in WEAPON_OF and any(KEY[c] == k for c in p.in_play):
        return []  # R19
    return [{"type": "play", "card": card}]


#: the rule each targeted card's refusal names
PLAY_RULE = {"BANG": "R23", "MISSED": "R63", "PANIC": "R30", "CATBALOU": "R31", "DUEL": "R32", "JAIL": "R38"}


def why_not_play(p: Holder, move: Move, dist: Mapping[int, int], holders: Sequence[Holder], *, bang_ok: bool,
                 jailable: Callable[[int], bool], target_rule: str | None = None,
                 range_rule: str | None = None) -> Refusal:
    """Why ``card_moves`` does not offer ``move`` (a ``play`` of a card in
    ``p``'s hand). ``target_rule``/``range_rule`` name the table's own rule
    for a target that is not one / out of range (default: the card's, R16, R17)."""
    card = move["card"]
    k = KEY[card]
    target = move.get("target")
    if k == "MISSED" and p.character != CALAMITY_JANET:
        return "missed_only_in_response", "R24", "Missed! is played only against a shot aimed at you"
    rule = PLAY_RULE.get(k, "R19")
    if k in ("BANG", "MISSED") and not bang_ok:
        return "bang_limit", "R18", "one BANG! per turn unless Volcanic or Willy the Kid"
    if k in TARGETED and target is None:
        return "target_required", target_rule or rule, f"a {k} needs a target"
    if target is not None:
        if k not in TARGETED:  # R21, R22: a blue card goes in front of you, a brown one to the discard
            return "no_target", "R21" if card in BLUE else "R22", f"a {k} takes no target"
        if type(target) is not int or target not in dist:
            return "invalid_target", target_rule or rule, "the target must be another character in the game"
        t = holders[target]
        d = dist[target]
        if k in ("BANG", "MISSED"):
            return "out_of_range", range_rule or "R16", f"{target} is at distance {d}, reach {reach_of(p.in_play)}"
        if k == "PANIC" and d > 1:
            return "out_of_range", range_rule or "R17", f"Panic! needs distance 1, {target} is at {d}"
        if k == "JAIL":
            if not jailable(target):
                return "jail_on_sheriff", "R38", "the Sheriff cannot be jailed"
            return "duplicate_in_play", "R19", "that character already has a Jail"
        if k in PICKED:
            if not t.hand and not t.in_play:
                return "target_has_no_cards", rule, "the target has no cards"
            return "invalid_pick", rule, "pick 'hand' (a non-empty hand) or a card in play in front of the target"
    if card in BLUE:
        return "duplicate_in_play", "R19", f"a {k} is already in play in front of you"
    return "illegal_play", "R11", "this card cannot be played now"


def sid_moves(p: Holder) -> list[Move]:
    """Sid Ketchum: discard 2 → +1 life, not at full life (R72)."""
    if p.character != SID_KETCHUM or p.life >= p.max_life or len(p.hand) < 2:
        return []
    h = sorted(p.hand)
    return [{"type": "sid", "cards": [a, b]} for i, a in enumerate(h) for b in h[i + 1:]]


def why_not_sid(p: Holder, cards: list[str]) -> Refusal | None:
    """Why Sid Ketchum's ability is refused (R72), or None."""
    if p.character != SID_KETCHUM:
        return "not_sid_ketchum", "R72", "only Sid Ketchum may discard 2 cards for a life point"
    if p.life >= p.max_life:
        return "full_life", "R72", "Sid Ketchum cannot use his ability at full life"
    if not all(c in p.hand for c in cards) or len(set(cards)) != len(cards):
        return "card_not_in_hand", "R72", "both cards must be in your hand"
    return None
