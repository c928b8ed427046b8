"""A webhook bot served on loopback for the tests: it verifies each request's
signature, records it, and answers as its ``mode`` says."""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from referee.bots.webhook import verify
from referee.engine.platform import playing_moves


def as_floats(value: Any) -> Any:
    """``value`` with every integer written as a float (``1`` -> ``1.0``): a
    legal move as a bot in another language might send it (issue 36)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, dict):
        return {k: as_floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_floats(v) for v in value]
    return value


class WebhookBot:
    def __init__(self, mode: str = "first", sleep_s: float = 0.0) -> None:
        self.mode, self.sleep_s = mode, sleep_s
        self.secret = ""
        self.requests: list[dict[str, Any]] = []
        self.bad_signatures = 0
        self.hang_first = 0  # this many first requests sleep `sleep_s` before answering
        # the first `gather` requests are held until that many are in flight at once
        # (or `gather_timeout_s` passed): whether the referee calls bots concurrently
        self.gather = 0
        self.gather_timeout_s = 30.0
        #: set: the body of every answer, made from the request's payload (whatever the mode says)
        self.script: Callable[[dict[str, Any]], bytes] | None = None
        self.in_flight = self.max_in_flight = 0
        self._flight = threading.Condition()
        bot = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if not verify(bot.secret, self.headers.get("X-Referee-Timestamp", ""), body,
                              self.headers.get("X-Referee-Signature", "")):
                    bot.bad_signatures += 1
                    self._send(401, b"{}")
                    return
                payload = json.loads(body)
                with bot._flight:
                    bot.requests.append({"delivery": self.headers.get("X-Referee-Delivery"), **payload})
                    bot.in_flight += 1
                    bot.max_in_flight = max(bot.max_in_flight, bot.in_flight)
                    held = len(bot.requests) <= bot.gather
                    bot._flight.notify_all()
                    if held:
                        bot._flight.wait_for(lambda: bot.max_in_flight >= bot.gather, bot.gather_timeout_s)
                try:
                    self._answer(payload)
                finally:
                    with bot._flight:
                        bot.in_flight -= 1

            def _answer(self, payload: dict[str, Any]) -> None:
                if bot.hang_first > 0:
                    bot.hang_first -= 1
                    time.sleep(bot.sleep_s)
                if bot.mode == "sleep":
                    time.sleep(bot.sleep_s)
                if bot.script is not None:
                    self._send(200, bot.script(payload))
                elif bot.mode == "error":
                    self._send(500, b"boom")
                elif bot.mode == "garbage":
                    self._send(200, b"<html>not json</html>")
                elif bot.mode == "nonsense":
                    self._send(200, json.dumps({"move": {"type": "fly", "to": "moon"}}).encode())
                else:
                    playing = list(playing_moves(payload["legal_moves"]))  # it never resigns
                    move = as_floats(playing[-1]) if bot.mode == "floats" else playing[-1]
                    self._send(200, json.dumps({"move": move}).encode())

            def _send(self, status: int, data: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the caller gave up (timeout): nothing to answer
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/turn"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> WebhookBot:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
