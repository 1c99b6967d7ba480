"""``teleport``: move a rover to any grid square without a rover (Jump Drive tech B, ``what``
``terrain``: to a square of the same tile terrain)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..board import terrain_of
from ..data import planets
from ..model import Benefit, Kind, Seat, State
from ..moves import Move, Teleport
from ..powers import corporation
from ..roving import rover_on_planet
from .base import KindRules, find


def _same_terrain(seat: Seat, start: int, end: int) -> bool:
    """Whether two squares are covered by the same terrain (a patch is biomass)."""
    a, b = seat.cover[start], seat.cover[end]
    return bool(a and b) and terrain_of(a) is terrain_of(b)


def teleport_ok(seat: Seat, benefit: Benefit, start: int, end: int) -> bool:
    """Whether a ``teleport`` benefit may take a rover from ``start`` to ``end``."""
    return benefit.what != "terrain" or _same_terrain(seat, start, end)


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Each rover on the planet to each square it may land on."""
    own = state.seats[seat]
    squares = sorted(planets()[own.planet].squares - set(own.rovers))
    board = corporation(own)
    for rover, at in enumerate(own.rovers):
        if at >= 0:
            yield from (
                Teleport(rover, s)
                for s in squares
                if board.rover_entry(own, at, s) is not None and teleport_ok(own, benefit, at, s)
            )


def possible(state: State, seat: int, benefit: Benefit) -> bool:
    """A teleport is kept while a rover is on the planet."""
    return any(r >= 0 for r in state.seats[seat].rovers)


def decide(state: State, i: int, move: Teleport) -> list[Event]:
    """``teleport <rover> <square>``: the first pending teleport that allows it."""
    seat = state.seats[i]
    index = find(seat, Kind.TELEPORT)
    rover = rover_on_planet(seat, move.rover)
    if move.square not in planets()[seat.planet].squares or move.square in seat.rovers:
        raise IllegalMoveError("the rover must land on a grid square without a rover")
    if corporation(seat).rover_entry(seat, seat.rovers[rover], move.square) is None:
        raise IllegalMoveError("a rover carrying a meteorite cannot land on a square with a meteorite")
    fits = [
        n
        for n, b in enumerate(seat.pending)
        if b.kind is Kind.TELEPORT and teleport_ok(seat, b, seat.rovers[rover], move.square)
    ]
    if not fits:
        raise IllegalMoveError("this teleport goes to a square of the same terrain as the rover's")
    index = fits[0]
    return [ev.RoverTeleported(i, rover, move.square, index)]


RULES = KindRules((Kind.TELEPORT,), options, {Teleport.action: decide}, possible=possible)
