"""Planet Unknown for one to six agents as a PettingZoo AEC environment (see :mod:`envs.aec`).

The game's options (planets, corporations, the event deck...) are passed as ``options``; a seat's
hidden stacks, objectives and decks never reach another seat's observation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.contract import JSON
from domain.planet_unknown import GAME
from envs.aec import MAX_CYCLES, GameEnv, wrap

MAX_ACTIONS = 2048
"""The size of the action space: more legal moves than random play has shown in any position (under 900)."""
OBSERVATION_BYTES = 65536
"""The size of an observation: six seats' view is about 13 kB of JSON."""


def raw_env(
    seats: int = 2,
    options: Mapping[str, JSON] | None = None,
    max_cycles: int = MAX_CYCLES,
    render_mode: str | None = None,
) -> GameEnv:
    """The environment without PettingZoo's order checks."""
    return GameEnv(
        GAME,
        seats=seats,
        options=options,
        max_actions=MAX_ACTIONS,
        observation_bytes=OBSERVATION_BYTES,
        max_cycles=max_cycles,
        render_mode=render_mode,
    )


def env(**kwargs: Any) -> Any:
    """Planet Unknown with PettingZoo's order checks: the environment to use."""
    return wrap(raw_env(**kwargs))
