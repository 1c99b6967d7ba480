"""Which private objective the search bot gives up at the start of a solo game (4 drawn, 3 kept)."""

from __future__ import annotations

import dataclasses
import random

from domain import contract
from domain.planet_unknown import GAME, search
from domain.planet_unknown.data import private_objectives
from domain.planet_unknown.model import Phase

from .test_search_bot import NODES, dealt

AREA = 46
"""One water area holding 6 resource icons: met in about one solo game in six by this bot."""
RECTANGLES = (37, 49, 40)
"""A 3x3 civ block, a 2x5 civ block and a 3x3 water block: rectangles, met in about three games in ten
taken together."""


def test_an_area_of_six_icons_is_given_up_before_a_rectangle() -> None:
    assert private_objectives()[AREA].condition == "one_area_with_resource_icons"
    assert all(private_objectives()[c].condition == "rectangle_of_terrain" for c in RECTANGLES)
    assert search._EASE["one_area_with_resource_icons"] < search._EASE["rectangle_of_terrain"]
    state = dealt(1, b"reject")
    assert state.phase is Phase.INTERLUDE
    for offer in ((AREA, *RECTANGLES), (*RECTANGLES, AREA)):
        seat = dataclasses.replace(state.seats[0], objective_offer=offer)
        view = contract.seat_view(GAME, dataclasses.replace(state, seats=(seat,)), 0)
        move = search.choose(view, 0, random.Random(0), 60_000, nodes=NODES, use_plans=False)
        assert move == {"action": "reject", "card": AREA}
