"""The docs site's hooks (mkdocs.yml): what the site shows that is generated
from the code rather than written twice.

- The settings table of ``operations.md`` is ``referee.settings.markdown()``,
  put between its two markers at build time (``python docs/_hooks/site.py``
  rewrites the file's copy, which ``tests/unit/test_settings.py`` holds to it).
- The rule texts the referee serves (``referee/rules_text/*.md``) are pages
  of the site, under ``rules/``, as they are in the package.
- The live API reference (``referee.http.api.reference``) is written into
  ``api/`` of the built site: the page ``/docs`` serves, from the same files.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BEGIN = "<!-- settings: generated from referee/settings.py by `python docs/_hooks/site.py` -->\n"
END = "<!-- end of the generated settings -->\n"
OPERATIONS = ROOT / "docs" / "operations.md"
RULES = ROOT / "referee" / "rules_text"


def with_settings(markdown: str) -> str:
    """``markdown`` with the text between the settings markers made anew."""
    from referee import settings
    start, end = markdown.index(BEGIN) + len(BEGIN), markdown.index(END)
    return markdown[:start] + settings.markdown() + "\n" + markdown[end:]


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File
    for text in sorted(RULES.glob("*.md")):
        files.append(File.generated(config, f"rules/{text.name}", abs_src_path=str(text)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return with_settings(markdown) if page.file.src_uri == "operations.md" else markdown


def on_post_build(config: Any) -> None:
    from referee.http.api import reference
    reference.write_site(Path(config["site_dir"]) / "api")


if __name__ == "__main__":
    OPERATIONS.write_text(with_settings(OPERATIONS.read_text()))
    sys.exit(0)
