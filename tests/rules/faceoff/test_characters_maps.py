"""FO50–FO57: characters, modules, custom maps and hidden information."""
from __future__ import annotations

import copy

import pytest

from referee.engine.protocol import InvalidSetup
from referee.games import registry
from referee.games.faceoff import board
from tests.harness import scenario
from tests.rules.faceoff.helpers import RS, game, to_phase3


def chars(sheriff: str) -> list[str]:
    return [sheriff, "vulture_sam", "sid_ketchum"]


def test_FO50_kit_carlson_looks_at_three_keeps_one_per_draw() -> None:
    t = game(characters=chars("kit_carlson"), brown=["BANG-KD", "BEER-6H", "MISSED-2S", "BANG-2D"])
    t.play(0, t.legal(0)[0])
    t.play(0, {"type": "draw", "source": "deck"})
    assert sorted(t.state.limbo) == ["BANG-KD", "BEER-6H", "MISSED-2S"]
    assert t.view(0)["kit_cards"] is not None and t.view(1)["kit_cards"] is None
    assert "BEER-6H" in t.ruleset.hidden(t.state, 1)
    t.play(0, {"type": "choose", "card": "BEER-6H"})
    t.play(0, {"type": "walk", "path": []})
    s = t.state
    assert s.chars[0].hand == ("BEER-6H",) and s.brown[:3] == ("BANG-KD", "MISSED-2S", "BANG-2D")


def test_FO51_willy_the_kid_walks_three_per_slot() -> None:
    t = game(characters=chars("willy_the_kid"))
    t.play(0, t.legal(0)[0])
    walks = [m for m in t.legal(0) if m["type"] == "walk"]
    assert max(len(m["path"]) for m in walks) == 3
    assert all(len(m["path"]) == 2 for m in game(characters=chars("willy_the_kid")).legal(0))


def test_FO52_black_jack_shows_the_first_draw_red_draws_one_more() -> None:
    t = game(characters=chars("black_jack"), brown=["BEER-6H", "BANG-2C", "MISSED-2S"])
    t.play(0, t.legal(0)[0])
    t.play(0, {"type": "draw", "source": "deck"})
    assert sorted(t.state.chars[0].hand) == ["BANG-2C", "BEER-6H"]
    assert any(e.type == "card_shown" and e.data["card"] == "BEER-6H" for e in t.events)
    t.play(0, {"type": "draw", "source": "deck"})
    assert len(t.state.chars[0].hand) == 3 and sum(e.type == "card_shown" for e in t.events) == 1


def test_FO53_pedro_ramirez_and_jesse_jones_first_draw() -> None:
    t = game(characters=chars("pedro_ramirez"), brown_discard=["BEER-6H"])
    t.play(0, t.legal(0)[0])
    assert {"type": "draw", "source": "discard"} in t.legal(0)
    t.play(0, {"type": "draw", "source": "discard"})
    assert t.state.chars[0].hand == ("BEER-6H",)
    assert {"type": "draw", "source": "discard"} not in t.legal(0)
    j = game(characters=chars("jesse_jones"), hands=[[], ["MISSED-2S"], []])
    j.play(0, j.legal(0)[0])
    j.play(0, {"type": "draw", "source": "hand", "target": 1})
    assert j.state.chars[0].hand == ("MISSED-2S",)


def test_FO53_vulture_sam_takes_the_dead_cards() -> None:
    t = game(characters=["sid_ketchum", "jesse_jones", "vulture_sam"], hands=[["BANG-AS"], ["BEER-6H"], []],
             life=[4, 1, 4], positions=[[7, 3], [8, 3], [7, 5]], in_play=[[], ["BARREL-QS"], []])
    to_phase3(t, 0, [[7, 2], [8, 2]])
    t.play(0, {"type": "play", "card": "BANG-AS", "target": 1})
    t.play(1, {"type": "pass"})
    t.play(1, {"type": "pass"})
    assert sorted(t.state.chars[2].hand) == ["BARREL-QS", "BEER-6H"]


def _map(**kw: object) -> dict[str, object]:
    m = copy.deepcopy(board.BUILTIN["faceoff_1"])
    m.update(kw)
    return m


@pytest.mark.parametrize("bad,code", [
    ("not a map", "unknown_map"),
    (_map(format="x"), "MAP_SCHEMA"),
    (_map(extra=1), "MAP_SCHEMA"),
    (_map(id="-bad"), "MAP_ID"),
    (_map(rows=["S.B.R"] * 3), "MAP_SIZE"),
    (_map(rows=["S.B.R", "......", ".....", ".....", "....."]), "MAP_NOT_RECTANGULAR"),
    (_map(rows=["S.B.R", "..x..", ".....", ".....", "....."]), "MAP_BAD_CHAR"),
    (_map(rows=["S.B..", ".....", ".....", ".....", "....."]), "MAP_START_COUNT"),
    (_map(rows=["S.B.R", "#####", ".....", ".....", "....."]), "MAP_DISCONNECTED"),
    (_map(rows=["S.B.R", "NN...", ".....", ".....", "....."], nugget_tokens=1), "MAP_NUGGETS"),
    (_map(rows=["SBR##", "#####", "#####", "#####", "#####"]), "MAP_TOO_SMALL"),
])
def test_FO54_custom_map_validation(bad: object, code: str) -> None:
    rs = registry.get(RS)
    with pytest.raises(InvalidSetup) as info:
        rs.validate_options({"map": bad}, 2)
    assert info.value.code == code and info.value.rule in ("FO54", "FO7")


def test_FO54_a_valid_custom_map_is_played() -> None:
    m = {"format": "bang-faceoff-map", "version": 1, "id": "my-canyon", "name": "My canyon",
         "rows": ["S...#", ".#..N", "..R..", "N..#.", "#...B"], "nugget_tokens": 16}
    t = scenario(RS, 2, options={"map": m}, seed="custom")
    assert t.state.map_id == "my-canyon" and t.state.reserve == 14 and len(t.state.nuggets) == 2
    assert t.view(0)["board"][0][0] == "S"


def test_FO55_FO56_modules_refused_precisely() -> None:
    rs = registry.get(RS)
    for module, rule in (("high_noon", "FO55"), ("dodge_city", "FO56")):
        with pytest.raises(InvalidSetup) as info:
            rs.validate_options({module: True}, 2)
        assert (info.value.code, info.value.rule) == ("module_not_implemented", rule)


def test_FO55_FO56_off_by_default() -> None:
    assert registry.get(RS).validate_options({}, 2) == {"map": "faceoff_1", "renegade_variant": False}


def test_FO57_hidden_information() -> None:
    t = game(hands=[["BANG-AS"], ["BEER-6H"], ["MISSED-2S"]])
    v0, v1, spec = t.view(0), t.view(1), t.view(None)
    assert v0["hand"] == ["BANG-AS"] and "BEER-6H" not in str(v0) and "MISSED-2S" not in str(v0)
    assert "BANG-AS" not in str(v1) and "MISSED-2S" not in str(spec)
    assert v0["characters"][1]["hand_size"] == 1
    assert len(v0["board"]) == 11 and v0["board"][3][7] == "S" and v0["figures"][2]["x"] == 7
    assert v0["distances"] == [[0, 6, 2], [6, 0, 4], [2, 4, 0]]
