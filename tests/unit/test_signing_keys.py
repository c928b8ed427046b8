"""The signing keys (issue 22, item 1): read strictly from the setting or the
key file, generated once where missing (owner-only), rotated with the old
keys still published so what they signed still verifies; base64url read in
its one canonical spelling; a pinned key set kept over a referee that later
serves another."""
from __future__ import annotations

import base64
import json
import os
import stat
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from referee import keys
from referee.engine.signature import Keyring, PublicKeys, SigningKey, b64url, final_statement, unb64url
from referee.ops import pinning

SEED = b64url(bytes(range(32)))


def _file_only(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.delenv("REFEREE_SIGNING_KEY", raising=False)
    monkeypatch.setenv("REFEREE_SIGNING_KEY_FILE", str(path))


def test_a_missing_key_file_is_generated_once_readable_by_its_owner_only(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    path = tmp_path / "var" / "signing.keys"
    _file_only(monkeypatch, path)
    first = keys.load()
    assert path.exists() and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert keys.load().jwks() == first.jwks()  # read again, not made again
    assert [p.name for p in path.parent.iterdir()] == ["signing.keys"]  # nothing left aside


def test_rotation_puts_a_new_signer_first_and_keeps_the_old_key_published(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    path = tmp_path / "signing.keys"
    _file_only(monkeypatch, path)
    old = keys.load()
    signed = old.final("g", 3, "cd" * 32)
    kid = keys.rotate(path, "next-1")
    new = keys.load()
    assert kid == "next-1" == new.signer.kid and [k.kid for k in new.keys] == ["next-1", old.signer.kid]
    assert new.public().verify(signed["kid"], signed["sig"], final_statement("g", 3, "cd" * 32, signed["kid"])) is None
    with pytest.raises(keys.BadKeys, match="share a key id"):
        keys.rotate(path, "next-1")


def test_the_setting_wins_over_the_file_and_may_hold_several_keys(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    monkeypatch.setenv("REFEREE_SIGNING_KEY_FILE", str(tmp_path / "never.keys"))
    monkeypatch.setenv("REFEREE_SIGNING_KEY", f"a {SEED}; b {b64url(bytes(32))}  # retired")
    ring = keys.load()
    assert [k.kid for k in ring.keys] == ["a", "b"] and ring.signer.kid == "a"
    assert not (tmp_path / "never.keys").exists()


@pytest.mark.parametrize("text,why", [
    ("", "at least one key"),
    ("a", "line 1: a key is"),
    (f"a {SEED} extra", "line 1: a key is"),
    (f"# c\na {SEED[:-3]}", "line 2: an Ed25519 private key is 32 bytes"),
    (f"a {SEED}=", "not unpadded base64url"),
    (f"a/b {SEED}", "key id"),
    (f"a {SEED}\na {SEED}", "share a key id"),
])
def test_a_key_set_that_cannot_be_read_is_refused_naming_the_line(text: str, why: str) -> None:
    with pytest.raises(keys.BadKeys, match=why):
        keys.parse(text, "test")


def test_base64url_is_read_in_its_one_spelling_only() -> None:
    raw = bytes(range(64))
    text = b64url(raw)
    assert unb64url(text) == raw and len(text) == 86
    for bad in (text[:-1] + "B" if text[-1] != "B" else text[:-1] + "C", text + "=", text.replace("-", "+"),
                " " + text):
        with pytest.raises(ValueError):
            unb64url(bad)
    spelled = text[:-1] + {"A": "B"}.get(text[-1], "A")  # the unused low bits of the last character set
    assert base64.urlsafe_b64decode(spelled + "==")[:63] == raw[:63]  # the lenient decoder reads the same bytes


def test_a_key_set_that_is_no_ed25519_jwk_set_is_refused() -> None:
    good = Keyring([SigningKey.from_seed("k", bytes(32))]).jwks()
    assert PublicKeys.from_jwks(good).kids() == ["k"]
    bad: dict[str, Any]
    for bad in ({}, {"keys": []}, {"keys": [{**good["keys"][0], "crv": "X25519"}]},
                {"keys": [{**good["keys"][0], "x": good["keys"][0]["x"][:-1]}]},
                {"keys": [good["keys"][0], good["keys"][0]]}, {"keys": [{**good["keys"][0], "kid": ""}]}):
        with pytest.raises(ValueError):
            PublicKeys.from_jwks(bad)


class _KeysServer:
    """A real HTTP server serving ``jwks`` at ``/v1/keys`` (changeable), counting requests."""

    def __init__(self, jwks: Any) -> None:
        self.jwks, self.hits = jwks, 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                outer.hits += 1
                body = json.dumps(outer.jwks).encode()
                self.send_response(200 if self.path == "/v1/keys" else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def keys_server() -> Iterator[_KeysServer]:
    server = _KeysServer(Keyring([SigningKey.from_seed("first", bytes(32))]).jwks())
    yield server
    server.close()


def test_a_url_s_keys_are_fetched_once_then_pinned_until_repinned(keys_server: _KeysServer, tmp_path: Path) -> None:
    pins = tmp_path / "pins.json"
    jwks, how = pinning.resolve(keys_server.url, pins)
    assert PublicKeys.from_jwks(jwks).kids() == ["first"] and "fetched" in how and keys_server.hits == 1
    keys_server.jwks = Keyring([SigningKey.from_seed("swapped", bytes(range(32)))]).jwks()  # the URL turns
    jwks, how = pinning.resolve(keys_server.url + "/v1/keys", pins)
    assert PublicKeys.from_jwks(jwks).kids() == ["first"] and "pinned" in how and keys_server.hits == 1
    jwks, _ = pinning.resolve(keys_server.url, pins, repin=True)
    assert PublicKeys.from_jwks(jwks).kids() == ["swapped"] and keys_server.hits == 2
    assert json.loads(pins.read_text())[keys_server.url + "/v1/keys"]["jwks"] == jwks


def test_keys_that_cannot_be_had_are_named(keys_server: _KeysServer, tmp_path: Path) -> None:
    keys_server.jwks = {"keys": "none"}
    with pytest.raises(pinning.NoKeys, match="a key set is"):
        pinning.resolve(keys_server.url, tmp_path / "pins.json")
    with pytest.raises(pinning.NoKeys, match="cannot be fetched"):
        pinning.resolve("http://127.0.0.1:1", tmp_path / "pins.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(pinning.NoKeys, match="not JSON"):
        pinning.resolve(str(tmp_path / "bad.json"))
    with pytest.raises(pinning.NoKeys, match="cannot be read"):
        pinning.resolve(str(tmp_path / "absent.json"))
    one = Keyring([SigningKey.from_seed("solo", bytes(32))]).jwks()["keys"][0]
    (tmp_path / "one.json").write_text(json.dumps(one))  # one JWK will do
    assert PublicKeys.from_jwks(pinning.resolve(str(tmp_path / "one.json"))[0]).kids() == ["solo"]
    assert not os.path.exists(tmp_path / "pins.json")
