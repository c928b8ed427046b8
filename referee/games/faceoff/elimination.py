"""Hits, dying, kills and replacements (FO39–FO49), and the game's end
(FO47, FO49, FO58)."""
from __future__ import annotations

from referee.games.cards import rules as cardrules
from referee.games.cards.characters import CHARACTERS, LIFE
from referee.games.faceoff.context import Ctx, GameOver, TurnEnds
from referee.games.faceoff.flow import Frame, frame_but
from referee.games.faceoff.state import RENEGADE, Char

#: the frames that concern their ``char`` alone (FO40 step 4); a duel concerns both duellists
_OWN_FRAMES = frozenset({"shot", "indians", "dying", "after_hit", "kit"})


def hit(ctx: Ctx, char: int, amount: int, responsible: int) -> None:
    """``char`` loses ``amount`` life; ``responsible`` the responsible character (-1: Dynamite); at 0 life,
    a dying window (FO39) credited to ``responsible``'s controller, never to ``char``'s own (FO45)."""
    ctx.emit("life_changed", {"char": char, "kind": "loss", "amount": amount,
                              "by": responsible if responsible >= 0 else None})
    ctx.stack.append(Frame("after_hit", char, responsible, amount=amount))
    if ctx.state.chars[char].life <= 0:
        seat = ctx.credit_of(responsible)
        victim_ctl = ctx.state.owner(char) if char != RENEGADE else ctx.credit_of(RENEGADE)
        if seat == victim_ctl:
            seat = -1  # FO45: no player scores by killing a character of his own
        ctx.stack.append(Frame("dying", char, by=responsible, seat=seat))


def eliminate(ctx: Ctx, char: int, responsible: int, seat: int) -> None:
    """FO40: cards away, the kill credited, the end checked, the character replaced."""
    ch = ctx.state.chars[char]
    _clear_cards(ctx, char, ch, responsible)
    credited = _credited(ctx, responsible, seat)
    ctx.emit("character_eliminated", {"char": char, "character": ch.name,
                                      "by": responsible if responsible >= 0 else None, "credited": credited,
                                      "with_renegade": responsible == RENEGADE and seat >= 0})
    _check_two_kills(ctx)
    _drop_frames(ctx, char)
    replace_char(ctx, char)
    if char == ctx.flow.active and ctx.flow.phase not in ("bid", "place"):
        raise TurnEnds  # FO44


def _clear_cards(ctx: Ctx, char: int, holder: Char, responsible: int) -> None:
    """FO40 step 1: Vulture Sam takes the cards (R75, FO53), else they are discarded."""
    if not (holder.hand or holder.in_play):
        return
    vulture = cardrules.heir(ctx.state.chars, char)  # FO53: every character is in the game
    if char == RENEGADE and responsible < 0:
        vulture = None  # seed §13: a Renegade killed by the Dynamite has all its cards discarded
    if vulture is not None:
        ctx.emit("cards_inherited", {"char": vulture, "from": char, "hand": list(holder.hand),
                                     "in_play": list(holder.in_play), "seen_by": ctx.viewers(vulture)})
    else:
        ctx.emit("card_discarded", {"char": char, "cards": list(holder.hand + holder.in_play), "reason": "eliminated"})


def _credited(ctx: Ctx, responsible: int, seat: int) -> int | None:
    """The seat the kill counts for (FO45), ``None``: nobody; in the variant a
    second trophy must be with the Renegade's help (FO48)."""
    if seat < 0:
        return None
    s = ctx.state
    mine = s.trophies[seat]
    if s.variant and responsible != RENEGADE and len(mine) >= 1 and not any(t[1] for t in mine):
        return None
    return seat


def _check_two_kills(ctx: Ctx) -> None:
    """FO47: two kills win (FO48: one with the Renegade, in the variant)."""
    s = ctx.state
    for p in (0, 1):
        mine = s.trophies[p]
        if len(mine) >= 2 and (not s.variant or any(t[1] for t in mine)):
            game_over(ctx, [p], "two_kills")


def _drop_frames(ctx: Ctx, char: int) -> None:
    """FO40 step 4: what concerned the dead character leaves the agenda."""
    ctx.stack[:] = [frame_but(fr, targets=tuple(t for t in fr.targets if t != char)) if fr.kind == "multi" else fr
                    for fr in ctx.stack if not _concerns(fr, char)]


def _concerns(frame: Frame, char: int) -> bool:
    if frame.kind in _OWN_FRAMES:
        return frame.char == char
    if frame.kind == "duel":
        return frame.char == char or frame.other == char
    return False


def _unused(ctx: Ctx, with_set_aside: bool) -> list[str]:
    """The characters never used (FO42): not in play, not a trophy, not set aside (unless reshuffled, FO49)."""
    s = ctx.state
    used = {ch.name for ch in s.chars} | {t[0] for ts in s.trophies for t in ts}
    if with_set_aside:
        used |= set(s.set_aside)
    return [x for x in CHARACTERS if x not in used]


def replace_char(ctx: Ctx, char: int) -> None:
    """FO42/FO49: a fresh character from those never used, drawing its life."""
    pool = _unused(ctx, True)
    reshuffled = not pool
    if reshuffled:
        pool = _unused(ctx, False)
        if not pool:
            a, b = len(ctx.state.trophies[0]), len(ctx.state.trophies[1])
            game_over(ctx, [0] if a > b else [1] if b > a else [], "no_characters_left")
    name = pool[ctx.rng.below(len(pool))]
    ctx.emit("character_replaced", {"char": char, "character": name, "life": LIFE[name],
                                    "pool_reshuffled": reshuffled})
    ctx.draw(char, LIFE[name], "replacement")


def result_detail(reason: str, winners: list[int], resigned: int | None = None) -> str:
    """The result's sentence, citing its rule (FO47, FO49, FO58)."""
    if reason == "resigned":
        return f"Seat {resigned} resigned, so seat {1 - int(resigned or 0)} wins (FO58)."
    if reason == "two_kills":
        return f"Seat {winners[0]} scored two kills and wins (FO47)."
    if winners:
        return f"No unused character is left and seat {winners[0]} has more kills, so it wins (FO49)."
    return "No unused character is left and both players have as many kills: a draw (FO49)."


def game_over(ctx: Ctx, winners: list[int], reason: str, resigned: int | None = None) -> None:
    """The game ends at once (FO47, FO49, FO58): every seat's outcome and kills."""
    s = ctx.state
    result = {"winners": winners,
              "seats": [{"seat": p, "role": "sheriff" if p == s.sheriff_seat else "outlaw",
                         "outcome": "win" if p in winners else "loss" if winners else "draw",
                         "kills": len(s.trophies[p])} for p in (0, 1)],
              "reason": reason, "detail": result_detail(reason, winners, resigned)}
    ctx.stack.clear()
    ctx.emit("game_over", {"result": result})
    raise GameOver
