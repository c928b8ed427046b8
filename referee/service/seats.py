"""Seats changing hands: an open seat claimed, the seats still open at the
start deadline given to the game's ``start_bot``, a person's token
reissued. Each is one event in the game's log (``seat_claimed``,
``seat_given_to_bot``, ``seat_token_reissued``), appended at the game's
latest version with the seat's new token hash."""
from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass

from referee.engine import record, sha256_hex
from referee.engine.platform import SEAT_CLAIMED, SEAT_GIVEN, SEAT_REISSUED
from referee.engine.protocol import Event, Json, Seat
from referee.errors import ApiError, game_over, not_found, version_conflict
from referee.service.changes import Changes
from referee.service.game import GIVEN, MAX_CONFLICT_RETRIES, NO_TOKEN, OPEN, Game
from referee.service.loading import Loader
from referee.store.redis_store import EventStore
from referee.tokens import new_token


@dataclass(frozen=True, slots=True)
class SeatChange:
    """One seat's event: its ``type`` and ``data``, the seat's token hash
    after it and its name (``None``: unchanged); ``claim``: it takes an open
    seat (else it reissues a held token); ``reissuer``: who asks a reissue
    (its token's digest, whether it is the game's owner token)."""

    seat: Seat
    type: str
    data: Json
    token_hash: str
    name: str | None
    claim: bool
    reissuer: tuple[str, bool] | None = None
    kept: bool = False  # a rematch's seat taken by whoever held it (``referee.service.rematch``)


def may_reissue(game: Game, seat: Seat, digest: str, *, owner: bool) -> None:
    """Whether the caller (its token's ``digest``; ``owner``: it is the
    game's ``owner_token``) may reissue ``seat``'s token: a claimed seat's,
    by its claimant's current token only (403 to the creator); any other
    seat's, by the creator (a seat with no token, still open or a bot's,
    is then refused 409 ``no_token_to_reissue``)."""
    held = game.tokens[seat]
    if game.header["seats"][seat].get("open") and held != OPEN and not held.startswith(GIVEN):
        if hmac.compare_digest(digest, held):
            return
        if owner:
            raise ApiError(403, "seat_belongs_to_claimant", f"seat {seat} was claimed: it is its claimant's, and "
                           "only the claimant's own token reissues it")
        raise ApiError(401, "bad_token", f"only seat {seat}'s claimant (its own token) reissues its token")
    if not owner:
        raise ApiError(401, "bad_token", f"only the game's creator (its owner_token) reissues seat {seat}'s token")


def check_seat_change(game: Game, change: SeatChange) -> None:
    """Refuse ``change`` on ``game`` as loaded: no such seat (404), a
    reissue its caller may not ask, a game over, a seat not open to claim
    or with no token to reissue (409)."""
    seat = change.seat
    if not 0 <= seat < game.players:
        raise ApiError(404, "no_such_seat", f"seat {seat} is not a seat of this game (0..{game.players - 1})")
    if change.reissuer is not None:
        may_reissue(game, seat, change.reissuer[0], owner=change.reissuer[1])
    if game.status != "active":
        raise game_over(game.version, game.ruleset.platform_rules.get("game_over"))
    held = game.tokens[seat]
    if change.type == SEAT_CLAIMED and "rematch" in game.header and not change.kept and held == OPEN:
        raise ApiError(403, "seat_kept", f"seat {seat} is kept for whoever played it in game "
                       f"{game.header['rematch']['of']}: they take it with POST /v1/games/"
                       f"{game.header['rematch']['of']}/rematch and their seat token there")
    if change.claim and held != OPEN:
        if game.header["seats"][seat].get("open"):
            raise ApiError(409, "seat_taken", f"seat {seat} was claimed already")
        raise ApiError(409, "seat_not_open", f"seat {seat} is not an open seat")
    if not change.claim and (held in (OPEN, NO_TOKEN) or held.startswith(GIVEN)):
        raise ApiError(409, "no_token_to_reissue", f"seat {seat} has no token to reissue (a bot's, or still "
                       "open: claim it)")


@dataclass(eq=False)
class Seats:
    """Claims, start-deadline gifts and reissues of seats."""

    store: EventStore
    loader: Loader
    changes: Changes
    clock: Callable[[], int]

    def claim_seat(self, game_id: str, seat: int, name: str, *, kept: bool = False) -> Json:
        """Give open seat ``seat`` to whoever claims it first: its token, once
        (recorded in the log as ``seat_claimed {seat, name}``). The game
        starts when no seat is open. A rematch's seats are kept for their
        players (403 ``seat_kept``): ``kept``, its player takes one."""
        token = new_token()
        self._seat_event(game_id, SeatChange(seat, SEAT_CLAIMED, {"seat": seat, "name": name}, sha256_hex(token),
                                             name, claim=True, kept=kept))
        return {"seat": seat, "name": name, "token": token}

    def give_open_seats(self, game_id: str) -> list[Seat]:
        """At the start deadline, every seat still open goes to the game's
        ``start_bot`` (recorded as ``seat_given_to_bot {seat, bot}``, one
        event per seat); the seats given. Nothing before the deadline."""
        given: list[Seat] = []
        while True:
            game = self.loader.load(game_id)
            due = game.start_deadline()
            if due is None or self.clock() < due:
                return given
            seat, bot = game.open_seats[0], str(game.header["start_bot"])
            try:
                self._seat_event(game_id, SeatChange(seat, SEAT_GIVEN, {"seat": seat, "bot": bot}, GIVEN + bot,
                                                     f"{bot} bot", claim=True))
            except ApiError as err:
                if err.code != "seat_taken":  # claimed meanwhile: the next one
                    raise
                continue
            given.append(seat)

    def reissue_token(self, game_id: str, seat: int, token: str | None) -> Json:
        """A new token for a person's seat; the old one stops working at once
        (recorded in the log as ``seat_token_reissued {seat}``; every stream
        and long-poll of the old token ends at that event, ``referee.service.reading``).
        The game's creator (its ``owner_token``) reissues the seats it seated;
        a claimed seat belongs to its claimant: only the claimant's own token
        reissues it (the creator gets 403 ``seat_belongs_to_claimant``), so a
        creator can never take over, and read, a seat a stranger claimed."""
        if token is None:
            raise ApiError(401, "token_required", "reissuing a token needs the game's owner_token (a claimed "
                           "seat's: its own token)")
        meta = self.store.meta(game_id)
        if meta is None:
            raise not_found(game_id)
        digest = sha256_hex(token)
        owner = hmac.compare_digest(digest, meta.get("owner", ""))
        fresh = new_token()
        self._seat_event(game_id, SeatChange(seat, SEAT_REISSUED, {"seat": seat}, sha256_hex(fresh), None,
                                             claim=False, reissuer=(digest, owner)))
        return {"seat": seat, "token": fresh}

    def _seat_event(self, game_id: str, change: SeatChange) -> None:
        """Append a seat's event at the game's latest version, retried on a
        conflict. Whether the caller may do this to the game is judged again
        on the game as loaded at each attempt, so the seat cannot change
        hands between the check and the append (the store checks the version)."""
        for _ in range(MAX_CONFLICT_RETRIES):
            game = self.loader.load(game_id)
            check_seat_change(game, change)
            now = self.clock()
            envelopes, last_hash = record.chained(game.seed, game.last_hash, game.version,
                                                  [(None, Event(change.type, change.data))], now)
            outcome = self.store.seat_event(game_id, game.version, change.seat, OPEN if change.claim else "",
                                            change.token_hash, change.name, envelopes[0], last_hash, now)
            if outcome == "ok":
                self.changes.notify(self.loader.load(game_id), game)
                return
            if outcome == "missing":
                raise not_found(game_id)
        raise version_conflict(game.version, game.version)
