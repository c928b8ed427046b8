"""What tournaments and the arena (``referee arena``) share, pure: the seat
and public-role rotation (:func:`seating`) and the standings (:class:`Standings`:
games, wins, win rate per role, an OpenSkill Plackett–Luce rating). No store,
no server: ``referee.play.tournaments`` keeps them in Redis, the arena in memory."""
from __future__ import annotations

import json
from collections.abc import Sequence

from openskill.models import PlackettLuce

from referee.engine.protocol import Json
from referee.play import latency


def seating(index: int, entrants: int, players: int, public_roles: Sequence[str | None] | None = None,
            role_order: Sequence[str] = ()
            ) -> list[int]:
    """Entrant index for each seat of game ``index``.

    Entrants rotate through *slots*: slot ``k`` of game ``g`` goes to entrant
    ``(g + k) % entrants``, so over ``entrants`` consecutive games (when all
    play) everyone takes every slot once. Without roles a slot is a seat.
    With roles dealt by the game's secret seed, the seats whose role is
    public (BANG!'s Sheriff; every role in the 3-player game) come first, in
    role order, then the other seats clockwise from the first of them: the
    public roles rotate exactly, while a hidden role stays as random as the
    deal made it. (Rotating hidden roles by a fixed schedule would let any bot
    work out every other seat's role from the public game index.)"""
    order = list(range(players))
    public = [seat for seat in order if public_roles is not None and public_roles[seat] is not None]
    if public:
        rank = {role: i for i, role in enumerate(role_order)}  # the ruleset's rotation order
        public.sort(key=lambda seat: (rank.get(str(public_roles[seat]), len(rank)), seat))  # type: ignore[index]
        start = public[0]
        order = public + [(start + i) % players for i in range(1, players + 1)
                          if (start + i) % players not in public]
    out = [0] * players
    for k, seat in enumerate(order):
        out[seat] = (index + k) % entrants
    return out


class DuplicateName(ValueError):
    """Two entrants were given one name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"two entrants are named {name!r}: names are unique in a tournament")
        self.name = name


def unique_names(names: Sequence[tuple[str, bool]]) -> list[str]:
    """Each entrant's name, unique among them, from ``(name, given)``:
    standings rows, ratings and a game's seats go by name, so two entrants
    under one name would share a row and move no rating. Names given must
    differ (``DuplicateName``); a name not given that is taken already becomes
    ``name#2``, ``name#3``, ... (the first not taken), given names first."""
    taken: set[str] = set()
    for name, given in names:
        if given:
            if name in taken:
                raise DuplicateName(name)
            taken.add(name)
    out = []
    for name, given in names:
        if not given:
            base, n = name, 1
            while name in taken:
                n += 1
                name = f"{base}#{n}"
            taken.add(name)
        out.append(name)
    return out


class Standings:
    """Per entrant: games, wins, win rate, win rate per role and an OpenSkill
    (Plackett–Luce) rating, folded in one finished game at a time and
    stored as JSON. Counts take a game at once; ratings fold in game order
    (a game's rating waits until every earlier game is in), so they do not
    depend on which worker finished first and equal :func:`standings` over
    the same results. Custom games never move a rating, nor does a game
    where one entrant holds two seats."""

    def __init__(self, names: list[str], state: Json | None = None) -> None:
        self.state: Json = state if state is not None else {
            "rows": {name: {"name": name, "games": 0, "wins": 0, "roles": {}} for name in names},
            "ratings": {}, "rated_upto": 0, "pending": {}}

    @classmethod
    def loads(cls, raw: bytes | str | None) -> Standings:
        return cls([], json.loads(raw)) if raw else cls([])

    def dumps(self) -> str:
        return json.dumps(self.state, separators=(",", ":"))

    def record(self, index: int, entry: Json) -> None:
        """Fold in the result of game ``index``."""
        result = entry["result"]
        winners = set(result["winners"])
        seats = sorted(result["seats"], key=lambda s: s["seat"])
        rows = self.state["rows"]
        for s in seats:
            row = rows[entry["entrants"][s["seat"]]]
            won = s["seat"] in winners
            row["games"] += 1
            row["wins"] += int(won)
            cell = row["roles"].setdefault(s.get("role") or "any", {"games": 0, "wins": 0})
            cell["games"] += 1
            cell["wins"] += int(won)
        for seat, cell in enumerate(entry.get("latency") or ()):  # each bot's per move (referee.play.latency)
            latency.add(rows[entry["entrants"][seat]], cell)
        names = [entry["entrants"][s["seat"]] for s in seats]
        rated = not entry.get("custom") and len(set(names)) == len(names)
        pending = self.state["pending"]
        pending[str(index)] = {"names": names, "ranks": [1 if s["seat"] in winners else 2 for s in seats]} \
            if rated else None
        while str(self.state["rated_upto"]) in pending:
            game = pending.pop(str(self.state["rated_upto"]))
            if game is not None:
                self._rate(game["names"], game["ranks"])
            self.state["rated_upto"] += 1

    def _rate(self, names: list[str], ranks: list[float]) -> None:
        model = PlackettLuce()
        ratings = self.state["ratings"]
        teams = [[model.rating(mu=ratings[n][0], sigma=ratings[n][1], name=n) if n in ratings
                  else model.rating(name=n)] for n in names]
        for name, team in zip(names, model.rate(teams, ranks=ranks)):
            ratings[name] = [team[0].mu, team[0].sigma]

    def table(self) -> list[Json]:
        """The rows, sorted by the rating's conservative ordinal (mu - 3
        sigma), then by wins."""
        model = PlackettLuce()
        out = []
        for name, stored in self.state["rows"].items():
            row = {**stored, "roles": {role: {**cell, "win_rate": cell["wins"] / cell["games"]}
                                       for role, cell in stored["roles"].items()}}
            row["win_rate"] = row["wins"] / row["games"] if row["games"] else 0.0
            if "latency" in stored:
                row["latency"] = latency.shown(stored["latency"])
            mu, sigma = self.state["ratings"].get(name, (None, None))
            rating = model.rating(mu=mu, sigma=sigma)
            row["rating"] = {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal()}
            out.append(row)
        out.sort(key=lambda row: (-row["rating"]["ordinal"], -row["wins"]))
        return out


def standings(names: list[str], results: list[Json]) -> list[Json]:
    """The standings of ``results`` in game order, folded from scratch (the
    reference the stored, incremental :class:`Standings` must equal)."""
    table = Standings(names)
    for index, entry in enumerate(results):
        table.record(index, entry)
    return table.table()


#: what the standings are ranked by, said beside every table of them
RANKED_BY = ("the OpenSkill (Plackett-Luce) ordinal, mu - 3*sigma: a skill the entrant is very likely above, "
             "which rises with wins and with games played; ties by wins")


def format_table(rows: list[Json]) -> str:
    """The standings as a person reads them (a tournament's, the arena's):
    what they are ranked by, then every row with its counts."""
    head = f"{'#':>2} {'entrant':<20} {'ordinal':>8} {'mu':>7} {'sigma':>6} {'games':>6} {'wins':>6} {'win%':>6}  " \
           "per role: win% (wins/games)"
    lines = [f"ranked by {RANKED_BY}", "", head, "-" * len(head)]
    for i, row in enumerate(rows, 1):
        roles = "  ".join(f"{role} {100 * cell['win_rate']:.1f}% ({cell['wins']}/{cell['games']})"
                          for role, cell in sorted(row["roles"].items()))
        rating = row["rating"]
        lines.append(f"{i:>2} {row['name'][:20]:<20} {rating['ordinal']:>8.2f} {rating['mu']:>7.2f} "
                     f"{rating['sigma']:>6.2f} {row['games']:>6} {row['wins']:>6} {100 * row['win_rate']:>5.1f}%  "
                     f"{roles}" + _latency_words(row))
    return "\n".join(lines)


def _latency_words(row: Json) -> str:
    """The row's latency per move, in words (nothing for a row that has none)."""
    kept = row.get("latency")
    if kept is None:
        return ""
    return f"  latency: {kept['mean_ms']} ms mean, {kept['max_ms']} ms max, {kept['timeouts']} timeouts"
