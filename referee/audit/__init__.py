"""Verify a game's log (DESIGN.md, Randomness that anyone can check).

``audit_log(header, header_hash, envelopes)`` needs nothing but the NDJSON log:
it re-checks the hash chain, opens the seed commitment, re-decides the whole
game from the seed and the recorded moves, and compares event by event.
"""
from __future__ import annotations

from typing import Any

from referee.games import registry
from referee.games.base import Event, GameConfig, Json, RefereeError, default_options, fold
from referee.games.rng import Rng
from referee.reading import (MOVE, PUBLIC_EVENTS, SECRETS_OPENED, SECRETS_SEALED, SEED_REVEALED, secret_commitment,
                             secret_salt)
from referee.store import canonical, chain_hash, sha256_hex


def _check(name: str, ok: bool, detail: str) -> Json:
    return {"name": name, "ok": ok, "detail": detail}


def _same(a: Any, b: Any) -> bool:
    return canonical(a) == canonical(b)


def audit_log(header: Json, header_hash: str, envelopes: list[Json]) -> Json:
    """A report ``{ok, checks: [{name, ok, detail}], events, result}``."""
    checks = [_check_chain(header, header_hash, envelopes)]
    seed_env = envelopes[-1] if envelopes and envelopes[-1]["type"] == SEED_REVEALED else None
    if seed_env is None:
        checks.append(_check("seed_commitment", False, "the seed is not revealed: the game is not over"))
        return {"ok": False, "checks": checks, "events": len(envelopes)}
    seed = str(seed_env["data"]["seed"])
    checks.append(_check("seed_commitment", sha256_hex(seed) == header["seed_commitment"],
                         "sha256(seed) equals the commitment published at creation"))
    checks.extend(_redecide(header, seed, envelopes, seed_env["data"].get("result")))
    return {"ok": all(c["ok"] for c in checks), "checks": checks, "events": len(envelopes),
            "result": seed_env["data"].get("result")}


def _check_secrets(rs: Any, seed: str, envelopes: list[Json]) -> Json:
    """The secrets sealed at creation are the ones the seed deals, and every
    seal opened during the game opens to its dealt value (DESIGN.md: no role
    or deck was swapped mid-game)."""
    secrets_of = getattr(rs, "secrets", None)
    sealed = [e for e in envelopes if e["type"] == SECRETS_SEALED]
    if secrets_of is None:
        return _check("secrets", not sealed, "this ruleset deals no sealed secrets")
    setup = [Event(e["type"], e["data"]) for e in envelopes[:next(
        (k for k, e in enumerate(envelopes) if e["type"] in (MOVE, SECRETS_SEALED)), len(envelopes))]]
    dealt = secrets_of(fold(rs, setup))
    expected = {n: secret_commitment(secret_salt(seed, n), v) for n, v in dealt.items()}
    if len(sealed) != 1 or sealed[0]["data"]["commitments"] != expected:
        return _check("secrets", False, "the sealed commitments are not those of the deal the seed makes")
    opened = 0
    for env in envelopes:
        if env["type"] != SECRETS_OPENED:
            continue
        for name, opening in env["data"]["secrets"].items():
            if name not in dealt or opening["salt"] != secret_salt(seed, name) or \
                    secret_commitment(opening["salt"], opening["value"]) != expected[name] or \
                    not _same(opening["value"], dealt[name]):
                return _check("secrets", False, f"event {env['seq']} opens {name} to something else than was sealed")
            opened += 1
    return _check("secrets", True, f"{len(dealt)} dealt secrets sealed at creation; {opened} opened during the game, "
                  "each to its sealed value")


def _check_chain(header: Json, header_hash: str, envelopes: list[Json]) -> Json:
    if sha256_hex(canonical(header)) != header_hash:
        return _check("hash_chain", False, "the header does not hash to the recorded header hash")
    prev = header_hash
    for expected_seq, env in enumerate(envelopes, start=1):
        if env.get("seq") != expected_seq:
            return _check("hash_chain", False, f"event {expected_seq}: seq is {env.get('seq')}")
        body = {k: v for k, v in env.items() if k != "hash"}
        if env.get("prev") != prev or chain_hash(prev, body) != env.get("hash"):
            return _check("hash_chain", False, f"event {expected_seq} does not chain to its predecessor")
        prev = env["hash"]
    return _check("hash_chain", True, f"{len(envelopes)} events chain from the header hash")


def _redecide(header: Json, seed: str, envelopes: list[Json], recorded_result: Any) -> list[Json]:
    try:
        rs = registry.get(header["ruleset"])
    except KeyError:
        return [_check("replay", False, f"unknown ruleset {header['ruleset']!r}")]
    if rs.version != header["ruleset_version"]:
        return [_check("ruleset_version", False,
                       f"the log was written under {rs.name} v{header['ruleset_version']}, "
                       f"this referee has v{rs.version}: replay refused")]
    rng = Rng(seed.encode())
    try:
        expected = rs.setup(GameConfig(players=header["players"], options=header["options"],
                                       scenario=header.get("setup")), rng)
    except RefereeError as err:
        return [_check("replay", False, f"setup refused on replay: {err.code}")]
    checks: list[Json] = []
    i, state, moves = 0, None, 0
    body = [e for e in envelopes if e["type"] not in PUBLIC_EVENTS]
    # setup events first, then each move followed by the events it caused
    while True:
        for event in expected:
            if i >= len(body) or body[i]["type"] == MOVE or not _same(
                    [body[i]["type"], body[i]["data"]], [event.type, event.data]):
                where = body[i]["seq"] if i < len(body) else "end"
                return checks + [_check("replay", False, f"at event {where}: the log differs from "
                                        f"what the rules decide ({event.type} expected)")]
            state = rs.evolve(state, Event(body[i]["type"], body[i]["data"]))
            i += 1
        if i < len(body) and body[i]["type"] != MOVE:
            return checks + [_check("replay", False, f"event {body[i]['seq']} was caused by no move")]
        if i >= len(body):
            break
        env = body[i]
        if env["data"].get("rng") != rng.position:
            return checks + [_check("randomness", False, f"move at event {env['seq']} drew from word "
                                    f"{env['data'].get('rng')}, not {rng.position}")]
        drawn_from = (env["data"].get("by") or {}).get("drawn_from")
        if drawn_from is not None:  # a timeout's default drawn from the generator (e.g. BANG! R43)
            options = default_options(rs, state, env["actor"])
            if len(options) != drawn_from or not _same(options[rng.below(drawn_from)], env["data"]["move"]):
                return checks + [_check("randomness", False, f"the default move at event {env['seq']} is not "
                                        "the one the generator draws")]
        try:
            expected = rs.decide(state, env["actor"], env["data"]["move"], rng=rng, now=env["at"])
        except RefereeError as err:
            return checks + [_check("replay", False, f"move at event {env['seq']} is refused on replay: "
                                    f"{err.code} ({err.rule})")]
        moves += 1
        i += 1
    checks.append(_check("randomness", True, f"every random outcome re-derived from the seed ({rng.position} words)"))
    checks.append(_check_secrets(rs, seed, envelopes))
    checks.append(_check("replay", True, f"{moves} moves re-decided; every event matches"))
    final = fold(rs, [], state)
    checks.append(_check("result", _same(rs.result(final), recorded_result),
                         "replay reaches the recorded result"))
    return checks
