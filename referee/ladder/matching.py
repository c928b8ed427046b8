"""Matchmaking for a ladder's pool, pure (issue 42 item 3): from the bots
waiting for a game, the tables to deal now. No store, no clock, no global
random: the caller hands in the time and a seeded ``Rng``, so a test sees
the very tables a worker would deal.

The rules, in the order they are applied (docs/ladder.md, "The pool"):

- Each waiting registered bot with a free game slot seeds a table in turn,
  the longest waiting first; a bot sits at one new table per round.
- Similar ratings together: a seed's partners are the waiting bots whose
  skill is within ``window`` of its own, closest first; the window
  widens the longer the seed waits (``BASE_WINDOW`` plus ``WIDEN_PER_S``
  a second), so a bot far from everyone still plays, later.
- Registered bots of different owners fill the table first, up to the
  ruleset's largest table; the built-in bots (anchors) fill the seats they
  leave, one seat each — and, while the table is smaller than the smallest
  the ruleset deals, more seats in turn, so that one owner's bot finds a
  table (four seats of BANG!) with the anchors alone — and only while the
  pool may start games with them (``anchor_tables``); a table always has a
  registered bot.
- Bots of one owner share a table only if each of them allows more than
  one seat of a table (``same_table`` > 1): such games are unrated (the
  ratings count no game between bots of one owner), so they come last,
  after the anchors, and a bot's own second seat after them.
- The table's size is the largest of the ruleset's sizes the seats found
  fill; none: the seed waits.
- Seats are shuffled with the ``Rng``: who sits where (and so which role
  the deal gives whom) differs from game to game.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.engine.rng import Rng

#: the skill distance within which two bots meet at once: a new bot (25) meets both anchors (20, 30)
BASE_WINDOW = 5.0
#: how much the window widens for each second the seed has waited
WIDEN_PER_S = 0.2


@dataclass(frozen=True, slots=True)
class Waiting:
    """A registered bot in the pool with at least one free game slot."""

    bot: str
    skill: float
    same_table: int  # the most seats of one table it may hold
    owner: str
    since: int  # waiting since (ms)


@dataclass(frozen=True, slots=True)
class Anchor:
    """A built-in bot: in every pool, never paused; one seat a table, more only to make the smallest table."""

    bot: str
    skill: float


@dataclass(frozen=True, slots=True)
class Table:
    """A game to deal: the bot of each seat, in seat order."""

    seats: tuple[str, ...]


def window(waited_ms: int) -> float:
    """The skill distance a seed that waited ``waited_ms`` meets."""
    return BASE_WINDOW + WIDEN_PER_S * max(0, waited_ms) / 1000


def propose(waiting: Sequence[Waiting], anchors: Sequence[Anchor], sizes: Sequence[int], anchor_tables: int,
            now: int, rng: Rng) -> list[Table]:
    """The tables to deal now (``sizes``: the player counts the ruleset
    allows; ``anchor_tables``: how many more games the anchors may sit in)."""
    pending = sorted(waiting, key=lambda w: (w.since, w.bot))
    seated: set[str] = set()
    tables: list[Table] = []
    for seed in pending:
        if seed.bot in seated:
            continue
        others = [w for w in pending if w.bot not in seated and w.bot != seed.bot]
        seats = _seats(seed, others, list(anchors) if anchor_tables > 0 else [], sizes, window(now - seed.since))
        if seats is None:
            continue
        seated.update(seats)
        if any(bot in {a.bot for a in anchors} for bot in seats):
            anchor_tables -= 1
        tables.append(Table(tuple(rng.shuffle(seats))))
    return tables


def _seats(seed: Waiting, others: Sequence[Waiting], anchors: Sequence[Anchor], sizes: Sequence[int],
           width: float) -> list[str] | None:
    """The seats of ``seed``'s table, unshuffled, or ``None`` when they fill no size."""
    near = sorted((w for w in others if abs(w.skill - seed.skill) <= width),
                  key=lambda w: (abs(w.skill - seed.skill), w.since, w.bot))
    table = _Table(seed, max(sizes))
    for other in near:  # rated first: one bot of each owner
        if other.owner not in table.owners:
            table.add(other)
    table.add_anchors([a.bot for a in sorted(anchors, key=lambda a: (abs(a.skill - seed.skill), a.bot))
                       if abs(a.skill - seed.skill) <= width], min(sizes))
    for other in near:  # then the owners' other bots, where every one of them allows it
        table.add(other)
    for bot in list(table.bots.values()):  # then a bot's own further seats
        while table.add(bot):
            pass
    fits = [size for size in sizes if size <= len(table.seats)]
    return table.seats[:max(fits)] if fits else None


class _Table:
    """Seats being gathered around a seed, under the seating rules."""

    def __init__(self, seed: Waiting, most: int) -> None:
        self.most = most
        self.seats: list[str] = []
        self.bots: dict[str, Waiting] = {}
        self.owners: dict[str, list[Waiting]] = {}
        self.add(seed)

    def add(self, bot: Waiting) -> bool:
        """Seat ``bot`` once more if the table has room and the rules allow it."""
        held = self.seats.count(bot.bot)
        fellows = [w for w in self.owners.get(bot.owner, []) if w.bot != bot.bot]
        if len(self.seats) >= self.most or held >= bot.same_table:
            return False
        if fellows and (bot.same_table < 2 or any(w.same_table < 2 for w in fellows)):
            return False
        self.seats.append(bot.bot)
        if bot.bot not in self.bots:
            self.bots[bot.bot] = bot
            self.owners.setdefault(bot.owner, []).append(bot)
        return True

    def add_anchors(self, anchors: list[str], smallest: int) -> None:
        """Seat the built-in bots ``anchors`` (nearest first): one seat each,
        then more, in turn, only while the table is under ``smallest``."""
        for bot in anchors:
            if len(self.seats) < self.most and bot not in self.seats:
                self.seats.append(bot)
        while anchors and len(self.seats) < min(smallest, self.most):
            for bot in anchors[:min(smallest, self.most) - len(self.seats)]:
                self.seats.append(bot)
