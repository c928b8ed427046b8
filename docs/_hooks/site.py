"""The docs site's hooks (mkdocs.yml): what the site shows that is generated
from the code rather than written twice.

- The settings table of ``operations.md`` is ``referee.settings.markdown()``,
  put between its two markers at build time (``python docs/_hooks/site.py``
  rewrites the file's copy, which ``tests/unit/test_settings.py`` holds to it).
- The rule texts the referee serves (``referee/rules_text/*.md``) are pages
  of the site, under ``rules/``, as they are in the package.
- The live API reference (``referee.http.api.reference``) is written into
  ``api/`` of the built site: the page ``/docs`` serves, from the same files.
- A page's link to a file of the repository outside ``docs/`` (the
  JavaScript client's README, ``openapi.yaml``), which GitHub follows, is
  followed in the site too: the file is copied under ``repo/`` and the link
  pointed there. A link to a file that is nowhere is left as it is, for
  ``--strict`` to refuse.
"""
from __future__ import annotations

import posixpath
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BEGIN = "<!-- settings: generated from referee/settings.py by `python docs/_hooks/site.py` -->\n"
END = "<!-- end of the generated settings -->\n"
OPERATIONS = ROOT / "docs" / "operations.md"
RULES = ROOT / "referee" / "rules_text"
DOCS = ROOT / "docs"
#: a markdown link's target (no URL, no bare anchor), its anchor apart
LINK = re.compile(r"(\]\()((?![a-z][a-z0-9+.-]*:)[^)\s#]+)(#[^)\s]*)?\)")


def with_settings(markdown: str) -> str:
    """``markdown`` with the text between the settings markers made anew."""
    from referee import settings
    start, end = markdown.index(BEGIN) + len(BEGIN), markdown.index(END)
    return markdown[:start] + settings.markdown() + "\n" + markdown[end:]


def outside(page: Path, target: str) -> Path | None:
    """The repository's file outside ``docs/`` that ``target``, linked from ``page``, names; else ``None``."""
    path = (page.parent / target).resolve()
    if path.is_file() and ROOT in path.parents and DOCS not in path.parents:
        return path
    return None


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File
    for text in sorted(RULES.glob("*.md")):
        files.append(File.generated(config, f"rules/{text.name}", abs_src_path=str(text)))
    linked = {path for page in DOCS.rglob("*.md") for _, target, _ in LINK.findall(page.read_text())
              if (path := outside(page, target)) is not None}
    for path in sorted(linked):
        files.append(File.generated(config, f"repo/{path.relative_to(ROOT).as_posix()}", abs_src_path=str(path)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri == "operations.md":
        markdown = with_settings(markdown)
    if page.file.abs_src_path is None or DOCS not in Path(page.file.abs_src_path).parents:
        return markdown
    source = Path(page.file.abs_src_path)

    def to_copy(link: re.Match[str]) -> str:
        path = outside(source, link.group(2))
        if path is None:
            return link.group(0)
        copy = posixpath.relpath(f"repo/{path.relative_to(ROOT).as_posix()}", posixpath.dirname(page.file.src_uri))
        return f"{link.group(1)}{copy}{link.group(3) or ''})"

    return LINK.sub(to_copy, markdown)


def on_post_build(config: Any) -> None:
    from referee.http.api import reference
    reference.write_site(Path(config["site_dir"]) / "api")


if __name__ == "__main__":
    OPERATIONS.write_text(with_settings(OPERATIONS.read_text()))
    sys.exit(0)
