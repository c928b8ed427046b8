"""The game re-decided from the seed and the recorded moves: every random
draw, every built-in bot's choice, who made each move, every seal and
opening of a dealt secret, compared event by event with the log, and the
result (docs/audit.md, "Settling a dispute")."""
from __future__ import annotations

from collections.abc import Sequence
from hashlib import sha256
from typing import Any, cast

from referee import bots
from referee.audit.chat import ChatCheck
from referee.audit.clocks import ClockAudit
from referee.audit.divergence import Diverged, diff, ok, same, same_scalar
from referee.audit.movers import check_by, check_seat_event
from referee.audit.presence import check_presence_event
from referee.engine import bot_seed, canonical_bytes, keyed_hmac_sha256, record
from referee.engine.legacy import current_move
from referee.engine.platform import (
    CHAT_EVENTS,
    MOVE,
    PRESENCE_EVENTS,
    SEAT_CLAIMED,
    SEAT_EVENTS,
    SEAT_GIVEN,
    SECRETS_OPENED,
    SECRETS_SEALED,
    SEED_REVEALED,
)
from referee.engine.protocol import GameConfig, Json, RefereeError, Ruleset, draw_default, seat_view
from referee.engine.rng import Rng
from referee.engine.statecache import Memo

#: the fields a move record may have (``move`` it must)
_MOVE_RECORD = frozenset({"move", "rng", "by", "clock"})
_CHECK_OF = {SECRETS_SEALED: "secrets", SECRETS_OPENED: "secrets", SEED_REVEALED: "result"}


def expect(produced: record.Produced, envelopes: Sequence[Json], pos: int, at: Any) -> int:
    """The log from ``pos`` on holds ``produced``, all stamped ``at``; the
    position after them. The rules' data of each event must open the log's
    commitment with the log's salt, as the log's own data did in the chain
    check: the two are then the same canonical bytes (SHA-256, which the
    whole chain stands on). One hash costs less than keeping every event's
    encoding from the chain check (orjson's output, kept, costs twice its
    making). Only where they differ is the first differing field looked for."""
    # (never past the log's end: its last event is seed_revealed, which only the rules' own
    # seed_revealed matches, the last event record.move produces; a rule emits no platform event)
    for actor, event in produced:
        env = envelopes[pos]
        data = event.data if type(event.data) is dict else dict(event.data)
        # the move record is the log's own data (the same object): only the rules' events are encoded
        if same_scalar(event.type, env["type"]) and same_scalar(actor, env["actor"]) and \
                same_scalar(at, env["at"]) and (data is env["data"] or
                                                sha256(env["salt"].encode() + canonical_bytes(data)).hexdigest()
                                                == env["commit"]):
            pos += 1
            continue
        check = _CHECK_OF.get(event.type, "replay")
        want = {"type": event.type, "actor": actor, "at": at, "data": data}
        found = {"type": env["type"], "actor": env["actor"], "at": env["at"], "data": env["data"]}
        # (some field differs: data equal to the log's in every field has its canonical bytes and
        # opens its commit, accepted above; were it None, unpacking it fails, a malformed log's report)
        field, expected, got = cast("tuple[str, Any, Any]", diff(want, found, ""))
        raise Diverged(check, env["seq"], field.lstrip("."), expected, got,
                       f"at event {env['seq']} the log differs from what the rules decide ({event.type} expected)")
    return pos


def redecide(rs: Ruleset[Any], header: Json, seed: str, envelopes: Sequence[Json]) -> list[Json]:
    """The game of ``header`` re-decided from ``seed`` and the moves of ``envelopes``, every event
    compared with the log's (``Diverged`` at the first that differs); the reports of the checks
    ``randomness``, ``secrets``, ``bots``, ``replay`` and ``result``."""
    replay = _Replay(rs, header, seed, envelopes)
    pos = replay.deal()
    while pos < len(envelopes):
        pos = replay.step(pos)
    # (here the rules have ended the game: the loop ends only past the log's last event,
    # seed_revealed, which only the seed_revealed of record.move's result matches; see expect)
    return replay.report()


class _Replay:
    """One game re-decided: the rules' state, the generator, the seats as the log's events leave
    them, and the tallies the report names."""

    def __init__(self, rs: Ruleset[Any], header: Json, seed: str, envelopes: Sequence[Json]) -> None:
        self.rs, self.header, self.seed, self.envelopes = rs, header, seed, envelopes
        self.rng = Rng(seed.encode())
        self.mac = keyed_hmac_sha256(seed.encode())  # the bots' streams' keys (``bot_seed``), keyed once per game
        self.memo = Memo()  # the game's (``referee.engine.statecache``), handed to every hook the replay calls
        self.clock = ClockAudit(rs, header, self.memo)  # a clocked game's clock (docs/clocks.md)
        self.state: Any = None
        self.dealt: Any = None
        self.opened: Any = None
        self.result: Json | None = None
        self.moves = self.drawn = self.by_bots = 0
        listed = header.get("seats")
        self.seats: list[Any] = [dict(s) if type(s) is dict else s for s in listed] if type(listed) is list else []
        self.unclaimed = {s["seat"] for s in self.seats if type(s) is dict and s.get("open") is True}
        self.seated = header  # the header, with the seats given to a bot at the start deadline
        self.chat = ChatCheck(header)
        self.last_at: Any = header.get("created_at")  # the last event's time that is no chat event

    def deal(self) -> int:
        """The opening events, from the header and the seed; the position after them in the log."""
        header = self.header
        try:
            events = self.rs.setup(GameConfig(players=header["players"], options=header["options"],
                                              scenario=header.get("setup")), self.rng)
        except RefereeError as err:
            raise Diverged("replay", 0, "header.setup", "a start the rules accept", err.code,
                           f"setup refused on replay: {err.code}") from None
        produced, self.state, self.dealt, self.opened = record.deal(self.rs, events, self.seed)
        return expect(produced, self.envelopes, 0, header.get("created_at"))

    def step(self, pos: int) -> int:
        """The event at ``pos`` (a seat's event, or a move and all it caused) checked; the position after."""
        env = self.envelopes[pos]
        if self.result is None and env["type"] in CHAT_EVENTS:  # the table's talk: the turn clock runs on
            self.chat.check(env)
            return pos + 1
        last_at, self.last_at = self.last_at, env["at"]
        if self.result is None and env["type"] in SEAT_EVENTS:
            if env["type"] in PRESENCE_EVENTS:
                check_presence_event(self.seats, self.unclaimed, env, self.header)
            else:
                check_seat_event(self.seats, self.unclaimed, env, self.header)
            if env["type"] in PRESENCE_EVENTS or env["type"] == SEAT_GIVEN:
                self.seated = {**self.header, "seats": self.seats}
            return pos + 1
        self._check_move_record(env)
        by = check_by(self.rs, self.seated, self.state, env, last_at)
        self.clock.before_move(self.state, env, last_at)
        if "drawn_from" in by:  # a timeout's default drawn from the generator (BANG! R43), whatever drawn_from holds
            self._check_draw(env, by)
        if by.get("bot") in bots.BUILT_IN:  # (with no default: check_by refused a built-in bot's)
            self._check_bot_choice(env, by)
        seq, data, actor = env["seq"], env["data"], env["actor"]
        try:
            events, self.state = self.rs.decide_and_fold(self.state, actor, data["move"], rng=self.rng,
                                                         now=env["at"], memo=self.memo)
        except RefereeError as err:
            raise Diverged("replay", seq, "data.move", "a move the rules accept", data["move"],
                           f"the move at event {seq} is refused on replay: {err.code} ({err.rule})") from None
        self.clock.after_move(self.state, env)
        produced, self.result, self.opened = record.move(self.rs, self.state, actor, data, events, self.dealt,
                                                         self.opened, self.seed)
        self.moves += 1
        pos = expect(produced, self.envelopes, pos, env["at"])
        self.last_at = self.envelopes[pos - 1]["at"]
        return pos

    def _check_move_record(self, env: Json) -> None:
        """The event is a move record, while the game is on and every seat is claimed, drawing from
        the generator where the last move left it."""
        seq, data = env["seq"], env["data"]
        if self.result is None and env["type"] == MOVE and self.unclaimed:
            raise Diverged("replay", seq, "type", SEAT_CLAIMED, MOVE, f"event {seq} is a move while seats "
                           f"{sorted(self.unclaimed)} are open: the game starts when every seat is claimed")
        if self.result is not None or env["type"] != MOVE:
            raise Diverged("replay", seq, "type", "(end of log)" if self.result is not None else MOVE, env["type"],
                           f"event {seq} was caused by no move")
        if not isinstance(data, dict) or "move" not in data or not data.keys() <= _MOVE_RECORD:
            raise Diverged("replay", seq, "data", "{move, rng, by?, clock?}", data, f"event {seq} is no move record")
        if data.get("rng") != self.rng.position:
            raise Diverged("randomness", seq, "data.rng", self.rng.position, data.get("rng"),
                           f"the move at event {seq} drew from another position of the generator")

    def _check_draw(self, env: Json, by: Json) -> None:
        """The very draw the service made: among 2 or more moves (check_by refused a draw among fewer)."""
        seq, data = env["seq"], env["data"]
        pick, options = cast("tuple[Any, int]", draw_default(self.rs, self.state, env["actor"], self.rng))
        if options != by["drawn_from"]:
            raise Diverged("randomness", seq, "data.by.drawn_from", options, by["drawn_from"],
                           f"the default at event {seq} was drawn from another set of moves")
        if not same(pick, current_move(self.rs, data["move"])):
            raise Diverged("randomness", seq, "data.move", pick, data["move"],
                           f"the default move at event {seq} is not the one the generator draws")
        self.drawn += 1

    def _check_bot_choice(self, env: Json, by: Json) -> None:
        """A built-in bot's move is the one its secret stream chooses from the seat's view. Only what
        the choice reads is built: the seat's legal moves (its view's ``legal_moves``: those of an
        awaited seat, none otherwise) always; the rest of the view only for a ``heuristic`` bot with
        a choice to make (``bots.forced``: one move it may play, which every built-in bot plays)."""
        seq, data, actor = env["seq"], env["data"], env["actor"]
        rs, state, memo = self.rs, self.state, self.memo
        legal = rs.legal_moves(state, actor, memo=memo) if actor in rs.to_act(state, memo=memo) else []
        chosen = bots.forced(legal)
        if chosen is None:
            view: Json = {} if by["bot"] == "random" else seat_view(rs, state, actor, active=True, memo=memo)
            chosen = bots.choose(by["bot"], rs.name, view, list(legal),
                                 seed=bot_seed(self.seed, actor, seq - 1, mac=self.mac))
        if not same(chosen, current_move(rs, data["move"])):
            raise Diverged("bots", seq, "data.move", chosen, data["move"],
                           f"the {by['bot']} bot's move at event {seq} is not the one its secret stream draws")
        self.by_bots += 1

    def report(self) -> list[Json]:
        return [
            ok("randomness", f"every random outcome re-derived from the seed ({self.rng.position} words, "
               f"{self.drawn} drawn defaults)"),
            ok("secrets", f"{len(self.dealt)} dealt secrets sealed at creation; {len(self.opened)} opened, each to "
               "its sealed value" if self.dealt else "this ruleset deals no sealed secrets"),
            ok("bots", f"{self.by_bots} built-in bot moves re-derived from their secret streams; every move's by "
               "agrees with the header and the rules"),
            ok("replay", f"{self.moves} moves re-decided; every event matches{self.chat.summary()}"),
            *self.clock.report(),
            ok("result", "replay reaches the recorded result"),
        ]
