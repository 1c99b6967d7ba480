"""``choose``: advance ``count`` different tracks among ``options`` (energy, synergy, civ cards, end
game); Flux Industries names its flux track and Jump Drive tech E claims a height with it."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..data import TRACKS, Terrain
from ..model import Benefit, Kind, Seat, State
from ..moves import Choose, Move
from ..powers import corporation
from ..reading import can_advance
from .advance import checked_route, positions_at
from .base import KindRules, by_index

HEIGHT = "height"
"""``source`` of the ``choose`` benefit of Jump Drive tech E: the track whose tracker's height is claimed."""
FLUX = "flux"
"""``source`` of the ``choose`` benefit that names Flux Industries' flux track (no advance)."""


def choice_tracks(seat: Seat, benefit: Benefit) -> list[Terrain]:
    """The tracks a ``choose`` benefit may advance now."""
    allowed = benefit.options or TRACKS
    if benefit.source in (FLUX, HEIGHT):
        return [t for t in TRACKS if t in allowed]
    return [t for t in TRACKS if t in allowed and t not in benefit.chosen and can_advance(seat, t)]


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Every track the benefit may advance, by each of its routes."""
    own = state.seats[seat]
    for t in choice_tracks(own, benefit):
        routes = corporation(own).routes(own, t) if benefit.source not in (FLUX, HEIGHT) else [(None, False)]
        yield from (Choose(index, t, lane, side) for lane, side in routes)


def decide(state: State, i: int, move: Choose) -> list[Event]:
    """``choose <benefit> <track> [<lane> [side]]``: the first advance and every further step."""
    seat = state.seats[i]
    index = move.index
    if not 0 <= index < len(seat.pending) or seat.pending[index].kind is not Kind.CHOOSE:
        raise IllegalMoveError(f"pending benefit {index} is not a track choice")
    benefit = seat.pending[index]
    track = move.track
    if track not in choice_tracks(seat, benefit):
        raise IllegalMoveError(f"{track} is not one of the tracks you may choose: {benefit.describe()}")
    if benefit.source == FLUX:
        return [ev.FluxChosen(i, track, index)]
    if benefit.source == HEIGHT:
        return [ev.HeightClaimed(i, seat.track(track), index)]
    lane, side = checked_route(seat, move)
    out: list[Event] = [ev.TrackAdvanced(i, track, index, benefits=benefit.benefits, lane=lane, side=side)]
    corp = corporation(seat)
    position = corp.next_position(seat, track, seat.track(track))
    for _ in range(benefit.steps - 1):
        if (track is not Terrain.ROVER or not benefit.benefits) and position >= corp.top(track):
            break
        if not corp.can_advance(dataclasses.replace(seat, tracks=positions_at(seat, track, position)), track):
            break
        position = corp.next_position(seat, track, position)
        out.append(ev.TrackAdvanced(i, track, None, benefits=benefit.benefits))
    return out


RULES = KindRules((Kind.CHOOSE,), options, {Choose.action: decide}, key=by_index)
