"""mybot: a bot for any ruleset of the referee, in 20 lines.

The referee calls ``choose(view, legal_moves)`` with the seat's own view (what
``GET /v1/games/{id}`` shows it) and the moves it may make now; it returns one
of them. Run it: ``referee play --bot examples/mybot.py:choose --register mybot``,
or in process: ``referee arena --entrants examples/mybot.py:choose random …``."""
import random

#: moves that let the turn go by: taken now and then, not always
PASSIVE = {"pass", "end_turn", "stop", "done", "decline"}


def choose(view, legal_moves):
    # the same view gets the same answer: a game replays the same when you debug it
    rng = random.Random(f"{view.get('id')}:{view.get('version')}:{view.get('seat')}")
    legal_moves = [m for m in legal_moves if m.get("type") != "resign"] or legal_moves  # never give up
    active = [m for m in legal_moves if m.get("type") not in PASSIVE]
    if active and rng.random() < 0.8:  # act rather than wait, mostly
        return rng.choice(active)
    return rng.choice(legal_moves)
