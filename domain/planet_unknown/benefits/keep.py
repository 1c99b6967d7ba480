"""``keep``: keep one of the objective cards Jump Drive tech F drew, face up for everyone."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..model import Benefit, Kind, State
from ..moves import Keep, Move
from ..powers import corporation
from .base import KindRules, find


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Each drawn card."""
    own = state.seats[seat]
    yield from (Keep(c) for c in corporation(own).drawn_objectives(own))


def decide(state: State, i: int, move: Keep) -> list[Event]:
    """``keep <card>``."""
    seat = state.seats[i]
    index = find(seat, Kind.KEEP)
    drawn = corporation(seat).drawn_objectives(seat)
    if move.card not in drawn:
        raise IllegalMoveError("keep one of the objective cards you drew: " + ", ".join(map(str, drawn)))
    return [ev.SharedObjectiveChosen(i, move.card, index)]


RULES = KindRules((Kind.KEEP,), options, {Keep.action: decide})
