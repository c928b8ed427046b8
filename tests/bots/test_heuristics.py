"""The built-in heuristic bots: legal, view-only, deterministic, sensible.

Each heuristic is ``choose(view, legal_moves, rng)`` where ``view`` is
``seat_view`` output. These tests drive real games through the in-memory
``Table`` and check what a seat is shown and what the bot answers.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from referee.bots.heuristic import bluffaneer as hb
from referee.engine.protocol import Json, Move, seat_view
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout

#: every registered ruleset with a built-in heuristic
RULESETS = tuple(name for name in registry.names() if registry.heuristic(name) is not None)


def _sizes(name: str) -> tuple[int, ...]:
    """The smallest, a middle and the largest table of a ruleset."""
    rs = registry.get(name)
    return tuple(sorted({rs.min_players, (rs.min_players + rs.max_players + 1) // 2, rs.max_players}))


PLAYERS = {name: _sizes(name) for name in RULESETS}


def heuristic(ruleset: str) -> Callable[..., Any]:
    """The built-in heuristic of ``ruleset`` (every name in RULESETS has one)."""
    choose = registry.heuristic(ruleset)
    assert choose is not None, f"{ruleset} has no heuristic"
    return choose


def table(ruleset: str, players: int, setup: dict[str, Any] | None = None, seed: str = "t") -> Table:
    rs = registry.get(ruleset)
    return Table(rs, players, options=rs.options_for(players), scenario=setup, seed=seed)


def view_of(t: Table, seat: int) -> Json:
    return seat_view(t.ruleset, t.state, seat)


def ask(t: Table, seat: int, seed: bytes = b"bot") -> Move:
    """The heuristic's answer for ``seat``, checked to be a legal move as given."""
    view = view_of(t, seat)
    moves = view["legal_moves"]
    move = heuristic(t.ruleset.name)(view, moves, Rng(seed))
    assert any(move is m for m in moves), f"{move} is not one of {moves}"
    return move


def heuristic_chooser(ruleset: str, rng: Rng, seats: set[int] | None = None) -> Any:
    """A ``playout`` chooser: the heuristic for ``seats`` (all if None), random otherwise.
    Checks every answer is an unchanged element of the legal moves and that
    the view is left untouched."""
    choose = heuristic(ruleset)

    def chooser(t: Table, seat: int, moves: Sequence[Move]) -> Move:
        if seats is not None and seat not in seats:
            return rng.choice(moves)
        view = seat_view(t.ruleset, t.state, seat)
        before_view, before_moves = copy.deepcopy(view), copy.deepcopy(moves)
        move = choose(view, moves, rng)
        assert any(move is m for m in moves), f"{move} is not one of {moves}"
        assert moves == before_moves and view == before_view, "the bot changed its input"
        return move

    return chooser


# --- every ruleset -----------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_chooser_for_every_heuristic_ruleset(ruleset: str) -> None:
    assert callable(registry.heuristic(ruleset))


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("game", range(6))
def test_choice_is_always_a_legal_move(ruleset: str, game: int) -> None:
    """Over whole games (all seats heuristic, or mixed with random seats),
    every answer is one of the legal moves, unchanged."""
    for players in PLAYERS[ruleset]:
        t = table(ruleset, players, seed=f"legal-{game}-{players}")
        seats = None if game % 2 == 0 else {0, 2}
        playout(t, heuristic_chooser(ruleset, Rng(f"c{game}".encode()), seats),
                pick_seat=Rng(f"p{game}".encode()))
        assert t.result() is not None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_view_and_seed_give_the_same_move(ruleset: str) -> None:
    """Deterministic for a given rng: replaying a game's views gives the same answers."""
    t = table(ruleset, min(4, registry.get(ruleset).max_players), seed="determinism")
    answers: list[tuple[Json, Move]] = []
    choose = heuristic(ruleset)

    def chooser(tb: Table, seat: int, moves: Sequence[Move]) -> Move:
        view = seat_view(tb.ruleset, tb.state, seat)
        move = choose(view, moves, Rng(f"{len(answers)}".encode()))
        answers.append((copy.deepcopy(view), copy.deepcopy(move)))
        return move

    playout(t, chooser, pick_seat=Rng(b"pick"))
    for i, (view, move) in enumerate(answers[:300]):
        again = choose(copy.deepcopy(view), copy.deepcopy(view["legal_moves"]), Rng(f"{i}".encode()))
        assert again == move


# --- Bluffaneer (F1–F33) -------------------------------------------------------------


def bluff_table(*, dice: list[str], cards: list[Any], coins: list[int] | None = None,
                discard: list[str] | None = None, deck: list[str] | None = None,
                seed: str = "b") -> Table:
    """Seat 0 rolls ``dice``; the seats hold ``cards`` (ids or symbol pairs)."""
    seats = [{"card": c} for c in cards]
    for s, c in enumerate(coins or []):
        seats[s]["coins"] = c
    setup: dict[str, Any] = {"turn": 0, "seats": seats, "dice": dice}
    if discard is not None:
        setup["discard"] = discard
    if deck is not None:
        setup["deck"] = deck
    t = table("bluffaneer", len(cards), setup, seed)
    t.play(0, {"type": "roll"})
    return t


def test_f17_claims_when_its_own_card_matches_the_roll() -> None:
    t = bluff_table(dice=["ship", "skull"], cards=["CHEST-SWORD-1", "SHIP-SKULL-1", "CHEST-SHIP-1", "SWORD-SHIP-1"])
    assert ask(t, 1) == {"type": "claim"}


def test_f17_passes_without_a_match_when_a_bluff_would_be_challenged() -> None:
    # early in the game the pair is rare (3 of 17 unseen cards): a careful roller challenges
    t = bluff_table(dice=["ship", "skull"], cards=["CHEST-SWORD-1", "SHIP-SKULL-1", "CHEST-SHIP-1", "SWORD-SHIP-1"])
    for seed in (b"a", b"b", b"c", b"d"):
        assert ask(t, 2, seed) == {"type": "pass"}


def test_f17_bluffs_only_with_comfortable_coins() -> None:
    # the pair's three copies are all unseen and only 5 cards are unseen by the roller:
    # a careful roller would accept, so a bluff pays — but not with 2 coins
    discard = ["CHEST-SWORD-1", "CHEST-SWORD-2", "CHEST-SWORD-3", "CHEST-SHIP-1",
               "CHEST-SHIP-2", "CHEST-SHIP-3", "CHEST-SKULL-1", "CHEST-SKULL-2", "CHEST-SKULL-3",
               "SWORD-SKULL-1", "SWORD-SKULL-2", "SWORD-SKULL-3"]
    cards = ["SWORD-SHIP-1", "SHIP-SKULL-1", "SWORD-SHIP-2", "SWORD-SHIP-3"]
    rich = bluff_table(dice=["ship", "skull"], cards=cards, discard=discard)
    answers = {ask(rich, 2, bytes([i]))["type"] for i in range(20)}
    assert "claim" in answers
    poor = bluff_table(dice=["ship", "skull"], cards=cards, discard=discard, coins=[10, 10, 2, 10])
    assert {ask(poor, 2, bytes([i]))["type"] for i in range(20)} == {"pass"}


def test_f19_passes_when_an_earlier_claim_already_counts() -> None:
    t = bluff_table(dice=["ship", "skull"], cards=["CHEST-SWORD-1", "SHIP-SKULL-1", "SHIP-SKULL-2", "SWORD-SHIP-1"])
    t.play(1, {"type": "claim"})
    assert ask(t, 2) == {"type": "pass"}


def test_f23_challenges_a_claim_that_is_unlikely_to_be_true() -> None:
    # 3 copies among 17 unseen cards: the claim is more likely a bluff
    t = bluff_table(dice=["ship", "skull"], cards=["CHEST-SWORD-1", "SHIP-SKULL-1", "CHEST-SHIP-1", "SWORD-SHIP-1"])
    t.play(1, {"type": "claim"}).play(2, {"type": "pass"}).play(3, {"type": "pass"})
    assert ask(t, 0) == {"type": "challenge"}


def test_f23_challenges_when_every_copy_is_in_the_discard_pile() -> None:
    discard = ["SHIP-SKULL-1", "SHIP-SKULL-2", "SHIP-SKULL-3", "CHEST-SWORD-2", "CHEST-SWORD-3"]
    t = bluff_table(dice=["ship", "skull"], discard=discard,
                    cards=["CHEST-SWORD-1", "SWORD-SHIP-1", "CHEST-SHIP-1", "SWORD-SHIP-2"])
    t.play(1, {"type": "claim"}).play(2, {"type": "pass"}).play(3, {"type": "pass"})
    assert ask(t, 0) == {"type": "challenge"}


def test_f22_accepts_a_claim_that_is_likely_to_be_true() -> None:
    # 12 cards are public and none shows the pair: 3 copies among 5 unseen cards
    discard = ["CHEST-SWORD-1", "CHEST-SWORD-2", "CHEST-SWORD-3", "CHEST-SHIP-1",
               "CHEST-SHIP-2", "CHEST-SHIP-3", "CHEST-SKULL-1", "CHEST-SKULL-2", "CHEST-SKULL-3",
               "SWORD-SKULL-1", "SWORD-SKULL-2", "SWORD-SKULL-3"]
    t = bluff_table(dice=["ship", "skull"], discard=discard,
                    cards=["SWORD-SHIP-1", "SHIP-SKULL-1", "SWORD-SHIP-2", "SWORD-SHIP-3"])
    t.play(1, {"type": "claim"}).play(2, {"type": "pass"}).play(3, {"type": "pass"})
    assert ask(t, 0) == {"type": "accept"}


def test_f12_f13_steals_from_the_richest_other_player() -> None:
    t = bluff_table(dice=["ship", "ship"], cards=["CHEST-SWORD-1", "SHIP-SKULL-1", "CHEST-SHIP-1", "SWORD-SHIP-1"],
                    coins=[6, 9, 13, 10])
    assert ask(t, 0) == {"type": "steal", "target": 2}


def test_f28_steals_the_last_coins_when_that_ends_the_game_in_its_favour() -> None:
    # taking seat 1's last 2 coins ends the game (F28) with seat 0 the richest (F29)
    t = bluff_table(dice=["sword", "sword"], cards=["CHEST-SWORD-1", "SHIP-SKULL-1", "CHEST-SHIP-1", "SWORD-SHIP-1"],
                    coins=[11, 2, 12, 10])
    assert ask(t, 0) == {"type": "steal", "target": 1}


def test_f31_bluffaneer_decides_from_the_view_only() -> None:
    """Two games that differ only in cards seat 2 cannot see (the other
    hands, the draw pile) give seat 2 the same view and the same answers."""
    one = bluff_table(dice=["chest", "skull"], deck=["CHEST-SKULL-2"],
                      cards=["SWORD-SHIP-1", "SHIP-SKULL-1", "CHEST-SWORD-1", "CHEST-SKULL-1"])
    two = bluff_table(dice=["chest", "skull"], deck=["SHIP-SKULL-2"],
                      cards=["SWORD-SKULL-2", "CHEST-SKULL-3", "CHEST-SWORD-1", "SWORD-SHIP-2"])
    assert view_of(one, 2) == view_of(two, 2)
    for i in range(10):
        assert ask(one, 2, bytes([i])) == ask(two, 2, bytes([i]))


def test_f28_utility_of_an_ended_game_is_a_win_share() -> None:
    assert hb.utility([0, 12, 5], 1) == hb.WIN
    assert hb.utility([0, 12, 5], 2) == -hb.WIN
    assert hb.utility([0, 7, 7], 1) == 0.0


# --- BANG! (R1–R84) -------------------------------------------------------------

#: characters whose abilities stay out of the way
PLAIN = ["bart_cassidy", "black_jack", "el_gringo", "vulture_sam", "kit_carlson", "pedro_ramirez",
         "jesse_jones"]
ROLES5 = ["sheriff", "outlaw", "renegade", "outlaw", "deputy"]


def bang_table(*, roles: list[str] | None = None, chars: dict[int, str] | None = None,
               hands: dict[int, list[str]] | None = None, in_play: dict[int, list[str]] | None = None,
               life: dict[int, int] | None = None, turn: int = 0, deck: list[str] | None = None,
               dead: tuple[int, ...] = (), seed: str = "bang") -> Table:
    """Five seats (unless ``roles`` says otherwise) in phase 2 of ``turn``:
    seat 0 sees seats 1 and 4 at distance 1, seats 2 and 3 at distance 2."""
    roles = roles or ROLES5
    chars, hands, in_play, life = chars or {}, hands or {}, in_play or {}, life or {}
    seats: list[dict[str, Any]] = []
    for s, role in enumerate(roles):
        spec: dict[str, Any] = {"role": role, "character": chars.get(s, PLAIN[s])}
        if s in dead:
            spec.update(alive=False, hand=[], in_play=[])
        else:
            spec.update(hand=list(hands.get(s, [])), in_play=list(in_play.get(s, [])))
            if s in life:
                spec["life"] = life[s]
        seats.append(spec)
    setup = {"seats": seats, "turn": turn, "phase": "play", "deck": list(deck or [])}
    return table("bang", len(roles), setup, seed)


def test_r23_sheriff_never_shoots_a_revealed_deputy() -> None:
    t = bang_table(hands={0: ["BANG-AD"]})
    view = view_of(t, 0)
    assert {m.get("target") for m in view["legal_moves"] if m["type"] == "play"} == {1, 4}
    # a view where seat 4's role is shown as it would be once revealed
    view["state"]["seats"][4]["role"] = "deputy"
    move = heuristic("bang")(view, view["legal_moves"], Rng(b"x"))
    assert move == {"type": "play", "card": "BANG-AD", "target": 1}
    # with only the Deputy in reach, the Sheriff holds his fire
    t = bang_table(hands={0: ["BANG-AD"]}, in_play={1: ["MUSTANG-8H"]})
    view = view_of(t, 0)
    view["state"]["seats"][4]["role"] = "deputy"
    assert heuristic("bang")(view, view["legal_moves"], Rng(b"x")) == {"type": "end_turn"}


def test_r4_outlaw_shoots_the_sheriff() -> None:
    t = bang_table(hands={1: ["BANG-AD"]}, turn=1)
    assert ask(t, 1) == {"type": "play", "card": "BANG-AD", "target": 0}


def test_r4_deputy_never_shoots_the_sheriff() -> None:
    t = bang_table(hands={4: ["BANG-AD"]}, turn=4)
    assert ask(t, 4) == {"type": "play", "card": "BANG-AD", "target": 3}
    t = bang_table(hands={4: ["BANG-AD"]}, in_play={3: ["MUSTANG-8H"]}, turn=4)
    assert ask(t, 4) == {"type": "end_turn"}


def test_r4_renegade_spares_the_sheriff_while_outlaws_live() -> None:
    # seat 2, the Renegade, sees the Sheriff (seat 0) at distance 2 and outlaw seat 1 at 1
    t = bang_table(hands={2: ["BANG-AD"]}, in_play={2: ["SCHOFIELD-KS"]}, life={0: 1}, turn=2)
    move = ask(t, 2)
    assert move["type"] == "play" and move["target"] != 0


def test_r82_three_player_deputy_hunts_the_renegade() -> None:
    t = bang_table(roles=["deputy", "outlaw", "renegade"], hands={0: ["BANG-AD"]})
    assert ask(t, 0) == {"type": "play", "card": "BANG-AD", "target": 2}


def test_r25_plays_beer_when_hurt_but_not_at_full_life() -> None:
    t = bang_table(hands={0: ["BEER-6H"]}, life={0: 3})
    assert ask(t, 0) == {"type": "play", "card": "BEER-6H"}
    t = bang_table(hands={0: ["BEER-6H"]})
    assert ask(t, 0) == {"type": "end_turn"}


def test_r44_barrel_first_then_missed_when_shot() -> None:
    t = bang_table(hands={1: ["BANG-AD"], 0: ["MISSED-2S"]}, in_play={0: ["BARREL-QS"]},
                   turn=1, deck=["BANG-2D"])
    t.play(1, {"type": "play", "card": "BANG-AD", "target": 0})
    assert ask(t, 0) == {"type": "barrel", "source": "BARREL-QS"}
    t.play(0, {"type": "barrel", "source": "BARREL-QS"})  # a Diamond: no miss
    assert ask(t, 0) == {"type": "respond", "card": "MISSED-2S"}


def test_r73_keeps_a_lone_missed_against_slab_the_killer() -> None:
    t = bang_table(hands={1: ["BANG-AD"], 0: ["MISSED-2S"]}, chars={1: "slab_the_killer"}, turn=1)
    t.play(1, {"type": "play", "card": "BANG-AD", "target": 0})
    assert ask(t, 0) == {"type": "pass"}


def test_r48_beer_saves_in_the_dying_window() -> None:
    t = bang_table(hands={1: ["BANG-AD"], 0: ["BEER-6H", "CATBALOU-KH"]}, life={0: 1}, turn=1)
    t.play(1, {"type": "play", "card": "BANG-AD", "target": 0})
    assert ask(t, 0) == {"type": "pass"}  # no Missed!: the hit lands
    t.play(0, {"type": "pass"})
    assert view_of(t, 0)["pending"]["kind"] == "dying"
    assert ask(t, 0) == {"type": "respond", "card": "BEER-6H"}


def test_r34_discards_a_bang_against_indians() -> None:
    t = bang_table(hands={1: ["INDIANS-KD"], 2: ["BANG-AD", "MISSED-2S"]}, turn=1)
    t.play(1, {"type": "play", "card": "INDIANS-KD"})
    assert view_of(t, 2)["pending"]["kind"] == "indians"
    assert ask(t, 2) == {"type": "respond", "card": "BANG-AD"}


def test_r12_keeps_beer_and_missed_when_discarding() -> None:
    t = bang_table(hands={0: ["BEER-6H", "MISSED-2S", "DYNAMITE-2H", "GENERALSTORE-QS", "SCHOFIELD-KS"]},
                   in_play={0: ["REMINGTON-KC"]}, life={0: 2})
    t.play(0, {"type": "end_turn"})
    dropped: set[str] = set()
    while t.state.phase == "discard":  # one card per move (R12)
        move = ask(t, 0)
        assert move["type"] == "discard" and len(move["cards"]) == 1
        dropped.update(move["cards"])
        t.play(0, move)
    assert dropped == {"DYNAMITE-2H", "GENERALSTORE-QS", "SCHOFIELD-KS"}


def test_r40_equips_a_better_weapon_only() -> None:
    t = bang_table(hands={0: ["REMINGTON-KC"]}, in_play={0: ["SCHOFIELD-KS"]})
    assert ask(t, 0) == {"type": "play", "card": "REMINGTON-KC"}
    t = bang_table(hands={0: ["SCHOFIELD-KS"]}, in_play={0: ["REMINGTON-KC"]})
    assert ask(t, 0) == {"type": "end_turn"}


def test_r35_r37_equips_barrel_and_mustang() -> None:
    t = bang_table(hands={0: ["BARREL-QS", "MUSTANG-8H"]})
    assert ask(t, 0)["card"] == "BARREL-QS"
    t.play(0, {"type": "play", "card": "BARREL-QS"})
    assert ask(t, 0)["card"] == "MUSTANG-8H"


def test_r27_draw_cards_come_first() -> None:
    t = bang_table(hands={1: ["BANG-AD", "STAGECOACH-9S-1"]}, turn=1)
    assert ask(t, 1) == {"type": "play", "card": "STAGECOACH-9S-1"}


def test_r30_panic_takes_an_enemys_barrel() -> None:
    t = bang_table(hands={1: ["PANIC-JH"]}, in_play={0: ["BARREL-QS"]}, turn=1)
    assert ask(t, 1) == {"type": "play", "card": "PANIC-JH", "target": 0, "pick": "BARREL-QS"}


def test_r42_lucky_duke_picks_the_heart_for_his_barrel() -> None:
    t = bang_table(hands={1: ["BANG-AD"]}, in_play={0: ["BARREL-QS"]}, chars={0: "lucky_duke"},
                   turn=1, deck=["BANG-2D", "BEER-7H"])
    t.play(1, {"type": "play", "card": "BANG-AD", "target": 0})
    t.play(0, {"type": "barrel", "source": "BARREL-QS"})
    assert view_of(t, 0)["pending"]["kind"] == "lucky"
    assert ask(t, 0) == {"type": "choose", "card": "BEER-7H"}


def test_r83_bang_decides_from_the_view_only() -> None:
    """Two games that differ only in what seat 1 cannot see (other hands,
    the deck) give seat 1 the same view and the same answers."""
    mine = ["BANG-AD", "PANIC-JH", "MISSED-2S", "CATBALOU-KH"]
    one = bang_table(hands={1: mine, 0: ["BEER-6H", "MISSED-3S"], 2: ["DUEL-JS"]}, turn=1,
                     deck=["GATLING-10H"])
    two = bang_table(hands={1: mine, 0: ["BANG-2D", "BARREL-QS"], 2: ["JAIL-4H"]}, turn=1,
                     deck=["WELLSFARGO-3H"])
    assert view_of(one, 1) == view_of(two, 1)
    for i in range(10):
        assert ask(one, 1, bytes([i])) == ask(two, 1, bytes([i]))


# --- a small match -------------------------------------------------------------------


@pytest.mark.random_play
def test_heuristic_beats_random_in_a_small_match() -> None:
    """The seats are rotated so each side sits everywhere equally (bench/bots_bench.py)."""
    from bench.bots_bench import run

    result = run(games=40)
    assert set(result) >= {"bluffaneer", "bang"}  # every ruleset with a heuristic
    for name, match in result.items():
        overall = match["roles"]["overall"]
        assert overall["heuristic"]["win_rate"] > overall["random"]["win_rate"], name
        assert overall["heuristic"]["win_rate"] > match["fair_share"], name
