"""``discard``: reject one of the seat's private objectives (event cards)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..model import Benefit, Kind, State
from ..moves import Move, Reject
from .base import KindRules, find


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Each private objective the seat holds."""
    yield from (Reject(c) for c in state.seats[seat].private_objectives)


def decide(state: State, i: int, move: Reject) -> list[Event]:
    """``reject <card>``."""
    seat = state.seats[i]
    index = find(seat, Kind.DISCARD)
    if move.card not in seat.private_objectives:
        raise IllegalMoveError(f"objective {move.card} is not one of yours ({list(seat.private_objectives)})")
    return [ev.ObjectiveRejected(i, move.card, index)]


RULES = KindRules((Kind.DISCARD,), options, {Reject.action: decide})
