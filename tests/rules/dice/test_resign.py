"""Resigning (D75) and the one vocabulary of issue 24 (D2, D32, D73, D74 in
today's words): lower case faces, role ids, ``state.last``, ``pending``
without moves, a coded ``reason``; v1 logs' words kept by ``legacy``."""
from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from referee.engine.protocol import Event, Move, seat_view
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.dice import BangDice
from referee.games.dice.legacy import BangDiceV1, card_down, card_up, reason_up
from referee.games.sim import Chooser, Table, playout, random_chooser
from tests.rules.dice.helpers import STOP, act, default, game, roll, shoot, st, types

RS = registry.get("bang-dice")
RESIGN = {"type": "resign"}
CALM = ["beer", "beer", "beer", "beer"]
FIXTURES = sorted((Path(__file__).parent.parent.parent / "fixtures" / "legacy").glob("bang-dice-*.ndjson.gz"))


def test_D75_resign_is_listed_for_every_awaited_seat_last_and_never_a_default() -> None:
    t = game(4)
    assert RS.legal_moves(st(t), 0)[-1] == RESIGN and RESIGN not in RS.legal_moves(st(t), 1)
    assert RS.default_move(st(t), 0) != RESIGN and RESIGN not in RS.default_options(st(t), 0)
    assert "resign" in RS.move_schemas and RS.move_schemas["resign"]["x-rule"] == "D75"
    assert st(roll(t)).prompt == "reroll" and RS.legal_moves(st(t), 0)[-1] == RESIGN


def test_D75_resign_mid_turn_eliminates_the_player_and_passes_the_turn() -> None:
    t = game(5, turn=2, arrows=[0, 0, 2, 0, 0])
    roll(t)
    act(t, RESIGN)
    assert types(t.last)[:2] == ["player_resigned", "player_eliminated"]
    gone = next(e for e in t.last if e.type == "player_eliminated").data
    assert gone == {"seat": 2, "role": "outlaw", "role_card": "outlaw_1", "ghost": False}
    s = st(t)
    assert not s.alive[2] and s.life[2] == 0 and s.arrows[2] == 0 and s.pile == 9  # D29: arrows back
    assert s.turn == 3 and RS.to_act(s) == {3} and not s.over
    assert RS.view(s, 0)["seats"][2]["role"] == "outlaw" and RS.view(s, 0)["seats"][2]["resigned"]


def test_D75_resign_while_reacting_lets_the_active_players_turn_go_on() -> None:
    chars = ["jesse_jones", "bart_cassidy", "lucky_duke", "black_jack"]
    t = roll(game(4, chars=chars, queue=["shot1", *CALM]))
    act(t, STOP)
    shoot(t, 1)
    assert st(t).prompt == "bart" and st(t).prompt_seat == 1
    act(t, RESIGN)
    s = st(t)
    assert not s.alive[1] and not s.over and "life_lost" not in types(t.last)  # nobody else was hit
    assert s.turn == 0 and s.prompt_seat == 0 and s.prompt == "beer"  # the Sheriff's turn goes on


def test_D75_resign_that_ends_the_game_gives_the_result_of_the_elimination() -> None:
    t = game(4)
    act(t, RESIGN)  # the Sheriff gives up: D32, the Outlaws win
    result = RS.result(st(t))
    assert result is not None and RS.to_act(st(t)) == set()
    assert result["winners"] == [2, 3] and result["reason"] == "outlaws_win"
    assert result["detail"] == "D32: the Sheriff is dead: the Outlaws win"
    assert result["seats"][0] == {"seat": 0, "outcome": "loss", "role": "sheriff", "alive": False,
                                  "resigned": True}


def test_D75_a_resigned_player_is_an_eliminated_one_and_his_team_may_still_win() -> None:
    t = game(4, life=[1, 0, 8, 8], turn=3, queue=["dynamite"] * 3 + ["beer", "beer"])
    act(t, RESIGN)  # an Outlaw gives up; the Sheriff's own dynamite kills him (D23)
    assert st(t).turn == 0
    roll(t)
    result = RS.result(st(t))
    assert result is not None and result["winners"] == [2, 3]
    assert result["seats"][3]["outcome"] == "win" and result["seats"][3]["resigned"]


def test_D75_a_resigned_ghost_never_plays_again() -> None:
    t = game(5, options={"ghost": True}, life=[11, 0, 8, 8, 8], ghost=1)
    while st(t).turn != 1:
        act(t, default(t))
    act(t, RESIGN)
    assert st(t).turn == 2 and st(t).has_resigned(1)
    for _ in range(200):
        if st(t).over:
            break
        assert st(t).prompt_seat != 1
        act(t, default(t))


def test_D75_random_games_with_resigns_never_await_a_resigned_seat() -> None:
    for n in (3, 5, 8):
        t = Table(RS, n, options={"expansion": True} if n > 3 else {}, seed=b"resign-%d" % n)
        urge, gone = Rng(b"urge-%d" % n), set[int]()
        pick = random_chooser(Rng(b"pick-%d" % n))

        def choose(table: Table, seat: int, moves: Sequence[Move], urge: Rng = urge, gone: set[int] = gone,
                   n: int = n, pick: Chooser = pick) -> Move:
            assert seat not in gone
            if urge.below(8) == 0 and len(gone) < n - 1:
                gone.add(seat)
                return RESIGN
            return pick(table, seat, moves)
        playout(t, choose, pick_seat=Rng(b"s"))
        assert RS.result(t.state) is not None


def test_D2_D73_D74_a_view_speaks_the_one_vocabulary() -> None:
    t = roll(game(4, queue=["shot1", "beer", "arrow", "gatling", "dynamite"]))
    body = seat_view(RS, st(t), 1)
    state, pending = body["state"], body["pending"]
    assert state["last"] == {"kind": "roll", "seat": 0, "roll": 1, "rolled": [1, 2, 3, 4, 5],
                             "faces": ["shot1", "beer", "arrow", "gatling", "dynamite"]}
    assert [d["face"] for d in state["dice"]] == state["last"]["faces"]
    assert state["role"] == "renegade" and state["seats"][0]["role"] == "sheriff"
    assert "moves" not in pending and pending["awaiting"] == [0]
    assert pending["default"] == [{"seat": 0, "move": {"type": "stop"}}]
    dice = cast(BangDice, RS)  # registry.get("bang-dice") is the BangDice ruleset
    assert {f["id"] for f in dice.catalogue()["faces"]} >= {"shot1", "double_gatling", "broken_arrow"}
    assert "outlaw_2" in next(r for r in dice.catalogue()["roles"] if r["id"] == "outlaw")["cards"]
    assert seat_view(RS, st(game(4)), 0)["state"]["last"] is None


def test_D32_D70_v1_words_translate_both_ways() -> None:
    assert card_down("outlaw_2") == "OUTLAW-2" and card_up("SHERIFF") == "sheriff"
    assert reason_up("D70: seat 2 personally eliminated his target") == "target_eliminated"
    assert reason_up("D70: nobody is left alive (draw)") == "nobody_alive"
    legacy = BangDiceV1(RS)
    t = Table(RS, 6, options={"expansion": True}, seed=b"v1-round-trip")
    events: list[Event] = list(t.events)
    pick = random_chooser(Rng(b"pick"))

    def choose(table: Table, seat: int, moves: Sequence[Move]) -> Move:
        events.extend(table.last)
        return pick(table, seat, moves)
    playout(t, choose, pick_seat=Rng(b"s"))
    events.extend(t.last)
    for e in events:
        assert legacy.event_up(legacy.event_down(e)) == e, e.type
    result = RS.result(t.state)
    assert result is not None and "detail" not in legacy.result_down(result)
    assert legacy.result_down(result)["reason"] == result["detail"]


def test_D72_v1_logs_read_in_todays_words_and_back() -> None:
    legacy = BangDiceV1(RS)
    assert FIXTURES
    for path in FIXTURES:
        for line in gzip.decompress(path.read_bytes()).decode().splitlines()[1:]:
            envelope = json.loads(line)
            if "data" not in envelope or envelope["type"] in ("move", "seed_revealed", "secrets_sealed",
                                                             "secrets_opened", "seat_claimed"):
                continue
            event = Event(envelope["type"], envelope["data"])
            assert legacy.event_down(legacy.event_up(event)) == event, event.type


def test_D7_a_v1_deal_shows_each_seat_its_own_role_card_as_v1_did() -> None:
    legacy = BangDiceV1(RS)
    lines = gzip.decompress(FIXTURES[-1].read_bytes()).decode().splitlines()[1:]
    dealt = next(json.loads(line) for line in lines if json.loads(line)["type"] == "game_started")["data"]
    event = Event("game_started", dealt)
    for seat in [None, *range(dealt["players"])]:
        shown = legacy.redact(event, seat)
        assert shown is not None
        assert shown.data["roles"] == [r if p == seat or r == "SHERIFF" else None for p, r in enumerate(dealt["roles"])]
        assert {k: v for k, v in shown.data.items() if k != "roles"} == {k: v for k, v in dealt.items() if k != "roles"}
