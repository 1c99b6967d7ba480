"""Environments for researchers: Orrery's games as PettingZoo AEC environments.

``pettingzoo`` is an optional dependency (the ``research`` extra, also in ``test``); the server never
imports this package.

>>> from envs import homeworlds_v0  # doctest: +SKIP
>>> env = homeworlds_v0.env()  # doctest: +SKIP
"""

from __future__ import annotations
