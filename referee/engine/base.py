"""The base every ruleset builds on (``referee.engine.protocol.Ruleset``):
the required methods, and the optional hooks with their defaults, so the
platform never discovers a hook with ``getattr``."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar, Mapping, Sequence

from jsonschema import Draft202012Validator

from referee.engine.protocol import Event, GameConfig, InvalidSetup, Json, MalformedMove, Move, Seat, fold
from referee.engine.rng import Rng


@lru_cache(maxsize=64)
def _compiled(schema_text: str) -> Draft202012Validator:
    import json
    return Draft202012Validator(json.loads(schema_text))


def _validator(schema: Json) -> Draft202012Validator:
    import json
    return _compiled(json.dumps(schema, sort_keys=True))


def first_refusal(schema: Json, value: Any, root: str) -> tuple[str | None, str] | None:
    """``(rule, detail)`` of the first place where ``value`` breaks ``schema``
    (``None``: it matches). The rule is the ``x-rule`` of the top-level
    property at fault, else the schema's own; the detail names the field."""
    error = min(_validator(schema).iter_errors(value), key=lambda e: [str(p) for p in e.path], default=None)
    if error is None:
        return None
    props = schema.get("properties", {})
    name = str(error.path[0]) if error.path else None
    if name is None and error.validator == "additionalProperties" and isinstance(value, dict):
        name = next((k for k in value if k not in props), None)
    rule = props.get(name, {}).get("x-rule", schema.get("x-rule")) if name is not None else schema.get("x-rule")
    where = ".".join([root, *(str(p) for p in error.path)]) if error.path else root
    return rule, f"{where}: {error.message}"


class RulesetBase:
    """Subclass it, set the class attributes, implement the required methods
    (they raise ``NotImplementedError`` here) and override the hooks the
    rules need; ``RULESET = MyRuleset()`` in the package is what the registry
    serves."""

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

    def setup(self, config: GameConfig, rng: Rng) -> list[Event]:
        raise NotImplementedError

    def evolve(self, state: Any, event: Event) -> Any:
        raise NotImplementedError

    def decide(self, state: Any, actor: Seat | None, move: Move, *, rng: Rng, now: int) -> list[Event]:
        raise NotImplementedError

    def legal_moves(self, state: Any, seat: Seat) -> Sequence[Move]:
        raise NotImplementedError

    def view(self, state: Any, seat: Seat | None) -> Json:
        raise NotImplementedError

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        raise NotImplementedError

    def decide_and_fold(self, state: Any, actor: Seat | None, move: Move, *, rng: Rng, now: int
                        ) -> tuple[list[Event], Any]:
        """``decide`` and the state its events fold to, in one pass where the
        ruleset's decision already folded them (override); default: decide,
        then fold."""
        events = self.decide(state, actor, move, rng=rng, now=now)
        return events, fold(self, events, state)

    def to_act(self, state: Any) -> set[Seat]:
        raise NotImplementedError

    def result(self, state: Any) -> Json | None:
        raise NotImplementedError

    def default_move(self, state: Any, seat: Seat) -> Move | None:
        raise NotImplementedError

    def hidden(self, state: Any, seat: Seat | None) -> set[str]:
        raise NotImplementedError

    def invariants(self, state: Any) -> list[str]:
        raise NotImplementedError

    # -- hooks with defaults -----------------------------------------------------
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
