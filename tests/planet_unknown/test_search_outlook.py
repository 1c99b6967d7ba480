"""What the search bot reads of the rounds left: tiles still to place, the chance of a run of advances, the
squares the station still supplies, and what it makes of them (tracker objectives, civ cards, an emptied
stack)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domain import contract
from domain.planet_unknown import GAME, outlook, search
from domain.planet_unknown.data import TRACKS, Terrain, private_objectives, station, tiles
from domain.planet_unknown.model import Stage, State
from domain.planet_unknown.reading import depot

from .event_helpers import at_event
from .helpers import EMPTY, start
from .test_search_bot import dealt, to_first_placement

ADVANCES = (68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78)
"""Green event cards that only advance trackers: a deck of them changes nothing the tests look at."""


def size(stack: int) -> int:
    inner, outer, _ = station()
    shape = (outer + inner)[stack]
    return next(len(t.squares) for t in tiles() if t.shape == shape)


class TestRoundsLeft:
    def test_solo_counts_this_rounds_tile_until_it_is_placed(self) -> None:
        state = to_first_placement(dealt(1, b"rounds"))
        assert state.seats[0].stage is Stage.CHOOSING
        assert outlook.rounds_left(state, 0) == len(state.event_deck) + 1 == 20
        placed = dataclasses.replace(state, seats=(dataclasses.replace(state.seats[0], stage=Stage.RESOLVING),))
        assert outlook.rounds_left(placed, 0) == 19
        assert outlook.rounds_left(dataclasses.replace(placed, last_round=True), 0) == 0

    def test_unknown_without_an_event_deck(self) -> None:
        state = to_first_placement(dealt(3, b"rounds"))
        assert state.event_deck == ()
        assert outlook.rounds_left(state, 0) is None
        assert outlook.supply(state, 0, 0.3) is None


class TestReachChance:
    def test_binomial_tail(self) -> None:
        assert outlook.reach_chance(0, 5, 0.5) == 1.0
        assert outlook.reach_chance(6, 5, 0.9) == 0.0
        assert outlook.reach_chance(1, 2, 0.5) == pytest.approx(0.75)
        assert outlook.reach_chance(2, 2, 0.5) == pytest.approx(0.25)
        assert outlook.reach_chance(3, 4, 0.5) == pytest.approx(5 / 16)

    def test_more_rounds_help_and_more_need_hurts(self) -> None:
        chances = [outlook.reach_chance(10, rounds, 0.72) for rounds in range(8, 21)]
        assert chances == sorted(chances) and chances[0] == 0.0 and chances[-1] > 0.9
        needs = [outlook.reach_chance(need, 15, 0.72) for need in range(0, 17)]
        assert needs == sorted(needs, reverse=True) and needs[0] == 1.0 and needs[-1] == 0.0


class TestSupply:
    def test_every_round_left_brings_its_depots_larger_tile_less_a_share(self) -> None:
        state = to_first_placement(dealt(1, b"supply"))
        rounds = outlook.rounds_left(state, 0)
        assert rounds is not None
        expected = 0.0
        turned = state
        for _ in range(rounds):
            large, small = sorted((size(k) for k in depot(turned, 0)), reverse=True)
            expected += large - 0.3 * (large - small)
            turned = dataclasses.replace(turned, rotation=(turned.rotation - 1) % 6)
        assert outlook.supply(state, 0, 0.3) == pytest.approx(expected)
        greedy, modest = outlook.supply(state, 0, 0.0), outlook.supply(state, 0, 1.0)
        assert greedy is not None and modest is not None and greedy > modest

    def test_an_emptied_stack_costs_every_later_visit_of_its_depot(self) -> None:
        play = at_event(116, EMPTY, after=ADVANCES[:7])
        state = play.state
        outer, inner = depot(state, 0)
        assert size(outer) > size(inner)
        before = outlook.supply(state, 0, 0.3)
        assert before is not None
        emptied = {k: _supply(_without(state, k)) for k in (outer, inner)}
        # this round and the visit six rounds on: the larger tile gone costs its difference twice
        assert before - emptied[outer] == pytest.approx(2 * 0.7 * (size(outer) - size(inner)))
        assert emptied[inner] == pytest.approx(before + 2 * 0.3 * (size(outer) - size(inner)))


def _supply(state: State) -> float:
    found = outlook.supply(state, 0, 0.3)
    assert found is not None
    return found


def _without(state: State, stack: int) -> State:
    stacks = tuple(() if k == stack else s for k, s in enumerate(state.stacks))
    return dataclasses.replace(state, stacks=stacks)


class TestSearchReadsTheOutlook:
    def test_an_event_empties_the_stack_of_the_smaller_tiles_when_the_depot_comes_round_again(self) -> None:
        play = at_event(116, EMPTY, after=ADVANCES[:7])
        outer, inner = depot(play.state, 0)
        assert size(outer) > size(inner)
        view = contract.seat_view(GAME, play.state, 0)
        move = search.choose(view, 0, random.Random(0), 60_000, nodes=400, use_plans=False)
        assert move == {"action": "empty", "stack": inner}

    def test_a_tracker_objective_is_worth_its_chance(self) -> None:
        state = to_first_placement(dealt(1, b"tracker"))
        card = next(c.id for c in private_objectives().values() if c.condition == "tracker_at_maximum")
        track = Terrain(private_objectives()[card].params["track"])
        seat = dataclasses.replace(state.seats[0], private_objectives=(card,))
        rounds = outlook.rounds_left(state, 0)
        assert rounds == 20
        values = []
        for position in (0, 5, 10):
            tracks = tuple(position if t is track else p for t, p in zip(TRACKS, seat.tracks, strict=True))
            moved = dataclasses.replace(seat, tracks=tracks)
            values.append(search.tracker_chance(moved, card, rounds))
        assert values == [outlook.reach_chance(15 - p, 20, search.TRACKER_PACE) for p in (0, 5, 10)]
        assert 0.3 < values[0] < 0.7 < values[2]

    def test_a_civ_pick_waiting_is_worth_a_card_while_its_pile_holds_one(self) -> None:
        state = start(1, b"civ", events=True)
        seat = dataclasses.replace(state.seats[0], civ_queue=(2,))
        waiting = dataclasses.replace(state, seats=(seat,))
        assert search.civ_worth(waiting, 0, 0.0) - search.civ_worth(state, 0, 0.0) == search.CIV_CARD_WORTH[1]
        piles = tuple(() if rank == 2 else pile for rank, pile in enumerate(state.civ_piles, start=1))
        drained = dataclasses.replace(waiting, civ_piles=piles)
        assert search.civ_worth(drained, 0, 0.0) == search.civ_worth(state, 0, 0.0)
        rated = [search.evaluate(s, 0, final=True) for s in (state, waiting)]
        assert rated[1] - rated[0] == pytest.approx(search.CIV_CARD_WORTH[1])
