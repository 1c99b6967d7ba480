"""Homeworlds for two agents, ``seat_0`` and ``seat_1``, as a PettingZoo AEC environment (see :mod:`envs.aec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.contract import JSON
from domain.homeworlds import GAME
from envs.aec import MAX_CYCLES, GameEnv, wrap

MAX_ACTIONS = 4096
"""The size of the action space: more legal moves than any position of the recorded games or random play has shown."""
OBSERVATION_BYTES = 4096
"""The size of an observation: a Homeworlds view's JSON is well under a kilobyte."""


def raw_env(
    options: Mapping[str, JSON] | None = None, max_cycles: int = MAX_CYCLES, render_mode: str | None = None
) -> GameEnv:
    """The environment without PettingZoo's order checks."""
    return GameEnv(
        GAME,
        seats=2,
        options=options,
        max_actions=MAX_ACTIONS,
        observation_bytes=OBSERVATION_BYTES,
        max_cycles=max_cycles,
        render_mode=render_mode,
    )


def env(**kwargs: Any) -> Any:
    """Homeworlds with PettingZoo's order checks: the environment to use."""
    return wrap(raw_env(**kwargs))
