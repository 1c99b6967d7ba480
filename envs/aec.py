"""A game of Orrery as a PettingZoo AEC environment, through the game contract alone.

Each seat is an agent, ``seat_0``, ``seat_1``... The agent to act is the lowest seat the rules
say must act (Planet Unknown's seats that draft at once take turns here; the rules let each decide
on its own board). An action is an index into that seat's legal moves, in the order the rules list
them: ``action_mask`` marks the indices that are moves now, and :meth:`GameEnv.move_of` names the
move an index stands for. An observation is the seat's own view (never another seat's secrets) as
the UTF-8 bytes of its canonical JSON, zero-padded to a fixed length: :func:`decode` turns it back
into the view. Rewards come at the end: +1 to each winner, -1 to every other seat, 0 to all in a
draw (a solo game without a winner is lost: -1). A game still running after ``max_cycles`` moves is truncated.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from domain import contract
from domain.contract import JSON, Game, Role

MAX_CYCLES = 1000
"""How many moves a game may take before it is truncated, unless the environment is told otherwise."""


def canonical_view(view: JSON) -> bytes:
    """A view as canonical JSON bytes: sorted keys, no spaces, ASCII only."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def decode(observation: np.ndarray) -> Any:
    """The view an observation's ``observation`` array encodes."""
    return json.loads(bytes(observation).rstrip(b"\0"))


class GameEnv(AECEnv):
    """One game of ``game`` for ``seats`` agents; see the module's docstring."""

    def __init__(
        self,
        game: Game[Any],
        *,
        seats: int,
        options: Mapping[str, JSON] | None = None,
        max_actions: int,
        observation_bytes: int,
        max_cycles: int = MAX_CYCLES,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if seats not in game.seat_counts:
            raise ValueError(f"{game.name} is played by {min(game.seat_counts)} to {max(game.seat_counts)} seats")
        if render_mode not in (None, "ansi"):
            raise ValueError("the only render mode is 'ansi'")
        self.game = game
        self.options = contract.parse_options(game.options, dict(options or {}))
        self.max_actions = max_actions
        self.observation_bytes = observation_bytes
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.metadata = {
            "name": f"{game.name.replace('-', '_')}_v0",
            "render_modes": ["ansi"],
            "is_parallelizable": False,
        }
        self.possible_agents = [f"seat_{i}" for i in range(seats)]
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (observation_bytes,), np.uint8),
                "action_mask": spaces.Box(0, 1, (max_actions,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(max_actions)
        self.state: Any = None
        self._moves: dict[str, list[JSON]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes its deal (and nothing else: the agents choose the moves)."""
        raw = os.urandom(32) if seed is None else hashlib.sha256(f"orrery-env:{seed}".encode()).digest()
        state = self.game.initial(len(self.possible_agents), self.options)
        self.state = contract.fold(self.game, state, self.game.setup(state, raw))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.moves_made = 0
        self._moves = {}
        self.agent_selection = self._next_agent()
        self._note_legal_moves()

    def legal_moves(self, agent: str) -> list[JSON]:
        """The moves ``agent`` may make now, in the order its actions index them (none when it is not to act)."""
        if agent not in self._moves:
            seat = self._seat(agent)
            acting = seat in self.game.to_act(self.state) and self.game.outcome(self.state) is None
            self._moves[agent] = list(self.game.legal_moves(self.state, seat)) if acting else []
        return self._moves[agent]

    def move_of(self, agent: str, action: int) -> JSON:
        """The move that ``action`` stands for, for ``agent`` now."""
        moves = self.legal_moves(agent)
        if not 0 <= action < min(len(moves), self.max_actions):
            raise ValueError(f"action {action} is not one of {agent}'s legal moves now (see action_mask)")
        return moves[action]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        view = canonical_view(self.game.view(self.state, self._seat(agent)))
        if len(view) > self.observation_bytes:
            raise RuntimeError(
                f"{agent}'s view takes {len(view)} bytes, more than observation_bytes={self.observation_bytes}"
            )
        observation = np.zeros(self.observation_bytes, np.uint8)
        observation[: len(view)] = np.frombuffer(view, np.uint8)
        mask = np.zeros(self.max_actions, np.int8)
        mask[: min(len(self.legal_moves(agent)), self.max_actions)] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: pass an action from its action_mask")
        move = self.move_of(agent, int(action))
        seat = self._seat(agent)
        self.state = contract.fold(self.game, self.state, self.game.decide(self.state, seat, move))
        self.moves_made += 1
        self._moves = {}
        self._cumulative_rewards[agent] = 0.0
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            drawn = outcome.draw and len(self.possible_agents) > 1
            for other in self.agents:
                won = self._seat(other) in outcome.winners
                self.rewards[other] = 0.0 if drawn else 1.0 if won else -1.0
                self.terminations[other] = True
        elif self.moves_made >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._next_agent()
        self._note_legal_moves()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """What a spectator sees, as canonical JSON (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        return canonical_view(self.game.view(self.state, Role.SPECTATOR)).decode()

    def close(self) -> None:
        """Nothing to release."""

    def _seat(self, agent: str) -> int:
        return int(agent.removeprefix("seat_"))

    def _next_agent(self) -> str:
        """The lowest seat to act, or once the game has ended the next agent still to be stepped out."""
        if self.game.outcome(self.state) is None and not any(self.truncations.values()):
            return f"seat_{min(self.game.to_act(self.state))}"
        current = getattr(self, "agent_selection", self.agents[0])
        if current not in self.agents:
            return self.agents[0]
        return self.agents[(self.agents.index(current) + 1) % len(self.agents)]

    def _note_legal_moves(self) -> None:
        """The info of the agent to act: how many legal moves it has, and whether the action space cuts any."""
        for agent in self.agents:
            self.infos[agent] = {}
        if self.agent_selection in self.agents:
            moves = self.legal_moves(self.agent_selection)
            self.infos[self.agent_selection] = {"legal_moves": len(moves), "moves_cut": len(moves) > self.max_actions}


def wrap(env: GameEnv) -> Any:
    """The environment with PettingZoo's order checks, as its own environments are handed out."""
    return wrappers.OrderEnforcingWrapper(env)
