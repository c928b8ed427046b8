"""Built-in bots: ``random`` (uniform over the legal moves) and ``heuristic``
(sensible play from its own seat's view only). Pure: a bot gets what the API
shows its seat — ``seat_view`` — and a seeded ``Rng``, nothing else."""
from __future__ import annotations

from referee.engine.platform import playing_moves
from referee.engine.protocol import Json, Move
from referee.engine.rng import Rng

BUILT_IN = ("random", "heuristic")


def choose(kind: str, ruleset: str, view: Json, legal_moves: list[Move], seed: str) -> Move:
    """The move built-in bot ``kind`` plays; ``seed`` makes it reproducible."""
    rng = Rng(seed.encode())
    legal_moves = list(playing_moves(legal_moves))  # a built-in bot never resigns
    if kind == "random":
        return rng.choice(legal_moves)
    if kind == "heuristic":
        from referee.games import registry
        chooser = registry.heuristic(ruleset)
        if chooser is None:
            raise KeyError(f"ruleset {ruleset!r} has no heuristic bot")
        move: Move = chooser(view, legal_moves, rng)
        return move
    raise KeyError(f"no built-in bot {kind!r}")
