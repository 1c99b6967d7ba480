"""Charybdis: the first placement starts in the whirlpool at the centre, not on the edge."""

from __future__ import annotations

from ..board import mask_of
from ..data import SIZE
from .base import PlanetRules


class Charybdis(PlanetRules):
    """The first tile or patch must cover one of the four centre squares (``first_placement_cells``)."""

    slug = "charybdis"
    first_squares = "one of the four centre squares"

    def first_mask(self) -> int:
        return mask_of(r * SIZE + c for r, c in self.planet.mechanics["first_placement_cells"])
