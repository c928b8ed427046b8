"""A sample webhook bot (``referee webhook-bot``): verifies each request's
signature and freshness, then plays a built-in policy from the view it was
sent. A template for third-party bots, and what the README's tournament uses."""
from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from referee.bots import choose
from referee.bots.webhook import verify


def serve(port: int, secret: str, policy: str = "heuristic", host: str = "127.0.0.1",
          chooser: Callable[[Any, list[Any]], Any] | None = None) -> None:
    """Serve the webhook; each verified turn is answered by ``chooser(view,
    legal_moves)`` when given, else by the built-in ``policy``."""
    answered: dict[str, bytes] = {}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
            if not verify(secret, self.headers.get("X-Referee-Timestamp", ""), body,
                          self.headers.get("X-Referee-Signature", "")):
                self._send(401, {"error": "bad or stale signature"})
                return
            delivery = self.headers.get("X-Referee-Delivery", "")
            with lock:  # a retried delivery gets the same answer
                if delivery in answered:
                    self._raw(200, answered[delivery])
                    return
            turn = json.loads(body)
            if chooser is not None:
                try:
                    move = chooser(turn["view"], turn["legal_moves"])
                except Exception as err:  # the author's code: a 500, and the referee plays the default
                    self._send(500, {"error": f"{type(err).__name__}: {err}"[:200]})
                    return
            else:
                move = choose(policy, turn["ruleset"], turn["view"], turn["legal_moves"], seed=delivery)
            data = json.dumps({"move": move}).encode()
            with lock:
                answered[delivery] = data
            self._raw(200, data)

        def _send(self, status: int, obj: Any) -> None:
            self._raw(status, json.dumps(obj).encode())

        def _raw(self, status: int, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer((host, port), Handler)
    print(f"webhook bot ({'your function' if chooser else policy}) on http://{host}:{port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
