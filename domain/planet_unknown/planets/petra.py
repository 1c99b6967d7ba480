"""Petra: uncovered electric currents act as energy terrain."""

from __future__ import annotations

import functools

from ..model import Seat
from .base import PlanetRules


class Petra(PlanetRules):
    """Uncovered currents (``E``) join energy areas when an energy icon is resolved, count as
    filled for rows and columns, as covered land for Coveralls and as energy for the energy
    rectangles; not for area objectives, the tie-breaker or event 99. No ice (data)."""

    slug = "petra"

    @functools.cached_property
    def printed_currents(self) -> frozenset[int]:
        """The current squares."""
        return self.planet.squares_lettered("E")

    def currents(self, seat: Seat) -> frozenset[int]:
        return frozenset(s for s in self.printed_currents if not seat.cover[s])
