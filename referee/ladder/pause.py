"""When a pooled bot is paused, pure (issue 42 item 3): a bot that keeps
timing out or answering invalid moves spoils its tables' games, so the pool
stops matching it until its owner puts it in again (docs/ladder.md, "The
pool"). Judged after each of its pool games on a small window of its last
games, each as ``Played``: its turns (moves, timeouts and invalid answers,
as ``referee.play.latency.seat_latencies`` counts them; a default played for
an away seat is neither) and its faults (timeouts plus invalid answers).

Two rules, either pauses:

- **share**: over its last ``WINDOW_GAMES`` pool games, faults are more than
  ``MAX_FAULT_SHARE`` of its turns, once those games hold ``MIN_TURNS`` turns
  (a bot that never answers is paused after its first game of any length);
- **streak**: it had a fault in each of its last ``STREAK_GAMES`` games (a
  rare fault that comes back every game, a bot that breaks at one spot).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.engine.protocol import Json

#: the games a bot is judged on: its last ones in this pool
WINDOW_GAMES = 10
#: faults above this share of its turns over the window pause it
MAX_FAULT_SHARE = 0.2
#: ... once the window holds at least this many turns
MIN_TURNS = 10
#: a fault in each of this many games in a row pauses it
STREAK_GAMES = 5


@dataclass(frozen=True, slots=True)
class Played:
    """One bot's part in one pool game."""

    turns: int
    faults: int

    @classmethod
    def of(cls, cell: Json) -> Played:
        """From a seat's cell of ``seat_latencies`` (``moves``, ``timeouts``, ``invalid``)."""
        faults = int(cell.get("timeouts", 0)) + int(cell.get("invalid", 0))
        return cls(int(cell.get("moves", 0)) + faults, faults)


def reason(window: Sequence[Played]) -> str | None:
    """Why a bot with these last games (oldest first) is paused, in words; ``None``: it plays on."""
    last = list(window)[-WINDOW_GAMES:]
    turns, faults = sum(p.turns for p in last), sum(p.faults for p in last)
    if turns >= MIN_TURNS and faults > MAX_FAULT_SHARE * turns:
        return (f"timeouts and invalid answers were {faults} of its {turns} turns in its last {len(last)} pool "
                f"game{'s' if len(last) != 1 else ''} (more than {MAX_FAULT_SHARE:.0%} pauses a bot)")
    streak = last[-STREAK_GAMES:]
    if len(streak) == STREAK_GAMES and all(p.faults > 0 for p in streak):
        return (f"it timed out or answered invalidly in each of its last {STREAK_GAMES} pool games "
                f"({sum(p.faults for p in streak)} times)")
    return None
