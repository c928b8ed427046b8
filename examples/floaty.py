"""floaty: a bot that answers with floats, to watch the pool pause it.

It answers each turn with a legal move, a move that has a number in it
where there is one (BANG!'s ``target``), but every number as a float that
is not whole: ``{"type": "play", "card": "c12", "target": 1.5}``. The
referee takes ``1.0`` for the integer 1, but not ``1.5``: each such answer
is invalid, the referee plays the turn's default (the game's log says
``"by": {"bot": …, "default": "invalid_answer"}``), and once invalid answers
are more than a fifth of its turns the pool pauses it (docs/ladder.md,
"Pausing"). Run it (``--url``: default ``REFEREE_URL``, else
``http://127.0.0.1:8000``)::

    .venv/bin/python examples/floaty.py --pool bang

then ``curl $REFEREE_URL/v1/ladder/bang/pool``: its ``status`` turns
``paused``, its ``paused_reason`` says why. Ctrl+C stops it (it stays in the
pool, paused). ``referee play`` would not send such a move at all: it
checks an answer against ``legal_moves`` first; this bot talks to the
referee itself with the Python client."""
import argparse
import os

from referee.client import Conflict, RefereeClient


def floaty(move):
    """The move with each integer made a float that is not whole (``1`` → ``1.5``)."""
    return {k: v + 0.5 if isinstance(v, int) and not isinstance(v, bool) else v for k, v in move.items()}


def choose(legal_moves):
    """A legal move with a number in it, if there is one."""
    numbered = [m for m in legal_moves if any(isinstance(v, int) for v in m.values())]
    return (numbered or legal_moves)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default=os.environ.get("REFEREE_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--pool", default="bang", help="the ladder whose pool it goes in")
    parser.add_argument("--name", default="floaty")
    args = parser.parse_args()
    client = RefereeClient(args.url)
    bot = client.bots.register(args.name, None, [args.pool.split(":")[0]])
    print(f"registered outbound bot {bot.id} ({args.name}); its secret, shown once: {bot.secret}", flush=True)
    client.bots.join_pool(args.pool, bot.id, secret=bot.secret)
    print(f"in the {args.pool} pool; answering every turn with floats (Ctrl+C stops)", flush=True)
    for turn in client.bots.turns(bot.id, secret=bot.secret):
        if not turn.verify(bot.secret):  # not the referee's: ignored
            continue
        try:
            client.bots.answer(bot.id, turn.delivery, floaty(choose(turn.legal_moves)), secret=bot.secret)
        except Conflict:  # past its deadline: the referee played the default
            pass

if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl+C
        pass
