"""A game-end webhook receiver served on loopback for the tests (issue 40
item 3): it records every request it gets (headers and body), answers the
first ones with the statuses it is given (``fail_with``), then 200, and
checks what it accepts the way a real receiver would: the HMAC signature
with the game's ``callback_secret``, the final head's Ed25519 signature with
the referee's published keys (``GET /v1/keys``), and the delivery id,
counted once however often it comes."""
from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from referee.bots.webhook import verify
from referee.engine.signature import PublicKeys, final_statement


@dataclass(frozen=True)
class Received:
    """One request as the receiver got it, and what it answered."""

    headers: dict[str, str]
    body: bytes
    answered: int

    @property
    def delivery(self) -> str:
        return self.headers.get("X-Referee-Delivery", "")

    def payload(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed

    def signed_by(self, secret: str) -> bool:
        """The HMAC signature verifies with ``secret`` (``referee.bots.webhook.verify``)."""
        return verify(secret, self.headers.get("X-Referee-Timestamp", ""), self.body,
                      self.headers.get("X-Referee-Signature", ""))

    def head_signed(self, jwks: dict[str, Any]) -> str | None:
        """``None`` if the final head's signature verifies with the published keys; else why not."""
        body = self.payload()
        sig = body.get("signature") or {}
        statement = final_statement(body["game"], body["version"], body["head"], str(sig.get("kid")))
        return PublicKeys.from_jwks(jwks).verify(sig.get("kid"), sig.get("sig"), statement)


class WebhookReceiver:
    """A loopback HTTP server for game-end webhooks: ``fail_with`` are the
    statuses of the first requests, in turn; every later one gets 200."""

    def __init__(self, fail_with: Iterable[int] = ()) -> None:
        self.script = list(fail_with)
        self.received: list[Received] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver._lock:
                    status = receiver.script.pop(0) if receiver.script else 200
                    receiver.received.append(Received(dict(self.headers.items()), body, status))
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/game-over"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def accepted(self) -> list[Received]:
        """The requests answered with a 2xx."""
        with self._lock:
            return [r for r in self.received if 200 <= r.answered < 300]

    def all(self) -> list[Received]:
        with self._lock:
            return list(self.received)

    def __enter__(self) -> WebhookReceiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
