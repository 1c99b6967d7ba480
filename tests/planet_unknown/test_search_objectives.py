"""Which private objective the search bot gives up at the start of a solo game (4 drawn, 3 kept)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domain import contract
from domain.planet_unknown import GAME, search
from domain.planet_unknown.data import private_objectives
from domain.planet_unknown.model import Phase

from .test_search_bot import NODES, dealt

ENERGY_BLOCK = 42
"""A 3x3 energy block: met in 3 of 41 solo games by this bot; rated with the 2x5 energy block below every card
but the 2x5 rover block."""
TIGHT_SHIP = 62
"""More lifepods than meteorites collected: met in about half the games, at the cost of meteorites left on the
planet; given up whenever dealt (``search.GIVEN_UP_FIRST``)."""
NINE_METEORITES = 61
"""9 meteorites collected: met in about 4 of 10 games that keep it; keeping it draws the rovers to the
meteorites."""
OTHERS = (56, 63, 46)
"""The tech tracker at the top, no uncovered ice and a water area of 6 icons."""
RECTANGLES = (37, 49, 40)
"""A 3x3 civ block, a 2x5 civ block and a 3x3 water block."""
ROVER_SQUARE, ROVER_STRIP = 41, 53
"""A 3x3 rover block (met in 10 of the 58 games that kept it) and a 2x5 one (in none of 43)."""
TECH_SQUARE, TECH_STRIP = 38, 51
"""A 3x3 tech block and a 2x5 one: of these two the 3x3 is met less often."""


def rejected(offer: tuple[int, ...]) -> contract.JSON:
    state = dealt(1, b"reject")
    assert state.phase is Phase.INTERLUDE
    seat = dataclasses.replace(state.seats[0], objective_offer=offer)
    view = contract.seat_view(GAME, dataclasses.replace(state, seats=(seat,)), 0)
    return search.choose(view, 0, random.Random(0), 60_000, nodes=NODES, use_plans=False)


@pytest.mark.parametrize(
    "offer", [(ENERGY_BLOCK, *OTHERS), (*OTHERS, ENERGY_BLOCK), (OTHERS[0], ENERGY_BLOCK, *OTHERS[1:])]
)
def test_the_card_met_least_often_is_rejected_wherever_it_was_dealt(offer: tuple[int, ...]) -> None:
    assert private_objectives()[ENERGY_BLOCK].condition == "rectangle_of_terrain"
    assert rejected(offer) == {"action": "reject", "card": ENERGY_BLOCK}


def test_more_lifepods_than_meteorites_is_given_up_before_a_3x3_block() -> None:
    assert private_objectives()[TIGHT_SHIP].condition == "lifepods_collected_more_than_meteorites_collected"
    squares = (RECTANGLES[0], RECTANGLES[2], ROVER_SQUARE)
    assert all(private_objectives()[c].params["size"] == [3, 3] for c in squares)
    assert rejected((*squares, TIGHT_SHIP)) == {"action": "reject", "card": TIGHT_SHIP}


@pytest.mark.parametrize(
    "offer",
    [
        (ROVER_STRIP, TIGHT_SHIP, *OTHERS[:2]),
        (TIGHT_SHIP, ROVER_STRIP, ENERGY_BLOCK, RECTANGLES[1]),
        (RECTANGLES[1], ENERGY_BLOCK, ROVER_STRIP, TIGHT_SHIP),
    ],
)
def test_more_lifepods_than_meteorites_is_given_up_whenever_dealt(offer: tuple[int, ...]) -> None:
    assert search.met_rate(ROVER_STRIP) < search.met_rate(TIGHT_SHIP)
    assert rejected(offer) == {"action": "reject", "card": TIGHT_SHIP}


def test_nine_meteorites_collected_is_kept_over_a_3x3_rover_block() -> None:
    assert private_objectives()[NINE_METEORITES].condition == "meteorites_collected_at_least"
    offer = (NINE_METEORITES, ROVER_SQUARE, *OTHERS[:2])
    assert rejected(offer) == {"action": "reject", "card": ROVER_SQUARE}


def test_a_biomass_block_is_kept_over_blocks_of_other_terrains() -> None:
    biomass = next(
        c
        for c, card in private_objectives().items()
        if card.condition == "rectangle_of_terrain" and card.terrain == "biomass"
    )
    move = rejected((biomass, *RECTANGLES))
    assert move["action"] == "reject" and move["card"] in RECTANGLES


def test_every_private_objective_has_a_measured_rate() -> None:
    rates = {card_id: search.met_rate(card_id) for card_id in private_objectives()}
    assert all(0 < rate < 1 for rate in rates.values())
    assert rates[ROVER_STRIP] == min(rates.values())
    blocks = {c for c, card in private_objectives().items() if card.condition == "rectangle_of_terrain"}
    assert rates[ENERGY_BLOCK] < min(rate for c, rate in rates.items() if c not in blocks)


@pytest.mark.parametrize(
    ("offer", "given_up"),
    [
        ((ROVER_SQUARE, ROVER_STRIP, *OTHERS[:2]), ROVER_STRIP),
        ((ROVER_STRIP, ROVER_SQUARE, *OTHERS[:2]), ROVER_STRIP),
        ((TECH_STRIP, TECH_SQUARE, *OTHERS[:2]), TECH_SQUARE),
        ((TECH_SQUARE, TECH_STRIP, *OTHERS[:2]), TECH_SQUARE),
    ],
)
def test_a_block_is_rated_by_its_size_as_well_as_its_terrain(offer: tuple[int, ...], given_up: int) -> None:
    assert {private_objectives()[c].terrain for c in offer[:2]} == {private_objectives()[given_up].terrain}
    assert rejected(offer) == {"action": "reject", "card": given_up}
