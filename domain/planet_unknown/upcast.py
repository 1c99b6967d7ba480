"""Events stored before they carried their outcomes, read as events that do.

Games of rules ``planet-unknown-3`` to ``-5`` store their events without outcome fields (the payloads lack
the keys, so they decode as None, "not recorded"), and those versions go on storing them so. Folding such
an event, :func:`upcast` first completes it from the state before it with the rules' own computation
(:func:`.outcomes.record`, under the game's :attr:`.model.State.rulings`), exactly as the fold computed it
when it was played; an event that carries its outcome is returned as it is, and no rule runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from domain.contract import Event

from . import events as ev
from .model import State
from .outcomes import record

OUTCOMES: Mapping[type[Event], tuple[str, ...]] = {
    ev.RoundStarted: ("powers_freed",),
    ev.DraftStarted: ("moves", "powers_freed", "corporation_states"),
    ev.TilePlaced: ("gains", "meteorites"),
    ev.TileTaken: ("gains",),
    ev.TrackAdvanced: ("position", "gains", "moves", "queued", "corporation_state"),
    ev.RoverDeployed: ("collected", "meteorites", "gains", "corporation_state"),
    ev.RoverMoved: ("moves", "collected", "meteorites", "gains", "corporation_state"),
    ev.RoverTeleported: ("collected", "meteorites", "gains", "corporation_state"),
    ev.PatchPlaced: ("gains", "powers_used", "corporation_state"),
    ev.PatchStored: ("gains", "powers_used", "corporation_state"),
    ev.CivCardTaken: ("gains", "moves"),
    ev.LifepodCollected: ("gains",),
    ev.MeteoriteCollected: ("gains",),
    ev.LineCleared: ("destroyed",),
    ev.CivSlotStarted: ("gains", "moves", "powers_freed", "corporation_state"),
    ev.EndGameTurnStarted: ("gains", "moves", "powers_freed", "end_cards", "corporation_states"),
    ev.SetupRevealed: ("lifepods", "rovers", "corporation_states"),
    ev.EventRevealed: ("changes_piles", "gains", "rovers_gained", "lifepods_lost", "meteorites_lost"),
    ev.TrackRegressed: ("position",),
    ev.HeightClaimed: ("gains", "moves", "queued"),
    ev.LifepodMoved: ("corporation_state",),
    ev.PowerUsed: ("gains", "replaced", "replacement", "moves", "track", "position", "once", "corporation_state"),
}
"""The outcome fields of each event type that has some (:mod:`.events`): None in an event stored without
its outcome; a recorded event has at least one of them set."""


def recorded(event: Event) -> bool:
    """Whether ``event`` carries its outcome (events without outcome fields always do)."""
    names = OUTCOMES.get(type(event))
    return names is None or any(getattr(event, name) is not None for name in names)


def upcast(state: State, event: Event) -> Event:
    """``event`` with its outcome, recorded from ``state`` (the state before it) if it was stored without."""
    return event if recorded(event) else record(state, event)


def stripped(event: Event) -> Event:
    """``event`` as rules ``planet-unknown-3`` to ``-5`` store it: without its outcome."""
    names = OUTCOMES.get(type(event))
    return event if names is None else dataclasses.replace(event, **dict.fromkeys(names))
