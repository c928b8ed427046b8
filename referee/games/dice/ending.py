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


#: ``(winners, draw, reason)``
End = tuple[list[int], bool, str]


def detail(reason: str, winners: list[int] | tuple[int, ...]) -> str:
    """The sentence of the end ``reason`` (its rule ID first), as v1 recorded it as ``reason``."""
    return DETAILS[reason].format(seat=winners[0] if winners else None)


def ending_after(state: State, dead: list[int]) -> End | None:
    """The end check as if ``dead`` were eliminated (D61: no Ghost if the batch ends the game)."""
    alive = tuple(False if seat in dead else living for seat, living in enumerate(state.alive))
    return ending(state.replace(alive=alive), {})


def ending(state: State, losses: dict[int, int], personal_dead: list[int] | None = None) -> End | None:
    """D32, D33, D62, D70: ``(winners, draw, reason)`` if the game is over
    (with ``losses`` still to subtract), else ``None``."""
    alive = [living and state.life[seat] > losses.get(seat, 0) for seat, living in enumerate(state.alive)]
    living = [seat for seat, still in enumerate(alive) if still]
    if state.three:
        return _duel_end(state, living, personal_dead or [])
    return _team_end(state, alive, living)


def _duel_end(state: State, living: list[int], personal_dead: list[int]) -> End | None:
    """D70 (3 players): the active player who personally eliminated his
    target wins; else the last player alive; nobody alive is a draw."""
    active = state.turn
    target = next(seat for seat in range(state.players) if state.kind(seat) == TARGET_ROLE[state.kind(active)])
    if target in personal_dead:
        return [active], False, TARGET_ELIMINATED
    if len(living) == 1:
        return living, False, LAST_ALIVE
    if not living:
        return [], True, NOBODY_ALIVE
    return None


def _team_end(state: State, alive: list[bool], living: list[int]) -> End | None:
    """D32, D33, D62: the Sheriff dead, the Renegade alone or the Outlaws win;
    every Outlaw and Renegade out, the Sheriff and his Deputies win (a Renegade
    Ghost with the side ``_ghost_side`` gives him)."""
    kinds = [state.kind(seat) for seat in range(state.players)]
    ghost_side = _ghost_side(state, kinds)
    if not alive[kinds.index(SHERIFF)]:
        if len(living) == 1 and kinds[living[0]] == RENEGADE:
            return living, False, RENEGADE_LAST
        return _side(state, kinds, (OUTLAW,), ghost_side == OUTLAW), False, OUTLAWS_WIN
    if not any(kinds[seat] in (OUTLAW, RENEGADE) for seat in living):
        return _side(state, kinds, (SHERIFF, DEPUTY), ghost_side == DEPUTY), False, SHERIFF_WINS
    return None


def _ghost_side(state: State, kinds: list[str]) -> str | None:
    """D62: a Renegade's Ghost plays for the Outlaws with 5 or 7 players, else
    for the Deputies (4 players: RULING); any other Ghost keeps his role."""
    if state.ghost is not None and kinds[state.ghost] == RENEGADE:
        return OUTLAW if state.players in (5, 7) else DEPUTY
    return None


def _side(state: State, kinds: list[str], roles: tuple[str, ...], with_ghost: bool) -> list[int]:
    """The seats of ``roles``, and the Ghost if he plays for them (D62)."""
    return [seat for seat in range(state.players) if kinds[seat] in roles or (with_ghost and seat == state.ghost)]
