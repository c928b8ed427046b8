"""The decider protocol every ruleset implements (DESIGN.md, Architecture).

A ruleset is a pure rules library: no I/O, no clock, no global random.
Randomness enters only through the ``Rng`` handed to ``setup``/``decide``
and time only through ``now`` (the service's receipt stamp, in ms).

Data crossing the protocol is plain JSON-able data:

* a **move** is a ``dict`` with a ``"type"`` key, exactly as a client POSTs it;
  every entry of ``legal_moves`` can be posted back unchanged;
* an **event** is an :class:`Event` — a stored ``type`` name (never rename it:
  it is storage format) and JSON ``data``; events record outcomes (a
  shuffle's order, a die's face) so replay never needs the seed;
* a **state** is whatever the ruleset folds events into. ``evolve`` must not
  mutate the state it is given (the service caches states by version).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from referee.engine.chain import commitment, secret_salt
from referee.engine.rng import Rng
from referee.engine.statecache import Memo

if TYPE_CHECKING:
    from referee.engine.schema import SchemaCheck

Seat = int
Move = dict[str, Any]
Json = dict[str, Any]
#: a ruleset's own state type: ``Ruleset[State]`` is what mypy holds a ruleset to
S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``type`` is storage format: never rename."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> Json:
        return {"type": self.type, "data": dict(self.data)}


class RefereeError(Exception):
    """Base of every refusal that becomes a problem response."""

    status = 422

    def __init__(self, code: str, *, detail: str, rule: str | None = None) -> None:
        super().__init__(detail)
        self.code, self.detail, self.rule = code, detail, rule


class IllegalMove(RefereeError):
    """A well-formed move the rules forbid in this state (HTTP 422)."""

    def __init__(self, code: str, *, rule: str, detail: str) -> None:
        super().__init__(code, detail=detail, rule=rule)


class OutOfTurn(IllegalMove):
    """The actor is not one the referee awaits now (HTTP 403)."""

    status = 403


class MalformedMove(RefereeError):
    """A move that does not parse: unknown type, missing or ill-typed field (HTTP 400)."""

    status = 400

    def __init__(self, code: str, *, detail: str, rule: str | None = None) -> None:
        super().__init__(code, detail=detail, rule=rule)


class InvalidSetup(RefereeError):
    """Options or a scenario ``setup`` the ruleset cannot start from (HTTP 422)."""

    def __init__(self, code: str, *, detail: str, rule: str | None = None) -> None:
        super().__init__(code, detail=detail, rule=rule)


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What ``setup`` starts from. ``options`` are already validated by
    ``Ruleset.validate_options``; ``scenario`` is the client's ``setup`` object
    (or ``None``)."""

    players: int
    options: Mapping[str, Any]
    scenario: Mapping[str, Any] | None = None


class Ruleset(Protocol[S]):
    """The protocol object each ``referee.games.<name>`` exposes as ``RULESET``,
    generic over the state it folds (``S``: the platform, which never looks
    inside a state, holds ``Ruleset[Any]``).

    * ``setup(config, rng)`` -> the opening events (state starts as ``None``;
      the first event builds it). Raises ``InvalidSetup`` — also for a
      scenario that would start with the game already decided.
    * ``evolve(state, event)`` -> next state. Never validates, never raises,
      never mutates its input.
    * ``decide(state, actor, move, *, rng, now)`` -> events. ``actor`` is a
      seat, or ``None`` for the system (the ``{"type": "timeout"}`` command).
      Raises ``MalformedMove`` / ``IllegalMove`` / ``OutOfTurn``.
    * ``legal_moves(state, seat)`` -> stable, sorted list of complete moves.
    * ``view(state, seat | None)`` -> what that seat (``None``: a spectator)
      may see, JSON; key ``"pending"`` holds the reaction prompt or ``None``.
    * ``redact(event, seat | None)`` -> the event as that seat may see it,
      or ``None`` to hide it entirely.
    * ``to_act(state)`` -> seats whose move the referee awaits.
    * ``result(state)`` -> ``None`` until the end, then
      ``{"winners": [...], "seats": [{"seat", "outcome", ...}], "reason": str, ...}``.
    * ``deadline(state)`` -> ms timestamp at which a ``timeout`` command
      becomes acceptable, or ``None``.
    * ``default_move(state, seat)`` -> the rule-defined default for that seat
      now (what a turn clock applies), or ``None`` if it owes nothing.
    * ``hidden(state, seat | None)`` -> identifiers (card IDs) that this seat
      must not find anywhere in what it receives right now; the shared leak
      tests scan every response for them.
    * ``invariants(state)`` -> list of broken invariants (empty when sound);
      the property tests call it after every step.
    ``decide``, ``decide_and_fold``, ``legal_moves``, ``to_act``, ``view``,
    ``public_view``, ``seat_part`` and the view encoders take the game's
    ``memo`` (``referee.engine.statecache.Memo``): the caller that loops
    over a game hands every call the same one, and the rules keep there
    what they derive from its states; ``None`` (the default) is a fresh
    one: the same results, only slower.

    Hooks with a default in :class:`referee.engine.base.RulesetBase` (a
    ruleset overrides only those it needs):

    * ``deadline(state)`` -> ``None`` (no clock of the rules' own);
    * ``default_options(state, seat)`` -> the moves a timeout's default is
      drawn from, uniformly with the game's generator, when the rules make it
      a random choice (BANG! R43); default: ``[default_move]``;
    * ``secrets(state)`` -> ``{name: value}`` of what the deal hides (read
      right after setup), and ``public_secrets(state, dealt)`` -> the names
      in ``dealt`` whose value everyone may see now, each judged on its own
      (``dealt`` holds only the secrets not opened yet): the service seals each secret at
      creation and opens a seal as soon as its secret is public; default:
      nothing sealed;
    * ``public_roles(state)`` -> each seat's role where everyone may see it
      (``None`` where hidden), and ``role_order``, the order tournaments
      rotate entrants through the public ones; default: no roles;
    * ``carry_option`` and ``carry_over(finished_state, players)``: a
      creation option naming a finished game whose outcome carries into the
      new one (BANG! R84: ``carry_characters_from``), and the options it
      sets; default: none.
    """

    @property
    def name(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def options_schema(self) -> Json: ...
    @property
    def role_order(self) -> tuple[str, ...]: ...
    @property
    def carry_option(self) -> str | None: ...
    @property
    def platform_rules(self) -> dict[str, str]: ...
    @property
    def previous_versions(self) -> Mapping[str, Any]: ...
    @property
    def text_keys(self) -> frozenset[str]: ...
    @property
    def move_schemas(self) -> dict[str, Json]: ...
    @property
    def move_checks(self) -> Mapping[str, SchemaCheck]: ...
    @property
    def encoders(self) -> tuple[Any, ...]: ...
    def check_move(self, move: Any) -> None: ...
    def canonical_move(self, move: Any) -> Any: ...
    @property
    def setup_schema(self) -> Json: ...
    @property
    def view_schema(self) -> Json: ...
    @property
    def event_schemas(self) -> dict[str, Json]: ...
    @property
    def event_types(self) -> Mapping[str, type]: ...
    def check_scenario(self, scenario: Any) -> None: ...

    def validate_options(self, options: Mapping[str, Any], players: int) -> dict[str, Any]: ...
    def setup(self, config: GameConfig, rng: Rng) -> list[Event]: ...
    def evolve(self, state: S | None, event: Event) -> S: ...
    def decide(self, state: S, actor: Seat | None, move: Move, *, rng: Rng, now: int,
               memo: Memo | None = None) -> list[Event]: ...
    def decide_and_fold(self, state: S, actor: Seat | None, move: Move, *, rng: Rng, now: int,
                        checked: bool = False, memo: Memo | None = None) -> tuple[list[Event], S]: ...
    def legal_moves(self, state: S, seat: Seat, *, memo: Memo | None = None) -> Sequence[Move]: ...
    def view(self, state: S, seat: Seat | None, *, memo: Memo | None = None) -> Json: ...
    def public_view(self, state: S, *, memo: Memo | None = None) -> Json: ...
    def seat_part(self, state: S, seat: Seat | None, *, memo: Memo | None = None) -> Json: ...
    def redact(self, event: Event, seat: Seat | None) -> Event | None: ...
    def to_act(self, state: S, *, memo: Memo | None = None) -> set[Seat]: ...
    def result(self, state: S) -> Json | None: ...
    def deadline(self, state: S) -> int | None: ...
    def default_move(self, state: S, seat: Seat) -> Move | None: ...
    def hidden(self, state: S, seat: Seat | None) -> set[str]: ...
    def invariants(self, state: S) -> list[str]: ...
    def default_options(self, state: S, seat: Seat) -> Sequence[Move]: ...
    def secrets(self, state: S) -> dict[str, Any]: ...
    def public_secrets(self, state: S, dealt: Mapping[str, Any]) -> set[str]: ...
    def public_roles(self, state: S) -> list[str | None] | None: ...
    def carry_over(self, finished: S, players: int) -> dict[str, Any]: ...
    def options_for(self, players: int) -> dict[str, Any]: ...

    def option_sets(self, players: int) -> list[dict[str, Any]]: ...


def fold(ruleset: Ruleset[S], events: list[Event], state: S | None = None) -> S:
    """Replay ``events`` over ``state`` (``None``: before setup, when the
    first event, the setup's, builds the state)."""
    evolve: Callable[[S | None, Event], S] = ruleset.evolve
    for event in events:
        state = evolve(state, event)
    return cast(S, state)


def seat_view(ruleset: Ruleset[S], state: S, seat: Seat | None, *, active: bool | None = None,
              memo: Memo | None = None) -> Json:
    """What one seat is shown of a game, as the API and every bot receive it:
    ``seat``, ``to_act``, ``legal_moves`` (only when ``seat`` is awaited),
    ``pending``, ``deadline``, ``result`` and the ruleset's ``state`` view
    (``memo``: the game's, as for the hooks)."""
    result = ruleset.result(state)
    if active is None:
        active = result is None
    to_act = sorted(ruleset.to_act(state, memo=memo)) if active else []
    body = dict(ruleset.view(state, seat, memo=memo))
    pending = body.pop("pending", None)
    return {
        "seat": seat, "to_act": to_act,
        "legal_moves": ruleset.legal_moves(state, seat, memo=memo)
        if active and seat is not None and seat in to_act else [],
        "pending": pending, "deadline": ruleset.deadline(state) if active else None,
        "result": result, "state": body,
    }


def default_options(ruleset: Ruleset[S], state: S, seat: Seat) -> list[Move]:
    """The moves the rule-defined default for ``seat`` is drawn from (one
    element: a fixed default; none: the seat owes nothing)."""
    return list(ruleset.default_options(state, seat))


def draw_default(ruleset: Ruleset[S], state: S, seat: Seat, rng: Rng) -> tuple[Move, int] | None:
    """The default move and how many options it was drawn from; the draw
    (``below(n)``, only when n > 1) comes from the game's generator, so an
    auditor can re-derive it."""
    options = default_options(ruleset, state, seat)
    if not options:
        return None
    return (options[rng.below(len(options))] if len(options) > 1 else options[0]), len(options)


def dealt_secrets(ruleset: Ruleset[Any], state: Any) -> Json:
    """``{name: value}`` of what the deal hides (empty for a ruleset that
    seals nothing), read from the state right after setup."""
    return dict(ruleset.secrets(state))


def newly_public(ruleset: Ruleset[S], state: S, dealt: Json, opened: frozenset[str]) -> list[str]:
    """The names of dealt secrets that are public in ``state`` and not opened
    yet, sorted: the service opens their seals now, the audit expects it."""
    if not dealt:
        return []
    closed = {name: value for name, value in dealt.items() if name not in opened} if opened else dealt
    if not closed:  # every seal opened: nothing left to ask
        return []
    return sorted(ruleset.public_secrets(state, closed) & closed.keys())


def openings(ruleset: Ruleset[S], state: S, dealt: Json, opened: frozenset[str], seed: str) -> Json:
    """``{name: {value, salt}}`` for every dealt secret that is public now and
    not opened yet (the data of a ``secrets_opened`` event)."""
    return {name: {"value": dealt[name], "salt": secret_salt(seed, name)}
            for name in newly_public(ruleset, state, dealt, opened)}


def seals(dealt: Json, seed: str) -> Json:
    """``{name: sha256_hex(salt + canonical(value))}`` of every dealt secret
    (the data of the ``secrets_sealed`` event, published at creation)."""
    return {name: commitment(secret_salt(seed, name), value) for name, value in dealt.items()}
