"""Corporation boards and their tech powers.

The rules ask a seat's :class:`Corporation` whenever a power could change them, so an
asymmetric corporation is one more subclass registered in :data:`CORPORATIONS`.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any, NamedTuple

from .corporation_state import CorporationState
from .data import TOP, TRACKS, Space, Terrain, tracks
from .model import Benefit, Seat

STANDARD = "universal-coalition"


class TilePlacement(enum.Enum):
    """What a corporation says about placing a tile."""

    CHECKED = "checked"
    """Every placement check applies."""
    FREE = "free"
    """Any free grid squares, skipping every other placement check."""
    REFUSED = "refused"
    """Not now."""


class PatchRules(NamedTuple):
    """Where a seat's gained biomass patches may go besides free squares next to what is placed."""

    on_tiles: bool = False
    """On tile squares."""
    on_meteorites: bool = False
    """On tile squares with a meteorite too (destroying it)."""
    stored: bool = False
    """Kept for the end of the game."""


class Piece(enum.StrEnum):
    """The pieces a seat collects from its planet."""

    LIFEPOD = "lifepod"
    METEORITE = "meteorite"


class Corporation:
    """A corporation with the standard tracks and no tech powers; subclasses add powers."""

    slug = ""
    rovers = 2
    acts_while_choosing = False
    """Whether a ``power`` move exists while the seat chooses its tile (then ``actions`` gets the placeable tiles)."""
    setup_tracks: tuple[Terrain, ...] = ()
    """The tracks a seat taking the corporation names at setup (``setup <planet> <corporation> <track>``;
    Flux Industries: its flux track); empty when it names none."""
    synergy_powers: frozenset[int] = frozenset()
    """The tech levels whose ``power`` makes or doubles a synergy boost (blocked by event 122)."""

    def tracks(self) -> Mapping[Terrain, tuple[Space, ...]]:
        """The spaces of each track, positions 0-15."""
        return tracks()

    def initial_state(self, track: Terrain | None = None) -> CorporationState | None:
        """The corporation's own state on a new seat (``track``: the one named at setup, if any)."""
        return None

    def lifepod_moved(self, seat: Seat, origin: str, target: str) -> Seat:
        """The seat after a collected lifepod moved from ``origin`` to ``target`` (a track space or a tech slot:
        Cosmos Inc., Jump Drive); its ``ev.LifepodMoved`` records the corporation's state it leads to
        (:mod:`.outcomes`)."""
        raise AssertionError(f"{self.slug} keeps no lifepods on {target}")

    def board_fields(self, seat: Seat) -> list[str]:
        """The notation fields of the corporation board (:func:`.notation.print_seat`): the once-per-game
        powers used, and the corporation's own state as everyone sees it (what only the seat sees, like
        Jump Drive's drawn objectives, goes on the seat's turn line of :func:`.notation.print_state`)."""
        return ["once:" + ",".join(str(level) for level in seat.once_used)] if seat.once_used else []

    def read_board_field(self, seat: Seat, key: str, value: str) -> Seat | None:
        """The seat with the notation field ``key:value`` of :meth:`board_fields` read, or None for a key
        the corporation board does not have; raises ValueError for a bad value."""
        if key == "once":
            return dataclasses.replace(seat, once_used=tuple(int(level) for level in value.split(",") if level))
        return None

    def drawn_objectives(self, seat: Seat) -> tuple[int, ...]:
        """The objective cards the corporation's state holds, seen by the seat only (Jump Drive tech F:
        the cards drawn, one to ``keep``)."""
        return ()

    def with_drawn_objectives(self, seat: Seat, cards: tuple[int, ...]) -> Seat:
        """The seat holding ``cards`` instead of its :meth:`drawn_objectives` (stand-ins, in another seat's view)."""
        assert not cards, f"{self.slug} holds no objective cards"
        return seat

    def view_fields(self, seat: Seat) -> dict[str, Any]:
        """The corporation's own state as the seat's view shows it (JSON)."""
        return {}

    def top(self, track: Terrain) -> int:
        """The highest position of a tracker on ``track``."""
        return TOP

    def spaces(self, track: Terrain) -> tuple[Space, ...]:
        """The spaces the tracker of ``track`` moves along (Oasis: its water path)."""
        return self.tracks()[track]

    def can_advance(self, seat: Seat, track: Terrain) -> bool:
        """Whether the tracker of ``track`` can advance (the rover tracker always can)."""
        return track is Terrain.ROVER or seat.track(track) < self.top(track)

    def water_count(self, seat: Seat, cells: Mapping[int, Any], ice: frozenset[int]) -> int:
        """Water advances for a placed tile's water icon (``cells``: square -> TileSquare)."""
        return 1 if any(c.terrain is Terrain.WATER and s in ice for s, c in cells.items()) else 0

    def placement_extras(
        self, seat: Seat, cells: Mapping[int, Any], ice: frozenset[int], synergy: bool
    ) -> tuple[Benefit, ...]:
        """What placing a tile gives besides its icons (``synergy``: not blocked by an event)."""
        return ()

    def next_position(self, seat: Seat, track: Terrain, position: int) -> int:
        """Where one advance from ``position`` goes (at most the top)."""
        return min(TOP, position + 1)

    def regress_room(self, seat: Seat, track: Terrain) -> int:
        """How many single regressions the tracker of ``track`` can make."""
        return seat.track(track)

    def regress_to(self, seat: Seat, track: Terrain, steps: int) -> int:
        """Where the tracker of ``track`` lands after regressing ``steps`` times."""
        return seat.track(track) - steps

    def arrival_gains(
        self, seat: Seat, track: Terrain, position: int, milestones: bool, synergy: bool
    ) -> tuple[Benefit, ...] | None:
        """What arriving on ``position`` gives instead of the printed space, or None for the printed space
        (``milestones``/``synergy``: not blocked)."""
        return None

    def space_at(self, seat: Seat, track: Terrain, position: int) -> Space:
        """The space the seat's tracker of ``track`` reaches at ``position`` (Flux tech 3: improved)."""
        return self.spaces(track)[position]

    def arrival_extras(
        self, seat: Seat, track: Terrain, space: Space, milestones: bool, synergy: bool
    ) -> tuple[Benefit, ...]:
        """What arriving on ``space`` gives besides the printed space, after it (``milestones``/``synergy``:
        not blocked by an event)."""
        return ()

    def collection_gains(self, seat: Seat, piece: Piece) -> tuple[Benefit, ...]:
        """What collecting one ``piece`` gives besides the piece."""
        return ()

    def scored_lifepods(self, seat: Seat) -> int:
        """The collected lifepods that score (Cosmos Inc.: those left in the scoring area)."""
        return seat.lifepods_collected

    def track_medal(self, seat: Seat, track: Terrain) -> int:
        """The highest medal at or below the tracker of ``track``."""
        return max(space.medal for space in self.spaces(track)[: seat.track(track) + 1])

    def lifepod_moves(self, seat: Seat, benefit: Benefit) -> list[tuple[str, str]]:
        """The (origin, target) spots a pending ``lifepod`` benefit allows (Cosmos Inc., Jump Drive); moving
        one is an ``ev.LifepodMoved`` (see :meth:`lifepod_moved`)."""
        return []

    def routes(self, seat: Seat, track: Terrain) -> list[tuple[Terrain | None, bool]]:
        """The ways the tracker of ``track`` may advance: (lane, sideways); (None, False) is straight up."""
        return [(None, False)]

    def enter_lane(self, seat: Seat, track: Terrain, lane: Terrain, side: bool) -> Seat:
        """Makeshift: the seat with the tracker of ``track`` moved onto ``lane`` before advancing
        (one space lower when ``side``, so that its advance lands at the same height)."""
        raise AssertionError(f"{self.slug} trackers stay on their tracks")

    def tech_as_energy(self, seat: Seat) -> bool:
        """Whether a placed tech icon is resolved as an energy icon from the tile's tech squares."""
        return False

    def rover_reach(self, seat: Seat, start: int) -> tuple[frozenset[int], frozenset[int]]:
        """Squares a rover on ``start`` may reach for one movement besides its orthogonal neighbours: steps
        (the planet's rules apply) and jumps (they do not)."""
        return frozenset(), frozenset()

    def icon_extras(self, seat: Seat, terrain: Terrain) -> tuple[Benefit, ...]:
        """What a placed tile's ``terrain`` icon gives besides its advance (part of the events 104/108 choice)."""
        return ()

    def icon_advances(self, before: Seat, after: Seat, icon: Terrain, track: Terrain) -> bool:
        """Whether a placed tile's ``icon`` may advance ``track`` (``before``/``after`` placing): an energy
        icon the track chosen for it, any other icon its own track."""
        return True

    def patch_rules(self, seat: Seat) -> PatchRules:
        """Where the seat's gained biomass patches may go."""
        return PatchRules()

    def patch_used(self, seat: Seat) -> Seat:
        """The seat after placing or storing a gained patch (Wormhole tech 3 doubles one per round)."""
        return seat

    def tech_level(self, seat: Seat) -> int:
        """How many tech milestones lie at or below the tech tracker."""
        position = seat.track(Terrain.TECH)
        return sum(1 for space in self.tracks()[Terrain.TECH][1 : position + 1] if space.tech_level)

    def contact_waived(self, seat: Seat, first: bool, options: Mapping[str, Any]) -> bool:
        """Whether a tile or patch may go on any free squares: the ``first`` one missing the edge, a later
        one touching nothing placed (``options``: the game's)."""
        return False

    def rover_bonus(self, seat: Seat) -> int:
        """Extra movement added to each rover movement gained from the rover track."""
        return 0

    def meteor_symbols_land(self, seat: Seat) -> bool:
        """Whether a placed tile's meteor symbol brings a meteorite."""
        return True

    def tile_placement(self, seat: Seat, tile: int) -> TilePlacement:
        """How the seat may place ``tile`` now: with the usual checks, on any free grid squares (Horizon
        Group tech 1), or not at all (Republic tech 1: only a civ tile)."""
        return TilePlacement.CHECKED

    def rover_entry(self, seat: Seat, start: int, end: int) -> int | None:
        """The movement a rover on ``start`` spends to step onto ``end``, or None when the corporation's own
        limits bar it from entering ``end`` (by a step or a teleport)."""
        return 1

    def rover_arrives(self, seat: Seat, start: int | None, square: int) -> Seat:
        """A rover arrived on ``square`` (from ``start``; None when deployed): it collects the
        lifepod and the meteorite there."""
        changes: dict[str, Any] = {}
        gains: tuple[Benefit, ...] = ()
        if square in seat.meteorites:
            changes.update(meteorites=seat.meteorites - {square}, meteorites_collected=seat.meteorites_collected + 1)
            gains = self.collection_gains(seat, Piece.METEORITE)
        if square in seat.lifepods:
            changes.update(lifepods=seat.lifepods - {square}, lifepods_collected=seat.lifepods_collected + 1)
            gains += self.collection_gains(seat, Piece.LIFEPOD)
        if gains:
            changes["pending"] = seat.pending + gains
        return dataclasses.replace(seat, **changes) if changes else seat

    def round_start(self, seat: Seat) -> Seat:
        """The seat at a reset point (tile phase, its civ-card slot, the end-game turn): once-per-round
        powers are available again; round-start bonuses are gained (:meth:`round_bonus`)."""
        return self.round_bonus(dataclasses.replace(seat, powers_used=()) if seat.powers_used else seat)

    def round_bonus(self, seat: Seat) -> Seat:
        """The seat with its round-start bonuses (Horizon Group tech 2, Flux Industries tech 1)."""
        return seat

    def actions(self, seat: Seat, placeable: tuple[int, ...]) -> tuple[int, ...]:
        """The tech levels whose power the seat may use now as a ``power`` move (``placeable``: the
        depot tiles the seat could place, while it is choosing its tile)."""
        return ()

    def use_action(self, seat: Seat, level: int) -> Seat:
        """The seat after using the power of ``level`` (marked used by the caller)."""
        raise AssertionError(f"{self.slug} has no tech {level} action")

    def extra_civ_choices(self, seat: Seat, rank: int, piles: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
        """Cards a seat picking from the rank ``rank`` pile may take besides that pile."""
        return ()

    def end_game_gains(self, seat: Seat) -> tuple[Benefit, ...]:
        """What the corporation gives in the end-game turn."""
        return ()


class UniversalCoalition(Corporation):
    """The symmetric corporation: standard tracks and five cumulative tech levels.

    1 ignore adjacency (and, by default as in BGA, the edge rule); 2 store patches;
    3 +1 to rover movement from the track; 4 double water from placed tiles;
    5 meteor symbols bring no meteorite.
    """

    slug = STANDARD

    def contact_waived(self, seat: Seat, first: bool, options: Mapping[str, Any]) -> bool:
        return self.tech_level(seat) >= 1 and (not first or bool(options.get("uc_tech1_waives_edge", True)))

    def patch_rules(self, seat: Seat) -> PatchRules:
        return PatchRules(stored=self.tech_level(seat) >= 2)

    def rover_bonus(self, seat: Seat) -> int:
        return 1 if self.tech_level(seat) >= 3 else 0

    def water_count(self, seat: Seat, cells: Mapping[int, Any], ice: frozenset[int]) -> int:
        return super().water_count(seat, cells, ice) * (2 if self.tech_level(seat) >= 4 else 1)

    def meteor_symbols_land(self, seat: Seat) -> bool:
        return self.tech_level(seat) < 5


CORPORATIONS: dict[str, Corporation] = {STANDARD: UniversalCoalition()}
"""Every corporation with rules, by slug (the asymmetric ones register themselves from :mod:`.corporations`)."""


def register(corp: Corporation) -> Corporation:
    """Add a corporation to :data:`CORPORATIONS`."""
    CORPORATIONS[corp.slug] = corp
    return corp


def corporation(seat: Seat) -> Corporation:
    """The corporation board of a seat."""
    return CORPORATIONS[seat.corporation]


def tech_level(seat: Seat) -> int:
    """The seat's tech level (0-5)."""
    return corporation(seat).tech_level(seat)


def medals(seat: Seat) -> dict[str, int]:
    """Per track, the highest medal at or below its tracker."""
    corp = corporation(seat)
    return {str(t): corp.track_medal(seat, t) for t in TRACKS}
