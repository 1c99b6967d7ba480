"""The game state: frozen dataclasses, replaced (never mutated) by :func:`.rules.evolve`."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from .data import TRACKS, Terrain

GARAGE = -1
DESTROYED = -2


class Phase(enum.StrEnum):
    """Where the round stands (BGA: rotation, tile engine, civ-card slots, end-game turn)."""

    SETUP = "setup"
    INTERLUDE = "interlude"
    ROTATION = "rotation"
    DRAFT = "draft"
    CIV = "civ"
    END_GAME = "end_game"
    OVER = "over"


class Stage(enum.StrEnum):
    """What a seat is doing within the current phase."""

    IDLE = "idle"
    CHOOSING = "choosing"
    RESOLVING = "resolving"
    DONE = "done"


class Kind(enum.StrEnum):
    """Kinds of pending benefit."""

    ADVANCE = "advance"
    CHOOSE = "choose"
    DEPLOY = "deploy"
    PATCH = "patch"
    CIV = "civ"
    COLLECT = "collect"
    DESTROY = "destroy"
    CLEAR = "clear"
    TELEPORT = "teleport"
    PLACE = "place"


OPTIONAL = frozenset({Kind.COLLECT, Kind.DESTROY, Kind.CLEAR, Kind.TELEPORT})
"""Benefits a player may leave unused; confirming discards them (like unused rover movement)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Benefit:
    """A benefit waiting for its owner to resolve it.

    ``advance``: advance ``track`` once. ``choose``: advance ``count`` different tracks
    among ``options`` (all five when empty), ``steps`` spaces each, ``source`` says why
    (energy, synergy, card, end). ``deploy``: put a garage rover on the last tile.
    ``patch``: place (or store) a biomass patch; ``final`` patches must be placed.
    ``civ``: take a civ card of ``rank``. ``collect``/``destroy``: up to ``count``
    lifepods / meteorites anywhere. ``clear``: destroy the meteorites of a row or column.
    ``teleport``: move a rover to any square. ``place``: place a depot tile, with
    resources when ``resources``.
    """

    kind: Kind
    track: Terrain | None = None
    options: tuple[Terrain, ...] = ()
    count: int = 1
    steps: int = 1
    source: str = ""
    rank: int = 0
    resources: bool = True
    final: bool = False
    chosen: tuple[Terrain, ...] = ()
    shown: bool = False

    def describe(self) -> str:
        """A short description for views, e.g. ``choose energy: civ/water``."""
        k = self.kind
        if k is Kind.ADVANCE:
            return f"advance {self.track}"
        if k is Kind.CHOOSE:
            opts = "/".join(t.value for t in (self.options or TRACKS) if t not in self.chosen)
            extra = f" x{self.count}" if self.count > 1 else ""
            steps = f" {self.steps} spaces" if self.steps > 1 else ""
            return f"choose {self.source}{extra}{steps}: {opts}"
        if k is Kind.CIV:
            return f"civ card rank {self.rank}"
        if k in (Kind.COLLECT, Kind.DESTROY):
            return f"{k.value} up to {self.count}"
        if k is Kind.PLACE:
            return "place a depot tile" + ("" if self.resources else " without resources")
        if k is Kind.PATCH and self.final:
            return "place a stored patch"
        return k.value


@dataclasses.dataclass(frozen=True, slots=True)
class Seat:
    """One player's planet and corporation board.

    ``cover`` holds one letter per square: ``""`` uncovered, a terrain letter for a tile
    square (upper case when it carries the resource icon), ``p`` for a biomass patch.
    ``rovers`` holds each rover's square, or GARAGE / DESTROYED.
    """

    planet: str
    corporation: str
    cover: tuple[str, ...]
    covered: int
    lifepods: frozenset[int]
    meteorites: frozenset[int]
    rovers: tuple[int, ...]
    tracks: tuple[int, ...]
    lifepods_collected: int = 0
    meteorites_collected: int = 0
    placed: tuple[int, ...] = ()
    unplaced: tuple[int, ...] = ()
    last_tile: tuple[int, ...] = ()
    stored_patches: int = 0
    hand: tuple[int, ...] = ()
    civ_queue: tuple[int, ...] = ()
    pending: tuple[Benefit, ...] = ()
    moves: int = 0
    stage: Stage = Stage.IDLE
    end_cards_used: tuple[int, ...] = ()

    def track(self, terrain: Terrain) -> int:
        """The position of the tracker of ``terrain``."""
        return self.tracks[TRACKS.index(terrain)]


@dataclasses.dataclass(frozen=True, slots=True)
class State:
    """A whole game. ``stacks`` lists the 12 station stacks (outer 0-5, inner 6-11), top tile first;
    ``revealed[k]`` says whether stack k's top tile is face up."""

    players: int
    options: dict[str, Any] = dataclasses.field(hash=False, compare=False)
    seats: tuple[Seat, ...]
    phase: Phase = Phase.SETUP
    round: int = 0
    commander: int = 0
    rotation: int = 0
    offset: int = 0
    stacks: tuple[tuple[int, ...], ...] = ()
    revealed: tuple[bool, ...] = ()
    civ_piles: tuple[tuple[int, ...], ...] = ()
    civ_aside: tuple[int, ...] = ()
    objectives: tuple[int, ...] = ()
    civ_order: tuple[int, ...] = ()
    last_round: bool = False
    ending: bool = False
    shown_hands: tuple[tuple[int, ...], ...] | None = None
    forfeited: int | None = None

    def seat(self, index: int) -> Seat:
        return self.seats[index]
