"""``select``: pick one of ``alternatives`` (each a tuple of benefits; the others are dropped)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..model import Benefit, Kind, State
from ..moves import Move, Pick
from .base import KindRules, by_index, possible


def pick_options(state: State, i: int, benefit: Benefit) -> list[int]:
    """The alternatives of a ``select`` benefit that can be used now."""
    return [n for n, alt in enumerate(benefit.alternatives) if all(possible(state, i, b) for b in alt)]


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """A pick of each alternative whose every benefit is possible."""
    yield from (Pick(index, n) for n in pick_options(state, seat, benefit))


def decide(state: State, i: int, move: Pick) -> list[Event]:
    """``pick <benefit> <option>``."""
    seat = state.seats[i]
    index, option = move.index, move.option
    if not 0 <= index < len(seat.pending) or seat.pending[index].kind is not Kind.SELECT:
        raise IllegalMoveError(f"pending benefit {index} is not a choice between alternatives")
    if option not in pick_options(state, i, seat.pending[index]):
        raise IllegalMoveError(f"option {option} is not available: {seat.pending[index].describe()}")
    return [ev.AlternativePicked(i, index, option)]


RULES = KindRules((Kind.SELECT,), options, {Pick.action: decide}, key=by_index)
