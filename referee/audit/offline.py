"""A game played in memory, recorded as the service records it, so that the
audit can check it without a server: the soak audits every game it plays
this way (``bench/soak.py``), and tests use it for logs they forge.

The log is built by the same pieces the service uses (``engine.record`` for
the platform events, ``engine.chain`` for the envelopes), with a fixed clock.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.audit import audit_log
from referee.engine import record
from referee.engine.chain import LOG_FORMAT, header_hash, sha256_hex
from referee.engine.platform import default_seat_name
from referee.engine.protocol import Json, Move, Ruleset, Seat
from referee.games.sim import Table


class LoggedTable(Table):
    """A ``Table`` that also writes the log the service would have written:
    ``header``, ``header_hash`` and ``envelopes``, ready for ``audit()``."""

    def __init__(self, ruleset: Ruleset[Any], players: int, *, options: Mapping[str, Any] | None = None,
                 scenario: Mapping[str, Any] | None = None, seed: bytes | str = b"table", now: int = 0) -> None:
        super().__init__(ruleset, players, options=options, scenario=scenario, seed=seed, now=now)
        self.seed_text = self.seed.decode()
        self.header: Json = {
            "id": "offline", "ruleset": ruleset.name, "ruleset_version": ruleset.version,
            "players": players, "options": dict(self.config.options), "setup": scenario,
            "seats": [{"seat": i, "name": default_seat_name(i), "bot": None} for i in range(players)],
            "seed_commitment": sha256_hex(self.seed_text), "created_at": now, "custom": True,
            "log_format": LOG_FORMAT,
        }
        self.envelopes: list[Json] = []
        self.header_hash = self.last_hash = header_hash(self.header)
        produced, _state, self.dealt, self.opened = record.deal(ruleset, list(self.events), self.seed_text)
        self._write(produced, now)

    def _write(self, produced: record.Produced, at: int) -> None:
        written, self.last_hash = record.chained(self.seed_text, self.last_hash, len(self.envelopes), produced, at)
        self.envelopes.extend(written)

    def play(self, actor: Seat | None, move: Move, *, now: int | None = None) -> LoggedTable:
        position, now = self.rng.position, self.now + 1 if now is None else now
        super().play(actor, move, now=now)
        produced, _result, self.opened = record.move(
            self.ruleset, self.state, actor, {"move": dict(move), "rng": position}, self.last, self.dealt,
            self.opened, self.seed_text)
        self._write(produced, now)
        return self

    def audit(self) -> Json:
        """The audit report of the log so far (``referee.audit.audit_log``)."""
        return audit_log(self.header, self.header_hash, self.envelopes)
