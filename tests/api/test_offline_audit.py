"""Settling a dispute offline (issue 7; docs/audit.md, "Settling a dispute"): an
exported log of every ruleset verifies with ``referee audit`` without Redis or
a server, every single edit to it is caught and pointed at the edited event,
and ``referee replay`` shows what a seat saw at any version."""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.audit import audit_log
from referee.engine import canonical, commitment, event_salt, sha256_hex
from referee.engine.rng import Rng
from referee.games import registry
from tests.api.helpers import create, ndjson, play_to_end, view
from tests.forge import rechain

REFEREE = str(Path(sys.executable).parent / "referee")
#: a finished log of every registered ruleset (at its smallest usual table)
GAMES = [(name, registry.get(name).min_players + (1 if registry.get(name).options_for(registry.get(name).min_players)
                                                  else 0), f"dispute-{name}") for name in registry.names()]
#: the verifier must run with these unimportable: it needs neither a store nor a server
NO_SERVER = ("import sys\n"
             "for m in ('redis', 'flask', 'rq', 'werkzeug', 'marshmallow', 'requests'): sys.modules[m] = None\n")


#: no Redis to reach; the rulesets installed for this run (tests/plugins) importable, as for any user
OFFLINE_ENV = {"PATH": "/usr/bin:/bin", "REDIS_URL": "redis://127.0.0.1:1/0",
               "PYTHONPATH": os.pathsep.join(p for p in sys.path if "referee-plugins" in p)}


#: random play of a long game (a board game of many small moves) still ends within this
MAX_STEPS = 30000
#: the every-field test edits every field of at most this many events (the first ones): each edit
#: is audited from the start, so a long log would cost its length squared
EDITED_EVENTS = 400


#: finished logs by (ruleset, players, seed): each is played over HTTP once and audited offline by every test
_LOGS: dict[tuple[str, int, str], str] = {}


def _finished_log(client: Any, clock: Any, service: Any, ruleset: str, players: int, seed: str) -> str:
    key = (ruleset, players, seed)
    if key not in _LOGS:
        _LOGS[key] = _play_log(client, clock, service, ruleset, players, seed)
    return _LOGS[key]


def _play_log(client: Any, clock: Any, service: Any, ruleset: str, players: int, seed: str) -> str:
    game = create(client, ruleset=ruleset, players=players, seed=seed)
    pick = Rng(seed.encode())
    play_to_end(client, game, clock, service, pick=lambda seat, moves, step: moves[pick.below(len(moves))],
                max_steps=MAX_STEPS)
    text: str = client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True)
    return text


def _offline(*args: str) -> subprocess.CompletedProcess[str]:
    """``referee …`` in a process where importing Redis, Flask or requests fails."""
    code = NO_SERVER + "from referee.ops.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120,
                          env=OFFLINE_ENV)


@pytest.mark.parametrize("ruleset,players,seed", GAMES)
def test_an_exported_log_verifies_offline_and_an_edit_is_named(
        client: Any, clock: Any, service: Any, tmp_path: Path, ruleset: str, players: int, seed: str) -> None:
    path = tmp_path / "game.ndjson"
    path.write_text(_finished_log(client, clock, service, ruleset, players, seed))
    done = _offline("audit", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK:" in done.stdout and "FAIL" not in done.stdout
    as_json = json.loads(_offline("audit", str(path), "--json").stdout)
    assert as_json["ok"] and as_json["divergence"] is None
    # the console script too, as a user runs it
    assert subprocess.run([REFEREE, "audit", str(path)], capture_output=True, timeout=120,
                          env=OFFLINE_ENV).returncode == 0

    lines = path.read_text().splitlines()
    edited = json.loads(lines[7])
    edited["at"] += 1
    lines[7] = canonical(edited)
    path.write_text("\n".join(lines) + "\n")
    failed = _offline("audit", str(path))
    assert failed.returncode == 1
    assert "FAILED at seq 7 (hash_chain)" in failed.stdout and "field:    type, actor or at" in failed.stdout
    report = json.loads(_offline("audit", str(path), "--json").stdout)
    assert report["divergence"]["seq"] == 7 and not report["ok"]


def test_replay_shows_what_a_seat_saw_at_a_version(client: Any, clock: Any, service: Any, tmp_path: Path) -> None:
    game = create(client, ruleset="bang", players=4, seed="replay-cli")
    early = view(client, game, 2)
    path = tmp_path / "game.ndjson"
    play_to_end(client, game, clock, service)
    path.write_text(client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True))
    done = _offline("replay", str(path), "--at", str(early["version"]), "--seat", "2")
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["version"] == early["version"] and shown["seat"] == 2
    assert shown["state"] == early["state"] and shown["legal_moves"] == early["legal_moves"]
    dealt = game["version"]
    spectator = json.loads(_offline("replay", str(path), "--at", str(dealt)).stdout)
    assert spectator["seat"] is None and isinstance(spectator["state"]["seats"][2]["hand"], int)  # a count
    assert dealt in spectator["shown_versions"] and early["version"] in spectator["shown_versions"]
    assert _offline("replay", str(path), "--at", "0").returncode == 2
    inside = _offline("replay", str(path), "--at", "1")  # inside the deal: nobody was shown it
    assert inside.returncode == 2 and "in the middle of a move" in inside.stderr


# -- every single edit is caught, at the edited event --------------------------
def _mutations(value: Any) -> Iterator[Any]:
    """Single-value edits of a JSON value (its type kept where it has one)."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield value + 1
    elif isinstance(value, str):
        yield (value[:-1] + ("0" if value[-1] != "0" else "1")) if value else "x"
    elif value is None:
        yield 0
    elif isinstance(value, list):
        yield value[:-1] if value else [0]
    elif isinstance(value, dict):
        yield {**value, "_x": 1}


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every field of a JSON value, containers and leaves."""
    yield path
    if isinstance(value, dict):
        for k in value:
            yield from _paths(value[k], path + (k,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, path + (i,))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        value = value[p]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.copy(value)
    out[path[0]] = _set(value[path[0]], path[1:], new)
    return out


@pytest.mark.parametrize("ruleset,players,seed", GAMES)
def test_every_single_field_edit_of_every_event_is_caught_at_its_seq(
        client: Any, clock: Any, service: Any, ruleset: str, players: int, seed: str) -> None:
    lines = ndjson(_finished_log(client, clock, service, ruleset, players, seed))
    head, events = lines[0], lines[1:]
    keys = service.keyring.public()  # the final head's signature is a field like any other, checked under them
    assert audit_log(head["header"], head["hash"], events, keys=keys)["ok"]
    tried = 0
    edited = events[:EDITED_EVENTS]
    for index, env in enumerate(edited):
        for path in _paths(env):
            if not path:
                continue
            for new in _mutations(_get(env, path)):
                forged = list(events)
                forged[index] = _set(env, path, new)
                report = audit_log(head["header"], head["hash"], forged, keys=keys)
                where = ".".join(map(str, path))
                assert not report["ok"], f"an edit of {where} in event {env['seq']} went unseen"
                assert report["divergence"]["seq"] == env["seq"], (where, report["divergence"])
                tried += 1
    for path in _paths(head["header"]):
        if path:
            for new in _mutations(_get(head["header"], path)):
                report = audit_log(_set(head["header"], path, new), head["hash"], events)
                assert not report["ok"] and report["divergence"]["seq"] == 0, path
                tried += 1
    assert tried > 10 * len(edited)  # every field of every edited event (and of the header) was edited


@pytest.mark.parametrize("ruleset,players,seed", GAMES)
def test_dropped_duplicated_swapped_events_and_another_seed_are_caught(
        client: Any, clock: Any, service: Any, ruleset: str, players: int, seed: str) -> None:
    lines = ndjson(_finished_log(client, clock, service, ruleset, players, seed))
    head, events = lines[0], lines[1:]
    n = len(events)

    def divergence(forged: list[Any], header: Any = None) -> Any:
        report = audit_log(header or head["header"], head["hash"], forged)
        assert not report["ok"]
        return report["divergence"]

    for k in (1, n // 2, n):  # seqs: first, middle, last
        i = k - 1
        assert divergence(events[:i] + events[i + 1:])["seq"] == k  # dropped
        assert divergence(events[:k] + [events[i]] + events[k:])["seq"] == k + 1  # duplicated
    for k in (1, n // 2, n - 1):
        i = k - 1
        assert divergence(events[:i] + [events[i + 1], events[i]] + events[i + 2:])["seq"] == k  # swapped
    # another seed in the last event: its commit no longer opens
    last = copy.deepcopy(events[-1])
    last["data"]["seed"] = "f" * 64
    assert divergence(events[:-1] + [last]) == {"check": "hash_chain", "seq": n, "field": "data",
                                                "expected": f"data that opens commit {last['commit']}",
                                                "found": last["data"]}
    # a whole log re-salted and re-chained under another seed: the commitment published at creation catches it
    other = "e" * 64
    forged = copy.deepcopy(events)
    forged[-1]["data"]["seed"] = other
    for env in forged:
        env["salt"] = event_salt(other, env["seq"])
    found = divergence(rechain(head["hash"], forged))
    assert (found["check"], found["seq"], found["field"]) == ("seed_commitment", n, "data.seed")
    assert sha256_hex(other) != head["header"]["seed_commitment"]
    assert commitment(forged[0]["salt"], forged[0]["data"]) == forged[0]["commit"]


def test_many_logs_are_audited_in_several_processes_and_each_failure_is_named(
        client: Any, clock: Any, service: Any, tmp_path: Path) -> None:
    paths = []
    for n, (ruleset, players, seed) in enumerate(GAMES[:3]):
        path = tmp_path / f"game-{n}.ndjson"
        path.write_text(_finished_log(client, clock, service, ruleset, players, seed))
        paths.append(str(path))
    lines = Path(paths[1]).read_text().splitlines()
    edited = json.loads(lines[5])
    edited["actor"] = 3 if edited["actor"] != 3 else 2
    lines[5] = canonical(edited)
    Path(paths[1]).write_text("\n".join(lines) + "\n")
    missing = str(tmp_path / "no-such.ndjson")

    done = _offline("audit", *paths, missing, "--jobs", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout.splitlines()
    assert out[0].startswith(f"ok    {paths[0]}: ") and out[2].startswith(f"ok    {paths[2]}: ")
    assert out[1].startswith(f"FAIL  {paths[1]}: at seq 5 (hash_chain)")
    assert out[3].startswith(f"FAIL  {missing}: at seq 0 (format): the log cannot be read")
    assert out[4].startswith("audit: 2/4 logs clean")
    reports = json.loads(_offline("audit", *paths, "--json", "--jobs", "2").stdout)
    assert [r["log"] for r in reports] == paths and [r["ok"] for r in reports] == [True, False, True]
    # one process or two: the same reports
    assert json.loads(_offline("audit", *paths, "--json", "--jobs", "1").stdout) == reports
    assert _offline("audit", paths[0], paths[2]).returncode == 0
    assert _offline("audit", paths[0], "--jobs", "0").returncode == 2
    assert _offline("audit", "-", paths[0]).returncode == 2


@pytest.mark.parametrize("ruleset,players,seed", GAMES[:2])
def test_a_log_read_as_a_file_is_audited_as_its_lines(
        client: Any, clock: Any, service: Any, tmp_path: Path, ruleset: str, players: int, seed: str) -> None:
    """``referee audit`` over several files reads each whole, as bytes (every line parsed at once where
    orjson alone reads it as ``json.loads`` does): the same report as line by line, for a clean log and
    for each way a line can be odd."""
    from referee.audit import audit_lines
    from referee.audit.batch import audit_file
    text = _finished_log(client, clock, service, ruleset, players, seed)
    lines = text.splitlines()
    event = json.loads(lines[3])
    variants = {
        "clean": text,
        "crlf": "\r\n".join(lines) + "\r\n",
        "blank lines, one a Unicode space": "\n".join([*lines[:2], "", "\u00a0", *lines[2:]]) + "\n",
        "not JSON": "\n".join([*lines[:4], lines[4][:-1], *lines[5:]]) + "\n",
        "a BOM": "\ufeff" + text,
        "a number past 64 bits": "\n".join([*lines[:3], canonical({**event, "at": 2**70}), *lines[4:]]) + "\n",
        "NaN": "\n".join([*lines[:3], lines[3].replace('"at":', '"at":NaN,"x":', 1), *lines[4:]]) + "\n",
    }
    for name, variant in variants.items():
        path = tmp_path / "log.ndjson"
        path.write_bytes(variant.encode())
        assert audit_file(str(path)) == audit_lines(variant.splitlines()), name
    assert audit_file(str(path))["ok"] is False and audit_lines(text.splitlines())["ok"] is True
    path.write_bytes(text.encode()[:-40] + b"\xff\n")
    assert audit_file(str(path))["checks"][-1]["detail"].startswith("the log cannot be read")
