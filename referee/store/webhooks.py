"""A game's end webhook in Redis (issue 40 item 3; ``referee.service.webhooks``
says what it means).

Keys, all in the game's hash slot: ``game:{ID}:meta`` field ``callback_url``
and ``game:{ID}:secret`` field ``callback_secret`` (written with the game),
``game:{ID}:hook`` (hash: ``state`` pending|delivered|failed, ``attempts``
begun, ``most`` attempts in all, ``last_status``, ``last_error``, ``delivered_at``), ``…:hook:attempts``
(list: each attempt's outcome, JSON) and ``…:hook:lease`` (who is posting
now). Two steps, each one script: ``begin`` — nothing after ``delivered`` or
``failed`` (the once-flag), nothing while another holds the lease, else one
attempt counted and the lease taken; ``finish`` — the attempt's outcome
recorded, the state set, the lease let go. So two workers, or a replayed end,
never post at once, and nothing is posted once a delivery was accepted.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from referee.store.retention import Retention

T = TypeVar("T")

# KEYS hook, lease; ARGV holder, lease ms, most attempts, ttl ms (0: none)
# -> {"delivered"|"failed"|"busy", n} or {"go", n}: attempt n is this caller's
_BEGIN = """
local state = redis.call('hget', KEYS[1], 'state')
local n = tonumber(redis.call('hget', KEYS[1], 'attempts') or '0')
if state == 'delivered' or state == 'failed' then return {state, n} end
if not redis.call('set', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'busy', n} end
if n >= tonumber(ARGV[3]) then
  redis.call('hset', KEYS[1], 'state', 'failed')
  redis.call('del', KEYS[2])
  return {'failed', n}
end
n = redis.call('hincrby', KEYS[1], 'attempts', 1)
redis.call('hset', KEYS[1], 'state', 'pending', 'most', ARGV[3])
if tonumber(ARGV[4]) > 0 then redis.call('pexpire', KEYS[1], ARGV[4]) end
return {'go', n}
"""
# KEYS hook, attempts, lease; ARGV holder, attempt JSON, state, delivered_at, last_status, last_error, ttl ms
_FINISH = """
redis.call('rpush', KEYS[2], ARGV[2])
redis.call('hset', KEYS[1], 'state', ARGV[3], 'last_status', ARGV[5], 'last_error', ARGV[6])
if ARGV[4] ~= '' then redis.call('hset', KEYS[1], 'delivered_at', ARGV[4]) end
if redis.call('get', KEYS[3]) == ARGV[1] then redis.call('del', KEYS[3]) end
if tonumber(ARGV[7]) > 0 then
  redis.call('pexpire', KEYS[1], ARGV[7])
  redis.call('pexpire', KEYS[2], ARGV[7])
end
return 1
"""


def _keys(game_id: str) -> tuple[str, str, str]:
    hook = f"game:{{{game_id}}}:hook"
    return hook, f"{hook}:attempts", f"{hook}:lease"


class WebhookStore:
    """Each game's end webhook: where it goes, and how its delivery went."""

    def __init__(self, client: Any, retry: Callable[[Callable[[], T]], T], retention: Retention) -> None:
        self.redis = client
        self._retry: Any = retry
        self.retention = retention
        self._begin = client.register_script(_BEGIN)
        self._finish = client.register_script(_FINISH)

    def target(self, game_id: str) -> tuple[str, str] | None:
        """The game's callback URL and signing secret; ``None``: it has none."""
        def run() -> list[Any]:
            pipe = self.redis.pipeline(transaction=False)
            pipe.hget(f"game:{{{game_id}}}:meta", "callback_url")
            pipe.hget(f"game:{{{game_id}}}:secret", "callback_secret")
            return list(pipe.execute())
        url, secret = self._retry(run)
        if url is None or secret is None:
            return None
        return url.decode(), secret.decode()

    def begin(self, game_id: str, holder: str, lease_ms: int, most: int) -> tuple[str, int]:
        """``("go", n)``: attempt ``n`` is the caller's, under a lease of
        ``lease_ms``; else ``("delivered"|"failed"|"busy", attempts so far)``."""
        hook, _, lease = _keys(game_id)
        ttl = self.retention.game_ttl_ms("finished")
        state, count = self._retry(lambda: self._begin(keys=[hook, lease], args=[holder, lease_ms, most, ttl]))
        return (state.decode() if isinstance(state, bytes) else str(state)), int(count)

    def finish(self, game_id: str, holder: str, attempt: dict[str, Any], state: str) -> None:
        """Record one attempt's outcome (``at``, ``status``, ``error``), set
        the state, and let go of the lease if ``holder`` still has it."""
        hook, attempts, lease = _keys(game_id)
        delivered = str(attempt["at"]) if state == "delivered" else ""
        status = "" if attempt.get("status") is None else str(attempt["status"])
        args = [holder, json.dumps(attempt, separators=(",", ":")), state, delivered, status,
                attempt.get("error") or "", self.retention.game_ttl_ms("finished")]
        self._retry(lambda: self._finish(keys=[hook, attempts, lease], args=args))

    def status(self, game_id: str) -> tuple[dict[str, str], list[dict[str, Any]]]:
        """The delivery's fields and its attempts, oldest first."""
        hook, attempts, _ = _keys(game_id)

        def run() -> list[Any]:
            pipe = self.redis.pipeline(transaction=False)
            pipe.hgetall(hook)
            pipe.lrange(attempts, 0, -1)
            return list(pipe.execute())
        fields, entries = self._retry(run)
        return ({k.decode(): v.decode() for k, v in fields.items()}, [json.loads(e) for e in entries])
