"""``patch``: place a biomass patch, or store it for later (tech 2); ``final`` patches must be placed."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..board import squares_of
from ..data import planets
from ..model import Benefit, Kind, Seat, State
from ..moves import Move, Patch, Store
from ..planets import planet_rules
from ..powers import corporation
from ..reading import contact_mask
from .base import KindRules, find


def patch_squares(state: State, seat: Seat) -> list[int]:
    """The squares a biomass patch may go on."""
    free = planets()[seat.planet].mask & ~seat.covered
    allows = planet_rules(seat).allows_patch
    rules = corporation(seat).patch_rules(seat)
    squares = set(squares_of(free & contact_mask(state, seat)))
    if rules.on_tiles:
        squares |= {
            s
            for s, letter in enumerate(seat.cover)
            if letter and letter != "p" and (rules.on_meteorites or s not in seat.meteorites)
        }
    return [s for s in sorted(squares) if allows(seat, s)]


def _may_store(state: State, seat: Seat, benefit: Benefit) -> bool:
    return not benefit.final and not state.ending and corporation(seat).patch_rules(seat).stored


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """A patch on each square it may go on, and ``store`` when the seat may store it."""
    own = state.seats[seat]
    yield from (Patch(s) for s in patch_squares(state, own))
    if _may_store(state, own, benefit):
        yield Store()


def possible(state: State, seat: int, benefit: Benefit) -> bool:
    """A patch is lost when no square takes it, even where it could be stored."""
    return bool(patch_squares(state, state.seats[seat]))


def place(state: State, i: int, move: Patch) -> list[Event]:
    """``patch <square>``."""
    seat = state.seats[i]
    index = find(seat, Kind.PATCH)
    if move.square not in patch_squares(state, seat):
        raise IllegalMoveError("a patch goes on a free grid square, on the edge first, then next to a tile or patch")
    return [ev.PatchPlaced(i, move.square, index)]


def store(state: State, i: int, move: Store) -> list[Event]:
    """``store``: the first pending patch that is not final."""
    seat = state.seats[i]
    if not corporation(seat).patch_rules(seat).stored:
        raise IllegalMoveError("storing biomass patches needs tech level 2")
    if state.ending:
        raise IllegalMoveError("at the end of the game every patch must be placed")
    return [ev.PatchStored(i, find(seat, Kind.PATCH, final=False))]


RULES = KindRules((Kind.PATCH,), options, {Patch.action: place, Store.action: store}, possible=possible, unique=True)
