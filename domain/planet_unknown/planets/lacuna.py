"""Lacuna: fifteen holes; its whole rule is data."""

from __future__ import annotations

from .base import PlanetRules


class Lacuna(PlanetRules):
    """Holes (``o``) are not grid squares: no tile covers them, rows and columns ignore them,
    rovers cannot enter them, and a square next to a hole is not on the edge (the ``edge``
    list). No code needed."""

    slug = "lacuna"
