"""A ruleset made of modules (``ModularRuleset``): one that names its parts
once, as one ``Parts`` value, instead of a one-line delegation per method
and a one-line copy per published schema in each ruleset class ("one
shared mechanism beats four copies").

The parts are modules, each held by mypy to a protocol below (a module
implements a protocol with its functions and constants):

* ``options`` (where the ruleset keeps them in a module of their own):
  ``MIN_PLAYERS``, ``MAX_PLAYERS``, ``OPTIONS_SCHEMA`` and
  ``check_options(options, players)``;
* ``scenario``: ``setup(config, rng)`` and ``SETUP_SCHEMA``;
* ``moves``: ``MOVE_SCHEMAS``; ``schemas``: ``VIEW_SCHEMA`` and ``EVENT_SCHEMAS``;
* ``events``: ``evolve(state, event)``; ``event_types``: type -> its ``TypedDict``;
* ``views``: ``view(state, seat, memo)``, ``redact(event, seat)``, ``hidden(state, seat)``;
* ``prompts``: ``legal_moves(state, seat, memo)``, ``to_act(state, memo)``,
  ``default_move(state, seat)``;
* ``encoded`` (optional): the module of the view encoders
  (``referee.engine.encoded_views``), those of its functions that
  ``referee.engine.base.ENCODERS`` names;
* ``legacy``: the ``referee.engine.legacy.Legacy`` readers of earlier
  versions' logs, each under its own ``version`` (``previous_versions``).

What a ruleset says differently it still overrides as a method."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar, Protocol, cast

from referee.engine.base import ENCODERS, RulesetBase
from referee.engine.legacy import Legacy
from referee.engine.protocol import Event, GameConfig, Json, Move, S, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo


class OptionsPart(Protocol):
    """The table's size and the creation options: their schema and what it cannot say."""

    MIN_PLAYERS: int
    MAX_PLAYERS: int
    OPTIONS_SCHEMA: Json

    def check_options(self, options: dict[str, Any], players: int, /) -> dict[str, Any]: ...


class ScenarioPart(Protocol):
    """The opening: the scenario ``setup`` object's schema and the opening events."""

    SETUP_SCHEMA: Json

    def setup(self, config: GameConfig, rng: Rng, /) -> list[Event]: ...


class MovesPart(Protocol):
    """The published move schemas, by move type."""

    MOVE_SCHEMAS: dict[str, Json]


class SchemasPart(Protocol):
    """The published schemas of the view and of each event's ``data``."""

    VIEW_SCHEMA: Json
    EVENT_SCHEMAS: dict[str, Json]


class EventsPart(Protocol):
    """The fold of one recorded event."""

    def evolve(self, state: Any, event: Event, /) -> Any: ...


class ViewsPart(Protocol):
    """What a seat (``None``: a spectator) may see."""

    def view(self, state: Any, seat: Seat | None, memo: Memo | None, /) -> Json: ...

    def redact(self, event: Event, seat: Seat | None, /) -> Event | None: ...

    def hidden(self, state: Any, seat: Seat | None, /) -> set[str]: ...


class PromptsPart(Protocol):
    """Whose decision the referee awaits and its answers."""

    def legal_moves(self, state: Any, seat: Seat, memo: Memo | None, /) -> Sequence[Move]: ...

    def to_act(self, state: Any, memo: Memo | None, /) -> set[Seat]: ...

    def default_move(self, state: Any, seat: Seat, /) -> Move | None: ...


@dataclass(frozen=True)
class Parts:
    """The modules a ruleset is made of (see the module's docstring)."""

    scenario: ScenarioPart
    moves: MovesPart
    schemas: SchemasPart
    events: EventsPart
    event_types: Mapping[str, type]
    views: ViewsPart
    prompts: PromptsPart
    options: OptionsPart | None = None
    encoded: ModuleType | None = None
    legacy: tuple[type[Legacy], ...] = ()


class ModularRuleset(RulesetBase[S]):
    """``RulesetBase`` with its published schemas read from, and its
    required methods handed to, the ``parts`` the subclass names:
    ``parts = Parts(scenario=scenario, moves=moves, schemas=schemas,
    events=events, event_types=EVENT_TYPES, views=views, prompts=prompts)``."""

    parts: ClassVar[Parts]
    _scenario: ClassVar[ScenarioPart]
    _events: ClassVar[EventsPart]
    _views: ClassVar[ViewsPart]
    _prompts: ClassVar[PromptsPart]
    _options: ClassVar[OptionsPart | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Read the parts a subclass names (one that names none inherits its base's as they are)."""
        super().__init_subclass__(**kwargs)
        parts = cls.__dict__.get("parts")
        if not isinstance(parts, Parts):
            return
        cls._scenario, cls._events, cls._views, cls._prompts = parts.scenario, parts.events, parts.views, parts.prompts
        cls.setup_schema = parts.scenario.SETUP_SCHEMA
        cls.move_schemas = parts.moves.MOVE_SCHEMAS
        cls.view_schema = parts.schemas.VIEW_SCHEMA
        cls.event_schemas = parts.schemas.EVENT_SCHEMAS
        cls.event_types = parts.event_types
        cls.previous_versions = {legacy.version: legacy for legacy in parts.legacy}
        for hook in ENCODERS if parts.encoded is not None else ():
            encoder = getattr(parts.encoded, hook, None)
            if encoder is not None:
                setattr(cls, hook, staticmethod(encoder))
        if parts.options is not None:
            cls._options = parts.options
            cls.min_players, cls.max_players = parts.options.MIN_PLAYERS, parts.options.MAX_PLAYERS
            cls.options_schema = parts.options.OPTIONS_SCHEMA

    def check_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """The options part's ``check_options`` (defaults filled in), if the ruleset names one."""
        return options if self._options is None else self._options.check_options(options, players)

    def setup(self, config: GameConfig, rng: Rng) -> list[Event]:
        """The opening events: the scenario's ``setup``."""
        return self._scenario.setup(config, rng)

    def evolve(self, state: S | None, event: Event) -> S:
        """Apply one recorded event (a log starts with the setup's, which builds the state from ``None``)."""
        return cast(S, self._events.evolve(state, event))

    def legal_moves(self, state: S, seat: Seat, *, memo: Memo | None = None) -> Sequence[Move]:
        return self._prompts.legal_moves(state, seat, memo)

    def to_act(self, state: S, *, memo: Memo | None = None) -> set[Seat]:
        return self._prompts.to_act(state, memo)

    def default_move(self, state: S, seat: Seat) -> Move | None:
        return self._prompts.default_move(state, seat)

    def view(self, state: S, seat: Seat | None, *, memo: Memo | None = None) -> Json:
        return self._views.view(state, seat, memo)

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        return self._views.redact(event, seat)

    def hidden(self, state: S, seat: Seat | None) -> set[str]:
        return self._views.hidden(state, seat)
