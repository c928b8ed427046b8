"""Draw any game as a text table: one client for every ruleset, written only
against the one vocabulary (docs/vocabulary.md) and the ruleset's
catalogue (``GET /v1/rulesets/{name}/catalogue``) — no branch per ruleset.

    python examples/text_table.py GAME_ID [--url URL] [--token SEAT_TOKEN]

The referee is ``--url``, else ``REFEREE_URL`` (the address ``make run`` prints).
"""
from __future__ import annotations

import argparse
import os
from typing import Any, Mapping

#: the catalogue's lists whose entries a view names by ``id``
NAMED = ("cards", "characters", "roles", "faces", "symbols", "dice", "maps")


def names_of(catalogue: Mapping[str, Any]) -> dict[str, str]:
    """Every identifier the catalogue names -> its English name."""
    return {entry["id"]: entry["name"] for kind in NAMED for entry in catalogue.get(kind, ())}


def word(value: Any, names: Mapping[str, str]) -> str:
    """One value as a table shows it: identifiers by their names, lists joined."""
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "-"}[value]
    if isinstance(value, str):
        return names.get(value, value.replace("_", " "))
    if isinstance(value, list):
        return "[" + ", ".join(word(v, names) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {word(v, names)}" for k, v in value.items()) + "}"
    return str(value)


def draw(view: Mapping[str, Any], catalogue: Mapping[str, Any]) -> str:
    """The text table of one view (``GET /v1/games/{id}`` as a seat or a spectator)."""
    names = names_of(catalogue)
    state = view["state"]
    lines = [f"{catalogue['ruleset']} — seen by "
             f"{'a spectator' if view['seat'] is None else 'seat ' + str(view['seat'])}"]
    for seat in state["seats"]:
        facts = ", ".join(f"{k} {word(v, names)}" for k, v in seat.items() if k != "seat")
        mark = "*" if seat["seat"] in view["to_act"] else " "
        lines.append(f"{mark} seat {seat['seat']}: {facts}")
    if state.get("last") is not None:
        last = dict(state["last"])
        lines.append(f"last: {word(last.pop('kind'), names)} " + word(last, names))
    pending = view.get("pending")
    if pending is not None:
        extra = {k: v for k, v in pending.items() if k not in ("kind", "awaiting", "deadline", "default")}
        lines.append(f"waiting for seats {pending['awaiting']}: {word(pending['kind'], names)}"
                     + (f" {word(extra, names)}" if extra else "")
                     + (f", deadline {pending['deadline']}" if pending["deadline"] is not None else "")
                     + "".join(f"; seat {d['seat']} defaults to {word(d['move'], names)}"
                               for d in pending["default"] or ()))
    for move in view.get("legal_moves") or ():
        lines.append(f"  you may: {word(move, names)}")
    result = view.get("result")
    if result is not None:
        lines.append(f"over ({word(result['reason'], names)}): {result['detail']}")
        lines.append("result: " + ", ".join(f"seat {s['seat']} {s['outcome']}" for s in result["seats"]))
    return "\n".join(lines)


def main() -> None:
    from referee.client import RefereeClient
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--url", default=os.environ.get("REFEREE_URL"), help="the referee (default: REFEREE_URL)")
    parser.add_argument("--token", default=None, help="a seat's token (default: the spectator's view)")
    args = parser.parse_args()
    if not args.url:
        parser.error("name the referee: --url, or REFEREE_URL")
    with RefereeClient(args.url) as client:
        view = client.games.view(args.game, token=args.token)
        print(draw(view.raw, client.rulesets.catalogue(view.ruleset)))


if __name__ == "__main__":
    main()
