"""Moves: one frozen class per action, each a small JSON object with a canonical one-line text form.

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
from typing import Any, ClassVar, Self

from domain.contract import InvalidMoveError

from .board import square_name
from .data import Terrain
from .move_fields import LINE_FORM, SQUARE_FORM, Fields, line_name, parse_line, parse_spot

__all__ = [
    "LINE_FORM",
    "MOVES",
    "SQUARE_FORM",
    "Action",
    "Advance",
    "Choose",
    "Civ",
    "Clear",
    "Collect",
    "Confirm",
    "Deploy",
    "Destroy",
    "Empty",
    "Keep",
    "Lifepod",
    "Meteorite",
    "Move",
    "Patch",
    "Pick",
    "Place",
    "Power",
    "Regress",
    "Reject",
    "Rotate",
    "Rover",
    "Setup",
    "Store",
    "Take",
    "Teleport",
    "line_name",
    "parse_line",
    "parse_move",
    "parse_spot",
]


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
    """One action of one seat; each action is a subclass holding exactly the fields it uses.

    ``words`` are the JSON fields its text form gives in order after the verb.
    """

    action: ClassVar[Action]
    words: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        """The move in the JSON form :meth:`PlanetUnknown.decide` takes."""
        return {"action": self.action.value, **self._fields()}

    def _fields(self) -> dict[str, Any]:
        return {}

    def __str__(self) -> str:
        return self.action.value

    @classmethod
    def read(cls, fields: Fields) -> Self:
        """The move of this action from its JSON fields; raises InvalidMoveError or KeyError."""
        return cls()


@dataclasses.dataclass(frozen=True, slots=True)
class Rotate(Move):
    """``rotate 3``: the station to orientation 0-5."""

    action = Action.ROTATE
    words = ("rotation",)
    rotation: int

    def _fields(self) -> dict[str, Any]:
        return {"rotation": self.rotation}

    def __str__(self) -> str:
        return f"rotate {self.rotation}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        rotation = fields.number("rotation")
        if not 0 <= rotation < 6:
            raise InvalidMoveError("the station has 6 orientations, 0 to 5")
        return cls(rotation)


@dataclasses.dataclass(frozen=True, slots=True)
class Place(Move):
    """``place 57 e4 90 [flip]``: a depot tile, by its anchor square, rotation and flip."""

    action = Action.PLACE
    words = ("tile", "anchor", "rotation")
    tile: int
    square: int
    rotation: int = 0
    flip: bool = False

    def _fields(self) -> dict[str, Any]:
        return {"tile": self.tile, "anchor": square_name(self.square), "rotation": self.rotation, "flip": self.flip}

    def __str__(self) -> str:
        return f"place {self.tile} {square_name(self.square)} {self.rotation}" + (" flip" if self.flip else "")

    @classmethod
    def read(cls, fields: Fields) -> Self:
        flip = fields.values.get("flip", False)
        if not isinstance(flip, bool):
            raise InvalidMoveError("flip must be true or false")
        return cls(fields.number("tile"), fields.square("anchor"), fields.rotation(), flip)


@dataclasses.dataclass(frozen=True, slots=True)
class Take(Move):
    """``take 57``: a tile taken without placing it (none can be placed)."""

    action = Action.TAKE
    words = ("tile",)
    tile: int

    def _fields(self) -> dict[str, Any]:
        return {"tile": self.tile}

    def __str__(self) -> str:
        return f"take {self.tile}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(fields.number("tile"))


@dataclasses.dataclass(frozen=True, slots=True)
class _Tracked(Move):
    """A move of one tracker, with Makeshift's route: ``advance civ water [side]`` moves the civ
    tracker diagonally (or sideways, tech 3) onto the water track."""

    track: Terrain
    lane: Terrain | None = None
    side: bool = False

    def _fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"track": str(self.track)}
        if self.lane is not None:
            out.update(lane=str(self.lane), side=self.side)
        return out

    def _route(self) -> str:
        if self.lane is None:
            return ""
        return f" {self.lane}" + (" side" if self.side else "")

    def __str__(self) -> str:
        return f"{self.action} {self.track}{self._route()}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        lane, side = fields.route()
        return cls(fields.track("track"), lane, side)


@dataclasses.dataclass(frozen=True, slots=True)
class Advance(_Tracked):
    """``advance civ [<lane> [side]]``: a pending ``advance``."""

    action = Action.ADVANCE
    words = ("track",)


@dataclasses.dataclass(frozen=True, slots=True)
class Regress(_Tracked):
    """``regress civ``: a pending ``regress`` (a route, if given, is kept but has no effect)."""

    action = Action.REGRESS
    words = ("track",)


@dataclasses.dataclass(frozen=True, slots=True)
class Choose(Move):
    """``choose 2 water [<lane> [side]]``: a track for pending benefit 2."""

    action = Action.CHOOSE
    words = ("benefit", "track")
    index: int
    track: Terrain
    lane: Terrain | None = None
    side: bool = False

    def _fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"benefit": self.index, "track": str(self.track)}
        if self.lane is not None:
            out.update(lane=str(self.lane), side=self.side)
        return out

    def __str__(self) -> str:
        route = "" if self.lane is None else f" {self.lane}" + (" side" if self.side else "")
        return f"choose {self.index} {self.track}{route}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        lane, side = fields.route()
        track = fields.track("track")
        return cls(fields.number("benefit"), track, lane, side)


@dataclasses.dataclass(frozen=True, slots=True)
class _OnSquare(Move):
    """A move that names one square."""

    words = ("square",)
    square: int

    def _fields(self) -> dict[str, Any]:
        return {"square": square_name(self.square)}

    def __str__(self) -> str:
        return f"{self.action} {square_name(self.square)}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(fields.square("square"))


@dataclasses.dataclass(frozen=True, slots=True)
class Deploy(_OnSquare):
    """``deploy e4``: a garage rover onto the last tile."""

    action = Action.DEPLOY


@dataclasses.dataclass(frozen=True, slots=True)
class Patch(_OnSquare):
    """``patch e4``: a biomass patch."""

    action = Action.PATCH


@dataclasses.dataclass(frozen=True, slots=True)
class Collect(_OnSquare):
    """``collect e4``: the lifepod (or meteorite) there."""

    action = Action.COLLECT


@dataclasses.dataclass(frozen=True, slots=True)
class Destroy(_OnSquare):
    """``destroy e4``: the meteorite (or lifepod, or rover) there."""

    action = Action.DESTROY


@dataclasses.dataclass(frozen=True, slots=True)
class Meteorite(_OnSquare):
    """``meteorite e4``: a meteorite onto an empty meteor symbol."""

    action = Action.METEORITE


@dataclasses.dataclass(frozen=True, slots=True)
class _RoverTo(Move):
    """A move of one rover to one square."""

    words = ("rover", "square")
    rover: int
    square: int

    def _fields(self) -> dict[str, Any]:
        return {"rover": self.rover, "square": square_name(self.square)}

    def __str__(self) -> str:
        return f"{self.action} {self.rover} {square_name(self.square)}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(fields.number("rover"), fields.square("square"))


@dataclasses.dataclass(frozen=True, slots=True)
class Rover(_RoverTo):
    """``rover 0 e5``: one step of rover movement."""

    action = Action.ROVER


@dataclasses.dataclass(frozen=True, slots=True)
class Teleport(_RoverTo):
    """``teleport 0 e5``: a pending ``teleport``."""

    action = Action.TELEPORT


@dataclasses.dataclass(frozen=True, slots=True)
class _Card(Move):
    """A move that names one card."""

    words = ("card",)
    card: int

    def _fields(self) -> dict[str, Any]:
        return {"card": self.card}

    def __str__(self) -> str:
        return f"{self.action} {self.card}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(fields.number("card"))


@dataclasses.dataclass(frozen=True, slots=True)
class Civ(_Card):
    """``civ 12``: a civ card."""

    action = Action.CIV


@dataclasses.dataclass(frozen=True, slots=True)
class Reject(_Card):
    """``reject 41``: an objective card dealt, or a private objective an event discards."""

    action = Action.REJECT


@dataclasses.dataclass(frozen=True, slots=True)
class Keep(_Card):
    """``keep 41``: the objective card Jump Drive tech F keeps for everyone."""

    action = Action.KEEP


@dataclasses.dataclass(frozen=True, slots=True)
class Clear(Move):
    """``clear 5`` (row 5) or ``clear e`` (column e): the meteorites of a line."""

    action = Action.CLEAR
    words = ("line",)
    line: int

    def _fields(self) -> dict[str, Any]:
        return {"line": line_name(self.line)}

    def __str__(self) -> str:
        return f"clear {line_name(self.line)}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(fields.line())


@dataclasses.dataclass(frozen=True, slots=True)
class Store(Move):
    """``store``: a pending biomass patch kept for later."""

    action = Action.STORE


@dataclasses.dataclass(frozen=True, slots=True)
class Confirm(Move):
    """``confirm``: the end of the seat's turn."""

    action = Action.CONFIRM


@dataclasses.dataclass(frozen=True, slots=True)
class Pick(Move):
    """``pick 2 1``: alternative 1 of pending benefit 2."""

    action = Action.PICK
    words = ("benefit", "option")
    index: int
    option: int

    def _fields(self) -> dict[str, Any]:
        return {"benefit": self.index, "option": self.option}

    def __str__(self) -> str:
        return f"pick {self.index} {self.option}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(fields.number("benefit"), fields.number("option"))


@dataclasses.dataclass(frozen=True, slots=True)
class Empty(Move):
    """``empty 3``: station stack 3."""

    action = Action.EMPTY
    words = ("stack",)
    stack: int

    def _fields(self) -> dict[str, Any]:
        return {"stack": self.stack}

    def __str__(self) -> str:
        return f"empty {self.stack}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        stack = fields.number("stack")
        if not 0 <= stack < 12:
            raise InvalidMoveError("the station has 12 stacks, 0 to 11")
        return cls(stack)


@dataclasses.dataclass(frozen=True, slots=True)
class Setup(Move):
    """``setup arashi universal-coalition`` before round 1, by slugs; Flux Industries adds its flux
    track: ``setup arashi flux-industries water``."""

    action = Action.SETUP
    words = ("planet", "corporation")
    planet: str
    corporation: str
    flux: Terrain | None = None

    def _fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"planet": self.planet, "corporation": self.corporation}
        if self.flux is not None:
            out["flux"] = str(self.flux)
        return out

    def __str__(self) -> str:
        flux = f" {self.flux}" if self.flux is not None else ""
        return f"setup {self.planet} {self.corporation}{flux}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        flux = fields.track("flux") if fields.values.get("flux") else None
        return cls(str(fields.values["planet"]).lower(), str(fields.values["corporation"]).lower(), flux)


@dataclasses.dataclass(frozen=True, slots=True)
class Power(Move):
    """``power 5``: a tech power that is an action (once per round)."""

    action = Action.POWER
    words = ("level",)
    level: int

    def _fields(self) -> dict[str, Any]:
        return {"level": self.level}

    def __str__(self) -> str:
        return f"power {self.level}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(fields.number("level"))


@dataclasses.dataclass(frozen=True, slots=True)
class Lifepod(Move):
    """``lifepod area tech7`` / ``lifepod civ5 area`` (Cosmos Inc.), ``lifepod area slot2`` (Jump Drive
    tech B): a collected lifepod onto a track space or tech slot, or moved."""

    action = Action.LIFEPOD
    words = ("from", "to")
    origin: str
    target: str

    def _fields(self) -> dict[str, Any]:
        return {"from": self.origin, "to": self.target}

    def __str__(self) -> str:
        return f"lifepod {self.origin} {self.target}"

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(fields.spot("from"), fields.spot("to"))


MOVES: dict[Action, type[Move]] = {
    cls.action: cls
    for cls in (
        Rotate, Place, Take, Advance, Choose, Deploy, Rover, Patch, Store, Civ, Collect, Destroy, Clear,
        Teleport, Confirm, Regress, Pick, Meteorite, Reject, Empty, Setup, Power, Lifepod, Keep,
    )
}  # fmt: skip
"""The move class of each action."""
_UNROUTED = (Action.ROTATE, Action.PLACE, Action.TAKE)


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
    fields = Fields(move, legacy)
    try:
        if action not in _UNROUTED:
            fields.route()
        return MOVES[action].read(fields)
    except KeyError as e:
        raise InvalidMoveError(f"{action} needs the field {e.args[0]!r}") from None


def _parse_text(text: str, legacy: bool) -> Move:
    words = text.split()
    if not words:
        raise InvalidMoveError("empty move")
    try:
        action = Action(words[0].lower())
    except ValueError:
        raise InvalidMoveError(f"unknown action {words[0]!r}") from None
    names = MOVES[action].words
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
    return parse_move(fields, legacy=legacy)
