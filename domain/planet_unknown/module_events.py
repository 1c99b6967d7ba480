"""The events of the modules: the event deck, solo mode, private objectives, the setup choice and the
asymmetric corporations (see :mod:`.events` for the payload conventions and the outcome fields)."""

from __future__ import annotations

import dataclasses

from domain.contract import Event, Visibility

from .corporation_state import CorporationState
from .data import Terrain
from .model import Benefit

HIDDEN_FROM_ALL = frozenset[int]()


@dataclasses.dataclass(frozen=True, slots=True)
class EventDeckMixed(Event):
    """How many green, orange and red alerts the 20-card event deck holds."""

    green: int
    orange: int
    red: int


@dataclasses.dataclass(frozen=True, slots=True)
class EventDeckShuffled(Event):
    """The event deck, top card first, and one secret number per card for its random choices."""

    cards: tuple[int, ...]
    rolls: tuple[int, ...]

    def visibility(self) -> Visibility:
        return Visibility(HIDDEN_FROM_ALL, {"size": len(self.cards)})


@dataclasses.dataclass(frozen=True, slots=True)
class ObjectiveDeckStacked(Event):
    """The objective cards left after the deal, top first (drawn by event 67). Secret until the end."""

    cards: tuple[int, ...]

    def visibility(self) -> Visibility:
        return Visibility(HIDDEN_FROM_ALL, {"size": len(self.cards)})


@dataclasses.dataclass(frozen=True, slots=True)
class PrivateObjectivesDealt(Event):
    """Objective cards dealt to a seat on their private side; it will reject one."""

    seat: int
    cards: tuple[int, ...]

    def visibility(self) -> Visibility:
        return Visibility(frozenset({self.seat}), {"seat": self.seat, "count": len(self.cards)})


@dataclasses.dataclass(frozen=True, slots=True)
class PowerUsed(Event):
    """A seat used a tech power that is an action (once per round), e.g. Horizon Group's tech 5.

    Outcome: the ``gains`` it adds, the pending benefit it changes (index ``replaced``, now ``replacement``:
    Jump Drive A and C), the rover ``moves`` gained (or spent), the ``track`` whose tracker it moves to
    ``position`` (Flux Industries tech 2, Wormhole Corp. tech 1), ``once``: a once-per-game power, and the
    ``corporation_state`` after, as :class:`.events.TrackAdvanced` records it."""

    seat: int
    level: int
    gains: tuple[Benefit, ...] | None = None
    replaced: int | None = None
    replacement: Benefit | None = None
    moves: int | None = None
    track: Terrain | None = None
    position: int | None = None
    once: bool | None = None
    corporation_state: CorporationState | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class SetupDealt(Event):
    """The asymmetric planet and corporation a seat may take instead of the symmetric sides
    (a symmetric slug where that side is not dealt). Only the seat sees them."""

    seat: int
    planet: str
    corporation: str

    def visibility(self) -> Visibility:
        return Visibility(frozenset({self.seat}), {"seat": self.seat})


@dataclasses.dataclass(frozen=True, slots=True)
class SetupChosen(Event):
    """A seat's setup choice; secret until every seat has chosen."""

    seat: int
    planet: str
    corporation: str
    flux: str = ""

    def visibility(self) -> Visibility:
        return Visibility(frozenset({self.seat}), {"seat": self.seat})


@dataclasses.dataclass(frozen=True, slots=True)
class SetupRevealed(Event):
    """Every seat's (planet, corporation), revealed together once all have chosen, and each
    Flux Industries seat's flux track (``""`` for the others). Outcome per seat: its planet's ``lifepods``,
    the ``rovers`` its corporation brings (in the garage) and the corporation's own state as it starts."""

    choices: tuple[tuple[str, str], ...]
    flux: tuple[str, ...] = ()
    lifepods: tuple[frozenset[int], ...] | None = None
    rovers: tuple[int, ...] | None = None
    corporation_states: tuple[CorporationState | None, ...] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class LifepodMoved(Event):
    """A Cosmos Inc. seat moved a collected lifepod from ``origin`` to ``target`` (``area`` or a
    track space like ``tech7``), resolving pending benefit ``pending``; Jump Drive: onto a tech slot
    (``slot3``). Outcome: the ``corporation_state`` after, as :class:`.events.TrackAdvanced` records it."""

    seat: int
    origin: str
    target: str
    pending: int
    corporation_state: CorporationState | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class HeightClaimed(Event):
    """Jump Drive tech E: the seat claimed every space printed at ``height`` on its five tracks: their
    ``gains``, rover ``moves`` and civ ranks ``queued`` (as :class:`.events.TrackAdvanced`)."""

    seat: int
    height: int
    pending: int
    gains: tuple[Benefit, ...] | None = None
    moves: int | None = None
    queued: tuple[int, ...] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class SharedObjectiveDrawn(Event):
    """Jump Drive tech F: the seat drew these objective cards (seen by it only) to keep one."""

    seat: int
    cards: tuple[int, ...]
    pending: int

    def visibility(self) -> Visibility:
        return Visibility(frozenset({self.seat}), {"seat": self.seat, "pending": self.pending})


@dataclasses.dataclass(frozen=True, slots=True)
class SharedObjectiveChosen(Event):
    """Jump Drive tech F: the kept objective card, face up, scored by every seat against all others."""

    seat: int
    card: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class FluxChosen(Event):
    """A Flux Industries seat named its flux track (at a tech milestone), resolving pending benefit ``pending``."""

    seat: int
    track: Terrain
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class ObjectiveRejected(Event):
    """A seat gave up one of its private objectives: at setup (``pending`` None) or for event 110."""

    seat: int
    card: int
    pending: int | None

    def visibility(self) -> Visibility:
        return Visibility(frozenset({self.seat}), {"seat": self.seat, "pending": self.pending})


@dataclasses.dataclass(frozen=True, slots=True)
class ObjectiveDrawn(Event):
    """Event 67: one more private objective from the objective deck."""

    seat: int
    card: int
    pending: int

    def visibility(self) -> Visibility:
        return Visibility(frozenset({self.seat}), {"seat": self.seat, "pending": self.pending})


@dataclasses.dataclass(frozen=True, slots=True)
class PrivateObjectivesRevealed(Event):
    """Every seat's private objectives, face up at the end of the game."""

    hands: tuple[tuple[int, ...], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class EventRevealed(Event):
    """This round's event card, turned face up after the rotation. Outcome: whether it ``changes_piles``
    (events 66/112), and per seat the ``gains`` to resolve, the ``rovers_gained`` (event 65) and the collected
    lifepods and meteorites it destroys (``lifepods_lost``, ``meteorites_lost``)."""

    card: int
    changes_piles: bool | None = None
    gains: tuple[tuple[Benefit, ...], ...] | None = None
    rovers_gained: tuple[int, ...] | None = None
    lifepods_lost: tuple[int, ...] | None = None
    meteorites_lost: tuple[int, ...] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class EventResolved(Event):
    """Every seat has resolved the event (and its civ milestones): the draft can start."""


@dataclasses.dataclass(frozen=True, slots=True)
class CivPilesChanged(Event):
    """Events 66/112: the civ piles and the cards set aside after a card was added or removed per rank."""

    piles: tuple[tuple[int, ...], ...]
    aside: tuple[int, ...]

    def visibility(self) -> Visibility:
        return Visibility(HIDDEN_FROM_ALL, {"sizes": [len(p) for p in self.piles]})


@dataclasses.dataclass(frozen=True, slots=True)
class TrackRegressed(Event):
    """A tracker moved back ``steps`` spaces to ``position``, claiming nothing."""

    seat: int
    track: Terrain
    steps: int
    pending: int
    position: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class AlternativePicked(Event):
    """Alternative ``option`` of the pending ``select`` benefit kept; the others dropped."""

    seat: int
    pending: int
    option: int


@dataclasses.dataclass(frozen=True, slots=True)
class StationTurned(Event):
    """Event 79: the seat turned the station to the rotation of its choice."""

    seat: int
    rotation: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class MeteoriteLanded(Event):
    """Events 95/107: a meteorite on an empty meteor symbol of the seat's tiles (a rover there is destroyed)."""

    seat: int
    square: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class MeteoriteCollected(Event):
    """Event 83: a meteorite taken from anywhere on the planet; ``gains``: what the corporation gives for it."""

    seat: int
    square: int
    pending: int
    gains: tuple[Benefit, ...] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class RoverDestroyed(Event):
    """Event 111: one of the seat's rovers on the planet destroyed."""

    seat: int
    rover: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class LifepodDestroyed(Event):
    """Event 113: a lifepod still on the planet destroyed (not collected)."""

    seat: int
    square: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class StackEmptied(Event):
    """Event 116: every tile of one stack of the seat's depot leaves the game."""

    seat: int
    stack: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class NextEventPeeked(Event):
    """Events 117/118: the seat looked at the next event card."""

    seat: int
    card: int
    pending: int

    def visibility(self) -> Visibility:
        return Visibility(frozenset({self.seat}), {"seat": self.seat, "pending": self.pending})
