"""Reading the fields of a move: whole numbers, tracks, squares, rows and columns, lifepod spots,
each refused with a message that shows the documented form."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from domain.contract import InvalidMoveError

from .board import COLUMNS, ROTATIONS, parse_square
from .data import SIZE, TRACKS, Terrain


def line_name(line: int) -> str:
    """Rows 0-11 are named ``1``-``12``, columns 12-23 ``a``-``l``."""
    return str(line + 1) if line < SIZE else COLUMNS[line - SIZE]


def parse_line(text: str) -> int:
    """The row (0-11) or column (12-23) named ``text``."""
    text = text.strip().lower()
    if text.isdigit() and 1 <= int(text) <= SIZE:
        return int(text) - 1
    if len(text) == 1 and text in COLUMNS:
        return SIZE + COLUMNS.index(text)
    raise ValueError(f"{text!r} is neither a row (1-12) nor a column (a-l)")


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.lstrip("-").isdigit():
            return int(value)
        raise InvalidMoveError(f"{what} must be a whole number, not {value!r}")
    return value


def _track(value: Any) -> Terrain:
    try:
        terrain = Terrain(str(value).lower())
    except ValueError:
        raise InvalidMoveError(f"{value!r} is not a track (civ, water, biomass, rover, tech)") from None
    if terrain not in TRACKS:
        raise InvalidMoveError("energy has no track")
    return terrain


SQUARE_FORM = 'name it like "e4": column a-l, then row 1-12 (a1 is the top left)'
"""The documented square form, as error messages show it."""
_SQUARE_NAME = re.compile(r"^[a-l](?:[1-9]|1[0-2])$")
LINE_FORM = 'name a row by its number 1-12 or a column by its letter a-l, as a string: "5" or "e"'
"""The documented row and column form, as error messages show it."""
_LINE_NAME = re.compile(r"^(?:[a-l]|[1-9]|1[0-2])$")


def _square(value: Any) -> int:
    """The square a move names: only its name (``"e4"``) is accepted."""
    if isinstance(value, str) and _SQUARE_NAME.match(value):
        return parse_square(value)
    raise InvalidMoveError(f"{value!r} is not a square; {SQUARE_FORM}")


def _legacy_square(value: Any) -> int:
    """The square forms of rules ``planet-unknown-3``: a name in any case, or ``[row, column]`` from 0."""
    if isinstance(value, str):
        try:
            return parse_square(value)
        except ValueError as e:
            raise InvalidMoveError(str(e)) from None
    if isinstance(value, (list, tuple)) and len(value) == 2:
        r, c = _int(value[0], "row"), _int(value[1], "column")
        if 0 <= r < SIZE and 0 <= c < SIZE:
            return r * SIZE + c
    raise InvalidMoveError(f"{value!r} is not a square ([row, column] from 0 to 11, or a name like e4)")


def _rotation(value: Any) -> int:
    rotation = _int(value, "rotation")
    if rotation not in ROTATIONS:
        raise InvalidMoveError(f"rotation must be 0, 90, 180 or 270, not {rotation}")
    return rotation


_SPOT = re.compile(r"^(civ|water|biomass|rover|tech)(\d{1,2})$")
_SLOT = re.compile(r"^slot([1-6])$")


def _spot(value: object) -> str:
    """A lifepod spot: ``area`` (the scoring area), a track space like ``tech7`` (Cosmos Inc.) or a
    tech slot like ``slot2`` (Jump Drive)."""
    text = str(value).strip().lower()
    if text != "area" and not _SPOT.match(text) and not _SLOT.match(text):
        raise InvalidMoveError(
            f"a lifepod spot is 'area', a track and position like 'tech7' or a tech slot like 'slot2', not {value!r}"
        )
    return text


def parse_spot(spot: str) -> tuple[Terrain, int] | None:
    """The (track, position) of a lifepod spot, None for the scoring area."""
    found = _SPOT.match(spot)
    return (Terrain(found.group(1)), int(found.group(2))) if found else None


@dataclasses.dataclass(frozen=True, slots=True)
class Fields:
    """The fields of one move's JSON object, read by name (a missing one raises KeyError). ``legacy``
    reads squares and rows as rules ``planet-unknown-3`` did."""

    values: Mapping[str, Any]
    legacy: bool = False

    def number(self, name: str) -> int:
        """A whole number field."""
        return _int(self.values[name], name)

    def track(self, name: str) -> Terrain:
        """A track field."""
        return _track(self.values[name])

    def square(self, name: str) -> int:
        """A square field (by name; also ``[row, column]`` when ``legacy``)."""
        return (_legacy_square if self.legacy else _square)(self.values[name])

    def rotation(self) -> int:
        """The ``rotation`` of a tile: 0, 90, 180 or 270."""
        return _rotation(self.values["rotation"])

    def route(self) -> tuple[Terrain | None, bool]:
        """The Makeshift lane (None: straight up) and sideways flag of an advance."""
        lane = _track(self.values["lane"]) if self.values.get("lane") else None
        side = self.values.get("side", False) in (True, "side")
        return lane, side and lane is not None

    def line(self) -> int:
        """The ``line``: a row or column by name (also a row number when ``legacy``)."""
        line = self.values["line"]
        if not self.legacy and not (isinstance(line, str) and _LINE_NAME.match(line)):
            raise InvalidMoveError(f"{line!r} is not a row or column; {LINE_FORM}")
        try:
            return parse_line(str(line))
        except ValueError as e:
            raise InvalidMoveError(str(e)) from None

    def spot(self, name: str) -> str:
        """A lifepod spot field."""
        return _spot(self.values[name])
