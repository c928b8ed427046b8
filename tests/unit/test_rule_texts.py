"""Rule IDs a user can look up (issue 24, item 6): every rule ID the code
cites — in a refusal's ``rule``, a schema's ``x-rule``, ``platform_rules``, a
docstring or a comment — has one entry in its ruleset's rule texts
(``referee/rules_text/<ruleset>.md``), and the README and docs point at
nothing outside the repository."""
from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.games import registry
from referee.http import ruletexts

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = ("bang", "bang-dice", "bang-faceoff", "bluffaneer")
OWNER = {"R": "bang", "FO": "bang-faceoff", "D": "bang-dice", "F": "bluffaneer"}  # prefix -> ruleset
CITED = re.compile(r"\b(FO|R|D|F)(\d+[a-z]?)\b")
# a ruleset's package cites its own IDs (Face Off builds on BANG!, so it may cite R… too)
PACKAGES = {"bang": ("R",), "faceoff": ("FO", "R"), "cards": ("R", "FO"), "dice": ("D",), "bluffaneer": ("F",)}
NOT_RULES = re.compile(r"#\s*(noqa|type:\s*ignore)\b.*$")  # linters' codes (F401, …) are not rule IDs


def _sources() -> Iterator[tuple[Path, tuple[str, ...]]]:
    for top in ("referee", "workers"):
        for file in sorted((ROOT / top).rglob("*.py")):
            parts = file.relative_to(ROOT).parts
            if parts[:2] == ("referee", "games") and len(parts) > 3:
                yield file, PACKAGES.get(parts[2], ())
            else:
                yield file, tuple(OWNER)  # platform code may cite any ruleset's rules


def _citations() -> dict[str, set[str]]:
    """``{rule ID: {"file:line", …}}`` for every rule ID cited in the source."""
    found: dict[str, set[str]] = {}
    for file, prefixes in _sources():
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            for m in CITED.finditer(NOT_RULES.sub("", line)):
                if m[1] in prefixes:
                    found.setdefault(m[1] + m[2], set()).add(f"{file.relative_to(ROOT)}:{number}")
    return found


def _resolves(rule_id: str) -> bool:
    prefix = re.match(r"FO|R|D|F", rule_id)
    assert prefix is not None, rule_id
    return ruletexts.entry(OWNER[prefix[0]], rule_id) is not None


def _x_rules(schema: Any) -> Iterator[str]:
    """Every ``x-rule`` annotation in a JSON Schema (a rule ID, or a mapping of them)."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "x-rule":
                yield from _leaves(value)
            else:
                yield from _x_rules(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _x_rules(item)


def _leaves(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)


def test_every_built_in_ruleset_has_its_rule_texts_one_entry_per_id() -> None:
    counts = {name: len(ruletexts.ids(name)) for name in BUILT_IN}
    assert counts == {"bang": 85, "bang-dice": 75, "bang-faceoff": 58, "bluffaneer": 34}
    for name, prefix in (("bang", "R"), ("bang-dice", "D"), ("bang-faceoff", "FO"), ("bluffaneer", "F")):
        assert ruletexts.ids(name) == [f"{prefix}{i}" for i in range(1, counts[name] + 1)]
        for rule_id in ruletexts.ids(name):
            e = ruletexts.entry(name, rule_id)
            assert e is not None and set(e) == {"id", "title", "text", "section"}
            assert e["id"] == rule_id and e["title"] and e["section"], e
            assert len(e["text"]) >= 20, f"{name} {rule_id} has (almost) no text"


def test_every_rule_id_the_code_cites_has_an_entry() -> None:
    cited = _citations()
    assert len(cited) > 200  # the scan finds the code's citations at all
    missing = {rule_id: sorted(where)[:3] for rule_id, where in cited.items() if not _resolves(rule_id)}
    assert not missing, f"cited without an entry in referee/rules_text: {missing}"


def test_every_rule_a_refusal_can_carry_has_an_entry() -> None:
    for name in BUILT_IN:
        rs = registry.get(name)
        rules = set(rs.platform_rules.values())
        for schema in [*rs.move_schemas.values(), rs.setup_schema, rs.options_schema]:
            rules |= set(_x_rules(schema))
        rules.discard("")
        assert rules, name
        missing = sorted(r for r in rules if ruletexts.entry(rs, r) is None and not _resolves(r))
        assert not missing, f"{name}: {missing}"


def test_the_texts_hold_every_rule_of_the_sources_when_they_are_at_hand() -> None:
    """Completeness against the rules the texts were written from, where that
    material is available (never on CI: then this is skipped)."""
    sources = Path(os.environ.get("REFEREE_RULE_SOURCES", "/work/shared/rules"))
    if not sources.is_dir():
        pytest.skip("the source rules are not available here")
    files = {"bang.md": "bang", "dice.md": "bang-dice", "faceoff.md": "bang-faceoff", "bluffaneer.md": "bluffaneer"}
    for file, name in files.items():
        if not (sources / file).exists():
            continue
        text = (sources / file).read_text(encoding="utf-8")
        expected = re.findall(r"^\*\*((?:FO|R|D|F)\d+[a-z]?) — ", text, flags=re.M)
        # every source rule has its text; beyond them, the project's own (each ruleset's resign rule)
        assert expected and set(expected) <= set(ruletexts.ids(name)), name


def test_the_parser_reads_sections_and_entries_and_refuses_a_duplicate() -> None:
    text = "# T\n\nintro\n\n## A. One\n\n### X1 — First\nline one\n\nline two\n### X2 — Second\nx\n## B. Two\n" \
           "### X3 — Third (`opt`)\ntext\n### not an entry\nignored\n"
    parsed = ruletexts.parse(text)
    assert list(parsed) == ["X1", "X2", "X3"]
    assert parsed["X1"] == {"id": "X1", "title": "First", "text": "line one\n\nline two", "section": "A. One"}
    assert parsed["X3"]["section"] == "B. Two" and parsed["X3"]["text"] == "text"
    assert parsed["X3"]["title"] == "Third (`opt`)"
    with pytest.raises(ValueError):
        ruletexts.parse("### X1 — a\n### X1 — b\n")


def test_a_plug_in_ruleset_may_ship_its_own_texts(tmp_path: Path) -> None:
    own = tmp_path / "nim.md"
    own.write_text("## A. All\n\n### N1 — Take\nTake 1 to 3 stones.\n", encoding="utf-8")

    class Plugin:
        name = "nim"
        rule_texts_path = str(own)

    assert ruletexts.ids(Plugin()) == ["N1"]
    assert ruletexts.entry(Plugin(), "N1") == {"id": "N1", "title": "Take", "text": "Take 1 to 3 stones.",
                                               "section": "A. All"}
    assert ruletexts.ids("nim") == [] and ruletexts.entry("nim", "N1") is None  # no packaged file: nothing
    assert ruletexts.entry("bang", "R999") is None


def test_the_rule_texts_are_package_data() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    assert '"rules_text/*.md"' in text
    assert ruletexts.PACKAGED == ROOT / "referee" / "rules_text"


# --- the README and docs point only inside the repository ---

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
OUTSIDE = re.compile(r"DESIGN\.md|STYLE\.md|\.\./shared|/work/|\bseeds?/|\bseed \d")


def _documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted(ruletexts.PACKAGED.glob("*.md"))]


def test_every_relative_link_of_the_readme_and_docs_is_a_file_in_the_repository() -> None:
    broken = []
    for doc in _documents():
        for target in LINK.findall(doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL, or an anchor in the same file
            path = (doc.parent / target.split("#", 1)[0]).resolve()
            if not path.exists() or ROOT not in path.parents:
                broken.append(f"{doc.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_the_docs_and_rule_texts_name_nothing_outside_the_repository() -> None:
    for doc in _documents()[1:]:
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            assert not OUTSIDE.search(line), f"{doc.relative_to(ROOT)}:{number}: {line}"


def test_the_readme_names_nothing_outside_the_repository() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    outside = [f"{n}: {line}" for n, line in enumerate(lines, 1)
               if OUTSIDE.search(line) or re.search(r"(?<![\w/])rules/[\w-]+\.md", line)]
    assert not outside, outside
