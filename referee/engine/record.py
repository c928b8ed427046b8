"""What a game's log records around the rules' own events (docs/design-notes.md,
notes): the platform events of the deal and of each move. The service writes
exactly this and the audit expects exactly this, so both come from here."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from referee.engine.chain import keyed_hmac_sha256, salted_envelope
from referee.engine.platform import (
    CHAT_EVENTS,
    MOVE,
    PLATFORM_EVENTS,
    SEAT_EVENTS,
    SECRETS_OPENED,
    SECRETS_SEALED,
    SEED_REVEALED,
)
from referee.engine.protocol import Event, Json, Ruleset, S, Seat, dealt_secrets, fold, openings, seals

Produced = list[tuple[Seat | None, Event]]


def ruleset_events(envelopes: Iterable[Json]) -> list[Event]:
    """The rules' own events of stored envelopes (the platform's left out):
    what ``fold`` replays into a state."""
    return [Event(e["type"], e["data"]) for e in envelopes if e["type"] not in PLATFORM_EVENTS]


def deal(ruleset: Ruleset[S], events: list[Event], seed: str) -> tuple[Produced, S, Json, frozenset[str]]:
    """``(produced, state, dealt, opened)`` of a new game: the setup events,
    the seals of the dealt secrets, and the openings of those already public."""
    state = fold(ruleset, events)
    dealt = dealt_secrets(ruleset, state)
    produced: Produced = [(None, e) for e in events]
    if dealt:  # DESIGN.md: secrets dealt at the start are sealed in the public log
        produced.append((None, Event(SECRETS_SEALED, {"commitments": seals(dealt, seed)})))
    opening = openings(ruleset, state, dealt, frozenset(), seed)
    if opening:
        produced.append((None, Event(SECRETS_OPENED, {"secrets": opening})))
    return produced, state, dealt, frozenset(opening)


def move(ruleset: Ruleset[S], state: S, seat: Seat | None, record: Json, events: list[Event], dealt: Json,
         opened: frozenset[str], seed: str) -> tuple[Produced, Json | None, frozenset[str]]:
    """``(produced, result, opened)`` after one accepted move whose
    ``events`` brought the game to ``state``: the ``move`` record, the rules'
    events, the seals opened by what became public (then and there, not only
    at the end), and ``seed_revealed`` at the end."""
    result = ruleset.result(state)
    produced: Produced = [(seat, Event(MOVE, record))]
    produced += [(seat, e) for e in events]
    opening = openings(ruleset, state, dealt, opened, seed)
    if opening:
        produced.append((seat, Event(SECRETS_OPENED, {"secrets": opening})))
    if result is not None:
        produced.append((None, Event(SEED_REVEALED, {"seed": seed, "result": result})))
    return produced, result, opened | frozenset(opening) if opening else opened


def chained(seed: str, prev: str, version: int, produced: Produced, at: int, *,
            mac: Callable[[bytes], bytes] | None = None) -> tuple[list[Json], str]:
    """``produced`` as stored envelopes numbered after ``version``, chained
    after ``prev`` (docs/audit.md, "The hash chain"), and the last hash. ``mac``:
    ``keyed_hmac_sha256(seed)``, where the caller holds one (the salts' key)."""
    out = []
    if mac is None:  # the seed's HMAC key prepared once for every salt of the move
        mac = keyed_hmac_sha256(seed.encode())
    for seq, (actor, event) in enumerate(produced, start=version + 1):
        env = salted_envelope(mac(b"event:%d" % seq).hex(), seq, event.type, event.data, actor, at, prev)
        prev = env["hash"]
        out.append(env)
    return out, prev


def shown_versions(types: Sequence[str]) -> list[int]:
    """The versions a client could have been shown, given the log's event
    types in order: the end of the deal and the end of every move (each
    version after which a ``move``, a seat's or a chat event begins), and the
    latest. A version inside a move (its events half applied) was never anyone's view."""
    between = SEAT_EVENTS | CHAT_EVENTS
    shown = [seq for seq in range(1, len(types)) if types[seq] == MOVE or types[seq] in between]
    if types and (not shown or shown[-1] != len(types)):
        shown.append(len(types))
    return shown


def not_shown(version: int, shown: Sequence[int]) -> str:
    """Why ``version`` (not among ``shown``) is not replayed, naming the shown versions around it."""
    before = max((v for v in shown if v < version), default=None)
    after = min((v for v in shown if v > version), default=None)
    if before is None:
        return (f"version {version} is in the middle of a move (the deal): no client was shown it; the game was "
                f"first shown at version {after} (shown_versions lists them all)")
    return (f"version {version} is in the middle of a move (its events half applied): no client was shown it; the "
            f"shown versions around it are {before} and {after} (shown_versions lists them all)")

