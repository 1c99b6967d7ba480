"""``peek``: look at the next event card (automatic; event cards)."""

from __future__ import annotations

from domain.contract import Event

from .. import events as ev
from ..model import Benefit, Kind, State
from .base import KindRules, no_options


def possible(state: State, seat: int, benefit: Benefit) -> bool:
    """While the event deck holds cards."""
    return bool(state.event_deck)


def automatic(state: State, seat: int, index: int, benefit: Benefit) -> Event | None:
    """The card peeked at."""
    return ev.NextEventPeeked(seat, state.event_deck[0], index)


RULES = KindRules((Kind.PEEK,), no_options, possible=possible, automatic=automatic)
