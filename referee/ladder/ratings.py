"""Lasting ratings (issue 42; docs/ladder.md, "Ratings"), pure: what one
rated game is to the ladder (:func:`entry_of`, read from its header, result
and log) and the table folded from such entries in the order of their end,
``(finished_at, game id)`` (:class:`Table`). No store, no clock: the live
ladder (``referee.ladder.ledger``) and ``referee ratings recompute`` over
the archive fold the same entries with the same code.

Each bot of a ladder has an OpenSkill Plackett–Luce rating (winners rank
first, the others tie second, as in tournaments' standings,
``referee.play.standings``), its rated games and wins (per role too), its
last ``FORM`` results and its health (``referee.play.latency.seat_health``).
Each rated game folded leaves its seats' ratings after it (``Table.after``):
a bot's rating history is those of its games (the store indexes each bot's
games, an order no fold changes). The built-in bots are fixed anchors
(``ANCHORS``): they are rated against, never moved."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce

from referee.bots import BUILT_IN
from referee.engine.protocol import Json
from referee.play import latency
from referee.service.rated import is_rated

#: a bot with fewer rated games than this in a ladder is provisional
PROVISIONAL_BELOW = 20
#: the results a row shows as its recent form
FORM = 10
#: the ratings after each rated game a row keeps (the newest)
HISTORY_KEPT = 500
#: the games, rated or not, a row keeps (the newest)
GAMES_KEPT = 100
#: the built-in bots' fixed ratings, ``(mu, sigma)``: the scale's anchors. OpenSkill's start is
#: 25 ± 8.33; random play sits below it, the heuristic above, each known closely (sigma 2)
ANCHORS: dict[str, tuple[float, float]] = {"random": (20.0, 2.0), "heuristic": (30.0, 2.0)}
#: who owns the built-in bots
BUILT_IN_OWNER = "referee"
#: rulesets whose games at one player count are another game, with a ladder of their own:
#: BANG! with 3 players (every role public, each seat's goal fixed: R6) is not the 4-7 player game
SEPARATE: frozenset[tuple[str, int]] = frozenset({("bang", 3)})
#: what a ladder is ranked by, said beside it
RANKED_BY = ("the OpenSkill (Plackett-Luce) ordinal, mu - 3*sigma, of every rated game in the order they "
             "finished; ties by wins, then by bot id")


def ladder_key(ruleset: str, players: int) -> str:
    """The ladder a game of ``ruleset`` for ``players`` counts in."""
    return f"{ruleset}:{players}" if (ruleset, players) in SEPARATE else ruleset


def ladder_of(key: str) -> tuple[str, int | None]:
    """``(ruleset, players)`` of a ladder key (``players``: ``None`` for every count)."""
    ruleset, _, players = key.partition(":")
    return ruleset, int(players) if players.isdigit() else None


def owner_of(seat: Json) -> str | None:
    """A header seat's bot's owner: the one recorded at creation, else (a
    bot older than owners) the bot itself; ``None`` for a built-in bot."""
    bot = seat.get("bot")
    if bot is None or bot in BUILT_IN:
        return None
    return str(seat.get("owner") or bot)


def unrated_reason(header: Json) -> str | None:
    """Why a game asked to be rated moves no rating, ``None`` when it does:
    ``custom`` (a chosen seed or setup), ``human_seat`` (a seat no bot
    played), ``same_owner`` (two seats held by bots of one owner, or one
    registered bot twice: the anti-pumping rule; built-in bots are everyone's)."""
    seats = header.get("seats") or []
    if header.get("custom"):
        return "custom"
    if any(not seat.get("bot") for seat in seats):
        return "human_seat"
    owners = [owner for seat in seats if (owner := owner_of(seat)) is not None]
    return "same_owner" if len(set(owners)) < len(owners) else None


def entry_of(game_id: str, header: Json, result: Json | None, envelopes: Iterable[Json],
             finished_at: int, health: Sequence[Json] | None = None) -> Json | None:
    """What a finished game is to the ladder: its seats (bot, owner, role,
    won), their health (``health``: as a process that folded the game's
    timing knows it, ``Timing.health``; else ``seat_health`` of its log,
    ``envelopes``), and whether it is rated (``unrated_reason``); ``None``
    for a game not asked to be rated (``referee.service.rated.is_rated``) or
    without a result (cancelled)."""
    if not is_rated(header) or not isinstance(result, dict):
        return None
    players = int(header.get("players") or len(header["seats"]))
    winners = set(result.get("winners") or ())
    roles = {s["seat"]: s.get("role") for s in result.get("seats") or () if isinstance(s, dict)}
    seats = [{"seat": seat["seat"], "bot": seat.get("bot"), "owner": owner_of(seat),
              "role": roles.get(seat["seat"]), "won": seat["seat"] in winners}
             for seat in sorted(header["seats"], key=lambda s: s["seat"])]
    reason = unrated_reason(header)
    return {"game": game_id, "at": finished_at, "ladder": ladder_key(header["ruleset"], players),
            "rated": reason is None, "unrated_reason": reason, "seats": seats,
            "health": [dict(cell) for cell in health] if health is not None
            else latency.seat_health(envelopes, players)}


def order(entry: Json) -> tuple[int, str]:
    """An entry's place in its ladder: the order games finished in."""
    return int(entry["at"]), str(entry["game"])


def _new_row(bot: str, owner: str | None) -> Json:
    mu, sigma = ANCHORS.get(bot, (PlackettLuce().mu, PlackettLuce().sigma))
    return {"bot": bot, "builtin": bot in BUILT_IN, "owner": owner or BUILT_IN_OWNER, "mu": mu, "sigma": sigma,
            "games": 0, "wins": 0, "roles": {}, "form": [],
            "health": {"moves": 0, "timeouts": 0, "invalid": 0, "hist": {}}}


class Table:
    """One ladder's table, folded one entry at a time in ladder order
    (``order``): ``state`` is JSON (stored as is), ``folded`` the entries in
    it, ``cursor`` the last one's game id, ``touched`` the rows changed since made."""

    def __init__(self, key: str, state: Json | None = None) -> None:
        self.state: Json = state if state is not None else {
            "key": key, "folded": 0, "cursor": None, "at": None, "games": 0, "bots": 0, "rows": {}}
        self.touched: set[str] = set()
        #: game -> each of its bots' rating after it, ``[mu, sigma]``, for the rated games folded here
        self.after: dict[str, dict[str, list[float]]] = {}
        #: only some rows are here (those its entries need: ``referee.ladder.ledger.catch_up``)
        self.partial = False

    @property
    def rows(self) -> dict[str, Json]:
        return self.state["rows"]  # type: ignore[no-any-return]

    def fold(self, entry: Json) -> None:
        """Fold in one entry: it finished after every entry folded before (``order``)."""
        state = self.state
        if state["cursor"] is not None and order(entry) <= (state["at"], state["cursor"]):
            raise ValueError(f"entry {entry['game']} is not after {state['cursor']}: refold in order")
        state["folded"] += 1
        state["cursor"], state["at"] = entry["game"], entry["at"]
        for seat, health in zip(entry["seats"], entry["health"]):
            row = self._row(seat)
            latency.add_health(row["health"], health)
        if entry["rated"]:
            state["games"] += 1
            self._rate(entry)

    def _row(self, seat: Json) -> Json:
        bot = str(seat["bot"])
        row = self.rows.get(bot)
        if row is None:
            row = self.rows[bot] = _new_row(bot, seat.get("owner"))
            self.state["bots"] += 1
        elif seat.get("owner"):
            row["owner"] = seat["owner"]  # as of its latest game
        self.touched.add(bot)
        return row

    def _rate(self, entry: Json) -> None:
        """The seats' counts, and their ratings moved (an anchor's never)."""
        model = PlackettLuce()
        seats = entry["seats"]
        rows = [self.rows[str(seat["bot"])] for seat in seats]
        teams = [[model.rating(mu=row["mu"], sigma=row["sigma"])] for row in rows]
        rated = model.rate(teams, ranks=[1 if seat["won"] else 2 for seat in seats])
        for seat, row, team in zip(seats, rows, rated):
            won = bool(seat["won"])
            row["games"] += 1
            row["wins"] += int(won)
            cell = row["roles"].setdefault(seat.get("role") or "any", {"games": 0, "wins": 0})
            cell["games"] += 1
            cell["wins"] += int(won)
            row["form"] = [*row["form"], "W" if won else "L"][-FORM:]
            if not row["builtin"]:
                row["mu"], row["sigma"] = team[0].mu, team[0].sigma
        self.after[entry["game"]] = {row["bot"]: [row["mu"], row["sigma"]] for row in rows}


def ordinal(row: Json) -> float:
    """The conservative skill a table ranks by, mu - 3 sigma (OpenSkill's ordinal)."""
    return float(row["mu"] - 3 * row["sigma"])


def games_of(bot: str, entries: Iterable[Json]) -> list[Json]:
    """Each seat ``bot`` held in ``entries`` (its games, newest first), as its profile lists them."""
    return [{"id": entry["game"], "ladder": entry["ladder"], "finished_at": entry["at"], "won": seat["won"],
             "seat": seat["seat"], "rated": entry["rated"], "unrated_reason": entry["unrated_reason"]}
            for entry in entries for seat in entry["seats"] if seat["bot"] == bot]


def history_of(bot: str, entries: Iterable[Json], after: dict[str, dict[str, list[float]]]) -> list[Json]:
    """``bot``'s rating after each of its rated ``entries`` (newest first), oldest first; a
    built-in bot holding several seats of a game: one point, won as its first seat."""
    out = []
    for entry in entries:
        rating = after.get(entry["game"], {}).get(bot)
        seat = next((seat for seat in entry["seats"] if seat["bot"] == bot), None)
        if rating is not None and seat is not None:
            mu, sigma = rating
            out.append({"game": entry["game"], "at": entry["at"], "mu": mu, "sigma": sigma,
                        "ordinal": mu - 3 * sigma, "won": seat["won"]})
    return out[::-1]


def fold(key: str, entries: Iterable[Json]) -> Table:
    """The table of ``entries`` folded from scratch in ladder order (the
    reference every incremental table must equal)."""
    table = Table(key)
    for entry in sorted(entries, key=order):
        table.fold(entry)
    return table


def shown(row: Json) -> Json:
    """A row as the API shows it (without its bot's record)."""
    games = row["games"]
    health = row["health"]
    return {"rating": {"mu": row["mu"], "sigma": row["sigma"], "ordinal": ordinal(row)},
            "provisional": not row["builtin"] and games < PROVISIONAL_BELOW, "games": games, "wins": row["wins"],
            "win_rate": row["wins"] / games if games else 0.0,
            "roles": {role: {**cell, "win_rate": cell["wins"] / cell["games"]}
                      for role, cell in sorted(row["roles"].items())},
            "form": list(row["form"]),
            "health": {"moves": health["moves"], "timeouts": health["timeouts"], "invalid": health["invalid"],
                       "median_ms": latency.median_ms(health["hist"])}}


def ranked(rows: Iterable[Json]) -> list[Json]:
    """Rows in ladder order: ordinal down, then wins down, then bot id."""
    return sorted(rows, key=lambda row: (-ordinal(row), -row["wins"], row["bot"]))


def table_lines(key: str, rows: Sequence[Json], names: Mapping[str, str] | None = None) -> list[str]:
    """A ladder as a person reads it (``referee ratings recompute``): each bot
    by its name and id (``names``: a bot's name by its id, as its games' seats
    show it), else by its id."""
    head = f"{'#':>3} {'bot':<40} {'ordinal':>8} {'mu':>7} {'sigma':>6} {'games':>6} {'wins':>6}  form"
    out = [f"ladder {key}: ranked by {RANKED_BY}", head, "-" * len(head)]
    for rank, row in enumerate(ranked(rows), 1):
        flag = " (provisional)" if not row["builtin"] and row["games"] < PROVISIONAL_BELOW else ""
        name = (names or {}).get(row["bot"])
        label = f"{name[:40 - len(row['bot']) - 3]} ({row['bot']})" if name and name != row["bot"] else row["bot"]
        out.append(f"{rank:>3} {label[:40]:<40} {ordinal(row):>8.3f} {row['mu']:>7.3f} {row['sigma']:>6.3f} "
                   f"{row['games']:>6} {row['wins']:>6}  {''.join(row['form'])}{flag}")
    return out


def comparable(state: Json) -> Any:
    """What two tables must agree on to be the same table (the rows and the counts, not the cursor's storage)."""
    return {"folded": state["folded"], "games": state["games"], "bots": state["bots"], "rows": state["rows"]}


def diff(key: str, recomputed: Json | None, live: Json | None, after: tuple[Json, Json] = ({}, {})) -> list[str]:
    """How a ladder's live table differs from the one recomputed (nothing: the
    same), and the ratings after each rated game (``after``: recomputed, live)."""
    mine_after, live_after = after
    out = [f"{key}: ratings after game {game}: {mine_after.get(game)} recomputed, {live_after.get(game)} live"
           for game in sorted(mine_after.keys() | live_after.keys()) if mine_after.get(game) != live_after.get(game)]
    return out + _rows_diff(key, recomputed, live)


def _rows_diff(key: str, recomputed: Json | None, live: Json | None) -> list[str]:
    if recomputed is None or live is None:
        return [] if recomputed == live else [f"{key}: only {'recomputed' if live is None else 'live'}"]
    want, got = comparable(recomputed), comparable(live)
    out = [f"{key}: {name} {want[name]} recomputed, {got[name]} live" for name in ("folded", "games", "bots")
           if want[name] != got[name]]
    for bot in sorted(want["rows"].keys() | got["rows"].keys()):
        mine, theirs = want["rows"].get(bot), got["rows"].get(bot)
        if mine is None or theirs is None:
            out.append(f"{key}: {bot} only {'recomputed' if theirs is None else 'live'}")
            continue
        out += [f"{key}: {bot} {name} {mine.get(name)!r} recomputed, {theirs.get(name)!r} live"
                for name in sorted(mine.keys() | theirs.keys()) if mine.get(name) != theirs.get(name)]
    return out
