"""``referee tournament``, ``arena``, ``webhook-bot`` and ``play``: bots
playing and ranked, through a referee or in this process."""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee import settings
from referee.ops.explain import ACCEPTS, TOURNAMENT_OPTIONS, explain_problem, no_referee, problem_fields
from referee.ops.helptext import ARENA, BOTS, TOURNAMENTS, WEBHOOK_BOTS, add_command

if TYPE_CHECKING:
    from referee.bots.user import UserBot
    from referee.client import HttpProblem, RefereeClient, Tournament


def referee_url(given: str | None) -> str:
    """``--url``, else ``REFEREE_URL``, else where ``make run`` serves (``PORT``)."""
    return given or settings.get("REFEREE_URL") or f"http://127.0.0.1:{settings.text('PORT')}"


@dataclass
class _Followed:
    """A tournament this command follows: its id and cancel token once it
    is created, and how many of its games had finished at the last look."""

    tid: str | None = None
    cancel_token: str | None = None
    done: int = 0


def _tournament_options(given: list[str] | None) -> dict[str, Any] | None:
    """``--option NAME=JSON`` values by name; ``ValueError`` for one that is not."""
    return {k: json.loads(v) for k, v in (o.split("=", 1) for o in given)} if given else None


def cmd_tournament(args: argparse.Namespace) -> int:
    """Run a tournament through the API with a progress bar, then print the
    standings; Ctrl+C asks the referee to cancel it. Errors are one line."""
    import httpx

    from referee.client import HttpProblem, RefereeClient
    url = referee_url(args.url)
    try:
        options = _tournament_options(args.option)
    except ValueError:
        print("referee tournament: --option is NAME=JSON, e.g. --option expansion=true", file=sys.stderr)
        return 2
    client = RefereeClient(url)
    followed = _Followed()
    try:
        tournament = _run_tournament(client, args, options, followed)
        _print_tournament(client, args, tournament, followed)
        return 0
    except KeyboardInterrupt:
        return _cancel_tournament(client, followed)
    except HttpProblem as err:
        print(f"referee tournament: {_tournament_problem(client, args, err)}", file=sys.stderr)
        return 1
    except httpx.TransportError as err:
        print(f"referee tournament: {no_referee(url, err)}", file=sys.stderr)
        return 1
    finally:
        client.close()


def _run_tournament(client: RefereeClient, args: argparse.Namespace, options: dict[str, Any] | None,
                    followed: _Followed) -> Tournament:
    """Create the tournament and follow it, a progress bar on standard
    error, until it is no longer running; the tournament as last seen."""
    from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]
    entrants = [_entrant(text) for text in args.entrants]
    made = client.tournaments.create(args.ruleset, entrants, args.games, players=args.players or None,
                                     seed=args.seed or None, options=options)
    followed.tid, followed.cancel_token = made.id, made.cancel_token
    names = ", ".join(e if isinstance(e, str) else e["bot"] for e in entrants)  # never a secret
    print(f"tournament {made.id}: {args.games} {args.ruleset} games, entrants {names} "
          f"(Ctrl+C cancels it)", flush=True)
    with tqdm(total=made.games_total, unit="game", desc="games", file=sys.stderr,
              disable=args.no_progress or None) as bar:
        while True:
            tournament = client.tournaments.get(made.id)
            bar.update(tournament.games_finished - followed.done)
            followed.done = tournament.games_finished
            bar.set_postfix(events=tournament.raw.get("events_recorded", 0), refresh=False)
            if not tournament.running:  # finished, or cancelled
                return tournament
            time.sleep(args.poll)


def _print_tournament(client: RefereeClient, args: argparse.Namespace, tournament: Tournament,
                      followed: _Followed) -> None:
    """The audit of every game (``--audit``), whether it was cancelled, and the standings."""
    if args.audit:
        failed = [g.id for g in tournament.games if not client.games.audit(g.id).ok]
        print(f"audit: {len(tournament.games) - len(failed)}/{len(tournament.games)} games clean"
              + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    if tournament.status == "cancelled":
        print(f"tournament {followed.tid} was cancelled after {followed.done} of {tournament.games_total} games")
    print(format_standings(tournament.standings))


def _tournament_problem(client: RefereeClient, args: argparse.Namespace, err: HttpProblem) -> str:
    """The referee's problem with the tournament asked for, in the options' words
    (the rulesets it knows fetched when the ruleset was the mistake)."""
    given = {"ruleset": args.ruleset, "entrants": " ".join(args.entrants),
             "games": str(args.games), "players": None if args.players is None else str(args.players),
             "options": " ".join(args.option or ()) or None, "seed": args.seed}
    if given["players"] is None:
        given["players"] = f"(not given: one seat per entrant, {len(args.entrants)})"
    accepts = dict(ACCEPTS)
    if "ruleset" in problem_fields(err.body):
        accepts["ruleset"] = _rulesets(client) or "GET /v1/rulesets lists them"
    return explain_problem(err.body, err.status, TOURNAMENT_OPTIONS, given, accepts)


def _rulesets(client: RefereeClient) -> str | None:
    """The names of the rulesets the referee plays, or ``None`` if it will not say."""
    import httpx

    from referee.client import HttpProblem
    try:
        return ", ".join(r.name for r in client.rulesets.list())
    except (HttpProblem, httpx.HTTPError, ValueError, KeyError, TypeError):
        return None


def _cancel_tournament(client: RefereeClient, followed: _Followed) -> int:
    """Ctrl+C: ask the referee to cancel the tournament, if it was created; exit 130."""
    import httpx

    from referee.client import HttpProblem
    tid, cancel_token, done = followed.tid, followed.cancel_token, followed.done
    if tid is None or cancel_token is None:
        print("\nreferee tournament: stopped before the tournament was created", file=sys.stderr)
        return 130
    try:
        client.tournaments.cancel(tid, token=cancel_token)
        print(f"\nreferee tournament: asked the referee to cancel {tid} ({done} games finished; the games "
              "being played finish and count)", file=sys.stderr)
    except (HttpProblem, httpx.HTTPError) as err:
        print(f"\nreferee tournament: could not cancel {tid}: {err}", file=sys.stderr)
    return 130


def cmd_webhook_bot(args: argparse.Namespace) -> int:
    """A webhook bot, with signature checks: a built-in policy, or ``--bot FILE.py:FUNCTION``."""
    from referee.bots.example_server import serve
    from referee.bots.user import BadBot, load
    try:
        chooser = load(args.bot).choose if args.bot else None
    except BadBot as err:
        print(f"referee webhook-bot: {err}", file=sys.stderr)
        return 2
    serve(args.port, args.secret, args.policy, args.host, chooser=chooser)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """A bot author's function against a referee, with no public URL: as an
    outbound bot (``--bot-id``/``--secret``, or ``--register NAME``), or one
    seat of one game (``--game``/``--token``). Ctrl+C stops it."""
    import httpx

    from referee.bots.outbound import Refused
    from referee.bots.user import BadBot, load
    from referee.client import HttpProblem
    try:
        bot = load(args.bot)
    except BadBot as err:
        print(f"referee play: {err}", file=sys.stderr)
        return 2
    url = referee_url(args.url)
    _stop_on_signals()
    try:
        if args.game or args.token:
            return _play_seat(args, url, bot)
        return _play_outbound(args, url, bot)
    except KeyboardInterrupt:
        print("referee play: stopped", file=sys.stderr)
        return 0
    except httpx.TransportError as err:
        print(f"referee play: {no_referee(url, err)}", file=sys.stderr)
        return 1
    except (Refused, HttpProblem, httpx.HTTPError) as err:
        print(f"referee play: {err}", file=sys.stderr)
        return 1


def _stop_on_signals() -> None:
    """Stop as on Ctrl+C (a pooled bot leaves its pool) on SIGTERM too (a
    process manager's stop), and on SIGINT even when started in the
    background of a script, which starts it with SIGINT ignored."""
    import signal

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, interrupt)


def _play_seat(args: argparse.Namespace, url: str, bot: UserBot) -> int:
    """One seat of one game (``--game`` and ``--token``) to its end."""
    from referee.bots.outbound import play_seat
    if not (args.game and args.token):
        print("referee play: --game and --token go together (one seat of one game)", file=sys.stderr)
        return 2
    def moved(version: int, move: dict[str, Any]) -> None:  # a line a move: the bot is seen playing
        print(f"referee play: version {version}: sent {json.dumps(move)}", flush=True)
    final = play_seat(url, args.game, args.token, bot.choose, log=_log, moved=moved)
    print(f"referee play: game {args.game} is {final['status']}; result {json.dumps(final['result'])}")
    return 0


def _register(args: argparse.Namespace, url: str) -> tuple[str, str]:
    """A new outbound bot named ``--register``: its id and secret, the secret printed once."""
    import httpx
    made = httpx.post(f"{url.rstrip('/')}/v1/bots", timeout=10.0,
                      json={"name": args.register, "rulesets": args.ruleset or []})
    if made.status_code != 201:
        raise _registration_refused(made, args, url)
    bot_id, secret = made.json()["id"], made.json()["secret"]
    print(f"referee play: registered outbound bot {bot_id} ({args.register}); its secret, shown once: "
          f"{secret}", flush=True)
    return bot_id, secret


#: ``POST /v1/bots``'s fields (and the field an unknown ruleset's problem is about) -> ``referee play``'s options
REGISTER_OPTIONS = {"name": "--register", "rulesets": "--ruleset", "ruleset": "--ruleset"}


def _registration_refused(response: Any, args: argparse.Namespace, url: str) -> Exception:
    """The referee's refusal of ``--register``, in the options' words: the option, what was given,
    and for ``--ruleset`` the rulesets that referee plays."""
    from referee.bots.outbound import Refused
    from referee.client import RefereeClient
    try:
        body = response.json()
    except ValueError:
        return _refused_of(response)
    if not isinstance(body, dict) or not problem_fields(body):
        return _refused_of(response)
    rulesets = ", ".join(args.ruleset or ()) or None
    given = {"name": args.register, "rulesets": rulesets, "ruleset": rulesets}
    with RefereeClient(url) as client:
        known = _rulesets(client)
    accepted = f"{known}; --ruleset again for each ruleset it plays" if known else "GET /v1/rulesets lists them"
    accepts = {"ruleset": accepted, "rulesets": accepted}
    return Refused(explain_problem(body, response.status_code, REGISTER_OPTIONS, given, accepts))


def _play_outbound(args: argparse.Namespace, url: str, bot: UserBot) -> int:
    """An outbound bot's turns answered (``--bot-id``/``--secret``, or
    ``--register``) until Ctrl+C or ``--turns``."""
    from referee.bots.outbound import run_bot
    bot_id, secret = _register(args, url) if args.register else (args.bot_id, args.secret)
    if not (bot_id and secret):
        print("referee play: give --bot-id and --secret (or --register NAME --ruleset R), or --game and --token",
              file=sys.stderr)
        return 2
    print(f"referee play: {bot.name} answers {bot_id}'s turns from {url} (Ctrl+C stops)", flush=True)
    limit = args.turns

    def stop(counts: Any) -> bool:
        return limit is not None and counts.turns >= limit
    pool = _Pool(url, args.pool, bot_id, secret, args.games_at_once)
    try:
        counts = run_bot(url, bot_id, secret, bot.choose, stop=stop, log=_log, on_connect=pool.join)
    finally:
        pool.leave()
    print(f"referee play: {counts.turns} turns, {counts.answered} answered, {counts.late} late, "
          f"{counts.failed} failed")
    return 0


@dataclass
class _Pool:
    """``--pool``: the ladder's pool the bot puts itself in once it is
    connected for its turns, and leaves when it stops (Ctrl+C too)."""

    url: str
    key: str | None
    bot_id: str
    secret: str
    games_at_once: int | None
    joined: bool = False

    def join(self) -> None:
        """In the pool, the first time the bot connects (a reconnection leaves the entry as it is)."""
        if self.key is None or self.joined:
            return
        from referee.client import RefereeClient
        with RefereeClient(self.url) as client:
            entry = client.bots.join_pool(self.key, self.bot_id, secret=self.secret,
                                          games_at_once=self.games_at_once)
        self.joined = True
        print(f"referee play: in the {self.key} pool, {entry['games_at_once']} games at once "
              f"(GET /v1/ladder/{self.key}/pool)", flush=True)

    def leave(self) -> None:
        """Out of the pool, if it went in: its games being played finish."""
        if not self.joined:
            return
        from referee.client import NotFound, RefereeClient
        self.joined = False
        with RefereeClient(self.url) as client:
            try:
                client.bots.leave_pool(str(self.key), self.bot_id, secret=self.secret)
            except NotFound:  # its owner took it out already (DELETE), or the bot is gone
                print(f"referee play: not in the {self.key} pool any more", file=sys.stderr, flush=True)
                return
        print(f"referee play: left the {self.key} pool", file=sys.stderr, flush=True)


def _entrant(text: str) -> str | dict[str, str]:
    """``--entrants`` item: a built-in bot or a bot id, or ``ID:SECRET`` for
    a registered bot its owner seats (its secret as ``bot_secret``)."""
    bot, colon, secret = text.partition(":")
    return {"bot": bot, "bot_secret": secret} if colon and secret else text


def _log(line: str) -> None:
    print(f"referee play: {line}", file=sys.stderr, flush=True)


def _refused_of(response: Any) -> Exception:
    from referee.bots.outbound import _refused
    return _refused(response)


def format_standings(rows: list[dict]) -> str:  # type: ignore[type-arg]
    """A tournament's standings: the arena's table (``referee.play.standings.format_table``)."""
    from referee.play.standings import format_table
    return format_table(rows)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The commands that play bots: tournament, arena, webhook-bot, play."""
    tour = add_command(sub, "tournament", "run a tournament on a referee, print the standings", TOURNAMENTS)
    tour.add_argument("--url", help="the referee (default: REFEREE_URL, else http://127.0.0.1:$PORT)")
    tour.add_argument("--ruleset", required=True, help="bang, bang-dice, bang-faceoff, bluffaneer, …")
    tour.add_argument("--entrants", nargs="+", required=True, help="bot ids or built-in bots (random, heuristic); "
                      "ID:SECRET seats a registered bot with its owner's secret (unless it is public)")
    tour.add_argument("--games", type=int, required=True, help="games to play")
    tour.add_argument("--players", type=int, help="seats per game (default: one per entrant, within "
                      "the ruleset's sizes)")
    tour.add_argument("--seed", help="the tournament's seed (default: the referee draws one; a seeded "
                      "tournament is not rated)")
    tour.add_argument("--option", action="append", help="a game option, NAME=JSON (repeatable)")
    tour.add_argument("--audit", action="store_true", help="audit every game at the end")
    tour.add_argument("--poll", type=float, default=1.0, help="seconds between looks at the progress")
    tour.add_argument("--no-progress", action="store_true", help="no progress bar (it goes to standard error)")
    tour.set_defaults(func=cmd_tournament)
    from referee.play.arena import add_arguments as arena_arguments  # light: the rules load when it runs
    arena_arguments(add_command(sub, "arena", "play bots in this process (no server), print standings",
                                ARENA))
    hook = add_command(sub, "webhook-bot", "serve a webhook bot the referee calls over HTTP", WEBHOOK_BOTS)
    hook.add_argument("--port", type=int, default=9100, help="the port to listen on")
    hook.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    hook.add_argument("--secret", required=True, help="the secret POST /v1/bots returned")
    hook.add_argument("--policy", choices=["random", "heuristic"], default="heuristic",
                      help="the built-in policy played without --bot")
    hook.add_argument("--bot", help="your bot instead, FILE.py:FUNCTION or MODULE:FUNCTION: choose(view, legal_moves)")
    hook.set_defaults(func=cmd_webhook_bot)
    play = add_command(sub, "play", "play your bot on a referee, no public URL needed", BOTS)
    play.add_argument("--bot", required=True, help="FILE.py:FUNCTION or MODULE:FUNCTION: choose(view, legal_moves)")
    play.add_argument("--url", help="the referee (default: REFEREE_URL, else http://127.0.0.1:$PORT)")
    play.add_argument("--bot-id", help="a registered outbound bot's id (POST /v1/bots without a url)")
    play.add_argument("--secret", help="that bot's secret")
    play.add_argument("--register", metavar="NAME", help="register a new outbound bot of this name first "
                      "(prints its id and secret)")
    play.add_argument("--ruleset", action="append", help="with --register: a ruleset it plays (repeatable)")
    play.add_argument("--game", help="play one seat of this game instead (with --token)")
    play.add_argument("--token", help="that seat's token")
    play.add_argument("--turns", type=int, default=None, help="stop after this many turns (default: never stop)")
    play.add_argument("--pool", metavar="KEY", help="once connected, put the bot in this ladder's matchmaking "
                      "pool (bang, bang:3, bang-dice, bang-faceoff, bluffaneer); it leaves when the command stops")
    play.add_argument("--games-at-once", type=int, metavar="N", help="with --pool: its pool games at once "
                      "(default: the referee's, 4)")
    play.set_defaults(func=cmd_play)
