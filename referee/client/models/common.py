"""Values every topic shares: a decoded JSON object and a page of a listing."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

#: a JSON object as decoded
Json = dict[str, Any]

Item = TypeVar("Item")


@dataclass(frozen=True)
class Page(Generic[Item]):
    """One page of a listing, newest first: its ``items`` and ``next``, the
    following page's cursor (``None``: this is the last page)."""

    items: tuple[Item, ...]
    next: str | None
    raw: Json = field(repr=False, compare=False)

    def __iter__(self) -> Iterator[Item]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)
