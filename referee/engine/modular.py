"""A ruleset made of modules (``ModularRuleset``): one that names its parts
once, as class keywords, instead of a one-line delegation per method in
each ruleset class ("one shared mechanism beats four copies").

The parts are modules, each held by mypy to a protocol below (a module
implements a protocol with its functions and constants):

* ``options`` (where the ruleset keeps them in a module of their own):
  ``MIN_PLAYERS``, ``MAX_PLAYERS``, ``OPTIONS_SCHEMA`` and
  ``check_options(options, players)``;
* ``scenario``: ``setup(config, rng)`` and ``SETUP_SCHEMA``;
* ``moves``: ``MOVE_SCHEMAS``; ``schemas``: ``VIEW_SCHEMA`` and ``EVENT_SCHEMAS``;
* ``events``: ``evolve(state, event)``;
* ``views``: ``view(state, seat, memo)``, ``redact(event, seat)``, ``hidden(state, seat)``;
* ``prompts``: ``legal_moves(state, seat, memo)``, ``to_act(state, memo)``,
  ``default_move(state, seat)``.

What a ruleset says differently it still overrides as a method."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

from referee.engine.base import RulesetBase
from referee.engine.protocol import Event, GameConfig, Json, Move, S, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo


class OptionsPart(Protocol):
    """The table's size and the creation options: their schema and what it cannot say."""

    @property
    def MIN_PLAYERS(self) -> int: ...

    @property
    def MAX_PLAYERS(self) -> int: ...

    @property
    def OPTIONS_SCHEMA(self) -> Json: ...

    def check_options(self, options: dict[str, Any], players: int, /) -> dict[str, Any]: ...


class ScenarioPart(Protocol):
    """The opening: the scenario ``setup`` object's schema and the opening events."""

    @property
    def SETUP_SCHEMA(self) -> Json: ...

    def setup(self, config: GameConfig, rng: Rng, /) -> list[Event]: ...


class MovesPart(Protocol):
    """The published move schemas, by move type."""

    @property
    def MOVE_SCHEMAS(self) -> dict[str, Json]: ...


class SchemasPart(Protocol):
    """The published schemas of the view and of each event's ``data``."""

    @property
    def VIEW_SCHEMA(self) -> Json: ...

    @property
    def EVENT_SCHEMAS(self) -> dict[str, Json]: ...


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


class ModularRuleset(RulesetBase[S]):
    """``RulesetBase`` with its published schemas read from, and its
    required methods handed to, the parts the subclass names:
    ``class MyRuleset(ModularRuleset[State], scenario=scenario, moves=moves,
    schemas=schemas, events=events, views=views, prompts=prompts,
    event_types=EVENT_TYPES)``."""

    _options: OptionsPart | None = None
    _scenario: ScenarioPart
    _events: EventsPart
    _views: ViewsPart
    _prompts: PromptsPart

    def __init_subclass__(cls, *, scenario: ScenarioPart, moves: MovesPart, schemas: SchemasPart,
                          events: EventsPart, views: ViewsPart, prompts: PromptsPart,
                          event_types: Mapping[str, type], options: OptionsPart | None = None,
                          **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if options is not None:
            cls._options = options
            cls.min_players, cls.max_players = options.MIN_PLAYERS, options.MAX_PLAYERS
            cls.options_schema = options.OPTIONS_SCHEMA
        cls._scenario, cls._events, cls._views, cls._prompts = scenario, events, views, prompts
        cls.setup_schema = scenario.SETUP_SCHEMA
        cls.move_schemas = moves.MOVE_SCHEMAS
        cls.view_schema = schemas.VIEW_SCHEMA
        cls.event_schemas = schemas.EVENT_SCHEMAS
        cls.event_types = event_types

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
