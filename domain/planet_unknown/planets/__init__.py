"""The planets with their rules, one module each; :func:`planet_rules` finds a seat's."""

from __future__ import annotations

from ..model import Seat
from .arashi import Arashi
from .base import PlanetRules
from .cerberus import Cerberus
from .charybdis import Charybdis
from .gaia import Gaia
from .k_273 import K273
from .kaax import Kaax
from .ksb_4156 import Ksb4156
from .lacuna import Lacuna
from .oblivion import Oblivion
from .pajitnov import Pajitnov
from .persephone import Persephone
from .petra import Petra
from .tartarus import Tartarus

PLANET_RULES: dict[str, PlanetRules] = {
    p.slug: p
    for p in (
        Ksb4156(),
        Arashi(),
        Cerberus(),
        Charybdis(),
        Gaia(),
        K273(),
        Kaax(),
        Lacuna(),
        Oblivion(),
        Pajitnov(),
        Persephone(),
        Petra(),
        Tartarus(),
    )
}
"""Every planet that can be played, by slug."""


def planet_rules(seat: Seat) -> PlanetRules:
    """The rules of the seat's planet."""
    return PLANET_RULES[seat.planet]


__all__ = ["PLANET_RULES", "PlanetRules", "planet_rules"]
