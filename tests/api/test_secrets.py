"""Secrets dealt at the start are sealed in the public log and each seal is
opened as soon as its secret is public (DESIGN.md, Randomness that anyone
can check): an auditor can prove no role, hand or card was swapped."""
from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from referee.audit import audit_log
from referee.engine import canonical
from tests.api.helpers import auth, create, move, play_to_end, view
from tests.forge import rechain


def _log(client: Any, game: dict[str, Any]) -> list[dict[str, Any]]:
    text = client.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).get_data(as_text=True)
    return [json.loads(line) for line in text.splitlines()]


def _opens(commitment: str, opening: dict[str, Any]) -> bool:
    return hashlib.sha256((opening["salt"] + canonical(opening["value"])).encode()).hexdigest() == commitment


def test_r83_roles_hands_and_deck_are_sealed_and_the_sheriff_opened_at_once(client: Any) -> None:
    game = create(client, ruleset="bang", players=5, seed="seal-a")
    events = client.get(f"/v1/games/{game['id']}/events").get_json()["events"]  # a spectator
    sealed = next(e for e in events if e["type"] == "secrets_sealed")["data"]["commitments"]
    assert set(sealed) == {f"role:{s}" for s in range(5)} | {f"hand:{s}" for s in range(5)} | {"deck"}
    opened = next(e for e in events if e["type"] == "secrets_opened")["data"]["secrets"]
    (name, opening), = opened.items()
    assert opening["value"] == "sheriff" and _opens(sealed[name], opening)
    seed = "seal-a"
    assert opening["salt"] == hmac.new(seed.encode(), f"secret:{name}".encode(), hashlib.sha256).hexdigest()


def test_r51_a_dead_players_role_seal_opens_in_the_move_that_reveals_it(client: Any) -> None:
    game = create(client, ruleset="bang", players=4, setup={"turn": 0, "phase": "play", "seats": [
        {"role": "sheriff", "character": "paul_regret", "hand": ["BANG-AS"]},
        {"role": "outlaw", "character": "bart_cassidy", "life": 1, "hand": []}, {}, {}]})
    assert move(client, game, 0, {"type": "play", "card": "BANG-AS", "target": 1}).status_code == 201
    opened: list[Any] = []
    while not opened and 1 in view(client, game)["to_act"]:  # the shot window, then the dying window
        r = move(client, game, 1, {"type": "pass"})
        assert r.status_code == 201
        opened = [e for e in r.get_json()["events"] if e["type"] == "secrets_opened"]
    assert not view(client, game)["state"]["seats"][1]["alive"]
    assert opened and opened[0]["data"]["secrets"]["role:1"]["value"] == "outlaw"
    sealed = next(e for e in _log(client, game) if e.get("type") == "secrets_sealed")["data"]["commitments"]
    assert _opens(sealed["role:1"], opened[0]["data"]["secrets"]["role:1"])


def test_f22_a_revealed_card_opens_its_seal(client: Any) -> None:
    game = create(client, setup={"turn": 0, "dice": ["chest", "sword"], "seats": [
        {"card": ["ship", "skull"]}, {"card": ["chest", "sword"]}, {}, {}]})
    move(client, game, 0, {"type": "roll"})
    move(client, game, 1, {"type": "claim"})
    move(client, game, 2, {"type": "pass"})
    move(client, game, 3, {"type": "pass"})
    events = move(client, game, 0, {"type": "accept"}).get_json()["events"]
    opened = next(e for e in events if e["type"] == "secrets_opened")["data"]["secrets"]
    assert list(opened) == ["card:1"] and opened["card:1"]["value"] == "CHEST-SWORD-1"
    assert view(client, game, 2)["status"] == "active"


def test_the_audit_catches_a_seal_opened_to_another_value(client: Any, clock: Any, service: Any) -> None:
    game = create(client, ruleset="bang", players=4, seed="seal-b")
    play_to_end(client, game, clock, service)
    assert client.get(f"/v1/games/{game['id']}/audit").get_json()["ok"]
    lines = _log(client, game)
    head, events = lines[0], lines[1:]
    opening = next(e for e in events if e["type"] == "secrets_opened")
    name = next(iter(opening["data"]["secrets"]))
    opening["data"]["secrets"][name]["value"] = "renegade" if "role" in name else ["BANG-AS"]
    report = audit_log(head["header"], head["hash"], rechain(head["hash"], events))  # history rewritten
    assert not report["ok"]
    assert next(c for c in report["checks"] if c["name"] == "secrets")["ok"] is False
    assert report["divergence"]["seq"] == opening["seq"]
