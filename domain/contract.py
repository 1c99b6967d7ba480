"""The contract every game implements, and the registry of games by name.

A game is pure rules: it never does I/O and never calls ``random`` by itself.
The service drives it like this::

    state = game.initial(seats, options)            # before any event
    for event in game.setup(state, seed):           # the deal, derived from the seed
        state = game.evolve(state, event)
    events = game.decide(state, seat, move)         # validates; raises RuleError
    for event in events:
        state = game.evolve(state, event)           # applies without validating

A state is always ``fold(game.evolve, events, game.initial(seats, options))``.

Events are frozen dataclasses derived from :class:`Event`. Their fields hold
JSON-compatible values only (``str``, ``int``, ``bool``, ``None``, string
enums, tuples and frozensets of those, tuples of tuples, and frozen dataclasses
of those: an object of the fields that differ from their defaults, or
``[class name, object]`` where the field's type is a union of several
dataclasses); :func:`encode_event` and :func:`decode_event` turn them into
``(type, payload)`` pairs and back.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import random
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

JSON = Any
"""A value that ``json.dumps`` accepts: dicts, lists, strings, ints, bools and None."""

S = TypeVar("S")
T = TypeVar("T")


class Role(enum.Enum):
    """Viewers that are not seats."""

    SPECTATOR = "spectator"
    AUDITOR = "auditor"


Viewer = int | Role
"""A seat index (0-based), a spectator or the auditor."""


# --- Errors -----------------------------------------------------------------


class RuleError(ValueError):
    """A move or an option that the rules reject, with a reason a player can read.

    ``code`` is machine-readable and stable; ``str(error)`` is the sentence.
    """

    code: ClassVar[str] = "illegal_move"


class IllegalMoveError(RuleError):
    """A well-formed move that the rules forbid in this position."""

    code = "illegal_move"


class InvalidMoveError(RuleError):
    """A move that cannot be read at all (bad syntax, unknown verb, wrong shape)."""

    code = "invalid_move"


class NotYourTurnError(RuleError):
    """The seat may not act now."""

    code = "not_your_turn"


class GameOverError(RuleError):
    """The game has ended; no more moves are taken."""

    code = "game_over"


class InvalidOptionError(RuleError):
    """A game option that is unknown, of the wrong type or out of range."""

    code = "invalid_option"


# --- Events -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Visibility:
    """Who may read an event's payload.

    ``seats`` is None when everyone may; otherwise only those seats may (and
    the auditor once the game is over). Everyone else sees ``redacted``
    in place of the payload.
    """

    seats: frozenset[int] | None = None
    redacted: Mapping[str, JSON] = dataclasses.field(default_factory=dict)

    @property
    def public(self) -> bool:
        return self.seats is None

    def allows(self, viewer: Viewer, *, game_over: bool) -> bool:
        """Whether ``viewer`` may read the full payload."""
        if self.seats is None:
            return True
        if viewer is Role.AUDITOR:
            return game_over
        return isinstance(viewer, int) and viewer in self.seats

    @classmethod
    def stored(cls, visible_to: Iterable[int] | None, redacted: Mapping[str, JSON]) -> Visibility:
        """The visibility recorded with a stored event: its ``visible_to`` seats (None: public) and redaction."""
        return cls(None if visible_to is None else frozenset(visible_to), redacted)


PUBLIC = Visibility()


@dataclasses.dataclass(frozen=True, slots=True)
class Projection:
    """An event's payload as one viewer reads it: whole, or ``redacted``."""

    payload: Mapping[str, JSON]
    redacted: bool


def project(visibility: Visibility, payload: Mapping[str, JSON], viewer: Viewer, *, game_over: bool) -> Projection:
    """The payload of an event with ``visibility`` as ``viewer`` may read it.

    This is the one rule every read of an event goes through: a public event is read whole by everyone;
    a private one by its seats, and by the auditor once the game is over; everyone else reads the
    redacted payload.
    """
    if visibility.allows(viewer, game_over=game_over):
        return Projection(payload, False)
    return Projection(visibility.redacted, True)


def effective_viewer(viewer: Viewer, *, game_over: bool) -> Viewer:
    """Whose view ``viewer`` reads of a state: the auditor reads as a spectator until the game is over."""
    return Role.SPECTATOR if viewer is Role.AUDITOR and not game_over else viewer


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Base of every domain event. Subclasses are frozen, slotted dataclasses
    named in the past tense (``ShipBuilt``, ``TilePlaced``)."""

    def visibility(self) -> Visibility:
        """Who may read this event. Public unless a subclass says otherwise."""
        return PUBLIC


def encode_event(event: Event) -> tuple[str, dict[str, JSON]]:
    """The event as ``(type, payload)``, ready for canonical JSON."""
    encoders = _field_encoders(type(event))
    payload = {f.name: encoders[f.name](getattr(event, f.name)) for f in dataclasses.fields(event)}
    return type(event).__name__, payload


def decode_event(types: Mapping[str, type[Event]], type_name: str, payload: Mapping[str, JSON]) -> Event:
    """Rebuild an event from ``(type, payload)`` with its plain constructor."""
    try:
        cls = types[type_name]
    except KeyError:
        raise ValueError(f"unknown event type {type_name!r}") from None
    return _from_fields(cls, payload)


def event_types(*classes: type[Event]) -> dict[str, type[Event]]:
    """A registry of event classes by type name, for :func:`decode_event`."""
    return {cls.__name__: cls for cls in classes}


def _to_json(value: Any) -> JSON:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list, frozenset)):
        items = sorted(value) if isinstance(value, frozenset) else value
        return [_to_json(v) for v in items]
    if isinstance(value, Mapping):
        return {str(k): _to_json(v) for k, v in value.items()}
    if isinstance(value, float):
        raise TypeError("event payloads hold no floats")
    return value


_encoders: dict[type, dict[str, Callable[[Any], JSON]]] = {}
_converters: dict[type, dict[str, Callable[[Any], Any]]] = {}


def _field_encoders(cls: type) -> dict[str, Callable[[Any], JSON]]:
    found = _encoders.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = _encoders[cls] = {f.name: _encoder(hints[f.name]) for f in dataclasses.fields(cls)}
    return found


def _encoder(hint: Any) -> Callable[[Any], JSON]:
    """How a value of ``hint`` becomes JSON: as :func:`_to_json` does, but dataclasses by their fields' hints."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) > 1 and all(dataclasses.is_dataclass(a) for a in inner):
            return lambda v: None if v is None else [type(v).__name__, _fields_json(v)]
        encode = _encoder(inner[0]) if len(inner) == 1 else _to_json
        return lambda v: None if v is None else encode(v)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _encoder(args[0])
            return lambda v: [item(x) for x in v]
        items = [_encoder(a) for a in args]
        return lambda v: [e(x) for e, x in zip(items, v, strict=True)]
    if origin is frozenset:
        member = _encoder(args[0]) if args else _to_json
        return lambda v: [member(x) for x in sorted(v)]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _fields_json
    return _to_json


def _fields_json(value: Any) -> dict[str, JSON]:
    """A dataclass as the object of its fields that differ from their defaults."""
    encoders = _field_encoders(type(value))
    out = {}
    for f in dataclasses.fields(value):
        item = getattr(value, f.name)
        if f.default is dataclasses.MISSING or item != f.default:
            out[f.name] = encoders[f.name](item)
    return out


def _from_fields(cls: type[T], data: Mapping[str, JSON]) -> T:
    converters = _field_converters(cls)
    return cls(**{name: converters[name](value) for name, value in data.items()})


def _field_converters(cls: type) -> dict[str, Callable[[Any], Any]]:
    found = _converters.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = _converters[cls] = {f.name: _converter(hints[f.name]) for f in dataclasses.fields(cls)}
    return found


def _converter(hint: Any) -> Callable[[Any], Any]:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) > 1 and all(dataclasses.is_dataclass(a) for a in inner):
            by_name = {a.__name__: a for a in inner}
            return lambda v: None if v is None else _from_fields(by_name[v[0]], v[1])
        convert = _converter(inner[0]) if len(inner) == 1 else _identity
        return lambda v: None if v is None else convert(v)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _converter(args[0])
            return lambda v: tuple(item(x) for x in v)
        items = [_converter(a) for a in args]
        return lambda v: tuple(c(x) for c, x in zip(items, v, strict=True))
    if origin is frozenset:
        item = _converter(args[0]) if args else _identity
        return lambda v: frozenset(item(x) for x in v)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        cls = hint
        return lambda v: _from_fields(cls, v)
    return _identity


def _identity(value: Any) -> Any:
    return value


# --- Options ----------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """One game option: its name, JSON type, default and bounds.

    ``kind`` is one of ``bool``, ``int``, ``str``, ``list`` or ``dict``.
    ``check``, when given, validates the value further and returns an error
    sentence, or None when the value is good.
    """

    name: str
    kind: type
    default: JSON
    description: str
    choices: tuple[JSON, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    check: Callable[[JSON], str | None] | None = None

    def validate(self, value: JSON) -> JSON:
        """Return ``value`` if it is acceptable, else raise :class:`InvalidOptionError`.

        An option whose default is None also takes None, meaning "the default".
        """
        if value is None and self.default is None:
            return None
        ok_type = isinstance(value, self.kind) and not (self.kind is int and isinstance(value, bool))
        if not ok_type:
            raise InvalidOptionError(f"option {self.name!r} must be of type {self.kind.__name__}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptionError(f"option {self.name!r} must be one of {allowed}, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptionError(f"option {self.name!r} must be at least {self.minimum}, not {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptionError(f"option {self.name!r} must be at most {self.maximum}, not {value!r}")
        if self.check is not None and (problem := self.check(value)) is not None:
            raise InvalidOptionError(f"option {self.name!r}: {problem}")
        return value


def parse_options(options: Sequence[Option], raw: Mapping[str, JSON]) -> dict[str, JSON]:
    """Validate ``raw`` against ``options`` and fill in defaults.

    >>> parse_options([Option("size", int, 3, "board size", minimum=3)], {})
    {'size': 3}
    """
    known = {o.name: o for o in options}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        names = ", ".join(sorted(known)) or "none"
        raise InvalidOptionError(f"unknown option {unknown[0]!r}; this game's options are: {names}")
    return {o.name: o.validate(raw[o.name]) if o.name in raw else o.default for o in options}


# --- Outcome ----------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended. ``winners`` is empty for a draw (or a game everyone lost)."""

    winners: tuple[int, ...]
    reason: str

    @property
    def draw(self) -> bool:
        return not self.winners


# --- Randomness ---------------------------------------------------------------


def rng(seed: bytes, label: str) -> random.Random:
    """A generator derived from the game's seed and a purpose label.

    Every shuffle and draw of a game comes from one of these, so anyone who
    learns the seed at the end can derive them again.
    """
    return random.Random(hashlib.sha256(seed + b"\x00" + label.encode()).digest())


# --- The contract -----------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class SeatView(Generic[S]):
    """What one seat may see of a game, as a state the rules can still play on.

    ``state`` is :meth:`Game.seat_state` of the whole state: everything ``seat`` may not see is
    removed or replaced by stand-ins. Made by :func:`seat_view`; a bot is given nothing else.
    """

    seat: int
    state: S


def seat_view(game: Game[S], state: S, seat: int) -> SeatView[S]:
    """``seat``'s view of ``state``: what a built-in bot of that seat is given."""
    return SeatView(seat, game.seat_state(state, seat))


class Bot(Protocol):
    """A built-in bot: picks a legal move for ``seat``.

    It is given only ``seat``'s view (:class:`SeatView`), never the whole state. ``rng`` is its
    only source of randomness, and ``think_ms`` its time budget.
    """

    def __call__(self, view: SeatView[Any], seat: int, rng: random.Random, think_ms: int) -> JSON: ...


@runtime_checkable
class Game(Protocol, Generic[S]):
    """What the service needs of a game. Implementations are stateless objects."""

    @property
    def name(self) -> str:
        """The game's name in the API, e.g. ``"homeworlds"``."""
        ...

    @property
    def rules_version(self) -> str:
        """Bumped whenever a rule change would fold old events differently."""
        ...

    @property
    def seat_counts(self) -> range:
        """How many seats the game allows."""
        ...

    @property
    def options(self) -> Sequence[Option]:
        """The game's options."""
        ...

    @property
    def events(self) -> Mapping[str, type[Event]]:
        """Every event type of the game, by type name."""
        ...

    @property
    def bots(self) -> Mapping[str, Bot]:
        """The built-in bots, by name (``random``, ``greedy``, ``search``...)."""
        ...

    @property
    def pass_move(self) -> JSON | None:
        """The move that passes a turn, for the ``pass`` timeout policy; None if the game has none."""
        ...

    def initial(self, seats: int, options: Mapping[str, JSON]) -> S:
        """The state before any event, for validated ``options``."""
        ...

    def setup(self, state: S, seed: bytes) -> list[Event]:
        """The events that deal the game; every random outcome derives from ``seed``."""
        ...

    def decide(self, state: S, seat: int, move: JSON) -> list[Event]:
        """Validate ``move`` by ``seat`` and return its events, or raise :class:`RuleError`."""
        ...

    def evolve(self, state: S, event: Event) -> S:
        """Apply one event without validating it."""
        ...

    def legal_moves(self, state: S, seat: int) -> Iterable[JSON]:
        """Every move ``seat`` may make now, in the form :meth:`decide` takes."""
        ...

    def to_act(self, state: S) -> frozenset[int]:
        """The seats that must act now; empty once the game is over."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else None."""
        ...

    def scores(self, state: S) -> dict[str, JSON]:
        """The final scoring of a finished game, broken down per seat."""
        ...

    def view(self, state: S, viewer: Viewer) -> JSON:
        """The state as ``viewer`` may see it, as JSON."""
        ...

    def seat_state(self, state: S, seat: int) -> S:
        """The state as ``seat`` may see it, still a state the rules play on: everything :meth:`view`
        hides from ``seat`` is removed or replaced by stand-ins derived from what it may see, so
        that ``legal_moves(seat_state(s, seat), seat) == legal_moves(s, seat)``."""
        ...

    def timed_out(self, state: S, seat: int) -> list[Event]:
        """The events of ``seat`` forfeiting because its time ran out (outcome reason ``timeout``)."""
        ...


def fold(game: Game[S], state: S, events: Iterable[Event]) -> S:
    """Apply ``events`` to ``state`` in order."""
    return functools.reduce(game.evolve, events, state)


# --- Registry -----------------------------------------------------------------

_registry: dict[str, dict[str, Game[Any]]] = {}
"""Every registered rules version of every game: ``_registry[name][rules_version]``."""
_current: dict[str, str] = {}
"""The rules version that new games of each name are created under."""


class UnknownRulesVersion(KeyError):
    """A stored game names a game or rules version that this server does not have."""

    def __init__(self, name: str, rules_version: str) -> None:
        super().__init__(name, rules_version)
        self.name = name
        self.rules_version = rules_version
        self.known = versions(name)

    def __str__(self) -> str:
        if not self.known:
            return f"this server does not host the game {self.name!r} (rules {self.rules_version!r})"
        hosted = ", ".join(self.known)
        return f"this server does not have the {self.name} rules {self.rules_version!r}; it has: {hosted}"


def register(game: Game[Any], *, current: bool = True) -> Game[Any]:
    """Make ``game`` available under ``(game.name, game.rules_version)``.

    Every rules version that a stored game was played under must stay registered, so that the
    game stays readable and verifiable. ``current`` makes it the version new games are created
    under; a game's previous versions are registered with ``current=False``.
    """
    _registry.setdefault(game.name, {})[game.rules_version] = game
    if current or game.name not in _current:
        _current[game.name] = game.rules_version
    return game


def get(name: str, rules_version: str | None = None) -> Game[Any]:
    """The game called ``name``: its current rules, or exactly ``rules_version``.

    Raises KeyError if there is no such game, and :class:`UnknownRulesVersion` (a KeyError)
    when ``rules_version`` is named and not registered.
    """
    if rules_version is None:
        return _registry[name][_current[name]]
    try:
        return _registry[name][rules_version]
    except KeyError:
        raise UnknownRulesVersion(name, rules_version) from None


def versions(name: str) -> list[str]:
    """Every registered rules version of the game called ``name``, sorted (none for an unknown name)."""
    return sorted(_registry.get(name, {}))


def names() -> list[str]:
    """The names of every registered game."""
    return sorted(_current)
