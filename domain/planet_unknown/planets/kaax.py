"""K'Aax: rovers cannot enter uncovered toxic terrain."""

from __future__ import annotations

import functools

from ..model import Seat
from .base import PlanetRules


class Kaax(PlanetRules):
    """A rover step may not end on a toxic square (``T``) that no tile or patch covers.
    Teleports (Relocation Bonus) may, as in BGA."""

    slug = "kaax"

    @functools.cached_property
    def toxic(self) -> frozenset[int]:
        """The toxic squares."""
        return self.planet.squares_lettered("T")

    def rover_may_step(self, seat: Seat, start: int, end: int) -> bool:
        return end not in self.toxic or bool(seat.cover[end])
