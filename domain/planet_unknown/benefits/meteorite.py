"""``meteorite``: a meteorite lands on a meteor symbol of the seat's tiles that has none (event cards)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..model import Benefit, Kind, Seat, State
from ..moves import Meteorite, Move
from .base import KindRules, find


def empty_symbols(seat: Seat) -> list[int]:
    """The meteor symbols of the seat's tiles that carry no meteorite."""
    return sorted(seat.meteor_symbols - seat.meteorites)


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Each empty meteor symbol."""
    yield from (Meteorite(s) for s in empty_symbols(state.seats[seat]))


def decide(state: State, i: int, move: Meteorite) -> list[Event]:
    """``meteorite <square>``."""
    seat = state.seats[i]
    index = find(seat, Kind.METEORITE)
    if move.square not in empty_symbols(seat):
        raise IllegalMoveError("a meteorite goes on a meteor symbol of your tiles that has none")
    return [ev.MeteoriteLanded(i, move.square, index)]


RULES = KindRules((Kind.METEORITE,), options, {Meteorite.action: decide})
