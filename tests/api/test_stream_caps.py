"""Issue 8, found 5: caps on open streams and long-polls. One address could
open SSE streams until every request thread was taken (130 were enough).
Each open stream or waiting long-poll now holds a slot counted in Redis:
past the per-client cap the answer is 429, past the global cap 503, both
problem+json with Retry-After; a slot is given back when its stream ends and
lapses with its lease if its process dies.

The other streams of a test are held through ``StreamSlots`` itself (the
same Redis sets another referee process would fill); the request under test
goes through the app, read whole."""
from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest

from referee.http.streams import StreamsBusy, StreamSlots, parse_cap
from referee.store.slots import ALL_KEY, SlotStore
from tests.api.helpers import create


@pytest.fixture(autouse=True)
def short_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream under test ends 0.3 s after it starts, so it can be read whole."""
    import referee.http.api.games as games_api
    monkeypatch.setattr(games_api, "STREAM_MAX_S", 0.3)


@contextlib.contextmanager
def held(slots: StreamSlots, *clients: str) -> Iterator[None]:
    """One open stream per entry of ``clients``, as other requests would hold them."""
    with contextlib.ExitStack() as stack:
        for client in clients:
            stack.enter_context(slots.hold(client))
        yield


def _stream(client: Any, game: dict[str, Any], addr: str) -> Any:
    return client.get(f"/v1/games/{game['id']}/events/stream", environ_base={"REMOTE_ADDR": addr},
                      buffered=True)


def _refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == code
    assert int(response.headers["Retry-After"]) >= 1
    assert response.get_json()["retry_after"] == int(response.headers["Retry-After"])


def test_per_client_cap_answers_429_with_retry_after(app: Any, redis_client: Any) -> None:
    app.config.update(STREAMS_PER_CLIENT=2, STREAMS_MAX="off")
    client = app.test_client()
    game = create(client)
    slots = StreamSlots.from_config(SlotStore(redis_client), app.config)
    with held(slots, "10.0.0.1", "10.0.0.1"):
        _refused(_stream(client, game, "10.0.0.1"), 429, "too_many_streams")
        other = _stream(client, game, "10.0.0.2")
        assert other.status_code == 200 and other.get_data().startswith(b"retry: 500"), "another client is free"
    assert _stream(client, game, "10.0.0.1").status_code == 200, "the client's streams ended: it may open more"


def test_global_cap_answers_503_with_retry_after(app: Any, redis_client: Any) -> None:
    app.config.update(STREAMS_PER_CLIENT="off", STREAMS_MAX=3)
    client = app.test_client()
    game = create(client)
    slots = StreamSlots.from_config(SlotStore(redis_client), app.config)
    with held(slots, "10.0.1.1", "10.0.1.2", "10.0.1.3"):
        _refused(_stream(client, game, "10.0.1.99"), 503, "streams_full")
        waiting = client.get(f"/v1/games/{game['id']}/events?after=999&wait=1",
                             environ_base={"REMOTE_ADDR": "10.0.1.99"})
        _refused(waiting, 503, "streams_full")


def test_an_ended_stream_gives_its_slot_back(app: Any, redis_client: Any) -> None:
    client = app.test_client()
    game = create(client)
    text = _stream(client, game, "10.0.2.1").get_data(as_text=True)
    assert text.startswith("retry: 500")
    assert redis_client.zcard(ALL_KEY) == 0
    assert redis_client.zcard(StreamSlots.client_key("10.0.2.1")) == 0


def test_a_waiting_long_poll_holds_a_slot_a_plain_read_does_not(app: Any, redis_client: Any) -> None:
    app.config.update(STREAMS_PER_CLIENT=1, STREAMS_MAX="off")
    client = app.test_client()
    game = create(client)
    slots = StreamSlots.from_config(SlotStore(redis_client), app.config)
    url = f"/v1/games/{game['id']}/events"
    with held(slots, "10.0.3.1"):
        _refused(client.get(url + "?after=999&wait=1", environ_base={"REMOTE_ADDR": "10.0.3.1"}),
                 429, "too_many_streams")
        assert client.get(url + "?after=0", environ_base={"REMOTE_ADDR": "10.0.3.1"}).status_code == 200
    waited = client.get(url + "?after=999&wait=0.2", environ_base={"REMOTE_ADDR": "10.0.3.1"})
    assert waited.status_code == 200 and waited.get_json()["events"] == []
    assert redis_client.zcard(ALL_KEY) == 0


def test_an_unknown_game_takes_no_slot(app: Any, redis_client: Any) -> None:
    client = app.test_client()
    assert client.get("/v1/games/nope/events/stream").status_code == 404
    assert client.get("/v1/games/nope/events?wait=1").status_code == 404
    assert redis_client.zcard(ALL_KEY) == 0


def test_a_dead_process_slot_lapses_with_its_lease(redis_client: Any) -> None:
    slots = StreamSlots(SlotStore(redis_client), per_client=1, most=0, lease_s=1)
    orphan = slots.hold("10.0.0.7")
    orphan.__enter__()  # taken and never given back, as by a killed worker
    with pytest.raises(StreamsBusy):
        with slots.hold("10.0.0.7"):
            pass
    time.sleep(1.1)
    with slots.hold("10.0.0.7"):
        assert redis_client.zcard(slots.client_key("10.0.0.7")) == 1
    assert redis_client.zcard(slots.client_key("10.0.0.7")) == 0


def test_cap_settings() -> None:
    assert parse_cap(None, 64) == 64
    assert parse_cap("off", 64) == 0 and parse_cap("0", 64) == 0
    assert parse_cap("12", 64) == 12 and parse_cap(7, 64) == 7
    with pytest.raises(ValueError):
        parse_cap("-3", 64)
