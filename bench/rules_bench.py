"""In-process random legal play: actions/s per ruleset and player count,
building every seat's view at every step (issue 3's speed measure); the
report's ``encoded/rules`` column is issue 20's target: every seat's view
built and encoded after every move (``encoded``, what the API sends) at
least ``ENCODED_RULES_TARGET`` of the rate of the rules alone (``rules``),
the modes measured interleaved in one run."""
from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, TypeVar

from referee.engine.encoded_views import ViewCache, encoded_view
from referee.engine.platform import playing_moves
from referee.engine.protocol import seat_view
from referee.games import registry
from referee.games.sim import Chooser, Table, playout

T = TypeVar("T")


class FastPick:
    """The players' own randomness (not the game's): Python's Mersenne
    Twister, which costs far less than the game's HMAC generator; the rules
    still draw every shuffle and die from the table's seeded ``Rng``."""

    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)

    def below(self, n: int) -> int:
        return self._r.randrange(n)

    def choice(self, items: Sequence[T]) -> T:
        return items[self._r.randrange(len(items))]


#: what a step builds for every seat: nothing, its view as a JSON value (as
#: bots get it), or its view encoded as the API sends it
MODES = ("rules", "views", "encoded")


def _uniform(pick: FastPick) -> Chooser:
    """Uniform over the playing moves, by the players' own randomness."""
    return lambda _t, _s, moves: pick.choice(playing_moves(moves))


def actions_per_second(ruleset: str, players: int, seconds: float = 5.0, mode: str = "views",
                       games: int | None = None) -> dict[str, float]:
    """Random games from the first seed on, for ``seconds`` of this process's
    CPU time (or exactly ``games`` of them): actions per CPU second. CPU time,
    not the wall clock, so that what other processes do on a busy machine is
    not counted as ours."""
    rs = registry.get(ruleset)
    seats = range(players)
    header = {"id": "bench", "ruleset": rs.name, "ruleset_version": rs.version, "status": "active",
              "turn_deadline": None, "seats": [{"seat": s, "kind": "human"} for s in seats], "custom": False,
              "seed_commitment": "0" * 64}

    def every_view(table: Table) -> None:
        state = table.state
        active = rs.result(state) is None
        for seat in seats:
            seat_view(rs, state, seat, active=active, memo=table.memo)

    views = ViewCache()  # the service's, one per process

    def every_view_encoded(table: Table) -> None:
        state = table.state
        version = len(table.events)
        envelope = {**header, "version": version}
        key = (table.seed, version)  # one game's: a table's id may be reused by a later game
        active = rs.result(state) is None
        for seat in seats:
            encoded_view(rs, state, seat, active=active, envelope=envelope, key=key, cache=views, memo=table.memo)

    on_step = {"rules": None, "views": every_view, "encoded": every_view_encoded}[mode]
    actions = played = 0
    started = time.process_time()
    while (played < games) if games is not None else (time.process_time() - started < seconds):
        table = Table(rs, players, seed=f"bench-{ruleset}-{players}-{played}")
        pick = FastPick(played)
        actions += playout(table, _uniform(pick), pick_seat=pick, on_step=on_step)
        played += 1
    elapsed = time.process_time() - started
    return {"actions_per_s": actions / elapsed, "games": played, "actions": actions}


def sizes(ruleset: str) -> list[int]:
    """Every player count of a ruleset's usual game (BANG!'s 3 is an optional variant: left out)."""
    rs = registry.get(ruleset)
    low = rs.min_players + (1 if rs.options_for(rs.min_players) else 0)
    return list(range(low, rs.max_players + 1))


def run(seconds: float = 1.0, rounds: int = 5) -> dict[str, Any]:
    """Each configuration ``rounds`` times, interleaved so that machine noise
    hits all alike: the rules alone for ``seconds`` of CPU time, then the very
    same games with every view built and with every view encoded, so that a
    round's ratios compare the same moves; the median round's rates and the
    median of the rounds' ratios are reported."""
    configs = [(ruleset, n) for ruleset in registry.names() for n in sizes(ruleset)]
    samples: dict[tuple[str, int], list[dict[str, dict[str, float]]]] = {c: [] for c in configs}
    for _ in range(rounds):
        for ruleset, n in configs:
            rules = actions_per_second(ruleset, n, seconds, "rules")
            samples[(ruleset, n)].append({"rules": rules, **{
                mode: actions_per_second(ruleset, n, mode=mode, games=int(rules["games"])) for mode in MODES[1:]}})
    out: dict[str, Any] = {}
    for (ruleset, n), got in samples.items():
        modes: dict[str, Any] = {}
        for mode in MODES:
            rows = sorted((row[mode] for row in got), key=lambda row: row["actions_per_s"])
            modes[mode] = {**rows[len(rows) // 2], "min": rows[0]["actions_per_s"], "max": rows[-1]["actions_per_s"]}
        for name, over in (("encoded/views", "views"), ("encoded/rules", "rules")):
            ratio = sorted(row["encoded"]["actions_per_s"] / row[over]["actions_per_s"] for row in got)
            modes[name] = ratio[len(ratio) // 2]
        out.setdefault(ruleset, {})[n] = modes
    return out


#: issue 10's target: every seat's view encoded at least this share of the rate with views not encoded
ENCODED_TARGET = 0.6
#: issue 20's target: every seat's view built and encoded after every move at least this share of
#: the rate of the rules alone (no views)
ENCODED_RULES_TARGET = 0.6


def ratios(modes: dict[str, Any]) -> tuple[float, float]:
    """``(encoded/views, encoded/rules)`` of one ruleset and player count: the medians of the rounds' ratios."""
    return modes["encoded/views"], modes["encoded/rules"]


def report(result: dict[str, Any]) -> None:
    print("Random legal play in-process, actions per CPU second (median of 5 interleaved rounds, each playing "
          "the same games in every mode): the rules alone; every seat's view built at every step; every seat's "
          "view encoded as the API sends it; the ratios are the medians of the rounds' ratios")
    print(f"  {'ruleset':<13}{'players':>7}{'rules':>10}{'views':>10}{'encoded':>10}"
          f"{'encoded/views':>15}  target >= {ENCODED_TARGET}"
          f"{'encoded/rules':>17}  target >= {ENCODED_RULES_TARGET}")
    for ruleset, rows in result.items():
        for n, modes in rows.items():
            vs_views, vs_rules = ratios(modes)
            print(f"  {ruleset:<13}{n:>7}{modes['rules']['actions_per_s']:>10.0f}"
                  f"{modes['views']['actions_per_s']:>10.0f}{modes['encoded']['actions_per_s']:>10.0f}"
                  f"{vs_views:>14.2f}x  {'met' if vs_views >= ENCODED_TARGET else 'NOT MET':<13}"
                  f"{vs_rules:>15.2f}x  {'met' if vs_rules >= ENCODED_RULES_TARGET else 'NOT MET'}")
