"""Corporation boards and their tech powers.

The rules ask a seat's :class:`Corporation` whenever a power could change them, so an
asymmetric corporation is one more subclass registered in :data:`CORPORATIONS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .data import TRACKS, Space, Terrain, tracks
from .model import Seat

STANDARD = "universal-coalition"


class Corporation:
    """A corporation with the standard tracks and no tech powers; subclasses add powers."""

    slug = ""
    rovers = 2

    def tracks(self) -> Mapping[Terrain, tuple[Space, ...]]:
        """The spaces of each track, positions 0-15."""
        return tracks()

    def tech_level(self, seat: Seat) -> int:
        """How many tech milestones lie at or below the tech tracker."""
        position = seat.track(Terrain.TECH)
        return sum(1 for space in self.tracks()[Terrain.TECH][1 : position + 1] if space.tech_level)

    def ignores_adjacency(self, seat: Seat) -> bool:
        """Whether tiles and patches may go anywhere free, not only next to what is placed."""
        return False

    def ignores_edge(self, seat: Seat, options: Mapping[str, Any]) -> bool:
        """Whether the first tile or patch may miss the edge."""
        return False

    def may_store_patches(self, seat: Seat) -> bool:
        """Whether a gained biomass patch may be kept for the end of the game."""
        return False

    def rover_bonus(self, seat: Seat) -> int:
        """Extra movement added to each rover movement gained from the rover track."""
        return 0

    def water_advances(self, seat: Seat) -> int:
        """Water advances for a placed tile with a water icon and a water square on ice."""
        return 1

    def meteor_symbols_land(self, seat: Seat) -> bool:
        """Whether a placed tile's meteor symbol brings a meteorite."""
        return True


class UniversalCoalition(Corporation):
    """The symmetric corporation: standard tracks and five cumulative tech levels.

    1 ignore adjacency (and, by default as in BGA, the edge rule); 2 store patches;
    3 +1 to rover movement from the track; 4 double water from placed tiles;
    5 meteor symbols bring no meteorite.
    """

    slug = STANDARD

    def ignores_adjacency(self, seat: Seat) -> bool:
        return self.tech_level(seat) >= 1

    def ignores_edge(self, seat: Seat, options: Mapping[str, Any]) -> bool:
        return self.tech_level(seat) >= 1 and bool(options.get("uc_tech1_waives_edge", True))

    def may_store_patches(self, seat: Seat) -> bool:
        return self.tech_level(seat) >= 2

    def rover_bonus(self, seat: Seat) -> int:
        return 1 if self.tech_level(seat) >= 3 else 0

    def water_advances(self, seat: Seat) -> int:
        return 2 if self.tech_level(seat) >= 4 else 1

    def meteor_symbols_land(self, seat: Seat) -> bool:
        return self.tech_level(seat) < 5


CORPORATIONS: dict[str, Corporation] = {STANDARD: UniversalCoalition()}


def corporation(seat: Seat) -> Corporation:
    """The corporation board of a seat."""
    return CORPORATIONS[seat.corporation]


def tech_level(seat: Seat) -> int:
    """The seat's tech level (0-5)."""
    return corporation(seat).tech_level(seat)


def medals(seat: Seat) -> dict[str, int]:
    """Per track, the highest medal at or below its tracker."""
    spaces = corporation(seat).tracks()
    return {str(t): max(space.medal for space in spaces[t][: seat.track(t) + 1]) for t in TRACKS}
