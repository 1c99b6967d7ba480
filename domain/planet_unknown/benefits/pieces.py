"""``collect`` and ``destroy``: take up to ``count`` pieces off the planet. ``what`` names the piece
(default: a lifepod to collect, a meteorite to destroy; ``carried``: a meteorite a rover carries)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..model import Benefit, Kind, Seat, State
from ..moves import Collect, Destroy, Move
from .base import KindRules


def targets(seat: Seat, benefit: Benefit) -> list[int]:
    """The squares a ``collect`` or ``destroy`` benefit may take its piece from."""
    what = benefit.what or ("lifepod" if benefit.kind is Kind.COLLECT else "meteorite")
    if what == "carried":
        return sorted(r for r in seat.rovers if r >= 0 and r in seat.meteorites and seat.cover[r].lower() == "w")
    if what == "lifepod":
        return sorted(seat.lifepods)
    if what == "meteorite":
        return sorted(seat.meteorites)
    return sorted(r for r in seat.rovers if r >= 0)


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Each square the benefit may take its piece from."""
    make = Collect if benefit.kind is Kind.COLLECT else Destroy
    yield from (make(s) for s in targets(state.seats[seat], benefit))


def _target(seat: Seat, kind: Kind, square: int) -> tuple[int, Benefit]:
    """The pending ``collect``/``destroy`` benefit that may take the piece on ``square``."""
    found = False
    for index, benefit in enumerate(seat.pending):
        if benefit.kind is kind:
            found = True
            if square in targets(seat, benefit):
                return index, benefit
    if not found:
        raise IllegalMoveError(f"you have no pending {kind.value} benefit")
    raise IllegalMoveError(f"there is nothing you may {kind.value} on that square")


def collect(state: State, i: int, move: Collect) -> list[Event]:
    """``collect <square>``: a lifepod, or a meteorite (Flux Industries)."""
    seat = state.seats[i]
    index, benefit = _target(seat, Kind.COLLECT, move.square)
    if benefit.what == "meteorite":
        return [ev.MeteoriteCollected(i, move.square, index)]
    return [ev.LifepodCollected(i, move.square, index)]


def destroy(state: State, i: int, move: Destroy) -> list[Event]:
    """``destroy <square>``: a meteorite, a lifepod or a rover."""
    seat = state.seats[i]
    index, benefit = _target(seat, Kind.DESTROY, move.square)
    if benefit.what == "rover":
        return [ev.RoverDestroyed(i, seat.rovers.index(move.square), index)]
    if benefit.what == "lifepod":
        return [ev.LifepodDestroyed(i, move.square, index)]
    return [ev.MeteoriteDestroyed(i, move.square, index)]


RULES = KindRules((Kind.COLLECT, Kind.DESTROY), options, {Collect.action: collect, Destroy.action: destroy})
