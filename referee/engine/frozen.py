"""Copies of frozen, slotted dataclasses with some fields changed: a fold
makes one per event, and ``dataclasses.replace`` (through ``__init__`` and
``object.__setattr__``, one field at a time) costs several times more than
setting the slots directly. ``dataclasses`` itself writes its ``__init__``
as generated source; so does ``copier``."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from types import MemberDescriptorType
from typing import Any


def copier(cls: type, fresh: Mapping[str, Callable[[], Any]] | None = None) -> Callable[..., Any]:
    """``but(obj, **changes)``: what ``dataclasses.replace(obj, **changes)``
    gives for the frozen slots dataclass ``cls`` (which must have no
    ``__post_init__``), several times faster. A field named in ``fresh``
    starts anew from its factory in every copy (a per-instance cache); an
    unknown field name is a ``TypeError``, as with ``dataclasses.replace``."""
    fresh = dict(fresh or {})
    names = [f.name for f in fields(cls)]
    if "__post_init__" in cls.__dict__ or not all(isinstance(cls.__dict__.get(n), MemberDescriptorType)
                                                   for n in names):
        raise TypeError(f"{cls.__name__}: copier needs a slots dataclass without __post_init__")
    setters = {name: cls.__dict__[name].__set__ for name in names if name not in fresh}
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls, "known": frozenset(setters), "setters": setters}
    lines = ["def but(obj, **changes):",
             "    if not changes.keys() <= known:",
             "        raise TypeError(f'{cls.__name__} has no field(s) {sorted(changes.keys() - known)}')",
             "    out = new(cls)"]
    for i, name in enumerate(names):  # every slot copied (or started anew), then the changes set over them
        scope[f"set{i}"] = cls.__dict__[name].__set__
        if name in fresh:
            scope[f"fresh{i}"] = fresh[name]
            lines.append(f"    set{i}(out, fresh{i}())")
        else:
            lines.append(f"    set{i}(out, obj.{name})")
    lines += ["    for name, value in changes.items():",
              "        setters[name](out, value)",
              "    return out"]
    exec("\n".join(lines), scope)  # noqa: S102 - source built above from the class's own field names
    but: Callable[..., Any] = scope["but"]
    return but
