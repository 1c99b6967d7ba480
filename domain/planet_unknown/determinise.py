"""Determinisation: one full state consistent with what a seat may see, for a bot to play ahead on.

A seat's view (:func:`~.seat_state.seat_state`) fills every hidden station tile with stand-ins taken
in order of their ids, the same ones for every stack of a shape. :func:`determinise` draws them at
random instead: every face-down tile of the station becomes one of the tiles of its stack's shape
that the seat has not seen (not face up, not on a planet, not taken out), each drawn once while
there are enough. It reads only the view, so it never learns the true order or content of a stack.

The other hidden facts (civ piles, objective and event decks) keep the view's stand-ins.
"""

from __future__ import annotations

import dataclasses
import random

from .data import station, tiles
from .model import State


def unseen_tiles(view: State) -> dict[str, list[int]]:
    """Per tile shape, the ids of the tiles of that shape the seat of ``view`` has not seen."""
    in_sight = set(view.removed)
    for s in view.seats:
        in_sight.update(s.placed, s.unplaced)
    for stack, shown in zip(view.stacks, view.revealed, strict=True):
        if stack and shown:
            in_sight.add(stack[0])
    out: dict[str, list[int]] = {}
    for tile in tiles():
        if tile.id not in in_sight:
            out.setdefault(tile.shape, []).append(tile.id)
    return out


def determinise(view: State, rng: random.Random) -> State:
    """``view`` with every face-down station tile drawn at random from the unseen tiles of its shape."""
    if not view.stacks:
        return view
    inner, outer, _ = station()
    shapes = outer + inner
    pools = unseen_tiles(view)
    for pool in pools.values():
        rng.shuffle(pool)
    taken: dict[str, int] = {}
    stacks = []
    for k, (stack, shown) in enumerate(zip(view.stacks, view.revealed, strict=True)):
        top = stack[:1] if stack and shown else ()
        pool = pools.get(shapes[k], [])
        hidden = []
        for _ in range(len(stack) - len(top)):
            if not pool:
                break
            n = taken.get(shapes[k], 0)
            hidden.append(pool[n % len(pool)])
            taken[shapes[k]] = n + 1
        stacks.append(top + tuple(hidden) if len(hidden) == len(stack) - len(top) else stack)
    return dataclasses.replace(view, stacks=tuple(stacks))
