"""Built-in bots: ``random`` (uniform over the legal moves) and ``heuristic``
(sensible play from its own seat's view only). Pure: a bot gets what the API
shows its seat — ``seat_view`` — and a seeded ``Rng``, nothing else."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.jsonenc import canonical_bytes
from referee.engine.platform import playing_moves
from referee.engine.protocol import Json, Move, RefereeError, Ruleset
from referee.engine.rng import Rng

BUILT_IN = ("random", "heuristic")

#: a registered bot's answer that fails the move boundary (``Ruleset.canonical_move``: not a move
#: its published schema accepts, e.g. ``"target": true``): the bot's fault, defaulted at once
INVALID_ANSWER = "invalid_answer"
#: a well-formed answer that is not, byte for byte once canonical, one of the turn's ``legal_moves``
ILLEGAL_MOVE = "illegal_move"
#: the turn was asked ``ATTEMPTS`` times and no job got a move recorded (a job that failed
#: for any other reason: the worker died, Redis failed, the rules refused): its default, never asked again
ATTEMPTS_SPENT = "attempts_spent"
#: how many times one turn of a registered bot (game, version, seat) is asked before its default is played
ATTEMPTS = 3
#: every cause a registered bot's default is recorded with (``by: {bot, default: cause}``), and
#: ``http_<status>`` (``referee.bots.webhook``); the audit accepts these and no other
DEFAULT_CAUSES = frozenset({INVALID_ANSWER, ILLEGAL_MOVE, ATTEMPTS_SPENT, "unknown_bot", "timeout",
                            "response_too_large", "tls_error", "unreachable", "no_attempt", "not_json",
                            "no_move", "bad_answer", "url_refused"})


def is_default_cause(cause: object) -> bool:
    """Whether ``cause`` is one a registered bot's default is recorded with:
    one of ``DEFAULT_CAUSES``, or ``http_`` and a status (three digits, 100
    to 999, as ``http.client`` reads a status line)."""
    if type(cause) is not str:
        return False
    if cause in DEFAULT_CAUSES:
        return True
    code = cause.removeprefix("http_")
    return code != cause and len(code) == 3 and code.isascii() and code.isdigit() and code[0] != "0"


def choose(kind: str, ruleset: str, view: Json, legal_moves: list[Move], seed: str) -> Move:
    """The move built-in bot ``kind`` plays; ``seed`` makes it reproducible."""
    rng = Rng(seed.encode())
    legal_moves = list(playing_moves(legal_moves))  # a built-in bot never resigns
    if kind == "random":
        return rng.choice(legal_moves)
    if kind == "heuristic":
        from referee.games import registry
        chooser = registry.heuristic(ruleset)
        if chooser is None:
            raise KeyError(f"ruleset {ruleset!r} has no heuristic bot")
        move: Move = chooser(view, legal_moves, rng)
        return move
    raise KeyError(f"no built-in bot {kind!r}")


def forced(legal_moves: Sequence[Move]) -> Move | None:
    """The move every built-in bot plays when it has no choice: the one move of
    ``legal_moves`` it may play (``resign`` aside, which no built-in bot plays
    while there is another), or ``None`` when there are several (or none).
    ``random`` draws it as ``choose`` would (its one option), and a heuristic
    returns an element of the moves it is given (``referee.bots.heuristic``),
    so the audit re-derives such a move without the seat's view."""
    playing = playing_moves(legal_moves)
    return playing[0] if len(playing) == 1 else None


def check_answer(ruleset: Ruleset[Any], answer: Any, legal_moves: list[Move]) -> tuple[Move | None, str | None]:
    """A registered bot's answer through the boundary every move crosses:
    ``(canonical move, None)`` when it matches its published schema
    (``Ruleset.canonical_move``, which makes ``2.0`` the integer 2 and never
    takes ``true`` for 1) and its canonical bytes are those of one of the
    turn's ``legal_moves``; else ``(None, INVALID_ANSWER)`` or ``(None,
    ILLEGAL_MOVE)``. Compared byte for byte, not by Python's ``==``, where
    ``1 == 1.0 == True``."""
    try:
        move = ruleset.canonical_move(answer)
    except RefereeError:
        return None, INVALID_ANSWER
    sent = canonical_bytes(move)
    if any(canonical_bytes(legal) == sent for legal in legal_moves):
        return move, None
    return None, ILLEGAL_MOVE
