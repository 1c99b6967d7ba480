"""``place``: place a depot tile (a civ card), with its resources when ``resources``; the same check
places the tile a seat chooses in the tile phase."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import event_deck
from .. import events as ev
from ..board import footprint, mask_of
from ..data import planets
from ..model import Benefit, Kind, State
from ..moves import Move, Place
from ..planets import planet_rules
from ..powers import TilePlacement, corporation
from ..reading import contact_mask, offered, tile_placements, tile_rule
from .base import KindRules, find


def placements(state: State, seat: int) -> Iterator[Move]:
    """Every placement of every tile the seat's depot offers."""
    for tile in offered(state, seat):
        for anchor, rotation, flip in tile_placements(state, seat, tile):
            yield Place(tile, anchor, rotation, flip)


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Every placement of an offered tile."""
    yield from placements(state, seat)


def placed(state: State, i: int, move: Place, pending: int | None) -> Event:
    """The ``TilePlaced`` of ``place <tile> <anchor> <rotation> [flip]`` after checking it (``pending``:
    the ``place`` benefit it uses, None in the tile phase)."""
    if move.tile not in offered(state, i):
        raise IllegalMoveError(f"tile {move.tile} is not offered by your depot (it offers {offered(state, i)})")
    cells = footprint(move.tile, move.square, move.rotation, move.flip)
    if cells is None:
        raise IllegalMoveError("the tile would leave the planet")
    seat = state.seats[i]
    placing = corporation(seat).tile_placement(seat, move.tile)
    if placing is TilePlacement.REFUSED:
        raise IllegalMoveError("you used tech 1 this turn: take a tile with civ terrain")
    mask = mask_of(cells)
    if mask & ~planets()[seat.planet].mask:
        raise IllegalMoveError("every square of the tile must be on a grid square of the planet")
    if mask & seat.covered:
        raise IllegalMoveError("the tile would overlap a tile or patch")
    if placing is TilePlacement.FREE:
        return ev.TilePlaced(i, move.tile, move.square, move.rotation, move.flip, pending)
    if not mask & contact_mask(state, seat):
        if seat.covered == 0:
            raise IllegalMoveError(f"your first tile must cover {planet_rules(seat).first_squares}")
        raise IllegalMoveError("the tile must touch a tile or patch already on your planet")
    if not planet_rules(seat).allows_tile(seat, move.tile, move.square, move.rotation, move.flip, mask):
        raise IllegalMoveError(f"{planets()[seat.planet].name} forbids that placement")
    rule = tile_rule(state, i)
    if rule is not None and not rule(seat, move.tile, move.square, move.rotation, move.flip, mask):
        card = event_deck.card_of(state)
        assert card is not None
        raise IllegalMoveError(f"this round's event {card.id} forbids that placement ({card.params['rule']})")
    return ev.TilePlaced(i, move.tile, move.square, move.rotation, move.flip, pending)


def decide(state: State, i: int, move: Place) -> list[Event]:
    """``place <tile> <anchor> <rotation> [flip]`` with a pending ``place`` benefit."""
    index = find(state.seats[i], Kind.PLACE)
    return [placed(state, i, move, index)]


RULES = KindRules((Kind.PLACE,), options, {Place.action: decide})
