"""An event of the log as one viewer may see it (docs/audit.md, "The hash chain").

Pure: the service (move responses), the readers (event pages, streams) and
any tool call it with the ruleset, the stored envelope and the viewer."""
from __future__ import annotations

from typing import Any

from referee.engine.chain import LINK_FIELDS
from referee.engine.platform import MOVE, PUBLIC_EVENTS
from referee.engine.protocol import Event, Json, Ruleset, Seat


def shown(ruleset: Ruleset[Any], env: Json, seat: Seat | None, *, active: bool) -> Json:
    """``env`` as ``seat`` (``None``: a spectator) may see it.

    Once the game is over the log is public and nothing is redacted. An event
    whose data the seat may see whole comes with its ``data`` and ``salt``
    (the seat can open its ``commit``); any other comes with its chained
    fields, ``hash`` and the ``data`` the seat may see, but no salt: its
    ``commit`` hides the rest. Another seat's move shows only its type (a
    move may name a card its owner keeps) and, when the referee played it for
    the seat, whose default it is (``by``: the bot and the default's cause,
    public as the seats are; not how many moves it was drawn from)."""
    if not active:
        return env
    if env["type"] == MOVE:
        if seat is not None and env["actor"] == seat:
            return env
        visible: Json | None = {"move": {"type": env["data"]["move"].get("type")}, **_default_by(env["data"])}
    elif env["type"] in PUBLIC_EVENTS:
        return env
    else:
        redacted = ruleset.redact(Event(env["type"], env["data"]), seat)
        if redacted is not None and redacted.type == env["type"] and dict(redacted.data) == env["data"]:
            return env
        visible = dict(redacted.data) if redacted is not None else None
    out = {name: env[name] for name in LINK_FIELDS}
    out.update(hash=env["hash"], data=visible, redacted=True)
    return out


#: what a move record's ``by`` shows while the game runs: who defaulted and why
_PUBLIC_BY = ("bot", "default")


def _default_by(data: Json) -> Json:
    """``{"by": {bot?, default}}`` when the move is a default the referee played, else ``{}``."""
    by = data.get("by")
    if type(by) is not dict or "default" not in by:
        return {}
    return {"by": {k: by[k] for k in _PUBLIC_BY if k in by}}
