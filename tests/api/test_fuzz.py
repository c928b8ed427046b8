"""No input produces a 500: arbitrary JSON into every body and query the API
takes, for every installed ruleset (hypothesis): the registry's, so a plug-in
ruleset (the throwaway Nim of tests/plugins in this run) is fuzzed as the
built-in ones are (issue 26 item 6). Bad input is a 4xx problem response."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import registry
from tests.api.helpers import auth, create
from tests.examples import examples

pytestmark = pytest.mark.slow  # many generated examples: started with the long ones (tests/conftest.py)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
SETUP_KEYS = ["turn", "phase", "seats", "deck", "discard", "dice", "flips", "blue_deck", "arrow_pile", "nuggets"]
SEAT_KEYS = ["role", "character", "life", "hand", "in_play", "alive", "coins", "card", "arrows", "position"]
CARDS = ["BANG-AS", "MISSED-10C", "BEER-6H", "CHEST-SWORD-1", "SHIP-SKULL-2", "BARREL-QS", "NOPE"]
VALUES = JSON | st.sampled_from(CARDS) | st.lists(st.sampled_from(CARDS), max_size=4) | \
    st.lists(st.sampled_from(["chest", "sword", "ship", "skull", "X"]), max_size=3) | \
    st.sampled_from(["sheriff", "outlaw", "bart_cassidy", "play", "draw", "start"])
SETUPS = st.fixed_dictionaries({}, optional={
    k: VALUES | st.lists(st.dictionaries(st.sampled_from(SEAT_KEYS), VALUES, max_size=4), max_size=8)
    for k in SETUP_KEYS})
MOVE_TYPES = ["roll", "steal", "claim", "pass", "accept", "challenge", "timeout", "play", "draw", "discard",
              "end_turn", "respond", "barrel", "choose", "keep", "sid"]
MOVES = st.builds(lambda t, extra: {"type": t, **extra}, st.sampled_from(MOVE_TYPES),
                  st.dictionaries(st.sampled_from(["target", "card", "cards", "source", "pick", "x"]), VALUES,
                                  max_size=3))
OK = {200, 201, 400, 401, 403, 404, 409, 410, 413, 422}
OPTION_KEYS = ["three_player", "characters", "first_seat", "claim_window_ms", "die_faces", "turn_timeout_s",
               "carry_characters_from"]


def installed() -> list[str]:
    """Every ruleset the referee serves (read when a test runs: the plug-ins are installed by then)."""
    return registry.names()


def declared(keys: list[str], of: str) -> list[str]:
    """``keys`` and every key some installed ruleset declares in its ``of``
    (``options_schema``, ``setup_schema``: their properties; ``move_schemas``: the move types)."""
    found = list(keys)
    for name in installed():
        declared_here = getattr(registry.get(name), of)
        found += sorted(declared_here if of == "move_schemas" else declared_here.get("properties") or {})
    return list(dict.fromkeys(found))


def players_of(name: str) -> int:
    """A table size ``name`` takes: 4, or its nearest bound."""
    ruleset = registry.get(name)
    return min(ruleset.max_players, max(ruleset.min_players, 4))


def test_create_never_fails_with_a_500(client: Any) -> None:
    names = installed()
    setups = st.fixed_dictionaries({}, optional={
        k: VALUES | st.lists(st.dictionaries(st.sampled_from(SEAT_KEYS), VALUES, max_size=4), max_size=8)
        for k in declared(SETUP_KEYS, "setup_schema")})

    @settings(max_examples=examples(100 * (len(names) + 1)), deadline=None)
    @given(ruleset=st.sampled_from([*names, "x"]), players=st.integers(0, 8) | JSON,
           options=st.dictionaries(st.sampled_from(declared(OPTION_KEYS, "options_schema")), VALUES,
                                   max_size=3) | JSON,
           setup=setups | SETUPS | JSON, seed=st.text(max_size=5) | JSON)
    def check(ruleset: Any, players: Any, options: Any, setup: Any, seed: Any) -> None:
        r = client.post("/v1/games", json={"ruleset": ruleset, "players": players, "options": options,
                                           "setup": setup, "seed": seed})
        assert r.status_code in OK, r.get_json()

    check()


def test_moves_and_queries_never_fail_with_a_500(client: Any) -> None:
    games = [create(client, ruleset=name, players=players_of(name), seed=f"fuzz-{name}") for name in installed()]
    moves = st.builds(lambda t, extra: {"type": t, **extra}, st.sampled_from(declared(MOVE_TYPES, "move_schemas")),
                      st.dictionaries(st.sampled_from(["target", "card", "cards", "source", "pick", "x"]), VALUES,
                                      max_size=3))

    @settings(max_examples=examples(200 * len(games)), deadline=None)
    @given(which=st.integers(0, len(games) - 1), seat=st.integers(0, 7), move=moves | MOVES | JSON,
           expected=st.none() | st.integers(-2, 50) | JSON,
           key=st.none() | st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=6),
           query=st.dictionaries(st.sampled_from(["after", "wait", "version", "token"]),
                                 st.text(max_size=5) | st.integers(-5, 50).map(str), max_size=2))
    def check(which: int, seat: int, move: Any, expected: Any, key: Any, query: dict[str, str]) -> None:
        game = games[which]
        headers = auth(game["seats"][seat % len(game["seats"])]["token"])
        if key:
            headers["Idempotency-Key"] = key
        body = {"move": move} if expected is None else {"move": move, "expected_version": expected}
        r = client.post(f"/v1/games/{game['id']}/moves", json=body, headers=headers)
        assert r.status_code in OK, r.get_json()
        for path in ("", "/events", "/replay"):
            q = {k: v for k, v in query.items() if not (k == "wait" and v not in ("0", ""))}
            r = client.get(f"/v1/games/{game['id']}{path}", query_string=q, headers=headers)
            assert r.status_code in OK, (path, q, r.get_json())

    check()


# Any text, lone surrogates included (hypothesis leaves them out by default),
# integers past 64 bits and floats at the edges: what a hostile client sends.
WILD_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=8)
WILD = st.recursive(
    st.none() | st.booleans() | st.integers(-2**80, 2**80) | st.floats(allow_nan=False) | WILD_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(WILD_TEXT, inner, max_size=3),
    max_leaves=10)


def _bury(value: Any, depth: int, key: str) -> str:
    """JSON text of ``value`` under ``depth`` levels of lists and objects
    (written out: ``json.dumps`` itself recurses)."""
    opening, closing = [], []
    for level in range(depth):
        opening.append("[" if level % 2 else "{%s:" % json.dumps(key))
        closing.append("]" if level % 2 else "}")
    return "".join(opening) + json.dumps(value) + "".join(reversed(closing))


def test_hostile_bodies_never_fail_with_a_500(client: Any) -> None:
    """Issue 8 (Found 2): lone surrogates anywhere and deep nesting anywhere in
    every body the API takes are a 4xx problem, never a 500."""
    names = installed()
    games = {name: create(client, ruleset=name, players=players_of(name), seed=f"fuzz-c-{name}") for name in names}

    @settings(max_examples=examples(50 * (len(names) + 2)), deadline=None)
    @given(ruleset=st.sampled_from(names), route=st.sampled_from(["games", "moves", "bots", "tournaments"]),
           field=st.sampled_from(["name", "seed", "type", "options", "setup", "move", "url", "entrants", "x"]),
           value=WILD, depth=st.sampled_from([0, 1, 5, 40, 1200, 3000]), key=WILD_TEXT)
    def check(ruleset: str, route: str, field: str, value: Any, depth: int, key: str) -> None:
        game, players = games[ruleset], players_of(ruleset)
        token = game["seats"][0]["token"]
        bases: dict[str, dict[str, Any]] = {
            "games": {"ruleset": ruleset, "seats": [{"name": "a"}] + [{}] * (players - 1)},
            "moves": {"move": {"type": "roll"}},
            "bots": {"name": "b", "url": "http://127.0.0.1:9/", "rulesets": [ruleset]},
            "tournaments": {"ruleset": ruleset, "games": 1, "entrants": ["random"] * players},
        }
        base = bases[route]
        target = base["move"] if route == "moves" and field == "type" else base
        target[field] = "@@"
        path = {"games": "/v1/games", "moves": f"/v1/games/{game['id']}/moves", "bots": "/v1/bots",
                "tournaments": "/v1/tournaments"}[route]
        # ensure_ascii: a lone surrogate travels as its \\udXXX escape
        text = json.dumps(base).replace('"@@"', _bury(value, depth, key))
        r = client.post(path, data=text, content_type="application/json", headers=auth(token))
        assert r.status_code in OK, (r.status_code, r.get_json())

    check()
