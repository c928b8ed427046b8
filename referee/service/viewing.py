"""A game as one seat (or a spectator) may see it: the envelope every
reader is shown (id, version, status, seats, the turn clock) and the
ruleset's view of the state for that seat."""
from __future__ import annotations

from referee.engine.encoded_views import ViewCache, encoded_view
from referee.engine.protocol import Json, Seat, seat_view
from referee.service.game import Game
from referee.service.presence import Shown, seats_shown


def envelope_of(game: Game, presence: tuple[Shown, ...] | None = None) -> Json:
    """What every reader of ``game`` is shown around the ruleset's view
    (``presence``: each seat's, ``referee.service.presence``, merged into ``seats``)."""
    rs = game.ruleset
    return {"id": game.id, "ruleset": rs.name, "ruleset_version": rs.version, "version": game.version,
            "status": game.status, "turn_deadline": game.turn_deadline(),
            "seats": game.seats() if presence is None else seats_shown(game, presence),
            "custom": game.header["custom"], "seed_commitment": game.header["seed_commitment"]}


def encoded(game: Game, seat: Seat | None, cache: ViewCache, presence: tuple[Shown, ...] | None = None) -> bytes:
    """The encoded view ``seat`` (``None``: a spectator) is sent; the public
    part is encoded once per version (and seats' presence: it changes
    between versions) for every reader (``cache``, ``referee.engine.encoded_views``)."""
    return encoded_view(game.ruleset, game.state, seat, active=game.status == "active",
                        envelope=envelope_of(game, presence),
                        key=(game.id, game.version, game.header_hash, presence),
                        cache=cache, memo=game.memo)


def view_of(game: Game, seat: Seat | None) -> Json:
    """The view as a JSON value (replays, tools, bots): what ``encoded`` encodes."""
    return {**envelope_of(game),
            **seat_view(game.ruleset, game.state, seat, active=game.status == "active", memo=game.memo)}
