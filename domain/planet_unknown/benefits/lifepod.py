"""``lifepod`` (Cosmos Inc., Jump Drive): put a collected lifepod on a track space or tech slot, or
move up to ``count`` of them; the corporation lists the moves."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..model import Benefit, Kind, State
from ..moves import Lifepod, Move
from ..powers import corporation
from .base import KindRules, by_index


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Each (origin, target) move the corporation allows."""
    own = state.seats[seat]
    for origin, target in corporation(own).lifepod_moves(own, benefit):
        yield Lifepod(origin, target)


def decide(state: State, i: int, move: Lifepod) -> list[Event]:
    """``lifepod <from> <to>``: the first pending lifepod benefit that allows it."""
    seat = state.seats[i]
    for index, benefit in enumerate(seat.pending):
        if benefit.kind is Kind.LIFEPOD and (move.origin, move.target) in corporation(seat).lifepod_moves(
            seat, benefit
        ):
            return [ev.LifepodMoved(i, move.origin, move.target, index)]
    raise IllegalMoveError("no pending lifepod move allows that (lifepod <area|track+position> <area|track+position>)")


RULES = KindRules((Kind.LIFEPOD,), options, {Lifepod.action: decide}, key=by_index, unique=True)
