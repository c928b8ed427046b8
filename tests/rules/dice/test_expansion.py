"""Old Saloon modules D50–D66, the 3-player variant D67–D71 and D72–D74."""
from __future__ import annotations

import pytest

from referee.engine.protocol import IllegalMove, InvalidSetup
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.dice.dice_faces import DIE_FACES
from referee.games.sim import Table, playout, random_chooser
from tests.harness import raises_rule
from tests.rules.dice.helpers import STOP, act, game, roll, shoot, st, target, types

RS = registry.get("bang-dice")
SALOON = {"saloon_dice": True}
CHIEF = {"chief_arrow": True}
GHOST = {"ghost": True}
CALM = ["beer", "beer", "beer", "beer"]


def test_D50_without_a_saloon_die_the_dice_stay_base() -> None:
    t = roll(game(4, options=SALOON))
    assert st(t).die_kinds == ("base",) * 5


def test_D51_the_saloon_dice_faces() -> None:
    assert DIE_FACES["loudmouth"] == ("arrow", "dynamite", "bullet", "double_shot1", "double_shot2", "double_gatling")
    assert DIE_FACES["coward"] == ("arrow", "dynamite", "shot1", "broken_arrow", "beer", "double_beer")


def test_D52_a_saloon_die_replaces_one_base_die() -> None:
    t = game(4, options=SALOON)
    assert len(RS.legal_moves(st(t), 0)) == 3 + 1  # and resign (D75)
    roll(t, "coward")
    assert st(t).die_kinds == ("base",) * 4 + ("coward",) and len(st(t).dice) == 5
    with raises_rule("D52", "no_saloon_die"):
        roll(game(4), "coward")


def test_D53_a_double_shot_gives_two_independent_shots() -> None:
    t = roll(game(5, options=SALOON, queue=[*CALM, "double_shot1"]), "loudmouth")
    act(t, STOP)
    assert st(t).shot_targets == ((1, 4), (1, 4))
    shoot(t, 1)
    shoot(t, 4)
    assert st(t).life[1] == 8 and st(t).life[4] == 7


def test_D54_a_broken_arrow_returns_one_regular_arrow() -> None:
    t = roll(game(4, options=SALOON, arrows=[0, 2, 0, 0], queue=[*CALM, "broken_arrow"]), "coward")
    assert st(t).prompt == "broken_arrow"
    target(t, "broken_arrow", 1)
    assert st(t).arrows[1] == 1 and st(t).prompt == "reroll"


def test_D55_a_bullet_costs_the_roller_a_life_at_once() -> None:
    t = roll(game(4, options=SALOON, queue=[*CALM, "bullet"]), "loudmouth")
    assert st(t).life[0] == 10 and st(t).prompt == "reroll"


def test_D56_the_gatling_fires_once_however_many_symbols() -> None:
    t = roll(game(4, options=SALOON, queue=["gatling", "gatling", "gatling", "dynamite", "double_gatling"]),
             "loudmouth")
    act(t, STOP)
    assert st(t).life[1:] == (8, 7, 7)


def test_D57_immediate_effects_arrow_then_broken_arrow() -> None:
    t = roll(game(4, options=SALOON, queue=["arrow", "beer", "beer", "beer", "broken_arrow"]), "coward")
    assert st(t).prompt == "broken_arrow" and st(t).arrows[0] == 1
    assert RS.legal_moves(st(t), 0) == [{"type": "broken_arrow", "target": 0}, {"type": "resign"}]


def test_D58_the_taker_chooses_the_chiefs_arrow() -> None:
    t = roll(game(4, options=CHIEF, queue=["arrow", *CALM]))
    assert st(t).prompt == "arrow"
    act(t, {"type": "arrow", "chief": True})
    assert st(t).chief_holder == 0 and st(t).arrows[0] == 0


def test_D59_the_chief_holder_alone_highest_loses_nothing() -> None:
    t = roll(game(4, options=CHIEF, arrows=[2, 3, 3, 0], chief_arrow=0, queue=["arrow", *CALM]))
    act(t, {"type": "arrow", "chief": False}) if st(t).prompt == "arrow" else None
    # seat 0 counts 3 + 2 = 5, alone highest: no loss; the others lose per regular arrow
    assert st(t).life == (11, 6, 5, 8) and st(t).chief_holder is None


def test_D59_the_chief_holder_tied_loses_two_for_it() -> None:
    t = roll(game(4, options=CHIEF, arrows=[1, 4, 3, 0], chief_arrow=0, queue=["arrow", *CALM]))
    assert st(t).life[0] == 11 - 4


def test_D60_the_chiefs_arrow_cannot_be_broken() -> None:
    t = roll(game(4, options={"expansion": True}, chief_arrow=1, queue=[*CALM, "broken_arrow"]), "coward")
    assert st(t).prompt == "reroll"  # nobody holds a regular arrow: no effect


def test_D61_the_first_eliminated_becomes_the_ghost_only_once() -> None:
    t = roll(game(5, options=GHOST, life=[11, 1, 8, 8, 1], queue=["shot1", "shot1", *CALM[:3]]))
    act(t, STOP)
    shoot(t, 1)
    shoot(t, 4)
    assert st(t).ghost == 1 and not st(t).alive[4]


def test_D62_a_ghost_renegade_plays_for_the_outlaws_with_five() -> None:
    t = game(5, options=GHOST, turn=2, life=[1, 0, 8, 8, 8], ghost=1,
             queue=["shot1", "shot1", "beer", "beer", "beer"])
    roll(t)
    act(t, STOP)
    for _ in range(2):
        shoot(t, 0) if 0 in st(t).shot_targets[len(st(t).declared)] else shoot(t, 3)
    r = RS.result(st(t))
    assert r is not None and 1 in r["winners"]


def test_D63_the_ghost_takes_no_place_in_distance() -> None:
    t = roll(game(5, options=GHOST, life=[11, 0, 8, 8, 8], ghost=1, queue=["shot1", *CALM]))
    act(t, STOP)
    assert st(t).shot_targets == ((2, 4),)


def _to_ghost(t: object) -> None:
    while st(t).turn != st(t).ghost:  # type: ignore[arg-type]
        act(t, RS.default_move(st(t), st(t).prompt_seat))  # type: ignore[arg-type]


def test_D64_the_ghost_rolls_two_dice() -> None:
    t = game(5, options=GHOST, life=[11, 0, 8, 8, 8], ghost=1)
    _to_ghost(t)
    assert st(t).prompt == "roll" and RS.legal_moves(st(t), 1) == [{"type": "roll", "saloon": None}, {"type": "resign"}]
    roll(t)
    assert len(st(t).dice) == 2 and st(t).life[1] == 0


def test_D65_D66_the_ghost_token_presets_the_first_roll() -> None:
    t = game(5, options=GHOST, life=[11, 0, 8, 8, 8], ghost=1)
    _to_ghost(t)
    t.state = st(t).replace(queue=("arrow", "arrow", "beer", "beer", "beer"))  # forced faces from here
    roll(t)
    act(t, STOP)
    assert st(t).prompt == "haunt"
    act(t, {"type": "haunt", "die": 1, "double": True, "target": 2})
    assert st(t).tokens[2] == ("arrow", 2) and st(t).turn == 2
    roll(t)
    assert st(t).dice[:2] == ("arrow", "arrow") and st(t).arrows[2] == 2 and st(t).tokens[2] is None


def test_D67_three_players_public_roles_deputy_starts_no_bonus() -> None:
    t = Table(RS, 3, seed="three")
    s = st(t)
    assert s.kind(s.turn) == "deputy" and s.max_life == tuple(
        __import__("referee.games.dice.characters", fromlist=["CHARACTERS"]).CHARACTERS[c] for c in s.characters)
    assert all(seat["role"] for seat in RS.view(s, None)["seats"]) and RS.hidden(s, None) == set()


def test_D68_D69_personal_elimination_of_the_target_wins() -> None:
    t = game(3, life=[8, 8, 1], queue=["shot1", *CALM])  # deputy 0 targets the renegade 2
    roll(t)
    act(t, STOP)
    shoot(t, 2)
    assert RS.result(st(t))["winners"] == [0]  # type: ignore[index]


def test_D69_an_indian_attack_is_not_personal() -> None:
    t = game(3, life=[8, 9, 1], arrows=[0, 0, 8], queue=["arrow", *CALM])
    roll(t)
    assert not st(t).alive[2] and RS.result(st(t)) is None


def test_D70_nobody_left_is_a_draw() -> None:
    t = game(3, turn=1, life=[0, 1, 1], arrows=[0, 4, 4], queue=["arrow", *CALM])
    roll(t)
    r = RS.result(st(t))
    assert r is not None and r["winners"] == [] and {s["outcome"] for s in r["seats"]} == {"draw"}


def test_D71_no_ghost_with_three_players() -> None:
    with pytest.raises(InvalidSetup) as refused:
        RS.validate_options({"ghost": True}, 3)
    assert refused.value.rule == "D71"
    assert RS.validate_options({"expansion": True}, 3)["ghost"] is False


def test_D72_the_same_seed_plays_the_same_game() -> None:
    runs = []
    for _ in range(2):
        t = Table(RS, 5, options={"expansion": True}, seed="same")
        playout(t, random_chooser(Rng(b"m")), pick_seat=Rng(b"p"))
        runs.append(t.events)
    assert runs[0] == runs[1]
    t = roll(game(4, queue=["shot2", "shot1"]))
    assert st(t).dice[:2] == ("shot2", "shot1") and st(t).queue == ()


def test_D73_defaults_and_no_rule_deadline() -> None:
    t = game(4)
    assert RS.default_move(st(t), 0) == {"type": "roll", "saloon": None}
    roll(t)
    assert RS.default_move(st(t), 0) == {"type": "stop"} and RS.default_move(st(t), 1) is None
    with pytest.raises(IllegalMove) as refused:
        RS.decide(st(t), None, {"type": "timeout"}, rng=Rng(b"x"), now=10**9)
    assert refused.value.code == "no_deadline"
    t = roll(game(4, life=[11, 5, 5, 5], queue=["beer", "dynamite", "dynamite", "arrow", "arrow"]))
    act(t, STOP)
    assert RS.default_move(st(t), 0) == {"type": "beer", "target": 0}


def test_D74_roles_are_sealed_secrets_opened_at_death() -> None:
    t = game(5, life=[11, 1, 8, 8, 8], queue=["shot1", *CALM])
    dealt = RS.secrets(st(t))
    assert dealt["role:2"] == "outlaw_1" and RS.public_secrets(st(t), dealt) == {"role:0"}
    roll(t)
    act(t, STOP)
    shoot(t, 1)
    assert RS.public_secrets(st(t), dealt) == {"role:0", "role:1"}
    shown = RS.redact(t.events[0], 3)
    assert shown is not None and shown.data["roles"] == ["sheriff", None, None, "outlaw", None]
    assert "game_started" in types(t.events)


def test_D73_the_move_parser_agrees_with_the_published_schemas() -> None:
    from jsonschema import Draft202012Validator

    from referee.engine.protocol import MalformedMove
    from referee.games.dice.moves import FIELDS, MOVE_SCHEMAS, parse
    values = [None, True, False, 0, 1, 2, 5, 7, 8, 9, 10, -1, "x", [], [1], [1, 1], [5, 4], [0], [6],
              [1, 2, 3, 4, 5, 1], "loudmouth", "coward", {"a": 1}]
    VALID = {"target": 0, "saloon": None, "dice": [1], "chief": False, "double": False, "arrows": 0,
             "regular": 0, "die": 1}
    accepted = 0
    for kind, (_, fields) in FIELDS.items():
        assert parse({"type": kind, **{f: VALID[f] for f in fields}})
        for name in fields:
            for value in values:
                move = {"type": kind, **{f: VALID[f] for f in fields}, name: value}
                ok = Draft202012Validator(MOVE_SCHEMAS[kind]).is_valid(move)
                try:
                    parse(move)
                    parsed = True
                except MalformedMove:
                    parsed = False
                assert parsed == ok, (move, ok)
                accepted += parsed
    assert accepted > 30


def test_D62_a_ghost_renegade_plays_for_the_deputies_with_six() -> None:
    t = game(6, options=GHOST, turn=0, life=[11, 0, 1, 0, 0, 7], ghost=1,
             queue=["shot1", "beer", "beer", "beer", "dynamite"])
    roll(t)
    act(t, STOP)
    shoot(t, 2)
    r = RS.result(st(t))
    assert r is not None and r["winners"] == [0, 1, 5]


def test_D66_preset_dynamite_counts_toward_three() -> None:
    t = game(4, options=GHOST, tokens=[{"seat": 0, "face": "dynamite", "dice": 2}],
             queue=["dynamite", "beer", "beer"])
    roll(t)
    assert st(t).dice[:3] == ("dynamite",) * 3 and st(t).life[0] == 10 and st(t).prompt == "beer"


def test_D57_broken_arrows_come_after_the_rolls_arrows_and_bullets_last() -> None:
    t = roll(game(4, options=SALOON, queue=["arrow", "beer", "beer", "beer", "broken_arrow"]), "coward")
    target(t, "broken_arrow", 0)
    assert st(t).arrows[0] == 0 and st(t).prompt == "reroll"
    t = roll(game(4, options=SALOON, life=[1, 9, 8, 8], arrows=[0, 0, 0, 8],
                  queue=["arrow", "beer", "beer", "beer", "bullet"]), "loudmouth")
    # the arrow empties the pile first (the attack costs seat 0 one life... he has 1: eliminated)
    assert not st(t).alive[0]


def test_D61_no_ghost_when_the_batch_ends_the_game() -> None:
    t = game(4, options=GHOST, turn=2, life=[1, 9, 8, 8], queue=["shot2", *CALM])
    roll(t)
    act(t, STOP)
    shoot(t, 0)
    assert RS.result(st(t)) is not None and st(t).ghost is None
