"""Moves: a small JSON object each, with a canonical one-line text form.

A square has one form in both: its name, the column letter ``a``-``l`` and the row number
``1``-``12`` (``a1`` top left, ``l12`` bottom right), e.g. ``"e4"``. A row or column (``clear``)
is named the same way: ``"5"`` or ``"e"``.

>>> m = parse_move("place 57 e4 90 flip")
>>> m.to_json()
{'action': 'place', 'tile': 57, 'anchor': 'e4', 'rotation': 90, 'flip': True}
>>> str(parse_move(m.to_json()))
'place 57 e4 90 flip'
>>> try:
...     parse_move({"action": "deploy", "square": [3, 4]})
... except InvalidMoveError as error:
...     print(error)
[3, 4] is not a square; name it like "e4": column a-l, then row 1-12 (a1 is the top left)
"""

from __future__ import annotations

import dataclasses
import enum
import re
from typing import Any

from domain.contract import InvalidMoveError

from .board import COLUMNS, ROTATIONS, parse_square, square_name
from .data import SIZE, TRACKS, Terrain


class Action(enum.StrEnum):
    """The verbs of the move language."""

    ROTATE = "rotate"
    PLACE = "place"
    TAKE = "take"
    ADVANCE = "advance"
    CHOOSE = "choose"
    DEPLOY = "deploy"
    ROVER = "rover"
    PATCH = "patch"
    STORE = "store"
    CIV = "civ"
    COLLECT = "collect"
    DESTROY = "destroy"
    CLEAR = "clear"
    TELEPORT = "teleport"
    CONFIRM = "confirm"
    REGRESS = "regress"
    PICK = "pick"
    METEORITE = "meteorite"
    REJECT = "reject"
    EMPTY = "empty"
    SETUP = "setup"
    POWER = "power"
    LIFEPOD = "lifepod"
    KEEP = "keep"


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """One action of one seat. Only the fields its action uses are set.

    Text forms: ``rotate 3``, ``place 57 e4 90 [flip]``, ``take 57``, ``advance civ``,
    ``choose 2 water`` (pending benefit 2), ``deploy e4``, ``rover 0 e5``, ``patch e4``,
    ``store``, ``civ 12``, ``collect e4``, ``destroy e4``, ``clear 5`` (row 5) or
    ``clear e`` (column e), ``teleport 0 e5``, ``confirm``; for events and objectives:
    ``regress civ``, ``pick 2 1`` (alternative 1 of pending benefit 2), ``meteorite e4``,
    ``reject 41`` (an objective card), ``empty 3`` (station stack 3); before round 1
    ``setup arashi universal-coalition`` (the setup choice, by slugs; Flux Industries adds its
    flux track: ``setup arashi flux-industries water``); ``power 5`` uses a tech
    power that is an action (once per round); Cosmos Inc.: ``lifepod area tech7`` /
    ``lifepod civ5 area`` puts a collected lifepod on a track space or moves it; Makeshift:
    ``advance civ water`` (the civ tracker diagonally onto the water track), ``advance civ water
    side`` (sideways, tech 3), also after ``choose <i> <track>``; Jump Drive:
    ``lifepod area slot2`` (tech B), ``keep 41`` (the objective card tech F keeps).
    """

    action: Action
    tile: int | None = None
    square: int | None = None
    rotation: int = 0
    flip: bool = False
    track: Terrain | None = None
    index: int | None = None
    rover: int | None = None
    card: int | None = None
    line: int | None = None
    option: int | None = None
    stack: int | None = None
    planet: str | None = None
    origin: str | None = None
    lane: Terrain | None = None
    side: bool = False
    target: str | None = None
    corporation: str | None = None
    level: int | None = None

    def __str__(self) -> str:
        a = self.action
        sq = square_name(self.square) if self.square is not None else ""
        if a is Action.ROTATE:
            return f"rotate {self.rotation}"
        if a is Action.PLACE:
            return f"place {self.tile} {sq} {self.rotation}" + (" flip" if self.flip else "")
        if a is Action.TAKE:
            return f"take {self.tile}"
        if a in (Action.ADVANCE, Action.REGRESS):
            return f"{a} {self.track}{self._route()}"
        if a is Action.CHOOSE:
            return f"choose {self.index} {self.track}{self._route()}"
        if a in (Action.DEPLOY, Action.PATCH, Action.COLLECT, Action.DESTROY, Action.METEORITE):
            return f"{a} {sq}"
        if a is Action.PICK:
            return f"pick {self.index} {self.option}"
        if a is Action.REJECT:
            return f"reject {self.card}"
        if a is Action.KEEP:
            return f"keep {self.card}"
        if a is Action.EMPTY:
            return f"empty {self.stack}"
        if a is Action.SETUP:
            flux = f" {self.track}" if self.track is not None else ""
            return f"setup {self.planet} {self.corporation}{flux}"
        if a is Action.POWER:
            return f"power {self.level}"
        if a is Action.LIFEPOD:
            return f"lifepod {self.origin} {self.target}"
        if a in (Action.ROVER, Action.TELEPORT):
            return f"{a} {self.rover} {sq}"
        if a is Action.CIV:
            return f"civ {self.card}"
        if a is Action.CLEAR:
            assert self.line is not None
            return f"clear {line_name(self.line)}"
        return a.value

    def _route(self) -> str:
        """Makeshift: the lane a tracker moves onto (`` water``), and `` side`` for a sideways shift."""
        if self.lane is None:
            return ""
        return f" {self.lane}" + (" side" if self.side else "")

    def to_json(self) -> dict[str, Any]:
        """The move in the JSON form :meth:`PlanetUnknown.decide` takes."""
        a = self.action
        out: dict[str, Any] = {"action": a.value}
        if a is Action.ROTATE:
            out["rotation"] = self.rotation
        elif a is Action.PLACE:
            assert self.square is not None
            out.update(tile=self.tile, anchor=square_name(self.square), rotation=self.rotation, flip=self.flip)
        elif a is Action.TAKE:
            out["tile"] = self.tile
        elif a in (Action.ADVANCE, Action.REGRESS):
            out["track"] = str(self.track)
            if self.lane is not None:
                out.update(lane=str(self.lane), side=self.side)
        elif a is Action.PICK:
            out.update(benefit=self.index, option=self.option)
        elif a in (Action.REJECT, Action.KEEP):
            out["card"] = self.card
        elif a is Action.EMPTY:
            out["stack"] = self.stack
        elif a is Action.SETUP:
            out.update(planet=self.planet, corporation=self.corporation)
            if self.track is not None:
                out["flux"] = str(self.track)
        elif a is Action.POWER:
            out["level"] = self.level
        elif a is Action.LIFEPOD:
            out.update({"from": self.origin, "to": self.target})
        elif a is Action.CHOOSE:
            out.update(benefit=self.index, track=str(self.track))
            if self.lane is not None:
                out.update(lane=str(self.lane), side=self.side)
        elif a in (Action.DEPLOY, Action.PATCH, Action.COLLECT, Action.DESTROY, Action.METEORITE):
            assert self.square is not None
            out["square"] = square_name(self.square)
        elif a in (Action.ROVER, Action.TELEPORT):
            assert self.square is not None
            out.update(rover=self.rover, square=square_name(self.square))
        elif a is Action.CIV:
            out["card"] = self.card
        elif a is Action.CLEAR:
            assert self.line is not None
            out["line"] = line_name(self.line)
        return out


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


def parse_move(move: Any, *, legacy: bool = False) -> Move:
    """Read a move from its JSON object or its text form; raises InvalidMoveError.

    ``legacy`` reads the move as rules ``planet-unknown-3`` did, which also took ``[row, column]``
    squares, names in any case and row numbers as JSON numbers (for games stored under those rules).
    """
    if isinstance(move, str):
        return _parse_text(move, legacy)
    if not isinstance(move, dict):
        raise InvalidMoveError("a move is a JSON object or a line of text")
    try:
        action = Action(str(move.get("action")))
    except ValueError:
        raise InvalidMoveError(f"unknown action {move.get('action')!r}") from None
    try:
        return _from_fields(action, move, legacy)
    except KeyError as e:
        raise InvalidMoveError(f"{action} needs the field {e.args[0]!r}") from None


def _from_fields(a: Action, m: dict[str, Any], legacy: bool) -> Move:
    square = _legacy_square if legacy else _square
    if a is Action.ROTATE:
        rotation = _int(m["rotation"], "rotation")
        if not 0 <= rotation < 6:
            raise InvalidMoveError("the station has 6 orientations, 0 to 5")
        return Move(a, rotation=rotation)
    if a is Action.PLACE:
        flip = m.get("flip", False)
        if not isinstance(flip, bool):
            raise InvalidMoveError("flip must be true or false")
        return Move(
            a, tile=_int(m["tile"], "tile"), square=square(m["anchor"]), rotation=_rotation(m["rotation"]), flip=flip
        )
    if a is Action.TAKE:
        return Move(a, tile=_int(m["tile"], "tile"))
    lane = _track(m["lane"]) if m.get("lane") else None
    side = m.get("side", False) in (True, "side")
    if a in (Action.ADVANCE, Action.REGRESS):
        return Move(a, track=_track(m["track"]), lane=lane, side=side and lane is not None)
    if a is Action.PICK:
        return Move(a, index=_int(m["benefit"], "benefit"), option=_int(m["option"], "option"))
    if a in (Action.REJECT, Action.KEEP):
        return Move(a, card=_int(m["card"], "card"))
    if a is Action.EMPTY:
        stack = _int(m["stack"], "stack")
        if not 0 <= stack < 12:
            raise InvalidMoveError("the station has 12 stacks, 0 to 11")
        return Move(a, stack=stack)
    if a is Action.CHOOSE:
        track = _track(m["track"])
        return Move(a, index=_int(m["benefit"], "benefit"), track=track, lane=lane, side=side and lane is not None)
    if a is Action.SETUP:
        flux = _track(m["flux"]) if m.get("flux") else None
        return Move(a, planet=str(m["planet"]).lower(), corporation=str(m["corporation"]).lower(), track=flux)
    if a is Action.POWER:
        return Move(a, level=_int(m["level"], "level"))
    if a is Action.LIFEPOD:
        return Move(a, origin=_spot(m["from"]), target=_spot(m["to"]))
    if a in (Action.DEPLOY, Action.PATCH, Action.COLLECT, Action.DESTROY, Action.METEORITE):
        return Move(a, square=square(m["square"]))
    if a in (Action.ROVER, Action.TELEPORT):
        return Move(a, rover=_int(m["rover"], "rover"), square=square(m["square"]))
    if a is Action.CIV:
        return Move(a, card=_int(m["card"], "card"))
    if a is Action.CLEAR:
        line = m["line"]
        if not legacy and not (isinstance(line, str) and _LINE_NAME.match(line)):
            raise InvalidMoveError(f"{line!r} is not a row or column; {LINE_FORM}")
        try:
            return Move(a, line=parse_line(str(line)))
        except ValueError as e:
            raise InvalidMoveError(str(e)) from None
    return Move(a)


_TEXT_FIELDS: dict[Action, tuple[str, ...]] = {
    Action.ROTATE: ("rotation",),
    Action.PLACE: ("tile", "anchor", "rotation"),
    Action.TAKE: ("tile",),
    Action.ADVANCE: ("track",),
    Action.CHOOSE: ("benefit", "track"),
    Action.DEPLOY: ("square",),
    Action.PATCH: ("square",),
    Action.COLLECT: ("square",),
    Action.DESTROY: ("square",),
    Action.ROVER: ("rover", "square"),
    Action.TELEPORT: ("rover", "square"),
    Action.CIV: ("card",),
    Action.CLEAR: ("line",),
    Action.STORE: (),
    Action.CONFIRM: (),
    Action.REGRESS: ("track",),
    Action.PICK: ("benefit", "option"),
    Action.METEORITE: ("square",),
    Action.REJECT: ("card",),
    Action.EMPTY: ("stack",),
    Action.SETUP: ("planet", "corporation"),
    Action.POWER: ("level",),
    Action.LIFEPOD: ("from", "to"),
    Action.KEEP: ("card",),
}


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


def _parse_text(text: str, legacy: bool) -> Move:
    words = text.split()
    if not words:
        raise InvalidMoveError("empty move")
    try:
        action = Action(words[0].lower())
    except ValueError:
        raise InvalidMoveError(f"unknown action {words[0]!r}") from None
    names = _TEXT_FIELDS[action]
    args = words[1:]
    fields: dict[str, Any] = {"action": action.value}
    if action is Action.PLACE and len(args) == 4:
        if args[3].lower() != "flip":
            raise InvalidMoveError(f"expected 'flip' at the end, not {args[3]!r}")
        fields["flip"] = True
        args = args[:3]
    if action in (Action.ADVANCE, Action.CHOOSE) and len(args) > len(names):
        extra = args[len(names) :]
        fields["lane"] = extra[0]
        if len(extra) > 1:
            if extra[1].lower() != "side" or len(extra) > 2:
                raise InvalidMoveError(f"expected 'side' after the lane, not {' '.join(extra[1:])!r}")
            fields["side"] = "side"
        args = args[: len(names)]
    if action is Action.SETUP and len(args) == 3:
        fields["flux"] = args[2]
        args = args[:2]
    if len(args) != len(names):
        raise InvalidMoveError(f"{action} takes {len(names)} argument(s): {' '.join(names) or 'none'}")
    fields.update(zip(names, args, strict=True))
    return _from_fields(action, fields, legacy)
