"""The events of Planet Unknown, named in the past tense.

Payloads hold squares as ints (``row * 12 + col``), tracks as terrain names and
pending benefits by their index in the seat's pending list at the time.

An event whose effect the rules decide carries that outcome in named fields, filled by the decide side
(:func:`.outcomes.record`) from the state before it, so that folding it (:func:`.fold.evolve`) only copies
what the event holds: ``gains`` are the benefits added to the seat's pending ones, ``moves`` the rover
movement gained (or spent), ``position`` a tracker's new space, and so on. Games stored under rules
``planet-unknown-3`` to ``-5`` hold no outcomes: those fields are None ("not recorded") and
:func:`.upcast.upcast` completes such an event from the state before it.
"""

from __future__ import annotations

import dataclasses

from domain.contract import PUBLIC, Event, Visibility, event_types

from .corporation_state import CorporationState
from .data import Terrain
from .model import Benefit
from .module_events import (
    AlternativePicked,
    CivPilesChanged,
    EventDeckMixed,
    EventDeckShuffled,
    EventResolved,
    EventRevealed,
    FluxChosen,
    HeightClaimed,
    LifepodDestroyed,
    LifepodMoved,
    MeteoriteCollected,
    MeteoriteLanded,
    NextEventPeeked,
    ObjectiveDeckStacked,
    ObjectiveDrawn,
    ObjectiveRejected,
    PowerUsed,
    PrivateObjectivesDealt,
    PrivateObjectivesRevealed,
    RoverDestroyed,
    SetupChosen,
    SetupDealt,
    SetupRevealed,
    SharedObjectiveChosen,
    SharedObjectiveDrawn,
    StackEmptied,
    StationTurned,
    TrackRegressed,
)
from .powers import Piece

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
    """A new round; ``powers_freed``: once-per-round powers are free again (the ``once_per_round`` ruling)."""

    round: int
    powers_freed: bool | None = None


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
    """The tile phase (a reset point, see :class:`CivSlotStarted`): ``moves`` per seat, the rover movement
    of its round-start bonuses (Horizon Group tech 2, Flux Industries tech 1), and per seat the
    ``corporation_states`` they changed (see :class:`TrackAdvanced`)."""

    moves: tuple[int, ...] | None = None
    powers_freed: bool | None = None
    corporation_states: tuple[CorporationState | None, ...] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class TilePlaced(Event):
    """A tile taken from a stack top (or for a ``place`` benefit at ``pending``) and placed: ``gains``
    what its icons and the corporation give (a ``select`` under events 104/108, a deployment under event
    65), ``meteorites`` those its meteor symbols bring."""

    seat: int
    tile: int
    anchor: int
    rotation: int
    flip: bool
    pending: int | None = None
    gains: tuple[Benefit, ...] | None = None
    meteorites: frozenset[int] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class TileTaken(Event):
    """A tile taken without being placed, because neither offered tile fits; ``gains``: its advances."""

    seat: int
    tile: int
    gains: tuple[Benefit, ...] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class TrackAdvanced(Event):
    """One space up, resolving the pending benefit ``pending`` (None: a further step of the same one
    or a card's raise); ``synergy`` False when the space's synergy boosts are not claimed,
    ``benefits`` False when nothing printed on the space is claimed (event 68); Makeshift: ``lane`` the
    track the tracker moves onto (diagonally, or sideways with ``side``).

    Outcome: the tracker's ``position`` after (unchanged when it cannot advance), the ``gains`` of the
    space, the rover ``moves`` gained, the civ ranks ``queued`` for the seat's civ-card slot, and the
    ``corporation_state`` after (Makeshift's lanes), as every event whose corporation hooks may change it
    records it: None when unchanged, and only what every seat may see (:func:`.corporation_state.public`)."""

    seat: int
    track: Terrain
    pending: int | None
    synergy: bool = True
    benefits: bool = True
    lane: str = ""
    side: bool = False
    position: int | None = None
    gains: tuple[Benefit, ...] | None = None
    moves: int | None = None
    queued: tuple[int, ...] | None = None
    corporation_state: CorporationState | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class BenefitLost(Event):
    """A pending benefit that cannot be used is dropped."""

    seat: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoverDeployed(Event):
    """A garage rover put on ``square``. Outcome, as for every rover's arrival: the pieces it
    ``collected`` there, the planet's ``meteorites`` after (Horizon Group carries them), the ``gains``
    of the collection and the ``corporation_state`` (see :class:`TrackAdvanced`)."""

    seat: int
    rover: int
    square: int
    pending: int
    collected: tuple[Piece, ...] | None = None
    meteorites: frozenset[int] | None = None
    gains: tuple[Benefit, ...] | None = None
    corporation_state: CorporationState | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class RoverMoved(Event):
    """One step of rover movement, spending ``moves``; its arrival as for :class:`RoverDeployed`."""

    seat: int
    rover: int
    square: int
    moves: int | None = None
    collected: tuple[Piece, ...] | None = None
    meteorites: frozenset[int] | None = None
    gains: tuple[Benefit, ...] | None = None
    corporation_state: CorporationState | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class RoverTeleported(Event):
    """A rover moved to ``square`` at once; its arrival as for :class:`RoverDeployed`."""

    seat: int
    rover: int
    square: int
    pending: int
    collected: tuple[Piece, ...] | None = None
    meteorites: frozenset[int] | None = None
    gains: tuple[Benefit, ...] | None = None
    corporation_state: CorporationState | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class PatchPlaced(Event):
    """A biomass patch placed; ``gains`` and ``powers_used``: what the corporation adds (Wormhole Corp. tech 3:
    a second patch, once per round) and the ``corporation_state`` (see :class:`TrackAdvanced`)."""

    seat: int
    square: int
    pending: int
    gains: tuple[Benefit, ...] | None = None
    powers_used: tuple[int, ...] | None = None
    corporation_state: CorporationState | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class PatchStored(Event):
    """A biomass patch kept for the end of the game; its outcome as for :class:`PatchPlaced`."""

    seat: int
    pending: int
    gains: tuple[Benefit, ...] | None = None
    powers_used: tuple[int, ...] | None = None
    corporation_state: CorporationState | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class CivCardTaken(Event):
    """A civ card picked from the rank pile; only its owner sees which, and what an immediate card gives
    (``gains``, rover ``moves``)."""

    seat: int
    rank: int
    card: int
    pending: int
    gains: tuple[Benefit, ...] | None = None
    moves: int | None = None

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
    """A lifepod collected from anywhere on the planet; ``gains``: what the corporation gives for it."""

    seat: int
    square: int
    pending: int
    gains: tuple[Benefit, ...] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class MeteoriteDestroyed(Event):
    seat: int
    square: int
    pending: int


@dataclasses.dataclass(frozen=True, slots=True)
class LineCleared(Event):
    """Every meteorite of a row (``line`` 0-11) or column (``line`` 12-23) destroyed: those ``destroyed``."""

    seat: int
    line: int
    pending: int
    destroyed: frozenset[int] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class TurnConfirmed(Event):
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class CivPhaseStarted(Event):
    order: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class CivSlotStarted(Event):
    """A seat's civ-card slot: ``gains`` its civ picks. Rules 3-4 also made it a reset point (BGA):
    ``powers_freed`` (once-per-round powers free again), the ``moves`` of the round-start bonuses and the
    ``corporation_state`` they changed (see :class:`TrackAdvanced`)."""

    seat: int
    gains: tuple[Benefit, ...] | None = None
    moves: int | None = None
    powers_freed: bool | None = None
    corporation_state: CorporationState | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    commander: int


@dataclasses.dataclass(frozen=True, slots=True)
class CivCardsRevealed(Event):
    """Every seat's civ cards, face up at the end of the game."""

    hands: tuple[tuple[int, ...], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class EndGameTurnStarted(Event):
    """The end-game turn, per seat: ``gains`` (stored patches, the corporation's end-game gains, one advance
    per medals-and-advance civ card in ``end_cards``) and the ``moves`` of the reset point (as
    :class:`CivSlotStarted`) with the ``corporation_states`` it changed. Naming civ cards a seat may not have
    revealed yet, it is then read by nobody until the end (the payload was empty before it carried its
    outcome)."""

    gains: tuple[tuple[Benefit, ...], ...] | None = None
    moves: tuple[int, ...] | None = None
    powers_freed: bool | None = None
    end_cards: tuple[tuple[int, ...], ...] | None = None
    corporation_states: tuple[CorporationState | None, ...] | None = None

    def visibility(self) -> Visibility:
        if self.end_cards and any(self.end_cards):
            return Visibility(HIDDEN_FROM_ALL, {})
        return PUBLIC


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
