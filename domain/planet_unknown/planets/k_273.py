"""K-273: a tile lies wholly on ice or wholly on land."""

from __future__ import annotations

import functools

from ..board import mask_of
from ..model import Seat
from .base import PlanetRules


class K273(PlanetRules):
    """Every covered square of a tile is planet ice, or none is (lifepod squares are land).
    A patch covers one square and always passes."""

    slug = "k-273"

    @functools.cached_property
    def ice(self) -> int:
        """The ice squares as a mask."""
        return mask_of(self.planet.ice)

    def allows_tile(self, seat: Seat, tile: int, anchor: int, rotation: int, flip: bool, mask: int) -> bool:
        return not mask & self.ice or not mask & ~self.ice
