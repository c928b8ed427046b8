"""``referee.ops.topology``: the whole topology on this machine (games' Redis,
queue Redis, two referees behind haproxy, a worker) starts, serves through
haproxy, rides out a referee killed with SIGKILL, and stops without leaving a
process behind. Skipped, loudly, without haproxy."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from referee.ops import topology
from referee.ops.topology import Topology, TopologyError, http_status
from referee.store.redis_server import free_port
from tests.cluster.conftest import require_haproxy

pytestmark = pytest.mark.cluster
DEADLINE_S = 30.0
ENV = {"REFEREE_RATE_LIMIT": "off"}


@pytest.fixture(scope="module")
def standalone() -> Iterator[Topology]:
    require_haproxy()
    topo = Topology(referees=2, workers=1, standalone=True, env=ENV)
    with topo:
        print(f"standalone topology up: {topo.timings}")
        yield topo
    assert all(p.poll() is not None for p in topo.all_processes())
    assert not topo.directory.exists()


def test_health_and_a_game_through_haproxy(standalone: Topology) -> None:
    assert http_status(standalone.url + "/health") == 200
    created = requests.post(standalone.url + "/v1/games", json={"ruleset": "bluffaneer", "players": 4},
                            timeout=DEADLINE_S)
    assert created.status_code == 201, created.text
    game = created.json()["id"]
    for _ in range(4):  # round-robin: both referees serve the game
        assert requests.get(f"{standalone.url}/v1/games/{game}", timeout=DEADLINE_S).status_code == 200


def test_a_referee_killed_with_sigkill_is_retried_past(standalone: Topology) -> None:
    created = requests.post(standalone.url + "/v1/games", json={"ruleset": "bang", "players": 5},
                            timeout=DEADLINE_S)
    assert created.status_code == 201, created.text
    victim = standalone.kill_referee(0)
    assert not victim.alive
    statuses = [requests.get(f"{standalone.url}/v1/games/{created.json()['id']}", timeout=DEADLINE_S).status_code
                for _ in range(10)]
    assert statuses == [200] * 10  # haproxy retried each refused connection on the live referee


def test_a_worker_killed_with_sigkill_is_gone(standalone: Topology) -> None:
    victim = standalone.kill_worker(0)
    assert not victim.alive and victim.proc.returncode == -9


def test_on_a_cluster_health_comes_back_after_a_master_fails_over() -> None:
    """The cluster topology: the referees' /health through haproxy, before
    and after a master (not the one REDIS_URL names) is killed."""
    require_haproxy()
    with Topology(referees=2, workers=1, env=ENV) as topo:
        assert topo.cluster is not None and len(topo.redis_ports()) == 6
        assert http_status(topo.url + "/health") == 200
        named = int(topo.games_url.rsplit(":", 1)[1].split("/")[0])
        victim = next(m for m in topo.cluster.masters if m.port != named)
        topo.kill_master(victim.port)
        print(f"failover in {topo.wait_failover(DEADLINE_S):.2f} s after the kill was seen")
        deadline = time.monotonic() + DEADLINE_S
        while http_status(topo.url + "/health") != 200:
            assert time.monotonic() < deadline, "/health never came back after the failover"
            time.sleep(0.2)
        processes = topo.all_processes()
    assert all(p.poll() is not None for p in processes)


def test_without_haproxy_main_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(topology, "haproxy_binary", lambda: None)
    assert topology.main(["--standalone"]) == 2
    assert "apt-get install haproxy" in capsys.readouterr().err
    with pytest.raises(TopologyError, match="apt-get install haproxy"):
        Topology(referees=1, workers=0, standalone=True).start()


def test_make_cluster_says_what_to_export_and_ctrl_c_stops_it(tmp_path: Path) -> None:
    """``make cluster``'s last line before it serves is the line to paste in a
    second terminal (docs/operations.md): ``export REFEREE_URL=`` haproxy's
    address, which answers; Ctrl+C (SIGINT) stops it all."""
    require_haproxy()
    port = free_port()
    env = {**os.environ, **ENV, "PORT": str(port)}
    proc = subprocess.Popen([sys.executable, "-m", "referee.ops.topology", "--standalone", "--referees", "1",
                             "--workers", "1", "--no-archive"], env=env, stdout=subprocess.PIPE, text=True,
                            cwd=tmp_path, start_new_session=True)
    assert proc.stdout is not None
    try:
        said = ""
        for line in proc.stdout:
            said += line
            if line.startswith("topology: ready"):
                break
        exported = re.search(r"export REFEREE_URL=(\S+)", said)
        assert exported, said
        assert exported.group(1) == f"http://127.0.0.1:{port}"
        assert http_status(exported.group(1) + "/health") == 200
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=120)
        assert "topology: stopped" in proc.stdout.read()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_a_frontend_port_taken_before_haproxy_binds_it_is_picked_again_unless_it_was_given() -> None:
    """Processes started in parallel pick free ports too: one may take the
    frontend's between its pick and haproxy's bind. A picked port is picked
    again; a port the caller gave is refused with haproxy's own words."""
    require_haproxy()
    squatter = socket.socket()
    squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    topo = Topology(referees=1, workers=0, standalone=True, env=ENV)
    taken = topo.port
    squatter.bind(("127.0.0.1", taken))
    squatter.listen()
    try:
        with topo:
            assert topo.port != taken and http_status(topo.url + "/health") == 200
        given = Topology(referees=1, workers=0, standalone=True, env=ENV, port=taken)
        with pytest.raises(TopologyError, match="cannot bind socket"):
            with given:
                pass
        assert all(p.poll() is not None for p in given.all_processes())
    finally:
        squatter.close()
