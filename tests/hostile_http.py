"""Hostile webhook bots on loopback for the tests (issue 8, Found 6 and 7): a
raw-socket HTTP server that answers as its ``mode`` says — trickling, huge,
redirecting, malformed — and records what it was sent and how much it wrote
before the caller went away. Real sockets, no mocks; it only ever listens on
127.0.0.1."""
from __future__ import annotations

import socket
import socketserver
import ssl
import threading
import time
from typing import Any

MOVE = b'{"move": {"type": "roll"}}'
HUGE = 50 * 1024 * 1024
_PAD = b"x" * (64 * 1024)  # written over and over: the server allocates nothing per write


class HostileServer:
    """Modes: ``answer`` (200 and ``MOVE``), ``error`` (500), ``slow_error``
    (500 after ``interval_s``), ``trickle_body`` (200 headers, then one body
    byte every ``interval_s``), ``trickle_head`` (the status line one byte every
    ``interval_s``), ``huge`` (50 MB announced in Content-Length), ``huge_unannounced``
    (50 MB until the connection closes), ``huge_headers`` (endless 60 KB
    header lines), ``redirect`` (302 to ``location``), ``deep_json`` (a 200 of
    nested brackets)."""

    def __init__(self, mode: str, *, interval_s: float = 0.5, trickle_bytes: int = 20, location: str = "",
                 tls: ssl.SSLContext | None = None) -> None:
        self.mode, self.interval_s, self.trickle_bytes, self.location = mode, interval_s, trickle_bytes, location
        self.requests: list[dict[str, Any]] = []
        self.sent = 0  # bytes written before the caller went away
        self.sni: list[str | None] = []
        owner = self
        if tls is not None:
            tls.sni_callback = lambda sock, name, ctx: owner.sni.append(name)

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                sock: socket.socket = self.request
                if tls is not None:
                    try:
                        sock = tls.wrap_socket(sock, server_side=True)
                    except (OSError, ssl.SSLError):
                        return  # the caller refused our certificate
                sock.settimeout(10)
                try:
                    owner._serve(sock)
                except OSError:
                    pass  # the caller gave up: what it cost is in `sent`

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}/turn"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _read_request(self, sock: socket.socket) -> None:
        raw = b""
        while b"\r\n\r\n" not in raw:
            chunk = sock.recv(65536)
            if not chunk:
                return
            raw += chunk
        head, _, body = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        while len(body) < int(headers.get("content-length", "0")):
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        self.requests.append({"line": lines[0], "headers": headers, "body": body})

    def _write(self, sock: socket.socket, data: bytes | memoryview) -> None:
        sock.sendall(data)
        self.sent += len(data)

    def _serve(self, sock: socket.socket) -> None:
        self._read_request(sock)
        mode = self.mode
        if mode == "answer":
            self._write(sock, b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(MOVE), MOVE))
        elif mode in ("error", "slow_error"):
            if mode == "slow_error":
                time.sleep(self.interval_s)
            self._write(sock, b"HTTP/1.1 500 Oops\r\nContent-Length: 4\r\n\r\nboom")
        elif mode == "trickle_body":
            self._write(sock, b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % self.trickle_bytes)
            for _ in range(self.trickle_bytes):
                time.sleep(self.interval_s)
                self._write(sock, b" ")
        elif mode == "trickle_head":
            for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"[:self.trickle_bytes]:
                time.sleep(self.interval_s)
                self._write(sock, bytes([byte]))
        elif mode in ("huge", "huge_unannounced"):
            length = b"Content-Length: %d\r\n" % HUGE if mode == "huge" else b"Connection: close\r\n"
            self._write(sock, b"HTTP/1.1 200 OK\r\n" + length + b"\r\n")
            view = memoryview(_PAD)
            while self.sent < HUGE:
                self._write(sock, view)
        elif mode == "huge_headers":
            self._write(sock, b"HTTP/1.1 200 OK\r\n")
            line = b"X-Pad: " + _PAD[:60_000] + b"\r\n"
            for _ in range(1000):
                self._write(sock, line)
        elif mode == "redirect":
            self._write(sock, b"HTTP/1.1 302 Found\r\nLocation: %s\r\nContent-Length: 0\r\n\r\n"
                        % self.location.encode())
        elif mode == "deep_json":
            data = b"[" * 60_000
            self._write(sock, b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(data), data))
        sock.close()

    def __enter__(self) -> HostileServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
