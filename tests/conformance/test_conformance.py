"""The conformance suite (issue 9): what every registered ruleset must do,
run over every ruleset the registry finds — the built-in ones and any
installed package's (the throwaway Nim of ``tests/plugins`` among them).

* random legal play to the end, at every player count, keeps the ruleset's
  declared invariants and ends with exactly one well-formed result;
* ``decide`` accepts exactly ``legal_moves``: every listed move is accepted,
  a seat not awaited lists nothing and has its moves refused;
* the events survive storage as JSON, and replaying them rebuilds the state;
* no seat's view or events show what the ruleset declares hidden from it;
* over the API, a finished game's log replays to the served state and its
  audit is clean.
"""
from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Hashable
from typing import Any, cast

import pytest

from referee.engine import jsonenc, vocabulary
from referee.engine.encoded_views import ViewCache, encoded_view
from referee.engine.protocol import Event, IllegalMove, MalformedMove, OutOfTurn, fold, seat_view
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout, random_chooser
from tests.api.helpers import create, play_to_end
from tests.harness import text_of
from tests.schemas import check_of

SIZES = [(name, n, options) for name in registry.names()
         for n in range(registry.get(name).min_players, registry.get(name).max_players + 1)
         for options in registry.get(name).option_sets(n)]
SEEDS = (b"conform-1", b"conform-2")
_STEPS = itertools.count()
#: the views' shared parts, as the service keeps them (``step``: one key per version)
VIEWS = ViewCache()


def _conforms(schema: dict[str, Any], value: Any, what: str) -> None:
    """``value`` matches the schema the ruleset publishes (when it declares one)."""
    if schema:
        errors = [f"{list(e.path)}: {e.message}" for e in check_of(schema).errors(value)][:3]
        assert not errors, f"{what} breaks its published schema: {errors}"


@functools.cache
def lexicon(rs: Any) -> vocabulary.Lexicon:
    """The identifiers ``rs`` may use (its catalogue's, if it has one), built once per ruleset
    (``_check_step`` asks after every move)."""
    hook = getattr(rs, "catalogue", None)
    return vocabulary.Lexicon(hook() if hook else None, rs.text_keys)


def as_sent(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists), by the referee's own
    encoder: what a client reads (the standard library's round trip was a
    fifth of a long random play's time)."""
    return jsonenc.loads(jsonenc.dumps(value))


def _check_step(table: Table, before: Any) -> None:
    rs, state = table.ruleset, table.state
    words = lexicon(cast(Hashable, rs))  # a ruleset is hashed as the object it is
    awaited = rs.to_act(state)
    over = rs.result(state) is not None
    step = ("conform", next(_STEPS))  # one version: every viewer's view shares its public part
    assert rs.invariants(state) == [], rs.invariants(state)
    # the state a decision folded its events into is the state replay folds them into
    assert fold(rs, table.last, before) == state, "decide_and_fold's state differs from a fresh fold"
    players = table.config.players
    for event in table.last:  # each event, as each seat receives it, shows nothing hidden from it
        before = rs.evolve(before, event)
        assert not vocabulary.event_problems(words, event), vocabulary.event_problems(words, event)
        if rs.event_schemas:
            assert event.type in rs.event_schemas, f"{event.type} is not in the published events"
            _conforms(rs.event_schemas[event.type], as_sent(event.data), event.type)
        for seat in [None, *range(players)]:
            shown = rs.redact(event, seat)
            if shown is not None and rs.event_schemas:
                _conforms(rs.event_schemas[shown.type], as_sent(shown.data), f"{event.type} redacted")
            hidden = rs.hidden(before, seat)
            text = text_of(shown.to_json() if shown is not None else None)
            assert not [h for h in hidden if f'"{h}"' in text], f"{event.type} shows seat {seat} {hidden}"
    memo = table.memo  # the game's, as the service passes it: a view built once per state is shared
    for seat in [None, *range(players)]:
        hidden = rs.hidden(state, seat)
        body = rs.view(state, seat)  # built afresh: what the game's memo kept is the same
        # the view splits into what every viewer shares and what is the seat's own
        public, own = rs.public_view(state, memo=memo), rs.seat_part(state, seat, memo=memo)
        assert not set(public) & set(own) and "pending" not in public
        assert {**public, **own} == body
        # and its encoding, public part shared per version, is the view as the API sends it
        envelope = {"id": "g", "version": len(table.events)}
        sent = encoded_view(rs, state, seat, active=not over, envelope=envelope, key=step, cache=VIEWS, memo=memo)
        served = seat_view(rs, state, seat, active=not over, memo=memo)  # once: it is pure, and costs a view
        problems = vocabulary.view_problems(words, served, players)
        assert not problems, f"the view of seat {seat} breaks the vocabulary: {problems[:5]}"
        assert json.loads(sent) == as_sent({**envelope, **served})
        text = text_of(body)
        _conforms(rs.view_schema, as_sent({k: v for k, v in body.items() if k != "pending"}),
                  f"the view of seat {seat}")
        assert not [h for h in hidden if f'"{h}"' in text], f"the view of seat {seat} shows what it hides"
    probe_rng = Rng(b"probe", table.rng.position)
    for seat in range(players):
        moves = rs.legal_moves(state, seat)
        assert (seat in awaited and not over) == bool(moves) or rs.deadline(state) is not None
        for move in moves:  # decide is pure: deciding on the state is deciding on a copy
            rs.check_move(move)  # every legal move matches the schema the ruleset publishes
            rs.decide(state, seat, as_sent(move), rng=Rng(b"probe", probe_rng.position),
                      now=table.now + 1)
        if seat not in awaited:  # the base's shared check: a seat not awaited is out of turn, under a rule
            for other in sorted(awaited):
                for move in rs.legal_moves(state, other)[:3]:
                    with pytest.raises(OutOfTurn) as refused:
                        rs.decide(state, seat, dict(move), rng=Rng(b"probe"), now=table.now + 1)
                    assert refused.value.rule, f"{refused.value.code} names no rule"
        # ``timeout`` is the system's own command, from a seat it is out of turn
        with pytest.raises(OutOfTurn if not over else IllegalMove) as timed_out:
            rs.decide(state, seat, {"type": "timeout"}, rng=Rng(b"probe"), now=table.now + 1)
        assert timed_out.value.rule and timed_out.value.code == ("game_over" if over else "system_command")
        for move in _misshapen(rs.legal_moves(state, seat)):  # the parser agrees with the published schemas
            with pytest.raises(MalformedMove):
                rs.check_move(move)
            with pytest.raises(MalformedMove):
                rs.decide(state, seat, move, rng=Rng(b"probe"), now=table.now + 1)
    for move in ({"type": "no such move"}, {}):
        for seat in range(players):
            with pytest.raises(MalformedMove):
                rs.decide(state, seat, move, rng=Rng(b"probe"), now=table.now + 1)
    if awaited and not over:  # any move but timeout needs a seat
        move = rs.legal_moves(state, min(awaited))[0]
        with pytest.raises(OutOfTurn) as refused:
            rs.decide(state, None, dict(move), rng=Rng(b"probe"), now=table.now + 1)
        assert refused.value.code == "seat_required" and refused.value.rule == rs.platform_rules["turn"]
    if over:  # a move after the end is refused under the ruleset's own rule
        for seat in range(players):
            for move in history_moves(rs, table)[:2]:
                with pytest.raises(IllegalMove) as ended:
                    rs.decide(state, seat, dict(move), rng=Rng(b"probe"), now=table.now + 1)
                assert (ended.value.code, ended.value.rule) == ("game_over", rs.platform_rules["game_over"])


def history_moves(rs: Any, table: Table) -> list[dict[str, Any]]:
    """A few well-formed moves of the ruleset (the first move of its game again)."""
    first = Table(rs, table.config.players, options=table.config.options, seed=b"first-move")
    seat = min(rs.to_act(first.state))
    return list(rs.legal_moves(first.state, seat))


def _misshapen(moves: Any) -> list[Any]:
    """Each of the first few ``moves`` broken one way: an extra field, a field
    taken away, a field of the wrong type."""
    out: list[Any] = []
    for move in list(moves)[:2]:
        out.append({**move, "surplus": 1})
        for key, _value in move.items():
            if key == "type":
                continue
            out.append({k: v for k, v in move.items() if k != key})
            out.append({**move, key: {"not": "this"}})
            break
    return out


@pytest.mark.random_play
@pytest.mark.parametrize("ruleset,players,options", SIZES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_legal_play_keeps_the_invariants_to_one_result(
        ruleset: str, players: int, options: dict[str, Any], seed: bytes) -> None:
    rs = registry.get(ruleset)
    table = Table(rs, players, options=options, seed=seed)
    setup = [p for e in table.events for p in vocabulary.event_problems(lexicon(cast(Hashable, rs)), e)]
    assert not setup, f"the setup events break the vocabulary: {setup[:5]}"
    history = [table.state]

    def on_step(t: Table) -> None:
        _check_step(t, history[-1])
        history.append(t.state)

    playout(table, random_chooser(Rng(seed + b"/moves")), pick_seat=Rng(seed + b"/seats"), on_step=on_step)
    result = rs.result(table.state)
    assert result is not None and rs.to_act(table.state) == set()
    assert sorted(s["seat"] for s in result["seats"]) == list(range(players))
    assert set(result["winners"]) <= set(range(players)) and result["reason"]
    assert all((s["outcome"] == "win") == (s["seat"] in result["winners"]) for s in result["seats"])
    stored = [Event(e.type, json.loads(json.dumps(e.data))) for e in table.events]
    assert stored == table.events and fold(rs, stored) == table.state


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_finished_game_replays_to_its_state_and_audits_clean(
        client: Any, clock: Any, service: Any, ruleset: str) -> None:
    rs = registry.get(ruleset)
    game = create(client, ruleset=ruleset, players=rs.min_players, seed=f"conform-{ruleset}",
                  options=rs.options_for(rs.min_players))
    pick = Rng(b"conform-api")
    play_to_end(client, game, clock, service, pick=lambda seat, moves, step: moves[pick.below(len(moves))])
    served = service.load(game["id"])
    from referee.engine.platform import PLATFORM_EVENTS
    log = [json.loads(line) for line in client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True).splitlines()]
    assert fold(rs, [Event(e["type"], e["data"]) for e in log[1:] if e["type"] not in PLATFORM_EVENTS]) == served.state
    report = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert report["ok"], report["divergence"]


# -- one check of a move's shape (issue 20) -------------------------------------
def _values_for(schema: dict[str, Any], current: Any) -> list[Any]:
    """Values a field of ``schema`` might take, the schema's own and a few
    beside it: what a move's every field is varied over."""
    out: list[Any] = [None, True, "x", 0.5, {"not": "this"}]
    out += list(schema.get("enum", [])) + ([schema["const"]] if "const" in schema else [])
    if schema.get("type") == "integer" or isinstance(current, int):
        low, high = schema.get("minimum", 0), schema.get("maximum", 8)
        out += [low - 1, low, high, high + 1, *range(low, min(high, low + 9) + 1)]
        if isinstance(current, int) and not isinstance(current, bool):
            out += [current + 1, float(current)]
    if isinstance(current, list):
        items = schema.get("items", {})
        pool = list(items.get("enum", []))[:6] + [x for x in current if x not in items.get("enum", [])]
        out += [[], current[:1], current[1:], current + current[:1], current[::-1], *([p] for p in pool),
                [float(x) if isinstance(x, int) and not isinstance(x, bool) else x for x in current]]
    return out


def _variants(rs: Any, moves: Any) -> list[Any]:
    """Each of the first few ``moves`` with one field changed, left out or
    added, over what its schema allows and a little beyond."""
    out: list[Any] = []
    for move in list(moves)[:4]:
        schema = rs.move_schemas.get(move.get("type"), {})
        props = schema.get("properties", {})
        for name, prop in props.items():
            if name == "type":
                continue
            out += [{**move, name: value} for value in _values_for(prop, move.get(name))]
            out.append({k: v for k, v in move.items() if k != name})
    return out


def _outcome(rs: Any, state: Any, seat: int, move: Any, checked: bool, now: int) -> Any:
    try:
        events, _ = rs.decide_and_fold(state, seat, json.loads(json.dumps(move)), rng=Rng(b"probe"), now=now,
                                       checked=checked)
    except (IllegalMove, MalformedMove, OutOfTurn) as refused:
        return type(refused).__name__, refused.code, refused.rule, refused.detail
    return [(e.type, e.data) for e in events]


@pytest.mark.parametrize("ruleset,players,options", SIZES)
def test_a_move_checked_at_the_boundary_is_decided_as_one_parsed_whole(
        ruleset: str, players: int, options: dict[str, Any]) -> None:
    """The service checks a move's shape once, by the compiled published
    schema (``check_move``), and hands the rules the move as checked
    (``decide_and_fold(checked=True)``), which only reads it. For every move
    the schema accepts — every legal move, and each with a field changed,
    left out or added — that gives exactly what the ruleset's own parser
    gives: the same events, or the same refusal, code, rule and message."""
    rs = registry.get(ruleset)
    table = Table(rs, players, options=options, seed=b"one-check")
    steps, compared = 0, 0
    pick = Rng(b"one-check-pick")
    while rs.result(table.state) is None and steps < 60:
        for seat in range(players):
            for move in [*rs.legal_moves(table.state, seat)[:4], *_variants(rs, rs.legal_moves(table.state, seat))]:
                try:
                    rs.check_move(move)
                except MalformedMove:
                    continue
                compared += 1
                assert _outcome(rs, table.state, seat, move, True, table.now + 1) == \
                    _outcome(rs, table.state, seat, move, False, table.now + 1), (seat, move)
        seats = sorted(rs.to_act(table.state))
        if not seats:
            table.timeout()
        else:
            seat = seats[pick.below(len(seats))]
            table.play(seat, pick.choice(list(rs.legal_moves(table.state, seat))))
        steps += 1
    assert compared > steps


# -- resign (issue 24) ----------------------------------------------------------
RESIGNING = [(name, n, options) for name, n, options in SIZES if "resign" in registry.get(name).move_schemas]


@pytest.mark.parametrize("ruleset,players,options", RESIGNING)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_resigned_seat_is_never_awaited_again_and_the_game_ends_audited(
        ruleset: str, players: int, options: dict[str, Any], seed: bytes) -> None:
    """``{"type": "resign"}``, where the rules list it, is accepted like any
    move, recorded, audited; the seat that resigned never plays again."""
    from referee.audit.offline import LoggedTable
    from referee.engine.platform import RESIGN, playing_moves
    rs = registry.get(ruleset)
    table = LoggedTable(rs, players, options=options, seed=seed + b"/resign")
    urge = Rng(seed + b"/urge")
    offered: list[int] = []
    resigned: set[int] = set()
    history = [table.state]

    def choose(t: Table, seat: int, moves: Any) -> Any:
        assert seat not in resigned, f"seat {seat} resigned and is awaited again"
        resign = [m for m in moves if m["type"] == RESIGN]
        assert resign in ([], [{"type": RESIGN}]), resign
        if resign:
            offered.append(seat)
            if urge.below(6) == 0 and len(resigned) < players - 1:
                resigned.add(seat)
                return resign[0]
        return urge.choice(playing_moves(moves))

    def on_step(t: Table) -> None:
        _check_step(t, history[-1])
        history.append(t.state)

    playout(table, choose, pick_seat=Rng(seed + b"/seats"), on_step=on_step)
    assert offered, "resign is in no awaited seat's legal moves in a whole game"
    result = rs.result(table.state)
    assert result is not None and rs.to_act(table.state) == set()
    report = table.audit()
    assert report["ok"], report["divergence"]
