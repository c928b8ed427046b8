"""Registered webhook bots, in Redis: ``bot:{ID}`` hashes."""
from __future__ import annotations

import hmac
import json
import secrets
from typing import Any

import redis

from referee.errors import ApiError
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

    def require(self, bot_id: str) -> tuple[dict[str, Any], str]:
        found = self.get(bot_id)
        if found is None:
            raise ApiError(404, "bot_not_found", f"no bot with id {bot_id!r}")
        return found

    def owner_view(self, bot_id: str, token: str | None) -> dict[str, Any]:
        record, secret = self.require(bot_id)
        if token is None or not hmac.compare_digest(sha256_hex(token), sha256_hex(secret)):
            raise ApiError(401, "bad_token", "only the bot's owner (Bearer <secret>) may read it")
        return record
