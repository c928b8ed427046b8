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
FILE = Path(__file__).resolve().parents[1] / "openapi.yaml"


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
    return out


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
