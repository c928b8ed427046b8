"""Request bodies (marshmallow): malformed input is a 400 before any rule runs."""
from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from referee.service.listing import SOURCES

#: the largest version, seq or count a client may name: 2**53 - 1, the largest
#: integer every JSON parser reads exactly (and far below Redis's 2**64 stream ids)
MAX_INT = 2**53 - 1


class WholeNumber(fields.Integer):
    """A JSON integer as JSON Schema (and so ``openapi.yaml``) counts them:
    ``3`` and ``3.0``, never ``"3"``, ``true`` or ``3.5``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        loaded: int = super()._deserialize(value, attr, data, **kwargs)
        return loaded


class SeatSpec(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(validate=validate.Length(min=1, max=64))
    bot = fields.String(validate=validate.Length(min=1, max=64), allow_none=True)
    #: the registered bot's secret: its owner agrees to seat it (not needed for a ``public`` bot)
    bot_secret = fields.String(validate=validate.Length(min=1, max=256))
    #: a seat anyone may claim (POST /v1/games/{id}/seats/{seat}/claim); the game waits for every one
    open = fields.Boolean()


class ClaimSeat(Schema):
    """``POST /v1/games/{id}/seats/{seat}/claim``."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=64))


class CreateGame(Schema):
    """``POST /v1/games``."""

    class Meta:
        unknown = RAISE

    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=64))
    players = WholeNumber(validate=validate.Range(min=1, max=16))
    seats = fields.List(fields.Nested(SeatSpec), validate=validate.Length(min=1, max=16))
    options = fields.Dict(keys=fields.String())
    seed = fields.String(validate=validate.Length(min=1, max=256))
    setup = fields.Dict(keys=fields.String())

    @validates_schema
    def _players_or_seats(self, data: dict[str, Any], **_: Any) -> None:
        if "players" not in data and "seats" not in data:
            raise ValidationError("give players (a count) or seats (a list)", "players")


class MoveRequest(Schema):
    """``POST /v1/games/{id}/moves``."""

    class Meta:
        unknown = RAISE

    move = fields.Dict(keys=fields.String(), required=True)
    expected_version = WholeNumber(validate=validate.Range(min=0, max=MAX_INT))

    @validates_schema
    def _move_has_type(self, data: dict[str, Any], **_: Any) -> None:
        if not isinstance(data.get("move", {}).get("type"), str):
            raise ValidationError("a move is an object with a string 'type'", "move")


_MOVE_FIELDS = frozenset({"move", "expected_version"})


def quick_move_request(body: dict[str, Any]) -> dict[str, Any] | None:
    """What ``MoveRequest().load(body)`` gives for a body every field of which
    is plainly right (a move object with string keys and a string ``type``;
    ``expected_version`` absent or a whole number in range), without
    marshmallow's walk over the move; ``None`` for anything else, which
    ``MoveRequest`` then loads or names (a test holds the two to one answer).
    The move's own shape is checked once, after this, against its published
    schema (``RulesetBase.check_move``)."""
    if not _MOVE_FIELDS.issuperset(body):
        return None
    move = body.get("move")
    if type(move) is not dict or type(move.get("type")) is not str or not all(type(k) is str for k in move):
        return None
    if "expected_version" not in body:
        return {"move": dict(move)}
    version = body["expected_version"]
    if type(version) is not int or not 0 <= version <= MAX_INT:
        return None
    return {"move": dict(move), "expected_version": version}


class EventsQuery(Schema):
    class Meta:
        unknown = RAISE

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INT))
    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=30))
    token = fields.String()


class PageQuery(Schema):
    """A page after ``cursor``, of ``limit`` items (a listing's query)."""

    class Meta:
        unknown = RAISE

    cursor = fields.String(validate=validate.Length(min=1, max=200))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))


class ListQuery(PageQuery):
    """``GET /v1/games``, ``/v1/bots``, ``/v1/tournaments``: a page after ``cursor``."""

    ruleset = fields.String(validate=validate.Length(min=1, max=64))
    status = fields.String(validate=validate.OneOf(["active", "finished", "running", "cancelled"]))
    open_seats = fields.Boolean()


class GamesQuery(ListQuery):
    """``GET /v1/games``: also who started the games listed (``referee.service.listing.SOURCES``)."""

    source = fields.String(validate=validate.OneOf(SOURCES))


class LadderQuery(Schema):
    """``GET /v1/ladder/{key}``: a page of a ladder from ``cursor`` (a rank, the page before's ``next_cursor``)."""

    class Meta:
        unknown = RAISE

    cursor = fields.String(validate=validate.Regexp(r"^[0-9]{1,9}$", error="a ladder's cursor is the "
                                                    "next_cursor of the page before"))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class ArchiveQuery(PageQuery):
    """``GET /v1/archive/games`` and ``/v1/archive/export``: archived games by their public facts (issue 41)."""

    ruleset = fields.String(validate=validate.Length(min=1, max=64))
    seat = fields.String(validate=validate.Length(min=1, max=200))
    bot = fields.String(validate=validate.Length(min=1, max=200))
    tournament = fields.String(validate=validate.Length(min=1, max=64))
    result = fields.String(validate=validate.Length(min=1, max=64))
    since = fields.Integer(data_key="from", validate=validate.Range(min=0, max=MAX_INT))
    until = fields.Integer(data_key="to", validate=validate.Range(min=0, max=MAX_INT))


class ReplayQuery(Schema):
    class Meta:
        unknown = RAISE

    version = fields.Integer(validate=validate.Range(min=1, max=MAX_INT))


class RegisterBot(Schema):
    """``POST /v1/bots``."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    #: none (or null): an outbound bot, which connects for its turns
    url = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=2048))
    rulesets = fields.List(fields.String(), required=True, validate=validate.Length(min=1, max=8))
    #: who may seat the bot in games and tournaments: ``owner`` (whoever gives its secret) or ``public``
    seating = fields.String(load_default="owner", validate=validate.OneOf(["owner", "public"]))


class AnswerTurn(Schema):
    """``POST /v1/bots/{id}/turns/{delivery}``: an outbound bot's move (checked as a webhook bot's answer)."""

    class Meta:
        unknown = RAISE

    move = fields.Dict(keys=fields.String(), required=True)


class Entrant(Schema):
    class Meta:
        unknown = RAISE

    bot = fields.String(required=True, validate=validate.Length(min=1, max=64))
    name = fields.String(validate=validate.Length(min=1, max=64))
    #: the registered bot's secret: its owner agrees to enter it (not needed for a ``public`` bot)
    bot_secret = fields.String(validate=validate.Length(min=1, max=256))


class EntrantField(fields.Field):  # type: ignore[type-arg]
    """An entrant: a bot id or built-in name, or ``{bot, name}``."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and 0 < len(value) <= 64:
            return value
        if isinstance(value, dict):
            loaded: dict[str, Any] = Entrant().load(value)
            return loaded
        raise ValidationError("an entrant is a bot id or {bot, name}")


class CreateTournament(Schema):
    """``POST /v1/tournaments``."""

    class Meta:
        unknown = RAISE

    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=64))
    entrants = fields.List(EntrantField(), required=True, validate=validate.Length(min=2, max=64))
    games = WholeNumber(required=True, validate=validate.Range(min=1, max=10_000))
    players = WholeNumber(validate=validate.Range(min=1, max=16))
    options = fields.Dict(keys=fields.String())
    seed = fields.String(validate=validate.Length(min=1, max=256))
    parallel = WholeNumber(validate=validate.Range(min=1, max=64))
    callback_url = fields.String(validate=validate.Length(min=1, max=2048))  # every game's end webhook


class InclusionQuery(Schema):
    """``GET /v1/transparency/proof/inclusion`` (issue 41 item 4)."""

    class Meta:
        unknown = RAISE

    game = fields.String(required=True, validate=validate.Regexp(r"\A[A-Za-z0-9_-]{1,64}\Z"))
    size = fields.Integer(validate=validate.Range(min=1, max=MAX_INT))


class ConsistencyQuery(Schema):
    """``GET /v1/transparency/proof/consistency`` (issue 41 item 4)."""

    class Meta:
        unknown = RAISE

    from_ = fields.Integer(required=True, data_key="from", validate=validate.Range(min=0, max=MAX_INT))
    to = fields.Integer(validate=validate.Range(min=0, max=MAX_INT))
