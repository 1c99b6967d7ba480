"""The asymmetric corporations, one module each; importing a module registers it in
:data:`..powers.CORPORATIONS`.

A corporation with a state of its own (beyond the seat's tracks, rovers and pieces) defines it as a
frozen dataclass in :mod:`..corporation_state` and adds it to ``CorporationState`` there: the seat holds
it in its one ``corporation_state`` slot, and the corporation reads and changes it through its hooks.
"""

from __future__ import annotations

from . import cosmos_inc, flux_industries, horizon_group, jump_drive, makeshift, oasis_ultd, republic, wormhole_corp

__all__ = [
    "cosmos_inc",
    "flux_industries",
    "horizon_group",
    "jump_drive",
    "makeshift",
    "oasis_ultd",
    "republic",
    "wormhole_corp",
]
