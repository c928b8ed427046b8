"""Characters D34–D49 of rules/dice.md."""
from __future__ import annotations

from referee.games import registry
from tests.rules.dice.helpers import STOP, act, game, reroll, roll, shoot, st, target

RS = registry.get("bang-dice")
CALM = ["beer", "beer", "beer", "beer"]


def chars(seat0: str = "jesse_jones", seat1: str = "rose_doolan", seat2: str = "lucky_duke",
          seat3: str = "black_jack", seat4: str = "willy_the_kid") -> list[str]:
    return [seat0, seat1, seat2, seat3, seat4]


def test_D34_bart_cassidy_may_take_an_arrow_instead_of_a_life() -> None:
    t = roll(game(4, chars=chars(seat1="bart_cassidy")[:4], queue=["shot1", *CALM]))
    act(t, STOP)
    shoot(t, 1)
    assert st(t).prompt == "bart" and st(t).prompt_seat == 1
    assert [m.get("arrows") for m in RS.legal_moves(st(t), 1)] == [0, 1, None]  # None: resign (D75)
    act(t, {"type": "bart", "arrows": 1})
    assert st(t).life[1] == 8 and st(t).arrows[1] == 1


def test_D35_black_jack_may_reroll_dynamite() -> None:
    t = roll(game(4, chars=chars(seat0="black_jack", seat3="jesse_jones")[:4], queue=["dynamite", *CALM]))
    assert {"type": "reroll", "dice": [1]} in RS.legal_moves(st(t), 0)


def test_D36_calamity_janet_shoots_at_distance_one_or_two() -> None:
    t = roll(game(5, chars=chars(seat0="calamity_janet"), queue=["shot1", *CALM]))
    act(t, STOP)
    assert st(t).shot_targets == ((1, 2, 3, 4),)


def test_D37_el_gringo_hit_makes_the_shooter_take_an_arrow() -> None:
    t = roll(game(4, chars=chars(seat1="el_gringo")[:4], queue=["shot1", *CALM]))
    act(t, STOP)
    shoot(t, 1)
    assert st(t).arrows[0] == 1 and any(e.data.get("rule") == "D37" for e in t.last)


def test_D38_jesse_jones_at_four_or_less_gains_two_per_beer_on_himself() -> None:
    t = roll(game(4, life=[4, 9, 8, 8], queue=["beer", "beer", "dynamite", "arrow", "arrow"]))
    act(t, STOP)
    target(t, "beer", 0)
    target(t, "beer", 0)
    assert st(t).life[0] == 8


def test_D39_jourdonnais_loses_at_most_one_to_the_indians() -> None:
    t = roll(game(4, chars=chars(seat1="jourdonnais")[:4], arrows=[0, 5, 3, 0], queue=["arrow", *CALM]))
    assert st(t).life[1] == 6 and st(t).life[2] == 5


def test_D40_kit_carlson_discards_an_arrow_per_gatling() -> None:
    t = roll(game(4, chars=chars(seat0="kit_carlson")[:4], arrows=[0, 2, 0, 0],
                  queue=["gatling", "dynamite", "dynamite", "beer", "beer"]))
    act(t, STOP)
    target(t, "beer", 0)
    target(t, "beer", 0)
    assert st(t).prompt == "discard"
    target(t, "discard", 1)
    assert st(t).arrows[1] == 1 and st(t).turn == 1


def test_D41_lucky_duke_rolls_four_times() -> None:
    t = roll(game(4, chars=chars(seat0="lucky_duke", seat2="jesse_jones")[:4], queue=["beer"] * 20))
    reroll(t, 1)
    reroll(t, 1)
    assert st(t).prompt == "reroll"
    reroll(t, 1)
    assert st(t).rolls == 4 and st(t).prompt == "beer"


def test_D42_paul_regret_ignores_the_gatling() -> None:
    t = roll(game(4, chars=chars(seat1="paul_regret")[:4], queue=["gatling"] * 3 + ["dynamite", "arrow"]))
    act(t, STOP)
    assert st(t).life[1] == 9 and st(t).life[2] == 7


def test_D43_pedro_ramirez_may_discard_an_arrow_per_life_lost() -> None:
    t = roll(game(4, chars=chars(seat1="pedro_ramirez")[:4], arrows=[0, 2, 0, 0], queue=["shot1", *CALM]))
    act(t, STOP)
    shoot(t, 1)
    assert st(t).prompt == "pedro"
    act(t, {"type": "pedro", "regular": 1, "chief": False})
    assert st(t).arrows[1] == 1 and st(t).life[1] == 7


def test_D44_rose_doolan_reaches_one_place_further() -> None:
    t = roll(game(6, chars=chars(seat0="rose_doolan", seat1="jesse_jones") + ["kit_carlson"],
                  queue=["shot1", "shot2", "beer", "beer", "beer"]))
    act(t, STOP)
    assert st(t).shot_targets == ((1, 2, 4, 5), (2, 3, 4))


def test_D45_sid_ketchum_heals_a_player_before_rolling() -> None:
    t = game(4, chars=chars(seat0="sid_ketchum")[:4], life=[10, 5, 8, 8])
    assert st(t).prompt == "sid"
    target(t, "sid", 1)
    assert st(t).life[1] == 6 and st(t).prompt == "roll"


def test_D46_slab_the_killer_spends_a_beer_to_double_a_shot() -> None:
    t = roll(game(4, chars=chars(seat0="slab_the_killer")[:4], queue=["shot1", "beer", "dynamite", "arrow", "arrow"]))
    act(t, STOP)
    shoot(t, 1, double=True)
    assert st(t).life[1] == 7 and st(t).turn == 1  # the spent beer gives nothing


def test_D47_suzy_lafayette_without_shots_gains_two() -> None:
    t = roll(game(4, chars=chars(seat0="suzy_lafayette")[:4], life=[5, 9, 8, 8],
                  queue=["dynamite", "dynamite", "arrow", "arrow", "gatling"]))
    act(t, STOP)
    assert st(t).life[0] == 7


def test_D48_vulture_sam_gains_two_per_player_eliminated() -> None:
    t = roll(game(5, chars=chars(seat2="vulture_sam"), life=[11, 1, 5, 8, 8], queue=["shot1", *CALM]))
    act(t, STOP)
    shoot(t, 1)
    assert not st(t).alive[1] and st(t).life[2] == 7


def test_D49_willy_the_kid_fires_with_two_gatlings() -> None:
    t = roll(game(4, chars=chars(seat0="willy_the_kid", seat3="jesse_jones")[:4],
                  queue=["gatling", "gatling", "dynamite", "arrow", "arrow"]))
    act(t, STOP)
    assert st(t).life[1:] == (8, 7, 8)
