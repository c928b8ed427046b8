"""Deciding one move on a loaded game and making everything its append
stores, nothing written yet: the rules' events, the platform's, the chained
envelopes (the last of a finished game signed), the idempotency record, and
for a client the 201 body with its signed receipt."""
from __future__ import annotations

from dataclasses import dataclass

from referee.engine import canonical, canonical_bytes, record, sha256_hex
from referee.engine.clock import after as clock_after
from referee.engine.clock import waits
from referee.engine.presentation import shown
from referee.engine.protocol import Json, Move, Seat, draw_default
from referee.engine.rng import Rng
from referee.engine.signature import Keyring
from referee.engine.timing import timing_after
from referee.errors import ApiError
from referee.service.clocks import check_in_time
from referee.service.game import Game, game_but
from referee.service.transparency import inclusion_path
from referee.store.redis_store import Appended


@dataclass(frozen=True, slots=True)
class Submitted:
    """A move as it arrived: by ``seat`` (``None``: the system), ``move``
    (``None``: the seat's rule-defined default), ``by`` (who chose it, for a
    worker's move), its receipt time ``now`` (stamped once, kept across
    retries), its idempotency ``key`` (scope, key) and the ``fingerprint``
    its record answers for; ``client``: a client's move, answered with a
    201 body and a receipt."""

    seat: Seat | None
    move: Move | None
    by: Json | None
    now: int
    key: tuple[str, str] | None
    fingerprint: str
    client: bool = True


@dataclass(frozen=True, slots=True)
class Decided:
    """A move decided and not yet written: the game after it, what its append
    stores, and the 201 body."""

    game: Game
    stored: Appended
    body: bytes


def fingerprint(seat: Seat | None, move: Move | None, expected_version: int | None) -> str:
    """What an idempotency record holds of the move it answers for: a
    retry under the same key must be this very move by this seat."""
    return sha256_hex(canonical({"seat": seat, "move": move, "expected_version": expected_version}))


def replay_idempotent(stored: bytes, fingerprint: str) -> bytes:
    """The body an idempotency record kept, if it answers for this very move (else 422)."""
    stored_fp, _, body = stored.partition(b"\n")
    if stored_fp.decode() != fingerprint:
        raise ApiError(422, "idempotency_key_reused",
                       "this Idempotency-Key was used for a different move or seat")
    return body


def _drawn(game: Game, submitted: Submitted, rng: Rng) -> tuple[Move, Json | None]:
    """The move to decide and its ``by``: the one submitted, or the seat's
    default drawn from the game's generator (``by.drawn_from`` when there
    was a choice, so the audit re-derives it)."""
    if submitted.move is not None:
        return submitted.move, submitted.by
    seat = submitted.seat
    drawn = draw_default(game.ruleset, game.state, seat, rng) if seat is not None else None
    if drawn is None:
        raise ApiError(422, "nothing_owed", f"seat {seat} owes no move now")
    move, options = drawn
    return move, {**(submitted.by or {}), "drawn_from": options} if options > 1 else submitted.by


def decide(game: Game, submitted: Submitted, keyring: Keyring, *, timed: bool = True) -> Decided:
    """Decide ``submitted`` on ``game``; nothing is written. A client's move
    gets its 201 body (with the seat's signed receipt), kept in the record:
    a retry gets the same receipt back. A worker's move (a bot's, a timeout,
    a default) has no body: nobody reads one (a retried job learns only that
    its move was applied), so its record is the fingerprint alone.
    ``timed=False``: the game after it keeps ``game``'s timing, at an earlier
    version (so known to nobody at this one): a worker's run folds its
    moves' events into it once, as it appends them (``Moves.append_decided``)."""
    rng = Rng(game.seed.encode(), game.rng, mac=game.mac)
    seat, now = submitted.seat, submitted.now
    move, by = _drawn(game, submitted, rng)
    move = game.ruleset.canonical_move(move)  # the published move schema, enforced; 2.0 recorded as 2
    clocked = game.clock_now()
    defaulted = clocked is not None and check_in_time(*clocked, seat, by, now)
    events, state = game.ruleset.decide_and_fold(game.state, seat, move, rng=rng, now=now, checked=True,
                                                 memo=game.memo)
    entry: Json = {"move": move, "rng": game.rng}
    if by is not None:
        entry["by"] = by
    if clocked is not None:  # the clock after the move, in its record (referee.engine.clock)
        entry["clock"] = clock_after(*clocked, waits(game.ruleset, state, game.memo), seat, now,
                                     defaulted=defaulted)
    produced, result, opened = record.move(game.ruleset, state, seat, entry, events, game.dealt, game.opened,
                                           game.seed)
    envelopes, last_hash = record.chained(game.seed, game.last_hash, game.version, produced, now, mac=game.mac)
    status = "finished" if result is not None else "active"
    version = game.version + len(envelopes)
    if result is not None:  # the final head, signed on the last event (seed_revealed)
        envelopes[-1]["signature"] = keyring.final(game.id, version, last_hash)
    body = b""
    if submitted.client:
        accepted: Json = {"version": version, "status": status,
                          "events": [shown(game.ruleset, e, seat, active=status == "active") for e in envelopes],
                          "receipt": keyring.receipt(game.id, version, last_hash, now)}
        if status == "finished":  # the final receipt links the game's inclusion proof (docs/transparency.md)
            accepted["inclusion_proof"] = inclusion_path(game.id)
        if "clock" in entry and seat is not None:  # what the clock charged the move (docs/clocks.md)
            accepted["clock"] = {"used_ms": entry["clock"]["used"], "bank_ms": entry["clock"]["banks"][seat]}
        body = canonical_bytes(accepted)
    new = game_but(game, version=version, last_hash=last_hash, rng=rng.position, status=status, state=state,
                   last_at=now, opened=opened, played=version, clock=entry.get("clock", game.clock),
                   timing=timing_after(game.timing, game.version, envelopes, version) if timed else game.timing)
    return Decided(new, Appended(envelopes, last_hash, rng.position, status, now, submitted.key,
                                 submitted.fingerprint.encode() + b"\n" + body), body)
