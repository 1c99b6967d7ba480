"""The state as Python code: :func:`render` writes a value as the expression that builds it, and
:func:`read` builds the value back from that expression, safely (only literals, the enum members and
the dataclasses it is given are allowed; nothing is evaluated).

Dataclasses are written with the fields that differ from their defaults, enum members by name
(``Kind.ADVANCE``), frozensets sorted.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
from collections.abc import Mapping
from typing import Any


def render(value: Any) -> str:
    """The expression that builds ``value``."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return f"{type(value).__name__}({', '.join(_fields(value))})"
    if isinstance(value, tuple):
        items = [render(v) for v in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(value, frozenset):
        return f"frozenset({{{', '.join(render(v) for v in sorted(value))}}})" if value else "frozenset()"
    if isinstance(value, list):
        return f"[{', '.join(render(v) for v in value)}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{render(k)}: {render(v)}" for k, v in value.items()) + "}"
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    raise TypeError(f"cannot render {value!r}")


def _fields(value: Any) -> list[str]:
    out = []
    for field in dataclasses.fields(value):
        current = getattr(value, field.name)
        if field.default is not dataclasses.MISSING and current == field.default:
            continue
        if field.default_factory is not dataclasses.MISSING and current == field.default_factory():
            continue
        out.append(f"{field.name}={render(current)}")
    return out


def read(text: str, names: Mapping[str, Any]) -> Any:
    """The value ``text`` (written by :func:`render`) builds, with ``names`` the dataclasses and enums
    it may name; raises ValueError for anything else."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise ValueError(f"not an expression: {e.msg}") from None
    return _build(tree.body, names)


def _build(node: ast.expr, names: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        number = node.operand.value
        if isinstance(number, (int, float)) and not isinstance(number, bool):
            return -number
    if isinstance(node, ast.Tuple):
        return tuple(_build(e, names) for e in node.elts)
    if isinstance(node, ast.List):
        return [_build(e, names) for e in node.elts]
    if isinstance(node, ast.Set):
        return {_build(e, names) for e in node.elts}
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise ValueError("a dict without its keys")
        return {_build(k, names): _build(v, names) for k, v in zip(node.keys, node.values, strict=True) if k}
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        kind = names.get(node.value.id)
        if isinstance(kind, type) and issubclass(kind, enum.Enum) and node.attr in kind.__members__:
            return kind[node.attr]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "frozenset" and not node.keywords and len(node.args) <= 1:
            return frozenset(_build(node.args[0], names)) if node.args else frozenset()
        cls = names.get(node.func.id)
        if dataclasses.is_dataclass(cls) and isinstance(cls, type):
            args = [_build(a, names) for a in node.args]
            try:
                return cls(*args, **{k.arg: _build(k.value, names) for k in node.keywords if k.arg})
            except TypeError as e:
                raise ValueError(str(e)) from None
    raise ValueError(f"unexpected {ast.unparse(node)!r}")
