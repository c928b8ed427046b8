"""Issue 22 (item 8): a forged log for every check of the offline audit, each
re-chained (``tests.forge.rechain``) so that every check before it holds, and
each refused at that check and at the forged ``seq``. A test here fails if
its check is deleted or skipped: the checks after it do not catch the same
forgery at the same place.

The logs are finished games played offline (``tests.forge.recorded_game``),
recorded as the service records them: built-in bots, a turn clock and its
defaults (some drawn from several moves), sealed and opened secrets."""
from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from referee.audit import CHECKS, audit_lines, audit_log, parse_log
from referee.engine import canonical, event_salt, header_hash, record
from referee.engine.protocol import fold
from tests.forge import rechain, recorded_game

Events = list[dict[str, Any]]


@pytest.fixture(scope="module")
def bang() -> Any:
    """A 4-seat BANG! game: seat 1 the random bot, seat 2 the heuristic one, a 30 s turn clock."""
    return recorded_game("bang", 4, seed="forge-bang", seats_bots={1: "random", 2: "heuristic"},
                         turn_timeout_s=30, clock_every=7)


@pytest.fixture(scope="module")
def bluff() -> Any:
    """A 3-seat bluffaneer game: seat 1 the random bot, seat 2 the heuristic one, a 30 s turn clock."""
    return recorded_game("bluffaneer", 3, seed="forge-bluff", seats_bots={1: "random", 2: "heuristic"},
                         turn_timeout_s=30, clock_every=5, timeout_every=4)


@pytest.fixture(scope="module")
def dice() -> Any:
    """A 3-seat dice game without a turn clock or bots."""
    return recorded_game("bang-dice", 3, seed="forge-dice")


# -- helpers --------------------------------------------------------------------
def _events(game: Any) -> Events:
    """A copy of the game's events as a log file holds them (no object shared between two events)."""
    return json.loads(canonical(game.envelopes))


def _audit(game: Any, events: Events, header: dict[str, Any] | None = None, *, chain: bool = True) -> Any:
    """The audit of ``events`` (re-chained unless ``chain`` is false) under ``header`` (default: the game's)."""
    header = game.header if header is None else header
    head = header_hash(header)
    return audit_log(header, head, rechain(head, events) if chain else events)


def _failed(report: Any, check: str, seq: int, field: str | None = None) -> dict[str, Any]:
    """``report`` fails at ``check`` and ``seq`` (and ``field``), every check before it passed."""
    assert not report["ok"], "the forgery went unseen"
    d = report["divergence"]
    assert (d["check"], d["seq"]) == (check, seq), d
    if field is not None:
        assert d["field"] == field, d
    assert d["field"] and d["expected"] != "", d  # what was expected is named (a placeholder too: "(absent)")
    # the re-decision's checks (randomness .. result) pass together, once the whole game is re-decided
    before = CHECKS[:min(CHECKS.index(check), CHECKS.index("randomness"))]
    names = [c["name"] for c in report["checks"]]
    assert names == [*before, check], names
    assert all(c["ok"] for c in report["checks"][:-1]) and not report["checks"][-1]["ok"]
    assert report["result"] is None
    return d


def _index(events: Events, kind: str, which: Callable[[dict[str, Any]], bool] = lambda e: True,
           nth: int = 0) -> int:
    """The index of the ``nth`` event of type ``kind`` that ``which`` picks."""
    found = [i for i, e in enumerate(events) if e["type"] == kind and which(e)]
    return found[nth]


def _moves_by(events: Events, by: Callable[[Any], bool]) -> Iterator[int]:
    return (i for i, e in enumerate(events) if e["type"] == "move" and by(e["data"].get("by")))


def _by_bot(kind: str) -> Callable[[Any], bool]:
    """A move's ``by`` is that of the built-in bot ``kind``."""
    return lambda by: by == {"bot": kind}


def _state_before(game: Any, events: Events, index: int) -> Any:
    return fold(game.ruleset, record.ruleset_events(events[:index]))


# -- the clean logs ---------------------------------------------------------------
@pytest.mark.parametrize("name", ["bang", "bluff", "dice"])
def test_a_log_recorded_as_the_service_records_it_audits_clean(name: str, request: Any) -> None:
    game = request.getfixturevalue(name)
    report = game.audit()
    assert report["ok"] and report["divergence"] is None, report["divergence"]
    assert report["result"] == game.ruleset.result(game.state) == game.envelopes[-1]["data"]["result"]
    assert report["events"] == len(game.envelopes)
    names = [c["name"] for c in report["checks"]]
    assert names[:CHECKS.index("result") + 1] == list(CHECKS[:CHECKS.index("result") + 1])
    assert all(c["ok"] for c in report["checks"])
    # the same log written out as NDJSON, read back and audited
    text = "\n".join([canonical({"header": game.header, "hash": game.header_hash}),
                      *(canonical(e) for e in game.envelopes)]) + "\n"
    assert audit_lines(text.splitlines()) == report
    assert audit_lines(text.encode()) == report
    header, head, events = parse_log(text.encode())
    assert (header, head, events) == (game.header, game.header_hash, game.envelopes)


def test_the_clean_logs_hold_every_kind_of_move(bang: Any, bluff: Any) -> None:
    """The fixtures hold what the forgeries below need (bots, the clock, drawn defaults, secrets)."""
    for game in (bang, bluff):
        bys = [e["data"].get("by") for e in game.envelopes if e["type"] == "move"]
        assert any(b is None for b in bys) and any(b and b.get("bot") == "random" for b in bys)
        assert any(b and b.get("bot") == "heuristic" for b in bys)
        assert any(b and b.get("default") == "turn_clock" and "drawn_from" not in b for b in bys)
    assert any(e["type"] == "move" and "drawn_from" in e["data"].get("by", {}) for e in bang.envelopes)
    assert sum(e["type"] == "secrets_opened" for e in bang.envelopes) >= 2


# -- format ------------------------------------------------------------------------
def test_audit_refuses_a_log_of_another_format_format(bang: Any) -> None:
    for version in (1, 3, None, "2", 2.0, True):  # 2.0: re-chained, refused as verify.js does
        header = {**bang.header, "log_format": version}
        _failed(_audit(bang, _events(bang), header), "format", 0, "header.log_format")
    header = {k: v for k, v in bang.header.items() if k != "log_format"}  # no log_format: format 1
    _failed(_audit(bang, _events(bang), header), "format", 0, "header.log_format")
    report = audit_log(["not", "a", "header"], bang.header_hash, _events(bang))
    _failed(report, "format", 0, "header")


# -- hash_chain ----------------------------------------------------------------------
def test_audit_refuses_a_rechained_log_whose_event_has_a_field_no_event_has_hash_chain(bang: Any) -> None:
    for index in (0, 7, len(bang.envelopes) - 2):
        events = _events(bang)
        events[index]["extra"] = 1
        d = _failed(_audit(bang, events), "hash_chain", index + 1, "extra")
        assert (d["expected"], d["found"]) == ("(absent)", 1)


def test_audit_refuses_a_rechained_log_whose_event_lacks_a_field_hash_chain(bang: Any) -> None:
    for name in ("seq", "type", "actor", "at", "commit", "prev", "hash", "data", "salt"):
        events = _events(bang)
        del events[9][name]
        d = _failed(_audit(bang, events, chain=False), "hash_chain", 10, name)
        assert (d["expected"], d["found"]) == ("(present)", "(missing)")
    events = _events(bang)  # the first missing field is named
    del events[9]["at"], events[9]["seq"]
    _failed(_audit(bang, events, chain=False), "hash_chain", 10, "seq")


def test_audit_refuses_a_rechained_log_whose_seq_is_broken_hash_chain(bang: Any) -> None:
    for index, seq in ((4, 6), (4, 4), (0, 0), (0, True), (4, "5"), (4, 5.0), (len(bang.envelopes) - 1, 1)):
        events = _events(bang)
        events[index]["seq"] = seq
        _failed(_audit(bang, events), "hash_chain", index + 1, "seq")
    events = _events(bang)  # an event dropped, the rest re-chained: the next one is at the wrong place
    del events[20]
    _failed(_audit(bang, events), "hash_chain", 21, "seq")
    events = _events(bang)  # two events swapped
    events[20], events[21] = events[21], events[20]
    _failed(_audit(bang, events), "hash_chain", 21, "seq")


def test_audit_refuses_an_event_that_is_not_an_object_hash_chain(bang: Any) -> None:
    events: list[Any] = _events(bang)
    events[3] = ["seq", 4]
    _failed(audit_log(bang.header, bang.header_hash, events), "hash_chain", 4, "event")


def test_audit_refuses_a_log_whose_header_was_changed_and_not_rehashed_hash_chain(bang: Any) -> None:
    header = {**bang.header, "created_at": 1}
    _failed(audit_log(header, bang.header_hash, _events(bang)), "hash_chain", 0, "header")
    _failed(audit_log(bang.header, None, _events(bang)), "hash_chain", 0, "header")


def test_audit_names_each_link_that_does_not_hold_hash_chain(bang: Any) -> None:
    last = len(bang.envelopes)
    cases: list[tuple[int, str, Any, str]] = [
        (12, "prev", "0" * 64, "prev"),
        (12, "hash", "0" * 64, "hash"),            # the hash alone altered: the next event chains to the real one
        (last - 1, "hash", "0" * 64, "hash"),       # ... the last event's
        (12, "commit", "0" * 64, "commit"),
        (12, "type", "game_ended", "type, actor or at"),
        (12, "actor", 3, "type, actor or at"),
        (12, "at", 10**9, "type, actor or at"),
        (12, "salt", event_salt(bang.seed_text, 14), "salt"),  # another event's salt: the seed derives the right one
        (12, "salt", None, "salt"),
        (12, "salt", 5, "salt"),
    ]
    for index, name, value, field in cases:
        events = _events(bang)
        events[index][name] = value
        _failed(_audit(bang, events, chain=False), "hash_chain", index + 1, field)
    events = _events(bang)
    events[12]["data"] = {**events[12]["data"], "forged": True}
    _failed(_audit(bang, events, chain=False), "hash_chain", 13, "data")
    # the chain altered with the seed not revealed (no hint): a bad salt is a bad opening of the data
    events = _events(bang)
    events[12]["salt"] = "0" * 64
    events[-1]["data"]["seed"] = "another"
    _failed(_audit(bang, events[:-1] + [rechain(events[-2]["hash"], events[-1:])[0]], chain=False),
            "hash_chain", 13, "data")


def test_audit_reads_the_hash_of_a_link_over_its_previous_hash_hash_chain(bang: Any) -> None:
    """Every link is its own: each event of the log re-hashed alone, the rest kept, fails at it."""
    for index in range(0, len(bang.envelopes), 37):
        events = _events(bang)
        events[index]["at"] += 1
        _failed(_audit(bang, events, chain=False), "hash_chain", index + 1)


# -- seed_commitment ---------------------------------------------------------------------
def test_audit_refuses_a_rechained_log_whose_revealed_seed_is_not_the_committed_one_seed_commitment(
        bang: Any) -> None:
    last = len(bang.envelopes)
    for seed in ("forge-bang2", "", None, 7, ["forge-bang"]):
        events = _events(bang)
        events[-1]["data"]["seed"] = seed
        _failed(_audit(bang, events), "seed_commitment", last, "data.seed")
    events = _events(bang)
    events[-1]["data"] = ["forge-bang"]
    _failed(_audit(bang, events), "seed_commitment", last, "data.seed")
    header = {**bang.header, "seed_commitment": "0" * 64}  # another commitment, the header re-hashed
    _failed(_audit(bang, _events(bang), header), "seed_commitment", last, "data.seed")


def test_audit_refuses_a_log_cut_before_the_seed_is_revealed_seed_commitment(bang: Any) -> None:
    for cut in (1, 2, 30):
        events = _events(bang)[:-cut]
        _failed(_audit(bang, events), "seed_commitment", len(events) + 1, "type")
    _failed(audit_log(bang.header, bang.header_hash, []), "seed_commitment", 1, "type")


# -- salts -------------------------------------------------------------------------------------
def test_audit_refuses_a_rechained_log_with_a_salt_its_seed_does_not_derive_salts(bang: Any) -> None:
    """Each commitment re-made with the wrong salt, so the chain holds: only the salts check sees it
    (the re-decision opens each commit with the log's own salt, and they agree)."""
    for index in (0, 6, 40, len(bang.envelopes) - 1):
        for salt in (event_salt(bang.seed_text, index + 2), event_salt("another", index + 1), "0" * 64, ""):
            events = _events(bang)
            events[index]["salt"] = salt
            d = _failed(_audit(bang, events), "salts", index + 1, "salt")
            assert d["expected"] == event_salt(bang.seed_text, index + 1) and d["found"] == salt


def test_audit_names_the_first_bad_salt_salts(bang: Any) -> None:
    events = _events(bang)
    for index in (50, 60):
        events[index]["salt"] = "0" * 64
    report = _audit(bang, events)
    _failed(report, "salts", 51, "salt")
    # the chain was checked event by event (the one-pass check of chain and salts failed) and holds
    assert report["checks"][1] == {"name": "hash_chain", "ok": True, "detail": f"{len(events)} events chain from "
                                   "the header hash; each event's data and salt open its commit"}


# -- ruleset_version ---------------------------------------------------------------------------
def test_audit_refuses_a_rechained_log_of_another_ruleset_version_ruleset_version(bang: Any) -> None:
    for version in (bang.ruleset.version + "1", "", None, int(bang.ruleset.version)):
        header = {**bang.header, "ruleset_version": version}
        d = _failed(_audit(bang, _events(bang), header), "ruleset_version", 0, "header.ruleset_version")
        assert d["expected"] == bang.ruleset.version and d["found"] == version


def test_audit_refuses_a_rechained_log_of_a_ruleset_it_does_not_have_ruleset_version(bang: Any) -> None:
    for ruleset in ("no-such-game", None, 3):
        header = {**bang.header, "ruleset": ruleset}
        d = _failed(_audit(bang, _events(bang), header), "ruleset_version", 0, "header.ruleset")
        assert d["found"] == ruleset


# -- randomness ---------------------------------------------------------------------------------
def test_audit_refuses_a_rechained_log_whose_move_draws_from_another_position_randomness(
        bang: Any, bluff: Any) -> None:
    for game in (bang, bluff):
        moves = [i for i, e in enumerate(game.envelopes) if e["type"] == "move"]
        for index in (moves[0], moves[len(moves) // 2], moves[-1]):
            position = game.envelopes[index]["data"]["rng"]
            for rng in (position + 1, position - 1, None, str(position), 0 if position else 1):
                events = _events(game)
                events[index]["data"]["rng"] = rng
                d = _failed(_audit(game, events), "randomness", index + 1, "data.rng")
                assert d["expected"] == position and d["found"] == rng
            events = _events(game)
            del events[index]["data"]["rng"]
            _failed(_audit(game, events), "randomness", index + 1, "data.rng")


def test_audit_refuses_a_rechained_drawn_default_drawn_from_another_set_randomness(bang: Any) -> None:
    for index in _moves_by(bang.envelopes, lambda by: by is not None and "drawn_from" in by):
        n = bang.envelopes[index]["data"]["by"]["drawn_from"]
        for drawn_from in (n + 1, n - 1):
            events = _events(bang)
            events[index]["data"]["by"]["drawn_from"] = drawn_from
            d = _failed(_audit(bang, events), "randomness", index + 1, "data.by.drawn_from")
            assert d["expected"] == n


def test_audit_refuses_a_rechained_drawn_default_that_is_not_the_generators_draw_randomness(bang: Any) -> None:
    tried = 0
    for index in _moves_by(bang.envelopes, lambda by: by is not None and "drawn_from" in by):
        options = list(bang.ruleset.default_options(_state_before(bang, bang.envelopes, index),
                                                    bang.envelopes[index]["actor"]))
        assert len(options) == bang.envelopes[index]["data"]["by"]["drawn_from"]
        drawn = bang.envelopes[index]["data"]["move"]
        for other in (o for o in options if canonical(o) != canonical(drawn)):
            events = _events(bang)
            events[index]["data"]["move"] = dict(other)
            _failed(_audit(bang, events), "randomness", index + 1, "data.move")
            tried += 1
    assert tried >= 3


# -- secrets ---------------------------------------------------------------------------------------
def test_audit_refuses_a_rechained_secret_opened_to_another_value_secrets(bang: Any, dice: Any) -> None:
    for game in (bang, dice):
        for index in (i for i, e in enumerate(game.envelopes) if e["type"] == "secrets_opened"):
            for name, opening in game.envelopes[index]["data"]["secrets"].items():
                other: Any = "sheriff" if opening["value"] != "sheriff" else "outlaw"
                if isinstance(opening["value"], list):
                    other = opening["value"][1:] + opening["value"][:1] if len(opening["value"]) > 1 else []
                events = _events(game)
                events[index]["data"]["secrets"][name]["value"] = other
                d = _failed(_audit(game, events), "secrets", index + 1)
                assert d["field"].startswith(f"data.secrets.{name}.value"), d
                events = _events(game)
                events[index]["data"]["secrets"][name]["salt"] = "0" * 64
                _failed(_audit(game, events), "secrets", index + 1, f"data.secrets.{name}.salt")


def test_audit_refuses_a_rechained_seal_of_another_deal_secrets(bang: Any) -> None:
    index = _index(bang.envelopes, "secrets_sealed")
    for name in list(bang.envelopes[index]["data"]["commitments"])[:3]:
        events = _events(bang)
        events[index]["data"]["commitments"][name] = "0" * 64
        _failed(_audit(bang, events), "secrets", index + 1, f"data.commitments.{name}")


def test_audit_refuses_a_rechained_log_that_drops_an_opening_secrets(bang: Any) -> None:
    index = _index(bang.envelopes, "secrets_opened", nth=1)
    events = _events(bang)
    del events[index]
    for seq, env in enumerate(events, start=1):
        env["seq"], env["salt"] = seq, event_salt(bang.seed_text, seq)
    d = _failed(_audit(bang, events), "secrets", index + 1)
    assert d["expected"] == "secrets_opened" or d["field"] in ("type", "at"), d


# -- bots --------------------------------------------------------------------------------------------
def test_audit_refuses_a_rechained_built_in_bots_move_changed_to_another_legal_move_bots(
        bang: Any, bluff: Any) -> None:
    for game in (bang, bluff):
        for kind in ("random", "heuristic"):
            tried = 0
            for index in _moves_by(game.envelopes, _by_bot(kind)):
                env = game.envelopes[index]
                legal = game.ruleset.legal_moves(_state_before(game, game.envelopes, index), env["actor"])
                others = [m for m in legal if canonical(m) != canonical(env["data"]["move"])]
                if not others:
                    continue
                events = _events(game)
                events[index]["data"]["move"] = dict(others[0])
                d = _failed(_audit(game, events), "bots", index + 1, "data.move")
                assert d["expected"] == env["data"]["move"]
                tried += 1
                if tried == 3:
                    break
            assert tried == 3, (game.ruleset.name, kind)


def _bot_edits(by: Any, seat_bot: str | None, clock: bool) -> Iterator[tuple[Any, str]]:
    """Relabellings of a move's ``by`` the audit must refuse, and the field it names."""
    others = [b for b in ("random", "heuristic", "bot_x") if b != seat_bot]
    yield from (({}, "data.by"), ([], "data.by"), ("x", "data.by"), (None, "data.by"), ({"who": 0}, "data.by"))
    if by is None:
        yield from (({"bot": b}, "data.by.bot") for b in others)
        yield {"drawn_from": 2}, "data.by.default"
        yield {"default": "unknown_bot"}, "data.by.default"
        yield {"bot": seat_bot, "default": "x"}, "data.by.bot"
        return
    yield {**by, "who": 0}, "data.by"
    if "bot" in by:
        yield from (({**by, "bot": b}, "data.by.bot") for b in others)
        yield {**by, "bot": None}, "data.by.bot"
        yield {**by, "bot": 0}, "data.by.bot"
        yield {**by, "default": "turn_clock"}, "data.by.default"
        yield {**by, "default": "unknown_bot"}, "data.by.default"
        yield {**by, "drawn_from": 2}, "data.by.drawn_from"
    if by.get("default") == "turn_clock":
        yield from (({**by, "bot": b}, "data.by.bot") for b in others)
        yield {**by, "default": "x"}, "data.by.default"
        yield {**by, "default": None}, "data.by.default"
        if "drawn_from" not in by:
            yield {**by, "drawn_from": 2}, "data.by.drawn_from"
        else:
            yield {"default": "turn_clock"}, "data.by.drawn_from"
    if clock and "bot" in by:
        yield {"default": "turn_clock"}, "data.by.default"  # a bot's move at once: before the clock's deadline


@pytest.mark.slow
def test_audit_refuses_every_rechained_relabelling_of_who_moved_bots(bang: Any, bluff: Any) -> None:
    """Every relabelling of ``by`` of the first two moves of each kind (a seat's own, each bot's, the
    clock's, a drawn default) fails at the move (``test_audit_who_moved`` tries every move of a
    game played through the service)."""
    for game in (bang, bluff):
        picked: dict[str, list[int]] = {}
        for index in _moves_by(game.envelopes, lambda by: True):
            env = game.envelopes[index]
            by = env["data"].get("by")
            kind = "seat" if by is None else by["bot"] if "bot" in by else "drawn" if "drawn_from" in by else "clock"
            if env["actor"] is not None and len(picked.setdefault(kind, [])) < 2:
                picked[kind].append(index)
        assert {"seat", "random", "heuristic", "clock"} <= picked.keys(), picked
        for index in (i for indices in picked.values() for i in indices):
            env = game.envelopes[index]
            seat_bot = game.header["seats"][env["actor"]]["bot"]
            for new, field in _bot_edits(env["data"].get("by"), seat_bot, True):
                events = _events(game)
                events[index]["data"]["by"] = new
                _failed(_audit(game, events), "bots", index + 1, field)


def test_audit_refuses_a_system_move_labelled_a_bots_bots(bluff: Any) -> None:
    index = next(i for i, e in enumerate(bluff.envelopes) if e["type"] == "move" and e["actor"] is None)
    for by in ({"bot": "random"}, {"default": "turn_clock"}):
        events = _events(bluff)
        events[index]["data"]["by"] = by
        _failed(_audit(bluff, events), "bots", index + 1, "data.by")
    header = {**bluff.header, "seats": None}  # seats of another shape: no bot is anyone's
    index = next(i for i, e in enumerate(bluff.envelopes) if e["type"] == "move" and e["data"].get("by"))
    _failed(_audit(bluff, _events(bluff), header), "bots", index + 1, "data.by")
    header = {**bluff.header, "seats": [*bluff.header["seats"][:1], "seat 1", *bluff.header["seats"][2:]]}
    index = next(i for i, e in enumerate(bluff.envelopes) if e["type"] == "move" and e["actor"] == 1
                 and e["data"].get("by"))
    _failed(_audit(bluff, _events(bluff), header), "bots", index + 1, "data.by")


def test_audit_refuses_the_turn_clocks_default_before_its_deadline_or_for_another_seat_bots(bang: Any,
                                                                                        bluff: Any) -> None:
    clocked = [i for i in _moves_by(bang.envelopes, lambda by: by == {"default": "turn_clock"})]
    index = clocked[0]
    env = bang.envelopes[index]
    deadline = bang.envelopes[index - 1]["at"] + 30_000
    assert env["at"] == deadline
    for at in (deadline - 1, bang.envelopes[index - 1]["at"]):
        events = _events(bang)
        for later in events[index:]:  # the move and all after it, one step earlier in time
            later["at"] += at - deadline
        _failed(_audit(bang, events), "bots", index + 1, "data.by.default")
    # in a game without a clock (or with a clock of another shape) there is no clock's default
    for timeout in (None, "30", True, [30]):
        header = {k: v for k, v in bang.header.items() if k != "turn_timeout_s"}
        if timeout is not None:
            header["turn_timeout_s"] = timeout
        _failed(_audit(bang, _events(bang), header), "bots", bang.envelopes[clocked[0]]["seq"], "data.by.default")
    # a clock's default labelled on a seat the clock does not default (another awaited seat, or none owes)
    tried = 0
    for index in _moves_by(bluff.envelopes, lambda by: by is None or "bot" in by):
        env = bluff.envelopes[index]
        state = _state_before(bluff, bluff.envelopes, index)
        owing = [s for s in sorted(bluff.ruleset.to_act(state)) if bluff.ruleset.default_options(state, s)]
        if env["actor"] is None or (owing and owing[0] == env["actor"]):
            continue
        events = _events(bluff)
        events[index]["data"]["by"] = {"default": "turn_clock"}
        for later in events[index:]:
            later["at"] += 10**6
        _failed(_audit(bluff, events), "bots", index + 1, "data.by.default")
        tried += 1
        if tried == 3:
            break
    assert tried == 3


def test_audit_refuses_a_clock_default_that_is_not_the_rules_default_bots(bang: Any) -> None:
    tried = 0
    for index in _moves_by(bang.envelopes, lambda by: by == {"default": "turn_clock"}):
        env = bang.envelopes[index]
        legal = bang.ruleset.legal_moves(_state_before(bang, bang.envelopes, index), env["actor"])
        others = [m for m in legal if canonical(m) != canonical(env["data"]["move"])]
        if others:
            events = _events(bang)
            events[index]["data"]["move"] = dict(others[0])
            _failed(_audit(bang, events), "bots", index + 1, "data.move")
            tried += 1
    assert tried >= 2


# -- replay --------------------------------------------------------------------------------------------
def test_audit_refuses_a_rechained_move_changed_to_another_legal_move_replay(bang: Any, bluff: Any) -> None:
    """A seat's own move swapped for another legal one, the record re-chained: the move is
    legal, so the first event that differs is the rules' first event after it."""
    for game in (bang, bluff):
        tried = 0
        for index in _moves_by(game.envelopes, lambda by: by is None):
            env = game.envelopes[index]
            if env["actor"] is None:
                continue
            legal = game.ruleset.legal_moves(_state_before(game, game.envelopes, index), env["actor"])
            others = [m for m in legal if canonical(m) != canonical(env["data"]["move"])]
            if not others:
                continue
            events = _events(game)
            events[index]["data"]["move"] = dict(others[-1])
            d = _failed(_audit(game, events), "replay", index + 2)
            assert d["field"].startswith(("data", "type")), d
            tried += 1
            if tried == 4:
                break
        assert tried == 4


def test_audit_refuses_a_rechained_move_the_rules_refuse_replay(bang: Any) -> None:
    index = _index(bang.envelopes, "move", lambda e: e["data"].get("by") is None and e["actor"] is not None)
    for move in ({"type": "no-such-move"}, {}, {"type": "play", "card": "BANG-XX", "target": 9}):
        events = _events(bang)
        events[index]["data"]["move"] = move
        _failed(_audit(bang, events), "replay", index + 1, "data.move")


def test_audit_refuses_a_rechained_move_record_with_a_key_no_record_has_replay(bang: Any, bluff: Any) -> None:
    for game in (bang, bluff):
        for index in (_index(game.envelopes, "move"), _index(game.envelopes, "move", nth=10)):
            for data in ({**game.envelopes[index]["data"], "extra": 1},
                         {k: v for k, v in game.envelopes[index]["data"].items() if k != "move"},
                         [game.envelopes[index]["data"]], "move", None):
                events = _events(game)
                events[index]["data"] = data
                _failed(_audit(game, events), "replay", index + 1, "data")


def test_audit_refuses_a_rechained_rules_event_changed_replay(bang: Any) -> None:
    events = _events(bang)
    events[0]["data"]["turn"] = 2  # the deal
    _failed(_audit(bang, events), "replay", 1, "data.turn")
    index = _index(bang.envelopes, "card_played")
    events = _events(bang)
    events[index]["data"]["forged"] = True
    d = _failed(_audit(bang, events), "replay", index + 1, "data.forged")
    assert d["expected"] == "(absent)" and d["found"] is True
    events = _events(bang)
    del events[index]["data"]["card"]
    d = _failed(_audit(bang, events), "replay", index + 1, "data.card")
    assert d["found"] == "(missing)"
    events = _events(bang)
    events[index]["type"] = "card_discarded"
    _failed(_audit(bang, events), "replay", index + 1, "type")
    events = _events(bang)
    events[index]["actor"] = (events[index]["actor"] + 1) % 4
    _failed(_audit(bang, events), "replay", index + 1, "actor")
    events = _events(bang)
    events[index]["at"] += 1
    _failed(_audit(bang, events), "replay", index + 1, "at")
    events = _events(bang)
    events[0]["at"] += 1  # the deal is stamped with the header's time
    _failed(_audit(bang, events), "replay", 1, "at")


def test_audit_refuses_a_rechained_event_no_move_caused_replay(bang: Any) -> None:
    index = _index(bang.envelopes, "move", nth=3)
    events = _events(bang)
    events.insert(index, copy.deepcopy(events[index + 1]))  # a rules' event no move decided, where a move is due
    for seq, env in enumerate(events, start=1):
        env["seq"], env["salt"] = seq, event_salt(bang.seed_text, seq)
    _failed(_audit(bang, events), "replay", index + 1, "type")


def test_audit_refuses_a_rechained_log_with_events_after_the_result_replay(bang: Any) -> None:
    events = _events(bang)
    extra = copy.deepcopy(events[-2] if events[-2]["type"] == "move" else events[_index(events, "move")])
    events.insert(len(events) - 1, extra)
    for seq, env in enumerate(events, start=1):
        env["seq"], env["salt"] = seq, event_salt(bang.seed_text, seq)
    d = _failed(_audit(bang, events), "result", len(events) - 1)
    assert d["field"] in ("type", "actor"), d
    # the game ended, its seed revealed, and a move and a second revelation after it
    events = _events(bang)
    events += [copy.deepcopy(events[_index(events, "move", nth=-1)]), copy.deepcopy(events[-1])]
    for seq, env in enumerate(events, start=1):
        env["seq"], env["salt"] = seq, event_salt(bang.seed_text, seq)
    d = _failed(_audit(bang, events), "replay", len(events) - 1, "type")
    assert d["expected"] == "(end of log)"


def test_audit_refuses_a_rechained_log_whose_setup_the_rules_refuse_replay(bang: Any) -> None:
    header = {**bang.header, "setup": {"no-such-scenario": True}}
    _failed(_audit(bang, _events(bang), header), "replay", 0, "header.setup")


def test_audit_refuses_a_log_of_a_bad_shape_without_crashing_replay(bang: Any) -> None:
    header = {k: v for k, v in bang.header.items() if k != "players"}
    _failed(_audit(bang, _events(bang), header), "replay", 0, "log")


# -- result ----------------------------------------------------------------------------------------------
def test_audit_refuses_a_rechained_log_whose_result_was_changed_result(bang: Any, bluff: Any) -> None:
    for game in (bang, bluff):
        last = len(game.envelopes)
        result = game.envelopes[-1]["data"]["result"]
        for key in result:
            events = _events(game)
            events[-1]["data"]["result"][key] = "forged"
            _failed(_audit(game, events), "result", last, f"data.result.{key}")
        events = _events(game)
        events[-1]["data"]["result"] = None
        _failed(_audit(game, events), "result", last, "data.result")
        events = _events(game)
        events[-1]["actor"] = 0
        _failed(_audit(game, events), "result", last, "actor")


def test_audit_refuses_a_rechained_log_cut_before_the_end_result(bang: Any, bluff: Any) -> None:
    """The log cut after a move, the seed revealed there with the real result: the rules did not
    end the game, so what they decide next is no ``seed_revealed``."""
    for game in (bang, bluff):
        moves = [i for i, e in enumerate(game.envelopes) if e["type"] == "move"]
        for index in (moves[len(moves) // 2], moves[-1]):
            events = _events(game)[:index] + [copy.deepcopy(game.envelopes[-1])]
            events[-1]["seq"] = len(events)
            events[-1]["salt"] = event_salt(game.seed_text, len(events))
            _failed(_audit(game, events), "replay", len(events), "type")
        # cut inside the last move's events: the rules decide another event where the seed is revealed
        events = _events(game)
        del events[-2]
        events[-1]["seq"] = len(events)
        events[-1]["salt"] = event_salt(game.seed_text, len(events))
        d = _failed(_audit(game, events), CHECKS[CHECKS.index("replay")] if game.envelopes[-2]["type"]
                    not in ("secrets_opened",) else "secrets", len(events))
        assert d["field"] in ("type", "actor", "data"), d


# -- the report -----------------------------------------------------------------------------------
def test_a_failed_audit_reports_its_checks_and_the_divergence_in_full(bang: Any) -> None:
    events = _events(bang)
    events[6]["data"]["rng"] += 1
    report = _audit(bang, events)
    assert set(report) == {"ok", "format", "events", "result", "signed", "checks", "divergence"}
    assert (report["ok"], report["format"], report["events"], report["result"], report["signed"]) == \
        (False, 2, len(events), None, False)
    assert report["divergence"] == {"check": "randomness", "seq": 7, "field": "data.rng",
                                    "expected": bang.envelopes[6]["data"]["rng"],
                                    "found": bang.envelopes[6]["data"]["rng"] + 1}
    for check in report["checks"]:
        assert set(check) == {"name", "ok", "detail"} and isinstance(check["detail"], str) and check["detail"]
    assert report["checks"][0]["detail"] == "log format 2"
    assert report["checks"][1]["detail"] == f"{len(events)} events chain from the header hash; each event's data " \
        "and salt open its commit"
    assert report["checks"][3]["detail"] == 'every salt is HMAC-SHA256(seed, "event:<seq>")'
    assert report["checks"][4]["detail"] == f"bang v{bang.ruleset.version}"
    assert "drew from another position" in report["checks"][-1]["detail"]


def test_a_clean_audit_details_every_check(bang: Any) -> None:
    report = bang.audit()
    details = {c["name"]: c["detail"] for c in report["checks"]}
    assert all(isinstance(d, str) and d for d in details.values())
    assert details["format"] == "log format 2"
    assert details["hash_chain"].startswith(f"{len(bang.envelopes)} events chain")
    assert details["seed_commitment"] == "sha256(seed) equals the commitment published at creation"
    assert details["salts"] == 'every salt is HMAC-SHA256(seed, "event:<seq>")'
    assert details["ruleset_version"] == f"bang v{bang.ruleset.version}"
    moves = sum(e["type"] == "move" for e in bang.envelopes)
    drawn = sum(e["type"] == "move" and "drawn_from" in e["data"].get("by", {}) for e in bang.envelopes)
    bots = sum(e["type"] == "move" and "bot" in e["data"].get("by", {}) for e in bang.envelopes)
    assert details["randomness"] == f"every random outcome re-derived from the seed ({bang.rng.position} words, " \
        f"{drawn} drawn defaults)"
    assert details["secrets"].startswith(f"{len(bang.dealt)} dealt secrets sealed at creation; "
                                         f"{len(bang.opened)} opened")
    assert details["bots"].startswith(f"{bots} built-in bot moves re-derived")
    assert details["replay"] == f"{moves} moves re-decided; every event matches"
    assert details["result"] == "replay reaches the recorded result"


def test_a_ruleset_that_deals_no_secrets_says_so() -> None:
    game = recorded_game("bang-faceoff", 2, seed="forge-faceoff")
    assert not game.dealt
    details = {c["name"]: c["detail"] for c in game.audit()["checks"]}
    assert details["secrets"] == "this ruleset deals no sealed secrets"


def test_the_format_refusal_names_what_it_found(bang: Any) -> None:
    header = {k: v for k, v in bang.header.items() if k != "log_format"}
    d = _failed(_audit(bang, _events(bang), header), "format", 0, "header.log_format")
    assert (d["expected"], d["found"]) == (2, 1)  # no log_format: format 1, which hashed data into the chain
    d = _failed(audit_log("header", bang.header_hash, _events(bang)), "format", 0, "header")
    assert (d["expected"], d["found"]) == ("an object", "header")


def test_audit_refuses_a_rechained_event_whose_fields_equal_the_rules_in_another_type_replay(bang: Any) -> None:
    """``1`` and ``true``, ``5`` and ``5.0`` are equal in Python and not in the log's canonical bytes."""
    index = _index(bang.envelopes, "card_played")
    events = _events(bang)
    assert events[index]["actor"] == 1
    events[index]["actor"] = True
    _failed(_audit(bang, events), "replay", index + 1, "actor")
    events = _events(bang)
    events[index]["at"] = float(events[index]["at"])
    _failed(_audit(bang, events), "replay", index + 1, "at")
    events = _events(bang)
    events[0]["at"] = float(events[0]["at"])
    _failed(_audit(bang, events), "replay", 1, "at")


def test_the_divergence_names_the_element_of_a_list_that_differs_replay(bang: Any) -> None:
    index = _index(bang.envelopes, "cards_drawn", lambda e: len(e["data"]["cards"]) >= 2)
    events = _events(bang)
    cards = events[index]["data"]["cards"]
    cards[1] = "FORGED"
    d = _failed(_audit(bang, events), "replay", index + 1, "data.cards[1]")
    assert (d["expected"], d["found"]) == (bang.envelopes[index]["data"]["cards"][1], "FORGED")
    events = _events(bang)
    events[index]["data"]["cards"].append("EXTRA")  # another length: the whole list is named
    d = _failed(_audit(bang, events), "replay", index + 1, "data.cards")
    assert d["found"] == [*bang.envelopes[index]["data"]["cards"], "EXTRA"]
    events = _events(bang)
    events[index]["data"]["cards"] = {"0": cards[0]}
    _failed(_audit(bang, events), "replay", index + 1, "data.cards")


def test_audit_refuses_a_rechained_bots_move_recorded_as_the_seats_own_bots(bang: Any, bluff: Any) -> None:
    """A bot's seat has no token: a move there without ``by`` was not the seat's own."""
    first = recorded_game("bluffaneer", 3, seed="forge-seat0", seats_bots={0: "random"})
    for game in (bang, bluff, first):
        for kind in ("random", "heuristic"):
            found = list(_moves_by(game.envelopes, _by_bot(kind)))[:2]
            for index in found:
                events = _events(game)
                del events[index]["data"]["by"]
                d = _failed(_audit(game, events), "bots", index + 1, "data.by")
                assert (d["expected"], d["found"]) == ({"bot": kind}, "(missing)")
    assert any(first.envelopes[i]["actor"] == 0 for i in _moves_by(first.envelopes, lambda by: by is not None))


def test_audit_refuses_a_rechained_move_by_a_seat_the_header_does_not_have_replay(bluff: Any) -> None:
    index = next(_moves_by(bluff.envelopes, lambda by: by is None))
    for actor in (3, -1, 7):
        events = _events(bluff)
        events[index]["actor"] = actor
        d = _failed(_audit(bluff, events), "replay", index + 1)
        assert d["field"] in ("data.move", "actor"), d
