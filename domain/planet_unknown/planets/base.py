"""The hooks a planet may add to the core rules, and the registry of planets with rules.

The core asks the seat's :class:`PlanetRules` in five places: the squares a first
placement must include (:meth:`PlanetRules.first_mask`), whether a tile or a patch may
go somewhere (:meth:`PlanetRules.allows_tile`, :meth:`PlanetRules.allows_patch`), whether
a rover may step from one square to another (:meth:`PlanetRules.rover_may_step`), which
uncovered squares count as energy (:meth:`PlanetRules.currents`) and the planet's own
medals (:meth:`PlanetRules.bonus_medals`).
"""

from __future__ import annotations

from ..board import footprint
from ..data import Planet, TileSquare, planets
from ..model import Seat


class PlanetRules:
    """A planet with no rules beyond its printed grid (KSB-4156, Oblivion, Lacuna)."""

    slug = ""
    first_squares = "an edge square"
    """What the first placement must cover, for error messages."""

    @property
    def planet(self) -> Planet:
        """The printed board."""
        return planets()[self.slug]

    def first_mask(self) -> int:
        """The squares the first tile or patch must include (the edge)."""
        return self.planet.edge_mask

    def allows_tile(self, seat: Seat, tile: int, anchor: int, rotation: int, flip: bool, mask: int) -> bool:
        """Whether the planet lets a tile cover ``mask`` (already known to be free grid squares)."""
        return True

    def allows_patch(self, seat: Seat, square: int) -> bool:
        """Whether the planet lets a biomass patch go on ``square``."""
        return True

    def rover_may_step(self, seat: Seat, start: int, end: int) -> bool:
        """Whether a rover may take one step from ``start`` to the grid square ``end``."""
        return True

    def currents(self, seat: Seat) -> frozenset[int]:
        """Uncovered squares that count as energy terrain and as filled for rows and columns."""
        return frozenset()

    def bonus_medals(self, seat: Seat) -> int:
        """Medals the planet itself gives at the end, on top of rows and columns."""
        return 0


def cells_of(tile: int, anchor: int, rotation: int, flip: bool) -> dict[int, TileSquare]:
    """The squares of a placement that is known to fit the frame."""
    cells = footprint(tile, anchor, rotation, flip)
    assert cells is not None
    return cells
