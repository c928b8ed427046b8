"""The transparency log rebuilt from the archive (issue 41 item 6;
docs/transparency.md, "Rebuilt from the archive"): the archive keeps each
finished game's leaf and index, so ``referee transparency rebuild`` makes
the live log's very root from archive rows alone (SQLite and a PostgreSQL
the test starts); after Redis is lost, ``--restore`` writes the tree back
and the referee keeps appending to it, provably consistent with a
checkpoint taken before the loss."""
from __future__ import annotations

import base64
from typing import Any

import pytest

from referee.archive import Archive
from referee.engine import checkpoint, merkle
from referee.engine.signature import PublicKeys
from referee.ops.cli import main
from referee.service.tlog_rebuild import rebuild
from tests.api.helpers import played as _played


@pytest.fixture(autouse=True)
def _live_redis(redis_port: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``referee transparency rebuild`` reads the live log where the app under test keeps it."""
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{redis_port}/0")


def _checkpoint(client: Any) -> checkpoint.Checkpoint:
    keys = PublicKeys.from_jwks(client.get("/v1/keys").get_json())
    return checkpoint.verify(client.get("/v1/transparency/checkpoint").get_data(as_text=True), keys)


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def test_the_tree_rebuilt_from_the_archive_has_the_live_root(
        arc: Any, archive: Archive, capsys: pytest.CaptureFixture[str]) -> None:
    """Each archived row keeps its game's leaf and index; rebuilt in index
    order they give the live checkpoint's size and root, and ``--check`` says so."""
    client, _svc, work = arc
    games = _played(client, work, 3)
    live = _checkpoint(client)
    rows = [archive.get(g["id"]) for g in games]
    assert sorted(r.tlog_index for r in rows if r and r.tlog_index is not None) == [0, 1, 2]
    for row in rows:
        assert row is not None and row.tlog_leaf is not None
        proof = client.get(f"/v1/transparency/proof/inclusion?game={row.id}").get_json()
        assert (proof["index"], proof["leaf"]) == (row.tlog_index, row.tlog_leaf)
    rebuilt = rebuild(archive)
    assert (rebuilt.size, rebuilt.root, rebuilt.stray) == (live.size, live.root, [])
    assert list(archive.leaves(page=1)) == list(archive.leaves()) and len(list(archive.leaves())) == 3
    assert main(["transparency", "rebuild", "--url", archive.url, "--check"]) == 0
    out = capsys.readouterr().out
    assert f"archive: 3 leaves, root {_b64(live.root)}" in out and "live log: the same root at 3 leaves" in out


def test_a_live_log_that_differs_from_the_archive_fails_the_check(
        arc: Any, archive: Archive, redis_client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """A live leaf rewritten (or the archive's) is caught: exit 1, DIFFERENT."""
    client, _svc, work = arc
    games = _played(client, work, 2)
    redis_client.lset("tlog:{tlog}:leaves", 1, b'{"forged":true}')
    redis_client.delete("tlog:{tlog}:nodes")
    assert main(["transparency", "rebuild", "--url", archive.url, "--check"]) == 1
    assert "DIFFERENT" in capsys.readouterr().out
    assert len(games) == 2


def test_redis_lost_the_log_is_restored_from_the_archive_and_grows_consistently(
        arc: Any, archive: Archive, redis_client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """Redis flushed: ``--restore`` writes the archive's tree back (the old
    checkpoint's root again); games finished afterwards are appended after
    it, and the consistency proof from the old checkpoint verifies."""
    client, svc, work = arc
    old_games = _played(client, work, 3)
    old = _checkpoint(client)
    redis_client.flushall()
    svc.loader._cache.clear()  # another process: nothing cached
    assert _checkpoint(client).size == 0
    assert main(["transparency", "rebuild", "--url", archive.url, "--restore"]) == 0
    assert f"live log: restored, 3 leaves, root {_b64(old.root)}" in capsys.readouterr().out
    assert main(["transparency", "rebuild", "--url", archive.url, "--restore"]) == 1  # never over a live log
    assert "only fills an empty one" in capsys.readouterr().err
    new_games = _played(client, work, 2)
    new = _checkpoint(client)
    assert new.size == 5
    proof = client.get(f"/v1/transparency/proof/consistency?from={old.size}&to={new.size}").get_json()
    assert merkle.verify_consistency(old.size, new.size, old.root, new.root,
                                     [base64.b64decode(h) for h in proof["proof"]])
    for game in old_games + new_games:  # the old games, served from the archive, at their old indices
        got = client.get(f"/v1/transparency/proof/inclusion?game={game['id']}").get_json()
        row = archive.get(game["id"])
        assert row is not None and got["index"] == row.tlog_index
        assert merkle.verify_inclusion(base64.b64decode(got["leaf_hash"]), got["index"], new.size,
                                       [base64.b64decode(h) for h in got["proof"]], new.root)
    kept = [archive.get(g["id"]) for g in old_games]  # the games finish in any order: their leaves are 0 to 2
    assert sorted(row.tlog_index for row in kept if row and row.tlog_index is not None) == [0, 1, 2]
    assert main(["transparency", "rebuild", "--url", archive.url, "--check"]) == 0


def test_a_leaf_missing_from_the_archive_ends_the_rebuilt_tree_and_those_past_it_are_logged_again(
        arc: Any, archive: Archive, redis_client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """A game logged but never archived (lost with Redis) leaves a gap: the
    rebuilt tree stops before it; a restore appends the games past it again,
    and their rows learn their new index."""
    client, _svc, work = arc
    games = _played(client, work, 3)
    rows = [archive.get(g["id"]) for g in games]
    index = {row.id: row.tlog_index for row in rows if row and row.tlog_index is not None}
    by_index = sorted(games, key=lambda g: index[g["id"]])
    with archive.engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM seats WHERE game_id = ?" if archive.url.startswith("sqlite")
                             else "DELETE FROM seats WHERE game_id = %s", (by_index[1]["id"],))
        conn.exec_driver_sql("DELETE FROM games WHERE id = ?" if archive.url.startswith("sqlite")
                             else "DELETE FROM games WHERE id = %s", (by_index[1]["id"],))
    rebuilt = rebuild(archive)
    assert rebuilt.size == 1 and [s[1] for s in rebuilt.stray] == [by_index[2]["id"]]
    redis_client.flushall()
    assert main(["transparency", "rebuild", "--url", archive.url, "--restore"]) == 0
    assert "leaf 1 is missing; 1 leaves past it" in capsys.readouterr().out
    moved = archive.get(by_index[2]["id"])
    assert moved is not None and moved.tlog_index == 1
    again = rebuild(archive)
    assert (again.size, again.root, again.stray) == (2, _checkpoint(client).root, [])


def test_an_archive_made_before_leaves_were_kept_gains_their_columns(tmp_path: Any) -> None:
    """A ``games`` table without ``tlog_index``/``tlog_leaf`` (an archive of an
    earlier version) gets them, null in its rows, which a rebuild counts apart."""
    from sqlalchemy import Column, MetaData, String, Table, create_engine, inspect

    from referee.archive.db import GAMES
    url = f"sqlite:///{tmp_path}/old.sqlite3"
    old = MetaData()
    Table("games", old, *[Column(c.name, c.type, primary_key=c.primary_key) for c in GAMES.c
                          if c.name not in ("tlog_index", "tlog_leaf")])
    Table("seats", old, Column("game_id", String(64), primary_key=True))
    engine = create_engine(url)
    old.create_all(engine)
    with engine.begin() as conn:
        conn.execute(old.tables["games"].insert().values(
            id="g1", ruleset="bluffaneer", ruleset_version="1", status="finished", version=9, custom=False,
            created_at=1, finished_at=2, head="h" * 64, seats="[]", log=b"", log_bytes=0, stored_bytes=0,
            restore=b"", archived_at=3))
    engine.dispose()
    archive = Archive(url)
    archive.ready()
    assert {"tlog_index", "tlog_leaf"} <= {c["name"] for c in inspect(archive.engine).get_columns("games")}
    rebuilt = rebuild(archive)
    assert (rebuilt.size, rebuilt.root, rebuilt.unlogged) == (0, merkle.EMPTY_ROOT, 1)
    archive.close()
