"""Moves as typed frozen values (issue 37 item 5), parsed once at the boundary.

A move arrives as JSON (``{"type": "play", "card": "BANG-1", "target": 2}``);
its ``type`` string and its keys are the published contract and the log's
storage format, never renamed. A ruleset declares each move type as a
frozen dataclass subclassing :class:`TypedMove` whose field names are the
JSON keys (a key that is a Python keyword is named in the field's metadata,
``field(metadata={"json": "from"})``), and hands them to a
:class:`MoveTable`. Its ``parse_move`` (``RulesetBase``) returns
``table.read(move)`` once the move matches its schema, so ``play`` and every
rule below it take a typed value mypy can check, never a ``dict[str, Any]``.

What a client sees stays JSON: ``legal_moves`` and ``default_move`` return
the JSON form (``TypedMove.to_json``), which is what the log records, what a
bot's answer is compared with byte for byte and what the views list.

A move read from JSON keeps that JSON (``TypedMove.json``): the rules
compare a move with the legal moves as JSON at every action, and the object
a move was read from is the one a player picked from those very lists, so
the comparison finds it by identity and nothing is written back. It is kept
only where ``to_json`` would write an equal object (the class writes its
keys with the generated writer, its optional keys default to ``None`` and
none was sent as ``null``); otherwise ``json`` writes it once.

A JSON array is read as a tuple (frozen all the way down: a field typed
``tuple[tuple[int, int], ...]`` is a tuple of tuples); an optional key left
out is the field's default (``None`` unless the class says otherwise) and is
left out again by ``to_json`` when it is ``None``, so ``read`` then
``to_json`` gives the move back as it was sent
(``tests/unit/test_typed_moves.py``).

Every move of a game is read once and written back at least once (a bot's
answer and a play are compared with the legal moves as JSON), so both are
on the rules' hot path (``python -m bench instructions``). Each class's
reader and writer are therefore written once, as generated source with the
class's keys spelt out (as ``dataclasses`` writes ``__init__`` and
``referee.engine.frozen`` its copier): no field list walked per move, no
array conversion for a field that holds none, and a move type without
fields read as one shared value."""
from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

Json = dict[str, Any]
M = TypeVar("M", bound="TypedMove")


class MoveKey(NamedTuple):
    """One field of a move type as its JSON carries it."""

    name: str  #: the field's name
    key: str  #: its JSON key (the field's name unless its metadata names another)
    optional: bool  #: the key may be left out (the field has a default)
    depth: int  #: how many arrays deep its value is: 0 a scalar, 1 an array of scalars, 2 of arrays ...
    nullable: bool  #: the value may be ``null`` (its type admits ``None``)


class _Codec(NamedTuple):
    """A move class's keys, its reader (JSON -> the typed value) and its writer (back)."""

    keys: tuple[MoveKey, ...]
    read: Callable[[Mapping[str, Any]], Any]
    write: Callable[[Any], Json]


#: the class attribute that holds a move class's own codec (as ``__dataclass_fields__`` its fields)
_CODEC = "__typed_move_codec__"
#: the mark of a writer ``_compile`` wrote: a subclass inherits none of them (``TypedMove.__init_subclass__``)
_WRITTEN = "__typed_move_writer__"


def _depth(hint: Any) -> int:
    """How many arrays deep a field of type ``hint`` is (a union: its deepest member)."""
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        return max(_depth(arg) for arg in typing.get_args(hint))
    if origin is tuple:
        return 1 + max((_depth(arg) for arg in typing.get_args(hint) if arg is not Ellipsis), default=0)
    return 0


def _nullable(hint: Any) -> bool:
    origin = typing.get_origin(hint)
    return hint is None or hint is type(None) or (
        (origin is typing.Union or origin is types.UnionType) and type(None) in typing.get_args(hint))


def _frozen(value: Any) -> Any:
    """An array of any depth as tuples (the generated readers spell out depths 1 and 2 themselves)."""
    return tuple(_frozen(item) for item in value) if isinstance(value, list) else value


def _thawed(value: Any) -> Any:
    return [_thawed(item) for item in value] if isinstance(value, tuple) else value


def _converted(expr: str, depth: int, nullable: bool, *, reading: bool) -> str:
    """Source turning ``expr`` from JSON into the field's value (``reading``) or back."""
    if depth == 0:
        return expr
    if depth == 1:
        out = f"{'tuple' if reading else 'list'}({expr})"
    elif depth == 2:
        out = f"tuple(map(tuple, {expr}))" if reading else f"list(map(list, {expr}))"
    else:
        out = f"{'_frozen' if reading else '_thawed'}({expr})"
    return f"(None if {expr} is None else {out})" if nullable else out


def _move_keys(cls: type[TypedMove]) -> tuple[MoveKey, ...]:
    try:
        hints = typing.get_type_hints(cls)
    except NameError as error:
        raise TypeError(f"{cls.__name__}: a field's type does not resolve at module level ({error})") from None
    keys = []
    for spec in dataclasses.fields(cls):
        if not spec.init:
            raise TypeError(f"{cls.__name__}.{spec.name}: a move's every field is one of its JSON keys")
        keys.append(MoveKey(spec.name, spec.metadata.get("json", spec.name),
                            spec.default is not dataclasses.MISSING or spec.default_factory is not dataclasses.MISSING,
                            _depth(hints[spec.name]), _nullable(hints[spec.name])))
    return tuple(keys)


def _value_source(i: int, spec: dataclasses.Field[Any], key: MoveKey, scope: dict[str, Any]) -> str:
    """Source of field ``i``'s value read from ``move``: its key's (converted), or its default."""
    sent = _converted(f"move[{key.key!r}]", key.depth, key.nullable, reading=True)
    if not key.optional:
        return sent
    if spec.default_factory is not dataclasses.MISSING:
        scope[f"factory{i}"] = spec.default_factory
        default = f"factory{i}()"
    else:
        scope[f"default{i}"] = spec.default
        if not key.depth:
            return f"move.get({key.key!r}, default{i})"
        default = f"default{i}"
    return f"({sent} if {key.key!r} in move else {default})"


def _slot_setters(cls: type[TypedMove], keys: tuple[MoveKey, ...]) -> list[Any] | None:
    """The setters of ``cls``'s slots, one a field: a move built by them skips ``__init__``,
    which in a frozen dataclass sets each field through ``object.__setattr__`` (most of
    what a read costs). ``None`` for a class whose ``__init__`` must run (``__post_init__``)
    or that has no slots."""
    if hasattr(cls, "__post_init__"):
        return None
    setters = []
    for key in keys:
        slot = next((klass.__dict__[key.name] for klass in cls.__mro__ if key.name in klass.__dict__), None)
        if not isinstance(slot, types.MemberDescriptorType):
            return None
        setters.append(slot.__set__)
    return setters


def _keeps_sent(cls: type[TypedMove], keys: tuple[MoveKey, ...]) -> str | None:
    """Source of the condition under which the JSON a ``cls`` move is read from equals what its
    ``to_json`` writes (``None``: never): the generated writer, no optional key with a default
    other than ``None``, no ``__post_init__``, and (checked per move) no optional key sent as ``null``."""
    if cls.to_json is not _LAZY_TO_JSON and not getattr(cls.to_json, _WRITTEN, False):
        return None  # the class writes its JSON itself
    if hasattr(cls, "__post_init__"):
        return None  # its __init__ may change what was sent
    defaults = {spec.name: spec.default for spec in dataclasses.fields(cls)}
    if any(key.optional and defaults[key.name] is not None for key in keys):
        return None
    sent = [f"move.get({key.key!r}, 0) is not None" for key in keys if key.optional]
    return " and ".join(sent) or "True"


def _reader_source(cls: type[TypedMove], keys: tuple[MoveKey, ...], scope: dict[str, Any]) -> list[str]:
    if not keys:  # frozen and without fields: every move of the type can be the one value
        scope["shared"] = shared = cls()
        _SET_SENT(shared, {"type": cls.TYPE})
        return ["def read(move):", "    return shared"]
    specs = {spec.name: spec for spec in dataclasses.fields(cls)}
    values = [_value_source(i, specs[key.name], key, scope) for i, key in enumerate(keys)]
    setters = _slot_setters(cls, keys)
    kept = _keeps_sent(cls, keys)
    scope["set_sent"] = _SET_SENT
    keep = [] if kept is None else [f"    set_sent(out, move if {kept} else None)" if kept != "True"
                                    else "    set_sent(out, move)"]
    if setters is None:
        args = [f"{key.name}={value}" if specs[key.name].kw_only else value for key, value in zip(keys, values)]
        return ["def read(move):", f"    out = cls({', '.join(args)})", *keep, "    return out"]
    scope.update({f"set{i}": setter for i, setter in enumerate(setters)}, new=object.__new__)
    return ["def read(move):", "    out = new(cls)", *(f"    set{i}(out, {value})" for i, value in enumerate(values)),
            *keep, "    return out"]


def _writer_source(keys: tuple[MoveKey, ...]) -> list[str]:
    """``to_json``: the keys in the fields' order, an optional one left out when it is ``None``."""
    inline, later = ["'type': TYPE"], []
    for key in keys:
        back = _converted(f"self.{key.name}", key.depth, key.nullable, reading=False)
        if key.optional:
            later += [f"    if self.{key.name} is not None:", f"        out[{key.key!r}] = {back}"]
        elif later:  # a keyword-only field after an optional one: still in the fields' order
            later.append(f"    out[{key.key!r}] = {back}")
        else:
            inline.append(f"{key.key!r}: {back}")
    return ["def write(self):", f"    out = {{{', '.join(inline)}}}", *later, "    return out"]


def _compile(cls: type[TypedMove]) -> _Codec:
    """``cls``'s reader and writer as source with its keys spelt out, run once."""
    keys = _move_keys(cls)
    scope: dict[str, Any] = {"cls": cls, "TYPE": cls.TYPE, "_frozen": _frozen, "_thawed": _thawed}
    source = [*_reader_source(cls, keys, scope), *_writer_source(keys)]
    exec("\n".join(source), scope)  # noqa: S102 - source built above from the class's own field names and keys
    write = scope["write"]
    write.__qualname__ = f"{cls.__qualname__}.to_json"
    setattr(write, _WRITTEN, True)
    return _Codec(keys, scope["read"], write)


def _codec(cls: type[TypedMove]) -> _Codec:
    """``cls``'s codec, written the first time it is asked for and kept on the class (its own,
    never a base class's); its writer becomes ``cls.to_json`` unless the class writes its own."""
    codec: _Codec | None = cls.__dict__.get(_CODEC)
    if codec is None:
        codec = _compile(cls)
        type.__setattr__(cls, _CODEC, codec)
        if cls.__dict__.get("to_json") is _LAZY_TO_JSON:
            type.__setattr__(cls, "to_json", codec.write)
    return codec


@dataclasses.dataclass(frozen=True)
class TypedMove:
    """One move type of a ruleset: subclass it as a frozen dataclass and set
    ``TYPE`` to the move's ``type`` string."""

    #: ``_sent``: the move's JSON (``json``), no field: not compared, hashed nor shown
    __slots__ = ("_sent",)
    TYPE: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every subclass starts with the ``to_json`` that writes its own codec: a subclass of a class
        whose writer is written already must not inherit it (it has other keys, another ``TYPE``); a
        ``to_json`` a class writes itself is inherited as usual."""
        super().__init_subclass__(**kwargs)
        inherited = getattr(cls, "to_json", None)
        if "to_json" not in cls.__dict__ and (inherited is _LAZY_TO_JSON or getattr(inherited, _WRITTEN, False)):
            type.__setattr__(cls, "to_json", _LAZY_TO_JSON)

    @classmethod
    def keys(cls) -> tuple[MoveKey, ...]:
        """Every field's key, in order."""
        return _codec(cls).keys

    def to_json(self) -> Json:
        """The move as a client sends it: ``type`` first, then every key
        whose value is not a left-out optional (``None``), arrays as lists.
        This body runs once per class: it writes the class's writer, which
        then stands in its place."""
        return _codec(type(self)).write(self)

    def json(self) -> Json:
        """The move as JSON, equal to ``to_json()``, to read and to compare, never to be
        changed: the object it was read from where that is equal (the module's docstring),
        else ``to_json()`` written the first time and kept."""
        sent: Json | None = getattr(self, "_sent", None)  # unset: a move made in code, not read
        if sent is None:
            sent = self.to_json()
            _SET_SENT(self, sent)
        return sent


_LAZY_TO_JSON = TypedMove.__dict__["to_json"]
#: sets a move's kept JSON past the frozen ``__setattr__`` (as the readers set the fields)
_SET_SENT: Callable[[TypedMove, Json | None], None] = TypedMove.__dict__["_sent"].__set__


class MoveTable(Generic[M]):
    """A ruleset's move types by their ``type`` string."""

    def __init__(self, classes: Iterable[type[M]]) -> None:
        self.by_type: dict[str, type[M]] = {}
        #: each type's reader, which ``read`` runs at every move (a parser that knows the type
        #: already calls it itself: one call fewer on the rules' hot path)
        self.readers: dict[str, Callable[[Mapping[str, Any]], M]] = {}
        for cls in classes:
            if not cls.TYPE or cls.TYPE in self.by_type:
                raise ValueError(f"{cls.__name__}: TYPE {cls.TYPE!r} is empty or taken")
            self.by_type[cls.TYPE] = cls
            self.readers[cls.TYPE] = _codec(cls).read

    def read(self, move: Mapping[str, Any]) -> M:
        """The typed value of ``move``, a JSON object that matches its schema
        already (``RulesetBase.check_move``): its class by ``type``, every
        key a field, arrays as tuples. A ``KeyError`` or ``TypeError`` here
        is a schema that does not say what the class says: a bug, not bad input."""
        return self.readers[move["type"]](move)

    def types(self) -> list[str]:
        return sorted(self.by_type)
