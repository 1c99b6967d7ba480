"""``regress``: move one of ``options`` back ``steps`` spaces (event cards), less if no listed
tracker can go back that far."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..data import TRACKS, Terrain
from ..model import Benefit, Kind, Seat, State
from ..moves import Move, Regress
from ..powers import corporation
from .base import KindRules, by_index, find


def regress_choice(seat: Seat, benefit: Benefit) -> tuple[list[Terrain], int]:
    """The tracks a ``regress`` benefit may move back now and by how much: the full amount if some
    listed tracker can go back that far, else the largest amount still possible."""
    corp = corporation(seat)
    positions = {t: corp.regress_room(seat, t) for t in benefit.options}
    amount = min(benefit.steps, max(positions.values(), default=0))
    if amount <= 0:
        return [], 0
    return [t for t in TRACKS if t in positions and positions[t] >= amount], amount


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Each track the benefit may move back."""
    yield from (Regress(t) for t in regress_choice(state.seats[seat], benefit)[0])


def decide(state: State, i: int, move: Regress) -> list[Event]:
    """``regress <track>``: the first pending regression that allows the track."""
    seat = state.seats[i]
    index = find(seat, Kind.REGRESS)
    track = move.track
    for n, benefit in enumerate(seat.pending):
        if benefit.kind is Kind.REGRESS and track in regress_choice(seat, benefit)[0]:
            index = n
            break
    tracks, amount = regress_choice(seat, seat.pending[index])
    if track not in tracks:
        raise IllegalMoveError(f"regress one of: {', '.join(t.value for t in tracks)}")
    return [ev.TrackRegressed(i, track, amount, index)]


RULES = KindRules((Kind.REGRESS,), options, {Regress.action: decide}, key=by_index)
