"""Rematches and series (issue 40 item 4).

``rematch`` on a finished game deals the next one (``Creation``, as any game
is dealt) for the same table: the same ruleset, options and bots, the seats
rotated one place (``rotation``), each person's seat kept for that person.
The next game's people's seats are open seats only the holder of that
person's seat token in the finished game may take (``seat_claimed``, in the
next game's log), so a token is only ever shown to whoever held the seat's
last one: never to a spectator, another seat or the creator. The first ask
(by the creator's ``owner_token`` or a person's seat token) deals the game;
every later ask answers with the same one (``RematchLinks``), a seat's ask
also taking the caller's seat the first time.

A series (the creation option ``series``: ``{"best_of": n}`` or
``{"games": n}``) is the chain of a first game and its rematches; each
game's header says its place (``series``: id — the first game's —, the
count, ``game`` from 1, and ``players``: the series player each seat holds),
so the running score is read from the games themselves (``series_of``)."""
from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass

from referee.engine import record, sha256_hex
from referee.engine.protocol import Json, Seat, fold
from referee.errors import ApiError, not_found
from referee.service.creation import Creation, NewGame, Rematch
from referee.service.game import OPEN, Game, seat_of
from referee.service.loading import Loader
from referee.service.seats import Seats
from referee.store.redis_store import EventStore
from referee.store.rematch import RematchLinks


def rotation(players: int) -> list[Seat]:
    """The seat each seat of the next game had in the finished one: every
    person and bot moves one seat to the right (``seat - 1``), so neighbours
    stay neighbours and whoever sat at a seat number now sits where the
    player on their right did. In Face Off the two seats swap."""
    return [(seat + 1) % players for seat in range(players)]


def _seat_specs(game: Game, seats_from: list[Seat]) -> list[Json]:
    """The next game's seats: a bot's seat (the header's, or the one given at
    the start deadline) is that bot's again; a person's is open, kept for them."""
    names = [seat["name"] for seat in game.seats()]
    specs: list[Json] = []
    for old in seats_from:
        bot = game.bot_of(old)
        specs.append({"name": names[old], "bot": bot} if bot is not None else {"name": names[old], "open": True})
    return specs


#: the platform options a rematch carries over as the finished game's header recorded them (each only
#: there when the creator gave it; ``away_grace_s`` may be ``null``: never taken over): the turn clock or
#: the time bank, the chat, the spectators' delay and broadcast, the takeover of a seat away
CARRIED = ("turn_timeout_s", "clock", "chat", "spectator_delay", "spectator_omniscient", "away_grace_s", "away_bot")


def _options(game: Game, specs: list[Json]) -> Json:
    """The finished game's options again: the ruleset's (Bluffaneer's
    ``first_seat``, unchanged, names the next person clockwise: seats
    rotated), its turn clock or time bank, its chat, spectator and away
    options (``CARRIED``), and its start deadline where a seat is open
    (none is when every person's seat went to a bot)."""
    head = game.header
    options: Json = dict(head["options"])
    names = CARRIED + ("start_timeout_s", "start_bot") if any(s.get("open") for s in specs) else CARRIED
    for name in names:
        if name in head:
            options[name] = head[name]
    return options


def next_request(game: Game, next_id: str, owner_hash: str, first: Seat | None = None) -> NewGame:
    """The next game of ``game`` as a request to ``Creation``: the same ruleset, options and bots, seats rotated;
    ``first``: the seat that moved first in ``game``, for a ruleset whose option ``first_seat`` names it."""
    seats_from = rotation(game.players)
    series = game.header.get("series")
    link = None if series is None else {
        **series, "game": series["game"] + 1, "players": [series["players"][old] for old in seats_from]}
    specs = _seat_specs(game, seats_from)
    options = _options(game, specs)
    if first is not None and "first_seat" not in options:
        # drawn at random (Bluffaneer F8): the same number now seats the next person clockwise
        options["first_seat"] = first
    return NewGame(ruleset=game.ruleset.name, seats=specs, options=options, game_id=next_id,
                   rematch=Rematch(game.id, seats_from, link, owner_hash))


def winners_of(game: Game) -> list[Seat]:
    """The seats that won ``game`` (none before its end)."""
    result = game.ruleset.result(game.state) if game.status == "finished" else None
    return sorted(result.get("winners") or []) if result else []


def score(series: Json, games: list[Game]) -> list[int]:
    """Each series player's wins so far: a game's every winning seat scores one for its player."""
    wins = [0] * len(series["players"])
    for game in games:
        for seat in winners_of(game):
            wins[game.header["series"]["players"][seat]] += 1
    return wins


def series_over(series: Json, played: int, wins: list[int]) -> bool:
    """``games: n`` ends after ``n`` games; ``best_of: n`` when a player has won more than half of ``n``, or
    after ``n`` games."""
    count = int(series.get("best_of") or series.get("games") or 0)
    return played >= count or ("best_of" in series and max(wins, default=0) > count // 2)


@dataclass(eq=False)
class Rematches:
    """Rematches of finished games, and the series they make."""

    store: EventStore
    loader: Loader
    creation: Creation
    seats: Seats
    clock: Callable[[], int]

    def __post_init__(self) -> None:
        self.links = RematchLinks(self.store)

    def next_of(self, game_id: str) -> str | None:
        """The id of ``game_id``'s next game, once a rematch was asked."""
        return self.links.next_of(game_id)

    def rematch(self, game_id: str, token: str | None, proposed: str) -> tuple[Json, bool]:
        """The next game of finished game ``game_id`` (dealt as ``proposed``
        if nobody asked before); whether this call dealt it. ``token``: the
        game's ``owner_token``, or a person's seat token of it — that seat's
        next seat is taken for the caller, and its token shown, the first time."""
        if token is None:
            raise ApiError(401, "token_required", "a rematch is asked with the game's owner_token or a person's "
                           "seat token of it")
        game = self.loader.load(game_id)
        meta = self.store.meta(game_id) or {}
        owner = hmac.compare_digest(sha256_hex(token), meta.get("owner", ""))
        seat = None if owner else seat_of(game, token)
        next_id = meta.get("next_game")
        if next_id is None:
            self._check_may(game)
            self.creation.validate(next_request(game, proposed, "", self._first(game)))  # refused: nothing linked
            next_id = self.links.link(game_id, proposed)
            if next_id is None:
                raise not_found(game_id)
        created = self._deal(game, next_id, meta.get("owner", ""))
        following = self.loader.load(next_id)
        body = describe(following)
        if seat is not None:
            body.update(self._take_seat(following, seat))
        return body, created

    def _check_may(self, game: Game) -> None:
        """A rematch follows a finished game, never a tournament's, never the last of a series."""
        if game.status != "finished":
            raise ApiError(409, "game_not_finished", "a rematch follows a finished game")
        if "tournament" in game.header:
            raise ApiError(409, "tournament_game", "a tournament deals its own games: no rematch")
        series = game.header.get("series")
        if series is not None:
            games = self.series_games(series["id"])
            if series_over(series, len(games), score(series, games)):
                raise ApiError(409, "series_over", f"series {series['id']} is over: start a new game")

    def _deal(self, game: Game, next_id: str, owner_hash: str) -> bool:
        """Deal the next game as ``next_id`` unless it exists; whether this call dealt it."""
        if self.store.head(next_id) is not None:
            return False
        try:
            self.creation.create_game(next_request(game, next_id, owner_hash, self._first(game)))
        except ApiError as err:
            if err.code != "game_exists":  # another referee dealt it meanwhile: that one it is
                raise
            return False
        return True

    def _first(self, game: Game) -> Seat | None:
        """The seat that moved first in ``game``, where its ruleset's option ``first_seat`` could name it."""
        if "first_seat" not in game.ruleset.options_schema.get("properties", {}):
            return None
        envelopes = self.store.read(game.id, after=0, upto=game.version)
        dealt_at = record.shown_versions([e["type"] for e in envelopes])[0]  # the version after the deal
        dealt = fold(game.ruleset, record.ruleset_events(envelopes[:dealt_at]))
        awaited = sorted(game.ruleset.to_act(dealt))
        return awaited[0] if len(awaited) == 1 else None

    def _take_seat(self, following: Game, old: Seat) -> Json:
        """The seat kept for whoever held ``old`` in the finished game: taken
        now (its token, shown this once), or already (no token)."""
        seat = following.header["rematch"]["seats_from"].index(old)
        if following.tokens[seat] != OPEN:
            return {"seat": seat, "token": None}
        try:
            taken = self.seats.claim_seat(following.id, seat, following.header["seats"][seat]["name"], kept=True)
        except ApiError as err:
            if err.code not in ("seat_taken", "seat_not_open"):  # taken meanwhile by the same token's other ask
                raise
            return {"seat": seat, "token": None}
        return {"seat": seat, "token": taken["token"]}

    def series_games(self, series_id: str) -> list[Game]:
        """The games of series ``series_id`` so far, first to last (404 ``no_such_series``)."""
        try:
            game = self.loader.load(series_id)
        except ApiError:
            raise ApiError(404, "no_such_series", f"no series {series_id!r}") from None
        games = [game]
        if game.header.get("series", {}).get("id") != series_id:
            raise ApiError(404, "no_such_series", f"game {series_id} starts no series")
        while (next_id := self.links.next_of(games[-1].id)) is not None and len(games) < 64:
            try:
                following = self.loader.load(next_id)
            except ApiError:
                break  # being dealt, or gone
            games.append(following)
        return games

    def series_of(self, series_id: str) -> Json:
        """A series as anyone may read it: its count, players and running score, each game's link and winners."""
        games = self.series_games(series_id)
        first, series = games[0], games[0].header["series"]
        wins = score(series, games)
        kind = "best_of" if "best_of" in series else "games"
        names = [seat["name"] for seat in first.seats()]
        return {
            "id": series_id, "format": {kind: series[kind]}, "status": "finished" if series_over(series, sum(
                1 for g in games if g.status == "finished"), wins) else "active",
            "players": [{"player": p, "name": names[p], "wins": wins[p]} for p in range(len(wins))],
            "games": [{"id": g.id, "game": g.header["series"]["game"], "status": g.status,
                       "players": g.header["series"]["players"],
                       "winners": sorted({g.header["series"]["players"][s] for s in winners_of(g)})} for g in games],
        }


def describe(game: Game) -> Json:
    """A rematch's answer: the next game's public facts and links (never a token)."""
    out: Json = {"id": game.id, "ruleset": game.ruleset.name, "status": game.status,
                 "rematch_of": game.header["rematch"]["of"],
                 "seats": [{**seat, "from_seat": game.header["rematch"]["seats_from"][seat["seat"]]}
                           for seat in game.seats()]}
    if "series" in game.header:
        out["series"] = game.header["series"]
    return out


def view_links(game: Game, next_game: str | None) -> Json:
    """What a game's view shows of its links: the game it is a rematch of, its series, its next game."""
    out: Json = {}
    if "rematch" in game.header:
        out["rematch_of"] = game.header["rematch"]["of"]
    if "series" in game.header:
        out["series"] = game.header["series"]
    if next_game is not None:
        out["next_game"] = next_game
    return out


__all__ = ["Rematches", "describe", "rotation", "view_links"]
