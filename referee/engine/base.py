"""The base every ruleset builds on (``referee.engine.protocol.Ruleset``):
the required methods, and the optional hooks with their defaults, so the
platform never discovers a hook with ``getattr``."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Mapping, Sequence

from referee.engine.protocol import Event, GameConfig, InvalidSetup, Json, MalformedMove, Move, Seat, fold
from referee.engine.rng import Rng
from referee.engine.schema import first_refusal


class RulesetBase(ABC):
    """Subclass it, set the class attributes, implement the abstract methods
    (a subclass that misses one cannot be instantiated) and override the
    hooks the rules need; ``RULESET = MyRuleset()`` in the package is what
    the registry serves."""

    name: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_schema: ClassVar[Json] = {"type": "object", "properties": {}, "additionalProperties": False}
    #: move type -> the JSON Schema of the whole move object (published and enforced)
    move_schemas: ClassVar[dict[str, Json]] = {}
    #: the view's ``state`` (what ``view`` returns, less ``pending``), as JSON Schema ({}: not declared yet)
    view_schema: ClassVar[Json] = {}
    #: event type -> the JSON Schema of its ``data``, as stored and as redacted for any seat
    event_schemas: ClassVar[dict[str, Json]] = {}
    #: the scenario ``setup`` object: every field, its default, what leaving it out means
    setup_schema: ClassVar[Json] = {"type": "object", "additionalProperties": False, "properties": {},
                                    "description": "This ruleset takes no scenario."}
    #: the order tournaments rotate entrants through the public roles (none: seats rotate)
    role_order: ClassVar[tuple[str, ...]] = ()
    #: a creation option naming a finished game that carries into the new one (see ``carry_over``)
    carry_option: ClassVar[str | None] = None
    #: the rule IDs of the refusals the platform makes for the ruleset:
    #: ``game_over`` (a move after the end), ``player_count`` (at creation)
    platform_rules: ClassVar[dict[str, str]] = {}

    # -- options: the published schema is what is enforced ------------------------
    def validate_options(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        """Validate ``options`` against ``options_schema`` (the schema ``GET
        /v1/rulesets`` publishes), then ``check_options``. A refusal names the
        option and the rule in its property's ``x-rule``."""
        if not isinstance(options, Mapping):
            raise InvalidSetup("invalid_options", detail="options must be an object")
        refused = first_refusal(self.options_schema, dict(options), "options")
        if refused is not None:
            raise InvalidSetup("invalid_options", rule=refused[0], detail=refused[1])
        return self.check_options(dict(options), players)

    def check_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """What the schema cannot say (a seat below ``players``…) and the
        defaults filled in; default: the options as given."""
        return options

    # -- scenarios: the published schema is what is enforced -----------------------
    def check_scenario(self, scenario: Any) -> None:
        """``InvalidSetup`` (422, naming the field and its rule) unless the
        scenario ``setup`` matches ``setup_schema``; the ruleset's ``setup``
        then checks what a schema cannot (a card in two places…)."""
        if scenario is None:
            return
        refused = first_refusal(self.setup_schema, scenario, "setup")
        if refused is not None:
            raise InvalidSetup("invalid_setup", rule=refused[0], detail=refused[1])

    # -- moves: the published schemas are what is enforced -----------------------
    def check_move(self, move: Any) -> None:
        """``MalformedMove`` (400, with the move's rule) unless ``move`` is an
        object whose ``type`` is in ``move_schemas`` and that matches its
        schema; the service checks every move so before ``decide``."""
        if not self.move_schemas:
            return
        if not isinstance(move, dict) or move.get("type") not in self.move_schemas:
            kind = move.get("type") if isinstance(move, dict) else None
            raise MalformedMove("malformed_move", detail=f"unknown move type {kind!r}; one of "
                                f"{', '.join(sorted(self.move_schemas))}")
        refused = first_refusal(self.move_schemas[move["type"]], move, f"a {move['type']} move")
        if refused is not None:
            raise MalformedMove("malformed_move", rule=refused[0], detail=refused[1])

    # -- required -------------------------------------------------------------

    @abstractmethod
    def setup(self, config: GameConfig, rng: Rng) -> list[Event]:
        """The opening events (the state starts as ``None``)."""

    @abstractmethod
    def evolve(self, state: Any, event: Event) -> Any:
        """The next state; never validates, never raises, never mutates its input."""

    @abstractmethod
    def decide(self, state: Any, actor: Seat | None, move: Move, *, rng: Rng, now: int) -> list[Event]:
        """The events ``move`` by ``actor`` causes, or a refusal (``RefereeError``)."""

    @abstractmethod
    def legal_moves(self, state: Any, seat: Seat) -> Sequence[Move]:
        """Every move ``seat`` may send now, each complete, in a stable order."""

    @abstractmethod
    def view(self, state: Any, seat: Seat | None) -> Json:
        """What ``seat`` (``None``: a spectator) may see; ``pending`` holds the prompt."""

    @abstractmethod
    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        """The event as ``seat`` may see it, or ``None`` to hide it."""

    @abstractmethod
    def to_act(self, state: Any) -> set[Seat]:
        """The seats whose move the referee awaits."""

    @abstractmethod
    def result(self, state: Any) -> Json | None:
        """``None`` until the end, then winners, per-seat outcome and reason."""

    @abstractmethod
    def default_move(self, state: Any, seat: Seat) -> Move | None:
        """The rule-defined default of ``seat`` now, or ``None``."""

    @abstractmethod
    def hidden(self, state: Any, seat: Seat | None) -> set[str]:
        """Identifiers ``seat`` must not find in anything it receives now."""

    @abstractmethod
    def invariants(self, state: Any) -> list[str]:
        """The broken invariants of ``state`` (none: sound)."""

    # -- hooks with defaults -----------------------------------------------------
    def decide_and_fold(self, state: Any, actor: Seat | None, move: Move, *, rng: Rng, now: int
                        ) -> tuple[list[Event], Any]:
        """``decide`` and the state its events fold to, in one pass where the
        ruleset's decision already folded them (override); default: decide,
        then fold."""
        events = self.decide(state, actor, move, rng=rng, now=now)
        return events, fold(self, events, state)

    def deadline(self, state: Any) -> int | None:
        """When a ``timeout`` command becomes acceptable; default: never (no clock of the rules' own)."""
        return None

    def default_options(self, state: Any, seat: Seat) -> Sequence[Move]:
        """The moves a timeout's default is drawn from; default: the one ``default_move``."""
        fixed = self.default_move(state, seat)
        return [] if fixed is None else [fixed]

    def secrets(self, state: Any) -> dict[str, Any]:
        """What the deal hides, by name (sealed at creation); default: nothing."""
        return {}

    def public_secrets(self, state: Any, dealt: Mapping[str, Any]) -> set[str]:
        """The names in ``dealt`` everyone may see now (opened at once); default: none."""
        return set()

    def public_roles(self, state: Any) -> list[str | None] | None:
        """Each seat's role where public, ``None`` where hidden; default: the ruleset has no roles."""
        return None

    def options_for(self, players: int) -> dict[str, Any]:
        """The options a game of ``players`` needs to be playable at all (the
        conformance suite, benches and tools use them); default: none."""
        return {}

    def carry_over(self, finished: Any, players: int) -> dict[str, Any]:
        """The options a new game of ``players`` takes from the game named by
        ``carry_option`` (its state; it is of this ruleset); ``InvalidSetup``
        when that game cannot carry over (not over, another size…)."""
        raise InvalidSetup("invalid_options", detail=f"{self.name} carries nothing from a previous game")
