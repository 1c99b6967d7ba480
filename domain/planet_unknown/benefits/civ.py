"""``civ``: take a civ card of ``rank`` (0: of any rank, optional; Republic tech 5). Its pile is shown
first (automatic), then the card is taken; "raise all trackers" advances them as it is taken."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from domain.contract import Event, IllegalMoveError

from .. import events as ev
from ..data import TRACKS, civ_cards
from ..model import Benefit, Kind, Seat, State
from ..moves import Civ, Move
from ..powers import corporation
from ..reading import can_advance
from .advance import positions_at
from .base import KindRules

CIV_RAISE_TO = 5
"""The position the "raise all trackers" civ card raises every tracker to."""


def civ_choices(state: State, seat: Seat, benefit: Benefit) -> tuple[int, ...]:
    """The civ cards a ``civ`` benefit may take: its rank's pile (rank 0: every pile), plus what the
    corporation adds (Republic tech 2)."""
    if benefit.rank == 0:
        return tuple(c for pile in state.civ_piles for c in pile)
    extra = corporation(seat).extra_civ_choices(seat, benefit.rank, state.civ_piles)
    return state.civ_piles[benefit.rank - 1] + extra


def options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """Each card the benefit may take."""
    yield from (Civ(c) for c in civ_choices(state, state.seats[seat], benefit))


def automatic(state: State, seat: int, index: int, benefit: Benefit) -> Event | None:
    """The pile is shown before a card is taken."""
    if benefit.shown:
        return None
    return ev.CivPileShown(seat, benefit.rank, civ_choices(state, state.seats[seat], benefit))


def decide(state: State, i: int, move: Civ) -> list[Event]:
    """``civ <card>``: the first pending civ benefit that may take it."""
    seat = state.seats[i]
    card = civ_cards().get(move.card)
    if card is None:
        raise IllegalMoveError(f"there is no civ card {move.card}")
    picks = [n for n, b in enumerate(seat.pending) if b.kind is Kind.CIV]
    if not picks:
        raise IllegalMoveError("you have no pending civ card benefit")
    index = next((n for n in picks if move.card in civ_choices(state, seat, seat.pending[n])), None)
    if index is None:
        raise IllegalMoveError(f"civ card {move.card} is not one you may take now")
    out: list[Event] = [ev.CivCardTaken(i, card.rank, card.id, index)]
    if card.kind == "raise_all_trackers_to":
        for track in TRACKS:
            position, corp = seat.track(track), corporation(seat)
            while position < CIV_RAISE_TO and can_advance(
                dataclasses.replace(seat, tracks=positions_at(seat, track, position)), track
            ):
                out.append(ev.TrackAdvanced(i, track, None, False))
                position = corp.next_position(seat, track, position)
    return out


def _by_rank(benefit: Benefit, index: int) -> object:
    return benefit.rank


RULES = KindRules((Kind.CIV,), options, {Civ.action: decide}, automatic=automatic, key=_by_rank)
