"""The end of the game (R55–R58, R82): whether an elimination ends it, and
the result it records (winners, each seat's outcome, the reason and its
sentence)."""
from __future__ import annotations

from typing import Any

from referee.games.bang.roles import DEPUTY, OUTLAW, RENEGADE, SHERIFF, TARGET_3P
from referee.games.bang.state import Seat, State

Json = dict[str, Any]

#: a result's reason -> its sentence (the result's ``detail``; R55, R56, R82), filled with the winners
DETAILS: dict[str, str] = {
    "target_eliminated": "Seat {w} ({side}) eliminated its target and wins the 3-player game (R82).",
    "last_man_standing": "Seat {w} ({side}) is the last player alive in the 3-player game (R82).",
    "renegade_alone": "The Sheriff is dead and the Renegade, seat {w}, is the only one left: he wins alone (R55).",
    "sheriff_dead": "The Sheriff is dead: the Outlaws win, dead or alive (R55).",
    "outlaws_and_renegade_dead": "Every Outlaw and the Renegade are dead: the Sheriff and his Deputies win (R56).",
}


def result_detail(result: Json) -> str:
    """The sentence of a result (its ``reason`` and winners; R55, R56, R82)."""
    return DETAILS[result["reason"]].format(w=", ".join(map(str, result["winners"])), side=result["winning_side"])


def _result(state: State, winners: list[Seat], reason: str, side: str) -> Json:
    won = set(winners)
    out: Json = {
        "winners": sorted(won),
        "seats": [{"seat": player.seat, "role": player.role, "outcome": "win" if player.seat in won else "loss",
                   "alive": player.alive} for player in state.players],
        "reason": reason,
        "winning_side": side,
    }
    out["detail"] = result_detail(out)
    return out


def end_result(state: State, victim: Seat, killer: Seat) -> Json | None:
    """The result if the game is over after ``victim``'s elimination by
    ``killer`` (-1: nobody) (R55–R57, R82), else None."""
    if state.three_player:
        return _three_player_result(state, victim, killer)
    players = state.players
    alive = [player for player in players if player.alive]
    sheriff = next(player for player in players if player.role == SHERIFF)
    if not sheriff.alive:
        if len(alive) == 1 and alive[0].role == RENEGADE:
            return _result(state, [alive[0].seat], "renegade_alone", "renegade")
        return _result(state, [player.seat for player in players if player.role == OUTLAW], "sheriff_dead",
                       "outlaws")
    if not any(player.role in (OUTLAW, RENEGADE) for player in alive):
        return _result(state, [player.seat for player in players if player.role in (SHERIFF, DEPUTY)],
                       "outlaws_and_renegade_dead", "sheriff")
    return None


def _three_player_result(state: State, victim: Seat, killer: Seat) -> Json | None:
    """R82: whoever eliminates his target wins; else the last one alive."""
    players = state.players
    if killer >= 0 and players[killer].alive and TARGET_3P[players[killer].role] == players[victim].role:
        return _result(state, [killer], "target_eliminated", players[killer].role)
    alive = [player for player in players if player.alive]
    if len(alive) == 1:
        return _result(state, [alive[0].seat], "last_man_standing", alive[0].role)
    return None
