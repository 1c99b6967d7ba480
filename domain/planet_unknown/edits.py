"""Small edits of the state that the fold makes and the outcomes replay: a seat replaced, a pending
benefit used, squares covered, a tile taken from the station. They apply no rule."""

from __future__ import annotations

import dataclasses
from typing import Any

from .board import mask_of
from .data import Terrain, TileSquare
from .model import DESTROYED, Benefit, Kind, Seat, State


def with_seat(state: State, index: int, seat: Seat) -> State:
    """The state with seat ``index`` replaced."""
    seats = list(state.seats)
    seats[index] = seat
    return dataclasses.replace(state, seats=tuple(seats))


def changed_seat(state: State, index: int, **changes: Any) -> State:
    """The state with these fields of seat ``index`` changed."""
    return with_seat(state, index, dataclasses.replace(state.seats[index], **changes))


def drop(pending: tuple[Benefit, ...], index: int | None) -> tuple[Benefit, ...]:
    """The pending benefits without the one at ``index`` (all of them for None)."""
    if index is None:
        return pending
    return pending[:index] + pending[index + 1 :]


def use_one(pending: tuple[Benefit, ...], index: int) -> tuple[Benefit, ...]:
    """The pending benefits with one use of the one at ``index`` spent (dropped at its last)."""
    benefit = pending[index]
    if benefit.count > 1:
        return (*pending[:index], dataclasses.replace(benefit, count=benefit.count - 1), *pending[index + 1 :])
    return drop(pending, index)


def advance_used(pending: tuple[Benefit, ...], index: int | None, track: Terrain) -> tuple[Benefit, ...]:
    """The pending benefits once the one at ``index`` advanced ``track``: a ``choose`` of several tracks
    keeps the tracks still to choose, any other is dropped."""
    if index is None:
        return pending
    benefit = pending[index]
    if benefit.kind is Kind.CHOOSE and benefit.count > 1:
        narrowed = dataclasses.replace(benefit, count=benefit.count - 1, chosen=(*benefit.chosen, track))
        return (*pending[:index], narrowed, *pending[index + 1 :])
    return drop(pending, index)


def tile_letters(cells: dict[int, TileSquare]) -> dict[int, str]:
    """The cover letter of each square of a placed tile (upper case where it shows its resource icon)."""
    return {s: (c.terrain.letter.upper() if c.icon else c.terrain.letter) for s, c in cells.items()}


def cover(seat: Seat, letters: dict[int, str]) -> Seat:
    """The seat with ``letters`` on their squares: a rover there is destroyed, a lifepod there is gone."""
    cells = list(seat.cover)
    for square, letter in letters.items():
        cells[square] = letter
    squares = set(letters)
    rovers = tuple(DESTROYED if r in squares else r for r in seat.rovers)
    return dataclasses.replace(
        seat,
        cover=tuple(cells),
        covered=seat.covered | mask_of(squares),
        lifepods=seat.lifepods - squares,
        rovers=rovers,
    )


def patched(seat: Seat, square: int, index: int) -> Seat:
    """The seat with the patch of pending benefit ``index`` on ``square`` (a meteorite on a tile there is
    destroyed; a stored patch leaves the store)."""
    final = seat.pending[index].final
    seat = dataclasses.replace(
        seat, pending=drop(seat.pending, index), stored_patches=seat.stored_patches - (1 if final else 0)
    )
    return patch_on(seat, square)


def patch_on(seat: Seat, square: int) -> Seat:
    """The seat with a biomass patch on ``square`` (a meteorite on a tile there is destroyed)."""
    if seat.cover[square] and square in seat.meteorites:
        seat = dataclasses.replace(seat, meteorites=seat.meteorites - {square})
    return cover(seat, {square: "p"})


def stored(seat: Seat, index: int) -> Seat:
    """The seat with the patch of pending benefit ``index`` stored."""
    return dataclasses.replace(seat, pending=drop(seat.pending, index), stored_patches=seat.stored_patches + 1)


def moved_rover(seat: Seat, rover: int, square: int) -> Seat:
    """The seat with ``rover`` on ``square``."""
    rovers = list(seat.rovers)
    rovers[rover] = square
    return dataclasses.replace(seat, rovers=tuple(rovers))


def take_from_station(state: State, tile: int) -> State:
    """The state with ``tile`` taken from the top of its stack (the next one face down)."""
    stacks = list(state.stacks)
    revealed = list(state.revealed)
    for k, stack in enumerate(stacks):
        if stack and stack[0] == tile:
            stacks[k] = stack[1:]
            revealed[k] = False
            break
    return dataclasses.replace(state, stacks=tuple(stacks), revealed=tuple(revealed))


def event_drawn(state: State, card: int, changes_piles: bool) -> State:
    """The state once event card ``card`` (with its roll) is drawn from the event deck; ``changes_piles``:
    the card changes the civ piles."""
    return dataclasses.replace(
        state,
        event_card=card,
        event_deck=state.event_deck[1:],
        event_roll=state.event_rolls[0] if state.event_rolls else 0,
        event_rolls=state.event_rolls[1:],
        events_drawn=state.events_drawn + 1,
        civ_changes=1 if changes_piles else 0,
    )
