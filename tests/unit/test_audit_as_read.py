"""The audit's shortcuts of issue 41 item 5 (a bundle of bot games audited
faster, every check kept), each held to the slow way it replaces:

* a log file's event data is hashed as it was read (``strict.read_line_as_written``
  keeps a canonical line, ``chain.data_bytes`` cuts the data from it) rather
  than encoded again: the same bytes, and a forged file is refused where it
  was, with the same report as the log audited in memory;
* a built-in bot with one move it may play (``bots.forced``) plays it: the
  audit builds no view for it, and a move changed there is still refused."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee import bots
from referee.audit import audit_log, strict
from referee.audit.batch import audit_file
from referee.audit.chain import data_bytes
from referee.engine import bot_seed, canonical, canonical_bytes, commitment
from referee.engine.platform import RESIGN, playing_moves
from referee.engine.protocol import seat_view
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout, random_chooser
from tests.forge import rechain, recorded_game, with_one_editable

Events = list[dict[str, Any]]
#: the rulesets the referee ships, each with a heuristic bot and some turns of one move
SHIPPED = ("bang", "bang-dice", "bang-faceoff", "bluffaneer")


@pytest.fixture(scope="module")
def bang() -> Any:
    """A 4-seat BANG! game of built-in bots only, two of each."""
    return recorded_game("bang", 4, seed="as-read-bang",
                         seats_bots={0: "random", 1: "heuristic", 2: "random", 3: "heuristic"})


def _write(path: Path, game: Any, events: Events) -> str:
    path.write_text("".join(canonical(line) + "\n"
                            for line in [{"header": game.header, "hash": game.header_hash}, *events]))
    return str(path)


def _both(tmp_path: Path, game: Any, events: Events) -> Any:
    """The report of ``events`` audited from a file (their data hashed as read) and in memory: the same."""
    from_file = audit_file(_write(tmp_path / "log.ndjson", game, events))
    assert from_file == audit_log(game.header, game.header_hash, events)
    return from_file


# -- the data hashed as read -------------------------------------------------------
def test_a_canonical_line_is_kept_as_read_and_any_other_is_not() -> None:
    value = {"a": None, "b": [1, 2.5, "x"], "c": {"d": True}}
    line = canonical_bytes(value)
    assert strict.read_line_as_written(line) == (value, line)
    spaced = line.replace(b",", b", ")
    assert strict.read_line_as_written(spaced) == (value, None)
    assert strict.read_line_as_written(b'{"b":1,"a":2}') == ({"b": 1, "a": 2}, None)  # keys out of order
    assert strict.read_line_as_written(b'{"a":1e-07}') == ({"a": 1e-07}, b'{"a":1e-07}')  # the canonical notation
    with pytest.raises(strict.Refused):
        strict.read_line_as_written(b'{"a":1e-7}')  # orjson's notation: not canonical, refused
    with pytest.raises(strict.Refused):
        strict.read_line_as_written(b'{"a":1,"a":2}')


def test_the_data_cut_from_each_line_is_its_canonical_encoding(bang: Any) -> None:
    cut = 0
    for env in bang.envelopes:
        line = canonical_bytes(env)
        found = data_bytes(line, env)
        if "signature" in env:
            assert found is None
            continue
        assert found == canonical_bytes(env["data"])
        cut += 1
    assert cut == len(bang.envelopes) - ("signature" in bang.envelopes[-1])
    env = dict(bang.envelopes[3], type='odd"type')  # a type written with an escape: encoded, not cut
    assert data_bytes(canonical_bytes(env), env) is None
    env = dict(bang.envelopes[3], actor=True)
    assert data_bytes(canonical_bytes(env), env) is None


def test_a_clean_file_and_each_forgery_of_it_report_as_the_log_in_memory(bang: Any, tmp_path: Path) -> None:
    events: Events = [dict(env) for env in bang.envelopes]
    assert _both(tmp_path, bang, events)["ok"]
    moves = [i for i, env in enumerate(events) if env["type"] == "move"]
    for index in (moves[2], moves[len(moves) // 2], len(events) - 2):
        forged = with_one_editable(events, index)  # an event's data edited, the chain left as it was
        forged[index]["data"] = {**forged[index]["data"], "x": 1}
        report = _both(tmp_path, bang, forged)
        assert not report["ok"] and report["divergence"]["check"] == "hash_chain"
        assert report["divergence"]["seq"] == index + 1 and report["divergence"]["field"] == "data"
    forged = with_one_editable(events, moves[1])  # the commitment made again: the link no longer holds
    forged[moves[1]]["data"] = data = {**forged[moves[1]]["data"], "x": 1}
    forged[moves[1]]["commit"] = commitment(forged[moves[1]]["salt"], data)
    report = _both(tmp_path, bang, forged)
    assert not report["ok"] and report["divergence"]["check"] == "hash_chain"
    assert report["divergence"]["seq"] == moves[1] + 1


# -- a bot with one move it may play -------------------------------------------------
def _decisions(ruleset: str, players: int, seed: str) -> list[Any]:
    """The state at every decision of a random game."""
    rs = registry.get(ruleset)
    table = Table(rs, players, options=rs.options_for(players), seed=seed)
    seen: list[Any] = []
    pick = Rng(f"{seed}-pick".encode())
    choose = random_chooser(pick)

    def chooser(at: Any, seat: Any, legal: Any) -> Any:
        seen.append(at.state)
        return choose(at, seat, legal)
    playout(table, chooser, pick_seat=pick)
    return seen


@pytest.mark.parametrize("ruleset", sorted(registry.names()))
def test_a_forced_move_is_what_every_built_in_bot_chooses_from_its_whole_view(ruleset: str) -> None:
    """Wherever an awaited seat has one move a bot may play (``bots.forced``), the random and the
    heuristic bot choose it from their whole view, whatever their stream; elsewhere it names none."""
    rs = registry.get(ruleset)
    forced = chosen = 0
    for players in sorted({rs.min_players, rs.max_players}):
        for state in _decisions(ruleset, players, f"forced-{ruleset}-{players}")[:300]:
            for seat in sorted(rs.to_act(state)):
                view = seat_view(rs, state, seat, active=True)
                legal = list(view["legal_moves"])
                move = bots.forced(legal)
                if move is None:
                    assert len(playing_moves(legal)) != 1
                    continue
                forced += 1
                for kind in bots.BUILT_IN:
                    if kind == "heuristic" and registry.heuristic(ruleset) is None:
                        continue
                    for n in range(2):
                        assert bots.choose(kind, ruleset, view, legal, seed=bot_seed("s", seat, n)) == move
                        chosen += 1
    assert forced > 0 and chosen > 0 or ruleset not in SHIPPED, ruleset  # (a plugin's game may force no move)
    assert bots.forced([]) is None and bots.forced([{"type": RESIGN}]) == {"type": RESIGN}
    assert bots.forced([{"type": "a"}, {"type": RESIGN}]) == {"type": "a"}
    assert bots.forced([{"type": "a"}, {"type": "b"}]) is None


def test_a_built_in_bots_move_changed_is_refused_forced_or_chosen(bang: Any, tmp_path: Path) -> None:
    """A bot's move re-chained as another move the rules accept there is refused (``bots``, at its
    seq) where the bot had one move to play (changed to ``resign``) and where it chose among several:
    from a file, its data hashed as read, as in memory."""
    rs = bang.ruleset
    tried: dict[tuple[str, bool], int] = {}
    for index, env in enumerate(bang.envelopes):
        if env["type"] != "move" or "bot" not in env["data"].get("by", {}):
            continue
        kind = env["data"]["by"]["bot"]
        legal = list(rs.legal_moves(_state_before(bang, index), env["actor"]))
        forced = bots.forced(legal) is not None
        if tried.get((kind, forced), 0) >= 2:
            continue
        others = [m for m in legal if canonical(m) != canonical(env["data"]["move"])]
        if not others:
            continue
        forged = with_one_editable(bang.envelopes, index)
        forged[index]["data"]["move"] = dict(others[-1] if forced else others[0])
        report = _both(tmp_path, bang, rechain(bang.header_hash, forged))
        d = report["divergence"]
        assert not report["ok"] and (d["check"], d["seq"], d["field"]) == ("bots", index + 1, "data.move"), d
        assert d["expected"] == env["data"]["move"]
        tried[(kind, forced)] = tried.get((kind, forced), 0) + 1
    assert tried == {(kind, forced): 2 for kind in bots.BUILT_IN for forced in (True, False)}, tried


def _state_before(game: Any, index: int) -> Any:
    from referee.engine import record
    from referee.engine.protocol import fold
    return fold(game.ruleset, record.ruleset_events(game.envelopes[:index]))
