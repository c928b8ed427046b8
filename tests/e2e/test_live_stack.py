"""The tests' own stack of real processes (``tests.e2e.conftest.live_stack``)
under the parallel suite: a port picked for ``referee serve`` and taken
before it binds it costs another pick, not a failed file."""
from __future__ import annotations

import socket

import pytest
import requests

from referee.store import redis_server
from tests.e2e import conftest

pytestmark = pytest.mark.e2e


def test_a_port_taken_before_the_referee_binds_it_is_picked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as squatter:  # another program's listener, on the port the stack picks first
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        draws = iter([taken])
        monkeypatch.setattr(conftest, "free_port", lambda: next(draws, None) or redis_server.free_port())
        with conftest.live_stack() as stack:
            assert not stack.url.endswith(f":{taken}")
            assert requests.get(stack.url + "/health", timeout=30).status_code == 200
        assert next(draws, None) is None, "the taken port was picked first"
