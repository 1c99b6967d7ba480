"""Oblivion: a planet with no centre; its whole rule is data."""

from __future__ import annotations

from .base import PlanetRules


class Oblivion(PlanetRules):
    """The centre has no grid squares, so rows and columns are complete when their existing
    squares are covered; only the outer frame is the edge (the ``edge`` list). No code needed."""

    slug = "oblivion"
