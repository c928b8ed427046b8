"""One settings module (issue 21): every environment setting the referee
reads is declared in ``referee.settings`` with its default, read through it
alone, and listed in the README's table exactly as declared."""
from __future__ import annotations

import re
from pathlib import Path

from referee import settings

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"\b(REFEREE_[A-Z_]*[A-Z]|RQ_REDIS_URL|REDIS_URL)\b")
DIRECT = re.compile(r"os\.(?:environ\.get|getenv)\(\s*f?[\"'](?:REFEREE_|RQ_REDIS_URL|REDIS_URL|PORT)"
                    r"|os\.environ\[\s*f?[\"'](?:REFEREE_|RQ_REDIS_URL|REDIS_URL)")
#: names that are prefixes of declared ones (f-strings, docs), or settings of other programs
NOT_SETTINGS = {"REFEREE_RETENTION", "REFEREE_TOURNAMENT_MAX", "REFEREE_REDIS", "REFEREE_BOT"}


def sources() -> list[Path]:
    return sorted(p for d in ("referee", "workers") for p in (ROOT / d).rglob("*.py"))


def test_every_setting_named_in_the_code_is_declared_with_its_default() -> None:
    named = {m for p in sources() for m in NAME.findall(p.read_text())} - NOT_SETTINGS
    undeclared = sorted(named - set(settings.BY_NAME))
    assert undeclared == [], f"declare these in referee/settings.py: {undeclared}"


def test_no_module_but_settings_reads_a_setting_from_the_environment_itself() -> None:
    readers = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in sources() if p.name != "settings.py"
               for m in DIRECT.finditer(p.read_text())]
    assert readers == []


def test_the_readme_lists_every_setting_as_declared() -> None:
    assert settings.markdown() in (ROOT / "docs" / "operations.md").read_text()


def test_a_setting_is_the_environment_s_else_its_default() -> None:
    assert settings.get("REFEREE_STALL_S", {}) == "10"
    assert settings.get("REFEREE_STALL_S", {"REFEREE_STALL_S": "3"}) == "3"
    assert settings.get("RQ_REDIS_URL", {}) is None
