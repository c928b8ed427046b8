"""The ``awaiting`` event's data: what the referee waits for, as domain facts
(R43, R77), and its codec to and from the engine's agenda (``State.stack``).

The event is storage format, so it names rule facts, never the fields of
``state.Frame`` (which may change without touching a stored log)::

    {"to_act": [seat],                  # whose move the referee awaits
     "phase": "start|draw|play|discard",
     "bangs": k,                        # BANG! cards played this turn (R18)
     "prompt": null | {...},            # the open window (R43), see below
     "then": [{...}, ...]}              # what is still owed once it closes,
                                        # the next first

Prompts (``prompt``, and windows waiting beneath it in ``then``), each with
``kind`` and ``seat`` (who answers):

* ``shot`` — shooter, card (BANG | MISSED | GATLING), needed, misses,
  barrels_used, missed_played (R35, R44, R73);
* ``indians`` — source, card (R34); ``duel`` — source, card, other (R32,
  R46); ``dying`` — credited (seat or null, R48, R52);
* ``store`` — source, order (this chooser, then the later ones, R29);
  ``lucky`` — check (dynamite | jail | barrel) and barrel (its source, for a
  Barrel check, R42); ``kit`` (R67); ``draw_choice`` (R65, R70).

Steps the referee runs by itself (only in ``then``):

* ``turn_step`` — seat, next (dynamite | jail | draw): the start of a turn
  still to check (R9, R10);
* ``targets_left`` — source, card (GATLING | INDIANS), targets: the players
  still to answer a card that hits everyone (R45);
* ``after_hit`` — seat, source, amount: abilities after a hit (R50, R61, R64).
"""
from __future__ import annotations

from typing import Any

from referee.games.bang.event_types import Awaiting, Entry
from referee.games.bang.state import PROMPTS, Frame, Seat

Json = dict[str, Any]


def _check_of(purpose: str) -> Json:
    kind, _, barrel = purpose.partition(":")
    return {"check": kind, "barrel": barrel} if barrel else {"check": kind}


def encode_frame(frame: Frame) -> Json:
    """One agenda entry as domain facts (see the module docstring)."""
    k = frame.kind
    if k == "shot":
        return {"kind": k, "seat": frame.seat, "shooter": frame.src, "card": frame.card, "needed": frame.needed,
                "misses": frame.misses, "barrels_used": list(frame.used), "missed_played": frame.played}
    if k == "indians":
        return {"kind": k, "seat": frame.seat, "source": frame.src, "card": frame.card}
    if k == "duel":
        return {"kind": k, "seat": frame.seat, "source": frame.src, "card": frame.card, "other": frame.other}
    if k == "dying":
        return {"kind": k, "seat": frame.seat, "credited": frame.by if frame.by >= 0 else None}
    if k == "store":
        return {"kind": k, "seat": frame.seat, "source": frame.src, "order": [frame.seat, *frame.targets]}
    if k == "lucky":
        return {"kind": k, "seat": frame.seat, **_check_of(frame.purpose)}
    if k in ("kit", "draw_choice"):
        return {"kind": k, "seat": frame.seat}
    if k == "turn":
        return {"kind": "turn_step", "seat": frame.seat, "next": frame.step}
    if k == "multi":
        return {"kind": "targets_left", "source": frame.src, "card": frame.card, "targets": list(frame.targets)}
    if k == "after_hit":
        return {"kind": k, "seat": frame.seat, "source": frame.src, "amount": frame.amount}
    raise ValueError(f"unknown agenda entry {k!r}")  # a bug in the engine, never input


def decode_frame(entry: Entry) -> Frame:
    """The agenda entry ``encode_frame`` wrote (``evolve`` trusts the log)."""
    k = entry["kind"]
    if k == "shot":
        return Frame("shot", entry["seat"], src=entry["shooter"], card=entry["card"], needed=entry["needed"],
                     misses=entry["misses"], used=tuple(entry["barrels_used"]), played=entry["missed_played"])
    if k == "indians":
        return Frame(k, entry["seat"], src=entry["source"], card=entry["card"])
    if k == "duel":
        return Frame(k, entry["seat"], src=entry["source"], card=entry["card"], other=entry["other"])
    if k == "dying":
        by = entry["credited"]
        return Frame(k, entry["seat"], by=-1 if by is None else by)
    if k == "store":
        return Frame(k, entry["seat"], src=entry["source"], targets=tuple(entry["order"][1:]))
    if k == "lucky":
        barrel = entry.get("barrel")
        return Frame(k, entry["seat"], purpose=entry["check"] + (":" + barrel if barrel else ""))
    if k == "turn_step":
        return Frame("turn", entry["seat"], step=entry["next"])
    if k == "targets_left":
        return Frame("multi", src=entry["source"], card=entry["card"], targets=tuple(entry["targets"]))
    if k == "after_hit":
        return Frame(k, entry["seat"], src=entry["source"], amount=entry["amount"])
    return Frame(k, entry["seat"])  # kit, draw_choice


def awaiting(turn: Seat, phase: str, bangs: int, stack: tuple[Frame, ...]) -> Json:
    """The ``awaiting`` event's data for the agenda ``stack`` (top last)."""
    top = stack[-1] if stack and stack[-1].kind in PROMPTS else None
    rest = stack[:-1] if top is not None else stack
    return {"to_act": [top.seat if top is not None else turn], "phase": phase, "bangs": bangs,
            "prompt": encode_frame(top) if top is not None else None,
            "then": [encode_frame(f) for f in reversed(rest)]}


def stack_of(data: Awaiting) -> tuple[Frame, ...]:
    """The agenda (top last) an ``awaiting`` event's data describes."""
    frames = [decode_frame(entry) for entry in reversed(data["then"])]
    prompt = data["prompt"]
    if prompt is not None:
        frames.append(decode_frame(prompt))
    return tuple(frames)

