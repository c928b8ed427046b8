"""The base every ruleset builds on (``referee.engine.protocol.Ruleset``):
the required methods, and the optional hooks with their defaults, so the
platform never discovers a hook with ``getattr``."""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar, Generic

from referee.engine.protocol import (
    Event,
    GameConfig,
    IllegalMove,
    InvalidSetup,
    Json,
    MalformedMove,
    Move,
    OutOfTurn,
    S,
    Seat,
)
from referee.engine.rng import Rng
from referee.engine.schema import SchemaCheck, first_refusal
from referee.engine.statecache import Memo

#: the view encoders a ruleset may define (``referee.engine.encoded_views``), in the order of ``encoders``
ENCODERS = ("public_bytes", "seat_bytes", "encoded_seat", "seat_encoded", "every_seat")
#: the system's own command (``decide_and_fold``), well-formed in every ruleset
TIMEOUT: Json = {"type": "timeout"}


def _has_float(value: Any) -> bool:
    """Whether a JSON value holds a float anywhere."""
    kind = type(value)
    if kind is float:
        return True
    if kind is dict:
        return any(_has_float(v) for v in value.values())
    if kind is list:
        return any(_has_float(v) for v in value)
    return False


def _integral(value: Any) -> Any:
    """``value`` with every integral float made an int (``2.0`` -> ``2``)."""
    kind = type(value)
    if kind is float and value.is_integer():
        return int(value)
    if kind is dict:
        return {k: _integral(v) for k, v in value.items()}
    if kind is list:
        return [_integral(v) for v in value]
    return value


class RulesetBase(ABC, Generic[S]):
    """Subclass it, set the class attributes, implement the abstract methods
    (a subclass that misses one cannot be instantiated) and override the
    hooks the rules need; ``RULESET = MyRuleset()`` in the package is what
    the registry serves. ``S`` is the state the ruleset folds: declare
    ``class MyRuleset(RulesetBase[State])`` and mypy holds every method to it."""

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
    #: event type -> the ``TypedDict`` (every field ``ReadOnly``) its ``data`` is, as stored:
    #: what mypy holds the ruleset's ``evolve`` to, and what its ``event_schemas`` must agree
    #: with (``referee.engine.eventtypes``)
    event_types: ClassVar[Mapping[str, type]] = {}
    #: the scenario ``setup`` object: every field, its default, what leaving it out means
    setup_schema: ClassVar[Json] = {"type": "object", "additionalProperties": False, "properties": {},
                                    "description": "This ruleset takes no scenario."}
    #: the order tournaments rotate entrants through the public roles (none: seats rotate)
    role_order: ClassVar[tuple[str, ...]] = ()
    #: a creation option naming a finished game that carries into the new one (see ``carry_over``)
    carry_option: ClassVar[str | None] = None
    #: the rule IDs of the refusals the platform and the shared checks make
    #: for the ruleset: ``game_over`` (a move after the end), ``player_count``
    #: (at creation and for a seat that does not exist), ``turn`` (a move from
    #: a seat the referee does not await, or from no seat), ``timeout`` (the
    #: system's command: who may send it and when)
    platform_rules: ClassVar[dict[str, str]] = {}
    #: the earlier versions whose logs this one still audits: version ->
    #: a ``referee.engine.legacy.Legacy`` subclass (docs/vocabulary.md)
    previous_versions: ClassVar[Mapping[str, Any]] = {}
    #: keys whose strings in views and events are not identifiers (a drawn
    #: map, a board row): ``referee.engine.vocabulary`` skips them
    text_keys: ClassVar[frozenset[str]] = frozenset()
    #: event type -> its phrase for the watch page (``{key}``: data at key); else its package's ``phrases.PHRASES``
    phrases: ClassVar[Mapping[str, str]] = {}

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

    @cached_property
    def encoders(self) -> tuple[Any, ...]:
        """The ruleset's own view encoders (``referee.engine.encoded_views``),
        ``None`` where it has none, looked up once per ruleset object."""
        return tuple(getattr(self, name, None) for name in ENCODERS)

    # -- moves: the published schemas are what is enforced -----------------------
    @cached_property
    def move_checks(self) -> dict[str, SchemaCheck]:
        """Move type -> its schema's checks, made once per ruleset object
        (``registry.get`` asks as it loads a ruleset, so a game's first moves
        compile nothing)."""
        return {kind: SchemaCheck(schema) for kind, schema in self.move_schemas.items()}

    def check_move(self, move: Any) -> None:
        """``MalformedMove`` (400, with the move's rule) unless ``move`` is an
        object whose ``type`` is in ``move_schemas`` and that matches its
        schema; the service checks every move so, once, at the boundary, and
        hands ``decide_and_fold`` the move as checked (``checked=True``).
        A match is found by the schema's compiled check; a refusal is named
        by jsonschema, the reference, which has the last word."""
        if not self.move_schemas or move == TIMEOUT:  # the system's command, in every ruleset
            return
        if not isinstance(move, dict) or move.get("type") not in self.move_schemas:
            kind = move.get("type") if isinstance(move, dict) else None
            raise MalformedMove("malformed_move", detail=f"unknown move type {kind!r}; one of "
                                f"{', '.join(sorted(self.move_schemas))}")
        check = self.move_checks[move["type"]]
        if check.matches(move):
            return
        refused = check.first_refusal(move, f"a {move['type']} move")
        if refused is not None:
            raise MalformedMove("malformed_move", rule=refused[0], detail=refused[1])

    def canonical_move(self, move: Any) -> Any:
        """The one boundary of every move, a person's or a bot's: ``move``
        checked against its published schema (``check_move``: a 400
        ``malformed_move`` otherwise) and returned canonical, every number
        written as an integral float (``2.0``, an integer to JSON Schema)
        made the integer it stands for. A boolean is never a number (the
        schema refuses ``true`` where it says integer), so the canonical
        move is what the rules read, what the log records and what a bot's
        answer is compared with, byte for byte (``canonical_bytes``)."""
        self.check_move(move)
        return _integral(move) if _has_float(move) else move

    # -- required -------------------------------------------------------------

    @abstractmethod
    def setup(self, config: GameConfig, rng: Rng) -> list[Event]:
        """The opening events (the state starts as ``None``)."""

    @abstractmethod
    def evolve(self, state: S | None, event: Event) -> S:
        """The next state; never validates, never raises, never mutates its input."""

    @abstractmethod
    def play(self, state: S, actor: Seat, move: Any, *, rng: Rng, now: int,
             memo: Memo | None = None) -> tuple[list[Event], S]:
        """The events ``move`` (as ``parse_move`` gave it) by ``actor`` causes and the state they fold to,
        or a refusal (``RefereeError``); ``memo``: the game's (``referee.engine.statecache``),
        where the legal moves a view listed may be found again. Called only past the shared checks
        of ``decide_and_fold``: the game is on, ``move`` is not ``timeout``,
        ``actor`` is a seat of this game and one the referee awaits."""

    @abstractmethod
    def legal_moves(self, state: S, seat: Seat, *, memo: Memo | None = None) -> Sequence[Move]:
        """Every move ``seat`` may send now, each complete, in a stable order
        (``memo``: the game's, ``referee.engine.statecache``; ``None``: a fresh one)."""

    @abstractmethod
    def view(self, state: S, seat: Seat | None, *, memo: Memo | None = None) -> Json:
        """What ``seat`` (``None``: a spectator) may see; ``pending`` holds the prompt
        (``memo`` as for ``legal_moves``)."""

    @abstractmethod
    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        """The event as ``seat`` may see it, or ``None`` to hide it."""

    @abstractmethod
    def to_act(self, state: S, *, memo: Memo | None = None) -> set[Seat]:
        """The seats whose move the referee awaits."""

    @abstractmethod
    def result(self, state: S) -> Json | None:
        """``None`` until the end, then winners, per-seat outcome and reason."""

    @abstractmethod
    def default_move(self, state: S, seat: Seat) -> Move | None:
        """The rule-defined default of ``seat`` now, or ``None``."""

    @abstractmethod
    def hidden(self, state: S, seat: Seat | None) -> set[str]:
        """Identifiers ``seat`` must not find in anything it receives now."""

    @abstractmethod
    def invariants(self, state: S) -> list[str]:
        """The broken invariants of ``state`` (none: sound)."""

    # -- the decision: shared checks, then the ruleset's ``play`` -----------------
    def decide(self, state: S, actor: Seat | None, move: Move, *, rng: Rng, now: int,
               memo: Memo | None = None) -> list[Event]:
        """The events ``move`` by ``actor`` causes, or a refusal (``RefereeError``)."""
        return self.decide_and_fold(state, actor, move, rng=rng, now=now, memo=memo)[0]

    def decide_and_fold(self, state: S, actor: Seat | None, move: Move, *, rng: Rng, now: int,
                        checked: bool = False, memo: Memo | None = None) -> tuple[list[Event], S]:
        """``decide`` and the state its events fold to. The checks every
        ruleset shares, in this order, each refusal naming the ruleset's rule
        (``platform_rules``), then ``play`` (or ``on_timeout``):

        0. the move's shape (``parse_move``: ``malformed_move``, 400); a
           move ``checked`` against ``move_schemas`` already (the service's
           ``check_move``) is only read (``read_move``), not checked again;
        1. a move after the end: ``game_over`` (422);
        2. ``timeout`` is the system's own command (``system_command``, 403),
           accepted only while ``deadline`` is set (``no_deadline``) and at
           or after it (``deadline_not_reached``);
        3. any other move needs a seat (``seat_required``, 403) of this game
           (``no_such_seat``, 403);
        4. from a seat the referee does not await now (``to_act``):
           ``refuse_out_of_turn`` (default ``not_your_turn``, 403).

        A seat the referee awaits is never refused as out of turn: what
        ``play`` refuses it is a 422 (``IllegalMove``), whichever class the
        ruleset raised (issue 36 item 8: Bluffaneer's roller, awaited to
        roll, who claimed got a 403).

        ``memo``: the game's (``referee.engine.statecache``), handed to ``play``.
        """
        parsed = self.read_move(move) if checked else self.parse_move(move)
        if state is None or self.result(state) is not None:
            raise IllegalMove("game_over", rule=self.platform_rules.get("game_over", ""),
                              detail="the game is over" if state is not None else "the game has not been set up")
        kind = move.get("type") if isinstance(move, dict) else None
        if kind == "timeout":
            return self._timed_out(state, actor, rng=rng, now=now)
        # check 3's usual case inline (a seat number, never a bool, below the count): it runs at every move
        count = self.seats(state) if type(actor) is int else None
        if type(actor) is not int or actor < 0 or (count is not None and actor >= count):
            actor = self._seat_of(state, actor, kind)
        if actor not in self.to_act(state, memo=memo):
            raise self.refuse_out_of_turn(state, actor, parsed)
        try:
            return self.play(state, actor, parsed, rng=rng, now=now, memo=memo)
        except OutOfTurn as refused:  # the seat is awaited: the rules refuse the move, not the seat
            raise IllegalMove(refused.code, rule=refused.rule or "", detail=refused.detail) from None

    def _timed_out(self, state: S, actor: Seat | None, *, rng: Rng, now: int) -> tuple[list[Event], S]:
        """Check 2 of ``decide_and_fold``: ``timeout``, the system's own command, at or after the open deadline."""
        rules = self.platform_rules
        if actor is not None:
            raise OutOfTurn("system_command", rule=rules.get("timeout", ""),
                            detail="timeout is the referee's own command, not a player's move")
        due = self.deadline(state)
        if due is None:
            raise IllegalMove("no_deadline", rule=rules.get("timeout", ""),
                              detail="no deadline of the rules is open: nothing can time out")
        if now < due:
            raise IllegalMove("deadline_not_reached", rule=rules.get("timeout", ""),
                              detail=f"received at {now}, before the deadline {due}")
        return self.on_timeout(state, rng=rng, now=now)

    def _seat_of(self, state: S, actor: Seat | None, kind: Any) -> Seat:
        """Check 3 of ``decide_and_fold``: any other move comes from a seat of this game (``actor``)."""
        rules = self.platform_rules
        if actor is None:
            raise OutOfTurn("seat_required", rule=rules.get("turn", ""),
                            detail=f"a {kind} move needs a seat")
        count = self.seats(state)
        if isinstance(actor, bool) or not isinstance(actor, int) or actor < 0 or (count is not None and actor >= count):
            raise OutOfTurn("no_such_seat", rule=rules.get("player_count", ""), detail=f"there is no seat {actor!r}")
        return actor

    # -- hooks with defaults -----------------------------------------------------
    def parse_move(self, move: Any) -> Any:
        """``move`` in the form ``play`` and ``refuse_out_of_turn`` take, or
        ``MalformedMove`` unless it has one of the declared shapes; first of
        the checks in ``decide``. Default: ``check_move`` (the published
        schemas), and the move as it is, a number sent as ``2.0`` read as
        the integer JSON Schema takes it for (so ``play`` never meets a
        float where the schema says integer). A ruleset with a parser of its
        own overrides it (the conformance suite holds the parser to the
        schemas); the service checks every move against the schemas before
        ``decide`` whatever this does."""
        self.check_move(move)
        return _integral(move) if _has_float(move) else move

    def read_move(self, move: Any) -> Any:
        """``parse_move`` for a move that matches ``move_schemas`` already:
        the same answer, without the checks the schema made.
        ``move_from_checked`` does what is left; a move with a number sent
        as a float (``2.0``: an integer to JSON Schema, not to every parser)
        goes through ``parse_move`` whole, for its exact answer. The
        conformance suite holds the two paths to one answer."""
        if _has_float(move):
            return self.parse_move(move)
        return self.move_from_checked(move)

    def move_from_checked(self, move: Json) -> Any:
        """A move that matches its schema (and holds no float) in the form
        ``play`` takes, with only the checks no JSON Schema states (e.g. a
        card that needs a target); default: the move as it is."""
        return move

    def refuse_out_of_turn(self, state: S, actor: Seat, move: Any) -> IllegalMove:
        """The refusal of ``move`` from ``actor``, a seat the referee does not
        await now; override to name a more precise rule (the roller who may
        not claim, F17); default: ``not_your_turn`` under ``platform_rules['turn']``."""
        return OutOfTurn("not_your_turn", rule=self.platform_rules.get("turn", ""),
                         detail=f"the referee awaits seat(s) {sorted(self.to_act(state))}, not seat {actor}")

    def on_timeout(self, state: S, *, rng: Rng, now: int) -> tuple[list[Event], S]:
        """The system's ``timeout`` at or after ``deadline(state)``: the events
        and the state they fold to. Reached only through a ``deadline``, so a
        ruleset without a clock of its own never is; default: the refusal a
        clockless ruleset gives."""
        raise IllegalMove("no_deadline", rule=self.platform_rules.get("timeout", ""),
                          detail="the rules have no clock: nothing can time out")

    def public_view(self, state: S, *, memo: Memo | None = None) -> Json:
        """The members of every view that every viewer (each seat and the
        spectator) sees alike, encoded once per version and shared
        (``referee.engine.encoded_views``); never ``pending``. Override
        together with ``seat_part``: ``view(state, seat) == {**public_view(state),
        **seat_part(state, seat)}``, their keys disjoint (``memo`` as for
        ``legal_moves``); default: nothing shared."""
        return {}

    def seat_part(self, state: S, seat: Seat | None, *, memo: Memo | None = None) -> Json:
        """The members of ``seat``'s view that are its own (see
        ``public_view``); default: the whole view."""
        return self.view(state, seat, memo=memo)

    def seats(self, state: S) -> int | None:
        """How many seats ``state`` has, for the ``no_such_seat`` refusal;
        default ``None`` (not told): a seat beyond the table, never awaited,
        is refused as one not awaited."""
        return None

    def deadline(self, state: S) -> int | None:
        """When a ``timeout`` command becomes acceptable; default: never (no clock of the rules' own)."""
        return None

    def turn_seat(self, state: S) -> Seat | None:
        """The seat whose turn it is, for a game's clock (docs/clocks.md): its waits
        are charged to its bank, any other seat's is a reaction; default: the
        state's ``turn`` (``None``: every wait is a turn)."""
        turn = getattr(state, "turn", None)
        return turn if type(turn) is int else None

    def default_options(self, state: S, seat: Seat) -> Sequence[Move]:
        """The moves a timeout's default is drawn from; default: the one ``default_move``."""
        fixed = self.default_move(state, seat)
        return [] if fixed is None else [fixed]

    def secrets(self, state: S) -> dict[str, Any]:
        """What the deal hides, by name (sealed at creation); default: nothing."""
        return {}

    def public_secrets(self, state: S, dealt: Mapping[str, Any]) -> set[str]:
        """The names in ``dealt`` everyone may see now (opened at once), each
        judged on its own: ``dealt`` holds only the secrets not opened yet
        (``engine.protocol.newly_public``); default: none."""
        return set()

    def public_roles(self, state: S) -> list[str | None] | None:
        """Each seat's role where public, ``None`` where hidden; default: the ruleset has no roles."""
        return None

    def options_for(self, players: int) -> dict[str, Any]:
        """The options a game of ``players`` needs to be playable at all (the
        conformance suite, benches and tools use them); default: none."""
        return {}

    def option_sets(self, players: int) -> list[dict[str, Any]]:
        """The option combinations the conformance suite and ``make soak``
        play at ``players`` (each merged over ``options_for``); override to
        cover a ruleset's modules; default: the game with no options."""
        return [{}]

    def carry_over(self, finished: S, players: int) -> dict[str, Any]:
        """The options a new game of ``players`` takes from the game named by
        ``carry_option`` (its state; it is of this ruleset); ``InvalidSetup``
        when that game cannot carry over (not over, another size…)."""
        raise InvalidSetup("invalid_options", detail=f"{self.name} carries nothing from a previous game")
