"""Planet Unknown: the rules of the game as Board Game Arena plays them.

``GAME`` implements :class:`domain.contract.Game`; the service registers it. Importing the
package registers the asymmetric corporations (:mod:`.corporations`).
"""

from . import corporations
from .game import PlanetUnknown

GAME = PlanetUnknown()

__all__ = ["GAME", "PlanetUnknown", "corporations"]
