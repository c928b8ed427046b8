"""Verify a game's log, offline (README, "Settling a dispute").

``audit_lines(lines)`` needs nothing but the NDJSON log: no Redis, no server
(this package imports neither). In order it checks the log format, the
header hash and every link of the chain with every commitment opened, the
seed against its commitment, every salt against the seed, then re-decides the
whole game from the seed and the recorded moves — every random draw, every
built-in bot's choice, every seal and opening of a dealt secret — comparing
event by event, and the result. The report names the first divergence by
``seq`` (0: the header), ``field``, ``expected`` and ``found``.
"""
from __future__ import annotations

import gc
from typing import Any, Iterable, Sequence

from referee import bots
from hashlib import sha256

from referee.engine.jsonenc import loads, loads_lines
from referee.engine import (LOG_FORMAT, bot_seed, canonical_bytes, event_salt, event_salts, header_hash,
                            keyed_hmac_sha256, link_bytes, sha256_hex)
from referee.engine.platform import MOVE, SECRETS_OPENED, SECRETS_SEALED, SEED_REVEALED
from referee.engine import record
from referee.games import registry
from referee.engine.protocol import GameConfig, Json, RefereeError, Ruleset, draw_default, fold, seat_view
from referee.engine.rng import Rng

#: the fields of every event of a finished game's log
EVENT_FIELDS = ("seq", "type", "actor", "at", "commit", "prev", "hash", "data", "salt")
_EVENT_FIELD_SET = frozenset(EVENT_FIELDS)
CHAIN_HOLDS = "{} events chain from the header hash; each event's data and salt open its commit"
SALTS_HOLD = 'every salt is HMAC-SHA256(seed, "event:<seq>")'
CHECKS = ("format", "hash_chain", "seed_commitment", "salts", "ruleset_version", "randomness", "secrets", "bots",
          "replay", "result")


class Diverged(Exception):
    """The first place where the log is not what it must be."""

    def __init__(self, check: str, seq: int, field: str, expected: Any, found: Any, detail: str) -> None:
        super().__init__(detail)
        self.check, self.seq, self.field, self.expected, self.found, self.detail = \
            check, seq, field, expected, found, detail

    def to_json(self) -> Json:
        return {"check": self.check, "seq": self.seq, "field": self.field, "expected": self.expected,
                "found": self.found}

    def report(self, passed: list[Json], events: int) -> Json:
        """The failed audit's report: the checks ``passed`` before it, then this one failing."""
        return {"ok": False, "format": LOG_FORMAT, "events": events, "result": None,
                "checks": [*passed, {"name": self.check, "ok": False, "detail": self.detail}],
                "divergence": self.to_json()}


def _ok(name: str, detail: str) -> Json:
    return {"name": name, "ok": True, "detail": detail}


def _same(a: Any, b: Any) -> bool:
    return canonical_bytes(a) == canonical_bytes(b)


def _same_scalar(a: Any, b: Any) -> bool:
    """``_same(a, b)``, without encoding when both are the same str, int or ``None``."""
    if a is b or (type(a) is type(b) and (type(a) is str or type(a) is int) and a == b):
        return True
    return _same(a, b)


def _diff(expected: Any, found: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first field (a dotted path) where ``found`` differs from ``expected``."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in sorted(set(expected) | set(found)):
            if key not in found:
                return f"{path}.{key}", expected[key], "(missing)"
            if key not in expected:
                return f"{path}.{key}", "(absent)", found[key]
            inner = _diff(expected[key], found[key], f"{path}.{key}")
            if inner is not None:
                return inner
        return None
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        for i, (a, b) in enumerate(zip(expected, found)):
            inner = _diff(a, b, f"{path}[{i}]")
            if inner is not None:
                return inner
        return None
    return None if _same(expected, found) else (path, expected, found)


# -- the log as it is written ------------------------------------------------
def _check_format(header: Any) -> str:
    if not isinstance(header, dict):
        raise Diverged("format", 0, "header", "an object", header, "the first line has no header object")
    found = header.get("log_format", 1)
    if found != LOG_FORMAT:
        raise Diverged("format", 0, "header.log_format", LOG_FORMAT, found,
                       f"log format {found} is refused: this verifier reads format {LOG_FORMAT} only (format 1 "
                       "hashed hidden data straight into the chain; see README, \"The hash chain\")")
    return f"log format {LOG_FORMAT}"


def _seed_hint(header: Json, envelopes: Sequence[Any]) -> str | None:
    """The revealed seed, if it matches the commitment (only to name a bad salt)."""
    last = envelopes[-1] if envelopes else None
    if isinstance(last, dict) and last.get("type") == SEED_REVEALED and isinstance(last.get("data"), dict):
        seed = last["data"].get("seed")
        if isinstance(seed, str) and sha256_hex(seed) == header.get("seed_commitment"):
            return seed
    return None


def _check_chain(header: Json, recorded_hash: Any, envelopes: Sequence[Any]) -> str:
    """The header hash, then every event: its fields, ``seq``, ``prev``, its
    commitment opened by its data and salt, its link hashed to its ``hash``."""
    computed = header_hash(header)
    if computed != recorded_hash:
        raise Diverged("hash_chain", 0, "header", computed, recorded_hash,
                       "the header does not hash to the recorded header hash")
    seed = _seed_hint(header, envelopes)
    prev = computed
    for pos, env in enumerate(envelopes, start=1):
        if not isinstance(env, dict):
            raise Diverged("hash_chain", pos, "event", "an object", env, f"line {pos + 1} is not an event object")
        if env.keys() != _EVENT_FIELD_SET:  # name the first field missing, or the first extra one
            for name in EVENT_FIELDS:
                if name not in env:
                    raise Diverged("hash_chain", pos, name, "(present)", "(missing)", f"event {pos} has no {name}")
            for name in env:
                if name not in EVENT_FIELDS:
                    raise Diverged("hash_chain", pos, name, "(absent)", env[name], f"event {pos} has a field {name!r}")
        seq, chained, salt, commit = env["seq"], env["prev"], env["salt"], env["commit"]
        if seq != pos or isinstance(seq, bool):
            raise Diverged("hash_chain", pos, "seq", pos, seq,
                           f"position {pos} holds seq {seq!r}: an event is missing, repeated or moved")
        if chained != prev:
            raise Diverged("hash_chain", pos, "prev", prev, chained, f"event {pos} does not chain to its predecessor")
        if isinstance(salt, str):
            data = canonical_bytes(env["data"])
            opens = sha256(salt.encode() + data).hexdigest() == commit
        else:
            data, opens = b"", False
        # link_hash(env), inline: sha256_hex(prev + canonical(link))
        linked = sha256(str(chained).encode() + link_bytes(seq, env["type"], env["actor"], env["at"], commit,
                                                           chained)).hexdigest()
        if linked != env["hash"]:
            after = envelopes[pos] if pos < len(envelopes) else None
            if opens and (after is None or (isinstance(after, dict) and after.get("prev") == linked)):
                raise Diverged("hash_chain", pos, "hash", linked, env["hash"], f"event {pos}'s hash was altered")
            field = "type, actor or at" if opens else "commit"
            raise Diverged("hash_chain", pos, field, f"fields that hash to {env['hash']}",
                           {name: env[name] for name in ("type", "actor", "at", "commit")},
                           f"event {pos}'s chained fields do not hash to its hash")
        if not opens:
            if seed is not None and salt != event_salt(seed, pos):
                raise Diverged("hash_chain", pos, "salt", event_salt(seed, pos), salt,
                               f"event {pos}'s salt is not the one its seed derives")
            raise Diverged("hash_chain", pos, "data", f"data that opens commit {env['commit']}", env["data"],
                           f"event {pos}'s data does not open its commit")
        prev = env["hash"]
    return CHAIN_HOLDS.format(len(envelopes))


def _chain_and_salts_hold(header: Json, recorded_hash: Any, envelopes: Sequence[Any], seed: str) -> bool:
    """Whether every check of ``_check_chain`` holds and every salt is the one
    ``seed`` derives (``_check_salts``), in one pass and without naming
    anything: the common case of a clean log, at less cost. ``False`` leaves the
    naming of the first failure to those two, run as before."""
    if header_hash(header) != recorded_hash:
        return False
    mac, sha, encode, link = keyed_hmac_sha256(seed.encode()), sha256, canonical_bytes, link_bytes
    prev = recorded_hash
    try:
        for pos, env in enumerate(envelopes, start=1):
            seq, salt, data = env["seq"], env["salt"], encode(env["data"])
            if len(env) != 9 or type(seq) is not int or seq != pos or env["prev"] != prev or type(salt) is not str \
                    or sha(salt.encode() + data).hexdigest() != env["commit"] \
                    or sha(prev.encode() + link(seq, env["type"], env["actor"], env["at"], env["commit"], prev)
                           ).hexdigest() != env["hash"] \
                    or salt != mac(b"event:%d" % pos).hex():
                return False
            prev = env["hash"]
    except (KeyError, TypeError, ValueError, AttributeError):  # a field missing, of a bad shape: named below
        return False
    return True


def _check_seed(header: Json, envelopes: Sequence[Json]) -> str:
    last = envelopes[-1] if envelopes else None
    if last is None or last["type"] != SEED_REVEALED:
        raise Diverged("seed_commitment", len(envelopes) + 1, "type", SEED_REVEALED, "(end of log)",
                       "the log ends before the seed is revealed: the game is not over, or the log is cut")
    seed = last["data"].get("seed") if isinstance(last["data"], dict) else None
    if not isinstance(seed, str) or sha256_hex(seed) != header.get("seed_commitment"):
        raise Diverged("seed_commitment", last["seq"], "data.seed",
                       f"a seed whose sha256 is {header.get('seed_commitment')}", seed,
                       "the revealed seed does not match the commitment published at creation")
    return seed


def _check_salts(seed: str, envelopes: Sequence[Json]) -> str:
    # the chain check has put event seq at position seq
    for env, expected in zip(envelopes, event_salts(seed, len(envelopes))):
        if env["salt"] != expected:
            raise Diverged("salts", env["seq"], "salt", expected, env["salt"],
                           f"event {env['seq']}'s salt is not HMAC-SHA256(seed, \"event:{env['seq']}\")")
    return SALTS_HOLD


def _ruleset(header: Json) -> Ruleset:
    try:
        rs = registry.get(str(header.get("ruleset")))
    except KeyError:
        raise Diverged("ruleset_version", 0, "header.ruleset", "a ruleset of this referee", header.get("ruleset"),
                       f"unknown ruleset {header.get('ruleset')!r}") from None
    if rs.version != header.get("ruleset_version"):
        raise Diverged("ruleset_version", 0, "header.ruleset_version", rs.version, header.get("ruleset_version"),
                       f"the log was written under {rs.name} v{header.get('ruleset_version')}, this referee has "
                       f"v{rs.version}: replay refused")
    return rs


# -- the game re-decided -------------------------------------------------------
#: the fields a move record may have (``move`` it must)
_MOVE_RECORD = frozenset({"move", "rng", "by"})
_CHECK_OF = {SECRETS_SEALED: "secrets", SECRETS_OPENED: "secrets", SEED_REVEALED: "result"}


def _expect(produced: record.Produced, envelopes: Sequence[Json], pos: int, at: Any) -> int:
    """The log from ``pos`` on holds ``produced``, all stamped ``at``; the
    position after them. The rules' data of each event must open the log's
    commitment with the log's salt, as the log's own data did in the chain
    check: the two are then the same canonical bytes (SHA-256, which the
    whole chain stands on). One hash costs less than keeping every event's
    encoding from the chain check (orjson's output, kept, costs twice its
    making). Only where they differ is the first differing field looked for."""
    count = len(envelopes)
    for actor, event in produced:
        if pos >= count:
            raise Diverged(_CHECK_OF.get(event.type, "replay"), pos + 1, "type", event.type, "(end of log)",
                           f"the log ends where the rules decide {event.type}")
        env = envelopes[pos]
        data = event.data if type(event.data) is dict else dict(event.data)
        # the move record is the log's own data (the same object): only the rules' events are encoded
        if _same_scalar(event.type, env["type"]) and _same_scalar(actor, env["actor"]) and \
                _same_scalar(at, env["at"]) and (data is env["data"] or
                                                 sha256(env["salt"].encode() + canonical_bytes(data)).hexdigest()
                                                 == env["commit"]):
            pos += 1
            continue
        check = _CHECK_OF.get(event.type, "replay")
        want = {"type": event.type, "actor": actor, "at": at, "data": data}
        found = {"type": env["type"], "actor": env["actor"], "at": env["at"], "data": env["data"]}
        field, expected, got = _diff(want, found, "") or ("event", want, found)
        raise Diverged(check, env["seq"], field.lstrip("."), expected, got,
                       f"at event {env['seq']} the log differs from what the rules decide ({event.type} expected)")
    return pos


def _redecide(rs: Ruleset, header: Json, seed: str, envelopes: Sequence[Json]) -> list[Json]:
    rng = Rng(seed.encode())
    try:
        events = rs.setup(GameConfig(players=header["players"], options=header["options"],
                                     scenario=header.get("setup")), rng)
    except RefereeError as err:
        raise Diverged("replay", 0, "header.setup", "a start the rules accept", err.code,
                       f"setup refused on replay: {err.code}") from None
    produced, state, dealt, opened = record.deal(rs, events, seed)
    pos = _expect(produced, envelopes, 0, header.get("created_at"))
    moves = drawn = by_bots = 0
    result: Json | None = None
    while pos < len(envelopes):
        env = envelopes[pos]
        seq, data, actor = env["seq"], env["data"], env["actor"]
        if result is not None or env["type"] != MOVE:
            raise Diverged("replay", seq, "type", "(end of log)" if result is not None else MOVE, env["type"],
                           f"event {seq} was caused by no move")
        if not isinstance(data, dict) or "move" not in data or not data.keys() <= _MOVE_RECORD:
            raise Diverged("replay", seq, "data", "{move, rng, by?}", data, f"event {seq} is no move record")
        if data.get("rng") != rng.position:
            raise Diverged("randomness", seq, "data.rng", rng.position, data.get("rng"),
                           f"the move at event {seq} drew from another position of the generator")
        by = data.get("by") or {}
        if by.get("drawn_from") is not None:  # a timeout's default drawn from the generator (BANG! R43)
            drawn_default = draw_default(rs, state, actor, rng)  # the very draw the service made
            pick, options = drawn_default if drawn_default is not None else (None, 0)
            if options != by["drawn_from"] or options < 2:  # the service records a draw among 2 or more
                raise Diverged("randomness", seq, "data.by.drawn_from", options, by["drawn_from"],
                               f"the default at event {seq} was drawn from another set of moves")
            if not _same(pick, data["move"]):
                raise Diverged("randomness", seq, "data.move", pick, data["move"],
                               f"the default move at event {seq} is not the one the generator draws")
            drawn += 1
        if by.get("bot") in bots.BUILT_IN and "default" not in by:
            view = seat_view(rs, state, actor, active=True)
            chosen = bots.choose(by["bot"], rs.name, view, view["legal_moves"], seed=bot_seed(seed, actor, seq - 1))
            if not _same(chosen, data["move"]):
                raise Diverged("bots", seq, "data.move", chosen, data["move"],
                               f"the {by['bot']} bot's move at event {seq} is not the one its secret stream draws")
            by_bots += 1
        try:
            events, state = rs.decide_and_fold(state, actor, data["move"], rng=rng, now=env["at"])
        except RefereeError as err:
            raise Diverged("replay", seq, "data.move", "a move the rules accept", data["move"],
                           f"the move at event {seq} is refused on replay: {err.code} ({err.rule})") from None
        produced, result, opened = record.move(rs, state, actor, data, events, dealt, opened, seed)
        pos = _expect(produced, envelopes, pos, env["at"])
        moves += 1
    if result is None:
        raise Diverged("result", len(envelopes), "type", "more moves", "(end of log)",
                       "the log ends before the rules end the game")
    return [
        _ok("randomness", f"every random outcome re-derived from the seed ({rng.position} words, {drawn} drawn "
            "defaults)"),
        _ok("secrets", f"{len(dealt)} dealt secrets sealed at creation; {len(opened)} opened, each to its sealed "
            "value" if dealt else "this ruleset deals no sealed secrets"),
        _ok("bots", f"{by_bots} built-in bot moves re-derived from their secret streams"),
        _ok("replay", f"{moves} moves re-decided; every event matches"),
        _ok("result", "replay reaches the recorded result"),
    ]


# -- entry points -------------------------------------------------------------
def audit_log(header: Any, recorded_hash: Any, envelopes: Sequence[Any]) -> Json:
    """A report ``{ok, format, events, result, checks: [{name, ok, detail}],
    divergence}``; ``divergence`` is ``None`` or the first place where the log
    is not what it must be: ``{check, seq, field, expected, found}``."""
    checks: list[Json] = []
    result = None
    try:
        checks.append(_ok("format", _check_format(header)))
        hint = _seed_hint(header, envelopes)  # a clean log's seed: chain and salts checked in one pass
        salted = hint is not None and _chain_and_salts_hold(header, recorded_hash, envelopes, hint)
        if not salted:  # the checks one by one, naming the first failure
            checks.append(_ok("hash_chain", _check_chain(header, recorded_hash, envelopes)))
        else:
            checks.append(_ok("hash_chain", CHAIN_HOLDS.format(len(envelopes))))
        seed = _check_seed(header, envelopes)
        checks.append(_ok("seed_commitment", "sha256(seed) equals the commitment published at creation"))
        checks.append(_ok("salts", SALTS_HOLD if salted and seed == hint else _check_salts(seed, envelopes)))
        rs = _ruleset(header)
        checks.append(_ok("ruleset_version", f"{rs.name} v{rs.version}"))
        checks.extend(_redecide(rs, header, seed, envelopes))
        result = envelopes[-1]["data"].get("result")
    except Diverged as d:
        return d.report(checks, len(envelopes))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:  # a forged log of a bad shape
        return Diverged("replay", 0, "log", "a well-formed log", repr(err),
                        f"the log is malformed: {err!r}").report(checks, len(envelopes))
    return {"ok": True, "format": LOG_FORMAT, "events": len(envelopes), "result": result, "checks": checks,
            "divergence": None}


def parse_log(lines: Iterable[str] | bytes) -> tuple[Any, Any, list[Any]]:
    """``(header, header hash, events)`` of an NDJSON log — its lines, or the
    whole file as bytes (split as a text file's lines are, at ``\\n``,
    ``\\r\\n`` or ``\\r``: no JSON text holds a raw line break); ``Diverged``
    at the first line that is not JSON."""
    # parsed JSON holds no cycles, and every object made here lives on: the
    # collector would only walk the growing log again and again (half the cost)
    collecting = gc.isenabled()
    gc.disable()
    try:
        if isinstance(lines, bytes):  # every line at once, where orjson alone gives json.loads's values
            parsed, parse = loads_lines(lines)
            if parsed is None:
                parsed = _parse_lines(lines.splitlines(), parse)
        else:
            parsed = _parse_lines(lines, loads)  # json.loads's values and refusals, faster
    finally:
        if collecting:
            gc.enable()
    if not parsed or not isinstance(parsed[0], dict) or "header" not in parsed[0]:
        raise Diverged("format", 0, "header", '{"header", "hash"}', parsed[0] if parsed else None,
                       "the first line must be {\"header\", \"hash\"}")
    return parsed[0]["header"], parsed[0].get("hash"), parsed[1:]


def _parse_lines(lines: Iterable[str | bytes], parse: Any) -> list[Any]:
    """Every non-blank line parsed by ``parse``; ``Diverged`` names the first that is not JSON."""
    parsed: list[Any] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            parsed.append(parse(line))
        except ValueError:
            text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
            if not text.strip():  # blank after all (a Unicode space a byte test missed)
                continue
            raise Diverged("format", number - 1, "line", "a JSON object", text[:80],
                           f"line {number} is not JSON") from None
    return parsed


def audit_lines(lines: Iterable[str] | bytes) -> Json:
    """The audit of an NDJSON log (the header line, then every event): its
    lines, or the whole file's bytes (UTF-8)."""
    try:
        header, recorded, envelopes = parse_log(lines)
    except Diverged as d:
        return d.report([], 0)
    return audit_log(header, recorded, envelopes)


def view_at(lines: Iterable[str], version: int, seat: int | None) -> Json:
    """What ``seat`` (``None``: a spectator) was shown at ``version``, folded
    from the log alone (``referee replay``)."""
    header, _, envelopes = parse_log(lines)
    rs = registry.get(header["ruleset"])
    if not 1 <= version <= len(envelopes):
        raise ValueError(f"version must be within 1..{len(envelopes)}")
    if seat is not None and not 0 <= seat < header["players"]:
        raise ValueError(f"seat must be within 0..{header['players'] - 1}")
    state = fold(rs, record.ruleset_events(envelopes[:version]))
    over = rs.result(state) is not None
    return {"id": header["id"], "ruleset": rs.name, "version": version, "status": "finished" if over else "active",
            **seat_view(rs, state, seat)}
