"""Typed records to JSON and back, by their type hints: the one place that knows the keys.

A record is a dataclass whose fields are JSON-able types: str, int, float, bool, None, lists, tuples,
``dict[str, X]``, ``Literal``, other records, ``JSON`` (any JSON value) and ``Tagged`` unions (a
base class whose subclasses carry a ``kind`` tag). Non-finite floats travel as "inf", "-inf", "nan".
"""

from __future__ import annotations

import dataclasses
import math
import types
from collections.abc import Callable
from enum import Enum
from functools import cache
from typing import Any, ClassVar, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

JSON = Any
"""A JSON value: number, string, bool, null, list or object of JSON values."""

NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}

R = TypeVar("R")


class DecodeError(ValueError):
    """A value that does not fit its record's type; ``path`` says where (claims[3].evidence[2].max_error)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path, self.problem = path, problem


class Tagged:
    """Base of a family of records told apart by their ``kind`` (each subclass sets it)."""

    kind: ClassVar[str] = ""
    _family: ClassVar[dict[str, type[Tagged]]]

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        if Tagged in cls.__bases__:
            cls._family = {}
        if cls.kind:
            cls._family[cls.kind] = cls

    @classmethod
    def members(cls) -> dict[str, type[Tagged]]:
        """Every record kind of the family, by tag (those whose modules are imported)."""
        return dict(cls._family)

    @classmethod
    def forget(cls) -> None:
        """Take this record kind out of its family (a kind registered for a while only)."""
        cls._family.pop(cls.kind, None)


def to_json(value: Any) -> JSON:
    """A record (or any value of a record's field) as JSON; tagged records carry their kind first."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        tag = {"kind": value.kind} if isinstance(value, Tagged) else {}
        return tag | {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, float):
        return value if math.isfinite(value) else next(k for k, v in NON_FINITE.items() if _same(v, value))
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if value is None or isinstance(value, str | int | bool):
        return value
    return to_json(plain(value))


def plain(value: Any) -> JSON:
    """A measured value as plain Python data: NumPy scalars and arrays as numbers and lists, other
    objects as text (non-finite floats stay floats until ``to_json``)."""
    if hasattr(value, "tolist") and callable(value.tolist):
        return plain(value.tolist())
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def from_json(record_type: type[R], data: JSON, path: str = "$") -> R:
    """The record of ``record_type`` that ``data`` (parsed JSON) holds; DecodeError names what does not fit."""
    return _decoder(record_type)(data, path)


@cache
def _decoder(hint: Any) -> Callable[[JSON, str], Any]:
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return lambda data, path: data
    if origin in (Union, types.UnionType):
        return _union([_decoder(a) for a in args], hint)
    if origin is Literal:
        return _literal(args)
    if origin is list:
        item = _decoder(args[0])
        return lambda data, path: [item(v, f"{path}[{n}]") for n, v in enumerate(_expect(data, list, path))]
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])
        return lambda data, path: tuple(item(v, f"{path}[{n}]") for n, v in enumerate(_expect(data, list, path)))
    if origin is tuple:
        return _fixed_tuple([_decoder(a) for a in args])
    if origin is dict:
        value = _decoder(args[1])
        return lambda data, path: {k: value(v, f"{path}.{k}") for k, v in _expect(data, dict, path).items()}
    if isinstance(hint, type) and issubclass(hint, Tagged) and not hint.kind:
        return _tagged(hint)
    if dataclasses.is_dataclass(hint):
        return _record(hint)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return lambda data, path: _enum(hint, data, path)
    return _scalar(hint)


def has_default(field: dataclasses.Field) -> bool:
    """A field a results file may leave out (added to the format later, with the value older files meant)."""
    return field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING


def _record(record_type: type) -> Callable[[JSON, str], Any]:
    hints = get_type_hints(record_type)
    fields = [(f.name, _decoder(hints[f.name])) for f in dataclasses.fields(record_type) if f.init]
    optional = {f.name for f in dataclasses.fields(record_type) if f.init and has_default(f)}

    def decode(data: JSON, path: str) -> Any:
        found = _expect(data, dict, path)
        missing = [name for name, _ in fields if name not in found and name not in optional]
        if missing:
            raise DecodeError(path, f"lacks {', '.join(map(repr, missing))}")
        values = {name: decode_field(found[name], f"{path}.{name}") for name, decode_field in fields if name in found}
        try:
            return record_type(**values)
        except (ValueError, TypeError) as error:  # the record's own validation (e.g. a citation's https URL)
            raise DecodeError(path, str(error)) from None

    return decode


def _tagged(base: type[Tagged]) -> Callable[[JSON, str], Any]:
    def decode(data: JSON, path: str) -> Any:
        kind = _expect(data, dict, path).get("kind")
        members = base.members()
        if kind not in members:
            raise DecodeError(path, f"kind {kind!r} is not one of {sorted(members)}")
        return _decoder(members[kind])({k: v for k, v in data.items() if k != "kind"}, path)

    return decode


def _union(options: list[Callable[[JSON, str], Any]], hint: Any) -> Callable[[JSON, str], Any]:
    def decode(data: JSON, path: str) -> Any:
        for option in options:
            try:
                return option(data, path)
            except DecodeError:
                continue
        raise DecodeError(path, f"{_shown(data)} is not a {_name(hint)}")

    return decode


def _fixed_tuple(items: list[Callable[[JSON, str], Any]]) -> Callable[[JSON, str], Any]:
    def decode(data: JSON, path: str) -> tuple[Any, ...]:
        found = _expect(data, list, path)
        if len(found) != len(items):
            raise DecodeError(path, f"holds {len(found)} values, not {len(items)}")
        return tuple(item(v, f"{path}[{n}]") for n, (item, v) in enumerate(zip(items, found, strict=True)))

    return decode


def _literal(values: tuple[Any, ...]) -> Callable[[JSON, str], Any]:
    def decode(data: JSON, path: str) -> Any:
        if data not in values:
            raise DecodeError(path, f"{_shown(data)} is not one of {list(values)}")
        return data

    return decode


def _scalar(hint: Any) -> Callable[[JSON, str], Any]:
    if hint is type(None):
        return lambda data, path: _expect(data, type(None), path)
    if hint is float:
        return _real
    if hint is int:
        return lambda data, path: _expect(data, int, path, reject=bool)
    if hint in (str, bool):
        return lambda data, path: _expect(data, hint, path)
    raise TypeError(f"no JSON form for {hint!r}")


def _real(data: JSON, path: str) -> float:
    if isinstance(data, str) and data in NON_FINITE:
        return NON_FINITE[data]
    return float(_expect(data, int | float, path, reject=bool))


def _enum(enum: type[Enum], data: JSON, path: str) -> Enum:
    try:
        return enum(data)
    except ValueError:
        raise DecodeError(path, f"{_shown(data)} is not one of {[e.value for e in enum]}") from None


def _expect(data: JSON, expected: Any, path: str, reject: type | None = None) -> Any:
    if not isinstance(data, expected) or (reject is not None and isinstance(data, reject)):
        raise DecodeError(path, f"{_shown(data)} is not a {_name(expected)}")
    return data


def _name(hint: Any) -> str:
    names = {dict: "object", list: "list", str: "string", int: "integer", bool: "boolean", type(None): "null"}
    if hint is float or hint == int | float:
        return "number"
    if get_origin(hint) in (Union, types.UnionType):
        return " or ".join(_name(a) for a in get_args(hint))
    return names.get(hint, getattr(hint, "__name__", str(hint)))


def _shown(data: JSON) -> str:
    text = repr(data)
    return text if len(text) <= 60 else text[:57] + "..."


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


__all__ = ["JSON", "DecodeError", "Tagged", "from_json", "plain", "to_json"]
