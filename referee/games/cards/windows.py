"""The answers to an open window (R43–R49): Missed!, BANG!, Beer, Barrels,
Sid Ketchum, the pass and the picks of the General Store and Lucky Duke;
part of ``rules``."""
from __future__ import annotations

from collections.abc import Iterable

from referee.games.cards.characters import CALAMITY_JANET, JOURDONNAIS
from referee.games.cards.core import (
    PASS,
    PASSABLE,
    WINDOW_MOVES,
    WINDOW_RULE,
    Holder,
    Move,
    MoveLike,
    Refusal,
    move_field,
    move_type,
)
from referee.games.cards.deck import KEY
from referee.games.cards.plays import sid_moves, why_not_sid


def answer_keys(holder: Holder, kind: str) -> tuple[str, ...]:
    """Card keys that answer a window (Calamity Janet swaps, R63)."""
    if kind == "shot":
        return ("MISSED", "BANG") if holder.character == CALAMITY_JANET else ("MISSED",)
    if kind in ("indians", "duel"):
        return ("BANG", "MISSED") if holder.character == CALAMITY_JANET else ("BANG",)
    return ("BEER",)


def barrel_sources(holder: Holder, used: Iterable[str], played: int, misses: int, needed: int) -> list[str]:
    """Barrel "draw!"s still open in a shot window: each Barrel in play and
    Jourdonnais once, all before the first Missed! (R35, R44, R66)."""
    if played or misses >= needed:
        return []
    done = set(used)
    out = [card for card in sorted(holder.in_play) if KEY[card] == "BARREL" and card not in done]
    if holder.character == JOURDONNAIS and "jourdonnais" not in done:
        out.append("jourdonnais")
    return out


def window_moves(holder: Holder, kind: str, *, used: Iterable[str] = (), played: int = 0, misses: int = 0,
                 needed: int = 1, limbo: Iterable[str] = ()) -> list[Move]:
    """Every legal answer of ``holder`` to an open window of ``kind`` (R43):
    Barrels, answering cards, Sid Ketchum and the pass; a pick among the
    revealed cards for the General Store and Lucky Duke (R29, R42)."""
    if kind in PASSABLE:
        out: list[Move] = []
        if kind == "shot":
            out.extend({"type": "barrel", "source": source}
                       for source in barrel_sources(holder, used, played, misses, needed))
        keys = answer_keys(holder, kind)
        out.extend({"type": "respond", "card": card} for card in sorted(holder.hand) if KEY[card] in keys)
        out.extend(sid_moves(holder))
        out.append(dict(PASS))
        return out
    return [{"type": "choose", "card": card} for card in sorted(set(limbo))]


def why_not_answer(holder: Holder, kind: str, move: MoveLike, *, used: Iterable[str] = (), played: int = 0,
                   misses: int = 0, needed: int = 1, limbo: Iterable[str] = ()) -> Refusal | None:
    """Why ``move`` does not answer the open window of ``kind``, or None if it does."""
    answer = move_type(move)
    rule = WINDOW_RULE[kind]
    if answer not in WINDOW_MOVES[kind]:
        return ("not_now", "R13" if answer == "play" else rule,
                f"the open {kind} window accepts {', '.join(WINDOW_MOVES[kind])}")
    if answer == "pass":
        return None
    if answer == "sid":
        return why_not_sid(holder, move_field(move, "cards"))
    if answer == "respond":
        return _why_not_respond(holder, kind, move_field(move, "card"))
    if answer == "barrel":
        return _why_not_barrel(holder, move_field(move, "source"), used=used, played=played, misses=misses,
                               needed=needed)
    card = move_field(move, "card")  # choose
    if card not in set(limbo):
        return "not_offered", rule, f"{card} is not among the revealed cards"
    return None


def _why_not_respond(holder: Holder, kind: str, card: str) -> Refusal | None:
    """Why ``card`` does not answer the open window of ``kind`` (R24, R25, R32, R34, R63), or None."""
    if card not in holder.hand:
        return "card_not_in_hand", WINDOW_RULE[kind], f"{card} is not in your hand"
    if KEY[card] not in answer_keys(holder, kind):
        code, why = {"shot": ("not_a_missed", "R24"), "dying": ("not_a_beer", "R25")}.get(
            kind, ("not_a_bang", "R32" if kind == "duel" else "R34"))
        return code, why, f"{card} does not answer a {kind} window"
    return None


def _why_not_barrel(holder: Holder, source: str, *, used: Iterable[str], played: int, misses: int,
                    needed: int) -> Refusal | None:
    """Why a "draw!" of ``source`` is refused in the shot window (R35, R44), or None."""
    if source in set(used):
        return "barrel_used", "R35", "one \"draw!\" per Barrel per shot"
    if played:
        return "barrel_after_missed", "R44", "Barrel draws come before the first Missed!"
    if source not in barrel_sources(holder, used, played, misses, needed):
        return "no_barrel", "R35", f"no Barrel {source!r} in front of you"
    return None
