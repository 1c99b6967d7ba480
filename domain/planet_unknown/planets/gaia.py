"""Gaia: uncovered cities score."""

from __future__ import annotations

from ..data import SIZE
from ..model import Seat
from .base import PlanetRules


class Gaia(PlanetRules):
    """Each city square left uncovered at the end (a patch covers it) scores 2 medals."""

    slug = "gaia"

    def bonus_medals(self, seat: Seat) -> int:
        m = self.planet.mechanics
        uncovered = sum(1 for r, c in m["cities"] if not seat.cover[r * SIZE + c])
        return uncovered * int(m["medals_per_uncovered_city"])
