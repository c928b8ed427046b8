"""The base every ruleset builds on (``referee.engine.protocol.Ruleset``):
the required methods, and the optional hooks with their defaults, so the
platform never discovers a hook with ``getattr``."""
from __future__ import annotations

from typing import Any, ClassVar, Mapping

from referee.engine.protocol import Event, GameConfig, InvalidSetup, Json, Move, Seat
from referee.engine.rng import Rng


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
    #: the order tournaments rotate entrants through the public roles (none: seats rotate)
    role_order: ClassVar[tuple[str, ...]] = ()
    #: a creation option naming a finished game that carries into the new one (see ``carry_over``)
    carry_option: ClassVar[str | None] = None
    #: the rule IDs of the refusals the platform makes for the ruleset:
    #: ``game_over`` (a move after the end), ``player_count`` (at creation)
    platform_rules: ClassVar[dict[str, str]] = {}

    # -- required -------------------------------------------------------------
    def validate_options(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        raise NotImplementedError

    def setup(self, config: GameConfig, rng: Rng) -> list[Event]:
        raise NotImplementedError

    def evolve(self, state: Any, event: Event) -> Any:
        raise NotImplementedError

    def decide(self, state: Any, actor: Seat | None, move: Move, *, rng: Rng, now: int) -> list[Event]:
        raise NotImplementedError

    def legal_moves(self, state: Any, seat: Seat) -> list[Move]:
        raise NotImplementedError

    def view(self, state: Any, seat: Seat | None) -> Json:
        raise NotImplementedError

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        raise NotImplementedError

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

    def default_options(self, state: Any, seat: Seat) -> list[Move]:
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

    def carry_over(self, finished: Any, players: int) -> dict[str, Any]:
        """The options a new game of ``players`` takes from the game named by
        ``carry_option`` (its state; it is of this ruleset); ``InvalidSetup``
        when that game cannot carry over (not over, another size…)."""
        raise InvalidSetup("invalid_options", detail=f"{self.name} carries nothing from a previous game")
