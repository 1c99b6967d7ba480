"""The asymmetric corporations, one module each; importing a module registers it in
:data:`..powers.CORPORATIONS`."""

from __future__ import annotations

from . import horizon_group, oasis_ultd, republic, wormhole_corp

__all__ = ["horizon_group", "oasis_ultd", "republic", "wormhole_corp"]
