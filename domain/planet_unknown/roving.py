"""Rover movement: the steps a seat's rover movement allows, checked like any move."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from . import event_deck
from . import events as ev
from .board import neighbours
from .data import planets
from .model import Seat, State
from .moves import Move, Rover
from .planets import planet_rules
from .powers import corporation


def rover_on_planet(seat: Seat, rover: int) -> int:
    """``rover``, checked to be one of the seat's rovers on its planet."""
    if not 0 <= rover < len(seat.rovers) or seat.rovers[rover] < 0:
        raise IllegalMoveError(f"rover {rover} is not on your planet")
    return rover


def rover_moves(state: State, seat: Seat) -> Iterator[Move]:
    """Every step a rover of the seat may take with its rover movement."""
    if seat.moves <= 0:
        return
    grid = planets()[seat.planet].squares
    corp = corporation(seat)
    for rover, at in enumerate(seat.rovers):
        if at < 0:
            continue
        steps, jumps = corp.rover_reach(seat, at)
        for n in sorted(set(neighbours(at)) | steps | jumps):
            if (
                n in grid
                and n not in seat.rovers
                and event_deck.rover_may_enter(state, seat, n)
                and (n in jumps or planet_rules(seat).rover_may_step(seat, at, n))
                and corp.rover_entry(seat, at, n) is not None
            ):
                yield Rover(rover, n)


def decide(state: State, i: int, move: Rover) -> list[Event]:
    """``rover <rover> <square>``: one step (or a corporation's jump)."""
    seat = state.seats[i]
    rover = rover_on_planet(seat, move.rover)
    if seat.moves <= 0:
        raise IllegalMoveError("you have no rover movement left")
    extra_steps, jumps = corporation(seat).rover_reach(seat, seat.rovers[rover])
    jump = move.square in jumps
    steps = set(neighbours(seat.rovers[rover])) | extra_steps
    if not jump and (move.square not in steps or move.square not in planets()[seat.planet].squares):
        raise IllegalMoveError("a rover steps onto an orthogonally adjacent grid square")
    if move.square in seat.rovers:
        raise IllegalMoveError("another rover is on that square")
    if corporation(seat).rover_entry(seat, seat.rovers[rover], move.square) is None:
        raise IllegalMoveError("a rover carrying a meteorite cannot enter a square with a meteorite")
    if not jump and not planet_rules(seat).rover_may_step(seat, seat.rovers[rover], move.square):
        raise IllegalMoveError(f"{planets()[seat.planet].name} closes that step to rovers")
    if not event_deck.rover_may_enter(state, seat, move.square):
        raise IllegalMoveError("this round's event closes that terrain to rovers")
    return [ev.RoverMoved(i, rover, move.square)]
