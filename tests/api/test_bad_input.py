"""Bad input is a precise 4xx problem, never a 500 (issue 8, Found 2 and 10).

Each test names the input that used to crash the referee or be refused
against the contract. Every response here is also checked against
openapi.yaml by the ``client`` fixture."""
from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import ApiError
from referee.json_boundary import MAX_DEPTH, check_value, load_json
from tests.api.helpers import auth, create

SURROGATE = "\\ud800"  # as it travels in JSON text: a lone high surrogate escape


def post_raw(client: FlaskClient, path: str, text: str, token: str | None = None) -> Any:
    return client.post(path, data=text.encode(), content_type="application/json",
                       headers=auth(token) if token else {})


def problem(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.get_data()[:300])
    assert r.mimetype == "application/problem+json"
    body: dict[str, Any] = r.get_json()
    assert body["code"] == code, body
    return body


def nested(depth: int, leaf: str = "1") -> str:
    return "[" * depth + leaf + "]" * depth


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    return create(client, ruleset="bluffaneer", players=3, seed="bad-input")


# -- JSON nested too deep: RecursionError (500) --------------------------------

def test_json_nested_a_thousand_levels_is_400_json_too_deep_on_every_body(client: FlaskClient,
                                                                          game: dict[str, Any]) -> None:
    # Regression: json.loads raised RecursionError at ~1,000 levels: 500.
    token = game["seats"][0]["token"]
    deep = nested(5000)
    bodies = [
        ("/v1/games", deep, None),
        ("/v1/games", '{"ruleset": "bang", "players": 4, "options": {"x": %s}}' % deep, None),
        ("/v1/games", '{"ruleset": "bang", "players": 4, "setup": {"seats": %s}}' % deep, None),
        (f"/v1/games/{game['id']}/moves", '{"move": {"type": "roll", "x": %s}}' % deep, token),
        ("/v1/bots", '{"name": "b", "url": "http://x/", "rulesets": %s}' % deep, None),
        ("/v1/tournaments", '{"ruleset": "bang", "games": 1, "entrants": %s}' % deep, None),
    ]
    for path, text, tok in bodies:
        problem(post_raw(client, path, text, tok), 400, "json_too_deep")


def test_json_depth_limit_is_exact(client: FlaskClient) -> None:
    # the body object is level 1: options at level 2 holds MAX_DEPTH - 2 more
    fits = '{"ruleset": "nope", "players": 4, "options": {"x": %s}}' % nested(MAX_DEPTH - 2)
    r = post_raw(client, "/v1/games", fits)
    assert r.get_json()["code"] != "json_too_deep"
    too_deep = '{"ruleset": "nope", "players": 4, "options": {"x": %s}}' % nested(MAX_DEPTH - 1)
    assert "$.options.x" in problem(post_raw(client, "/v1/games", too_deep), 400, "json_too_deep")["detail"]


# -- lone surrogates: UnicodeEncodeError (500) ---------------------------------

@pytest.mark.parametrize("body", [
    '{"ruleset": "bang", "seats": [{"name": "%s"}, {}, {}, {}]}' % SURROGATE,
    '{"ruleset": "bang", "players": 4, "seed": "a%sb"}' % SURROGATE,
    '{"ruleset": "bang", "players": 4, "options": {"%s": 1}}' % SURROGATE,
    '{"ruleset": "bang", "players": 4, "setup": {"seats": [{"hand": ["%s"]}]}}' % SURROGATE,
    '{"ruleset": "%s", "players": 4}' % SURROGATE,
    '{"%s": 1}' % SURROGATE,
    '{"ruleset": "bang", "players": 4, "seed": "\\udfff"}',  # a lone low surrogate too
])
def test_a_lone_surrogate_in_a_creation_is_400_invalid_unicode(client: FlaskClient, body: str) -> None:
    # Regression: "\ud800" decoded into a str that cannot be encoded: 500
    # when hashed or stored, and even the problem response failed to encode.
    problem(post_raw(client, "/v1/games", body), 400, "invalid_unicode")


def test_a_lone_surrogate_in_a_move_is_400_invalid_unicode(client: FlaskClient, game: dict[str, Any]) -> None:
    token = game["seats"][0]["token"]
    for body in ('{"move": {"type": "%s"}}' % SURROGATE, '{"move": {"type": "roll", "%s": 1}}' % SURROGATE,
                 '{"move": {"type": "claim", "cards": ["%s"]}}' % SURROGATE):
        detail = problem(post_raw(client, f"/v1/games/{game['id']}/moves", body, token), 400,
                         "invalid_unicode")["detail"]
        assert detail.startswith("$.move")


def test_a_lone_surrogate_in_a_bot_or_tournament_is_400_invalid_unicode(client: FlaskClient) -> None:
    problem(post_raw(client, "/v1/bots", '{"name": "%s", "url": "http://x/", "rulesets": ["bang"]}' % SURROGATE),
            400, "invalid_unicode")
    problem(post_raw(client, "/v1/tournaments",
                     '{"ruleset": "bang", "games": 1, "entrants": ["random"], "seed": "%s"}' % SURROGATE),
            400, "invalid_unicode")


def test_a_surrogate_pair_is_a_character_not_an_error(client: FlaskClient) -> None:
    r = post_raw(client, "/v1/games", '{"ruleset": "bluffaneer", "seats": [{"name": "\\ud83e\\udd20"}, {}, {}]}')
    assert r.status_code == 201 and r.get_json()["seats"][0]["name"] == "\N{FACE WITH COWBOY HAT}"


def test_nan_and_infinity_are_not_json(client: FlaskClient) -> None:
    for constant in ("NaN", "Infinity", "-Infinity"):
        body = '{"ruleset": "bang", "players": 4, "options": {"turn_timeout_s": %s}}' % constant
        problem(post_raw(client, "/v1/games", body), 400, "invalid_json")


# -- integers out of range --------------------------------------------------------

@pytest.mark.parametrize("query", ["after=99999999999999999999999", "after=99999999999999999999999&wait=1",
                                   f"after={2**53}", f"after={2**64}", "after=-1", "after=1.5", "wait=31"])
def test_an_events_query_out_of_range_is_400(client: FlaskClient, game: dict[str, Any], query: str) -> None:
    # Regression: after=10**23 reached Redis as a stream id (ResponseError: 500).
    problem(client.get(f"/v1/games/{game['id']}/events?{query}"), 400, "invalid_body")


@pytest.mark.parametrize("query", [f"after={2**64}", "after=99999999999999999999999", "after=x"])
def test_a_stream_after_out_of_range_is_400_before_the_stream_starts(client: FlaskClient, game: dict[str, Any],
                                                                     query: str) -> None:
    # Regression: after >= 2**64 answered 200, then the stream broke on Redis.
    problem(client.get(f"/v1/games/{game['id']}/events/stream?{query}"), 400, "invalid_body")


def test_a_replay_version_out_of_range_is_400(client: FlaskClient, game: dict[str, Any]) -> None:
    problem(client.get(f"/v1/games/{game['id']}/replay?version=99999999999999999999999"), 400, "invalid_body")


@pytest.mark.parametrize("header", ["abc", "1.5", "-1", "+3", " 3", "1_0", "0x10", "1" * 16, "\u0663"])
def test_a_bad_last_event_id_is_400(client: FlaskClient, game: dict[str, Any], header: str) -> None:
    # Regression: int("abc") raised ValueError: 500.
    r = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": header})
    problem(r, 400, "invalid_last_event_id")


def test_a_last_event_id_resumes_after_that_seq(client: FlaskClient, game: dict[str, Any],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("referee.http.api.games.STREAM_MAX_S", 0.0)
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    resumed = client.get(f"/v1/games/{game['id']}/events/stream?after=0",
                         headers={"Last-Event-ID": str(version - 1)}).get_data(as_text=True)
    assert [line for line in resumed.splitlines() if line.startswith("id:")] == [f"id: {version}"]
    whole = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": ""})
    assert whole.status_code == 200 and "id: 1\n" in whole.get_data(as_text=True)


# -- the contract's integers and limits, as the code applies them -------------------

def test_integral_numbers_are_integers(client: FlaskClient, game: dict[str, Any]) -> None:
    # Regression (schemathesis): JSON Schema's integer includes 4.0 and 109.0;
    # the code refused them as "Not a valid integer" (400).
    assert client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 3.0}).status_code == 201
    token = game["seats"][0]["token"]
    r = client.post(f"/v1/games/{game['id']}/moves", json={"move": {"type": "roll"}, "expected_version": 109.0},
                    headers=auth(token))
    problem(r, 409, "version_conflict")
    for players in ("3.5", '"3"', "true", "1e400", "1e300"):
        problem(post_raw(client, "/v1/games", '{"ruleset": "bluffaneer", "players": %s}' % players),
                400, "invalid_body")
    # past Python's 4300-digit limit on int() the parser itself refuses
    problem(post_raw(client, "/v1/games", '{"ruleset": "bluffaneer", "players": 1%s}' % ("0" * 5000)),
            400, "invalid_json")


def test_an_idempotency_key_over_256_characters_is_400(client: FlaskClient, game: dict[str, Any]) -> None:
    token = game["seats"][0]["token"]
    r = client.post(f"/v1/games/{game['id']}/moves", json={"move": {"type": "roll"}},
                    headers={**auth(token), "Idempotency-Key": "k" * 257})
    problem(r, 400, "invalid_idempotency_key")


def test_a_405_says_which_methods_are_allowed(app: Any, game: dict[str, Any]) -> None:
    # Regression (schemathesis): the problem response dropped werkzeug's Allow header.
    client = FlaskClient(app, app.response_class)  # these methods are not in the contract
    for method, path in (("DELETE", f"/v1/games/{game['id']}"), ("PUT", "/v1/games"), ("POST", "/health")):
        r = client.open(path, method=method)
        assert r.status_code == 405 and r.mimetype == "application/problem+json"
        assert r.headers["Allow"] and method not in r.headers["Allow"]


def _stdlib_reading(raw: bytes) -> Any:
    """What the body guard answered before orjson read plain bodies:
    ``json.loads`` with NaN refused, then the walk; a refusal as its problem."""
    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")
    try:
        value = json.loads(raw, parse_constant=constant)
        check_value(value)
    except RecursionError:
        return ("refused", "json_too_deep")
    except ValueError as exc:
        return ("refused", "invalid_json", str(exc))
    except ApiError as exc:
        return ("refused", exc.code, exc.detail)
    return ("read", json.dumps(value, sort_keys=True), repr(value))


def _guard_reading(raw: bytes) -> Any:
    try:
        value = load_json(raw)
    except ApiError as exc:
        if exc.code == "invalid_json":  # its detail quotes the parser's message, as the stdlib wrote it
            return ("refused", exc.code, exc.detail.removeprefix("the body is not valid JSON: "))
        return ("refused", exc.code) if exc.code == "json_too_deep" and "(at" not in exc.detail \
            else ("refused", exc.code, exc.detail)
    return ("read", json.dumps(value, sort_keys=True), repr(value))


_BODIES = [
    b'{"move": {"type": "play", "card": 12, "target": 3}, "expected_version": 17}',
    b'{"move":{"type":"bid","count":1.5e3,"face":-0.0,"x":1E5,"y":5e-324,"z":1.7976931348623157e308}}',
    b'{"a":1,"a":2}', b' [1.5] ', b"-0", b'"\\ud83d\\ude00"', b'"\\u00e9\\n"', "{\"é\": \"☃\"}".encode(),
    b'"\\ud800"', b'["\\udc00x"]', b'"\xed\xa0\x80"', b"NaN", b"[Infinity,-Infinity]", b"1E400", b"-1e-400",
    b"\xef\xbb\xbf{}", "{\"a\": 1}".encode("utf-16"), "[1]".encode("utf-32"), b"", b"[1,", b"{'a':1}", b"[1]x",
    b'"\x01"', b"\xff", b"12345678901234567890", b"[-9223372036854775809, 18446744073709551616]",
    b"9007199254740993", b'{"k":"x,12345678901234567890"}', b"1" * 4301,
    nested(MAX_DEPTH).encode(), nested(MAX_DEPTH + 1).encode(), nested(1100).encode(),
    b'{"s":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', b'[' + b'{"a":' * 40 + b"1" + b"}" * 40 + b"]",
]


@pytest.mark.parametrize("raw", _BODIES)
def test_the_body_guard_reads_and_refuses_as_the_standard_library(raw: bytes) -> None:
    """orjson reads plain bodies (``referee.json_boundary``): every value and
    every refusal is the one the standard library's path gives."""
    assert _guard_reading(raw) == _stdlib_reading(raw)


_TEXT = st.one_of(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=())),
                  st.text(alphabet=st.sampled_from(list('"\\\n\x00\x1f\x7f\ud800\udfffé😀eE.0-+:,[{')), max_size=12))
_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=-2**65, max_value=2**65),
              st.floats(allow_nan=True, allow_infinity=True), _TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(_TEXT, inner, max_size=6)),
    max_leaves=40)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_VALUES, st.booleans(), st.sampled_from(["utf-8", "utf-16", "utf-32"]))
def test_the_body_guard_reads_any_value_as_the_standard_library(value: Any, ascii_only: bool, encoding: str) -> None:
    raw = json.dumps(value, ensure_ascii=ascii_only).encode(encoding, "surrogatepass")
    assert _guard_reading(raw) == _stdlib_reading(raw)
