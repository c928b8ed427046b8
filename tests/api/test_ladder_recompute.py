"""Issue 42 item 1: ``referee ratings recompute`` refolds every rated game
of the archive (a real SQLite one, written by the archive's own job) and
finds the very table the live ladder keeps in Redis; ``--check`` fails with
the differences when it is not."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.archive import Archive
from referee.bots.webhook import UrlPolicy
from referee.ops.cli import main
from referee.store.ladder import LadderBook
from tests.api.helpers import create, view
from tests.conftest import contract_app
from tests.webhook_bot import WebhookBot
from workers import jobs


@pytest.fixture
def arc(redis_client: Any, clock: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, work: Any) -> Any:
    """The app over a SQLite archive, and the burst worker (``work``) on its service."""
    archive = Archive(f"sqlite:///{tmp_path}/archive.sqlite3")
    app = contract_app(redis_client, clock, PUSHED=False, ARCHIVE=archive)
    app.config["BOT_URL_POLICY"] = UrlPolicy(allow_private=True)
    svc = app.extensions["referee.service"]
    monkeypatch.setattr(jobs, "service_from_env", lambda: svc)  # after ``work``'s: this app's service
    yield app.test_client(), archive, work
    archive.close()


def _register(client: Any, hook: WebhookBot, address: str) -> str:
    r = client.post("/v1/bots", json={"name": address, "url": hook.url, "rulesets": ["bluffaneer", "bang"],
                                      "seating": "public"}, environ_base={"REMOTE_ADDR": address})
    assert r.status_code == 201, r.get_json()
    hook.secret = r.get_json()["secret"]
    return str(r.get_json()["id"])


def test_recompute_over_the_archive_equals_the_live_ladders(
        arc: Any, clock: Any, redis_port: int, redis_client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    client, archive, work = arc
    with WebhookBot("first") as one, WebhookBot("first") as two:
        a, b, c = _register(client, one, "10.1.0.1"), _register(client, two, "10.1.0.2"), \
            _register(client, two, "10.1.0.2")
        tables = [[a, b, "random"], [b, a, "heuristic"], [a, c, "random"], [b, c, "random"],  # b and c: one owner
                  [a, "random", b]]
        games = []
        for bots in tables:
            games.append(create(client, seats=[{"bot": bot} for bot in bots], options={"rated": True}))
            clock.advance(1000)
        games.append(create(client, "bang", seats=[{"bot": a, "name": "alpha"}, {"bot": "random"}, {"bot": "random"}],
                            options={"rated": True, "three_player": True}))
        create(client, seats=[{"bot": "random"}] * 3)  # not rated: in the archive, in no ladder
        work()
    assert all(view(client, g)["status"] == "finished" for g in games)
    assert archive.sizes()["games"] == len(games) + 1
    three = client.get("/v1/ladder/bang:3").get_json()  # BANG! for 3: a ladder of its own
    assert (three["ruleset"], three["players"]) == ("bang", 3) and {i["bot"]["id"] for i in three["items"]} == {
        a, "random"}
    url = archive.url
    live = f"redis://127.0.0.1:{redis_port}/0"
    assert main(["ratings", "recompute", "--archive", url, "--check", "--redis", live]) == 0
    out = capsys.readouterr().out
    assert "ladder bluffaneer: ranked by" in out and "ladder bang:3" in out
    assert f" alpha ({a}) " in out and f" {b} " in out  # a bot by the name its seat had, else by its id
    assert "the live ladders equal the archive's (2 ladders)" in out
    # the live table loses a game's rating: --check says so, and fails
    book = LadderBook(redis_client, "bluffaneer")
    row = book.rows([a])[a]
    redis_client.hset(book.k_rows, a, __import__("json").dumps({**row, "mu": row["mu"] + 1}))
    assert main(["ratings", "recompute", "--archive", url, "--check", "--redis", live]) == 1
    err = capsys.readouterr().err
    assert f"bluffaneer: {a} mu" in err
