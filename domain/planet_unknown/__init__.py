"""Planet Unknown: the rules of the core game as Board Game Arena plays them.

``GAME`` implements :class:`domain.contract.Game`; the service registers it.
"""

from .game import PlanetUnknown

GAME = PlanetUnknown()

__all__ = ["GAME", "PlanetUnknown"]
