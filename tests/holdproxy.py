"""A TCP proxy whose replies can be held: what a server sends a client
waits in the proxy until ``release`` (tests of what a process may believe
while a message is on its way to it, made deterministic by holding the
message rather than by timing)."""
from __future__ import annotations

import socket
import threading
from types import TracebackType


class HoldProxy:
    """Forwards 127.0.0.1:``port`` to ``upstream``; ``hold`` stops the
    server-to-client direction of every connection (bytes are kept, in
    order), ``release`` lets them through again."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self._flowing = threading.Event()
        self._flowing.set()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._sockets: list[socket.socket] = [self._listener]
        threading.Thread(target=self._accept, daemon=True).start()

    def hold(self) -> None:
        self._flowing.clear()

    def release(self) -> None:
        self._flowing.set()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            self._sockets += [client, server]
            threading.Thread(target=self._pump, args=(client, server, None), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, self._flowing), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket, gate: threading.Event | None) -> None:
        try:
            while chunk := source.recv(65536):
                if gate is not None:
                    gate.wait()
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.release()
        for s in self._sockets:
            s.close()

    def __enter__(self) -> HoldProxy:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
