"""What the rounds left hold for a seat, as far as its view tells: how many tiles it will still place,
how likely a run of advances is, and how many squares the station's tiles still to come can cover.

With the event deck the game lasts one round per card, so the rounds left are known; without it they
are not, and these functions say so with None.
"""

from __future__ import annotations

import functools
import math

from .data import station, tiles
from .model import Phase, Stage, State
from .reading import depot_stacks, station_turns_itself


def rounds_left(state: State, seat: int) -> int | None:
    """The tiles ``seat`` still places, this round's included while it has not placed it yet (None
    without an event deck: the rounds left are not known)."""
    if not state.event_deck and not state.events_drawn:
        return None
    if state.phase in (Phase.END_GAME, Phase.OVER):
        return 0
    later = 0 if state.last_round else len(state.event_deck)
    return later + int(_placing_now(state, seat))


@functools.lru_cache(maxsize=4096)
def reach_chance(need: int, rounds: int, pace: float) -> float:
    """The chance of at least ``need`` successes in ``rounds`` tries that each succeed with chance ``pace``."""
    if need <= 0:
        return 1.0
    if need > rounds:
        return 0.0
    return sum(math.comb(rounds, k) * pace**k * (1 - pace) ** (rounds - k) for k in range(need, rounds + 1))


@functools.cache
def _shape_sizes() -> dict[str, int]:
    return {tile.shape: len(tile.squares) for tile in tiles()}


def supply(state: State, seat: int, small_share: float) -> float | None:
    """The squares the tiles ``seat`` still places are expected to cover: per round, the larger tile its
    depot will offer less ``small_share`` of the difference to the smaller one (the seat does not always
    take the larger). Only when the station turns by itself (solo; 2 players with the automatic rotation)
    and the rounds left are known; otherwise None.

    Every tile taken is counted against the stack of the larger shape, so a stack that runs out leaves
    its depot offering one tile.
    """
    rounds = rounds_left(state, seat)
    if rounds is None or not station_turns_itself(state) or not state.stacks:
        return None
    first = 0 if _placing_now(state, seat) else 1
    position = station()[2][state.players][seat]
    heights = tuple(len(stack) for stack in state.stacks)
    return _supply(position, state.rotation, state.offset, heights, first, rounds, small_share)


@functools.lru_cache(maxsize=4096)
def _supply(
    position: int, rotation: int, offset: int, heights: tuple[int, ...], first: int, rounds: int, small_share: float
) -> float:
    inner, outer, _ = station()
    shapes = outer + inner
    sizes = _shape_sizes()
    taken: dict[int, int] = {}
    area = 0.0
    for ahead in range(first, first + rounds):
        stacks = [k for k in depot_stacks(position + rotation - ahead, offset) if heights[k] > taken.get(k, 0)]
        if not stacks:
            continue
        big = max(stacks, key=lambda k: sizes[shapes[k]])
        large, small = sizes[shapes[big]], min(sizes[shapes[k]] for k in stacks)
        area += large - small_share * (large - small)
        taken[big] = taken.get(big, 0) + 1
    return area


def _placing_now(state: State, seat: int) -> bool:
    """Whether ``seat`` has this round's tile still to place."""
    if state.phase in (Phase.ROTATION, Phase.EVENT):
        return True
    return state.phase is Phase.DRAFT and state.seats[seat].stage is Stage.CHOOSING
