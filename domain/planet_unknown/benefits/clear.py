"""``clear``: destroy the meteorites of one row or column (civ card)."""

from __future__ import annotations

from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..data import SIZE
from ..model import Benefit, Kind, State
from ..moves import Clear, Move
from .base import KindRules, find


def in_line(square: int, line: int) -> bool:
    """Whether ``square`` is on ``line`` (rows 0-11, then columns 12-23)."""
    return square // SIZE == line if line < SIZE else square % SIZE == line - SIZE


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Each row and column holding a meteorite."""
    meteorites = state.seats[seat].meteorites
    lines = sorted({m // SIZE for m in meteorites} | {SIZE + m % SIZE for m in meteorites})
    yield from (Clear(line) for line in lines)


def decide(state: State, i: int, move: Clear) -> list[Event]:
    """``clear <row|column>``."""
    seat = state.seats[i]
    index = find(seat, Kind.CLEAR)
    if not any(in_line(m, move.line) for m in seat.meteorites):
        raise IllegalMoveError("there is no meteorite in that line")
    return [ev.LineCleared(i, move.line, index)]


RULES = KindRules((Kind.CLEAR,), options, {Clear.action: decide})
