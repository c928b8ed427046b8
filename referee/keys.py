"""Where the referee's signing keys come from (docs/audit.md).

A key set is text, one key a line: ``<kid> <private key>``, the private key
the unpadded base64url of its 32-byte Ed25519 seed; ``#`` starts a comment.
The first key signs; every key is published at ``GET /v1/keys`` (an older
key stays listed after a rotation, so what it signed still verifies).

``REFEREE_SIGNING_KEY`` holds that text itself (lines may also be separated
by ``;``); otherwise ``REFEREE_SIGNING_KEY_FILE`` names the file (default
``var/signing.keys``), which is generated with one fresh key, readable by its
owner only, where it does not exist yet. Every referee and worker of one
deployment must read the same keys: a worker signs the final head of a game
its bot finishes."""
from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from referee import settings
from referee.engine.signature import Keyring, SigningKey, b64url, unb64url


class BadKeys(ValueError):
    """A key set that cannot be read (named, with the line)."""


def parse(text: str, source: str) -> Keyring:
    keys = []
    for number, raw in enumerate(text.replace(";", "\n").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2:
            raise BadKeys(f"{source}, line {number}: a key is '<kid> <base64url private key>'")
        try:
            keys.append(SigningKey.from_seed(parts[0], unb64url(parts[1])))
        except ValueError as err:
            raise BadKeys(f"{source}, line {number}: {err}") from None
    try:
        return Keyring(keys)
    except ValueError as err:
        raise BadKeys(f"{source}: {err}") from None


def new_line(kid: str | None = None) -> str:
    """A fresh key's line (its kid: the date and 4 random hex digits, unless given)."""
    kid = kid or f"k{time.strftime('%Y%m%d', time.gmtime())}-{secrets.token_hex(2)}"
    SigningKey.from_seed(kid, bytes(32))  # the kid checked
    return f"{kid} {b64url(secrets.token_bytes(32))}\n"


def _create(path: Path) -> None:
    """Write a file of one fresh key at ``path`` unless one is there: made
    aside and linked into place, so processes starting at once agree on one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    aside = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as out:
            out.write("# the referee's signing keys: the first signs, all are published (GET /v1/keys)\n")
            out.write(new_line())
        try:
            os.link(aside, path)
        except FileExistsError:
            pass
    finally:
        aside.unlink(missing_ok=True)


def rotate(path: Path, kid: str | None = None) -> str:
    """Put a fresh key first in the file at ``path`` (created if missing): it
    signs from the next start on, the others stay published. Its kid."""
    if not path.exists():
        _create(path)
        return parse(path.read_text(), str(path)).signer.kid
    line = new_line(kid)
    old = path.read_text()
    parse(line + old, str(path))  # refuses a kid already there
    aside = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(line + old)
    os.replace(aside, path)
    return line.split()[0]


def load() -> Keyring:
    """The deployment's keys, from the settings (see the module's docstring)."""
    text = settings.get("REFEREE_SIGNING_KEY")
    if text:
        return parse(text, "REFEREE_SIGNING_KEY")
    return load_file(Path(settings.text("REFEREE_SIGNING_KEY_FILE")))


def load_file(path: Path) -> Keyring:
    """The keys of the file at ``path``, made with one fresh key if missing."""
    try:
        if not path.exists():
            _create(path)
        return parse(path.read_text(), str(path))
    except OSError as err:
        raise BadKeys(f"{path}: {err.strerror}") from None
