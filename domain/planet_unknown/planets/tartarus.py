"""Tartarus: a chasm splits the planet; tiles and rover steps stay on one side."""

from __future__ import annotations

import functools

from ..board import mask_of
from ..data import SIZE
from ..model import Seat
from .base import PlanetRules


class Tartarus(PlanetRules):
    """A tile covers squares of one side only (``sides``: 0 west, 1 east); a rover step never
    crosses the chasm except by the two diagonal crossing points (``diagonal_crossings``), which
    need diagonal movement (Cosmos Inc. tech 1); teleports ignore the chasm."""

    slug = "tartarus"

    @functools.cached_property
    def west(self) -> int:
        """The west side as a mask."""
        sides = self.planet.mechanics["sides"]
        return mask_of(r * SIZE + c for r in range(SIZE) for c in range(SIZE) if sides[r][c] == "0")

    def allows_tile(self, seat: Seat, tile: int, anchor: int, rotation: int, flip: bool, mask: int) -> bool:
        return not mask & self.west or not mask & ~self.west

    @functools.cached_property
    def crossings(self) -> frozenset[frozenset[int]]:
        """The diagonal steps across the chasm, as unordered pairs of squares."""
        pairs = self.planet.mechanics["diagonal_crossings"]
        return frozenset(frozenset(r * SIZE + c for r, c in pair) for pair in pairs)

    def rover_may_step(self, seat: Seat, start: int, end: int) -> bool:
        same_side = bool(self.west >> start & 1) == bool(self.west >> end & 1)
        return same_side or frozenset((start, end)) in self.crossings
