"""The recorded request/response corpus (issue 37, item 7: "nothing changes
for a client"): a fixed sequence of HTTP requests driven through the real app
(Flask's test client, a real Redis of its own) and, for each, the request and
the exact response: status, every header, the body's bytes.
``tests/fixtures/http_corpus.jsonl`` holds the recording, one exchange a line;
``tests/api/test_http_corpus.py`` drives the same sequence again and compares
exchange by exchange, showing the first that differs.

    python -m tests.http_corpus --write   # record (only when a change to what clients see is meant)
    python -m tests.http_corpus --check   # compare with the recording (what the test runs)

The sequence covers every route of openapi.yaml (and the watch page) with a
success and its common problems (400, 401, 403, 404, 405, 409, 410, 413, 422,
429), for every ruleset: games created with fixed seeds, their views per seat
and public, legal moves, moves with idempotent retries, events, the event
stream of a finished game, replay, log, audit, seats claimed and tokens
reissued, bots and their turns, a small tournament run by a real RQ worker,
rulesets, rule texts and catalogues, the signing keys, openapi.yaml.

How little is normalised, and why:

* **Random draws are made deterministic, then named.** Everything the referee
  draws from ``secrets`` (game, bot and tournament ids, seat and owner tokens,
  bot secrets, cancel tokens) comes, while the sequence runs, from a fixed
  stream: the n-th draw of ``token_hex(k)``, ``token_urlsafe(k)`` or
  ``token_bytes(k)`` is ``sha256("<function>:<k>:<n>:<block>")`` (a stream a
  function and size, so a refactor that draws a token before an id still gets
  the same values). So everything derived from them — header hashes, event
  chains, signatures, ETags — is the same on every run and compared byte for
  byte. In the recording each drawn value is then written as a placeholder,
  ``<token_hex:1>``, ``<token_urlsafe:2>``…, numbered in order of first
  appearance in the corpus, wherever it appears (paths, headers, bodies): a
  refactor that mints the same tokens in another order inside one stream
  (e.g. the owner token before the seat tokens) is no change a client sees,
  and none is reported (tokens enter no hash; ids do: the game id is in the
  header hash, so ids drawn in another order do show).
* **The clock is fixed**: the service's receipt clock is a settable one at
  1,800,000,000,000 ms, advanced 1 ms a move; no timestamp depends on the
  wall clock. The signing key is the test run's (``tests.conftest``).
* **What only a wall clock gives**, whatever the app's settings: a 429's wait
  (``retry_after`` and the ``retry in … s`` of its body, its ``Retry-After``
  header: the moving window counts real seconds) is ``<seconds>``; a bot's
  turn ids on ``GET /v1/bots/{id}/turns`` (Redis stream ids, ``<ms>-<n>``
  from Redis's own clock) are ``<redis-stream-id>``; where these changed a
  body, its ``Content-Length`` is ``<length>``.
* **A 405's ``Allow``** lists werkzeug's set of methods in an order that
  changes from process to process (string hashing): its methods are sorted.
* **/metrics**: its counters and histograms are the process's (every request
  and its duration), so only its ``# HELP``/``# TYPE`` lines, the metrics
  offered, are recorded (and ``Content-Length`` is ``<length>``); status and
  the other headers are compared as for any route.
* **Event streams** (``text/event-stream``) of an active game or a bot last
  until a timeout: of those, the chunks sent at once are recorded (the
  ``first`` chunks named in the step) and the stream is closed.
* **Bodies longer than 16 KiB** (the rulesets list, catalogues, openapi.yaml,
  the watch page's script, a long log; a request's too: the 413's) and every
  exchange of the plays to the end (``quiet`` steps) are recorded as their
  SHA-256 and length: compared byte for byte still, without megabytes of
  recording (a difference there shows the digests, not a diff).

Nothing else is touched: every other header and byte is compared as sent.
"""
from __future__ import annotations

import argparse
import base64
import difflib
import hashlib
import importlib
import json
import os
import random
import re
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

CORPUS = Path(__file__).parent / "fixtures" / "http_corpus.jsonl"
#: the environment variable naming a folder where the test plugins are installed already
PLUGINS_SITE = "HTTP_CORPUS_PLUGINS_SITE"
START_MS = 1_800_000_000_000
ADMIN = "admin-secret"
BIG = 16 * 1024
#: read from Redis's own clock, however the app is set: a bot's turn ids (Redis stream ids, ``<ms>-<n>``)
STREAM_ID = re.compile(r"\b[0-9]{13}-[0-9]+\b")
#: a 429's wait, counted by the moving window from the wall clock (``retry in 1999.93 s``)
WAIT = re.compile(r'(?<="retry_after":)[0-9.]+|(?<=retry in )[0-9.]+(?= s)')
RULESETS = {"bang": 4, "bang-faceoff": 2, "bang-dice": 4, "bluffaneer": 3}
Json = dict[str, Any]


class Draws:
    """The fixed stream ``secrets`` draws from while the sequence runs, and
    every value drawn (to name it in the recording)."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, int], int] = {}
        self.drawn: dict[str, str] = {}

    def raw(self, function: str, nbytes: int) -> bytes:
        count = self.counts[(function, nbytes)] = self.counts.get((function, nbytes), 0) + 1
        out = b""
        block = 0
        while len(out) < nbytes:
            out += hashlib.sha256(f"{function}:{nbytes}:{count}:{block}".encode()).digest()
            block += 1
        return out[:nbytes]

    def token_hex(self, nbytes: int | None = None) -> str:
        value = self.raw("token_hex", 32 if nbytes is None else nbytes).hex()
        self.drawn[value] = "token_hex"
        return value

    def token_urlsafe(self, nbytes: int | None = None) -> str:
        value = base64.urlsafe_b64encode(self.raw("token_urlsafe", 32 if nbytes is None else nbytes)
                                         ).rstrip(b"=").decode()
        self.drawn[value] = "token_urlsafe"
        return value

    def token_bytes(self, nbytes: int | None = None) -> bytes:
        return self.raw("token_bytes", 32 if nbytes is None else nbytes)


@contextmanager
def fixed_draws() -> Iterator[Draws]:
    draws = Draws()
    saved = secrets.token_hex, secrets.token_urlsafe, secrets.token_bytes
    secrets.token_hex, secrets.token_urlsafe, secrets.token_bytes = (
        draws.token_hex, draws.token_urlsafe, draws.token_bytes)
    try:
        yield draws
    finally:
        secrets.token_hex, secrets.token_urlsafe, secrets.token_bytes = saved


class Namer:
    """Drawn values → placeholders, numbered in order of first appearance."""

    def __init__(self, draws: Draws) -> None:
        self.draws = draws
        self.names: dict[str, str] = {}
        self.seen: dict[str, int] = {}
        self.pattern: re.Pattern[str] | None = None
        self.known = 0

    def __call__(self, text: str) -> str:
        if not self.draws.drawn:
            return text
        if self.pattern is None or self.known != len(self.draws.drawn):
            self.known = len(self.draws.drawn)
            self.pattern = re.compile("|".join(re.escape(value) for value in
                                               sorted(self.draws.drawn, key=len, reverse=True)))
        return self.pattern.sub(lambda found: self.name(found.group(0)), text)

    def name(self, value: str) -> str:
        if value not in self.names:
            kind = self.draws.drawn[value]
            self.seen[kind] = self.seen.get(kind, 0) + 1
            self.names[value] = f"<{kind}:{self.seen[kind]}>"
        return self.names[value]


class Recorder:
    """Sends requests through a test client and records each exchange."""

    def __init__(self, namer: Namer) -> None:
        self.namer = namer
        self.records: list[Json] = []
        self.quiet = False
        self.step = ""

    def send(self, client: FlaskClient, method: str, path: str, *, json_body: Any = None, data: Any = None,
             headers: dict[str, str] | None = None, first: int | None = None, **extra: Any) -> Any:
        headers = dict(headers or {})
        body = json.dumps(json_body) if json_body is not None else data
        if json_body is not None:
            headers.setdefault("Content-Type", "application/json")
        response = client.open(path, method=method, data=body, headers=headers, buffered=first is None, **extra)
        raw = self.body_of(response, first)
        self.records.append(self.record(method, path, headers, body, response, raw))
        return response

    @staticmethod
    def body_of(response: Any, first: int | None) -> bytes:
        if first is None:
            return bytes(response.get_data())
        chunks = iter(response.response)
        got = b"".join(chunk if isinstance(chunk, bytes) else chunk.encode() for _, chunk in zip(range(first), chunks))
        response.close()
        return got

    @staticmethod
    def header(status: int, key: str, value: str) -> str:
        """A 429's Retry-After is read from the wall clock; a 405's Allow is
        werkzeug's set of methods, in an order that changes from process to
        process (string hashing), so its methods are sorted."""
        if status == 429 and key == "Retry-After":
            return "<seconds>"
        if key == "Allow":
            return ", ".join(sorted(value.split(", ")))
        return value

    @staticmethod
    def wall_clock(path: str, status: int, text: str) -> str:
        """The two values read from a wall clock, as placeholders."""
        if "/turns" in path and path.startswith("/v1/bots/"):
            text = STREAM_ID.sub("<redis-stream-id>", text)
        if status == 429:
            text = WAIT.sub("<seconds>", text)
        return text

    def record(self, method: str, path: str, headers: dict[str, str], body: Any, response: Any, raw: bytes) -> Json:
        name = self.namer
        if path == "/metrics":
            raw = b"".join(line + b"\n" for line in raw.splitlines() if line.startswith((b"# HELP", b"# TYPE")))
        named = name(raw.decode("utf-8", "backslashreplace"))
        text = self.wall_clock(path, response.status_code, named)
        # a body cut down or with a wall-clock value in it: its length is the uncut one's
        resized = text != named or path == "/metrics"
        sent: Json = {"method": method, "path": name(path),
                      "headers": {key: name(value) for key, value in headers.items()}}
        if body is not None:
            sent_body = name(body if isinstance(body, str) else bytes(body).decode("utf-8", "backslashreplace"))
            sent.update({"body": sent_body} if len(sent_body) <= BIG else
                        {"body_sha256": hashlib.sha256(sent_body.encode()).hexdigest(), "body_length": len(sent_body)})
        got: Json = {"status": response.status_code,
                     "headers": [[key, "<length>" if resized and key == "Content-Length"
                                  else self.header(response.status_code, key, name(value))]
                                 for key, value in response.headers.items()]}
        if self.quiet or len(raw) > BIG:
            got["body_sha256"] = hashlib.sha256(text.encode()).hexdigest()
            got["body_length"] = len(raw)
        else:
            got["body"] = text
        return {"n": len(self.records) + 1, "step": self.step, "request": sent, "response": got}


class Clock:
    def __init__(self) -> None:
        self.now = START_MS

    def __call__(self) -> int:
        return self.now


class Session:
    """One app, one Redis, one recorder: the sequence's steps share it."""

    def __init__(self, client: redis.Redis, recorder: Recorder) -> None:
        from referee.bots.webhook import UrlPolicy
        from referee.http.app import create_app
        self.redis = client
        self.clock = Clock()
        from referee.archive.db import Archive
        self.app: Flask = create_app({"REDIS": client, "CLOCK": self.clock, "TESTING": True,
                                      "ADMIN_TOKEN": ADMIN, "RATE_LIMIT": "off",
                                      "BOT_URL_POLICY": UrlPolicy(allow_private=True),
                                      "ARCHIVE": Archive("sqlite:///:memory:")})
        self.client = self.app.test_client()
        self.recorder = recorder
        self.service: Any = self.app.extensions["referee.service"]

    def send(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.recorder.send(self.client, method, path, **kwargs)

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.send("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        return self.send("POST", path, json_body=body, **kwargs)

    def step(self, name: str, quiet: bool = False) -> None:
        self.recorder.step, self.recorder.quiet = name, quiet

    def work(self, rounds: int = 2000) -> None:
        """Run the queued jobs in this process (a real RQ SimpleWorker, burst mode)."""
        from rq import Queue, SimpleWorker

        import workers.jobs as jobs
        from referee.service.scheduling import QUEUE
        saved = jobs.service_from_env
        jobs.service_from_env = lambda: self.service  # type: ignore[assignment]
        try:
            queue = Queue(QUEUE, connection=self.redis)
            for _ in range(rounds):
                if queue.count == 0:
                    return
                SimpleWorker([queue], connection=self.redis).work(burst=True, logging_level="ERROR")
        finally:
            jobs.service_from_env = saved


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- the sequence ------------------------------------------------------------------
def meta(session: Session) -> None:
    session.step("meta")
    session.get("/v1/rulesets")
    for name in RULESETS:
        session.get(f"/v1/rulesets/{name}")
        index = session.get(f"/v1/rulesets/{name}/rules").get_json()
        session.get(f"/v1/rulesets/{name}/rules/{index['rules'][0]['id']}")
        session.get(f"/v1/rulesets/{name}/rules/{index['rules'][-1]['id']}")
        catalogue = session.get(f"/v1/rulesets/{name}/catalogue")
        session.get(f"/v1/rulesets/{name}/catalogue", headers={"If-None-Match": catalogue.headers.get("ETag", "")})
    session.get("/v1/rulesets/chess")
    session.get("/v1/rulesets/chess/rules")
    session.get("/v1/rulesets/bang/rules/R9999")
    session.get("/v1/rulesets/chess/catalogue")
    for path in ("/v1/keys", "/health", "/metrics", "/openapi.yaml", "/watch/", "/watch/watch.html",
                 "/watch/watch.js", "/watch/verify.js", "/watch/watch.css", "/watch/0123456789abcdef",
                 "/watch/not!an!id", "/v1/nowhere"):
        session.get(path)
    session.send("DELETE", "/v1/rulesets")
    session.get("/v1/rulesets", headers={"Origin": "https://table.example"})
    session.send("OPTIONS", "/v1/games", headers={"Origin": "https://table.example",
                                                  "Access-Control-Request-Method": "POST"})


def create_refusals(session: Session) -> None:
    session.step("create: refusals")
    session.post("/v1/games", data="{not json", headers={"Content-Type": "application/json"})
    session.post("/v1/games", data="ruleset=bang", headers={"Content-Type": "text/plain"})
    session.post("/v1/games", [1, 2])
    session.post("/v1/games", {"players": 3})
    session.post("/v1/games", {"ruleset": "bang", "players": "four"})
    session.post("/v1/games", {"ruleset": "bang", "players": 4, "colour": "red"})
    session.post("/v1/games", {"ruleset": "chess", "players": 2})
    session.post("/v1/games", {"ruleset": "bluffaneer", "players": 9})
    session.post("/v1/games", {"ruleset": "bang", "players": 4, "options": {"no_such_option": True}})
    session.post("/v1/games", {"ruleset": "bluffaneer", "players": 3, "setup": {"nonsense": 1}})
    session.post("/v1/games", data=json.dumps({"ruleset": "bang", "players": 4, "pad": "x" * 70_000}),
                 headers={"Content-Type": "application/json"})


def seat_of(game: Json, seat: int) -> dict[str, str]:
    return auth(game["seats"][seat]["token"])


def views(session: Session, game: Json) -> Json:
    public: Json = session.get(f"/v1/games/{game['id']}").get_json()
    for seat in range(len(game["seats"])):
        session.get(f"/v1/games/{game['id']}", headers=seat_of(game, seat))
    return public


def acting(session: Session, game: Json) -> tuple[int, Json, list[Json]]:
    """The first awaited seat, its view and its legal moves."""
    public = session.get(f"/v1/games/{game['id']}").get_json()
    seat = public["to_act"][0]
    mine = session.get(f"/v1/games/{game['id']}", headers=seat_of(game, seat)).get_json()
    return seat, mine, mine["legal_moves"]


def game_refusals(session: Session, game: Json) -> None:
    """401, 403, 400, 409, 422 and 404 on a live game's move route."""
    gid = game["id"]
    seat, mine, legal = acting(session, game)
    other = next(s for s in range(len(game["seats"])) if s != seat)
    session.post(f"/v1/games/{gid}/moves", {"move": legal[0]})
    session.post(f"/v1/games/{gid}/moves", {"move": legal[0]}, headers=auth("not-a-token"))
    session.post(f"/v1/games/{gid}/moves", data="{",
                 headers={**seat_of(game, seat), "Content-Type": "application/json"})
    session.post(f"/v1/games/{gid}/moves", {"nope": 1}, headers=seat_of(game, seat))
    session.post(f"/v1/games/{gid}/moves", {"move": {"type": "no-such-move"}}, headers=seat_of(game, seat))
    session.post(f"/v1/games/{gid}/moves", {"move": legal[0], "expected_version": 0}, headers=seat_of(game, seat))
    session.post(f"/v1/games/{gid}/moves", {"move": legal[0]}, headers=seat_of(game, other))
    session.post("/v1/games/ffffffffffffffff/moves", {"move": legal[0]}, headers=seat_of(game, seat))
    session.get("/v1/games/ffffffffffffffff")
    session.get(f"/v1/games/{gid}", headers=auth("not-a-token"))
    session.get(f"/v1/games/{gid}?token={game['seats'][0]['token']}")
    session.get(f"/v1/games/{gid}/events?after=-1")
    session.get(f"/v1/games/{gid}/events?wait=99")
    session.get(f"/v1/games/{gid}/events?after=x")
    session.get(f"/v1/games/{gid}/log")
    session.get(f"/v1/games/{gid}/audit")
    session.get(f"/v1/games/{gid}/replay?version=1")
    session.get(f"/v1/games/{gid}/events/stream", headers={"Last-Event-ID": "x"})


def moves(session: Session, game: Json, count: int) -> None:
    """``count`` moves, each the awaited seat's first legal one, the first
    with an Idempotency-Key retried (the same bytes) and reused for another
    move (refused), each followed by the seats' views and the events."""
    gid = game["id"]
    for number in range(count):
        public = session.get(f"/v1/games/{gid}").get_json()
        if public["status"] != "active" or not public["to_act"]:
            return
        seat, mine, legal = acting(session, game)
        key = {"Idempotency-Key": f"move-{number}"}
        body = {"move": legal[0], "expected_version": mine["version"]}
        session.post(f"/v1/games/{gid}/moves", body, headers={**seat_of(game, seat), **key})
        if number == 0:
            session.post(f"/v1/games/{gid}/moves", body, headers={**seat_of(game, seat), **key})
            session.post(f"/v1/games/{gid}/moves", {"move": legal[-1]}, headers={**seat_of(game, seat), **key})
        session.clock.now += 1
        session.get(f"/v1/games/{gid}/events?after={mine['version']}")
        session.get(f"/v1/games/{gid}/events?after={mine['version']}", headers=seat_of(game, seat))


def play_to_end(session: Session, game: Json, max_steps: int = 5000) -> None:
    """Each awaited seat's legal move drawn by a seeded generator (the first
    legal move loops forever in BANG!) until the game ends; past a deadline
    with nobody awaited, the timeout job fired."""
    from workers.jobs import fire_timeout
    gid = game["id"]
    choose = random.Random(f"corpus-{game['ruleset']}-play")
    for step in range(max_steps):
        public = session.get(f"/v1/games/{gid}").get_json()
        if public["status"] != "active":
            return
        if public["to_act"]:
            seat = public["to_act"][step % len(public["to_act"])]
            legal = session.get(f"/v1/games/{gid}", headers=seat_of(game, seat)).get_json()["legal_moves"]
            session.post(f"/v1/games/{gid}/moves", {"move": choose.choice(legal)}, headers=seat_of(game, seat))
        else:
            session.clock.now = max(session.clock.now, public["deadline"])
            fire_timeout(gid, session.service)
        session.clock.now += 1
    raise AssertionError(f"game {gid} did not end in {max_steps} steps")


def finished(session: Session, game: Json) -> None:
    gid = game["id"]
    end = views(session, game)
    session.get(f"/v1/games/{gid}/events")
    session.get(f"/v1/games/{gid}/events?after=3", headers=seat_of(game, 0))
    session.get(f"/v1/games/{gid}/events/stream", headers={"Last-Event-ID": "3"})
    session.get(f"/v1/games/{gid}/events/stream?after={end['version'] - 2}")
    session.get(f"/v1/games/{gid}/replay")
    session.get(f"/v1/games/{gid}/replay?version=1")
    session.get(f"/v1/games/{gid}/replay?version=3")
    session.get(f"/v1/games/{gid}/replay?version=99999")
    session.get(f"/v1/games/{gid}/replay?version=x")
    session.get(f"/v1/games/{gid}/log")
    session.get(f"/v1/games/{gid}/log", headers=auth(ADMIN))
    session.get(f"/v1/games/{gid}/audit")
    legal = {"type": "pass"}
    session.post(f"/v1/games/{gid}/moves", {"move": legal}, headers=seat_of(game, 0))


def a_game(session: Session, ruleset: str, players: int) -> None:
    session.step(f"{ruleset}: create")
    game = session.post("/v1/games", {"ruleset": ruleset, "players": players, "seed": f"corpus-{ruleset}"}).get_json()
    session.step(f"{ruleset}: views")
    views(session, game)
    session.get(f"/v1/games/{game['id']}/events")
    session.get(f"/v1/games/{game['id']}/events", headers=seat_of(game, 0))
    session.get(f"/v1/games/{game['id']}/events/stream", first=1)
    session.step(f"{ruleset}: refusals")
    game_refusals(session, game)
    session.step(f"{ruleset}: moves")
    moves(session, game, 6)
    session.step(f"{ruleset}: play to the end", quiet=True)
    play_to_end(session, game)
    session.step(f"{ruleset}: finished")
    finished(session, game)


def seats(session: Session) -> None:
    """Open seats claimed, a token reissued by the owner and by a claimant."""
    session.step("seats")
    game = session.post("/v1/games", {"ruleset": "bluffaneer", "seed": "corpus-seats",
                                      "seats": [{"name": "host"}, {"open": True}, {"open": True}]}).get_json()
    gid = game["id"]
    session.post(f"/v1/games/{gid}/moves", {"move": {"type": "pass"}}, headers=seat_of(game, 0))
    session.get("/v1/games?open_seats=true")
    claimed = session.post(f"/v1/games/{gid}/seats/1/claim", {"name": "guest"}).get_json()
    session.post(f"/v1/games/{gid}/seats/1/claim", {"name": "late"})
    session.post(f"/v1/games/{gid}/seats/0/claim", {"name": "thief"})
    session.post(f"/v1/games/{gid}/seats/2/claim", {})
    session.post(f"/v1/games/{gid}/seats/9/claim", {"name": "nobody"})
    session.post(f"/v1/games/{gid}/seats/2/claim", {"name": "second"})
    session.post("/v1/games/ffffffffffffffff/seats/1/claim", {"name": "x"})
    session.post(f"/v1/games/{gid}/seats/0/token")
    session.post(f"/v1/games/{gid}/seats/0/token", headers=auth("not-a-token"))
    session.post(f"/v1/games/{gid}/seats/0/token", headers=auth(game["owner_token"]))
    session.post(f"/v1/games/{gid}/seats/1/token", headers=auth(game["owner_token"]))
    session.post(f"/v1/games/{gid}/seats/1/token", headers=auth(claimed["token"]))
    session.post(f"/v1/games/{gid}/moves", {"move": {"type": "pass"}}, headers=seat_of(game, 0))
    session.get(f"/v1/games/{gid}")


def listing(session: Session) -> None:
    session.step("listing")
    session.get("/v1/games")
    first = session.get("/v1/games?limit=2").get_json()
    if first.get("next"):
        session.get(f"/v1/games?limit=2&cursor={first['next']}")
    session.get("/v1/games?ruleset=bang")
    session.get("/v1/games?status=finished")
    session.get("/v1/games?status=active&ruleset=bluffaneer")
    session.get("/v1/games?limit=0")
    session.get("/v1/games?status=sleeping")
    session.get("/v1/games?cursor=garbage")


def bots(session: Session) -> None:
    session.step("bots")
    out = session.post("/v1/bots", {"name": "outbound", "rulesets": ["bluffaneer"]}).get_json()
    hook = session.post("/v1/bots", {"name": "hook", "url": "http://127.0.0.1:9/", "rulesets": ["bluffaneer"]}
                        ).get_json()
    session.post("/v1/bots", {"name": "x", "rulesets": ["chess"]})
    session.post("/v1/bots", {"name": "x"})
    session.post("/v1/bots", {"name": "x", "url": "ftp://example.com/", "rulesets": ["bang"]})
    session.get("/v1/bots")
    session.get("/v1/bots?limit=1")
    bot = out["id"]
    session.get(f"/v1/bots/{bot}", headers=auth(out["secret"]))
    session.get(f"/v1/bots/{bot}")
    session.get(f"/v1/bots/{bot}", headers=auth(hook["secret"]))
    session.get("/v1/bots/bot_000000000000", headers=auth(out["secret"]))
    session.get(f"/v1/bots/{bot}/turns")
    session.get(f"/v1/bots/{hook['id']}/turns", headers=auth(hook["secret"]))
    session.get(f"/v1/bots/{bot}/turns", headers={**auth(out["secret"]), "Last-Event-ID": "x"})
    session.post(f"/v1/bots/{bot}/turns/g:1:0", {"move": {"type": "roll"}}, headers=auth(out["secret"]))
    session.post(f"/v1/bots/{bot}/turns/g:1:0", {"move": {"type": "roll"}})
    session.post(f"/v1/bots/{bot}/turns/g:1:0", {"nope": 1}, headers=auth(out["secret"]))
    session.service.bots.offer_turn(bot, "g:2:0", b'{"turn": 1}')
    session.get(f"/v1/bots/{bot}/turns", headers=auth(out["secret"]), first=2)
    session.post(f"/v1/bots/{bot}/turns/g:2:0", {"move": {"type": "roll"}}, headers=auth(out["secret"]))
    session.post(f"/v1/bots/{bot}/turns/g:2:0", {"move": {"type": "roll"}}, headers=auth(out["secret"]))
    session.post("/v1/games", {"ruleset": "bluffaneer", "seats": [{"name": "a"}, {"bot": bot}, {"bot": "random"}]})
    session.post("/v1/games", {"ruleset": "bluffaneer", "seed": "corpus-bot",
                               "seats": [{"name": "a"}, {"bot": bot, "bot_secret": out["secret"]},
                                         {"bot": "random"}]})
    session.send("DELETE", f"/v1/bots/{hook['id']}")
    session.send("DELETE", f"/v1/bots/{hook['id']}", headers=auth(hook["secret"]))
    session.get(f"/v1/bots/{hook['id']}", headers=auth(hook["secret"]))


def pool(session: Session) -> None:
    """A ladder's pool (issue 42 item 3): a bot put in, refused, read, taken out
    (before any worker matches it: the pool's games are its e2e test's)."""
    session.step("pool")
    bot = session.post("/v1/bots", {"name": "pooled", "rulesets": ["bluffaneer"]}).get_json()
    path, mine = f"/v1/ladder/bluffaneer/pool/{bot['id']}", auth(bot["secret"])
    session.send("PUT", path, json_body={"games_at_once": 2}, headers=mine)
    session.send("PUT", path, json_body={"games_at_once": 2, "same_table": 2}, headers=mine)
    session.send("PUT", path, json_body={"games_at_once": 99}, headers=mine)
    session.send("PUT", path, json_body={"games_at_once": "2"}, headers=mine)
    session.send("PUT", path, json_body={})
    session.send("PUT", f"/v1/ladder/bang/pool/{bot['id']}", json_body={}, headers=mine)
    session.send("PUT", f"/v1/ladder/chess/pool/{bot['id']}", json_body={}, headers=mine)
    session.get("/v1/ladder/bluffaneer/pool")
    session.get("/v1/ladder/bang:3/pool")
    session.get("/v1/ladder/chess/pool")
    session.send("DELETE", path, headers=mine)
    session.send("DELETE", path, headers=mine)


def tournaments(session: Session) -> None:
    session.step("tournaments")
    entrants = ["random", "random", {"bot": "random", "name": "r3"}]
    made = session.post("/v1/tournaments", {"ruleset": "bluffaneer", "entrants": entrants, "games": 1,
                                            "seed": "corpus-tournament"}).get_json()
    session.post("/v1/tournaments", {"ruleset": "bluffaneer", "entrants": entrants, "games": 100000})
    session.post("/v1/tournaments", {"ruleset": "chess", "entrants": entrants, "games": 1})
    session.post("/v1/tournaments", {"entrants": entrants})
    session.get(f"/v1/tournaments/{made['id']}")
    session.get("/v1/tournaments")
    session.get("/v1/tournaments/t_000000000000")
    session.step("tournaments: run", quiet=True)
    session.work()
    session.step("tournaments: finished")
    session.get(f"/v1/tournaments/{made['id']}")
    session.get("/v1/tournaments?status=finished")
    session.send("DELETE", f"/v1/tournaments/{made['id']}")
    session.send("DELETE", f"/v1/tournaments/{made['id']}", headers=auth("not-a-token"))
    session.send("DELETE", f"/v1/tournaments/{made['id']}", headers=auth(made["cancel_token"]))
    session.send("DELETE", "/v1/tournaments/t_000000000000", headers=auth(ADMIN))
    other = session.post("/v1/tournaments", {"ruleset": "bang-faceoff", "entrants": ["random", "random"],
                                             "games": 2, "seed": "corpus-cancelled"}).get_json()
    session.send("DELETE", f"/v1/tournaments/{other['id']}", headers=auth(other["cancel_token"]))
    session.get(f"/v1/tournaments/{other['id']}")


def rate_limited(session: Session) -> None:
    """429: an app with a limit of two requests in 2,000 s on the same Redis."""
    from referee.http.app import create_app
    session.step("rate limit")
    app = create_app({"REDIS": session.redis, "CLOCK": session.clock, "TESTING": True, "ADMIN_TOKEN": ADMIN,
                      "RATE_LIMIT": "0.001/2", "AUTH_FAIL_LIMIT": "off", "ENQUEUE_JOBS": False})
    client = app.test_client()
    for path in ("/v1/rulesets/bang", "/v1/rulesets/bang", "/v1/rulesets/bang", "/health"):
        session.recorder.send(client, "GET", path)


def chat(session: Session) -> None:
    """The table chat (issue 40 item 5): messages posted, refused, listed, one
    hidden by the owner, and a move expecting the version before the talk."""
    session.step("chat")
    game = session.post("/v1/games", {"ruleset": "bang", "players": 4, "seed": "corpus-chat"}).get_json()
    gid = game["id"]
    seat, mine, legal = acting(session, game)
    said = session.post(f"/v1/games/{gid}/chat", {"text": "good luck <b>all</b>"}, headers=seat_of(game, 0))
    session.post(f"/v1/games/{gid}/chat", {"text": "hi"})
    session.post(f"/v1/games/{gid}/chat", {"text": "two\nlines"}, headers=seat_of(game, 1))
    session.post(f"/v1/games/{gid}/chat", {"text": "x" * 281}, headers=seat_of(game, 1))
    session.post(f"/v1/games/{gid}/chat", {"text": "rude"}, headers=seat_of(game, 2))
    session.get(f"/v1/games/{gid}/chat")
    seq = said.get_json()["seq"]
    session.post(f"/v1/games/{gid}/chat/{seq}/hide", headers=seat_of(game, 0))
    session.post(f"/v1/games/{gid}/chat/{seq}/hide", headers=auth(game["owner_token"]))
    session.post(f"/v1/games/{gid}/chat/1/hide", headers=auth(game["owner_token"]))
    session.get(f"/v1/games/{gid}/chat?after=0")
    session.get(f"/v1/games/{gid}/chat", headers=auth(ADMIN))
    session.post(f"/v1/games/{gid}/moves", {"move": legal[0], "expected_version": mine["version"]},
                 headers=seat_of(game, seat))


def rematches(session: Session) -> None:
    """A finished game's rematch (issue 40 item 4): asked by the owner, a seat (its token once), again, with
    no token; the finished game's view linking it; its series read (last: no earlier exchange moves)."""
    session.step("rematch")
    game = session.post("/v1/games", {"ruleset": "bang-faceoff", "seed": "corpus-rematch",
                                      "seats": [{"name": "ann"}, {"name": "bob"}],
                                      "options": {"series": {"games": 2}}}).get_json()
    gid = game["id"]
    session.post(f"/v1/games/{gid}/rematch", headers=auth(game["owner_token"]))
    first = session.get(f"/v1/games/{gid}").get_json()["to_act"][0]
    session.post(f"/v1/games/{gid}/moves", {"move": {"type": "resign"}}, headers=seat_of(game, first))
    session.post(f"/v1/games/{gid}/rematch")
    session.post(f"/v1/games/{gid}/rematch", headers=auth("not-a-token"))
    session.post(f"/v1/games/{gid}/rematch", headers=auth(game["owner_token"]))
    session.post(f"/v1/games/{gid}/rematch", headers=seat_of(game, 0))
    session.post(f"/v1/games/{gid}/rematch", headers=seat_of(game, 0))
    session.get(f"/v1/games/{gid}")
    session.get(f"/v1/series/{gid}")
    session.get("/v1/series/ffffffffffffffff")


def webhooks(session: Session) -> None:
    """A game-end webhook (issue 40 item 3): the option, its refusals and the creator's deliveries."""
    session.step("webhooks")
    seats = [{"name": "ann"}, {"name": "bob"}, {"name": "cat"}]
    game = session.post("/v1/games", {"ruleset": "bluffaneer", "seats": seats, "seed": "corpus-webhook",
                                      "options": {"callback_url": "http://127.0.0.1:9/game-over"}}).get_json()
    session.get(f"/v1/games/{game['id']}/deliveries", headers=auth(game["owner_token"]))
    session.get(f"/v1/games/{game['id']}/deliveries")
    session.get(f"/v1/games/{game['id']}/deliveries", headers=auth(game["seats"][0]["token"]))
    for url in ("ftp://example.com/", "http://169.254.169.254/latest", None):
        session.post("/v1/games", {"ruleset": "bluffaneer", "players": 3, "options": {"callback_url": url}})
    plain = session.post("/v1/games", {"ruleset": "bluffaneer", "players": 3, "seed": "corpus-no-webhook"}).get_json()
    session.get(f"/v1/games/{plain['id']}/deliveries", headers=auth(plain["owner_token"]))


def spectators(session: Session) -> None:
    """Spectators shown a game late (issue 40 item 6): the delayed view, the
    broadcast offered (inside the delay: no hand), refused to a seat and where
    not offered (last: no earlier exchange moves)."""
    session.step("spectators")
    game = session.post("/v1/games", {"ruleset": "bluffaneer", "players": 3, "seed": "corpus-late",
                                      "options": {"spectator_delay": 50, "spectator_omniscient": True}}).get_json()
    session.get(f"/v1/games/{game['id']}")
    session.get(f"/v1/games/{game['id']}/broadcast")
    session.get(f"/v1/games/{game['id']}/broadcast", headers=auth(game["seats"][0]["token"]))
    live = session.post("/v1/games", {"ruleset": "bluffaneer", "players": 3, "seed": "corpus-live"}).get_json()
    session.get(f"/v1/games/{live['id']}/broadcast")


def history(session: Session) -> None:
    """The archive's search and export (issue 41 items 1-3: nothing archived
    here, no worker runs) and the transparency log (item 4): a game finished
    by resigning, its inclusion proof, a consistency proof and the signed
    checkpoint (last: no earlier exchange moves)."""
    session.step("history")
    session.get("/v1/archive/games?ruleset=bang-faceoff")
    session.get("/v1/archive/export?ruleset=bang-faceoff")
    game = session.post("/v1/games", {"ruleset": "bang-faceoff", "seed": "corpus-tlog",
                                      "seats": [{"name": "ann"}, {"name": "bob"}]}).get_json()
    first = session.get(f"/v1/games/{game['id']}").get_json()["to_act"][0]
    session.post(f"/v1/games/{game['id']}/moves", {"move": {"type": "resign"}}, headers=seat_of(game, first))
    session.get("/v1/transparency/checkpoint")
    session.get(f"/v1/transparency/proof/inclusion?game={game['id']}")
    session.get("/v1/transparency/proof/consistency?from=1")
    session.get("/v1/transparency/proof/inclusion?game=ffffffffffffffff")


def ladder(session: Session) -> None:
    """The ladder (issue 42): empty, then one rated game of the built-in bots
    recorded by the job its end enqueues; the refusals (after ``history``: the
    rated game enters the transparency log, and no earlier exchange moves)."""
    session.step("ladder")
    session.get("/v1/ladder")
    session.get("/v1/ladder/bluffaneer")
    session.post("/v1/games", {"ruleset": "bluffaneer", "seats": [{"bot": "random"}, {}, {"bot": "random"}],
                               "options": {"rated": True}})
    session.post("/v1/games", {"ruleset": "bluffaneer", "seats": [{"bot": "heuristic"}, {"bot": "random"},
                                                                  {"bot": "random"}], "options": {"rated": True}})
    session.step("ladder: run", quiet=True)
    session.work()
    session.step("ladder: recorded")
    session.get("/v1/ladder")
    session.get("/v1/ladder/bluffaneer")
    session.get("/v1/ladder/bluffaneer?limit=1")
    session.get("/v1/ladder/bluffaneer?cursor=x")
    session.get("/v1/bots/heuristic/profile")
    session.get("/v1/bots/bot_000000000000/profile")


def sequence(session: Session) -> None:
    meta(session)
    create_refusals(session)
    for ruleset, players in RULESETS.items():
        a_game(session, ruleset, players)
    seats(session)
    listing(session)
    bots(session)
    tournaments(session)
    rate_limited(session)
    chat(session)
    rematches(session)
    webhooks(session)
    spectators(session)
    history(session)
    ladder(session)
    pool(session)


# -- recording and comparing --------------------------------------------------------
def with_plugins() -> None:
    """The rulesets of ``tests/plugins`` found, as under pytest: those the
    calling test run installed already (``PLUGINS_SITE``), else installed here."""
    import tests.conftest as conftest
    site = os.environ.get(PLUGINS_SITE)
    if site is None:
        conftest.pytest_configure(None)  # type: ignore[arg-type]
        return
    from referee.games import registry
    sys.path.insert(0, site)
    importlib.invalidate_caches()
    registry.refresh()


def record() -> list[Json]:
    """The sequence run against a fresh app and Redis of its own."""
    from tests.processes import own_redis
    with_plugins()
    port, proc = own_redis()
    try:
        with redis.Redis(port=port) as client, fixed_draws() as draws:
            recorder = Recorder(Namer(draws))
            session = Session(client, recorder)
            try:
                sequence(session)
            finally:
                pushed = session.service.pushed
                if pushed is not None:
                    pushed.close()
            # the last line: how many values each stream gave; a change here and nowhere else would mean
            # the referee draws its secrets otherwise (``from secrets import …`` bypasses the fixed stream)
            draws_made = {f"{function}({nbytes})": count for (function, nbytes), count in sorted(draws.counts.items())}
            return [*recorder.records, {"n": len(recorder.records) + 1, "step": "random draws", "draws": draws_made}]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def dump(records: list[Json]) -> str:
    return "".join(json.dumps(one, ensure_ascii=False, sort_keys=True) + "\n" for one in records)


def shown(one: Json) -> list[str]:
    """An exchange as lines to diff: its JSON body (if any) pretty-printed."""
    copy = json.loads(json.dumps(one))
    body = copy.get("response", {}).get("body")
    if isinstance(body, str):
        try:
            copy["response"]["body"] = json.loads(body)
        except ValueError:
            copy["response"]["body"] = body.splitlines()
    return json.dumps(copy, indent=1, ensure_ascii=False, sort_keys=True).splitlines()


def first_difference(recorded: list[Json], now: list[Json]) -> str | None:
    """A readable diff of the first exchange that differs, else None."""
    for old, new in zip(recorded, now):
        if old != new:
            diff = difflib.unified_diff(shown(old), shown(new), "recorded", "now", lineterm="", n=4)
            return f"exchange {old['n']} ({old['step']}) differs:\n" + "\n".join(diff)
    if len(recorded) != len(now):
        return f"{len(recorded)} exchanges recorded, {len(now)} now"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help=f"record the corpus into {CORPUS}")
    parser.add_argument("--check", action="store_true", help="compare with the recorded corpus")
    args = parser.parse_args(argv)
    records = record()
    if args.write:
        CORPUS.write_text(dump(records), encoding="utf-8")
        print(f"{len(records)} exchanges written to {CORPUS}")
        return 0
    recorded = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    found = first_difference(recorded, records)
    if found is not None:
        print(found)
        return 1
    print(f"{len(records)} exchanges as recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
