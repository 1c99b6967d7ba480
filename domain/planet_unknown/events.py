"""The events of Planet Unknown, named in the past tense.

Payloads hold squares as ints (``row * 12 + col``), tracks as terrain names and
pending benefits by their index in the seat's pending list at the time.
"""

from __future__ import annotations

import dataclasses

from domain.contract import Event, Visibility, event_types

from .data import Terrain

HIDDEN_FROM_ALL = frozenset[int]()


@dataclasses.dataclass(frozen=True, slots=True)
class StationLoaded(Event):
    """The 12 station stacks, top tile first (outer rings 0-5, inner 6-11). Secret until the end."""

    stacks: tuple[tuple[int, ...], ...]

    def visibility(self) -> Visibility:
        return Visibility(HIDDEN_FROM_ALL, {"stacks": len(self.stacks)})


@dataclasses.dataclass(frozen=True, slots=True)
class StationArranged(Event):
    """The inner ring's offset against the outer ring and the starting rotation."""

    offset: int
    rotation: int


@dataclasses.dataclass(frozen=True, slots=True)
class CivPilesDealt(Event):
    """The face-down civ piles per rank (1-4) and the cards set aside. Secret until the end."""

    piles: tuple[tuple[int, ...], ...]
    aside: tuple[int, ...]

    def visibility(self) -> Visibility:
        return Visibility(HIDDEN_FROM_ALL, {"sizes": [len(p) for p in self.piles]})


@dataclasses.dataclass(frozen=True, slots=True)
class ObjectivesDealt(Event):
    """Neighbour objectives: card i lies between seats i and i+1 (2 players: all three shared)."""

    cards: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class CommanderChosen(Event):
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int


@dataclasses.dataclass(frozen=True, slots=True)
class StationRotated(Event):
    rotation: int
    by: int | None


@dataclasses.dataclass(frozen=True, slots=True)
class TileRevealed(Event):
    """A new top tile of a stack is face up."""

    stack: int
    tile: int


@dataclasses.dataclass(frozen=True, slots=True)
class LastRoundTriggered(Event):
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class DraftStarted(Event):
    pass


@dataclasses.dataclass(frozen=True, slots=True)
class TilePlaced(Event):
    """A tile taken from a stack top (or for a ``place`` benefit at ``pending``) and placed."""

    seat: int
    tile: int
    anchor: int
    rotation: int
    flip: bool
    pending: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class TileTaken(Event):
    """A tile taken without being placed, because neither offered tile fits."""

    seat: int
    tile: int


@dataclasses.dataclass(frozen=True, slots=True)
class TrackAdvanced(Event):
    """One space up, resolving the pending benefit ``pending`` (None: a further step of the same one
    or a card's raise); ``synergy`` False when the space's synergy boosts are not claimed,
    ``benefits`` False when nothing printed on the space is claimed (event 68); Makeshift: ``lane`` the
    track the tracker moves onto (diagonally, or sideways with ``side``)."""

    seat: int
    track: Terrain
    pending: int | None
    synergy: bool = True
    benefits: bool = True
    lane: str = ""
    side: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class BenefitLost(Event):
    """A pending benefit that cannot be used is dropped."""

    seat: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoverDeployed(Event):
    seat: int
    rover: int
    square: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoverMoved(Event):
    """One step of rover movement."""

    seat: int
    rover: int
    square: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoverTeleported(Event):
    seat: int
    rover: int
    square: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class PatchPlaced(Event):
    seat: int
    square: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class PatchStored(Event):
    seat: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class CivCardTaken(Event):
    """A civ card picked from the rank pile; only its owner sees which."""

    seat: int
    rank: int
    card: int
    pending: int

    def visibility(self) -> Visibility:
        return Visibility(frozenset({self.seat}), {"seat": self.seat, "rank": self.rank, "pending": self.pending})


@dataclasses.dataclass(frozen=True, slots=True)
class CivPileShown(Event):
    """The cards of a rank pile, shown to the seat about to pick from it."""

    seat: int
    rank: int
    cards: tuple[int, ...]

    def visibility(self) -> Visibility:
        return Visibility(frozenset({self.seat}), {"seat": self.seat, "rank": self.rank, "size": len(self.cards)})


@dataclasses.dataclass(frozen=True, slots=True)
class LifepodCollected(Event):
    seat: int
    square: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class MeteoriteDestroyed(Event):
    seat: int
    square: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class LineCleared(Event):
    """Every meteorite of a row (``line`` 0-11) or column (``line`` 12-23) destroyed."""

    seat: int
    line: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class TurnConfirmed(Event):
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class CivPhaseStarted(Event):
    order: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class CivSlotStarted(Event):
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    commander: int


@dataclasses.dataclass(frozen=True, slots=True)
class CivCardsRevealed(Event):
    """Every seat's civ cards, face up at the end of the game."""

    hands: tuple[tuple[int, ...], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class EndGameTurnStarted(Event):
    pass


@dataclasses.dataclass(frozen=True, slots=True)
class GameEnded(Event):
    pass


@dataclasses.dataclass(frozen=True, slots=True)
class SeatForfeited(Event):
    """A seat ran out of time: the game ends and the others are ranked by score."""

    seat: int


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
    """A seat used a tech power that is an action (once per round), e.g. Horizon Group's tech 5."""

    seat: int
    level: int


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
    Flux Industries seat's flux track (``""`` for the others)."""

    choices: tuple[tuple[str, str], ...]
    flux: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class LifepodMoved(Event):
    """A Cosmos Inc. seat moved a collected lifepod from ``origin`` to ``target`` (``area`` or a
    track space like ``tech7``), resolving pending benefit ``pending``."""

    seat: int
    origin: str
    target: str
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class HeightClaimed(Event):
    """Jump Drive tech E: the seat claimed every space printed at ``height`` on its five tracks."""

    seat: int
    height: int
    pending: int


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
    """This round's event card, turned face up after the rotation."""

    card: int


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
    """A tracker moved back ``steps`` spaces, claiming nothing."""

    seat: int
    track: Terrain
    steps: int
    pending: int


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
    """Event 83: a meteorite taken from anywhere on the planet."""

    seat: int
    square: int
    pending: int


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


EVENTS = event_types(
    StationLoaded,
    StationArranged,
    CivPilesDealt,
    ObjectivesDealt,
    CommanderChosen,
    RoundStarted,
    StationRotated,
    TileRevealed,
    LastRoundTriggered,
    DraftStarted,
    TilePlaced,
    TileTaken,
    TrackAdvanced,
    BenefitLost,
    RoverDeployed,
    RoverMoved,
    RoverTeleported,
    PatchPlaced,
    PatchStored,
    CivPileShown,
    CivCardTaken,
    LifepodCollected,
    MeteoriteDestroyed,
    LineCleared,
    TurnConfirmed,
    CivPhaseStarted,
    CivSlotStarted,
    RoundEnded,
    CivCardsRevealed,
    EndGameTurnStarted,
    GameEnded,
    SeatForfeited,
    EventDeckMixed,
    EventDeckShuffled,
    ObjectiveDeckStacked,
    PrivateObjectivesDealt,
    ObjectiveRejected,
    SetupDealt,
    SetupChosen,
    SetupRevealed,
    FluxChosen,
    LifepodMoved,
    HeightClaimed,
    SharedObjectiveDrawn,
    SharedObjectiveChosen,
    PowerUsed,
    ObjectiveDrawn,
    PrivateObjectivesRevealed,
    EventRevealed,
    EventResolved,
    CivPilesChanged,
    TrackRegressed,
    AlternativePicked,
    StationTurned,
    MeteoriteLanded,
    MeteoriteCollected,
    RoverDestroyed,
    LifepodDestroyed,
    StackEmptied,
    NextEventPeeked,
)
