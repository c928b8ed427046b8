"""The archive (issue 41 items 1, 2, 3 and 6; docs/archive.md): a finished
game is written to a real database by an RQ job — PostgreSQL started by the
test itself, and SQLite — confirmed, then its Redis keys expire soon; a game
Redis has forgotten is served from the archive with the same ``/log``
bytes, audits clean and replays; a database killed mid-run loses no game."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.archive import Archive, Query
from referee.ops.postgres import LocalPostgres
from referee.service.scheduling import ARCHIVE_PENDING
from tests.api.helpers import create, view
from tests.api.helpers import played as _played
from workers import jobs


def test_a_finished_game_is_archived_with_the_exact_log_bytes_and_leaves_redis_soon(
        arc: Any, archive: Archive, redis_client: Any) -> None:
    """Items 1 and 2: the row holds the public facts and the very bytes
    ``/log`` serves; the write is confirmed in Redis and the game's keys then
    live ``REFEREE_RETENTION_ARCHIVED_S`` (600 s) at most."""
    client, _svc, work = arc
    game = _played(client, work)[0]
    log = client.get(f"/v1/games/{game['id']}/log").get_data()
    row = archive.get(game["id"])
    assert row is not None and row.log == log and row.ruleset == "bluffaneer" and row.status == "finished"
    assert [s["name"] for s in row.seats][:2] == ["ann", "bob"] and row.seats[0]["bot"] == "random"
    assert row.signature is not None and row.result == view(client, game)["result"]
    assert "callback_secret" not in row.secret
    meta = f"game:{{{game['id']}}}:meta"
    assert redis_client.hexists(meta, "archived")
    assert 0 < redis_client.pttl(meta) <= 600_000 and 0 < redis_client.pttl(f"game:{{{game['id']}}}:events") <= 600_000
    assert redis_client.zcard(ARCHIVE_PENDING) == 0
    every = {k: redis_client.pttl(k) for k in redis_client.scan_iter(match=f"game:{{{game['id']}}}*")}
    assert any(":idem:" in k.decode() for k in every)  # the bots' moves' records go with the game too
    assert all(0 < ttl <= 600_000 for ttl in every.values()), every
    sizes = archive.sizes()
    assert sizes["games"] == 1 and sizes["stored_bytes"] < sizes["log_bytes"] / 2


def test_redis_flushed_an_archived_game_is_still_served_audited_and_replayed(
        arc: Any, redis_client: Any) -> None:
    """Item 6: Redis lost entirely; every route answers for the archived game
    as it did (``/log`` byte for byte), and its audit is clean."""
    client, _svc, work = arc
    game = _played(client, work)[0]
    gid = game["id"]
    _svc.loader._cache.clear()  # as any process that did not create it serves it (the header as stored)
    before = {path: client.get(f"/v1/games/{gid}{path}").get_data() for path in ("/log", "/audit", "/replay", "")}
    redis_client.flushall()
    _svc.loader._cache.clear()  # another referee process: nothing cached
    after = {path: client.get(f"/v1/games/{gid}{path}") for path in ("/log", "/audit", "/replay", "")}
    assert all(r.status_code == 200 for r in after.values())
    assert after["/log"].get_data() == before["/log"]
    assert after["/audit"].get_json()["ok"] is True
    assert after["/audit"].get_data() == before["/audit"]
    assert after["/replay"].get_data() == before["/replay"]
    assert after[""].get_json()["result"] == view(client, game)["result"]
    assert client.get("/v1/games/no-such-game").status_code == 404


def test_a_write_repeated_changes_nothing(arc: Any, archive: Archive) -> None:
    """Item 1: the write is an upsert by id; a second job for the game finds it confirmed."""
    client, svc, work = arc
    game = _played(client, work)[0]
    row = archive.get(game["id"])
    assert svc.archiving.archive_game(game["id"]) == "confirmed"
    assert row is not None
    archive.put(row, now=1)
    assert archive.sizes()["games"] == 1 and archive.get(game["id"]) == row


def test_search_pages_with_cursors_by_seat_bot_and_date(arc: Any, archive: Archive, clock: Any) -> None:
    """Item 4's search, at the archive: filters and cursor pages, latest finished first."""
    client, _svc, work = arc
    games = []
    for _ in range(3):
        games += _played(client, work)
        clock.advance(1000)
    found, cursor = archive.search(Query(seat="ann"), limit=2)
    assert len(found) == 2 and cursor is not None
    rest, end = archive.search(Query(seat="ann"), cursor=cursor, limit=2)
    assert len(rest) == 1 and end is None
    assert {g.id for g in found + rest} == {g["id"] for g in games}
    assert archive.search(Query(seat="nobody"))[0] == []
    assert len(archive.search(Query(bot="random", ruleset="bluffaneer"))[0]) == 3
    newest = max(g.finished_at for g in found + rest)
    assert [g.finished_at for g in archive.search(Query(since=newest))[0]] == [newest]


def test_the_database_killed_mid_run_games_go_on_and_every_write_lands_when_it_returns(
        arc: Any, archive: Archive, postgres: LocalPostgres, redis_client: Any, clock: Any) -> None:
    """Item 6: PostgreSQL stopped (immediate shutdown) while games finish:
    they are refereed to their end all the same, stay in Redis unconfirmed,
    and once the database is back the sweeper's jobs land every one: 0 lost."""
    if not archive.url.startswith("postgresql"):
        pytest.skip("the kill is PostgreSQL's (SQLite is a file in-process)")
    client, svc, work = arc
    postgres.stop()
    try:
        games = _played(client, work, 3)
        assert redis_client.zcard(ARCHIVE_PENDING) == 3
        assert not any(redis_client.hexists(f"game:{{{g['id']}}}:meta", "archived") for g in games)
    finally:
        postgres.start()
    clock.advance(60_000)
    assert jobs.sweep(svc, stall_ms=10_000) >= 3
    work()
    lost = [g["id"] for g in games if archive.get(g["id"]) is None]
    print(f"archive fault test: {len(games)} games finished while the database was down, {len(lost)} lost")
    assert lost == [] and redis_client.zcard(ARCHIVE_PENDING) == 0


def test_history_is_searched_through_the_api_a_page_at_a_time(arc: Any) -> None:
    """Item 4: ``GET /v1/archive/games`` by seat name, bot and ruleset,
    paged with cursors; a bad cursor is 422 ``invalid_cursor``."""
    client, _svc, work = arc
    games = _played(client, work, 3)
    first = client.get("/v1/archive/games?seat=ann&limit=2")
    assert first.status_code == 200
    page = first.get_json()
    rest = client.get(f"/v1/archive/games?seat=ann&limit=2&cursor={page['next']}").get_json()
    assert rest["next"] is None
    assert {g["id"] for g in page["games"] + rest["games"]} == {g["id"] for g in games}
    assert page["games"][0]["seats"][0] == {"seat": 0, "name": "ann", "bot": "random"}
    assert client.get("/v1/archive/games?bot=nobody").get_json() == {"games": [], "next": None}
    assert client.get("/v1/archive/games?cursor=1.x%20y").status_code in (400, 422)
    assert client.get("/v1/archive/games?cursor=12.abc").status_code == 200
    assert client.get("/v1/archive/games?colour=red").status_code == 400


def test_an_exported_bundle_is_every_game_s_log_and_referee_audit_checks_it_in_one_go(
        arc: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 4: the export is the games' ``/log`` bytes one after another;
    ``referee audit --bundle BUNDLE`` splits it and finds every game clean."""
    from referee.ops.cli import main
    client, _svc, work = arc
    games = _played(client, work, 2)
    bundle = client.get("/v1/archive/export?bot=random")
    assert bundle.status_code == 200 and bundle.mimetype == "application/x-ndjson"
    logs = {client.get(f"/v1/games/{g['id']}/log").get_data() for g in games}
    assert len(bundle.get_data()) == sum(len(log) for log in logs)
    assert all(log in bundle.get_data() for log in logs)
    path = tmp_path / "bundle.ndjson"
    path.write_bytes(bundle.get_data())
    assert main(["audit", "--bundle", str(path), "--jobs", "1"]) == 0
    assert "2/2 logs clean" in capsys.readouterr().out
    # without --bundle a file is one log: a second header line in it is a forgery, never a new game
    assert main(["audit", str(path), "--jobs", "1"]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_no_archive_is_a_404_naming_it(client: Any) -> None:
    """A referee that keeps no archive says so (404 ``no_archive``)."""
    got = client.get("/v1/archive/games")
    assert got.status_code == 404 and got.get_json()["code"] == "no_archive"


def test_a_backup_exported_then_imported_into_an_empty_archive_serves_the_same_games(
        arc: Any, archive: Archive, tmp_path: Path, redis_client: Any) -> None:
    """Item 6: ``referee archive export`` then ``import`` into another
    (empty) archive: every game, log and fact alike."""
    from referee.ops.cli import main
    client, _svc, work = arc
    games = _played(client, work, 2)
    backup = tmp_path / "backup.ndjson"
    assert main(["archive", "export", "--url", archive.url, "--out", str(backup)]) == 0
    other = Archive(f"sqlite:///{tmp_path}/restored.sqlite3")
    assert main(["archive", "import", "--url", other.url, str(backup)]) == 0
    for game in games:
        assert other.get(game["id"]) == archive.get(game["id"])
    other.close()


def test_the_python_client_searches_and_exports_the_archive(arc: Any) -> None:
    """Item 6's clients: ``client.archive.search/all/export`` typed, and a
    game Redis forgot read back through ``client.games.log``."""
    import httpx

    from referee.client import ArchivedGame, RefereeClient
    client, _svc, work = arc
    games = _played(client, work, 2)
    api = RefereeClient("http://referee.test", transport=httpx.WSGITransport(app=client.application))
    page = api.archive.search(seat="ann", limit=1)
    assert isinstance(page.items[0], ArchivedGame) and page.next is not None
    assert {g.id for g in api.archive.all(bot="random")} == {g["id"] for g in games}
    assert page.items[0].seats[0].name == "ann" and page.items[0].signature is not None
    bundle = api.archive.export(seat="ann")
    assert sorted(log.lines[0]["header"]["id"] for log in api.archive.logs(bundle)) == sorted(g["id"] for g in games)


def test_a_worker_dying_mid_write_loses_no_game_the_sweeper_enqueues_it_again(
        arc: Any, archive: Archive, redis_client: Any, clock: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 1, "never lost when a worker dies mid-write": the row lands but
    the job dies before confirming; the game stays pending, unconfirmed, in
    Redis, and the sweeper's job confirms it (the repeated write is a no-op)."""
    client, svc, work = arc
    real_put = archive.put

    def put_then_die(game: Any, *, now: int) -> None:
        real_put(game, now=now)
        raise RuntimeError("the worker died after the commit")
    monkeypatch.setattr(archive, "put", put_then_die)
    game = _played(client, work)[0]
    meta = f"game:{{{game['id']}}}:meta"
    assert archive.get(game["id"]) is not None and not redis_client.hexists(meta, "archived")
    assert redis_client.zscore(ARCHIVE_PENDING, game["id"]) is not None
    monkeypatch.setattr(archive, "put", real_put)
    clock.advance(60_000)
    assert jobs.sweep(svc, stall_ms=10_000) == 1
    work()
    assert redis_client.hexists(meta, "archived") and redis_client.zcard(ARCHIVE_PENDING) == 0
    assert archive.sizes()["games"] == 1


def test_a_person_s_last_move_owes_the_archive_write_before_it_is_appended(
        arc: Any, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 1: the game enters the pending set before the move that ends it
    is appended, so a referee killed between the append and the job it
    enqueues loses no game (here: the job is never enqueued)."""
    from referee.service.scheduling import RqScheduler
    client, _svc, _work = arc
    monkeypatch.setattr(RqScheduler, "archive_end", lambda *a, **k: None)  # the referee died before enqueueing
    table = create(client, "bluffaneer", players=3)
    while (shown := view(client, table))["status"] == "active":  # whoever is to act resigns, to the end
        seat = shown["to_act"][0]
        got = client.post(f"/v1/games/{table['id']}/moves", json={"move": {"type": "resign"}},
                          headers={"Authorization": f"Bearer {table['seats'][seat]['token']}"})
        assert got.status_code == 201, got.get_json()
    assert view(client, table)["status"] == "finished"
    assert redis_client.zscore(ARCHIVE_PENDING, table["id"]) is not None


def test_the_listing_shows_archived_games_as_it_showed_them_live_and_pages_over_both(
        arc: Any, redis_client: Any, clock: Any) -> None:
    """Item 4: ``GET /v1/games`` lists a game Redis forgot, from the
    archive, exactly as it listed it; live and archived games page together,
    newest created first, none twice, none missed."""
    client, svc, work = arc
    old = _played(client, work, 2)
    before = client.get("/v1/games?limit=10").get_json()["games"]
    redis_client.flushall()
    svc.loader._cache.clear()
    assert client.get("/v1/games?limit=10").get_json()["games"] == before
    clock.advance(1000)
    live = create(client, seats=[{"name": "me"}, {"name": "you"}, {"name": "them"}])
    seen, cursor = [], None
    while True:
        page = client.get("/v1/games?limit=1" + (f"&cursor={cursor}" if cursor else "")).get_json()
        seen += [g["id"] for g in page["games"]]
        if (cursor := page["next"]) is None:
            break
    assert seen == [live["id"]] + [g["id"] for g in before] and len(before) == len(old)
    assert [g["id"] for g in client.get("/v1/games?status=active").get_json()["games"]] == [live["id"]]
    assert {g["id"] for g in client.get("/v1/games?status=finished").get_json()["games"]} == {g["id"] for g in old}
