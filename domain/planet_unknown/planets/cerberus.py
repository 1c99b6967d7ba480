"""Cerberus: three sub-planets, each worth medals when wholly covered."""

from __future__ import annotations

from ..data import SIZE
from ..model import Seat
from .base import PlanetRules


class Cerberus(PlanetRules):
    """Each of the three sub-planets whose squares are all covered scores 2 medals. We check the
    whole printed regions (``cells``), not BGA's end-exclusive bounds (a probable bug)."""

    slug = "cerberus"

    def bonus_medals(self, seat: Seat) -> int:
        m = self.planet.mechanics
        full = sum(
            1 for region in m["sub_planets"].values() if all(seat.cover[r * SIZE + c] for r, c in region["cells"])
        )
        return full * int(m["bonus_per_sub_planet"])
