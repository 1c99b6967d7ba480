"""Planet Unknown: the rules of the game as Board Game Arena plays them.

``GAME`` implements :class:`domain.contract.Game`; the service registers it. Importing the
package registers the asymmetric corporations (:mod:`.corporations`).
"""

from . import corporations
from .game import PlanetUnknown, PlanetUnknown3, PlanetUnknown4, PlanetUnknown5

GAME = PlanetUnknown()
PREVIOUS_VERSIONS: tuple[PlanetUnknown, ...] = (PlanetUnknown5(), PlanetUnknown4(), PlanetUnknown3())
"""The games of earlier rules versions that stored games still use (see "Rules versions" in the README)."""

__all__ = ["GAME", "PREVIOUS_VERSIONS", "PlanetUnknown", "corporations"]
