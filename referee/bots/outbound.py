"""Running a bot author's function against a referee over HTTP, with no
public URL (``referee play``):

- as an **outbound bot** (``run_bot``): the bot connects to the referee,
  reads its turns from ``GET /v1/bots/{id}/turns`` (Server-Sent Events,
  resumed with ``Last-Event-ID``), checks each turn's signature as a webhook
  bot would, and answers with ``POST /v1/bots/{id}/turns/{delivery}``. The
  referee keeps a webhook's deadline: an answer after it is refused (409)
  and the turn's default was played;
- as **one seat of one game** (``play_seat``): with the seat's token, it
  long-polls the game and posts the seat's moves.

Either way the bot is one function ``choose(view, legal_moves) -> move``
(``referee.bots.user``); an exception or a move outside ``legal_moves`` is
reported and left to the referee's default."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from httpx_sse import connect_sse

from referee.bots.user import Choose
from referee.bots.webhook import verify
from referee.client import Conflict, GameOver, HttpProblem, IllegalMove, NotYourTurn, RefereeClient, VersionConflict

#: a stream ends after a minute (the referee's STREAM_MAX_S); reads wait longer than its 15 s keepalive
READ_TIMEOUT_S = 45.0
#: after a lost connection, wait this long (doubling up to the cap) before connecting again
BACKOFF_S, BACKOFF_MAX_S = 0.5, 10.0


class Stop(Exception):
    """Raised by ``on_turn``/``stop`` to end the run."""


@dataclass
class Counts:
    turns: int = 0
    answered: int = 0
    late: int = 0
    failed: int = 0
    reconnects: int = 0
    seen: set[str] = field(default_factory=set)


def _decide(choose: Choose, view: Any, legal: list[Any], log: Callable[[str], None]) -> Any | None:
    try:
        move = choose(view, legal)
    except Exception as err:  # the author's code: the referee plays the default
        log(f"choose raised {type(err).__name__}: {err} (the referee plays the default)")
        return None
    if move not in legal:
        log(f"choose returned a move not in legal_moves: {move!r:.200} (the referee plays the default)")
        return None
    return move


def run_bot(url: str, bot_id: str, secret: str, choose: Choose, *, stop: Callable[[Counts], bool] = lambda c: False,
            log: Callable[[str], None] = print, http: httpx.Client | None = None,
            sleep: Callable[[float], None] = time.sleep, on_connect: Callable[[], None] = lambda: None) -> Counts:
    """Answer the bot's turns until ``stop(counts)`` says so (checked after
    every event and reconnection) or Ctrl+C; returns the counts.
    ``on_connect`` runs each time the referee accepts the bot's stream."""
    base = url.rstrip("/")
    client = http or httpx.Client(timeout=httpx.Timeout(10.0, read=READ_TIMEOUT_S))
    referee = RefereeClient(base)
    auth = {"Authorization": f"Bearer {secret}"}
    counts, last, backoff = Counts(), "", BACKOFF_S
    try:
        while not stop(counts):
            headers = {**auth, **({"Last-Event-ID": last} if last else {})}
            try:
                with connect_sse(client, "GET", f"{base}/v1/bots/{bot_id}/turns", headers=headers) as source:
                    if source.response.status_code != 200:
                        source.response.read()
                        raise _refused(source.response)
                    backoff = BACKOFF_S
                    on_connect()
                    for sse in source.iter_sse():
                        if sse.id:
                            last = sse.id
                        if sse.event == "turn":
                            _answer(referee, bot_id, secret, sse.data, choose, counts, log)
                        if stop(counts):
                            return counts
            except httpx.HTTPError as err:
                log(f"connection lost ({type(err).__name__}); connecting again in {backoff:.1f} s")
                sleep(backoff)
                backoff = min(BACKOFF_MAX_S, backoff * 2)
            counts.reconnects += 1
        return counts
    finally:
        referee.close()
        if http is None:
            client.close()


class Refused(Exception):
    """The referee refused the bot's connection (a wrong id or secret, not an outbound bot)."""


def _refused(response: httpx.Response) -> Refused:
    try:
        body = response.json()
        return Refused(f"{response.status_code} {body.get('code')}: {body.get('detail')}")
    except ValueError:
        return Refused(f"{response.status_code}: {response.text[:200]}")


def _answer(referee: RefereeClient, bot_id: str, secret: str, data: str, choose: Choose, counts: Counts,
            log: Callable[[str], None]) -> None:
    offer = json.loads(data)
    delivery, body = offer["delivery"], offer["body"]
    if delivery in counts.seen:  # a turn met again after a reconnection
        return
    if not verify(secret, str(offer["timestamp"]), body.encode(), offer["signature"]):
        log(f"turn {delivery}: bad or stale signature, ignored")
        counts.failed += 1
        return
    counts.seen.add(delivery)
    counts.turns += 1
    turn = json.loads(body)
    move = _decide(choose, turn["view"], turn["legal_moves"], log)
    if move is None:
        counts.failed += 1
        return
    try:
        referee.bots.answer(bot_id, delivery, move, secret=secret)  # a 429 or 503 waited out (Retry-After)
        counts.answered += 1
    except Conflict:
        counts.late += 1
        log(f"turn {delivery}: answered after its deadline (the referee played the default)")
    except HttpProblem as err:
        counts.failed += 1
        log(f"turn {delivery}: the answer was refused: {err}")


def play_seat(url: str, game_id: str, token: str, choose: Choose, *, log: Callable[[str], None] = print,
              client: RefereeClient | None = None, wait_s: float = 25.0,
              moved: Callable[[int, dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play one seat of one game to its end with ``choose``; the final view.
    Through the typed client: a 429 or 503 is waited out (``Retry-After``)
    and a move retried under its ``Idempotency-Key``. ``moved(version, move)``:
    told of each move the referee accepted, at the version it took the game to."""
    own = client is None
    referee = client if client is not None else RefereeClient(url)
    try:
        while True:
            shown = referee.games.view(game_id, token=token)
            if shown.status != "active":
                return dict(shown.raw)
            if shown.seat in shown.to_act and shown.legal_moves:
                move = _decide(choose, shown.raw, shown.legal_moves, log)
                if move is None:  # nothing good to send: the first legal move instead
                    move = shown.legal_moves[0]
                    log("playing the first legal move instead")
                try:
                    accepted = referee.games.move(game_id, move, token=token, expected_version=shown.version)
                except (VersionConflict, NotYourTurn, IllegalMove, GameOver):  # the game moved on: look again
                    continue
                if moved is not None:
                    moved(accepted.version, move)
                continue
            referee.games.events(game_id, token=token, after=shown.version, wait=wait_s)
    finally:
        if own:
            referee.close()
