"""The text of every rule a ruleset cites (issue 24, item 6): one entry per
rule ID, read from the ruleset's markdown file — ``referee/rules_text/<name>.md``
for the built-in rulesets (shipped as package data), or the file a plug-in
ruleset names in its optional ``rule_texts_path`` attribute.

The file's format, the same for every ruleset: a level-2 heading per section
and, per rule, a level-3 heading exactly ``### <ID> — <Title>`` followed by
the rule's text (markdown), up to the next heading of level 2 or 3. Served by
``GET /v1/rulesets/{name}/rules`` and ``GET /v1/rulesets/{name}/rules/{id}``.
Pure: nothing but reading that one file (cached)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TypedDict

PACKAGED = Path(__file__).resolve().parents[1] / "rules_text"
_RULE = re.compile(r"^### (?P<id>[A-Z]+[0-9]+[a-z]?) — (?P<title>.+?)\s*$")
_SECTION = re.compile(r"^## (?P<title>.+?)\s*$")


class Entry(TypedDict):
    id: str
    title: str
    text: str
    section: str


def path(ruleset: object) -> Path:
    """Where the rule texts of ``ruleset`` (a ruleset object or its name) are:
    its ``rule_texts_path`` if it has one, else the packaged file of its name."""
    own = getattr(ruleset, "rule_texts_path", None)
    if own:
        return Path(str(own))
    name = ruleset if isinstance(ruleset, str) else str(getattr(ruleset, "name", ""))
    return PACKAGED / f"{name}.md"


def parse(markdown: str) -> dict[str, Entry]:
    """Every ``### <ID> — <Title>`` entry of ``markdown``, in file order."""
    entries: dict[str, Entry] = {}
    section = ""
    current: Entry | None = None
    lines: list[str] = []

    def close() -> None:
        if current is not None:
            current["text"] = "\n".join(lines).strip()

    for line in markdown.splitlines():
        heading = _SECTION.match(line) if line.startswith("## ") else None
        rule = _RULE.match(line) if line.startswith("### ") else None
        if heading is not None or rule is not None or line.startswith("### "):
            close()
            current, lines = None, []
            if heading is not None:
                section = heading["title"]
            elif rule is not None:
                if rule["id"] in entries:
                    raise ValueError(f"rule {rule['id']} has two entries")
                current = {"id": rule["id"], "title": rule["title"], "text": "", "section": section}
                entries[rule["id"]] = current
            continue
        if current is not None:
            lines.append(line)
    close()
    return entries


@lru_cache(maxsize=32)
def _read(file: str) -> dict[str, Entry]:
    try:
        return parse(Path(file).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def _entries(ruleset: object) -> dict[str, Entry]:
    return _read(str(path(ruleset)))


def entry(ruleset: object, rule_id: str) -> Entry | None:
    """Rule ``rule_id`` of ``ruleset`` (an object or a name): ``{"id",
    "title", "text", "section"}``, or ``None`` if it has no such entry."""
    found = _entries(ruleset).get(rule_id)
    return None if found is None else Entry(**found)


def ids(ruleset: object) -> list[str]:
    """Every rule ID of ``ruleset`` that has an entry, in document order."""
    return list(_entries(ruleset))
