"""Pajitnov: every tile must be able to slide into its spot."""

from __future__ import annotations

from ..board import FULL
from ..data import SIZE
from ..model import Seat
from .base import PlanetRules

_COL0 = sum(1 << (r * SIZE) for r in range(SIZE))
_COL11 = _COL0 << (SIZE - 1)


def shifts(mask: int) -> tuple[int, int, int, int]:
    """``mask`` moved one square up, down, left and right; squares leaving the frame are dropped."""
    return (
        mask >> SIZE,
        (mask << SIZE) & FULL,
        (mask & ~_COL0) >> 1,
        (mask & ~_COL11) << 1,
    )


class Pajitnov(PlanetRules):
    """A tile, shifted one square in at least one orthogonal direction, must overlap no tile or
    patch already placed (BGA's test of "slides into place"). Patches are exempt."""

    slug = "pajitnov"

    def allows_tile(self, seat: Seat, tile: int, anchor: int, rotation: int, flip: bool, mask: int) -> bool:
        return any(not shifted & seat.covered for shifted in shifts(mask))
