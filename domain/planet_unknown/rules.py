"""The rules, gathered: what each move is allowed to do, what each event does to the state, and the
automatic steps of the round (refills, civ-card slots, end of game).

``evolve`` applies an event without checking it (:mod:`.fold`); ``decide`` checks a move and returns
its events (:mod:`.turn`, with each kind of pending benefit in :mod:`.benefits`); ``settle`` applies
every automatic event that comes after them (:mod:`.flow`). This module only re-exports them.
"""

from __future__ import annotations

from .benefits import possible
from .benefits.choose import FLUX, HEIGHT, choice_tracks
from .benefits.civ import CIV_RAISE_TO, civ_choices
from .benefits.deploy import deploy_squares
from .benefits.draw import SHARED, SHARED_DRAW
from .benefits.meteorite import empty_symbols
from .benefits.patch import patch_squares
from .benefits.pieces import targets
from .benefits.regress import regress_choice
from .benefits.select import pick_options
from .flow import settle
from .fold import evolve
from .gains import energy_options, tech_energy_options
from .reading import (
    can_advance,
    can_place,
    contact_mask,
    depot,
    depot_empty,
    offered,
    power_levels,
    station_turns_itself,
    tile_placements,
    tile_rule,
    to_act,
)
from .setup import PLANET, PRIVATE_OBJECTIVES_DEALT, SOLO_OBJECTIVES, deal, events_on, initial, new_seat
from .turn import decide, legal_moves, moved, play

__all__ = [
    "CIV_RAISE_TO",
    "FLUX",
    "HEIGHT",
    "PLANET",
    "PRIVATE_OBJECTIVES_DEALT",
    "SHARED",
    "SHARED_DRAW",
    "SOLO_OBJECTIVES",
    "can_advance",
    "can_place",
    "choice_tracks",
    "civ_choices",
    "contact_mask",
    "deal",
    "decide",
    "deploy_squares",
    "depot",
    "depot_empty",
    "empty_symbols",
    "energy_options",
    "events_on",
    "evolve",
    "initial",
    "legal_moves",
    "moved",
    "new_seat",
    "offered",
    "patch_squares",
    "pick_options",
    "play",
    "possible",
    "power_levels",
    "regress_choice",
    "settle",
    "station_turns_itself",
    "targets",
    "tech_energy_options",
    "tile_placements",
    "tile_rule",
    "to_act",
]
