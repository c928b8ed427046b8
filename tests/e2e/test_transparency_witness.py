"""Issue 41 item 4 with real processes: ``referee witness`` against a real
``referee serve`` keeps each checkpoint that extends the last, and refuses
a fork (a finished game rewritten in the log) with a clear message and exit
1; ``referee audit --inclusion`` proves a game's final head is in the signed
tree, and catches the rewritten one."""
from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import requests

from referee.keys import new_line
from referee.store.redis_store import EventStore
from tests.e2e.conftest import REFEREE, Live, live_stack

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def stack() -> Iterator[Live]:
    with live_stack(REFEREE_SIGNING_KEY=new_line("tlog-e2e").strip()) as live:
        yield live


def _finish(url: str) -> str:
    """A two-seat Face Off game, ended by a resignation."""
    created = requests.post(f"{url}/v1/games", json={"ruleset": "bang-faceoff", "players": 2}, timeout=30).json()
    for _ in range(50):
        spectator = requests.get(f"{url}/v1/games/{created['id']}", timeout=30).json()
        if spectator["status"] != "active":
            return str(created["id"])
        seat = spectator["to_act"][0]
        token = created["seats"][seat]["token"]
        mine = requests.get(f"{url}/v1/games/{created['id']}", headers={"Authorization": f"Bearer {token}"},
                            timeout=30).json()
        chosen = next((m for m in mine["legal_moves"] if m["type"] == "resign"), mine["legal_moves"][0])
        posted = requests.post(f"{url}/v1/games/{created['id']}/moves", json={"move": chosen},
                               headers={"Authorization": f"Bearer {token}"}, timeout=30)
        assert posted.status_code == 201, posted.text
    raise AssertionError("the game did not end")


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([REFEREE, *argv], capture_output=True, text=True, timeout=300)


def _witness(live: Live, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return _run("witness", live.url, "--state", str(tmp_path / "seen.note"), "--pins", str(tmp_path / "pins.json"))


def _audit(live: Live, tmp_path: Path, game: str, *held: str, size: int | None = None,
           ) -> subprocess.CompletedProcess[str]:
    log, proof = tmp_path / f"{game}.ndjson", tmp_path / f"{game}.proof.json"
    log.write_text(requests.get(f"{live.url}/v1/games/{game}/log", timeout=30).text)
    params: dict[str, str | int] = {"game": game} if size is None else {"game": game, "size": size}
    proof.write_text(requests.get(f"{live.url}/v1/transparency/proof/inclusion", params=params, timeout=30).text)
    return _run("audit", str(log), "--key", live.url, "--pins", str(tmp_path / "pins.json"),
                "--inclusion", str(proof), *held)


def _rewrite_first_game(live: Live) -> None:
    """The referee (or anyone holding its Redis) rewrites the first finished game's final head."""
    store = EventStore(redis.Redis.from_url(live.redis_url)).transparency
    leaves = store.leaves()
    forged = json.loads(leaves[0])
    forged["head"] = "0" * 64
    rewritten = json.dumps(forged, sort_keys=True, separators=(",", ":")).encode()
    games = [g.decode() for g, _ in sorted(store.redis.hgetall("tlog:{tlog}:games").items(),
                                           key=lambda item: int(item[1]))]
    store.rebuild(list(zip(games, [rewritten, *leaves[1:]], strict=True)))


def test_e2e_the_witness_keeps_consistent_checkpoints_and_refuses_a_fork(stack: Live, tmp_path: Path) -> None:
    first = _finish(stack.url)
    seen = _witness(stack, tmp_path)
    assert seen.returncode == 0, seen.stderr
    assert "first checkpoint" in seen.stdout
    _finish(stack.url)
    _finish(stack.url)
    grew = _witness(stack, tmp_path)
    assert grew.returncode == 0, grew.stderr
    assert "has 3 leaves (had 1), consistent" in grew.stdout
    audited = _audit(stack, tmp_path, first)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert "inclusion: ok" in audited.stdout
    kept = (tmp_path / "seen.note").read_text()
    _finish(stack.url)  # the log grows past the checkpoint the witness holds
    held = ("--checkpoint", str(tmp_path / "seen.note"))
    against_held = _audit(stack, tmp_path, first, *held, size=3)
    assert against_held.returncode == 0 and "signed tree of 3" in against_held.stdout, against_held.stdout
    other_tree = _audit(stack, tmp_path, first, *held)
    assert other_tree.returncode == 1 and "ask the proof with size=3" in other_tree.stdout

    _rewrite_first_game(stack)
    _finish(stack.url)
    refused = _witness(stack, tmp_path)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "REFUSED" in refused.stderr and "fork" in refused.stderr
    assert (tmp_path / "seen.note").read_text() == kept  # the evidence stays
    caught = _audit(stack, tmp_path, first)
    assert caught.returncode == 1 and "inclusion: FAIL" in caught.stdout and "rewritten" in caught.stdout

