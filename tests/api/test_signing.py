"""The referee signs (issue 22, item 1; README, "Signed heads and receipts"):
every 201 carries a receipt a seat can later hold against a log, a finished
game's last event carries the signature of its final head, and ``referee
audit --key`` tells the referee's log from a re-chained forgery of another
legal game from the same header — which, without a key, audits clean."""
from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.audit import audit_log
from referee.audit.offline import LoggedTable
from referee.engine import header_hash
from referee.engine.rng import Rng
from referee.engine.signature import PublicKeys, final_statement, receipt_statement
from referee.games import registry
from tests.api.helpers import auth, create, ndjson, view
from tests.encoded import step
from tests.forge import rechain

REFEREE = str(Path(sys.executable).parent / "referee")
RULESET, PLAYERS = "bluffaneer", 3


def _play(client: Any, clock: Any, game: dict[str, Any], pick_seed: str, receipts: list[dict[str, Any]],
          max_steps: int = 5000) -> None:
    """Random legal play over HTTP to the end, keeping every 201's receipt."""
    from workers.jobs import fire_timeout
    pick = Rng(pick_seed.encode())
    for _ in range(max_steps):
        spectator = view(client, game)
        if spectator["status"] != "active":
            return
        if not spectator["to_act"]:
            clock.now = max(clock.now, spectator["deadline"])
            assert fire_timeout(game["id"], client.application.extensions["referee.service"]) == "fired"
            continue
        seat = spectator["to_act"][pick.below(len(spectator["to_act"]))]
        moves = [m for m in view(client, game, seat)["legal_moves"] if m["type"] != "resign"]  # F34: to the end
        response = client.post(f"/v1/games/{game['id']}/moves", json={"move": moves[pick.below(len(moves))]},
                               headers=auth(game["seats"][seat]["token"]))
        assert response.status_code == 201, response.get_json()
        receipts.append(response.get_json()["receipt"])
        clock.advance(1)
    raise AssertionError("the game did not end")


@pytest.fixture
def finished(client: Any, clock: Any) -> dict[str, Any]:
    """A finished game: its log's lines, its receipts, the referee's key set."""
    game = create(client, ruleset=RULESET, players=PLAYERS, seed="signed-game")
    receipts: list[dict[str, Any]] = []
    _play(client, clock, game, "signed-picks", receipts)
    lines = ndjson(client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True))
    jwks = client.get("/v1/keys").get_json()
    return {"game": game, "lines": lines, "receipts": receipts, "jwks": jwks, "client": client}


def _forgery(lines: list[dict[str, Any]], pick_seed: str) -> list[dict[str, Any]]:
    """Another legal game from the same header and the revealed seed, chained
    from the header's hash, the referee's signature copied onto its end: what
    anyone can write once a game is over (every salt follows from the seed)."""
    header, events = lines[0]["header"], lines[1:]
    seed = events[-1]["data"]["seed"]
    rs = registry.get(header["ruleset"])
    table = LoggedTable(rs, header["players"], options=header["options"], scenario=header.get("setup"),
                        seed=seed, now=header["created_at"])
    pick = random.Random(pick_seed)
    while step(rs, table, pick):
        pass
    forged = rechain(header_hash(header), copy.deepcopy(table.envelopes))
    forged[-1]["signature"] = dict(events[-1]["signature"])
    return [lines[0], *forged]


def _audit(lines: list[dict[str, Any]], jwks: Any = None, receipts: list[Any] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    keys = PublicKeys.from_jwks(jwks) if jwks is not None else None
    return audit_log(lines[0]["header"], lines[0]["hash"], lines[1:], keys=keys,
                     receipts=[(f"r{i}", r) for i, r in enumerate(receipts)])


def test_the_keys_are_published_as_a_jwk_set_and_verify_the_referee_s_signatures(client: Any, service: Any) -> None:
    response = client.get("/v1/keys")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "public, max-age=300"
    jwks = response.get_json()
    assert [k["kid"] for k in jwks["keys"]] == [k.kid for k in service.keyring.keys]
    assert all(k["kty"] == "OKP" and k["crv"] == "Ed25519" and len(k["x"]) == 43 for k in jwks["keys"])
    signed = service.keyring.final("g", 7, "ab" * 32)
    assert PublicKeys.from_jwks(jwks).verify(signed["kid"], signed["sig"], final_statement("g", 7, "ab" * 32,
                                                                                           signed["kid"])) is None


def test_every_201_carries_a_receipt_of_its_version_head_and_receipt_time(client: Any, clock: Any) -> None:
    game = create(client, ruleset=RULESET, players=PLAYERS, seed="receipt")
    seat = view(client, game)["to_act"][0]
    moves = view(client, game, seat)["legal_moves"]
    response = client.post(f"/v1/games/{game['id']}/moves", json={"move": moves[0]},
                           headers={**auth(game["seats"][seat]["token"]), "Idempotency-Key": "one"})
    body = response.get_json()
    receipt = body["receipt"]
    assert receipt["game"] == game["id"] and receipt["version"] == body["version"] == body["events"][-1]["seq"]
    assert receipt["head"] == body["events"][-1]["hash"] and receipt["at"] == clock.now
    keys = PublicKeys.from_jwks(client.get("/v1/keys").get_json())
    statement = receipt_statement(game["id"], receipt["version"], receipt["head"], receipt["at"], receipt["kid"])
    assert keys.verify(receipt["kid"], receipt["sig"], statement) is None
    for other in ({"version": receipt["version"] + 1}, {"at": receipt["at"] + 1}, {"game": "another"}):
        changed = {**receipt, **other}
        assert keys.verify(changed["kid"], changed["sig"], receipt_statement(
            changed["game"], changed["version"], changed["head"], changed["at"], changed["kid"])) is not None
    clock.advance(5000)  # a retry later gets the very bytes of the first answer, receipt time included
    again = client.post(f"/v1/games/{game['id']}/moves", json={"move": moves[0]},
                        headers={**auth(game["seats"][seat]["token"]), "Idempotency-Key": "one"})
    assert again.status_code == 201 and again.get_data() == response.get_data()


def test_the_last_event_carries_the_signed_final_head_and_nothing_else_does(finished: dict[str, Any]) -> None:
    events = finished["lines"][1:]
    assert all("signature" not in e for e in events[:-1])
    last = events[-1]
    assert last["type"] == "seed_revealed" and set(last["signature"]) == {"kid", "sig"}
    report = _audit(finished["lines"], finished["jwks"])
    assert report["ok"] and report["signed"], report
    served = finished["client"].get(f"/v1/games/{finished['game']['id']}/audit").get_json()
    assert served["ok"] and served["signed"]  # the referee's own audit checks under its own keys
    assert report["checks"][-1] == {"name": "signature", "ok": True, "checked": True,
                                    "detail": f"the final head (version {last['seq']}) is signed by the referee's "
                                              f"key {last['signature']['kid']!r}"}


def test_a_rechained_forgery_of_another_legal_game_audits_clean_without_a_key_and_fails_the_signature(
        finished: dict[str, Any]) -> None:
    forged = _forgery(finished["lines"], "another game")
    assert [e["hash"] for e in forged[1:]] != [e["hash"] for e in finished["lines"][1:]]
    unkeyed = _audit(forged)
    assert unkeyed["ok"] and not unkeyed["signed"]  # the chain, the seed, the replay: all hold
    assert unkeyed["checks"][-1]["checked"] is False and "not checked" in unkeyed["checks"][-1]["detail"]
    keyed = _audit(forged, finished["jwks"])
    assert not keyed["ok"]
    assert keyed["divergence"]["check"] == "signature" and keyed["divergence"]["seq"] == len(forged) - 1
    assert keyed["divergence"]["field"] == "signature"


def test_a_log_without_a_signature_fails_when_a_key_is_given(finished: dict[str, Any]) -> None:
    lines = copy.deepcopy(finished["lines"])
    del lines[-1]["signature"]
    assert _audit(lines)["ok"]
    report = _audit(lines, finished["jwks"])
    assert not report["ok"] and report["divergence"]["check"] == "signature"
    assert "carries no signature" in report["checks"][-1]["detail"]


def test_a_signature_under_another_key_or_spelled_otherwise_fails(finished: dict[str, Any]) -> None:
    from referee.engine.signature import Keyring, SigningKey
    lines = copy.deepcopy(finished["lines"])
    last = lines[-1]
    other = Keyring([SigningKey.from_seed(last["signature"]["kid"], bytes(range(32)))])
    last["signature"] = other.final(lines[0]["header"]["id"], last["seq"], last["hash"])
    assert _audit(lines, other.jwks())["ok"]  # the other key's own signature
    assert _audit(lines, finished["jwks"])["divergence"]["check"] == "signature"  # not the referee's
    lines = copy.deepcopy(finished["lines"])
    sig = lines[-1]["signature"]["sig"]  # 86 characters: the last one holds 4 unused bits
    lines[-1]["signature"]["sig"] = sig[:-1] + {"A": "B"}.get(sig[-1], "A")
    assert _audit(lines, finished["jwks"])["divergence"]["check"] == "signature"
    lines[-1]["signature"] = {"kid": "nobody", "sig": sig}
    assert "not among the keys given" in _audit(lines, finished["jwks"])["checks"][-1]["detail"]


def test_a_signature_anywhere_but_on_seed_revealed_is_refused(finished: dict[str, Any]) -> None:
    lines = copy.deepcopy(finished["lines"])
    lines[3]["signature"] = dict(lines[-1]["signature"])
    report = _audit(lines)
    assert report["divergence"]["check"] == "hash_chain" and report["divergence"]["seq"] == lines[3]["seq"]
    lines = copy.deepcopy(finished["lines"])
    lines[-1]["signature"]["extra"] = 1
    assert _audit(lines)["divergence"] == {"check": "hash_chain", "seq": lines[-1]["seq"], "field": "signature",
                                            "expected": "(absent)", "found": lines[-1]["signature"]}


def test_every_receipt_of_a_real_game_verifies_against_its_log_and_not_against_a_forgery(
        finished: dict[str, Any]) -> None:
    receipts = finished["receipts"]
    assert len(receipts) > 5
    report = _audit(finished["lines"], finished["jwks"], receipts)
    assert report["ok"] and report["checks"][-1]["name"] == "receipts" and report["checks"][-1]["checked"]
    forged = _forgery(finished["lines"], "another game")
    for receipt in (receipts[0], receipts[len(receipts) // 2], receipts[-1]):
        report = _audit(forged, finished["jwks"], [receipt])
        assert not report["ok"] and report["divergence"]["check"] == "signature", report["divergence"]
        assert _audit(forged, None, [receipt])["ok"]  # no key: the receipt proves nothing, the log judged alone


def test_a_receipt_that_is_not_the_referee_s_or_not_this_game_s_fails(finished: dict[str, Any]) -> None:
    receipt = finished["receipts"][2]
    tampered = {**receipt, "at": receipt["at"] + 1}
    report = _audit(finished["lines"], finished["jwks"], [tampered])
    assert report["divergence"]["check"] == "receipts" and report["divergence"]["field"] == "receipt.sig"
    assert _audit(finished["lines"], None, [tampered])["ok"]  # unkeyed: not verified, the log judged alone
    # an altered receipt is not the referee's, whatever it names: the signature is checked first (issue 36
    # item 5: a made-up receipt never makes a genuine log "not the game the referee ran")
    for altered in ({**receipt, "game": "another"}, {**receipt, "version": len(finished["lines"]) + 5}):
        assert _audit(finished["lines"], finished["jwks"], [altered])["divergence"]["field"] == "receipt.sig"
    assert _audit(finished["lines"], finished["jwks"], [{"receipt": receipt}])["divergence"]["field"] == "receipt"


def test_referee_audit_key_and_receipt_on_the_command_line(finished: dict[str, Any], tmp_path: Path) -> None:
    log = tmp_path / "game.ndjson"
    log.write_text("".join(json.dumps(line) + "\n" for line in finished["lines"]))
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps(finished["jwks"]))
    receipt = tmp_path / "r.json"
    receipt.write_text(json.dumps({"version": 1, "receipt": finished["receipts"][-1]}))  # a whole 201 body will do

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([REFEREE, "audit", *args], capture_output=True, text=True, timeout=120)

    plain = run(str(log))
    assert plain.returncode == 0 and "NOT   signature        not checked: no key was given" in plain.stdout
    keyed = run(str(log), "--key", str(keys), "--receipt", str(receipt))
    assert keyed.returncode == 0, keyed.stdout + keyed.stderr
    assert "ok    signature" in keyed.stdout and "ok    receipts" in keyed.stdout
    forged = tmp_path / "forged.ndjson"
    forged.write_text("".join(json.dumps(line) + "\n" for line in _forgery(finished["lines"], "cli forgery")))
    assert run(str(forged)).returncode == 0
    failed = run(str(forged), "--key", str(keys))
    assert failed.returncode == 1 and "FAILED at seq" in failed.stdout and "(signature)" in failed.stdout
    batch = run(str(log), str(forged), "--key", str(keys), "--jobs", "2")
    assert batch.returncode == 1 and "signed" in batch.stdout and "(signature)" in batch.stdout
    assert run(str(log), str(log), "--receipt", str(receipt)).returncode == 2  # receipts: one log at a time
    assert run(str(log), "--key", str(tmp_path / "missing.json")).returncode == 2
