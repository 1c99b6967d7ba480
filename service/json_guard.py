"""A guard for JSON from outside: request bodies, and the answers of webhook bots.

Python's ``json`` module turns some bodies into a crash rather than an error:
nesting thousands of levels deep raises ``RecursionError``, an integer of
thousands of digits raises ``ValueError`` (the int string-conversion limit),
and a lone surrogate escape (``"\\udfff"``) parses into a string that cannot
be encoded again. The guard reads each JSON body once, before the views do,
and answers such a body with a 400 in the API's error shape:

* ``malformed_json``: not JSON; nested deeper than :data:`MAX_DEPTH`; an integer
  outside 64 bits; ``NaN`` or an infinite number; a lone surrogate;
* ``invalid_body``: a control character (C0, DEL or C1) in any string or key,
  or a string or key longer than :data:`MAX_STRING_CHARS` characters.

Each message names the field, e.g. ``seats[0].name``. A body that passes the
guard parses with the standard library without error and holds only text that
encodes as UTF-8. The API runs it before any view parses a body (``api.json_guard``),
and the webhook worker runs it on every bot's answer.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from service.games import ServiceError

MAX_DEPTH = 64
"""How deeply arrays and objects may nest in a request body."""
MAX_STRING_CHARS = 2048
"""The longest string (or object key) any request body may hold; fields have tighter limits of their own."""
MAX_INT = 2**63 - 1
"""Integers in a request body lie within a signed 64-bit range."""

_STRING_LITERAL = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_MAX_INT_DIGITS = len(str(MAX_INT))


class MalformedJSON(ServiceError):
    """A body that is not JSON, or JSON that this API does not read (too deep, numbers out of range)."""

    code = "malformed_json"


class InvalidBody(ServiceError):
    """A JSON body with a value no field of this API accepts."""

    code = "invalid_body"


class _OutOfRange:
    """An integer or constant the parser met and the walk reports with its field."""

    def __init__(self, text: str) -> None:
        self.text = text


def loads(raw: bytes | str) -> Any:
    """Parse a request body, or raise :class:`MalformedJSON` or :class:`InvalidBody` naming the problem."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise MalformedJSON(f"The request body is not UTF-8 text (byte {error.start}).") from None
    else:
        text = raw
    if nesting_depth(text) > MAX_DEPTH:
        raise MalformedJSON(f"The request body nests deeper than {MAX_DEPTH} levels.", max_depth=MAX_DEPTH)
    try:
        value = json.loads(text, parse_int=_parse_int, parse_constant=_OutOfRange)
    except json.JSONDecodeError as error:
        raise MalformedJSON(f"The request body is not valid JSON: {error.msg} at character {error.pos}.") from None
    _check(value, [])
    return value


def nesting_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest, by one linear scan (brackets inside strings
    do not count). Malformed text gets a number too; the parser rejects it afterwards."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRING_LITERAL.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _parse_int(text: str) -> int | _OutOfRange:
    digits = text.lstrip("-")
    if len(digits) > _MAX_INT_DIGITS:
        return _OutOfRange(text)
    value = int(text)
    return value if -MAX_INT - 1 <= value <= MAX_INT else _OutOfRange(text)


def _check(value: Any, path: list[str | int]) -> None:
    """Walk a parsed body (at most :data:`MAX_DEPTH` deep) and reject what no field accepts."""
    if isinstance(value, str):
        _check_text(value, path)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, [*path, key], key=True)
            _check(item, [*path, key])
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check(item, [*path, index])
    elif isinstance(value, _OutOfRange):
        if value.text in ("NaN", "Infinity", "-Infinity"):
            raise MalformedJSON(f"{field_name(path)} is {value.text}, which is not JSON.", field=field_name(path))
        shown = value.text if len(value.text) <= 24 else f"an integer of {len(value.text.lstrip('-'))} digits"
        raise MalformedJSON(
            f"{field_name(path)} is {shown}; integers in a request body lie from {-MAX_INT - 1} to {MAX_INT}.",
            field=field_name(path),
        )
    elif isinstance(value, float) and not math.isfinite(value):
        raise MalformedJSON(f"{field_name(path)} is a number too large to represent.", field=field_name(path))


def _check_text(text: str, path: list[str | int], *, key: bool = False) -> None:
    what = f"the key {field_name(path)}" if key else field_name(path)
    if len(text) > MAX_STRING_CHARS:
        raise InvalidBody(
            f"{what} is {len(text)} characters long; the longest text this API takes is {MAX_STRING_CHARS}.",
            field=field_name(path),
        )
    found = _FORBIDDEN.search(text)
    if found is None:
        return
    char = found.group()
    if "\ud800" <= char <= "\udfff":
        raise MalformedJSON(
            f"{what} holds a lone surrogate U+{ord(char):04X}, which is not a Unicode character.",
            field=field_name(path),
        )
    raise InvalidBody(f"{what} contains a control character U+{ord(char):04X}.", field=field_name(path))


def field_name(path: list[str | int]) -> str:
    """``seats[0].name`` for the path ``["seats", 0, "name"]``; ``the body`` for the root."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            shown = part if _FORBIDDEN.search(part) is None and len(part) <= 64 else repr(part[:64])[1:-1]
            out += f".{shown}" if out else shown
    return out or "the body"
