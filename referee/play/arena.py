"""``referee arena``: the rules in this process, for bot authors (issue 23).

    referee arena --ruleset bang --players 5 --games 1000 \\
        --entrants mybot.py:choose heuristic random random heuristic [--seed S] [--logs DIR]

plays many games of bots against each other in ONE process, with no Redis and
no server, at the speed of the rules, and prints the standings a tournament
would: the same seat and public-role rotation (``referee.play.standings.seating``),
the same per-game seeds (``HMAC-SHA256(seed, "game:<index>")``, as
``Tournaments`` derives them), the same play order (the lowest awaited seat
moves, as a worker plays bot turns; when nobody is awaited the open deadline
runs out with the system ``timeout``, as ``Table.timeout()`` does) and the same
standings (``referee.play.standings.Standings``: OpenSkill Plackett–Luce ratings,
ranked by the conservative ordinal mu - 3 sigma, then wins). Unlike a
tournament with a client's seed, every arena game is rated: the arena is
yours alone.

An entrant is a built-in bot (``random``, ``heuristic``), a file
``path/to/mybot.py:choose`` (named ``mybot``), or an importable
``package.module:choose`` (named ``module``); ``NAME=SPEC`` names it. Entrants
may repeat (``random random``: ``random`` and ``random#2``). A user's bot is
one function ``choose(view, legal_moves) -> move``: ``view`` is what the API
shows the seat (``GET /v1/games/{id}?seat=``: the envelope and
``seat_view``), as fresh JSON values it may keep or change; it returns one of
``legal_moves`` (what it prints goes to standard error). A bot that raises,
or returns anything else, gets the rules' default for its seat
(``draw_default``, drawn where the rules give several
from the seat's own secret stream ``bot_seed(seed, seat, version)``, never
the game's generator; the first legal move where the rules define none): the
failure is counted and reported, and the game goes on.

``--logs DIR`` writes each game's log, ``DIR/<game>.ndjson``, as the service
would have recorded it: built-in bot moves with ``by: {"bot": kind}`` (the
audit re-derives each from its secret stream), a user bot's moves as its
seat's own (no ``by``; the header names the seat after the entrant, ``bot:
null``), so ``referee audit DIR/*.ndjson`` checks every game. The header is
``custom`` (the seed is the arena user's, not a referee's secret).
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import hmac
import json
import os
import secrets
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.play.entrants import Entrant, EntrantError, described, load_entrant, unique_names

__all__ = ["Arena", "Entrant", "EntrantError", "Played", "add_arguments", "command", "format_report", "game_seed",
           "load_entrant", "main", "run", "unique_names"]

if TYPE_CHECKING:
    from referee.engine.protocol import Json, Move, Ruleset
    from referee.engine.rng import Rng
    from referee.engine.statecache import Memo

#: the arena's clock at a game's creation (ms): a wall-clock-like start, 1 ms more per move
START_MS = 1_700_000_000_000
#: a game that has not ended after this many actions is a defect of the rules (or of a bot's loop)
MAX_ACTIONS = 200_000
EXIT_USAGE = 2


def game_seed(arena_seed: str, index: int) -> str:
    """Game ``index``'s secret seed, as ``Tournaments`` derives a tournament game's."""
    return hmac.new(arena_seed.encode(), f"game:{index}".encode(), hashlib.sha256).hexdigest()


@dataclass
class Played:
    """One finished game: its result, how many actions (moves and timeouts), its log lines if kept."""

    game_id: str
    seats: list[int]
    result: Json
    actions: int
    lines: list[str] | None = None


@dataclass
class _Game:
    """One arena game in play: its generator, state, seals, seating, the
    envelope a user's bot is shown, the clock, and its log when kept."""

    rs: Ruleset[Any]
    game_id: str
    seed: str
    rng: Rng
    state: Any
    dealt: Json
    opened: frozenset[str]
    order: list[int]
    seated: list[Entrant]
    envelope: Json
    #: this game's (``referee.engine.statecache``), handed to every hook called about it
    memo: Memo
    version: int = 0
    now: int = START_MS
    lines: list[str] | None = None
    last_hash: str = ""

    def next_seat(self) -> tuple[int | None, Sequence[Move]]:
        """The lowest awaited seat that has a move, and its legal moves; ``None`` when none has."""
        legal_of, state, memo = self.rs.legal_moves, self.state, self.memo
        for awaited in sorted(self.rs.to_act(state, memo=memo)):
            legal = legal_of(state, awaited, memo=memo)
            if legal:
                return awaited, legal
        return None, ()

    def timeout(self) -> Move:
        """The open deadline runs out: the clock jumps to it."""
        deadline = self.rs.deadline(self.state)
        if deadline is None:
            raise RuntimeError(f"{self.game_id}: nobody awaited has a legal move and no deadline is open "
                               f"(version {self.version})")
        self.now = max(self.now + 1, deadline)
        return {"type": "timeout"}

    def apply(self, seat: int | None, move: Move, entry: Json) -> Json | None:
        """Decide and fold ``move``, record it (``entry``); the game's result, if it ended."""
        from referee.engine import record
        events, self.state = self.rs.decide_and_fold(self.state, seat, move, rng=self.rng, now=self.now,
                                                     memo=self.memo)
        produced, result, self.opened = record.move(self.rs, self.state, seat, entry, events, self.dealt,
                                                    self.opened, self.seed)
        self.write(produced)
        return result

    def write(self, produced: Any) -> None:
        """Count ``produced`` in the version, chained onto the log if kept."""
        if self.lines is not None:
            from referee.engine import record
            from referee.engine.chain import canonical
            written, self.last_hash = record.chained(self.seed, self.last_hash, self.version, produced, self.now)
            self.lines += [canonical(env) for env in written]
        self.version += len(produced)


class Arena:
    """Games of ``entrants`` under ``ruleset``, played one after another in this process."""

    def __init__(self, ruleset: Ruleset[Any], players: int, entrants: list[Entrant], *, seed: str,
                 options: dict[str, Any] | None = None, games: int = 1) -> None:
        from referee.play.standings import Standings
        if not ruleset.min_players <= players <= ruleset.max_players:
            raise ValueError(f"{ruleset.name} takes {ruleset.min_players}–{ruleset.max_players} players "
                             f"(not {players})")
        if len(entrants) < players:
            raise ValueError(f"{players}-player games need at least {players} entrants (as a tournament's do): "
                             f"{len(entrants)} given (an entrant may be named twice)")
        self.rs, self.players, self.entrants, self.seed = ruleset, players, entrants, seed
        # what a game of this size needs (BANG!'s 3-player game), then the caller's, as Table does
        self.options = ruleset.validate_options({**ruleset.options_for(players), **(options or {})}, players)
        self.standings = Standings([e.name for e in entrants])
        self.width = max(4, len(str(max(games - 1, 0))))
        self.moves = self.timeouts = self.games = 0

    def seating(self, index: int) -> list[int]:
        """Entrant index per seat of game ``index``, exactly as a tournament
        seats it: the public roles (who holds them: the deal game ``index``'s
        seed makes) rotate first."""
        from referee.engine.protocol import GameConfig, fold
        from referee.engine.rng import Rng
        config = GameConfig(players=self.players, options=self.options)
        return self._seating(index, fold(self.rs, self.rs.setup(config, Rng(game_seed(self.seed, index).encode()))))

    def _seating(self, index: int, dealt: Any) -> list[int]:
        """``seating`` of game ``index`` from the state its deal made."""
        from referee.play.standings import seating
        public = self.rs.public_roles(dealt) if self.rs.role_order else None
        return seating(index, len(self.entrants), self.players, public, self.rs.role_order)

    def play(self, index: int, *, log: bool = False) -> Played:
        """Play game ``index`` to its end and fold it into the standings."""
        game = self._deal(index, log)
        actions = 0
        result = self.rs.result(game.state)
        while result is None:
            if actions >= MAX_ACTIONS:
                raise RuntimeError(f"{game.game_id}: no result after {MAX_ACTIONS} actions")
            seat, move, entry = self._action(game)
            result = game.apply(seat, move, entry)
            actions += 1
        names = [e.name for e in game.seated]
        self.standings.record(index, {"game": game.game_id, "result": result, "custom": False, "entrants": names})
        self.games += 1
        return Played(game.game_id, game.order, result, actions, game.lines)

    def _deal(self, index: int, log: bool) -> _Game:
        """Game ``index`` dealt and seated; its log begun when ``log``."""
        from referee.engine import record
        from referee.engine.chain import LOG_FORMAT, canonical, header_hash, sha256_hex
        from referee.engine.protocol import GameConfig
        from referee.engine.rng import Rng
        from referee.engine.statecache import Memo

        rs, seed = self.rs, game_seed(self.seed, index)
        game_id = f"arena-{index:0{self.width}d}"
        rng = Rng(seed.encode())
        produced, state, dealt, opened = record.deal(
            rs, rs.setup(GameConfig(players=self.players, options=self.options), rng), seed)
        order = self._seating(index, state)
        seated = [self.entrants[e] for e in order]
        header_seats = [{"seat": s, "name": e.name, "bot": e.kind} for s, e in enumerate(seated)]
        header: Json = {
            "id": game_id, "ruleset": rs.name, "ruleset_version": rs.version, "players": self.players,
            "options": dict(self.options), "setup": None, "seats": header_seats,
            "seed_commitment": sha256_hex(seed), "created_at": START_MS, "custom": True, "log_format": LOG_FORMAT,
        }
        envelope = {"id": game_id, "ruleset": rs.name, "ruleset_version": rs.version, "version": len(produced),
                    "status": "active", "turn_deadline": None, "seats": header_seats, "custom": True,
                    "seed_commitment": header["seed_commitment"]}
        game = _Game(rs, game_id, seed, rng, state, dealt, opened, order, seated, envelope, Memo())
        if log:
            game.last_hash = header_hash(header)
            game.lines = [canonical({"header": header, "hash": game.last_hash})]
        game.write(produced)
        return game

    def _action(self, game: _Game) -> tuple[int | None, Move, Json]:
        """The next action: ``(seat, move, entry)``, the lowest awaited seat
        that has a move moving; the open deadline's ``timeout`` when none has."""
        seat, legal = game.next_seat()
        if seat is None:
            move = game.timeout()
            self.timeouts += 1
            return None, move, {"move": move, "rng": game.rng.position}
        game.now += 1
        move, by = self._entrant_move(game, seat, legal)
        self.moves += 1
        entry: Json = {"move": move, "rng": game.rng.position}
        if by is not None:
            entry["by"] = {"bot": by}
        return seat, move, entry

    def _entrant_move(self, game: _Game, seat: int, legal: Sequence[Move]) -> tuple[Move, str | None]:
        """The move of the entrant in ``seat``, and the built-in bot that chose it (``None``: a user's)."""
        from referee import bots
        from referee.engine.chain import bot_seed
        from referee.engine.protocol import seat_view

        entrant, rs, seed, version = game.seated[seat], self.rs, game.seed, game.version
        if entrant.kind == "random":  # as the worker: uniform over the legal moves, no view built
            return bots.choose("random", rs.name, {}, list(legal), seed=bot_seed(seed, seat, version)), "random"
        if entrant.kind is not None:
            view = seat_view(rs, game.state, seat, active=True, memo=game.memo)
            return bots.choose(entrant.kind, rs.name, view, view["legal_moves"],
                               seed=bot_seed(seed, seat, version)), entrant.kind
        game.envelope["version"] = version
        return self._user_move(entrant, seat, game.state, legal, game.envelope, seed, version, game.memo), None

    def _user_move(self, entrant: Entrant, seat: int, state: Any, legal: Sequence[Move], envelope: Json,
                   seed: str, version: int, memo: Memo) -> Move:
        """The user's function's move, or the rules' default if it raises or answers no legal move."""
        import orjson

        from referee.engine.chain import bot_seed
        from referee.engine.protocol import draw_default, seat_view
        from referee.engine.rng import Rng
        rs = self.rs
        view = orjson.loads(orjson.dumps({**envelope, **seat_view(rs, state, seat, active=True, memo=memo)}))
        where = f"game {envelope['id']}, seat {seat}, version {version}"
        assert entrant.choose is not None
        try:
            with contextlib.redirect_stdout(sys.stderr):  # a bot's prints: standard output is the report's
                answer = entrant.choose(view, view["legal_moves"])
        except Exception as err:
            entrant.failed("raised", f"{described(err)} ({where})")
        else:
            try:
                key = orjson.dumps(answer, option=orjson.OPT_SORT_KEYS)
                for move in legal:
                    if orjson.dumps(move, option=orjson.OPT_SORT_KEYS) == key:
                        return dict(move)
            except TypeError:  # not JSON at all
                pass
            entrant.failed("illegal_move", f"{str(answer)[:120]} is not a legal move ({where})")
        drawn = draw_default(rs, state, seat, Rng(bot_seed(seed, seat, version).encode()))
        return dict(drawn[0]) if drawn is not None else dict(legal[0])


# -- the command ------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arena's options on ``parser`` (``referee arena``), its command as ``func``."""
    parser.add_argument("--ruleset", required=True, help="the ruleset (bang, bang-dice, bang-faceoff, bluffaneer, "
                        "or any installed); required, no default")
    parser.add_argument("--entrants", nargs="+", required=True,
                        help="built-in bots (random, heuristic), FILE.py:FUNCTION (named after the file), or "
                             "MODULE:FUNCTION; NAME=SPEC names one; at least --players of them; required, no default")
    parser.add_argument("--players", type=int, default=None,
                        help="seats per game (default: the number of entrants, within the ruleset's range)")
    parser.add_argument("--games", type=int, default=100, help="games to play (default: 100)")
    parser.add_argument("--seed", default=None,
                        help="the arena's seed, from which every game's is derived as a tournament's are "
                             "(default: a random one, printed, so the run can be repeated)")
    parser.add_argument("--option", action="append", default=None,
                        help="a game option, NAME=JSON (repeatable; default: the ruleset's defaults)")
    parser.add_argument("--logs", default=None, metavar="DIR",
                        help="write every game's log to DIR/<game>.ndjson, for `referee audit` (default: none)")
    parser.add_argument("--json", action="store_true", help="print the standings and counts as JSON "
                        "(default: a table)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on standard error (default: shown)")
    parser.set_defaults(func=command)


def main(argv: list[str] | None = None) -> int:
    """``python -m referee.play.arena ...`` (the same as ``referee arena ...``)."""
    parser = argparse.ArgumentParser(prog="referee arena", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return command(parser.parse_args(argv))


def _usage(message: str) -> int:
    print(f"referee arena: {message}", file=sys.stderr)
    return EXIT_USAGE


class _UsageError(Exception):
    """A usage error of ``referee arena``: its one line."""


def _options(texts: Sequence[str]) -> dict[str, Any]:
    """The ``--option NAME=JSON`` values, by name."""
    options: dict[str, Any] = {}
    for text in texts:
        name, eq, value = text.partition("=")
        if not eq or not name:
            raise _UsageError(f"--option {text!r}: expected NAME=JSON")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError as err:
            raise _UsageError(f"--option {text!r}: the value is not JSON ({err.msg})") from None
    return options


def _entrants(specs: Sequence[str]) -> list[Entrant]:
    """The entrants loaded, their names made unique."""
    try:
        entrants = [load_entrant(spec) for spec in specs]
    except EntrantError as err:
        raise _UsageError(str(err)) from None
    unique_names(entrants)
    return entrants


def _arena(args: argparse.Namespace) -> Arena:
    """The arena the command line asks for."""
    from referee.engine.protocol import RefereeError
    from referee.games import registry
    try:
        rs = registry.get(args.ruleset)
    except KeyError:
        raise _UsageError(f"no ruleset {args.ruleset!r} (installed: {', '.join(registry.names())})") from None
    if args.games < 1:
        raise _UsageError("--games is a number of games, 1 or more")
    options = _options(args.option or ())
    entrants = _entrants(args.entrants)
    players = args.players or min(max(len(entrants), rs.min_players), rs.max_players)
    seed = args.seed if args.seed is not None else secrets.token_hex(16)
    try:
        return Arena(rs, players, entrants, seed=seed, options=options, games=args.games)
    except (ValueError, RefereeError) as err:
        raise _UsageError(getattr(err, "detail", None) or str(err)) from None


def _logs_folder(logs_arg: str | None) -> Path | None:
    """The ``--logs`` folder, made."""
    logs = Path(logs_arg) if logs_arg else None
    if logs is not None:
        try:
            logs.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise _UsageError(f"--logs {logs}: {err.strerror or err}") from None
    return logs


def command(args: argparse.Namespace) -> int:
    """Load the entrants, play the games, print the standings (exit 2 on a usage error, one line)."""
    try:
        arena = _arena(args)
        logs = _logs_folder(args.logs)
    except _UsageError as err:
        return _usage(str(err))
    report = run(arena, args.games, logs=logs, quiet=args.quiet)
    try:
        print(json.dumps(report, indent=2, ensure_ascii=False) if args.json else format_report(report), flush=True)
    except BrokenPipeError:  # `referee arena … | head`: the reader left, quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def run(arena: Arena, games: int, *, logs: Path | None = None, quiet: bool = False) -> Json:
    """Play ``games`` games (a progress bar on standard error unless ``quiet``); the report."""
    from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

    from referee.play.standings import RANKED_BY
    started = time.perf_counter()
    with tqdm(total=games, file=sys.stderr, disable=quiet, unit="game", desc=f"{arena.rs.name} arena",
              dynamic_ncols=True, mininterval=0.5) as bar:
        for index in range(games):
            played = arena.play(index, log=logs is not None)
            if logs is not None and played.lines is not None:
                (logs / f"{played.game_id}.ndjson").write_text("\n".join(played.lines) + "\n", encoding="utf-8")
            bar.update(1)
    seconds = time.perf_counter() - started
    return {
        "ruleset": arena.rs.name, "players": arena.players, "games": arena.games, "seed": arena.seed,
        "options": arena.options, "seconds": seconds, "games_per_s": arena.games / seconds if seconds else 0.0,
        "moves": arena.moves, "timeouts": arena.timeouts,
        "moves_per_s": arena.moves / seconds if seconds else 0.0,
        "ranked_by": RANKED_BY,
        "standings": arena.standings.table(),
        "failures": {e.name: {"counts": dict(e.failures), "first": dict(e.first_failure)}
                     for e in arena.entrants if e.failures},
        "logs": str(logs) if logs is not None else None,
    }


def format_report(report: Json) -> str:
    """The standings as a table, with every count, and the bots' failures."""
    from referee.play.standings import format_table
    rows = report["standings"]
    lines = [f"{report['ruleset']}, {report['players']} players: {report['games']} games (seed {report['seed']}) "
             f"in {report['seconds']:.1f} s: {report['games_per_s']:.1f} games/s, {report['moves_per_s']:,.0f} "
             f"moves/s ({report['moves']:,} moves, {report['timeouts']:,} timeouts)", format_table(rows)]
    if report["failures"]:
        lines.append("")
        lines.append("bot failures (each move replaced by the rules' default for the seat):")
        for name, failed in report["failures"].items():
            for cause, count in sorted(failed["counts"].items()):
                lines.append(f"  {name}: {count} {cause.replace('_', ' ')}; first: {failed['first'][cause]}")
    else:
        lines += ["", "bot failures: none"]
    if report["logs"]:
        lines.append(f"logs: {report['games']} in {report['logs']} (check them: referee audit "
                     f"{report['logs']}/*.ndjson)")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
