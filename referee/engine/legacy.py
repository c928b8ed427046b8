"""An earlier version of a ruleset, kept for the logs it wrote
(docs/vocabulary.md: a ruleset's version changes where its events change, and old
logs stay auditable under their version).

A ``Legacy`` is the current rules translated at their edges, not a second copy
of them: what the earlier version recorded differs from today's only in its
words (an identifier's spelling, a result's ``detail``), never in what the
rules decide. The audit re-decides an old log with the current rules and
compares what they decide, translated *down* to the old words, with what
the log holds; what comes from the log (its events folded into a state, its
moves decided, its options) is translated *up* first. A ruleset lists its
legacies in ``previous_versions`` (version -> a ``Legacy`` subclass); the
registry's ``at_version`` builds the one a log names.

Translations are pure, total on what that version wrote, and round-trip:
``event_up(event_down(e)) == e`` for every event the current rules decide
(the legacy tests of each ruleset hold them to it over real old logs).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.engine.protocol import Event, GameConfig, Json, Move, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo


class Legacy:
    """The ruleset ``current`` as its ``version`` wrote logs. Override the
    translation hooks (each defaults to no change); every other member is
    ``current``'s own."""

    #: the version this legacy stands for (set by each subclass)
    version: str = ""

    def __init__(self, current: Any) -> None:
        self.current = current

    def __getattr__(self, name: str) -> Any:  # anything not translated is the current rules' own
        return getattr(self.current, name)

    # -- the translation hooks ---------------------------------------------------
    def event_down(self, event: Event) -> Event:
        """A rules event of today as this version recorded it."""
        return event

    def event_up(self, event: Event) -> Event:
        """A rules event this version recorded, in today's words."""
        return event

    def move_up(self, move: Any) -> Any:
        """A move as this version's logs hold it, in today's words."""
        return move

    def options_up(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """A game's options as this version's headers hold them, in today's words."""
        return dict(options)

    def scenario_up(self, scenario: Any) -> Any:
        """A game's scenario (the header's ``setup``) as this version took it, in today's words."""
        return scenario

    def result_down(self, result: Json) -> Json:
        """Today's result as this version recorded it (in ``seed_revealed``)."""
        return result

    def secret_down(self, name: str, value: Any) -> Any:
        """A dealt secret's value of today as this version sealed it."""
        return value

    # -- the rules, translated -----------------------------------------------------
    def setup(self, config: GameConfig, rng: Rng) -> list[Event]:
        config = GameConfig(players=config.players, options=self.options_up(config.options),
                            scenario=self.scenario_up(config.scenario))
        return [self.event_down(e) for e in self.current.setup(config, rng)]

    def validate_options(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        return dict(self.current.validate_options(self.options_up(options), players))

    def evolve(self, state: Any, event: Event) -> Any:
        return self.current.evolve(state, self.event_up(event))

    def decide(self, state: Any, actor: Seat | None, move: Move, *, rng: Rng, now: int,
               memo: Memo | None = None) -> list[Event]:
        return self.decide_and_fold(state, actor, move, rng=rng, now=now, memo=memo)[0]

    def decide_and_fold(self, state: Any, actor: Seat | None, move: Move, *, rng: Rng, now: int,
                        checked: bool = False, memo: Memo | None = None) -> tuple[list[Event], Any]:
        events, state = self.current.decide_and_fold(state, actor, self.move_up(move), rng=rng, now=now,
                                                     checked=checked, memo=memo)
        return [self.event_down(e) for e in events], state

    def on_timeout(self, state: Any, *, rng: Rng, now: int) -> tuple[list[Event], Any]:
        events, state = self.current.on_timeout(state, rng=rng, now=now)
        return [self.event_down(e) for e in events], state

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        shown = self.current.redact(self.event_up(event), seat)
        return None if shown is None else self.event_down(shown)

    def result(self, state: Any) -> Json | None:
        result = self.current.result(state)
        return None if result is None else self.result_down(result)

    def secrets(self, state: Any) -> dict[str, Any]:
        return {name: self.secret_down(name, value) for name, value in self.current.secrets(state).items()}


def current_move(ruleset: Any, move: Any) -> Any:
    """``move`` from a log of ``ruleset`` in the words of today's rules (the
    audit compares a bot's choice or a drawn default, decided by today's
    rules, with it)."""
    return ruleset.move_up(move) if isinstance(ruleset, Legacy) else move


def recase(value: Any, keys: Sequence[str] | frozenset[str], spell: Callable[[str], str]) -> Any:
    """``value`` (JSON) with every string found under one of ``keys`` (itself,
    or inside a list or dict there) respelled by ``spell``: the usual
    translation of an identifier whose spelling changed (``"SHOT1"`` ->
    ``"shot1"``)."""
    wanted = frozenset(keys)

    def under(v: Any) -> Any:
        if isinstance(v, str):
            return spell(v)
        if isinstance(v, list):
            return [under(x) for x in v]
        if isinstance(v, dict):
            return {k: under(x) for k, x in v.items()}
        return v

    def walk(v: Any) -> Any:
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {k: under(x) if k in wanted else walk(x) for k, x in v.items()}
        return v

    return walk(value)
