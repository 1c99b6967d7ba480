"""Actions and turns, and their SDG notation (NOTATION.md section 2).

A turn is one line; its actions are separated by ``"; "``; an empty turn is ``pass``.

>>> turn = Turn.parse("Sac Y3 alpha;  M g1 Alpha Beta; cat beta Blue")
>>> str(turn)
'sacrifice y3 alpha; move g1 Alpha Beta; catastrophe beta b'
>>> Turn.parse(str(turn)) == turn
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from .errors import NotationError, SystemNameTooLongError
from .pieces import Colour, Piece
from .position import MAX_NAME_LENGTH, NAME_RE


@dataclasses.dataclass(frozen=True, slots=True)
class Homeworld:
    """Set up a homeworld: two stars (``star2`` None for a one-star handicap) and a ship."""

    star1: Piece
    star2: Piece | None
    ship: Piece
    name: str | None = None
    verb: ClassVar[str] = "homeworld"

    def __str__(self) -> str:
        star2 = "-" if self.star2 is None else str(self.star2)
        name = "" if self.name is None else f" {self.name}"
        return f"homeworld {self.star1} {star2} {self.ship}{name}"


@dataclasses.dataclass(frozen=True, slots=True)
class Build:
    """Build a ship of ``ship``'s colour (the smallest in the bank) in ``system``."""

    ship: Piece
    system: str
    verb: ClassVar[str] = "build"
    colour: ClassVar[Colour] = Colour.GREEN

    def __str__(self) -> str:
        return f"build {self.ship} {self.system}"


@dataclasses.dataclass(frozen=True, slots=True)
class Trade:
    """Exchange ``ship`` for the bank piece ``new_ship`` of the same size."""

    ship: Piece
    new_ship: Piece
    system: str
    verb: ClassVar[str] = "trade"
    colour: ClassVar[Colour] = Colour.BLUE

    def __str__(self) -> str:
        return f"trade {self.ship} {self.new_ship} {self.system}"


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """Move ``ship`` from ``origin`` to the connected system ``destination``."""

    ship: Piece
    origin: str
    destination: str
    verb: ClassVar[str] = "move"
    colour: ClassVar[Colour] = Colour.YELLOW

    def __str__(self) -> str:
        return f"move {self.ship} {self.origin} {self.destination}"


@dataclasses.dataclass(frozen=True, slots=True)
class Discover:
    """Move ``ship`` from ``origin`` to a new system ``name`` with the bank piece ``star``."""

    ship: Piece
    origin: str
    star: Piece
    name: str
    verb: ClassVar[str] = "discover"
    colour: ClassVar[Colour] = Colour.YELLOW

    def __str__(self) -> str:
        return f"discover {self.ship} {self.origin} {self.star} {self.name}"


@dataclasses.dataclass(frozen=True, slots=True)
class Capture:
    """Take over the enemy ``ship`` in ``system`` (SDG verb ``attack``)."""

    ship: Piece
    system: str
    verb: ClassVar[str] = "attack"
    colour: ClassVar[Colour] = Colour.RED

    def __str__(self) -> str:
        return f"attack {self.ship} {self.system}"


@dataclasses.dataclass(frozen=True, slots=True)
class Sacrifice:
    """Return one's ``ship`` to the bank for up to its size in actions of its colour."""

    ship: Piece
    system: str
    verb: ClassVar[str] = "sacrifice"

    def __str__(self) -> str:
        return f"sacrifice {self.ship} {self.system}"


@dataclasses.dataclass(frozen=True, slots=True)
class Catastrophe:
    """Return every piece of ``colour`` in the overpopulated ``system`` to the bank."""

    system: str
    colour: Colour
    verb: ClassVar[str] = "catastrophe"

    def __str__(self) -> str:
        return f"catastrophe {self.system} {self.colour.letter}"


PowerAction = Build | Trade | Move | Discover | Capture
Action = Homeworld | PowerAction | Sacrifice | Catastrophe
POWER_ACTIONS = (Build, Trade, Move, Discover, Capture)


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """A whole turn: its actions in order. The empty turn is a pass."""

    actions: tuple[Action, ...] = ()

    def __str__(self) -> str:
        return "; ".join(str(a) for a in self.actions) or "pass"

    def sdg(self) -> str:
        """The canonical SDG notation."""
        return str(self)

    @property
    def is_pass(self) -> bool:
        """Whether the turn does nothing."""
        return not self.actions

    @classmethod
    def parse(cls, text: str) -> Turn:
        """Read one turn in SDG notation; raise :class:`NotationError` if it cannot be read.

        Verbs may be abbreviated (``b``, ``con``, ``sac``, ``cat`` ...), pieces, colours
        and names are case-insensitive, and ``pass`` for unused sacrifice actions is dropped.
        """
        if "\n" in text.strip():
            raise NotationError("a turn is one line")
        parts = [p.strip() for p in text.split(";")]
        if not any(parts):
            raise NotationError("empty turn; write 'pass' to pass")
        actions: list[Action] = []
        for part in parts:
            if not part:
                continue
            action = parse_action(part)
            if action is not None:
                actions.append(action)
        return cls(tuple(actions))

    def to_json(self) -> list[dict[str, Any]]:
        """The turn as a list of action objects (see :func:`action_from_json`)."""
        return [action_to_json(a) for a in self.actions] or [{"action": "pass"}]

    @classmethod
    def from_json(cls, data: Sequence[Mapping[str, Any]]) -> Turn:
        """Read a turn from a list of action objects."""
        if isinstance(data, (str, bytes)) or not isinstance(data, Sequence):
            raise NotationError("a turn in JSON is a list of action objects")
        actions = [action_from_json(item) for item in data]
        return cls(tuple(a for a in actions if a is not None))


_VERBS = (
    "homeworld",
    "build",
    "construct",
    "trade",
    "move",
    "discover",
    "attack",
    "capture",
    "sacrifice",
    "catastrophe",
    "pass",
)
_LETTERS = {"h": "homeworld", "b": "build", "t": "trade", "m": "move", "d": "discover"}
_LETTERS |= {"a": "attack", "s": "sacrifice", "c": "catastrophe", "p": "pass"}
_ALIASES = {"construct": "build", "capture": "attack"}


def verb_of(word: str) -> str:
    """The full verb for ``word`` or an abbreviation of it (``sac`` -> ``sacrifice``)."""
    lower = word.lower()
    if lower in _LETTERS:
        return _LETTERS[lower]
    matches = [v for v in _VERBS if v.startswith(lower)]
    if len(matches) != 1:
        hint = "ambiguous" if matches else "unknown"
        raise NotationError(
            f"{hint} verb {word!r}; use homeworld, build, trade, move, discover, attack, sacrifice, catastrophe or pass"
        )
    return _ALIASES.get(matches[0], matches[0])


def _piece(token: str, role: str) -> Piece:
    try:
        return Piece.parse(token)
    except ValueError:
        raise NotationError(f"{token!r} is not a piece ({role} must be like g3)") from None


def _name(token: str) -> str:
    if len(token) > MAX_NAME_LENGTH:
        raise SystemNameTooLongError(
            f"the system name {token[:16]!r}... is {len(token)} characters long; "
            f"a system name has at most {MAX_NAME_LENGTH}"
        )
    if not NAME_RE.fullmatch(token) or token == "-":
        raise NotationError(f"{token!r} cannot be a system name")
    return token


def _colour(token: str) -> Colour:
    try:
        return Colour.parse(token)
    except ValueError as error:
        raise NotationError(str(error)) from None


_ARITY = {
    "homeworld": "<star> <star|-> <ship> [<name>]",
    "build": "<ship> <system>",
    "trade": "<ship> <new ship> <system>",
    "move": "<ship> <from> <to>",
    "discover": "<ship> <from> <star> <new name>",
    "attack": "<ship> <system>",
    "sacrifice": "<ship> <system>",
    "catastrophe": "<system> <colour>",
    "pass": "",
}


def parse_action(text: str) -> Action | None:
    """Read one action; ``pass`` gives None."""
    words = text.split()
    verb = verb_of(words[0])
    args = words[1:]
    expected = _ARITY[verb].count("<")
    optional = _ARITY[verb].count("[")
    if not expected - optional <= len(args) <= expected:
        usage = f"{verb} {_ARITY[verb]}".strip()
        raise NotationError(f"{text.strip()!r}: {verb} takes {expected - optional} arguments: {usage}")
    builder = _BUILDERS[verb]
    return builder(args)


def _homeworld(a: list[str]) -> Homeworld:
    star2 = None if a[1] == "-" else _piece(a[1], "a star")
    return Homeworld(_piece(a[0], "a star"), star2, _piece(a[2], "the ship"), _name(a[3]) if len(a) > 3 else None)


_BUILDERS: dict[str, Callable[[list[str]], Action | None]] = {
    "homeworld": _homeworld,
    "build": lambda a: Build(_piece(a[0], "the ship"), _name(a[1])),
    "trade": lambda a: Trade(_piece(a[0], "the ship"), _piece(a[1], "the new ship"), _name(a[2])),
    "move": lambda a: Move(_piece(a[0], "the ship"), _name(a[1]), _name(a[2])),
    "discover": lambda a: Discover(_piece(a[0], "the ship"), _name(a[1]), _piece(a[2], "the star"), _name(a[3])),
    "attack": lambda a: Capture(_piece(a[0], "the ship"), _name(a[1])),
    "sacrifice": lambda a: Sacrifice(_piece(a[0], "the ship"), _name(a[1])),
    "catastrophe": lambda a: Catastrophe(_name(a[0]), _colour(a[1])),
    "pass": lambda a: None,
}


def action_to_json(action: Action) -> dict[str, Any]:
    """One action as a JSON object, e.g. ``{"action": "build", "ship": "g1", "system": "Alpha"}``."""
    match action:
        case Homeworld(star1, star2, ship, name):
            stars = [str(star1), None if star2 is None else str(star2)]
            return {"action": "homeworld", "stars": stars, "ship": str(ship), "name": name}
        case Build(ship, system):
            return {"action": "build", "ship": str(ship), "system": system}
        case Trade(ship, new_ship, system):
            return {"action": "trade", "ship": str(ship), "new_ship": str(new_ship), "system": system}
        case Move(ship, origin, destination):
            return {"action": "move", "ship": str(ship), "from": origin, "to": destination}
        case Discover(ship, origin, star, name):
            return {"action": "discover", "ship": str(ship), "from": origin, "star": str(star), "name": name}
        case Capture(ship, system):
            return {"action": "capture", "ship": str(ship), "system": system}
        case Sacrifice(ship, system):
            return {"action": "sacrifice", "ship": str(ship), "system": system}
        case Catastrophe(system, colour):
            return {"action": "catastrophe", "system": system, "colour": colour.letter}
    raise TypeError(action)


_JSON_FIELDS = {
    "homeworld": ("stars", "ship"),
    "build": ("ship", "system"),
    "trade": ("ship", "new_ship", "system"),
    "move": ("ship", "from", "to"),
    "discover": ("ship", "from", "star", "name"),
    "attack": ("ship", "system"),
    "sacrifice": ("ship", "system"),
    "catastrophe": ("system", "colour"),
    "pass": (),
}


def action_from_json(item: Mapping[str, Any]) -> Action | None:
    """Read one action object (the inverse of :func:`action_to_json`); ``pass`` gives None."""
    if not isinstance(item, Mapping) or not isinstance(item.get("action"), str):
        raise NotationError('each action is an object with an "action" field, e.g. {"action": "pass"}')
    verb = verb_of(item["action"])
    fields = _JSON_FIELDS[verb]
    allowed = {"action", *fields, "name"} if verb == "homeworld" else {"action", *fields}
    missing = [f for f in fields if f not in item]
    extra = sorted(set(item) - allowed)
    if missing or extra:
        problem = f"lacks {', '.join(missing)}" if missing else f"has unknown fields {', '.join(extra)}"
        raise NotationError(f"the {verb} action {problem}; it takes {', '.join(fields) or 'no fields'}")
    if verb == "homeworld":
        stars = item["stars"]
        if not isinstance(stars, Sequence) or isinstance(stars, str) or len(stars) != 2 or stars[0] is None:
            raise NotationError('a homeworld has "stars": [star, star] (the second may be null)')
        words = [_text(stars[0]), "-" if stars[1] is None else _text(stars[1]), _text(item["ship"])]
        if item.get("name") is not None:
            words.append(_text(item["name"]))
        return _homeworld(words)
    return _BUILDERS[verb]([_text(item[f]) for f in fields])


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value or len(value.split()) != 1:
        raise NotationError(f"{value!r} should be a single word of text")
    return value
