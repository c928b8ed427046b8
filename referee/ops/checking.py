"""``referee audit`` and ``referee replay``: exported logs checked and
replayed offline, with no Redis and no server."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from referee.ops.helptext import AUDIT, add_command

#: ``referee audit`` and ``referee replay`` exit with (docs/audit.md, "Settling a dispute")
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class _Usage(Exception):
    """A wrong ``referee audit`` command line: its one line."""


def cmd_audit(args: argparse.Namespace) -> int:
    """Verify exported logs offline (no Redis, no server); exit 0 only if every
    one holds, 1 if any does not (a divergence, or a file that cannot be read
    as a log: one ``FAIL`` line), 2 for a wrong command line."""
    import tempfile
    with tempfile.TemporaryDirectory(prefix="referee-bundle-") as unpacked:
        try:
            _check_usage(args)
            jwks, receipts = _keys_and_receipts(args)
            logs = _unbundled(args.log, Path(unpacked)) if getattr(args, "bundle", False) else list(args.log)
            if len(logs) == 1:
                done = _audit_one(logs[0], jwks, receipts, as_json=args.json)
                return _with_inclusion(args, jwks, done)
            if "-" in logs:
                raise _Usage("standard input (-) is for a single log")
            if receipts:
                raise _Usage("--receipt is checked against a single log")
        except _Usage as err:
            print(f"referee audit: {err}", file=sys.stderr)
            return EXIT_USAGE
        return _audit_many(logs, args.jobs, jwks, as_json=args.json)


def _unbundled(paths: list[str], into: Path) -> list[str]:
    """The logs to audit: each bundle (many games' logs in one file, as the
    archive exports them) split into its games, every other file as it is."""
    from referee.audit.bundle import split
    logs: list[str] = []
    for path in paths:
        games = split(path, into) if path != "-" else None
        logs += games if games is not None else [path]
    return logs


def _check_usage(args: argparse.Namespace) -> None:
    if args.jobs is not None and args.jobs < 1:
        raise _Usage("--jobs is a number of processes, 1 or more")
    if args.receipt and len(args.log) != 1:
        raise _Usage("--receipt is checked against a single log")
    if (args.inclusion or args.checkpoint) and (len(args.log) != 1 or args.log == ["-"]):
        raise _Usage("--inclusion is checked against a single log file")
    if args.checkpoint and not args.inclusion:
        raise _Usage("--checkpoint is the tree an --inclusion proof is checked against")


def _with_inclusion(args: argparse.Namespace, jwks: Any, done: int) -> int:
    """The audit's exit status, and the game's inclusion in the log when ``--inclusion`` asks."""
    if not args.inclusion:
        return done
    from referee.ops.witness import check_inclusion
    return max(done, check_inclusion(args.log[0], args.inclusion, jwks, args.checkpoint))


def _keys_and_receipts(args: argparse.Namespace) -> tuple[Any, list[tuple[str, Any]]]:
    """The public keys (``--key``, pinned) and the receipts (``--receipt``)."""
    from referee.ops.pinning import NoKeys, resolve
    jwks = None
    try:
        if args.key:
            jwks, had = resolve(args.key, Path(args.pins) if args.pins else None, repin=args.repin)
            print(f"referee audit: {had}", file=sys.stderr)
        receipts = [(name, _read_receipt(name)) for name in args.receipt or ()]
    except (NoKeys, ValueError) as err:
        raise _Usage(str(err)) from None
    return jwks, receipts


def _audit_one(path: str, jwks: Any, receipts: list[tuple[str, Any]], *, as_json: bool) -> int:
    """One log, every check printed (one line if it cannot be read as a log)."""
    from referee.audit.batch import audit_file
    report = audit_file(path, jwks=jwks, receipts=receipts, own_process=True)
    if as_json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    elif not report["ok"] and report["divergence"]["check"] == "format":  # unreadable: one line
        print(_fail_line(path, report))
    else:
        print(format_audit(report))
    return EXIT_OK if report["ok"] else EXIT_FAILED


def _audit_many(logs: list[str], jobs: int | None, jwks: Any, *, as_json: bool) -> int:
    """Several logs, ``jobs`` processes at once: a line each, then the count."""
    import time

    from referee.audit.batch import audit_files
    started = time.perf_counter()
    clean = events = 0
    reports = []
    for path, report in audit_files(logs, jobs, jwks=jwks):
        clean += report["ok"]
        events += report["events"]
        if as_json:
            reports.append({"log": path, **report})
        else:
            print(_log_line(path, report), flush=True)
    took = time.perf_counter() - started
    if as_json:
        print(json.dumps(reports, indent=2, ensure_ascii=False))
    else:
        print(f"audit: {clean}/{len(logs)} logs clean, {events} events in {took:.1f} s")
    return EXIT_OK if clean == len(logs) else EXIT_FAILED


def _log_line(path: str, report: dict[str, Any]) -> str:
    """One log's line among several."""
    if report["ok"]:
        signed = "signed" if report["signed"] else "signature not checked"
        return f"ok    {path}: {report['events']} events, {signed}"
    return _fail_line(path, report)


def _read_receipt(name: str) -> Any:
    """The receipt in file ``name`` (a 201's ``receipt``, or the whole 201 body); ``ValueError`` saying why not."""
    try:
        found = json.loads(Path(name).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"--receipt {name}: cannot be read ({getattr(err, 'strerror', None) or err})") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"--receipt {name}: not JSON ({err.msg}, line {err.lineno})") from None
    return found["receipt"] if isinstance(found, dict) and isinstance(found.get("receipt"), dict) else found


def _fail_line(path: str, report: dict[str, Any]) -> str:
    d = report["divergence"]
    return f"FAIL  {path}: at seq {d['seq']} ({d['check']}): {report['checks'][-1]['detail']}"


def cmd_replay(args: argparse.Namespace) -> int:
    """Print what a seat (or a spectator) saw at a version, folded from the log
    alone; exit 1 with one ``FAIL`` line for a log that cannot be read or
    folded, 2 for a version or seat outside the game."""
    from referee.audit import Diverged, audit_lines, view_at
    from referee.audit.batch import Unreadable, read_log, unreadable
    try:
        raw = read_log(args.log)
    except Unreadable as err:
        print(_fail_line(args.log, unreadable(str(err))))
        return EXIT_FAILED
    try:
        report = audit_lines(raw, own_process=True)
    except Exception as err:  # a defect of the audit: the replay may still fold
        report = Diverged("replay", 0, "log", "a log the audit can check", repr(err),
                          f"the audit stopped on {err!r:.200}").report([], 0)
    if not report["ok"] and report["divergence"]["check"] == "format":
        print(_fail_line(args.log, report))
        return EXIT_FAILED
    if not report["ok"] and report["divergence"]["check"] == "hash_chain":
        print(f"referee replay: warning: the log does not verify: {report['checks'][-1]['detail']}", file=sys.stderr)
    try:
        shown = view_at(raw, args.at, args.seat, own_process=True)
    except ValueError as err:
        print(f"referee replay: {err}", file=sys.stderr)
        return EXIT_USAGE
    except Diverged as err:
        print(f"FAIL  {args.log}: at seq {err.seq} ({err.check}): {err.detail}")
        return EXIT_FAILED
    except Exception as err:  # the rules folding a forged log somewhere they never expected
        print(f"FAIL  {args.log}: the log cannot be folded to version {args.at}: {err!r:.200}")
        return EXIT_FAILED
    print(json.dumps(shown, indent=2, ensure_ascii=False))
    return EXIT_OK


def format_audit(report: dict[str, Any]) -> str:
    lines = [f"{('ok  ' if c.get('checked', True) else 'NOT ') if c['ok'] else 'FAIL'}  {c['name']:<16} {c['detail']}"
             for c in report["checks"]]
    d = report["divergence"]
    if d is None:
        lines.append(f"OK: {report['events']} events verified")
    else:
        lines += [f"FAILED at seq {d['seq']} ({d['check']})", f"  field:    {d['field']}",
                  f"  expected: {_shown(d['expected'])}", f"  found:    {_shown(d['found'])}"]
    return "\n".join(lines)


def _shown(value: Any) -> str:
    """A divergence's value as JSON, on one line (its repr if it is no JSON)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The commands that check logs: audit, replay."""
    aud = add_command(sub, "audit", "verify exported game logs offline (no server)", AUDIT)
    aud.add_argument("log", nargs="+", help="log files (GET /v1/games/{id}/log), or - for one on standard input")
    aud.add_argument("--jobs", type=int, default=None,
                     help="processes auditing several logs at once (default: one per core)")
    aud.add_argument("--json", action="store_true", help="print the report as JSON")
    aud.add_argument("--key", help="the referee's public keys: a JWK set file, or the referee's URL (its "
                     "/v1/keys fetched once, then pinned); without it the final head's signature is not checked")
    aud.add_argument("--pins", help="the pin file for --key URL (default $XDG_CONFIG_HOME/referee/pinned-keys.json)")
    aud.add_argument("--repin", action="store_true", help="fetch --key URL's keys again and pin those")
    aud.add_argument("--receipt", action="append", help="a receipt a seat got (a 201's receipt, or the whole 201 "
                     "body, as JSON): the log must hold its head at its version (repeatable; one log only)")
    aud.set_defaults(func=cmd_audit)
    aud.add_argument("--inclusion", help="an inclusion proof (GET /v1/transparency/proof/inclusion?game=ID) "
                     "to check: the game's signed final head is in the referee's signed tree (needs --key)")
    aud.add_argument("--checkpoint", help="a checkpoint you hold (a file): the --inclusion proof must be of its tree")
    aud.add_argument("--bundle", action="store_true", help="each file is a bundle of many games' logs (GET "
                     "/v1/archive/export, referee archive export --bundle): split into its games, each audited "
                     "(without it a file is one log: a header line inside it is a forgery, not a new game)")
    rep = add_command(sub, "replay", "print what a seat saw at a version of a game log", AUDIT)
    rep.add_argument("log", help="the log file, or - for standard input")
    rep.add_argument("--at", type=int, required=True, help="the version (an event's seq)")
    rep.add_argument("--seat", type=int, default=None, help="the seat (default: a spectator)")
    rep.set_defaults(func=cmd_replay)
