"""The end of the game and its winners (D32, D33, D62, D70)."""
from __future__ import annotations

from referee.games.dice.role_cards import TARGET_ROLE
from referee.games.dice.state import State
from referee.games.roles import DEPUTY, OUTLAW, RENEGADE, SHERIFF

#: the end's code (``result.reason``) -> its rule and sentence (``result.detail``)
TARGET_ELIMINATED, LAST_ALIVE, NOBODY_ALIVE = "target_eliminated", "last_alive", "nobody_alive"
RENEGADE_LAST, OUTLAWS_WIN, SHERIFF_WINS = "renegade_last", "outlaws_win", "sheriff_wins"
DETAILS: dict[str, str] = {
    TARGET_ELIMINATED: "D70: seat {seat} personally eliminated his target",
    LAST_ALIVE: "D70: the last player alive wins",
    NOBODY_ALIVE: "D70: nobody is left alive (draw)",
    RENEGADE_LAST: "D32: the Sheriff is dead and the Renegade is the last alive",
    OUTLAWS_WIN: "D32: the Sheriff is dead: the Outlaws win",
    SHERIFF_WINS: "D32: every Outlaw and Renegade is out: the Sheriff wins",
}


def detail(reason: str, winners: list[int] | tuple[int, ...]) -> str:
    """The sentence of the end ``reason`` (its rule ID first), as v1 recorded it as ``reason``."""
    return DETAILS[reason].format(seat=winners[0] if winners else None)


def ending_after(s: State, dead: list[int]) -> tuple[list[int], bool, str] | None:
    """The end check as if ``dead`` were eliminated (D61: no Ghost if the batch ends the game)."""
    alive = tuple(False if p in dead else a for p, a in enumerate(s.alive))
    return ending(s.replace(alive=alive), {})


def ending(s: State, losses: dict[int, int], personal_dead: list[int] | None = None
           ) -> tuple[list[int], bool, str] | None:
    """D32, D33, D62, D70: ``(winners, draw, reason)`` if the game is over
    (with ``losses`` still to subtract), else ``None``."""
    alive = [a and s.life[p] > losses.get(p, 0) for p, a in enumerate(s.alive)]
    living = [p for p, a in enumerate(alive) if a]
    n = s.players
    if s.three:
        active = s.turn
        target = next(p for p in range(n) if s.kind(p) == TARGET_ROLE[s.kind(active)])
        if personal_dead and target in personal_dead:
            return [active], False, TARGET_ELIMINATED
        if len(living) == 1:
            return living, False, LAST_ALIVE
        if not living:
            return [], True, NOBODY_ALIVE
        return None
    kinds = [s.kind(p) for p in range(n)]
    ghost_side = None
    if s.ghost is not None and kinds[s.ghost] == RENEGADE:
        ghost_side = OUTLAW if n in (5, 7) else DEPUTY  # D62 (4 players: RULING, Deputies)
    sheriff = kinds.index(SHERIFF)
    if not alive[sheriff]:
        if len(living) == 1 and kinds[living[0]] == RENEGADE:
            return living, False, RENEGADE_LAST
        winners = [p for p in range(n) if kinds[p] == OUTLAW or (p == s.ghost and ghost_side == OUTLAW)]
        return winners, False, OUTLAWS_WIN
    if not any(kinds[p] in (OUTLAW, RENEGADE) for p in living):
        winners = [p for p in range(n) if kinds[p] in (SHERIFF, DEPUTY)
                   or (p == s.ghost and ghost_side == DEPUTY)]
        return winners, False, SHERIFF_WINS
    return None
