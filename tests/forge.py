"""What a dishonest referee could do to a finished log: rewrite an event and
rebuild every commitment and link after it, so the chain itself holds. Only
the re-decided game (and the seals) can catch such a forgery."""
from __future__ import annotations

import copy
from typing import Any

from referee.engine import commitment, link_hash
from referee.engine.platform import playing_moves


def rechain(header_hash: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recompute every ``commit``, ``prev`` and ``hash`` in place (salts kept)."""
    prev = header_hash
    for env in events:
        env["commit"] = commitment(env["salt"], env["data"])
        env["prev"] = prev
        env["hash"] = prev = link_hash(env)
    return events



def with_one_editable(events: list[dict[str, Any]], index: int) -> list[dict[str, Any]]:
    """A copy of ``events`` for ``rechain`` after an edit of ``events[index]``:
    that event copied whole (free to edit), every other one copied at its top
    level only (``rechain`` rewrites its commit and links, never its data). A
    deep copy of every event, a forgery at a time, took half the time of the
    tests that forge each move of a game."""
    return [copy.deepcopy(env) if i == index else dict(env) for i, env in enumerate(events)]

# -- finished games recorded offline, as the service records them ---------------
# (``referee.audit.offline.LoggedTable`` with what it leaves out: seats given to
# built-in bots, a turn clock and the defaults it plays, each move's ``by``)
def _recorded_table() -> type:
    """``RecordedTable``, made on first use (the engine imports stay out of ``rechain``'s way)."""
    from referee import bots
    from referee.audit.offline import LoggedTable
    from referee.engine import bot_seed, header_hash, record
    from referee.engine.protocol import default_options, draw_default, seat_view
    from referee.games.sim import Table

    class RecordedTable(LoggedTable):
        """A ``LoggedTable`` whose header may give seats to built-in bots and
        set a turn clock, and whose moves record ``by`` as the service does."""

        def __init__(self, ruleset: Any, players: int, *, seats_bots: dict[int, str] | None = None,
                     turn_timeout_s: int | None = None, **kw: Any) -> None:
            super().__init__(ruleset, players, **kw)
            for seat, kind in (seats_bots or {}).items():
                self.header["seats"][seat]["bot"] = kind
            if turn_timeout_s is not None:
                self.header["turn_timeout_s"] = turn_timeout_s
            self.header_hash = header_hash(self.header)
            rechain(self.header_hash, self.envelopes)
            self.last_hash = self.envelopes[-1]["hash"] if self.envelopes else self.header_hash

        def record(self, actor: Any, move: Any, *, by: dict[str, Any] | None = None, at: int | None = None,
                   position: int | None = None) -> RecordedTable:
            """``move`` by ``actor`` decided and logged, its record naming ``by``
            and the generator's ``position`` before it (default: now)."""
            position = self.rng.position if position is None else position
            now = self.now + 1 if at is None else at
            Table.play(self, actor, move, now=now)
            data: dict[str, Any] = {"move": dict(move), "rng": position}
            if by is not None:
                data["by"] = by
            produced, _result, self.opened = record.move(self.ruleset, self.state, actor, data, self.last,
                                                         self.dealt, self.opened, self.seed_text)
            self._write(produced, now)
            return self

        def bot_move(self, seat: int) -> RecordedTable:
            """The move seat ``seat``'s built-in bot chooses, from its secret stream."""
            kind = self.header["seats"][seat]["bot"]
            view = seat_view(self.ruleset, self.state, seat, active=True)
            chosen = bots.choose(kind, self.ruleset.name, view, view["legal_moves"],
                                 seed=bot_seed(self.seed_text, seat, len(self.envelopes)))
            return self.record(seat, chosen, by={"bot": kind})

        def clock_owes(self) -> int | None:
            """The seat the turn clock defaults now (the lowest awaited seat that owes a default)."""
            owing = [s for s in sorted(self.ruleset.to_act(self.state))
                     if default_options(self.ruleset, self.state, s)]
            return owing[0] if owing else None

        def clock_default(self, seat: int) -> RecordedTable:
            """The turn clock's default for ``seat``, at its deadline (drawn when the rules give several)."""
            at = self.envelopes[-1]["at"] + self.header["turn_timeout_s"] * 1000
            position = self.rng.position
            drawn = draw_default(self.ruleset, self.state, seat, self.rng)
            assert drawn is not None
            pick, options = drawn
            by: dict[str, Any] = {"default": "turn_clock"}
            if options > 1:
                by["drawn_from"] = options
            return self.record(seat, pick, by=by, at=at, position=position)

    return RecordedTable


def recorded_game(ruleset: str, players: int, *, seed: str, seats_bots: dict[int, str] | None = None,
                  turn_timeout_s: int | None = None, clock_every: int = 0, timeout_every: int = 0,
                  max_steps: int = 20_000) -> Any:
    """A finished game played offline and logged as the service logs it:
    awaited seats picked and moves chosen from ``Rng``s of ``seed``, bot seats
    playing their bot, the turn clock playing a seat's default every
    ``clock_every``-th step (0: never), an open deadline (a window) let run
    out every ``timeout_every``-th step (the system's ``timeout``). The ``RecordedTable``: ``header``,
    ``header_hash``, ``envelopes``, ``seed_text``."""
    from referee.engine.rng import Rng
    from referee.games import registry

    rs = registry.get(ruleset)
    table = _recorded_table()(rs, players, options=rs.options_for(players), seed=seed, seats_bots=seats_bots,
                              turn_timeout_s=turn_timeout_s)
    picks = Rng(f"{seed}-picks".encode())
    for step in range(1, max_steps + 1):
        if rs.result(table.state) is not None:
            return table
        seats = sorted(rs.to_act(table.state))
        if not seats or (timeout_every and step % timeout_every == 0 and rs.deadline(table.state) is not None):
            table.timeout()
            continue
        owes = table.clock_owes() if clock_every and step % clock_every == 0 else None
        deadline = rs.deadline(table.state)  # a window that closes before the turn clock runs out: no default
        if owes is not None and deadline is not None \
                and deadline < table.envelopes[-1]["at"] + (turn_timeout_s or 0) * 1000:
            owes = None
        if owes is not None:
            table.clock_default(owes)
            continue
        seat = seats[picks.below(len(seats))]
        legal = list(playing_moves(rs.legal_moves(table.state, seat)))  # a player who never resigns
        if not legal:
            table.timeout()
        elif table.header["seats"][seat]["bot"] is not None:
            table.bot_move(seat)
        else:
            table.record(seat, legal[picks.below(len(legal))])
    raise RuntimeError(f"no result after {max_steps} steps")
