"""Built-in bots: ``random`` and ``greedy``.

Each takes ``(state, seat, rng, think_ms)`` and returns a legal turn of ``seat`` in
SDG notation. Everything in Homeworlds is public, so both read the whole table.
"""

from __future__ import annotations

import itertools
import random as _random
import time

from domain.contract import JSON

from .game import HomeworldsState
from .movegen import successors, winning_turn
from .notation import Turn
from .position import Position

SAMPLE = 2000
"""How many turns (the shortest first) a bot looks at."""


def _candidates(state: HomeworldsState, seat: int) -> list[tuple[Turn, Position]]:
    if state.outcome is not None or state.position.to_move != seat:
        raise ValueError(f"seat {seat} has no move now")
    return list(itertools.islice(successors(state.position, state.rules), SAMPLE))


def random(state: HomeworldsState, seat: int, rng: _random.Random, think_ms: int = 0) -> JSON:
    """A random legal turn among the first few thousand, preferring turns that do not lose at once."""
    found = _candidates(state, seat)
    safe = [turn for turn, reached in found if seat not in reached.losers()]
    return str(rng.choice(safe or [turn for turn, _ in found]))


def greedy(state: HomeworldsState, seat: int, rng: _random.Random, think_ms: int = 1000) -> JSON:
    """Win now if possible; otherwise a random turn after which the opponent cannot win at once."""
    deadline = time.monotonic() + think_ms / 1000
    if state.position.has_set_up(seat):
        win = winning_turn(state.position, state.rules)
        if win is not None:
            return str(win)
    found = _candidates(state, seat)
    safe = [(turn, reached) for turn, reached in found if seat not in reached.losers()]
    rng.shuffle(safe)
    for turn, reached in safe:
        if time.monotonic() > deadline:
            break
        if not reached.has_set_up(reached.to_move) or winning_turn(reached, state.rules) is None:
            return str(turn)
    return str((safe or found)[0][0])
