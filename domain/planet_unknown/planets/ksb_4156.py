"""KSB-4156, the symmetric planet: its printed grid is all there is."""

from __future__ import annotations

from .base import PlanetRules


class Ksb4156(PlanetRules):
    """The symmetric planet: no rules beyond the grid, the ice and the edge."""

    slug = "ksb-4156"
