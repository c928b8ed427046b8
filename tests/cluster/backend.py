"""A trivial HTTP backend for the haproxy tests: every GET answers 200 with
its own name (``/health`` too). ``python -m tests.cluster.backend PORT NAME``."""
from __future__ import annotations

import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def handler(name: str) -> type[BaseHTTPRequestHandler]:
    """A request handler that answers its ``name``."""

    class Named(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = name.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

    return Named


class QuietServer(ThreadingHTTPServer):
    """No traceback when a client (haproxy's health check) resets the connection early."""

    def handle_error(self, request: object, client_address: object) -> None:
        pass


def main(argv: list[str]) -> None:
    port, name = int(argv[0]), argv[1]
    QuietServer(("127.0.0.1", port), handler(name)).serve_forever()


if __name__ == "__main__":
    main(sys.argv[1:])
