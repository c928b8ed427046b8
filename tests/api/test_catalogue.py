"""A catalogue per ruleset (issue 24, item 2): GET /v1/rulesets/{name}/catalogue
lists every card, character, role, die, face, symbol and map, generated from
the ruleset's own tables, with the IDs the deal, the views and the moves use,
and a rule ID per entry that GET /v1/rulesets/{name}/rules/{id} serves. Every
response is checked against openapi.yaml by the test client."""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest

from referee.engine.protocol import seat_view
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.bang import roles as bang_roles
from referee.games.cards import characters as card_characters
from referee.games.dice import characters as dice_characters
from referee.games.dice import dice_faces
from referee.games.dice import role_cards as dice_roles
from referee.games.faceoff.board import BUILTIN
from referee.games.faceoff.state import ROLE_NAMES
from referee.games.sim import Table, random_chooser
from referee.http import ruletexts

BUILT_IN = ("bang", "bang-dice", "bang-faceoff", "bluffaneer")
LISTS = ("cards", "characters", "roles", "dice", "faces", "symbols", "maps")
#: view and move keys whose strings are card IDs (or, for a window's ``card``, a card key such as BANG)
CARD_KEYS = {"card", "cards", "hand", "in_play", "discard", "barrels_used", "brown", "blue", "general_store",
             "kit_cards", "last_bids", "my_bid", "pick", "renegade_hand", "lucky_cards", "bid"}
BANG_CARD = re.compile(r"^[A-Z]+-(?:10|[2-9JQKA])[SHDC](?:-[12])?$")
PIRATE_CARD = re.compile(r"^(?:CHEST|SWORD|SHIP|SKULL)-(?:CHEST|SWORD|SHIP|SKULL)-[0-9]+$")
PLAYERS = {"bang": (4, 5, 7), "bang-dice": (4, 8), "bang-faceoff": (2,), "bluffaneer": (3, 6)}


def built(name: str) -> dict[str, Any]:
    rs: Any = registry.get(name)  # ``catalogue`` is a ruleset's optional hook, not on the Ruleset protocol
    return {**rs.catalogue(), "version": rs.version}


def english(text: str) -> bool:
    return bool(text.strip()) and text.isascii() and any(c.isalpha() for c in text)


def strings(obj: Any, key: str | None = None) -> Iterator[tuple[str | None, str]]:
    """Every (nearest key, string) in a JSON value."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from strings(v, k)
    elif isinstance(obj, list):
        for v in obj:
            yield from strings(v, key)
    elif isinstance(obj, str):
        yield key, obj


def test_every_ruleset_serves_its_catalogue_cached_by_version(client: Any) -> None:
    names = registry.names()
    assert set(BUILT_IN) <= set(names)
    for name in names:  # the throwaway Nim of tests/plugins among them
        rs = registry.get(name)
        r = client.get(f"/v1/rulesets/{name}/catalogue")
        assert r.status_code == 200, name
        body = r.get_json()
        assert body["ruleset"] == name and body["version"] == str(rs.version)
        assert all(isinstance(body[key], list) for key in LISTS)
        phrases = body.pop("phrases")  # the events in words (issue 25): tests/unit/test_phrases.py
        assert phrases and all(isinstance(v, str) for v in phrases.values()), name
        assert r.headers["ETag"] == f'"{name}-{rs.version}"'
        cache = r.headers["Cache-Control"].replace(" ", "").split(",")
        assert sorted(cache) == ["max-age=86400", "public"]
        if name in BUILT_IN:
            assert body == built(name) | {"ruleset": name}
        elif not hasattr(rs, "catalogue"):
            assert body == {"ruleset": name, "version": str(rs.version), **{key: [] for key in LISTS}}
        assert client.get(f"/v1/rulesets/{name}/catalogue").get_data() == r.get_data()  # the cached one


def test_an_unknown_ruleset_has_no_catalogue(client: Any) -> None:
    for name in ("chess", "BANG", "bang%20"):
        r = client.get(f"/v1/rulesets/{name}/catalogue")
        assert r.status_code == 404 and r.get_json()["code"] == "unknown_ruleset", name


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_entry_has_an_english_name_and_text_and_a_rule_that_resolves(name: str) -> None:
    cat = built(name)
    assert cat["ruleset"] == name
    for key in LISTS:
        ids = [e["id"] for e in cat[key]]
        assert len(ids) == len(set(ids)), (name, key)
        for entry in cat[key]:
            assert english(entry["name"]), (name, entry)
            for field in ("text", "goal"):
                if field in entry:
                    assert english(entry[field]) and len(entry[field]) < 140, (name, entry)
                    assert entry[field].endswith("."), (name, entry)  # one sentence
            if "rule" in entry:
                assert ruletexts.entry(name, entry["rule"]) is not None, (name, entry)
    for card in cat["cards"]:
        assert card["copies"] >= 1 and card["kind"]
        assert card["suit"] in ("S", "H", "D", "C", None)


def _dealt_cards(name: str, players: int, seed: bytes) -> list[str]:
    """Every card the setup deals, from the opening event: deck, hands, play areas."""
    t = Table(registry.get(name), players, seed=seed)
    data = t.events[0].data
    if name == "bang":
        return [*data["deck"], *(c for p in data["players"] for c in (*p["hand"], *p["in_play"]))]
    if name == "bang-faceoff":
        return [*data["brown"], *data["blue"], *(c for ch in data["chars"] for c in (*ch["hand"], *ch["in_play"]))]
    if name == "bluffaneer":
        return [*data["hands"], *data["deck"], *data["discard"]]
    return []


@pytest.mark.parametrize("name", BUILT_IN)
def test_the_cards_are_exactly_the_cards_the_ruleset_deals(name: str) -> None:
    cat = built(name)
    ids = [c["id"] for c in cat["cards"]]
    for players in PLAYERS[name]:
        dealt = _dealt_cards(name, players, seed=f"deal-{players}".encode())
        assert len(dealt) == len(set(dealt))
        assert set(dealt) == set(ids), (name, players)
        assert sum(c["copies"] for c in cat["cards"]) == len(dealt)
    assert len(ids) == {"bang": 80, "bang-faceoff": 80, "bluffaneer": 18, "bang-dice": 0}[name]


def test_bang_cards_characters_and_roles_are_the_rule_tables() -> None:
    cat = built("bang")
    r1, r3 = ruletexts.entry("bang", "R1"), ruletexts.entry("bang", "R3")
    assert r1 is not None and r3 is not None
    for card in cat["cards"]:
        assert f"| {card['name']} | `{card['kind'].upper()}` |" in r1["text"], card  # the name and key R1 print
        cited = ruletexts.entry("bang", card["rule"])
        assert cited is not None and cited["title"] in (card["name"], "Weapons"), card  # the card's own rule
        assert card["id"].startswith(f"{card['kind'].upper()}-{card['rank']}{card['suit']}")  # kind: the key, lower
        assert card["border"] == ("blue" if card["kind"].upper() in {"BARREL", "SCOPE", "MUSTANG", "JAIL", "DYNAMITE",
                                                              "VOLCANIC", "SCHOFIELD", "REMINGTON", "CARABINE",
                                                              "WINCHESTER"} else "brown")
    kinds = [c["kind"] for c in cat["cards"]]
    assert (kinds.count("bang"), kinds.count("missed"), kinds.count("beer")) == (25, 12, 6)
    assert sum(c["border"] == "blue" for c in cat["cards"]) == 17
    assert {c["suit"] for c in cat["cards"]} == {"S", "H", "D", "C"}
    assert [c["id"] for c in cat["characters"]] == list(card_characters.CHARACTERS)
    for ch in cat["characters"]:
        assert f"| {ch['name']} | {ch['life']} |" in r3["text"], ch  # name and life as R3 prints them
        assert ch["rule"] in r3["text"]
        cited = ruletexts.entry("bang", ch["rule"])
        assert cited is not None and cited["title"] == f"{ch['name']} ({ch['life']})", ch
    roles = {r["id"]: r for r in cat["roles"]}
    assert set(roles) == {role for deck in bang_roles.ROLE_DECK.values() for role in deck}
    for n, deck in bang_roles.ROLE_DECK.items():
        assert {rid: r["count_by_players"][str(n)] for rid, r in roles.items()} == {
            rid: deck.count(rid) for rid in roles}
    assert cat["dice"] == cat["faces"] == cat["symbols"] == cat["maps"] == []


def test_faceoff_has_bangs_cards_and_characters_its_roles_and_maps() -> None:
    cat, bang = built("bang-faceoff"), built("bang")
    assert [(c["id"], c["name"], c["kind"], c["suit"], c["rank"]) for c in cat["cards"]] == [
        (c["id"], c["name"], c["kind"], c["suit"], c["rank"]) for c in bang["cards"]]
    assert all(c["rule"].startswith("FO") and c["deck"] == c["border"] for c in cat["cards"])
    assert [(c["id"], c["name"], c["life"]) for c in cat["characters"]] == [
        (c["id"], c["name"], c["life"]) for c in bang["characters"]]
    assert [r["id"] for r in cat["roles"]] == list(ROLE_NAMES)
    fo6 = ruletexts.entry("bang-faceoff", "FO6")
    assert fo6 is not None
    assert [m["id"] for m in cat["maps"]] == list(BUILTIN)
    for m in cat["maps"]:
        assert f"Map `{m['id']}`, \"{m['name']}\" ({m['size'][0]} × {m['size'][1]})" in fo6["text"]
        assert m["rows"] == BUILTIN[m["id"]]["rows"] and m["nuggets"] == 8
        assert all(m["starts"][role] is not None for role in ROLE_NAMES)


def test_dice_game_dice_faces_characters_and_roles_are_the_rule_tables() -> None:
    cat = built("bang-dice")
    assert {d["id"]: d["faces"] for d in cat["dice"]} == {k: list(v) for k, v in dice_faces.DIE_FACES.items()}
    assert [f["id"] for f in cat["faces"]] == list(dice_faces.FACES)
    assert {f for d in cat["dice"] for f in d["faces"]} == {f["id"] for f in cat["faces"]}
    for face in cat["faces"]:
        texts = [ruletexts.entry("bang-dice", r) for r in (face["rule"], "D2", "D51")]
        assert any(t is not None and f"`{face['id']}`" in t["text"] for t in texts), face
    assert {c["id"]: c["life"] for c in cat["characters"]} == dice_characters.CHARACTERS
    for ch in cat["characters"]:
        found = ruletexts.entry("bang-dice", ch["rule"])
        assert found is not None and found["title"] == ch["name"], ch  # the name the rule's title gives
    roles = {r["id"]: r for r in cat["roles"]}
    assert set(roles) == set(dice_roles.ROLE_KINDS)
    for n, dealt in dice_roles.ROLES.items():
        assert {rid: r["count_by_players"][str(n)] for rid, r in roles.items()} == {
            rid: dealt.count(rid) for rid in roles}
        cards = set(dice_roles.role_cards(dealt))
        assert cards <= {c for r in roles.values() for c in r["cards"]}
    assert cat["cards"] == cat["symbols"] == cat["maps"] == []


def test_bluffaneer_cards_symbols_and_dice_are_the_rule_tables() -> None:
    cat = built("bluffaneer")
    f2 = ruletexts.entry("bluffaneer", "F2")
    assert f2 is not None
    symbols = {s["id"]: s for s in cat["symbols"]}
    assert list(symbols) == ["chest", "sword", "ship", "skull"]
    for s in symbols.values():
        assert f"`{s['id']}` ({s['name'].lower()})" in " ".join(f2["text"].split()), s
    assert cat["dice"] == [{"id": "default", "name": "Die", "faces": ["chest", "ship", "sword", "sword", "skull",
                                                                     "skull"], "rule": "F3", "count": 2}]
    pairs: dict[frozenset[str], int] = defaultdict(int)
    for card in cat["cards"]:
        assert card["id"].rsplit("-", 1)[0] == "-".join(card["symbols"]).upper() \
            and set(card["symbols"]) <= set(symbols)
        pairs[frozenset(card["symbols"])] += card["copies"]
    assert len(pairs) == 6 and set(pairs.values()) == {3}
    assert cat["characters"] == cat["roles"] == cat["faces"] == cat["maps"] == []


def _seen(name: str, players: int, seed: bytes, steps: int) -> dict[str, set[str]]:
    """Every (key, string) of every seat's view, and of the moves made, in a
    random game of at most ``steps`` moves."""
    rs = registry.get(name)
    t = Table(rs, players, seed=seed)
    rng = Rng(seed + b"-moves")
    choose = random_chooser(rng)
    seen: dict[str, set[str]] = defaultdict(set)

    def look() -> None:
        for seat in [None, *range(players)]:
            for key, value in strings(seat_view(rs, t.state, seat)):
                seen[key or ""].add(value)

    look()
    for _ in range(steps):
        if rs.result(t.state) is not None:
            break
        awaited = sorted(rs.to_act(t.state))
        seat = awaited[rng.below(len(awaited))] if awaited else None
        moves = rs.legal_moves(t.state, seat) if seat is not None else ()
        if seat is None or not moves:
            if rs.deadline(t.state) is None:
                break
            t.timeout()
        else:
            t.play(seat, choose(t, seat, moves))
        look()
    return seen


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_id_the_views_show_is_in_the_catalogue(name: str) -> None:
    cat = built(name)
    cards = {c["id"] for c in cat["cards"]}
    kinds = {c["kind"] for c in cat["cards"]}
    characters = {c["id"] for c in cat["characters"]}
    roles = {r["id"] for r in cat["roles"]} | {c for r in cat["roles"] for c in r.get("cards", [])}
    faces = {f["id"] for f in cat["faces"]} | {s["id"] for s in cat["symbols"]}
    met: dict[str, set[str]] = defaultdict(set)
    for i, players in enumerate(PLAYERS[name] * 2):
        seen = _seen(name, players, f"catalogue-{name}-{i}".encode(), 250)
        for key, values in seen.items():
            met[key] |= values
    pattern = PIRATE_CARD if name == "bluffaneer" else BANG_CARD
    for key, values in met.items():
        for value in values:
            if pattern.match(value):  # anything that looks like a card is one
                assert value in cards, (name, key, value)
            if key in CARD_KEYS and name != "bluffaneer":
                assert value in cards | kinds | {"hand"} | characters, (name, key, value)  # Jourdonnais's barrel
            if key in ("character", "set_aside"):
                assert value in characters, (name, key, value)
            if key in ("role", "roles_in_game"):
                assert value in roles, (name, key, value)
            if key in ("face", "symbols", "die_faces") or (key == "dice" and name == "bluffaneer"):
                assert value in faces, (name, key, value)
    shown = {"bang": ("hand", "character", "role"), "bang-dice": ("character", "role", "face"),
             "bang-faceoff": ("hand", "character", "role"), "bluffaneer": ("symbols", "id")}[name]
    assert all(met[key] for key in shown), name  # the games did show such IDs
    assert met["character"] <= characters
    if name in ("bang", "bang-dice"):
        assert {r for r in met["role"] if r.islower()} <= {r["id"] for r in cat["roles"]}
