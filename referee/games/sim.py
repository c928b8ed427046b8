"""An in-memory table: drive any ruleset through the decider protocol without
a server. Used by the rules tests, the property tests, the bots and the
benchmarks — one driver for every ruleset.

Pure like the rules: time is a counter the caller moves, chance is an ``Rng``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from referee.engine.platform import playing_moves
from referee.engine.protocol import Event, GameConfig, Json, Move, Ruleset, Seat, fold
from referee.engine.rng import Rng
from referee.engine.statecache import Memo

TIMEOUT: Move = {"type": "timeout"}


class Table:
    """A game in memory: ``state``, the events so far, the generator and
    ``memo``, the game's (``referee.engine.statecache``), handed to every
    hook the table calls."""

    def __init__(
        self,
        ruleset: Ruleset[Any],
        players: int,
        *,
        options: Mapping[str, Any] | None = None,
        scenario: Mapping[str, Any] | None = None,
        seed: bytes | str = b"table",
        now: int = 0,
    ) -> None:
        self.ruleset = ruleset
        self.seed = seed.encode() if isinstance(seed, str) else seed
        self.rng = Rng(self.seed)
        self.now = now
        # what a game of this size needs (e.g. BANG!'s 3-player game), then the caller's
        opts = ruleset.validate_options({**ruleset.options_for(players), **(options or {})}, players)
        self.config = GameConfig(players=players, options=opts, scenario=scenario)
        self.memo = Memo()
        self.events: list[Event] = ruleset.setup(self.config, self.rng)
        self.state: Any = fold(ruleset, self.events)
        self.last: list[Event] = list(self.events)

    def play(self, actor: Seat | None, move: Move, *, now: int | None = None) -> Table:
        """Decide ``move`` by ``actor`` received at time ``now`` (default: the table's now + 1 ms) and apply it.

        On refusal the exception propagates and nothing changes (the
        generator is rewound too), like the service."""
        now = self.now + 1 if now is None else now
        position = self.rng.position
        try:
            events, state = self.ruleset.decide_and_fold(self.state, actor, move, rng=self.rng, now=now,
                                                         memo=self.memo)
        except Exception:
            self.rng = Rng(self.seed, position)  # a refused move draws nothing
            raise
        self.now = max(self.now, now)
        self.state = state
        self.events.extend(events)
        self.last = events
        return self

    def timeout(self) -> Table:
        """Jump to the open deadline and submit the system ``timeout`` command."""
        deadline = self.ruleset.deadline(self.state)
        if deadline is None:
            raise ValueError("no deadline is open")
        return self.play(None, TIMEOUT, now=max(deadline, self.now))

    # conveniences
    def to_act(self) -> set[Seat]:
        return self.ruleset.to_act(self.state, memo=self.memo)

    def legal(self, seat: Seat) -> Sequence[Move]:
        return self.ruleset.legal_moves(self.state, seat, memo=self.memo)

    def view(self, seat: Seat | None) -> Json:
        return self.ruleset.view(self.state, seat, memo=self.memo)

    def result(self) -> Json | None:
        return self.ruleset.result(self.state)


Chooser = Callable[[Table, Seat, Sequence[Move]], Move]


class Picker(Protocol):
    """Anything that draws ``below(bound)``: the game's ``Rng``, or a bench's faster player randomness."""

    def below(self, bound: int, /) -> int: ...


def random_chooser(rng: Rng) -> Chooser:
    """Uniform over ``legal_moves`` less ``resign`` — the ``random`` bot's policy."""
    return lambda table, seat, moves: rng.choice(playing_moves(moves))


def playout(
    table: Table,
    choose: Chooser,
    *,
    pick_seat: Picker,
    max_steps: int = 100_000,
    on_step: Callable[[Table], None] | None = None,
) -> int:
    """Play until ``result`` is set: each step one awaited seat (drawn with
    ``pick_seat``) makes a chosen legal move; when nobody is awaited, the
    open deadline times out. Returns the number of actions taken."""
    steps = 0
    ruleset = table.ruleset
    while ruleset.result(table.state) is None:
        if steps >= max_steps:
            raise RuntimeError(f"no result after {max_steps} actions")
        seats = sorted(ruleset.to_act(table.state, memo=table.memo))
        if seats:
            seat = seats[pick_seat.below(len(seats))] if len(seats) > 1 else seats[0]
            moves = ruleset.legal_moves(table.state, seat, memo=table.memo)
            if not moves:
                if ruleset.deadline(table.state) is None:
                    raise RuntimeError(f"seat {seat} is awaited but has no legal move")
                table.timeout()
            else:
                table.play(seat, choose(table, seat, moves))
        else:
            table.timeout()
        steps += 1
        if on_step is not None:
            on_step(table)
    return steps
