"""``referee worker --log-jobs`` (on in ``referee run``): a line a job in
words a person reads at a glance, instead of RQ's four lines of worker ids
and job ids. A bot's turn says its game, seat, the move it made and how
long the job took; a deadline, a turn clock or a tournament step says what
it did. No token is ever in a job's arguments, so none is in a line."""
from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

from referee.http.accesslog import stamped, took

#: the job functions (``workers.jobs``) by the name a line gives them
JOB_NAMES = {"play_bot_turn": "bot turn", "fire_timeout": "deadline", "fire_turn_clock": "turn clock",
             "give_open_seats": "open seats", "start_tournament": "tournament", "tournament_game_finished":
             "tournament"}
#: a bot turn's outcomes that mean a move was made (``workers.jobs.play_bot_turn``)
MOVED = ("played", "defaulted")
#: the longest a move is shown (a move with a long list of cards is cut)
MOVE_CHARS = 60

#: the first move made at a game's version: ``(game id, version) -> the move, or None``
FirstMove = Callable[[str, int], Mapping[str, Any] | None]


def job_line(func: str, args: Sequence[Any], outcome: Any, ok: bool, seconds: float,
             move: Mapping[str, Any] | None = None) -> str:
    """One job's line, without the time of day: what ran, on what, what came of it, how long it took."""
    short = func.rsplit(".", 1)[-1]
    what = JOB_NAMES.get(short, short)
    on = _subject(short, args)
    if not ok:
        result = "failed (RQ's traceback above)"
    elif move is not None:
        result = move_text(move) + ("" if outcome == "played" else f" ({outcome})")
    else:
        result = str(outcome)
    return f"{what:<10} {on}  {result}  {took(seconds)}"


def _subject(func: str, args: Sequence[Any]) -> str:
    """The job's game (and seat), or its tournament (and game)."""
    if func in ("start_tournament", "tournament_game_finished"):
        return str(args[0]) + (f" game {args[1]}" if len(args) > 1 else "")
    if func == "play_bot_turn" and len(args) > 1:
        return f"game {args[0]} seat {args[1]}"
    return f"game {args[0]}" if args else "-"


def move_text(move: Mapping[str, Any]) -> str:
    """A move on one line: its ``type`` then its other fields, ``play card=BANG-2C target=1``."""
    rest = " ".join(f"{k}={_value(v)}" for k, v in move.items() if k != "type")
    text = f"{move.get('type', '?')} {rest}".strip()
    return text if len(text) <= MOVE_CHARS else text[:MOVE_CHARS - 1] + "…"


def _value(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(_value(v) for v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


class JobLines:
    """The worker's ``on_job``: prints each job's line, a bot turn's with
    the first move its job made, read back from the game's log
    (``first_move``: one short read, only while these lines are on)."""

    def __init__(self, first_move: FirstMove, out: IO[str] | None = None) -> None:
        self.first_move = first_move
        self.out = out

    def __call__(self, job: Any, outcome: Any, ok: bool, seconds: float) -> None:
        func, args = str(job.func_name), tuple(job.args or ())
        move = None
        if ok and func.endswith("play_bot_turn") and outcome in MOVED and len(args) == 3:
            try:
                move = self.first_move(str(args[0]), int(args[2]))
            except Exception:  # a line without its move rather than a worker stopped over a log line
                move = None
        line = job_line(func, args, outcome, ok, seconds, move)
        print(stamped(line), file=self.out or sys.stdout, flush=True)


def first_move_of(read: Callable[[str, int, int], list[dict[str, Any]]]) -> FirstMove:
    """``FirstMove`` over an event store's ``read(game_id, after, upto)``: the
    move of the event just after ``version`` (a bot's job moves from there)."""
    def first(game_id: str, version: int) -> Mapping[str, Any] | None:
        for envelope in read(game_id, version, version + 1):
            data = envelope.get("data") or {}
            if envelope.get("type") == "move" and isinstance(data.get("move"), Mapping):
                return dict(data["move"])
        return None
    return first
