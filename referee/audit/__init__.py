"""Verify a game's log, offline (docs/audit.md, "Settling a dispute").

``audit_lines(lines)`` needs nothing but the NDJSON log: no Redis, no server
(this package imports neither). In order it checks the log format, the
header hash and every link of the chain with every commitment opened, the
seed against its commitment, every salt against the seed, then re-decides the
whole game from the seed and the recorded moves — every random draw, every
built-in bot's choice, who made each move (``by``, against the header), every
seal and opening of a dealt secret — comparing event by event, and the
result; then, given the referee's public keys, its signature of the final
head and any receipt a seat hands in (``referee.audit.signed``). The report
names the first divergence by ``seq`` (0: the header), ``field``,
``expected`` and ``found``.

The checks, in their modules: the log as written (``chain``), the game
re-decided (``redecide``), who moved and who sits where (``movers``), the
first divergence and the comparisons that find it (``divergence``); here
the entry points that run them in order.
"""
from __future__ import annotations

import gc
from collections.abc import Iterable, Sequence
from typing import Any

from referee.audit import signed, strict
from referee.audit.chain import (
    CHAIN_HOLDS,
    EVENT_FIELDS,
    SALTS_HOLD,
    chain_and_salts_hold,
    check_chain,
    check_format,
    check_salts,
    check_seed,
    ruleset_of,
    seed_hint,
)
from referee.audit.divergence import Diverged, ok
from referee.audit.movers import TURN_CLOCK
from referee.audit.redecide import redecide
from referee.engine import LOG_FORMAT, record
from referee.engine.protocol import Json, RefereeError, fold, seat_view
from referee.engine.signature import PublicKeys

__all__ = ["CHAIN_HOLDS", "CHECKS", "EVENT_FIELDS", "SALTS_HOLD", "TURN_CLOCK", "CollectorPaused", "Diverged",
           "audit_lines", "audit_log", "parse_log", "signed", "strict", "view_at"]

CHECKS = ("format", "hash_chain", "seed_commitment", "salts", "ruleset_version", "randomness", "secrets", "bots",
          "replay", "result", "signature", "receipts")


# -- entry points -------------------------------------------------------------
def audit_log(header: Any, recorded_hash: Any, envelopes: Sequence[Any], *, keys: PublicKeys | None = None,
              receipts: Sequence[tuple[str, Any]] = (), lines: Sequence[bytes | None] | None = None) -> Json:
    """A report ``{ok, format, events, result, signed, checks: [{name, ok,
    detail}], divergence}``; ``divergence`` is ``None`` or the first place
    where the log is not what it must be: ``{check, seq, field, expected,
    found}``. With ``keys`` (the referee's, ``GET /v1/keys``) the final head's
    signature is verified (``signed``: whether it was), and every receipt of
    ``receipts`` (``(name, receipt)``) must name a head the log holds.
    ``lines``: each event's line as read, where it is the event's canonical
    form (else ``None``; ``referee.audit.stream``), whose data the chain
    check hashes as read rather than encoding it again."""
    checks: list[Json] = []
    try:
        checks.append(ok("format", check_format(header)))
        hint = seed_hint(header, envelopes)  # a clean log's seed: chain and salts checked in one pass
        salted = hint is not None and chain_and_salts_hold(header, recorded_hash, envelopes, hint, lines)
        if not salted:  # the checks one by one, naming the first failure
            checks.append(ok("hash_chain", check_chain(header, recorded_hash, envelopes)))
        else:
            checks.append(ok("hash_chain", CHAIN_HOLDS.format(len(envelopes))))
        seed = check_seed(header, envelopes)
        checks.append(ok("seed_commitment", "sha256(seed) equals the commitment published at creation"))
        if not salted:  # (the seed checked is the hint: both are the last event's seed, matching the commitment)
            check_salts(seed, envelopes)
        checks.append(ok("salts", SALTS_HOLD))
        rs = ruleset_of(header)
        checks.append(ok("ruleset_version", f"{rs.name} v{rs.version}"))
        checks.extend(redecide(rs, header, seed, envelopes))
        result = envelopes[-1]["data"].get("result")
        checks.append(signed.check_signature(header, envelopes, keys, _diverged("signature")))
        if receipts:
            checks.append(signed.check_receipts(header, envelopes, receipts, keys, _diverged("receipts")))
    except Diverged as d:
        return d.report(checks, len(envelopes))
    # a forged log of a bad shape
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as err:
        return Diverged("replay", 0, "log", "a well-formed log", repr(err),
                        f"the log is malformed: {err!r}").report(checks, len(envelopes))
    return {"ok": True, "format": LOG_FORMAT, "events": len(envelopes), "result": result,
            "signed": checks[-1 - bool(receipts)]["checked"], "checks": checks, "divergence": None}


def _diverged(check: str) -> Any:
    """``Diverged`` of ``check``, made from the rest of its arguments."""
    return lambda seq, field, expected, found, detail: Diverged(check, seq, field, expected, found, detail)


def parse_log(lines: Iterable[str] | bytes, *, own_process: bool = False) -> tuple[Any, Any, list[Any]]:
    """``(header, header hash, events)`` of an NDJSON log — its lines, or the
    whole file as bytes (split as a text file's lines are, at ``\\n``,
    ``\\r\\n`` or ``\\r``: no JSON text holds a raw line break), every line
    read strictly (``referee.audit.strict``); ``Diverged`` (``format``, at
    the line's number less one) at the first line refused, or at a first
    line with a key other than ``header`` and ``hash``. ``own_process``: the
    caller owns the process (``referee audit``, a batch's worker), so the
    garbage collector is paused while the log is read — parsed JSON holds no
    cycles and every object made here lives on, so the collector would only
    walk the growing log again and again (half the cost); never inside a
    server, whose other requests it would leave uncollected."""
    numbers: list[int] = []  # each parsed line's number in the file
    split = lines.splitlines() if isinstance(lines, bytes) else lines
    with CollectorPaused(own_process):
        parsed = _parse_lines(split, numbers)
    if not parsed or not isinstance(parsed[0], dict) or "header" not in parsed[0]:
        raise Diverged("format", 0, "header", '{"header", "hash"}', parsed[0] if parsed else None,
                       "the first line must be {\"header\", \"hash\"}")
    extra = sorted(key for key in parsed[0] if key not in ("header", "hash"))
    if extra:
        raise Diverged("format", 0, extra[0], "(absent)", parsed[0][extra[0]],
                       f"line 1 has a key {extra[0]!r} beside header and hash")
    for number, line in enumerate(parsed[1:], start=2):
        if type(line) is not dict:  # a line `[]`, a number, a string: no event (the lines are read, not counted)
            raise Diverged("format", numbers[number - 1] - 1, "line", "an event object", line,
                           f"line {numbers[number - 1]} is not an event object")
    return parsed[0]["header"], parsed[0].get("hash"), parsed[1:]


class CollectorPaused:
    """``with CollectorPaused(own_process):`` the cyclic garbage collector
    paused meanwhile, where the caller owns the process (``own_process``:
    ``referee audit``, a batch's worker; never a server, whose other
    requests it would leave uncollected), and left as it was after. Reading
    and re-deciding a log leave no cycles behind (measured: a collection
    after each audit of the bundle ``bench audit`` builds finds nothing), so
    reference counting frees all of it; the collector would only walk the
    log's events, growing as they are read, again and again."""

    def __init__(self, own_process: bool) -> None:
        self.own_process, self.collecting = own_process, False

    def __enter__(self) -> None:
        self.collecting = self.own_process and gc.isenabled()
        if self.collecting:
            gc.disable()

    def __exit__(self, *_: object) -> None:
        if self.collecting:
            gc.enable()


def _parse_lines(lines: Iterable[str | bytes], numbers: list[int]) -> list[Any]:
    """Every non-blank line read strictly (its number appended to ``numbers``);
    ``Diverged`` names the first refused, by its number."""
    parsed: list[Any] = []
    read = strict.read_line
    for number, line in enumerate(lines, start=1):
        if isinstance(line, str):  # a line of text (a trailing line break dropped), read as its UTF-8
            line = line.rstrip("\r\n").encode("utf-8", "surrogatepass")
        if not line.strip():
            continue
        try:
            parsed.append(read(line))
            numbers.append(number)
        except strict.Refused as err:
            if not line.decode("utf-8", "replace").strip():  # blank after all (a Unicode space a byte test missed)
                continue
            raise Diverged("format", number - 1, "line", "a JSON object", err.text,
                           f"line {number} is refused: {err.why}") from None
    return parsed


def audit_lines(lines: Iterable[str] | bytes, *, keys: PublicKeys | None = None,
                receipts: Sequence[tuple[str, Any]] = (), own_process: bool = False) -> Json:
    """The audit of an NDJSON log (the header line, then every event): its
    lines, or the whole file's bytes (UTF-8); ``keys`` and ``receipts`` as
    for ``audit_log``, ``own_process`` as for ``parse_log``."""
    try:
        header, recorded, envelopes = parse_log(lines, own_process=own_process)
    except Diverged as d:
        return d.report([], 0)
    return audit_log(header, recorded, envelopes, keys=keys, receipts=receipts)


def view_at(lines: Iterable[str] | bytes, version: int, seat: int | None, *, own_process: bool = False) -> Json:
    """What ``seat`` (``None``: a spectator) was shown at ``version``, folded
    from the log alone (``referee replay``): ``ValueError`` for a version or
    seat outside the game, ``Diverged`` for a log that cannot be read or
    folded (a line refused, a header or event of the wrong shape)."""
    header, _, envelopes = parse_log(lines, own_process=own_process)
    rs = ruleset_of(header)  # the log's own version of the rules (a Legacy of an earlier one)
    if not 1 <= version <= len(envelopes):
        raise ValueError(f"version must be within 1..{len(envelopes)}")
    shown = record.shown_versions([e.get("type") for e in envelopes])
    if version not in shown:
        raise ValueError(record.not_shown(version, shown))
    players = header.get("players")
    if type(players) is not int:
        raise Diverged("format", 0, "header.players", "a number of players", players, "the header has no players")
    if seat is not None and not 0 <= seat < players:
        raise ValueError(f"seat must be within 0..{players - 1}")
    try:
        state = fold(rs, record.ruleset_events(envelopes[:version]))
        over = rs.result(state) is not None
        seen = seat_view(rs, state, seat)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError, RefereeError) as err:
        raise Diverged("replay", 0, "log", "a log the rules can fold", repr(err),
                       f"the log cannot be folded to version {version}: {err!r}") from None
    return {"id": header.get("id"), "ruleset": rs.name, "version": version,
            "status": "finished" if over else "active", **seen, "shown_versions": shown}
