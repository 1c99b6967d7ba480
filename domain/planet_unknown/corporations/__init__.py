"""The asymmetric corporations, one module each; importing a module registers it in
:data:`..powers.CORPORATIONS`."""

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
