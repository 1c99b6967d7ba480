"""A JSON codec for trees of frozen dataclasses, driven by their field type hints.

A value is encoded against a type hint, and decoded against the same hint to an equal value:

* ``None``, ``bool``, ``int``, ``str`` as themselves (floats are refused);
* an enum as its value; a dataclass as an object of its fields; a ``NamedTuple`` as a list;
* ``tuple[X, ...]``, ``tuple[X, Y]`` and ``list[X]`` as lists; ``frozenset[X]`` as a sorted list;
* ``dict[str, V]`` as an object, any other ``dict[K, V]`` as a sorted list of ``[key, value]`` pairs;
* ``X | None`` as null or ``X``; a union of several types as ``[branch, value]``;
* ``Any`` as plain JSON (dicts with string keys, lists, strings, ints, bools and null), checked.

:func:`dumps` gives canonical bytes (sorted keys, no spaces): equal values give the same bytes.
:func:`schema_hash` hashes the recursive field names and types (and enum members) of a hint,
so a value stored under one schema is never read back under another.
Nothing here imports or calls anything that the hint does not name: decoding is data only.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import types
import typing
from collections.abc import Callable
from typing import Any

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any], Any]


class CodecError(ValueError):
    """A value that does not fit its type hint, or a hint the codec cannot handle."""


@dataclasses.dataclass(slots=True)
class _Plan:
    encode: Encoder
    decode: Decoder


_plans: dict[Any, _Plan] = {}


def encode(value: Any, hint: Any) -> Any:
    """``value`` as JSON-compatible data, according to ``hint``; raises :class:`CodecError`."""
    return _plan(hint).encode(value)


def decode(data: Any, hint: Any) -> Any:
    """The value that :func:`encode` turned into ``data``; raises :class:`CodecError` on data of another shape."""
    try:
        return _plan(hint).decode(data)
    except CodecError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as error:
        raise CodecError(f"cannot decode {_name(hint)}: {error}") from None


def dumps(value: Any, hint: Any) -> bytes:
    """Canonical JSON bytes of ``value``: the same value always gives the same bytes."""
    data = encode(value, hint)
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def loads(raw: bytes | str, hint: Any) -> Any:
    """The value :func:`dumps` wrote; raises :class:`CodecError` for anything else."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise CodecError(f"not JSON: {error}") from None
    return decode(data, hint)


def describe(hint: Any) -> str:
    """The schema of ``hint`` as text: recursive field names and types, and enum members."""
    return _describe(hint, ())


@functools.cache
def schema_hash(hint: Any) -> str:
    """sha256 (hex) of :func:`describe`: it changes when any field, type or enum member in the tree changes."""
    return hashlib.sha256(describe(hint).encode()).hexdigest()


# --- plans ---------------------------------------------------------------------------


def _plan(hint: Any) -> _Plan:
    found = _plans.get(hint)
    if found is None:
        found = _build(hint)
    return found


def _build(hint: Any) -> _Plan:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        plan = _Plan(_check_json, _check_json)
    elif hint is None or hint is type(None):
        plan = _Plan(_exact(type(None)), _exact(type(None)))
    elif hint in (bool, int, str):
        plan = _Plan(_exact(hint), _exact(hint))
    elif origin in (typing.Union, types.UnionType):
        plan = _union(args)
    elif origin is tuple:
        plan = _tuple(args)
    elif origin in (frozenset, list):
        plan = _collection(origin, args)
    elif origin is dict:
        plan = _dict(args)
    elif isinstance(hint, type) and issubclass(hint, enum.Enum):
        plan = _enum(hint)
    elif isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint)
    elif isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields"):
        return _named_tuple(hint)
    else:
        raise CodecError(f"the codec does not handle the type {hint!r}")
    _plans[hint] = plan
    return plan


def _exact(kind: type) -> Encoder:
    def check(value: Any) -> Any:
        if type(value) is not kind:
            raise CodecError(f"expected {kind.__name__}, not {type(value).__name__}")
        return value

    return check


def _check_json(value: Any) -> Any:
    kind = type(value)
    if kind in (str, int, bool) or value is None:
        return value
    if kind is list:
        for item in value:
            _check_json(item)
        return value
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                raise CodecError(f"a JSON object's keys are strings, not {type(key).__name__}")
            _check_json(item)
        return value
    raise CodecError(f"a value typed Any must be plain JSON, not {kind.__name__}")


def _union(args: tuple[Any, ...]) -> _Plan:
    options = [a for a in args if a is not type(None)]
    nullable = len(options) < len(args)
    if len(options) == 1 and nullable:
        inner = _lazy(options[0])
        return _Plan(
            lambda v: None if v is None else inner().encode(v),
            lambda d: None if d is None else inner().decode(d),
        )
    branches = [_lazy(a) for a in args]
    checks = [_instance_check(a) for a in args]

    def encode_union(value: Any) -> Any:
        for i, check in enumerate(checks):
            if check(value):
                return [i, branches[i]().encode(value)]
        raise CodecError(f"{value!r} fits no branch of the union")

    def decode_union(data: Any) -> Any:
        index, inner = data
        if type(index) is not int or not 0 <= index < len(branches):
            raise CodecError(f"no union branch {index!r}")
        return branches[index]().decode(inner)

    return _Plan(encode_union, decode_union)


def _instance_check(hint: Any) -> Callable[[Any], bool]:
    if hint is Any:
        return lambda v: True
    if hint is None or hint is type(None):
        return lambda v: v is None
    kind = typing.get_origin(hint) or hint
    if kind is bool or kind is int:
        return lambda v: type(v) is kind
    return lambda v: isinstance(v, kind)


def _tuple(args: tuple[Any, ...]) -> _Plan:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _lazy(args[0])

        def encode_items(value: Any) -> Any:
            if type(value) is not tuple:
                raise CodecError(f"expected tuple, not {type(value).__name__}")
            plan = item()
            return [plan.encode(v) for v in value]

        def decode_items(data: Any) -> Any:
            if type(data) is not list:
                raise CodecError("expected a list")
            plan = item()
            return tuple([plan.decode(d) for d in data])

        return _Plan(encode_items, decode_items)
    if args == ((),):
        args = ()
    items = [_lazy(a) for a in args]

    def encode_fixed(value: Any) -> Any:
        if type(value) is not tuple or len(value) != len(items):
            raise CodecError(f"expected a tuple of {len(items)}")
        return [p().encode(v) for p, v in zip(items, value, strict=True)]

    def decode_fixed(data: Any) -> Any:
        if type(data) is not list or len(data) != len(items):
            raise CodecError(f"expected a list of {len(items)}")
        return tuple([p().decode(d) for p, d in zip(items, data, strict=True)])

    return _Plan(encode_fixed, decode_fixed)


def _collection(origin: Any, args: tuple[Any, ...]) -> _Plan:
    if len(args) != 1:
        raise CodecError(f"{origin.__name__} needs an item type")
    item = _lazy(args[0])
    if origin is list:

        def encode_list(value: Any) -> Any:
            if type(value) is not list:
                raise CodecError(f"expected list, not {type(value).__name__}")
            plan = item()
            return [plan.encode(v) for v in value]

        def decode_list(data: Any) -> Any:
            if type(data) is not list:
                raise CodecError("expected a list")
            plan = item()
            return [plan.decode(d) for d in data]

        return _Plan(encode_list, decode_list)

    def encode_set(value: Any) -> Any:
        if type(value) is not frozenset:
            raise CodecError(f"expected frozenset, not {type(value).__name__}")
        plan = item()
        return _sorted([plan.encode(v) for v in value])

    def decode_set(data: Any) -> Any:
        if type(data) is not list:
            raise CodecError("expected a list")
        plan = item()
        return frozenset([plan.decode(d) for d in data])

    return _Plan(encode_set, decode_set)


def _dict(args: tuple[Any, ...]) -> _Plan:
    if len(args) != 2:
        raise CodecError("dict needs a key and a value type")
    key, value = _lazy(args[0]), _lazy(args[1])
    if args[0] is str:

        def encode_object(mapping: Any) -> Any:
            if type(mapping) is not dict:
                raise CodecError(f"expected dict, not {type(mapping).__name__}")
            plan = value()
            out = {}
            for k, v in mapping.items():
                if type(k) is not str:
                    raise CodecError(f"expected string keys, not {type(k).__name__}")
                out[k] = plan.encode(v)
            return out

        def decode_object(data: Any) -> Any:
            if type(data) is not dict:
                raise CodecError("expected an object")
            plan = value()
            return {k: plan.decode(v) for k, v in data.items()}

        return _Plan(encode_object, decode_object)

    def encode_pairs(mapping: Any) -> Any:
        if type(mapping) is not dict:
            raise CodecError(f"expected dict, not {type(mapping).__name__}")
        return _sorted([[key().encode(k), value().encode(v)] for k, v in mapping.items()])

    def decode_pairs(data: Any) -> Any:
        if type(data) is not list:
            raise CodecError("expected a list of pairs")
        return {key().decode(k): value().decode(v) for k, v in data}

    return _Plan(encode_pairs, decode_pairs)


def _enum(cls: type[enum.Enum]) -> _Plan:
    def encode_member(value: Any) -> Any:
        if type(value) is not cls:
            raise CodecError(f"expected {cls.__name__}, not {type(value).__name__}")
        return value.value

    def decode_member(data: Any) -> Any:
        if type(data) not in (str, int):
            raise CodecError(f"{cls.__name__} members are strings or ints")
        return cls(data)

    return _Plan(encode_member, decode_member)


def _dataclass(cls: type) -> _Plan:
    fields = [f for f in dataclasses.fields(cls)]
    if any(not f.init for f in fields):
        raise CodecError(f"{cls.__name__} has fields that its constructor does not take")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in fields]
    name_set = frozenset(names)
    plans: list[Callable[[], _Plan]] = [_lazy(hints[n]) for n in names]
    resolved: list[_Plan] = []

    def ready() -> list[_Plan]:
        if not resolved:
            resolved.extend(p() for p in plans)
        return resolved

    def encode_instance(value: Any) -> Any:
        if type(value) is not cls:
            raise CodecError(f"expected {cls.__name__}, not {type(value).__name__}")
        return {n: p.encode(getattr(value, n)) for n, p in zip(names, ready(), strict=True)}

    def decode_instance(data: Any) -> Any:
        if type(data) is not dict or data.keys() != name_set:
            raise CodecError(f"the fields of {cls.__name__} differ")
        return cls(**{n: p.decode(data[n]) for n, p in zip(names, ready(), strict=True)})

    plan = _Plan(encode_instance, decode_instance)
    _plans[cls] = plan
    return plan


def _named_tuple(cls: type) -> _Plan:
    hints = typing.get_type_hints(cls)
    names: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    plans = [_lazy(hints[n]) for n in names]

    def encode_instance(value: Any) -> Any:
        if type(value) is not cls:
            raise CodecError(f"expected {cls.__name__}, not {type(value).__name__}")
        items = typing.cast(tuple[Any, ...], value)
        return [p().encode(v) for p, v in zip(plans, items, strict=True)]

    def decode_instance(data: Any) -> Any:
        if type(data) is not list or len(data) != len(plans):
            raise CodecError(f"expected a list of {len(plans)} for {cls.__name__}")
        return cls(*[p().decode(d) for p, d in zip(plans, data, strict=True)])

    plan = _Plan(encode_instance, decode_instance)
    _plans[cls] = plan
    return plan


def _lazy(hint: Any) -> Callable[[], _Plan]:
    """The plan of ``hint``, built on first use (so that a dataclass may contain itself)."""
    cell: list[_Plan] = []

    def get() -> _Plan:
        if not cell:
            cell.append(_plan(hint))
        return cell[0]

    return get


def _sorted(items: list[Any]) -> list[Any]:
    if all(type(i) is int for i in items) or all(type(i) is str for i in items):
        return sorted(items)
    return sorted(items, key=lambda i: json.dumps(i, sort_keys=True, separators=(",", ":")))


# --- schemas ---------------------------------------------------------------------------


def _name(hint: Any) -> str:
    if isinstance(hint, type):
        return f"{hint.__module__}.{hint.__qualname__}"
    return repr(hint)


def _describe(hint: Any, stack: tuple[Any, ...]) -> str:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return "Any"
    if hint is None or hint is type(None):
        return "None"
    if origin is not None:
        if origin is types.UnionType:
            origin = typing.Union
        inner = ",".join("..." if a is Ellipsis else _describe(a, stack) for a in args)
        return f"{getattr(origin, '__name__', repr(origin))}[{inner}]"
    if not isinstance(hint, type):
        raise CodecError(f"the codec does not handle the type {hint!r}")
    name = _name(hint)
    if hint in stack:
        return name
    if issubclass(hint, enum.Enum):
        return f"{name}<{','.join(repr(m.value) for m in hint)}>"
    if dataclasses.is_dataclass(hint) or (issubclass(hint, tuple) and hasattr(hint, "_fields")):
        hints = typing.get_type_hints(hint)
        names = [f.name for f in dataclasses.fields(hint)] if dataclasses.is_dataclass(hint) else hint._fields
        inner = ",".join(f"{n}:{_describe(hints[n], (*stack, hint))}" for n in names)
        return f"{name}{{{inner}}}"
    return name
