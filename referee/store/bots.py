"""Registered bots, in Redis: ``bot:{ID}`` hashes (``record``: the public
record, its ``seating`` included; ``secret``; ``quota``: the set of the
client whose place it holds, ``referee.http.quotas``); an outbound bot's turns
on its stream ``bot:{ID}:turns``, the open ones in ``bot:{ID}:open``, each
answer handed to the waiting worker on ``bot:{ID}:answer:<delivery>`` (every
key in the bot's slot).

An unused bot expires like an abandoned game: its hash lives
``REFEREE_RETENTION_IDLE_S`` after it was last used (seated, called, or
read by its owner: :meth:`BotDirectory.get` with ``touch``)."""
from __future__ import annotations

import hmac
import json
import secrets
import time
from typing import Any

import redis

from referee.engine import sha256_hex
from referee.store.listing import BOTS, Index
from referee.tokens import new_token

#: an answer is handed over only while its turn is open, once (every key in the bot's slot); the
#: turn is closed for good then (``_closed_key``)
_ANSWER = """
if redis.call('HDEL', KEYS[1], ARGV[1]) == 1 then
  redis.call('RPUSH', KEYS[2], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  redis.call('SET', KEYS[3], 1, 'PX', ARGV[4])
  return 1
end
return 0
"""
#: close a turn for good: nothing if it was still open, else the answer that came meanwhile (taken)
_CLOSE = """
redis.call('SET', KEYS[3], 1, 'PX', ARGV[2])
if redis.call('HDEL', KEYS[1], ARGV[1]) == 1 then return false end
local answer = redis.call('LPOP', KEYS[2])
redis.call('DEL', KEYS[2])
return answer
"""
#: offer a turn on the bot's stream and open it, unless it was closed before: a second ask of one turn
#: (a job run twice) never opens again a turn whose default was played (a late answer stays refused)
_OFFER = """
if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', 1000, '*', 'delivery', ARGV[1], 'turn', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
"""


class BotDirectory:
    def __init__(self, client: redis.Redis, idle_s: int = 0) -> None:
        self.redis: Any = client  # sync client, bytes replies (see EventStore)
        #: an unused bot's hash lives this long (ms; 0: forever)
        self.idle_ms = idle_s * 1000
        self._answer = client.register_script(_ANSWER)
        self._close = client.register_script(_CLOSE)
        self._offer = client.register_script(_OFFER)
        #: every bot, newest first (``GET /v1/bots``)
        self.listed = Index(client, BOTS)

    @staticmethod
    def _key(bot_id: str) -> str:
        return f"bot:{{{bot_id}}}"

    @staticmethod
    def new_id() -> str:
        return "bot_" + secrets.token_hex(6)

    def register(self, name: str, url: str | None, rulesets: list[str], now: int, *, seating: str = "owner",
                 bot_id: str | None = None, quota: str | None = None, owner: str | None = None) -> dict[str, Any]:
        """A new bot: a webhook (``url``), or, without one, an outbound bot
        that connects for its turns. ``seating``: who may seat it (``owner``:
        whoever shows its secret; ``public``: anyone); ``quota``: the key of
        the place it holds, freed when it is deleted; ``owner``: the opaque id
        of who registered it (``referee.service.rated.owner_id``; ``None``:
        the bot itself, as a bot registered before owners shows)."""
        bot_id = bot_id or self.new_id()
        secret = new_token(32)
        record = {"id": bot_id, "name": name, "kind": "webhook" if url else "outbound", "url": url,
                  "rulesets": rulesets, "seating": seating, "owner": owner or bot_id, "created_at": now}
        fields = {"record": json.dumps(record), "secret": secret, "secret_hash": sha256_hex(secret)}
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self._key(bot_id), mapping={**fields, **({"quota": quota} if quota else {})})
        if self.idle_ms:
            pipe.pexpire(self._key(bot_id), self.idle_ms)
        pipe.execute()
        self.listed.add(bot_id, now)
        return {**record, "secret": secret}

    def delete(self, bot_id: str) -> str | None:
        """Forget the bot (its hash and turns; unlisted): the key of the place
        it held, if any. Games it sits in play its seat's default move from now on."""
        key = self._key(bot_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hget(key, "quota")
        pipe.delete(key, *self._turn_keys(bot_id))
        quota = pipe.execute()[0]
        self.listed.drop(bot_id)
        return quota.decode() if quota else None

    def ttls_ms(self, bot_ids: list[str]) -> list[int]:
        """Each bot's time left (ms; -1 forever, -2 gone), in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for bot_id in bot_ids:
            pipe.pttl(self._key(bot_id))
        return [int(ttl) for ttl in pipe.execute()]

    def page(self, after: tuple[int, str] | None, count: int) -> list[tuple[str, int, dict[str, Any]]]:
        """``(id, created_at, public record)`` newest first after ``after``."""
        ids = self.listed.page(after, count)
        if not ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for bot_id, _ in ids:
            pipe.hget(self._key(bot_id), "record")
        out, gone = [], []
        for (bot_id, at), raw in zip(ids, pipe.execute()):
            if raw is None:
                gone.append(bot_id)
            else:
                out.append((bot_id, at, {"seating": "owner", "owner": bot_id, **json.loads(raw)}))
        self.listed.drop(*gone)
        return out

    def get(self, bot_id: str, *, touch: bool = False) -> tuple[dict[str, Any], str] | None:
        """``(public record, secret)`` or ``None``. ``touch``: the bot is in
        use (seated, called, read by its owner): it lives ``idle_ms`` from now
        (the same round trip). A read that proves no one (the rate limiter's,
        a wrong secret's) does not keep a bot alive."""
        key = self._key(bot_id)
        if touch and self.idle_ms:
            pipe = self.redis.pipeline(transaction=False)
            pipe.hmget(key, "record", "secret")
            pipe.pexpire(key, self.idle_ms)
            raw = pipe.execute()[0]
        else:
            raw = self.redis.hmget(key, "record", "secret")
        if raw[0] is None:
            return None
        record: dict[str, Any] = json.loads(raw[0])
        record.setdefault("seating", "owner")  # registered before owners chose: the safe choice
        record.setdefault("owner", bot_id)  # registered before owners were recorded: its own
        return record, raw[1].decode()

    def owned_by(self, bot_id: str, token: str | None) -> dict[str, Any] | None:
        """The bot's public record if ``token`` is its secret, else ``None``
        (the API layer says 404 or 401)."""
        found = self.get(bot_id)
        if found is None or token is None or not hmac.compare_digest(sha256_hex(token), sha256_hex(found[1])):
            return None
        self.get(bot_id, touch=True)  # its owner uses it
        return found[0]

    #: how long a turn's count of attempts is kept (ms): far longer than its attempts take
    ATTEMPTS_KEPT_MS = 60 * 60 * 1000

    def count_attempt(self, bot_id: str, delivery: str) -> int:
        """Count one more attempt at the turn ``delivery`` (game, version,
        seat) of this bot and return how many were made, this one included:
        the worker asks a turn a bounded number of times, whichever process
        asks (``referee.bots.ATTEMPTS``)."""
        key = f"bot:{{{bot_id}}}:attempts:{delivery}"
        pipe = self.redis.pipeline(transaction=False)
        pipe.incr(key)
        pipe.pexpire(key, self.ATTEMPTS_KEPT_MS)
        return int(pipe.execute()[0])

    # -- outbound bots: turns offered on a stream, answers waited for ------------------
    #: a turn offered stays on the bot's stream this long (ms) after it closes: a reconnecting bot skips it
    TURNS_KEPT_MS = 10 * 60 * 1000

    def _turn_keys(self, bot_id: str) -> tuple[str, str]:
        return f"bot:{{{bot_id}}}:turns", f"bot:{{{bot_id}}}:open"

    def _answer_key(self, bot_id: str, delivery: str) -> str:
        return f"bot:{{{bot_id}}}:answer:{delivery}"

    def _closed_key(self, bot_id: str, delivery: str) -> str:
        return f"bot:{{{bot_id}}}:closed:{delivery}"

    def offer_turn(self, bot_id: str, delivery: str, payload: bytes) -> bool:
        """Put a turn on the bot's stream (``turns``) and mark it open: an
        answer is taken until ``wait_answer`` closes it (answered, or its
        time ran out), refused after. ``False``: the turn was closed before
        and stays closed: nothing is offered."""
        turns, opened = self._turn_keys(bot_id)
        return bool(self._offer(keys=[turns, opened, self._closed_key(bot_id, delivery)],
                                args=[delivery, payload, self.TURNS_KEPT_MS]))

    def turns_after(self, bot_id: str, after: str, block_ms: int) -> tuple[str, list[tuple[str, str, bytes]]]:
        """``(last stream id read, [(stream id, delivery, turn)])``: the turns
        after stream id ``after`` ("0": all kept) that are still open, waiting
        up to ``block_ms`` for one."""
        turns, opened = self._turn_keys(bot_id)
        found = self.redis.xread({turns: after}, block=block_ms or None, count=100)
        entries = [(eid.decode(), f[b"delivery"].decode(), f[b"turn"]) for _, items in found for eid, f in items]
        if not entries:
            return after, []
        still = self.redis.hmget(opened, [d for _, d, _ in entries])
        return entries[-1][0], [entry for entry, is_open in zip(entries, still) if is_open is not None]

    def answer_turn(self, bot_id: str, delivery: str, answer: bytes, keep_ms: int = 60_000) -> bool:
        """Hand an answer to the worker waiting on ``delivery``, once; ``False``
        when the turn is not open (answered already, closed, or never offered)."""
        _, opened = self._turn_keys(bot_id)
        return bool(self._answer(keys=[opened, self._answer_key(bot_id, delivery), self._closed_key(bot_id, delivery)],
                                 args=[delivery, answer, keep_ms, self.TURNS_KEPT_MS]))

    def wait_answer(self, bot_id: str, delivery: str, timeout_s: float, step_s: float = 1.0) -> bytes | None:
        """The answer to ``delivery`` within ``timeout_s`` (waited for in steps
        under the socket timeout), then the turn closed: a late answer is
        refused. ``None``: no answer in time."""
        key = self._answer_key(bot_id, delivery)
        closing_keys = [self._turn_keys(bot_id)[1], key, self._closed_key(bot_id, delivery)]
        closing_args: list[str | int] = [delivery, self.TURNS_KEPT_MS]
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            got = self.redis.blpop([key], timeout=max(0.01, min(step_s, left)))
            if got is not None:
                self._close(keys=closing_keys, args=closing_args)
                return bytes(got[1])
        late = self._close(keys=closing_keys, args=closing_args)
        return bytes(late) if late is not None else None  # answered as the time ran out: taken
