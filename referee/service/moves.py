"""Submitting moves: a client's (its seat's token), the system's (a
timeout) and a worker's for a seat (a bot's, a turn clock's default), all
through one path — decided against the cached state, appended with its
version as the expectation, decided again on the latest state if another
process moved the game on — and each idempotent under its key: a retry of
an applied move gets the very body it got the first time.

A worker's run of bot moves (``workers.jobs``) uses the same decision one
move at a time (``decide_for_seat``) and appends what it decided in batches
(``append_decided``)."""
from __future__ import annotations

import hmac
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.bots import BUILT_IN
from referee.engine import sha256_hex
from referee.engine.protocol import Json, Move, RefereeError, Seat
from referee.engine.signature import Keyring
from referee.engine.timing import timing_after
from referee.errors import ApiError, game_over, not_found, token_reissued, version_conflict
from referee.service.changes import Changes
from referee.service.deciding import Decided, Submitted, decide, fingerprint, replay_idempotent
from referee.service.game import MAX_CONFLICT_RETRIES, Game, game_but, seat_of
from referee.service.loading import Loader
from referee.service.metrics import MOVES
from referee.store.redis_store import EventStore

#: the idempotency scope of every move a worker submits (timeouts, bots, turn
#: clocks); a client's keys live in its seat's scope, so it can never take one
WORKER_SCOPE = "worker"


def check_playable(game: Game, expected_version: int | None) -> None:
    """Refuse a move on ``game`` as loaded: not at the version the client
    expects (409; chat events after it do not count), over, or waiting for seats to be claimed."""
    if expected_version is not None and not game.play_version <= expected_version <= game.version:
        # chat messages since the version expected change nothing a move depends on (docs/chat.md)
        raise version_conflict(game.version, expected_version)
    if game.status != "active":
        raise game_over(game.version, game.ruleset.platform_rules.get("game_over"))
    if game.open_seats:
        raise ApiError(409, "seats_open", f"the game starts when every seat is taken: seats "
                       f"{game.open_seats} are open (POST /v1/games/{game.id}/seats/<seat>/claim)")


@dataclass(eq=False)
class Moves:
    """Moves decided and appended."""

    store: EventStore
    loader: Loader
    changes: Changes
    keyring: Keyring
    clock: Callable[[], int]
    #: a seat seen (``Presence.seen``), set by the service
    seen: Callable[[Game, Seat | None, None], tuple[Game, object]] | None = None

    def submit_move(self, game_id: str, token: str | None, move: Move, *, expected_version: int | None = None,
                    idempotency_key: str | None = None) -> bytes:
        """Validate and record a seat's move; returns the 201 body (bytes, so
        an idempotent retry gets it back byte for byte)."""
        game = self.loader.cached(game_id)
        if token is None:
            raise ApiError(401, "token_required", "moves need a seat token: Authorization: Bearer <token>")
        try:
            seat = seat_of(game, token)
        except ApiError:  # a token this process's cache predates (reissued meanwhile, by another process)
            game = self.loader.load(game_id)
            seat = seat_of(game, token)
        if self.seen is not None:  # the seat is seen: given back first if it was taken over (issue 40 item 1)
            was_away = bool(game.away) and seat is not None and game.away[seat] is not None
            game, _ = self.seen(game, seat, None)
            if was_away and expected_version == game.version - 1:  # its own return is no move it missed
                expected_version = game.version
        return self._submit(game, seat, move, expected_version, idempotency_key, scope=f"seat:{seat}",
                            holder=sha256_hex(token))

    def submit_system(self, game_id: str, move: Move, *, expected_version: int, idempotency_key: str) -> bytes:
        """A system command (``timeout``) from a worker, through the same path."""
        return self._submit(self.loader.cached(game_id), None, move, expected_version, idempotency_key,
                            scope=WORKER_SCOPE)

    def submit_for_seat(self, game_id: str, seat: Seat, move: Move | None, *, expected_version: int,
                        idempotency_key: str, by: Json) -> bytes:
        """A move a worker makes for a seat, through the same path as a
        client's; ``by`` says who chose it and is recorded with the move.
        ``move=None`` applies the seat's rule-defined default, drawn from the
        game's generator where the rules make it a random choice (recorded as
        ``by.drawn_from``, so the audit re-derives it)."""
        return self._submit(self.loader.cached(game_id), seat, move, expected_version, idempotency_key, by,
                            scope=WORKER_SCOPE)

    def _submit(self, game: Game, seat: Seat | None, move: Move | None, expected_version: int | None,
                idempotency_key: str | None, by: Json | None = None, *, scope: str,
                holder: str | None = None) -> bytes:
        """Decide against the cached state and append with its version as the
        expectation; if another process moved the game on, reload and decide
        again (or 409 when the client stated the version it expects).
        ``scope`` is the caller's idempotency namespace (a seat's, or the worker's).
        ``holder``: the client's token hash, checked again against each game
        reloaded, so a token reissued meanwhile moves no more (401)."""
        # the receipt time: a retry after a conflict keeps it (a claim met its deadline)
        submitted = Submitted(seat, move, by, self.clock(),
                              (scope, idempotency_key) if idempotency_key is not None else None,
                              fingerprint(seat, move, expected_version), client=scope != WORKER_SCOPE)
        fresh = False
        for _ in range(MAX_CONFLICT_RETRIES):
            if holder is not None and seat is not None and not hmac.compare_digest(game.tokens[seat], holder):
                raise token_reissued()
            try:
                check_playable(game, expected_version)
                body, appended = self._decide_and_append(game, submitted, holder)
            except RefereeError:
                replayed = self._replayed(game.id, submitted, holder)
                if replayed is not None:  # a retry of a move that was already applied
                    return replayed
                if fresh:
                    raise
                game, fresh = self.loader.load(game.id), True  # a refusal judged on a stale cache: judged again
                continue
            if appended is not None:
                return body
            game, fresh = self.loader.load(game.id), True
        raise version_conflict(game.version, expected_version if expected_version is not None else game.version)

    def _decide_and_append(self, game: Game, submitted: Submitted,
                           holder: str | None) -> tuple[bytes, Game | None]:
        """One attempt: ``(body, new game)``, or ``(b"", None)`` when the
        cached version was stale. ``holder``: the client's token hash,
        checked before a retry is answered."""
        decided = decide(game, submitted, self.keyring)
        self.changes.watch_ahead(game, decided.game)
        appended = self.store.append_moves(game.id, game.version, [decided.stored])
        if appended.outcome == "ok":
            self.loader.remember(decided.game)
            by = "system" if submitted.seat is None else "bot" if submitted.by else "seat"
            MOVES.labels(ruleset=game.ruleset.name, by=by).inc()
            self.changes.notify(decided.game, game)
            return decided.body, decided.game
        if appended.outcome == "idem" and appended.record is not None:
            return self.replay_for(game.id, submitted.seat, holder, appended.record, submitted.fingerprint), game
        if appended.outcome == "missing":
            raise not_found(game.id)
        return b"", None

    def _replayed(self, game_id: str, submitted: Submitted, holder: str | None) -> bytes | None:
        """The answer to a retry of a move already applied under the same key (``None``: none was)."""
        if submitted.key is None:
            return None
        stored = self.store.idem_record(game_id, submitted.key)
        if stored is None:
            return None
        return self.replay_for(game_id, submitted.seat, holder, stored, submitted.fingerprint)

    def replay_for(self, game_id: str, seat: Seat | None, holder: str | None, stored: bytes,
                   fingerprint: str) -> bytes:
        """An idempotent retry's answer (``replay_idempotent``), to a client
        whose token (hash ``holder``) is still its seat's in the store: the
        answer shows what the seat was shown, and the key may be its new
        holder's, while this process's cache may predate the reissue."""
        if holder is not None and seat is not None and not self.loader.holds_hash(game_id, seat, holder):
            raise token_reissued()
        return replay_idempotent(stored, fingerprint)

    # -- a worker's run of bot moves ------------------------------------------------
    def decide_for_seat(self, game: Game, seat: Seat, move: Move | None, by: Json, key: str) -> Decided:
        """A worker's move for ``seat`` decided on ``game`` (the state the
        move before it left), nothing written: exactly as ``submit_for_seat``
        would decide it at the game's version, with ``key`` in the worker's
        idempotency scope. ``RefereeError`` when the rules refuse it. The
        game after it has the timing of ``game`` still: ``append_decided``
        folds a run's moves into it once (``deciding.decide``'s ``timed``)."""
        submitted = Submitted(seat, move, by, self._received(game, by), (WORKER_SCOPE, key),
                              fingerprint(seat, move, game.version), client=False)
        return decide(game, submitted, self.keyring, timed=False)

    def append_decided(self, start: Game, decided: Sequence[Decided]) -> Game | None:
        """Append moves decided one after the other from ``start`` (the game
        as last appended) in one round trip: all of them, or none if the game
        moved on meanwhile (``None``). Returns the game after the last, its
        timing folded over all of their events in one go (``decide_for_seat``
        left it at ``start``'s). No job is scheduled for them: the
        worker that decided them tells the scheduler where its run left the
        game (``settle``); a game the run finished is counted finished here,
        where its last move lands, as ``Changes.notify`` counts one a single move finished."""
        appended = self.store.append_moves(start.id, start.version, [d.stored for d in decided])
        if appended.outcome == "missing":
            raise not_found(start.id)
        if appended.outcome != "ok":
            return None
        last = decided[-1].game  # folded once it landed: a run whose game moved on throws its moves away
        game: Game = game_but(last, timing=timing_after(start.timing, start.version,
                                                  [e for d in decided for e in d.stored.envelopes], last.version))
        self.loader.remember(game)
        MOVES.labels(ruleset=start.ruleset.name, by="bot").inc(len(decided))
        self.changes.finished(game, start)
        return game

    def _received(self, game: Game, by: Json) -> int:
        """A run's move's receipt time: the clock's, but a built-in bot's move
        while a rules deadline is open (Bluffaneer's claim window, F18) is
        stamped with the receipt time of the game's last move. A built-in bot
        answers the moment it is asked, so its answer does not depend on how
        busy the workers are: built-in bots answering one window tie and the
        rules' seeded flip decides (F19), and a seeded tournament of built-in
        bots replays identically. The time is that of a move already recorded:
        never before it, always before the deadline."""
        if by.get("bot") in BUILT_IN and "default" not in by and game.ruleset.deadline(game.state) is not None:
            return game.last_at
        return self.clock()
