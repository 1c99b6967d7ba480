"""``empty``: take every tile out of one stack of the seat's depot (event cards)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..model import Benefit, Kind, State
from ..moves import Empty, Move
from ..reading import depot
from .base import KindRules, find


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Each stack of the depot that still holds tiles."""
    yield from (Empty(s) for s in depot(state, seat) if state.stacks[s])


def decide(state: State, i: int, move: Empty) -> list[Event]:
    """``empty <stack>``."""
    seat = state.seats[i]
    index = find(seat, Kind.EMPTY)
    if move.stack not in depot(state, i) or not state.stacks[move.stack]:
        raise IllegalMoveError(f"empty one of the stacks of your depot that still holds tiles: {depot(state, i)}")
    return [ev.StackEmptied(i, move.stack, index)]


RULES = KindRules((Kind.EMPTY,), options, {Empty.action: decide})
