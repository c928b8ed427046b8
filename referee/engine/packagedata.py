"""What a ruleset ships beside its code (issue 26, item 6): the rulesets
import no file, OS or loader module, so their package data — Face Off's
built-in maps (FO6), the prose of the catalogues (issue 24 item 2) — is read here, by package and name, once, when the
ruleset's module is imported. Read-only: nothing is written, nothing is
read from outside the package."""
from __future__ import annotations

import json
from importlib import resources
from typing import Any


def package_json(package: str, name: str) -> Any:
    """The JSON value of the file ``name`` (a path inside the package, ``/``-separated) of ``package``."""
    return json.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))


def package_tables(package: str, name: str) -> dict[str, dict[str, dict[str, Any]]]:
    """The tables of the JSON file ``name`` of ``package``, an object of
    tables, each an object of entries by key, each entry an object of fields
    (a catalogue's prose: ``{"cards": {"BANG": {"name": …, "rule": …, "text": …}}}``)."""
    tables: dict[str, dict[str, dict[str, Any]]] = package_json(package, name)
    return tables
