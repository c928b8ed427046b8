"""Verify a game's log, offline (README, "Settling a dispute").

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
"""
from __future__ import annotations

import gc
from collections.abc import Iterable, Sequence
from hashlib import sha256
from typing import Any, cast

from referee import bots
from referee.audit import signed, strict
from referee.engine import (
    LOG_FORMAT,
    bot_seed,
    canonical_bytes,
    event_salt,
    event_salts,
    header_hash,
    keyed_hmac_sha256,
    link_bytes,
    record,
    sha256_hex,
)
from referee.engine.legacy import current_move
from referee.engine.platform import (
    MOVE,
    SEAT_CLAIMED,
    SEAT_EVENTS,
    SEAT_GIVEN,
    SECRETS_OPENED,
    SECRETS_SEALED,
    SEED_REVEALED,
)
from referee.engine.protocol import (
    GameConfig,
    Json,
    RefereeError,
    Ruleset,
    default_options,
    draw_default,
    fold,
    seat_view,
)
from referee.engine.rng import Rng
from referee.engine.signature import PublicKeys
from referee.engine.statecache import Memo
from referee.games import registry

#: the fields of every event of a finished game's log
EVENT_FIELDS = ("seq", "type", "actor", "at", "commit", "prev", "hash", "data", "salt")
_EVENT_FIELD_SET = frozenset(EVENT_FIELDS)
CHAIN_HOLDS = "{} events chain from the header hash; each event's data and salt open its commit"
SALTS_HOLD = 'every salt is HMAC-SHA256(seed, "event:<seq>")'
CHECKS = ("format", "hash_chain", "seed_commitment", "salts", "ruleset_version", "randomness", "secrets", "bots",
          "replay", "result", "signature", "receipts")


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
        return {"ok": False, "format": LOG_FORMAT, "events": events, "result": None, "signed": False,
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
    if type(found) is not int or found != LOG_FORMAT:  # 2.0 or true is not 2: canonical(2.0) is another header
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
        seq, chained, salt, commit = env["seq"], env["prev"], env["salt"], env["commit"]
        if seq != pos or type(seq) is not int:
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


def _check_seed(header: Json, envelopes: Sequence[Json]) -> str:
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


def _check_salts(seed: str, envelopes: Sequence[Json]) -> None:
    """``Diverged`` at the first salt that is not the one ``seed`` derives (none: ``SALTS_HOLD``)."""
    # the chain check has put event seq at position seq
    for env, expected in zip(envelopes, event_salts(seed, len(envelopes))):
        if env["salt"] != expected:
            raise Diverged("salts", env["seq"], "salt", expected, env["salt"],
                           f"event {env['seq']}'s salt is not HMAC-SHA256(seed, \"event:{env['seq']}\")")


def _ruleset(header: Json) -> Ruleset[Any]:
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
    # (never past the log's end: its last event is seed_revealed, which only the rules' own
    # seed_revealed matches, the last event record.move produces; a rule emits no platform event)
    for actor, event in produced:
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
        # (some field differs: data equal to the log's in every field has its canonical bytes and
        # opens its commit, accepted above; were it None, unpacking it fails, a malformed log's report)
        field, expected, got = cast("tuple[str, Any, Any]", _diff(want, found, ""))
        raise Diverged(check, env["seq"], field.lstrip("."), expected, got,
                       f"at event {env['seq']} the log differs from what the rules decide ({event.type} expected)")
    return pos


#: the keys of a move record's ``by``: which bot chose it, which default it is, how many moves it was drawn from
_BY_KEYS = frozenset({"bot", "default", "drawn_from"})
#: the default the turn clock applies (``workers.jobs.fire_turn_clock``)
TURN_CLOCK = "turn_clock"


def _check_by(rs: Ruleset[Any], header: Json, state: Any, env: Json, last_at: Any) -> Json:
    """Who moved, as the move record's ``by`` says, agrees with the header and
    the rules (a ``bots`` divergence at the move's ``seq`` otherwise); ``by``
    (``{}`` for none). A move without ``by`` was sent by a seat (or is the
    system's ``timeout``). ``{"bot": B}``: only for a seat the header gives to
    bot ``B``; with ``"default": cause`` only a registered (webhook) bot's, as
    a built-in bot always chooses, and only with a cause the worker records
    (``bots.is_default_cause``: ``invalid_answer``, ``attempts_spent``, …).
    ``{"default": "turn_clock"}``: only in a game with ``turn_timeout_s``, at
    or after the deadline (the previous event's time plus the timeout), for
    the lowest awaited seat that owes a default.
    A default is a move the rules define as one (``default_options``): the one
    option, or one drawn from several (``drawn_from``, checked with the draw)."""
    seq, actor, data = env["seq"], env["actor"], env["data"]
    if "by" not in data:
        seats = header.get("seats")
        owner = seats[actor].get("bot") if type(actor) is int and type(seats) is list and 0 <= actor < len(seats) \
            and type(seats[actor]) is dict else None
        if owner is not None:  # a bot's seat has no token: only the worker moves for it, and says so
            raise Diverged("bots", seq, "data.by", {"bot": owner}, "(missing)",
                           f"the move at event {seq} is labelled seat {actor}'s own, and the header gives seat "
                           f"{actor} to bot {owner!r}, whose seat has no token: only its bot moves there")
        return {}
    by = data["by"]

    def refuse(field: str, expected: Any, found: Any, why: str) -> Diverged:
        return Diverged("bots", seq, f"data.by{field}", expected, found, f"the move at event {seq} {why}")

    if type(by) is not dict or not by or not by.keys() <= _BY_KEYS:
        raise refuse("", "{bot?, default?, drawn_from?}", by, "names no mover the referee records")
    seats = header.get("seats")
    if type(actor) is not int or type(seats) is not list or not 0 <= actor < len(seats) \
            or type(seats[actor]) is not dict:
        raise refuse("", "(absent)", by, "is the system's own, which no bot or default makes")
    bot, default = by.get("bot"), by.get("default")
    if "bot" in by:
        seat_bot = seats[actor].get("bot")
        if type(bot) is not str or bot != seat_bot:
            raise refuse(".bot", seat_bot, bot, f"is labelled a bot's, and the header gives seat {actor} "
                         + (f"to {seat_bot!r}" if seat_bot is not None else "to no bot"))
        if "default" in by and (bot in bots.BUILT_IN or not bots.is_default_cause(default)):
            raise refuse(".default", "(absent)", default, f"is labelled a default of the {bot} bot, which "
                         + ("always chooses" if bot in bots.BUILT_IN else
                            "fails with one of the causes the referee records (referee.bots.DEFAULT_CAUSES)"))
    elif default != TURN_CLOCK:
        raise refuse(".default", TURN_CLOCK, default, "is labelled neither a bot's nor the turn clock's")
    else:
        timeout = header.get("turn_timeout_s")
        if timeout is None or isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise refuse(".default", "(absent)", default, "is labelled the turn clock's in a game without one")
        deadline = last_at + int(timeout * 1000) if type(last_at) is int else None
        if deadline is None or type(env["at"]) is not int or env["at"] < deadline:
            raise refuse(".default", "(absent)", default, f"is labelled the turn clock's before its deadline "
                         f"({deadline})")
        owing = [s for s in sorted(rs.to_act(state)) if default_options(rs, state, s)]
        if not owing or owing[0] != actor:
            raise refuse(".default", "(absent)", default, f"is labelled the turn clock's default for seat "
                         f"{actor}, and the clock defaults seat {owing[0] if owing else None}")
    if "default" in by:
        options = default_options(rs, state, actor)
        if not options:
            raise refuse(".default", "(absent)", default, f"is labelled a default, and seat {actor} owes none")
        if len(options) == 1 and "drawn_from" in by:
            raise refuse(".drawn_from", "(absent)", by["drawn_from"],
                         "records a draw, and the rules define one default")
        if len(options) == 1 and not _same(options[0], current_move(rs, data["move"])):
            raise Diverged("bots", seq, "data.move", options[0], data["move"],
                           f"the move at event {seq} is labelled a default, and is not the rules' default")
        if len(options) > 1 and "drawn_from" not in by:
            raise refuse(".drawn_from", len(options), "(missing)",
                         "is labelled a default, and the rules draw it from several moves: no draw is recorded")
    elif "drawn_from" in by:
        raise refuse(".drawn_from", "(absent)", by["drawn_from"], "records a draw, and is no default")
    return by


def _check_seat_event(seats: list[Any], unclaimed: set[int], env: Json, header: Json | None = None) -> None:
    """A seat's event between moves (``referee.engine.platform.SEAT_EVENTS``):
    ``seat_claimed {seat, name}`` only of a seat the header opened and nobody
    claimed yet; ``seat_given_to_bot {seat, bot}`` likewise, and only of the
    header's ``start_bot``, at or after its start deadline (the seat is that
    bot's from then on: ``seats`` is updated); ``seat_token_reissued {seat}``
    only of a person's seat that holds a token (not a bot's, not an open one).
    None is anyone's move."""
    seq, data, type_ = env["seq"], env["data"], env["type"]
    given = type_ == SEAT_GIVEN
    claimed = type_ == SEAT_CLAIMED or given
    shape = {"seat", "bot"} if given else {"seat", "name"} if claimed else {"seat"}
    seat = data.get("seat") if type(data) is dict else None
    if given:
        _check_given(header or {}, env, data)
    if type(data) is not dict or data.keys() != shape or type(seat) is not int or env["actor"] is not None \
            or (type_ == SEAT_CLAIMED and (type(data["name"]) is not str or not data["name"])):
        raise Diverged("replay", seq, "data", "{" + ", ".join(sorted(shape)) + "}", data,
                       f"event {seq} is no {type_} record (by the system, of a seat)")
    if claimed and seat not in unclaimed:
        raise Diverged("replay", seq, "data.seat", sorted(unclaimed), seat,
                       f"event {seq} claims seat {seat}, which is not an open seat nobody claimed")
    if not claimed and (not 0 <= seat < len(seats) or seat in unclaimed or type(seats[seat]) is not dict
                        or seats[seat].get("bot") is not None):
        raise Diverged("replay", seq, "data.seat", "a person's seat with a token", seat,
                       f"event {seq} reissues the token of seat {seat}, which has none")
    unclaimed.discard(seat)
    if given:
        seats[seat] = {**seats[seat], "bot": data["bot"]}


def _check_given(header: Json, env: Json, data: Any) -> None:
    """``seat_given_to_bot``: of the header's ``start_bot``, at or after ``created_at + start_timeout_s``."""
    seq, timeout, bot = env["seq"], header.get("start_timeout_s"), header.get("start_bot")
    if type(data) is not dict or type(bot) is not str or data.get("bot") != bot:
        raise Diverged("bots", seq, "data.bot", bot, data.get("bot") if type(data) is dict else data,
                       f"event {seq} gives a seat to a bot the header does not name as its start_bot")
    created = header.get("created_at")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or type(created) is not int \
            or type(env["at"]) is not int or env["at"] < created + int(timeout * 1000):
        raise Diverged("bots", seq, "at", "the start deadline or later", env["at"],
                       f"event {seq} gives a seat to a bot before the header's start deadline (or with none)")


def _redecide(rs: Ruleset[Any], header: Json, seed: str, envelopes: Sequence[Json]) -> list[Json]:
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
    memo = Memo()  # the game's (``referee.engine.statecache``), handed to every hook the replay calls
    result: Json | None = None
    listed = header.get("seats")
    seats: list[Any] = [dict(s) if type(s) is dict else s for s in listed] if type(listed) is list else []
    unclaimed = {s["seat"] for s in seats if type(s) is dict and s.get("open") is True}
    seated = header  # the header, with the seats given to a bot at the start deadline

    while pos < len(envelopes):
        env = envelopes[pos]
        seq, data, actor = env["seq"], env["data"], env["actor"]
        if result is None and env["type"] in SEAT_EVENTS:
            _check_seat_event(seats, unclaimed, env, header)
            if env["type"] == SEAT_GIVEN:
                seated = {**header, "seats": seats}
            pos += 1
            continue
        if result is None and env["type"] == MOVE and unclaimed:
            raise Diverged("replay", seq, "type", SEAT_CLAIMED, MOVE, f"event {seq} is a move while seats "
                           f"{sorted(unclaimed)} are open: the game starts when every seat is claimed")
        if result is not None or env["type"] != MOVE:
            raise Diverged("replay", seq, "type", "(end of log)" if result is not None else MOVE, env["type"],
                           f"event {seq} was caused by no move")
        if not isinstance(data, dict) or "move" not in data or not data.keys() <= _MOVE_RECORD:
            raise Diverged("replay", seq, "data", "{move, rng, by?}", data, f"event {seq} is no move record")
        if data.get("rng") != rng.position:
            raise Diverged("randomness", seq, "data.rng", rng.position, data.get("rng"),
                           f"the move at event {seq} drew from another position of the generator")
        by = _check_by(rs, seated, state, env, envelopes[pos - 1]["at"] if pos else header.get("created_at"))
        if "drawn_from" in by:  # a timeout's default drawn from the generator (BANG! R43), whatever drawn_from holds
            # the very draw the service made: among 2 or more moves (_check_by refused a draw among fewer)
            pick, options = cast("tuple[Any, int]", draw_default(rs, state, actor, rng))
            if options != by["drawn_from"]:
                raise Diverged("randomness", seq, "data.by.drawn_from", options, by["drawn_from"],
                               f"the default at event {seq} was drawn from another set of moves")
            if not _same(pick, current_move(rs, data["move"])):
                raise Diverged("randomness", seq, "data.move", pick, data["move"],
                               f"the default move at event {seq} is not the one the generator draws")
            drawn += 1
        if by.get("bot") in bots.BUILT_IN:  # (with no default: _check_by refused a built-in bot's)
            view = seat_view(rs, state, actor, active=True, memo=memo)
            chosen = bots.choose(by["bot"], rs.name, view, view["legal_moves"], seed=bot_seed(seed, actor, seq - 1))
            if not _same(chosen, current_move(rs, data["move"])):
                raise Diverged("bots", seq, "data.move", chosen, data["move"],
                               f"the {by['bot']} bot's move at event {seq} is not the one its secret stream draws")
            by_bots += 1
        try:
            events, state = rs.decide_and_fold(state, actor, data["move"], rng=rng, now=env["at"], memo=memo)
        except RefereeError as err:
            raise Diverged("replay", seq, "data.move", "a move the rules accept", data["move"],
                           f"the move at event {seq} is refused on replay: {err.code} ({err.rule})") from None
        produced, result, opened = record.move(rs, state, actor, data, events, dealt, opened, seed)
        pos = _expect(produced, envelopes, pos, env["at"])
        moves += 1
    # (here the rules have ended the game: the loop ends only past the log's last event,
    # seed_revealed, which only the seed_revealed of record.move's result matches; see _expect)
    return [
        _ok("randomness", f"every random outcome re-derived from the seed ({rng.position} words, {drawn} drawn "
            "defaults)"),
        _ok("secrets", f"{len(dealt)} dealt secrets sealed at creation; {len(opened)} opened, each to its sealed "
            "value" if dealt else "this ruleset deals no sealed secrets"),
        _ok("bots", f"{by_bots} built-in bot moves re-derived from their secret streams; every move's by agrees "
            "with the header and the rules"),
        _ok("replay", f"{moves} moves re-decided; every event matches"),
        _ok("result", "replay reaches the recorded result"),
    ]


# -- entry points -------------------------------------------------------------
def audit_log(header: Any, recorded_hash: Any, envelopes: Sequence[Any], *, keys: PublicKeys | None = None,
              receipts: Sequence[tuple[str, Any]] = ()) -> Json:
    """A report ``{ok, format, events, result, signed, checks: [{name, ok,
    detail}], divergence}``; ``divergence`` is ``None`` or the first place
    where the log is not what it must be: ``{check, seq, field, expected,
    found}``. With ``keys`` (the referee's, ``GET /v1/keys``) the final head's
    signature is verified (``signed``: whether it was), and every receipt of
    ``receipts`` (``(name, receipt)``) must name a head the log holds."""
    checks: list[Json] = []
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
        if not salted:  # (the seed checked is the hint: both are the last event's seed, matching the commitment)
            _check_salts(seed, envelopes)
        checks.append(_ok("salts", SALTS_HOLD))
        rs = _ruleset(header)
        checks.append(_ok("ruleset_version", f"{rs.name} v{rs.version}"))
        checks.extend(_redecide(rs, header, seed, envelopes))
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
    collecting = own_process and gc.isenabled()
    if collecting:
        gc.disable()
    try:
        parsed = _parse_lines(split, numbers)
    finally:
        if collecting:
            gc.enable()
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
    rs = _ruleset(header)  # the log's own version of the rules (a Legacy of an earlier one)
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
