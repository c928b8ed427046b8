"""The log as it is written: its format, the header hash and every link of
the chain with every commitment opened, the seed against its commitment,
every salt against the seed, and the ruleset version the header names
(docs/audit.md, "The hash chain")."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from hashlib import sha256
from itertools import repeat
from typing import Any

from referee.audit import signed
from referee.audit.divergence import Diverged
from referee.engine import (
    LOG_FORMAT,
    canonical_bytes,
    event_salt,
    event_salts,
    header_hash,
    keyed_hmac_sha256,
    link_bytes,
    sha256_hex,
)
from referee.engine.platform import SEED_REVEALED
from referee.engine.protocol import Json, Ruleset
from referee.games import registry

#: the fields of every event of a finished game's log
EVENT_FIELDS = ("seq", "type", "actor", "at", "commit", "prev", "hash", "data", "salt")
_EVENT_FIELD_SET = frozenset(EVENT_FIELDS)
CHAIN_HOLDS = "{} events chain from the header hash; each event's data and salt open its commit"
SALTS_HOLD = 'every salt is HMAC-SHA256(seed, "event:<seq>")'


def check_format(header: Any) -> str:
    if not isinstance(header, dict):
        raise Diverged("format", 0, "header", "an object", header, "the first line has no header object")
    found = header.get("log_format", 1)
    if type(found) is not int or found != LOG_FORMAT:  # 2.0 or true is not 2: canonical(2.0) is another header
        raise Diverged("format", 0, "header.log_format", LOG_FORMAT, found,
                       f"log format {found} is refused: this verifier reads format {LOG_FORMAT} only (format 1 "
                       "hashed hidden data straight into the chain; see docs/audit.md, \"The hash chain\")")
    return f"log format {LOG_FORMAT}"


def seed_hint(header: Json, envelopes: Sequence[Any]) -> str | None:
    """The revealed seed, if it matches the commitment (only to name a bad salt)."""
    last = envelopes[-1] if envelopes else None
    if isinstance(last, dict) and last.get("type") == SEED_REVEALED and isinstance(last.get("data"), dict):
        seed = last["data"].get("seed")
        if isinstance(seed, str) and sha256_hex(seed) == header.get("seed_commitment"):
            return seed
    return None


def check_chain(header: Json, recorded_hash: Any, envelopes: Sequence[Any]) -> str:
    """The header hash, then every event: its fields, ``seq``, ``prev``, its
    commitment opened by its data and salt, its link hashed to its ``hash``."""
    computed = header_hash(header)
    if computed != recorded_hash:
        raise Diverged("hash_chain", 0, "header", computed, recorded_hash,
                       "the header does not hash to the recorded header hash")
    seed = seed_hint(header, envelopes)
    prev = computed
    for pos, env in enumerate(envelopes, start=1):
        _check_fields(pos, env)
        _check_place(pos, env, prev)
        _check_link(pos, env, envelopes, seed)
        prev = env["hash"]
    return CHAIN_HOLDS.format(len(envelopes))


def _check_fields(pos: int, env: Any) -> None:
    """Event ``env``, at position ``pos``, is an object of the event's fields (a signature only on the last)."""
    if not isinstance(env, dict):
        raise Diverged("hash_chain", pos, "event", "an object", env, f"line {pos + 1} is not an event object")
    if signed.FIELD in env and not signed.may_carry(env):
        raise Diverged("hash_chain", pos, signed.FIELD, "(absent)", env[signed.FIELD],
                       f"event {pos} (line {pos + 1}) has a signature, which only the last event "
                       f"({SEED_REVEALED}) carries, as {{kid, sig}}")
    if env.keys() - {signed.FIELD} != _EVENT_FIELD_SET:  # name the first field missing, or the first extra one
        for name in EVENT_FIELDS:
            if name not in env:
                raise Diverged("hash_chain", pos, name, "(present)", "(missing)",
                               f"event {pos} (line {pos + 1}) has no {name}")
        for name in env:
            if name not in EVENT_FIELDS:
                raise Diverged("hash_chain", pos, name, "(absent)", env[name],
                               f"event {pos} (line {pos + 1}) has a field {name!r}, which no event has")


def _check_place(pos: int, env: Json, prev: str) -> None:
    """Event ``env`` is the ``pos``-th and chains to ``prev``, its predecessor's hash."""
    seq, chained = env["seq"], env["prev"]
    if seq != pos or type(seq) is not int:
        raise Diverged("hash_chain", pos, "seq", pos, seq,
                       f"position {pos} holds seq {seq!r}: an event is missing, repeated or moved")
    if chained != prev:
        raise Diverged("hash_chain", pos, "prev", prev, chained, f"event {pos} does not chain to its predecessor")


def _check_link(pos: int, env: Json, envelopes: Sequence[Any], seed: str | None) -> None:
    """Event ``env``'s link hashes to its ``hash`` and its data and salt open its commitment; what
    was altered is named (``seed``: the revealed seed, to name a salt it does not derive)."""
    seq, chained, salt, commit = env["seq"], env["prev"], env["salt"], env["commit"]
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


def chain_and_salts_hold(header: Json, recorded_hash: Any, envelopes: Sequence[Any], seed: str,
                         lines: Sequence[bytes | None] | None = None) -> bool:
    """Whether every check of ``check_chain`` holds and every salt is the one
    ``seed`` derives (``check_salts``), in one pass and without naming
    anything: the common case of a clean log, at less cost. ``False`` leaves the
    naming of the first failure to those two, run as before. ``lines``: each
    event's line as read where it is the event's canonical form (else
    ``None``), its data's bytes hashed as they were read (``data_bytes``)."""
    if header_hash(header) != recorded_hash:
        return False
    mac, sha, link = keyed_hmac_sha256(seed.encode()), sha256, link_bytes
    prev = recorded_hash
    try:
        for pos, (env, line) in enumerate(zip(envelopes, _lines_of(lines, envelopes)), start=1):
            seq, salt, data = env["seq"], env["salt"], _data_of(env, line)
            if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) \
                    or type(seq) is not int or seq != pos or env["prev"] != prev or type(salt) is not str \
                    or sha(salt.encode() + data).hexdigest() != env["commit"] \
                    or sha(prev.encode() + link(seq, env["type"], env["actor"], env["at"], env["commit"], prev)
                           ).hexdigest() != env["hash"] \
                    or salt != mac(b"event:%d" % pos).hex():
                return False
            prev = env["hash"]
    except (KeyError, TypeError, ValueError, AttributeError):  # a field missing, of a bad shape: named below
        return False
    return True


def _lines_of(lines: Sequence[bytes | None] | None, envelopes: Sequence[Any]) -> Iterable[bytes | None]:
    """Each event's line as read; ``None`` for every event where none were kept (or not one per event)."""
    return lines if lines is not None and len(lines) == len(envelopes) else repeat(None)


def _data_of(env: Json, line: bytes | None) -> bytes:
    """``canonical_bytes(env["data"])``: cut from ``line`` where it can be (``data_bytes``), else encoded."""
    data = data_bytes(line, env) if line is not None else None
    return data if data is not None else canonical_bytes(env["data"])


#: the bytes of an event's canonical line around its data's: ``{"actor":``, ``,"at":``, ``,"commit":"``
#: and ``","data":`` before it; ``,"hash":"``, ``","prev":"``, ``","salt":"``, ``","seq":``, ``,"type":"``
#: and ``"}`` after it
_BEFORE_DATA = len('{"actor":,"at":,"commit":"","data":')
_AFTER_DATA = len(',"hash":"","prev":"","salt":"","seq":,"type":""}')


def data_bytes(line: bytes, env: Json) -> bytes | None:
    """``canonical_bytes(env["data"])``, cut from ``line``, the event's
    canonical form as read (``canonical_bytes(env) == line``), wherever every
    other field is written as ``chain_and_salts_hold`` accepts it — ``actor``
    an integer or ``None``, ``at`` and ``seq`` integers, ``type`` a name of
    ASCII letters, digits and ``_``, ``commit``, ``hash``, ``prev`` and ``salt``
    hexadecimal (which that check holds them to: a commitment or link hash it
    recomputes, a salt it derives), no ``signature`` — so that each is written
    as itself in quotes, or as its digits; ``None`` otherwise (the data
    encoded instead). Its cost is a few lengths; an encoding is most of a
    clean log's chain check."""
    actor, at, seq, type_ = env["actor"], env["at"], env["seq"], env["type"]
    if len(env) != 9 or type(at) is not int or type(seq) is not int or type(type_) is not str \
            or not (type_.isascii() and type_.isidentifier()) or not (actor is None or type(actor) is int):
        return None
    start = _BEFORE_DATA + (4 if actor is None else len(str(actor))) + len(str(at)) + len(env["commit"])
    end = len(line) - _AFTER_DATA - len(env["hash"]) - len(env["prev"]) - len(env["salt"]) - len(str(seq)) \
        - len(type_)
    if line[start - 8:start] != b',"data":' or line[end:end + 9] != b',"hash":"':
        return None
    return line[start:end]


def check_seed(header: Json, envelopes: Sequence[Json]) -> str:
    last = envelopes[-1] if envelopes else None
    if last is None or last["type"] != SEED_REVEALED:
        raise Diverged("seed_commitment", len(envelopes) + 1, "type", SEED_REVEALED, "(end of log)",
                       "the log ends before the seed is revealed: the game is not over, or the log is cut")
    seed = last["data"].get("seed") if isinstance(last["data"], dict) else None
    if not isinstance(seed, str) or not seed or sha256_hex(seed) != header.get("seed_commitment"):
        raise Diverged("seed_commitment", last["seq"], "data.seed",
                       f"a seed whose sha256 is {header.get('seed_commitment')}", seed,
                       "the revealed seed does not match the commitment published at creation")
    return seed


def check_salts(seed: str, envelopes: Sequence[Json]) -> None:
    """``Diverged`` at the first salt that is not the one ``seed`` derives (none: ``SALTS_HOLD``)."""
    # the chain check has put event seq at position seq
    for env, expected in zip(envelopes, event_salts(seed, len(envelopes))):
        if env["salt"] != expected:
            raise Diverged("salts", env["seq"], "salt", expected, env["salt"],
                           f"event {env['seq']}'s salt is not HMAC-SHA256(seed, \"event:{env['seq']}\")")


def ruleset_of(header: Json) -> Ruleset[Any]:
    """The rules the header names, at the version it names (a ``Legacy`` of an earlier one)."""
    try:
        rs = registry.at_version(str(header.get("ruleset")), header.get("ruleset_version"))
    except KeyError:
        raise Diverged("ruleset_version", 0, "header.ruleset", "a ruleset of this referee", header.get("ruleset"),
                       f"unknown ruleset {header.get('ruleset')!r}") from None
    if rs is None:
        current = registry.get(str(header.get("ruleset")))
        known = ", ".join(f"v{v}" for v in [*current.previous_versions, current.version])
        raise Diverged("ruleset_version", 0, "header.ruleset_version", current.version,
                       header.get("ruleset_version"), f"the log was written under {current.name} "
                       f"v{header.get('ruleset_version')}, this referee audits {known}: replay refused")
    return rs
