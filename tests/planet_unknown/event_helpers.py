"""Positions at the moment an event card is revealed, for the event-deck tests."""

from __future__ import annotations

import dataclasses
from typing import Any

from domain.planet_unknown import GAME, PlanetUnknown
from domain.planet_unknown.model import Phase, Stage
from domain.planet_unknown.rules import settle

from .helpers import Play, offer, start, with_seat

RICH = "ksb-4156 12/12/12/12/12/eCwWb7/6rRtT2/12/12/12/12/12 t:3.3.3.3.2 met:c6 sym:a6,c6 rov:b7,f7 mc:3 lc:2"
"""A board where every event card has something to act on: tiles of every terrain, two rovers,
meteorites on the planet and collected, lifepods on the planet and collected, trackers at 2-3."""


def at_event(
    card: int,
    *positions: str,
    players: int = 1,
    after: tuple[int, ...] = (80,),
    tiles: tuple[int, int | None] | None = None,
    objectives: tuple[int, ...] = (),
    game: PlanetUnknown = GAME,
    **changes: Any,
) -> Play:
    """A game of ``game`` (rules version) whose next step reveals ``card`` (``after`` stays in the deck), with
    seat i at ``positions[i]``."""
    state = start(players, b"events", game=game)
    for i, text in enumerate(positions):
        state = with_seat(state, i, text)
    if tiles is not None:
        for i in range(players):
            state = offer(state, i, *tiles)
    seats = tuple(
        dataclasses.replace(s, stage=Stage.IDLE, pending=(), moves=0, private_objectives=objectives)
        for s in state.seats
    )
    state = dataclasses.replace(
        state,
        seats=seats,
        phase=Phase.DRAFT,
        drafted=False,
        last_round=False,
        event_card=None,
        event_deck=(card, *after),
        event_rolls=(0,) * (1 + len(after)),
        event_mix=(7, 7, 6),
        **changes,
    )
    state, events = settle(state)
    play = Play(state)
    play.events.extend(events)
    return play
