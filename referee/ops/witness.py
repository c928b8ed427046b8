"""``referee witness`` and ``referee audit --inclusion`` (docs/transparency.md).

A witness keeps the last checkpoint of a referee's transparency log it saw
in a file; each run fetches the checkpoint now, checks its signature (the
referee's keys, pinned on first use as ``referee audit --key URL`` pins
them) and its consistency with the one kept, and keeps the new one only if
it extends the old: a fork (a rewritten finished game) is refused, exit 1,
and the file keeps the checkpoint that proves it."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from referee.ops.helptext import TRANSPARENCY, add_command

EXIT_OK, EXIT_FORK, EXIT_USAGE = 0, 1, 2
FETCH_TIMEOUT_S = 10.0


def _get(url: str) -> Any:
    import requests
    response = requests.get(url, timeout=FETCH_TIMEOUT_S)
    response.raise_for_status()
    return response


def cmd_witness(args: argparse.Namespace) -> int:
    """Fetch the checkpoint, check it against the one kept, keep it if it extends it."""
    import requests

    from referee.audit.transparency import NotProven, consistent
    from referee.engine import checkpoint as notes
    from referee.engine.signature import PublicKeys
    from referee.ops.pinning import NoKeys, resolve
    base, state = args.url.rstrip("/"), Path(args.state)
    try:
        jwks, _ = resolve(args.key or base, Path(args.pins) if args.pins else None)
        keys = PublicKeys.from_jwks(jwks)
        note = _get(f"{base}/v1/transparency/checkpoint").text
        old_note = state.read_text(encoding="utf-8") if state.exists() else None
    except (NoKeys, requests.RequestException, OSError, ValueError) as err:
        print(f"referee witness: {err}", file=sys.stderr)
        return EXIT_USAGE
    try:
        new = notes.verify(note, keys)
        if old_note is None:
            print(f"referee witness: first checkpoint of {new.origin}: {new.size} leaves, kept in {state}")
        else:
            old = notes.verify(old_note, keys)
            proof = []
            if new.size > old.size:
                proof = _get(f"{base}/v1/transparency/proof/consistency?from={old.size}&to={new.size}").json()["proof"]
            consistent(old, new, proof)
            print(f"referee witness: {new.origin} has {new.size} leaves (had {old.size}), "
                  "consistent with the checkpoint kept")
    except (notes.BadCheckpoint, NotProven) as err:
        print(f"referee witness: REFUSED: {err}; the checkpoint kept in {state} is the evidence", file=sys.stderr)
        return EXIT_FORK
    except (requests.RequestException, ValueError, KeyError) as err:
        print(f"referee witness: {err}", file=sys.stderr)
        return EXIT_USAGE
    _keep(state, note)
    return EXIT_OK


def _keep(state: Path, note: str) -> None:
    state.parent.mkdir(parents=True, exist_ok=True)
    aside = state.with_name(f".{state.name}.{os.getpid()}")
    aside.write_text(note, encoding="utf-8")
    os.replace(aside, state)


def check_inclusion(log: str, proof_file: str, jwks: Any, held: str | None) -> int:
    """``referee audit LOG --inclusion PROOF``: the game's final head is in the
    signed tree (``held``: the checkpoint file the auditor holds). Prints a line."""
    from referee.audit.transparency import NotProven, inclusion, last_event, leaf_of_log
    from referee.engine.signature import PublicKeys
    if jwks is None:
        print("referee audit: --inclusion needs --key (the checkpoint's signature is checked)", file=sys.stderr)
        return EXIT_USAGE
    try:
        text = sys.stdin.read() if log == "-" else Path(log).read_text(encoding="utf-8")
        proof = json.loads(Path(proof_file).read_text(encoding="utf-8"))
        held_note = Path(held).read_text(encoding="utf-8") if held else None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        print(f"referee audit: --inclusion: {err}", file=sys.stderr)
        return EXIT_USAGE
    try:
        game, last = last_event(text)
        tree = inclusion(leaf_of_log(game, last), proof, PublicKeys.from_jwks(jwks), held_note)
    except NotProven as err:
        print(f"inclusion: FAIL: {err}")
        return EXIT_FORK
    print(f"inclusion: ok: game {game}'s final head is leaf {proof['index']} of {tree.origin}'s "
          f"signed tree of {tree.size}")
    return EXIT_OK


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    wit = add_command(sub, "witness", "check a referee's transparency log never forks", TRANSPARENCY)
    wit.add_argument("url", help="the referee's base URL")
    wit.add_argument("--state", required=True, help="the file keeping the last checkpoint seen")
    wit.add_argument("--key", help="the referee's keys: a JWK set file (default: the URL's, pinned)")
    wit.add_argument("--pins", help="the pin file (default $XDG_CONFIG_HOME/referee/pinned-keys.json)")
    wit.set_defaults(func=cmd_witness)
