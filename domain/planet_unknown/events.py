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
    or a card's raise); ``synergy`` False when the space's synergy boosts are not claimed."""

    seat: int
    track: Terrain
    pending: int | None
    synergy: bool = True


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
)
