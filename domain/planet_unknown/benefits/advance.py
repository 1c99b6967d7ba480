"""``advance``: advance one named track once (a resource icon, a taken tile, an event)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..data import TRACKS, Terrain
from ..model import Benefit, Kind, Seat, State
from ..moves import Advance, Choose, Move
from ..powers import corporation
from ..reading import can_advance
from .base import KindRules, find


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Every route of the named tracker, while it can advance."""
    own = state.seats[seat]
    assert benefit.track is not None
    if can_advance(own, benefit.track):
        for lane, side in corporation(own).routes(own, benefit.track):
            yield Advance(benefit.track, lane, side)


def checked_route(seat: Seat, move: Advance | Choose) -> tuple[str, bool]:
    """The lane and sideways flag of an advance (Makeshift), checked against the tracker's routes."""
    if move.lane is None:
        return "", False
    if (move.lane, move.side) not in corporation(seat).routes(seat, move.track):
        raise IllegalMoveError(f"the {move.track} tracker cannot move onto the {move.lane} track that way")
    return str(move.lane), move.side


def positions_at(seat: Seat, track: Terrain, position: int) -> tuple[int, ...]:
    """The seat's tracker positions with the tracker of ``track`` at ``position``."""
    positions = list(seat.tracks)
    positions[TRACKS.index(track)] = position
    return tuple(positions)


def decide(state: State, i: int, move: Advance) -> list[Event]:
    """``advance <track> [<lane> [side]]``."""
    index = find(state.seats[i], Kind.ADVANCE, track=move.track)
    lane, side = checked_route(state.seats[i], move)
    return [ev.TrackAdvanced(i, move.track, index, lane=lane, side=side)]


def _by_track(benefit: Benefit, index: int) -> object:
    return benefit.track


RULES = KindRules((Kind.ADVANCE,), options, {Advance.action: decide}, key=_by_track)
