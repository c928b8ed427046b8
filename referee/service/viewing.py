"""A game as one seat (or a spectator) may see it: the envelope every
reader is shown (id, version, status, seats, the turn clock) and the
ruleset's view of the state for that seat."""
from __future__ import annotations

from referee.engine.encoded_views import ViewCache, encoded_view
from referee.engine.protocol import Json, Seat, seat_view
from referee.service.game import Game
from referee.service.spectator_options import shown_delay


def envelope_of(game: Game, *, clock: bool = True) -> Json:
    """What every reader of ``game`` is shown around the ruleset's view
    (``clock``: its turn clock; a delayed spectator's is ``None``), and the
    spectator delay of a game that has one (``referee.service.spectators``)."""
    rs = game.ruleset
    return {"id": game.id, "ruleset": rs.name, "ruleset_version": rs.version, "version": game.version,
            "status": game.status, "turn_deadline": game.turn_deadline() if clock else None, "seats": game.seats(),
            "custom": game.header["custom"], "seed_commitment": game.header["seed_commitment"],
            **shown_delay(game)}


def encoded(game: Game, seat: Seat | None, cache: ViewCache) -> bytes:
    """The encoded view ``seat`` (``None``: a spectator) is sent; the public
    part is encoded once per version for every reader (``cache``,
    ``referee.engine.encoded_views``)."""
    return encoded_view(game.ruleset, game.state, seat, active=game.status == "active",
                        envelope=envelope_of(game), key=(game.id, game.version, game.header_hash),
                        cache=cache, memo=game.memo)


def view_of(game: Game, seat: Seat | None) -> Json:
    """The view as a JSON value (replays, tools, bots): what ``encoded`` encodes."""
    return {**envelope_of(game),
            **seat_view(game.ruleset, game.state, seat, active=game.status == "active", memo=game.memo)}
