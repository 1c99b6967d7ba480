"""Arashi: rows 6 and 7 are a ring that tiles may only reach from the planet."""

from __future__ import annotations

import functools

from ..board import mask_of
from ..model import Seat
from .base import PlanetRules


class Arashi(PlanetRules):
    """A tile covering a ring square must also cover a square off the ring, so a patch never
    goes on the ring. Ring squares are not ice (data)."""

    slug = "arashi"

    @functools.cached_property
    def ring(self) -> int:
        """The ring squares as a mask."""
        return mask_of(self.planet.squares_lettered("R"))

    def allows_tile(self, seat: Seat, tile: int, anchor: int, rotation: int, flip: bool, mask: int) -> bool:
        return not mask & self.ring or bool(mask & ~self.ring)

    def allows_patch(self, seat: Seat, square: int) -> bool:
        return not (1 << square) & self.ring
