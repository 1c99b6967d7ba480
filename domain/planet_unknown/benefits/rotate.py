"""``rotate``: turn the station to any of its six orientations (event cards)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event

from .. import events as ev
from ..model import Benefit, Kind, State
from ..moves import Move, Rotate
from .base import KindRules, find

ORIENTATIONS = 6
"""The station's orientations, 0 to 5."""


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Every orientation."""
    yield from (Rotate(r) for r in range(ORIENTATIONS))


def decide(state: State, i: int, move: Rotate) -> list[Event]:
    """``rotate <orientation>``."""
    return [ev.StationTurned(i, move.rotation, find(state.seats[i], Kind.ROTATE))]


RULES = KindRules((Kind.ROTATE,), options, {Rotate.action: decide})
