"""``deploy``: put a garage rover on a free square of the last tile placed."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..model import GARAGE, Benefit, Kind, Seat, State
from ..moves import Deploy, Move
from .base import KindRules, find


def deploy_squares(seat: Seat) -> list[int]:
    """The squares a garage rover may be deployed on (none when the garage is empty)."""
    if GARAGE not in seat.rovers:
        return []
    taken = set(seat.rovers)
    return [s for s in seat.last_tile if s not in taken]


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """A deploy on each free square of the last tile."""
    yield from (Deploy(s) for s in deploy_squares(state.seats[seat]))


def decide(state: State, i: int, move: Deploy) -> list[Event]:
    """``deploy <square>``: the first garage rover."""
    seat = state.seats[i]
    index = find(seat, Kind.DEPLOY)
    if move.square not in deploy_squares(seat):
        raise IllegalMoveError("a rover is deployed on a free square of the last tile you placed")
    return [ev.RoverDeployed(i, seat.rovers.index(GARAGE), move.square, index)]


RULES = KindRules((Kind.DEPLOY,), options, {Deploy.action: decide})
