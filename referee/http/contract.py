"""The part of ``openapi.yaml`` generated from the rulesets' code (issue 9):
each ruleset's options and moves as JSON Schemas, the very schemas it
enforces. ``referee contract --write`` rewrites the block between the
markers; ``--check`` (and a test) fails when the committed file is out of
date. ``GET /openapi.yaml`` serves the file with the block generated for the
rulesets installed in that referee (a plugin's included)."""
from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import yaml

from referee.games import registry

BEGIN = "    # >>> generated from the rulesets' code by `referee contract --write`; do not edit by hand\n"
END = "    # <<< end of the generated schemas\n"
FILE = Path(__file__).resolve().parents[2] / "openapi.yaml"
#: the JSON Schema type of an option's value (``_options_at``)
JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}


def read_yaml(text: str | bytes) -> Any:
    """``text`` read as ``yaml.safe_load`` reads it, by libyaml's safe loader where PyYAML has it
    (the same documents, a tenth of the time)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("_", "-").split("-"))


def built_in() -> list[str]:
    """The rulesets this distribution declares (the committed contract covers these)."""
    return sorted(ep.name for ep in entry_points(group=registry.GROUP)
                  if ep.dist is not None and ep.dist.name == "referee")


def schemas(names: list[str]) -> dict[str, Any]:
    """``RulesetName`` (the enum of ``names``: what a request's ``ruleset``
    takes), then ``{<Name>Options, <Name>Move, <Name>Setup, <Name>View?,
    <Name>Event?}`` for each ruleset."""
    out: dict[str, Any] = {"RulesetName": {
        "type": "string", "enum": sorted(names),
        "description": "An installed ruleset (GET /v1/rulesets): POST /v1/games, /v1/bots and /v1/tournaments "
                       "take no other; any other name is a 422 unknown_ruleset."}}
    for name in names:
        rs = registry.get(name)
        camel = _camel(name)
        out[f"{camel}Options"] = {**rs.options_schema, "description": f"{rs.title}: the options of POST "
                                  f"/v1/games (ruleset {name!r}), as enforced."}
        out[f"{camel}Move"] = {"description": f"{rs.title}: every move a seat may POST, as enforced.",
                               "oneOf": [rs.move_schemas[kind] for kind in sorted(rs.move_schemas)]}
        out[f"{camel}Setup"] = rs.setup_schema
        if rs.view_schema:
            out[f"{camel}View"] = rs.view_schema
        if rs.event_schemas:
            out[f"{camel}Event"] = {
                "description": f"{rs.title}: every event, `type` and `data` as stored and as redacted for a seat.",
                "oneOf": [{"type": "object", "required": ["type", "data"],
                           "properties": {"type": {"const": kind}, "data": rs.event_schemas[kind]}}
                          for kind in sorted(rs.event_schemas)]}
    return {**out, **sizes(names)}


def _options_at(rs: Any, players: int) -> dict[str, Any]:
    """The ``options`` a table of ``players`` must (``required``, ``const``)
    or must not (``not const``) carry, as ``options_for`` says: BANG!'s 3
    players need ``three_player: true``, 4 to 7 cannot have it (R5)."""
    needed = rs.options_for(players)
    sizes = range(rs.min_players, rs.max_players + 1)
    others = {k: v for p in sizes for k, v in rs.options_for(p).items() if k not in needed}
    props = {**{k: {"const": v} for k, v in needed.items()},
             **{k: {"type": JSON_TYPES[type(v)], "not": {"const": v}} for k, v in others.items()}}
    return {"type": "object", "properties": props, **({"required": sorted(needed)} if needed else {})} if props else {}


def _branch(name: str, players: Any, counted: str, count: dict[str, int], rs: Any, p: int) -> dict[str, Any]:
    """One ``(ruleset, table size)`` of ``GameSizes`` or ``TournamentSizes``."""
    options = _options_at(rs, p)
    props: dict[str, Any] = {"ruleset": {"const": name}, counted: {"type": "array", **count}}
    if players is not None:
        props["players"] = players
    out: dict[str, Any] = {"properties": {**props, **({"options": options} if options else {})}}
    if options.get("required"):
        out["required"] = ["options"]
    return out


def sizes(names: list[str]) -> dict[str, Any]:
    """``GameSizes`` and ``TournamentSizes``: the table sizes each ruleset
    takes, bound to the ruleset (issue 36 item 8: a schema-valid ``seats:
    [{}]`` for BANG! was refused). A game's ``players`` and its ``seats``
    agree; a tournament without ``players`` plays its entrants' count, held
    between the ruleset's bounds, and has at least that many entrants."""
    game: list[dict[str, Any]] = []
    tournament: list[dict[str, Any]] = []
    for name in names:
        rs = registry.get(name)
        for p in range(rs.min_players, rs.max_players + 1):
            game.append(_branch(name, {"const": p}, "seats", {"minItems": p, "maxItems": p}, rs, p))
            given = _branch(name, {"const": p}, "entrants", {"minItems": p}, rs, p)
            tournament.append({**given, "required": sorted({"players", *given.get("required", [])})})
            upto = {"maxItems": p} if p < rs.max_players else {}
            default = _branch(name, None, "entrants", {"minItems": p, **upto}, rs, p)
            tournament.append({**default, "not": {"required": ["players"]}})
    return {
        "GameSizes": {"description": "The table sizes each ruleset takes (`players`, or as many `seats`; both: "
                      "the same), with the options a size needs; any other is a 422 (`bad_player_count`, "
                      "`player_count_mismatch`, `invalid_options`).", "oneOf": game},
        "TournamentSizes": {"description": "The table sizes each ruleset takes, at least as many entrants (no "
                            "`players`: the entrants' count, held between the ruleset's bounds), with the options "
                            "a size needs; any other is a 422 (`bad_player_count`, `too_few_entrants`, "
                            "`invalid_options`).", "oneOf": tournament}}


def block(names: list[str]) -> str:
    text = yaml.safe_dump(schemas(names), sort_keys=True, allow_unicode=True, width=110, default_flow_style=None)
    return BEGIN + "".join(f"    {line}\n" if line else "\n" for line in text.splitlines()) + END


def render(text: str, names: list[str]) -> str:
    """``text`` (openapi.yaml) with its generated block made from ``names``."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + block(names) + text[end:]


def main(argv: list[str]) -> int:
    committed = FILE.read_text()
    wanted = render(committed, built_in())
    if "--write" in argv:
        FILE.write_text(wanted)
        return 0
    if wanted != committed:
        print("openapi.yaml is out of date: run `referee contract --write`")
        return 1
    print("openapi.yaml matches the rulesets' code")
    return 0
