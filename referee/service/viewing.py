"""A game as one seat (or a spectator) may see it: the envelope every
reader is shown (id, version, status, seats, the turn clock) and the
ruleset's view of the state for that seat."""
from __future__ import annotations

from referee.engine.clock import shown as shown_clock
from referee.engine.encoded_views import ViewCache, encoded_view
from referee.engine.protocol import Json, Seat, seat_view
from referee.service.game import Game, wall_ms
from referee.service.presence import Shown, seats_shown
from referee.service.spectator_options import shown_delay


def envelope_of(game: Game, now: int | None = None, presence: tuple[Shown, ...] | None = None, *,
                clock: bool = True) -> Json:
    """What every reader of ``game`` is shown around the ruleset's view
    (``presence``: each seat's, ``referee.service.presence``, merged into
    ``seats``); a clocked game's clock too, at ``now`` (the server's time,
    ms); ``clock=False``: no turn deadline and no clock (a delayed
    spectator's: the clocks run at the head, which it does not see); the
    spectator delay of a game that has one (``referee.service.spectators``); who may post at the table
    chat, in a game whose creator said (option ``chat``: the page offers its box only to them)."""
    rs = game.ruleset
    out = {"id": game.id, "ruleset": rs.name, "ruleset_version": rs.version, "version": game.version,
           "status": game.status, "turn_deadline": game.turn_deadline() if clock else None,
           "seats": game.seats() if presence is None else seats_shown(game, presence),
           "custom": game.header["custom"], "seed_commitment": game.header["seed_commitment"],
           **shown_delay(game), **({"chat": game.header["chat"]} if "chat" in game.header else {})}
    clocked = game.clock_now() if clock else None
    if clocked is not None:  # only in a clocked game (docs/clocks.md)
        out["clock"] = shown_clock(*clocked, wall_ms() if now is None else now)
    return out


def encoded(game: Game, seat: Seat | None, cache: ViewCache, links: Json | None = None,
            now: int | None = None, presence: tuple[Shown, ...] | None = None) -> bytes:
    """The encoded view ``seat`` (``None``: a spectator) is sent; the public
    part is encoded once per version (and seats' presence: it changes
    between versions) for every reader (``cache``,
    ``referee.engine.encoded_views``). ``links``: a rematch's and a series'
    (``referee.service.rematch.view_links``), after the envelope's facts."""
    envelope = envelope_of(game, now, presence)
    if links:
        envelope.update(links)
    linked = ":" + links["next_game"] if links and "next_game" in links else ""  # a link added: another value
    key = (game.id, game.version, game.header_hash + linked, presence)
    return encoded_view(game.ruleset, game.state, seat, active=game.status == "active",
                        envelope=envelope, key=key,
                        cache=cache, memo=game.memo)


def view_of(game: Game, seat: Seat | None, now: int | None = None,
            presence: tuple[Shown, ...] | None = None) -> Json:
    """The view as a JSON value (replays, tools, bots): what ``encoded`` encodes."""
    return {**envelope_of(game, now, presence),
            **seat_view(game.ruleset, game.state, seat, active=game.status == "active", memo=game.memo)}
