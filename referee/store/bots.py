"""Registered webhook bots, in Redis: ``bot:{ID}`` hashes."""
from __future__ import annotations

import hmac
import json
import secrets
from typing import Any

import redis

from referee.engine import sha256_hex


class BotDirectory:
    def __init__(self, client: redis.Redis) -> None:
        self.redis: Any = client  # sync client, bytes replies (see EventStore)

    @staticmethod
    def _key(bot_id: str) -> str:
        return f"bot:{{{bot_id}}}"

    def register(self, name: str, url: str, rulesets: list[str], now: int) -> dict[str, Any]:
        bot_id = "bot_" + secrets.token_hex(6)
        secret = secrets.token_urlsafe(32)
        record = {"id": bot_id, "name": name, "url": url, "rulesets": rulesets, "created_at": now}
        self.redis.hset(self._key(bot_id), mapping={"record": json.dumps(record), "secret": secret,
                                                    "secret_hash": sha256_hex(secret)})
        return {**record, "secret": secret}

    def get(self, bot_id: str) -> tuple[dict[str, Any], str] | None:
        """``(public record, secret)`` or ``None``."""
        raw = self.redis.hmget(self._key(bot_id), "record", "secret")
        if raw[0] is None:
            return None
        return json.loads(raw[0]), raw[1].decode()

    def owned_by(self, bot_id: str, token: str | None) -> dict[str, Any] | None:
        """The bot's public record if ``token`` is its secret, else ``None``
        (the API layer says 404 or 401)."""
        found = self.get(bot_id)
        if found is None or token is None or not hmac.compare_digest(sha256_hex(token), sha256_hex(found[1])):
            return None
        return found[0]
