"""Persephone: each quadrant bans one resource icon."""

from __future__ import annotations

import functools
import re

from ..data import SIZE, Terrain
from ..model import Seat
from .base import PlanetRules, cells_of

_BOUNDS = re.compile(r"rows (\d+)-(\d+), cols (\d+)-(\d+)")


class Persephone(PlanetRules):
    """No resource icon of a tile may lie in the quadrant that bans it (top left civ, top right
    energy, bottom left tech, bottom right water); the terrain alone is fine. Patches have no icon."""

    slug = "persephone"

    @functools.cached_property
    def banned(self) -> dict[int, Terrain]:
        """Per square, the icon its quadrant bans."""
        out = {}
        for where, icon in self.planet.mechanics["quadrants"].items():
            match = _BOUNDS.search(where)
            assert match is not None
            r0, r1, c0, c1 = (int(x) for x in match.groups())
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    out[r * SIZE + c] = Terrain(icon)
        return out

    def allows_tile(self, seat: Seat, tile: int, anchor: int, rotation: int, flip: bool, mask: int) -> bool:
        cells = cells_of(tile, anchor, rotation, flip)
        return not any(cell.icon and self.banned.get(square) is cell.terrain for square, cell in cells.items())
