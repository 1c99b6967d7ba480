"""``draw``: draw an objective card (automatic; event cards). Jump Drive tech F's ``draw`` (``what``
``shared``) draws three, one of which the seat then keeps for everyone (``keep``)."""

from __future__ import annotations

from domain.contract import Event

from .. import events as ev
from ..model import Benefit, Kind, State
from .base import KindRules, no_options

SHARED = "shared"
"""``what`` of the ``draw`` benefit of Jump Drive tech F: three objective cards, one kept for everyone."""
SHARED_DRAW = 3


def possible(state: State, seat: int, benefit: Benefit) -> bool:
    """While the objective deck holds cards."""
    return bool(state.objective_deck)


def automatic(state: State, seat: int, index: int, benefit: Benefit) -> Event | None:
    """The card (or the three cards) drawn."""
    if benefit.what == SHARED:
        return ev.SharedObjectiveDrawn(seat, state.objective_deck[:SHARED_DRAW], index)
    return ev.ObjectiveDrawn(seat, state.objective_deck[0], index)


RULES = KindRules((Kind.DRAW,), no_options, possible=possible, automatic=automatic)
