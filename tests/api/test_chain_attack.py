"""Attack the hash chain as an outsider would (issue 7; docs/audit.md, "The hash chain").

Random games of every ruleset are played over the API while a spectator and
every seat record every response they get: views, event pages, Server-Sent
Events, move responses, refusals and replays. Then each hidden event a viewer
received redacted is brute-forced against every hash-like value (64 hex
digits) anywhere in that viewer's responses: every candidate for its hidden
identifiers (the candidate space is every identifier the rules hid from
anyone during the game; up to two hidden at once are enumerated jointly,
more one at a time with the others given away), pushed through every
construction the attacker can compute from public values and the salts he
was handed. Format 2 must give zero recoveries; the same attack on the same
games under format 1's chain (kept below) recovers the hidden cards, which
shows the attack can fail.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import product
from typing import Any

import pytest

from referee.engine import canonical, verify_received
from referee.engine.platform import PLATFORM_EVENTS, playing_moves
from referee.engine.protocol import Event
from referee.engine.rng import Rng
from referee.games import registry
from referee.http.api import games as games_api
from tests.api.helpers import auth, create

HEX64 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
#: every registered ruleset, at its smallest and largest table
CASES = [(name, n, f"atk-{name}-{n}") for name in registry.names()
         for n in sorted({registry.get(name).min_players, registry.get(name).max_players})]
MARK = "@@hidden{}@@"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def format1_hash(prev: str, env: dict[str, Any]) -> str:
    """Format 1's chain, kept to show the attack finds its leak: the event's
    data hashed straight into the chain."""
    return sha(prev + canonical({k: env[k] for k in ("seq", "type", "data", "actor", "at", "prev")}))


@dataclass
class Viewer:
    seat: int | None
    texts: list[str] = field(default_factory=list)
    redacted: dict[int, dict[str, Any]] = field(default_factory=dict)  # seq -> the event as shown
    hashes: dict[int, str] = field(default_factory=dict)  # seq -> hash, where shown
    salts: dict[int, str] = field(default_factory=dict)  # seq -> salt, where handed out
    stream: list[dict[str, Any]] = field(default_factory=list)  # every event page's events, in order
    seen: int = 0

    def record(self, body: Any) -> None:
        self.texts.append(json.dumps(body, ensure_ascii=False))

    def take_events(self, events: list[dict[str, Any]], page: bool = False) -> None:
        if page:  # event pages come in order, after what was seen: the whole stream as received
            self.stream.extend(events)
        for e in events:
            if e.get("redacted"):
                self.redacted[e["seq"]] = e
            if "hash" in e:
                self.hashes[e["seq"]] = e["hash"]
            if "salt" in e:
                self.salts[e["seq"]] = e["salt"]

    def hexes(self) -> set[str]:
        return {h for text in self.texts for h in HEX64.findall(text)}


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _leaves(v, path + (i,))
    else:
        yield path, data


def _put(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[path[0]] = _put(data[path[0]], path[1:], value)
    return copy


def candidates(data: Any, universe: list[str]) -> Iterator[str]:
    """canonical(data) of every guess at the hidden identifiers in ``data``."""
    hidden = [p for p, v in _leaves(data) if isinstance(v, str) and v in universe]
    if not hidden:
        yield canonical(data)
        return
    marked = data
    for i, p in enumerate(hidden):
        marked = _put(marked, p, MARK.format(i))
    parts = re.split(r'"@@hidden(\d+)@@"', canonical(marked))
    truth = [json.dumps(v, ensure_ascii=False) for p, v in _leaves(data) if p in hidden]
    quoted = [json.dumps(u, ensure_ascii=False) for u in universe]

    def fill(values: tuple[str, ...]) -> str:
        out = list(parts)
        for j in range(1, len(parts), 2):
            out[j] = values[int(parts[j])]
        return "".join(out)

    if len(hidden) <= 2:
        for combo in product(quoted, repeat=len(hidden)):
            yield fill(combo)
    else:  # a generous attacker: all hidden identifiers given away but one
        for i in range(len(hidden)):
            for guess in quoted:
                yield fill(tuple(guess if j == i else truth[j] for j in range(len(hidden))))


def attack(truth: dict[int, dict[str, Any]], universe: list[str], viewers: list[Viewer],
           hexes_of: dict[int | None, set[str]]) -> list[tuple[int | None, int]]:
    """Every (viewer, seq) whose hidden event a candidate matched."""
    recovered = []
    for seq in sorted({s for v in viewers for s in v.redacted}):
        env = truth[seq]
        who = [v for v in viewers if seq in v.redacted]
        prevs = {p for v in who for p in (v.redacted[seq].get("prev"), v.hashes.get(seq - 1)) if p}
        salts = {s for v in who for s in (v.salts.get(seq - 1), v.salts.get(seq + 1)) if s} | {""}
        head = {k: env[k] for k in ("actor", "at", "seq", "type")}
        outputs: set[str] = set()
        for text in candidates(env["data"], universe):
            for prev in prevs:  # format 1's chain over the guessed data
                pre = canonical({"actor": head["actor"], "at": head["at"], "data": None, "prev": prev,
                                 "seq": head["seq"], "type": head["type"]}).split('"data":null')
                outputs.add(sha(prev + pre[0] + '"data":' + text + pre[1]))
            for salt in salts:  # a bare or salted hash of the data, with every salt at hand
                outputs.add(sha(salt + text))
        recovered += [(v.seat, seq) for v in who if outputs & hexes_of[v.seat]]
    return recovered


def play_and_record(client: Any, service: Any, clock: Any, ruleset: str, players: int, seed: str,
                    monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], list[Viewer], list[str]]:
    from workers.jobs import fire_timeout
    monkeypatch.setattr(games_api, "STREAM_MAX_S", 0.0)  # each stream request gives what is there and ends
    game = create(client, ruleset=ruleset, players=players, seed=seed,
                  options=registry.get(ruleset).options_for(players))
    rs = registry.get(ruleset)
    viewers = [Viewer(s) for s in [*range(players), None]]
    headers = {v.seat: auth(game["seats"][v.seat]["token"]) if v.seat is not None else {} for v in viewers}
    universe: set[str] = set()
    pick = Rng(seed.encode())
    gid = game["id"]
    for step in range(4000):
        state = service.load(gid).state
        for v in viewers:
            universe |= rs.hidden(state, v.seat)
            v.record(client.get(f"/v1/games/{gid}", headers=headers[v.seat]).get_json())
            page = client.get(f"/v1/games/{gid}/events?after={v.seen}", headers=headers[v.seat]).get_json()
            if page["status"] != "active":
                return game, viewers, sorted(universe)
            v.record(page)
            v.take_events(page["events"], page=True)
            if step % 7 == v.seen % 3:
                sse = client.get(f"/v1/games/{gid}/events/stream", headers={**headers[v.seat],
                                                                              "Last-Event-ID": str(v.seen)})
                v.texts.append(sse.get_data(as_text=True))
            v.seen = page["version"]
        spectator = client.get(f"/v1/games/{gid}").get_json()
        if step % 11 == 0:
            viewers[-1].record(client.get(f"/v1/games/{gid}/replay?version={spectator['version']}").get_json())
        if not spectator["to_act"]:
            clock.now = max(clock.now, spectator["deadline"])
            assert fire_timeout(gid, service) == "fired"
            continue
        seat = spectator["to_act"][pick.below(len(spectator["to_act"]))]
        idle = [s for s in range(players) if s not in spectator["to_act"]]
        if idle:  # a refusal is a response too
            other = idle[pick.below(len(idle))]
            refused = client.post(f"/v1/games/{gid}/moves", json={"move": {"type": "pass"}}, headers=headers[other])
            viewers[other].record(refused.get_json())
        moves = client.get(f"/v1/games/{gid}", headers=headers[seat]).get_json()["legal_moves"]
        r = client.post(f"/v1/games/{gid}/moves", json={"move": pick.choice(playing_moves(moves))},
                        headers=headers[seat])
        assert r.status_code == 201, r.get_json()
        if r.get_json()["status"] == "active":
            viewers[seat].record(r.get_json())
            viewers[seat].take_events(r.get_json()["events"])
        clock.advance(1)
    raise AssertionError("the game did not end")


def _universe_of(service: Any, gid: str, universe: list[str]) -> list[str]:
    """Every identifier the rules hid from anyone at any moment of the game."""
    rs = service.load(gid).ruleset
    state: Any = None
    found = set(universe)
    for env in service.store.read(gid):
        if env["type"] not in PLATFORM_EVENTS:
            state = rs.evolve(state, Event(env["type"], env["data"]))
            for seat in [*range(service.load(gid).players), None]:
                found |= rs.hidden(state, seat)
    return sorted(found)


@pytest.mark.random_play
@pytest.mark.parametrize("ruleset,players,seed", CASES)
def test_no_hidden_value_can_be_recovered_from_any_response(
        client: Any, service: Any, clock: Any, monkeypatch: pytest.MonkeyPatch,
        ruleset: str, players: int, seed: str) -> None:
    game, viewers, universe = play_and_record(client, service, clock, ruleset, players, seed, monkeypatch)
    stored = service.store.read(game["id"])
    truth = {e["seq"]: e for e in stored}
    universe = _universe_of(service, game["id"], universe)
    redacted = sum(len(v.redacted) for v in viewers)
    # every viewer could check, link by link, everything it received, redacted or not
    for v in viewers:
        assert [e["seq"] for e in v.stream] == list(range(1, len(v.stream) + 1))
        assert verify_received(v.stream, prev=service.load(game["id"]).header_hash) == [], v.seat
    # format 2, as the referee served it: nothing recovered (not even another seat's move, whose body
    # is hidden until the end)
    assert attack(truth, universe, viewers, {v.seat: v.hexes() for v in viewers}) == []
    if not universe:  # a ruleset whose rules hide no identifier (e.g. Nim): no card to brute-force
        return
    assert redacted > 20, "the game hid too little to attack"

    # the same games under format 1's chain (every event the viewer saw whole
    # carried its hash and prev): the attack recovers hidden events
    prev = service.load(game["id"]).header_hash
    legacy: dict[int, str] = {}
    for e in stored:
        legacy[e["seq"]] = prev = format1_hash(prev, {**e, "prev": prev})
    legacy_viewers = []
    for v in viewers:
        shown = [seq for seq in truth if seq <= v.seen and seq not in v.redacted]
        lv = Viewer(v.seat, redacted=v.redacted, hashes={s: legacy[s] for s in shown})
        lv.texts = [legacy[s] for s in shown] + [legacy[s - 1] for s in shown if s > 1]
        legacy_viewers.append(lv)
    for lv in legacy_viewers:  # format 1 showed no chain fields on a redacted event
        lv.redacted = {s: {k: x for k, x in e.items() if k not in ("prev", "hash", "commit")}
                       for s, e in lv.redacted.items()}
    found = set(attack(truth, universe, legacy_viewers, {v.seat: v.hexes() for v in legacy_viewers}))
    # every hidden ruleset event between two events the viewer saw whole is recovered
    reachable = {(lv.seat, s) for lv in legacy_viewers for s in lv.redacted
                 if truth[s]["type"] != "move" and s - 1 in lv.hashes and s + 1 in lv.hashes}
    if not reachable:  # the rules hide only the deal (the first event): no hidden event lies between two seen ones
        return
    assert reachable <= found, f"format 1: {len(reachable - found)} of {len(reachable)} not found"
