"""The answers to an open window (R43–R49): Missed!, BANG!, Beer, Barrels,
Sid Ketchum, the pass and the picks of the General Store and Lucky Duke;
part of ``rules``."""
from __future__ import annotations

from collections.abc import Iterable

from referee.games.cards.characters import CALAMITY_JANET, JOURDONNAIS
from referee.games.cards.core import PASS, PASSABLE, WINDOW_MOVES, WINDOW_RULE, Holder, Move, Refusal
from referee.games.cards.deck import KEY
from referee.games.cards.plays import sid_moves, why_not_sid


def answer_keys(p: Holder, kind: str) -> tuple[str, ...]:
    """Card keys that answer a window (Calamity Janet swaps, R63)."""
    if kind == "shot":
        return ("MISSED", "BANG") if p.character == CALAMITY_JANET else ("MISSED",)
    if kind in ("indians", "duel"):
        return ("BANG", "MISSED") if p.character == CALAMITY_JANET else ("BANG",)
    return ("BEER",)


def barrel_sources(p: Holder, used: Iterable[str], played: int, misses: int, needed: int) -> list[str]:
    """Barrel "draw!"s still open in a shot window: each Barrel in play and
    Jourdonnais once, all before the first Missed! (R35, R44, R66)."""
    if played or misses >= needed:
        return []
    done = set(used)
    out = [c for c in sorted(p.in_play) if KEY[c] == "BARREL" and c not in done]
    if p.character == JOURDONNAIS and "jourdonnais" not in done:
        out.append("jourdonnais")
    return out


def window_moves(p: Holder, kind: str, *, used: Iterable[str] = (), played: int = 0, misses: int = 0,
                 needed: int = 1, limbo: Iterable[str] = ()) -> list[Move]:
    """Every legal answer of ``p`` to an open window of ``kind`` (R43):
    Barrels, answering cards, Sid Ketchum and the pass; a pick among the
    revealed cards for the General Store and Lucky Duke (R29, R42)."""
    if kind in PASSABLE:
        out: list[Move] = []
        if kind == "shot":
            out.extend({"type": "barrel", "source": b} for b in barrel_sources(p, used, played, misses, needed))
        keys = answer_keys(p, kind)
        out.extend({"type": "respond", "card": c} for c in sorted(p.hand) if KEY[c] in keys)
        out.extend(sid_moves(p))
        out.append(dict(PASS))
        return out
    return [{"type": "choose", "card": c} for c in sorted(set(limbo))]


def why_not_answer(p: Holder, kind: str, move: Move, *, used: Iterable[str] = (), played: int = 0,
                   misses: int = 0, needed: int = 1, limbo: Iterable[str] = ()) -> Refusal | None:
    """Why ``move`` does not answer the open window of ``kind``, or None if it does."""
    t = move["type"]
    rule = WINDOW_RULE[kind]
    if t not in WINDOW_MOVES[kind]:
        return ("not_now", "R13" if t == "play" else rule,
                f"the open {kind} window accepts {', '.join(WINDOW_MOVES[kind])}")
    if t == "pass":
        return None
    if t == "sid":
        return why_not_sid(p, move["cards"])
    if t == "respond":
        card = move["card"]
        if card not in p.hand:
            return "card_not_in_hand", rule, f"{card} is not in your hand"
        if KEY[card] not in answer_keys(p, kind):
            code, why = {"shot": ("not_a_missed", "R24"), "dying": ("not_a_beer", "R25")}.get(
                kind, ("not_a_bang", "R32" if kind == "duel" else "R34"))
            return code, why, f"{card} does not answer a {kind} window"
        return None
    if t == "barrel":
        source = move["source"]
        if source in set(used):
            return "barrel_used", "R35", "one \"draw!\" per Barrel per shot"
        if played:
            return "barrel_after_missed", "R44", "Barrel draws come before the first Missed!"
        if source not in barrel_sources(p, used, played, misses, needed):
            return "no_barrel", "R35", f"no Barrel {source!r} in front of you"
        return None
    # choose
    if move["card"] not in set(limbo):
        return "not_offered", rule, f"{move['card']} is not among the revealed cards"
    return None
