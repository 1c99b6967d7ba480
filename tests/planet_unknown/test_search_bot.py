"""The ``search`` bot: it reads only the seat's view, plays legal moves through whole games and keeps
to its time budget."""

from __future__ import annotations

import dataclasses
import random
import time

import pytest

from domain import contract
from domain.planet_unknown import GAME, rules, search
from domain.planet_unknown.bots import BOTS
from domain.planet_unknown.data import SIZE, TRACKS, Terrain, tiles
from domain.planet_unknown.determinise import determinise, unseen_tiles
from domain.planet_unknown.edits import cover
from domain.planet_unknown.model import Stage, State

NODES = 400
"""Positions a test search may play: enough for a real plan, and the same on any machine."""


def dealt(players: int, seed: bytes) -> State:
    state = GAME.initial(players, contract.parse_options(GAME.options, {}))
    return contract.fold(GAME, state, GAME.setup(state, seed))


def to_first_placement(state: State, seat: int = 0) -> State:
    """Play greedy until ``seat`` chooses its first tile."""
    rng = random.Random(0)
    while state.seats[seat].stage is not Stage.CHOOSING or seat not in GAME.to_act(state):
        mover = min(GAME.to_act(state))
        move = BOTS["greedy"](contract.seat_view(GAME, state, mover), mover, rng, 0)
        state = contract.fold(GAME, state, GAME.decide(state, mover, move))
    return state


def reshuffled(state: State) -> State:
    """The same game with every stack's face-down tiles in another order: only hidden facts differ."""
    stacks = tuple(
        (stack[:1] + stack[:0:-1]) if shown else stack[::-1]
        for stack, shown in zip(state.stacks, state.revealed, strict=True)
    )
    return dataclasses.replace(state, stacks=stacks)


def planned(state: State, seat: int, seed: int) -> contract.JSON:
    view = contract.seat_view(GAME, state, seat)
    return search.choose(view, seat, random.Random(seed), 60_000, nodes=NODES, use_plans=False)


@pytest.mark.parametrize("players", [1, 3])
def test_hidden_stacks_do_not_change_the_move(players: int) -> None:
    state = to_first_placement(dealt(players, b"hidden"))
    other = reshuffled(state)
    assert other.stacks != state.stacks
    assert GAME.seat_state(other, 0) == GAME.seat_state(state, 0)
    for seed in (1, 2):
        assert planned(state, 0, seed) == planned(other, 0, seed)


def test_determinisation_draws_only_unseen_tiles() -> None:
    state = to_first_placement(dealt(1, b"sample"))
    view = GAME.seat_state(state, 0)
    pools = unseen_tiles(view)
    unseen = {t for pool in pools.values() for t in pool}
    world = determinise(view, random.Random(4))
    assert determinise(view, random.Random(4)) == world
    for stack, shown, seen in zip(world.stacks, world.revealed, view.stacks, strict=True):
        assert len(stack) == len(seen)
        hidden = stack[1:] if shown else stack
        assert set(hidden) <= unseen
        if shown and stack:
            assert stack[0] == seen[0]
    drawn = [t for stack, shown in zip(world.stacks, world.revealed, strict=True) for t in stack[1 if shown else 0 :]]
    assert len(drawn) == len(set(drawn))


def play(players: int, seed: bytes, bots: dict[int, str], think_ms: int) -> State:
    state = dealt(players, seed)
    rng = random.Random(seed)
    plies = 0
    while GAME.outcome(state) is None:
        for seat in sorted(GAME.to_act(state)):
            move = BOTS[bots[seat]](contract.seat_view(GAME, state, seat), seat, rng, think_ms)
            assert move in list(GAME.legal_moves(state, seat))
            state = contract.fold(GAME, state, GAME.decide(state, seat, move))
            plies += 1
            assert plies < 2000
            if GAME.outcome(state) is not None:
                break
    return state


def test_plays_a_whole_solo_game() -> None:
    state = play(1, b"solo-search", {0: "search"}, 15)
    assert GAME.scores(state)["final"] is True


def test_plays_a_whole_three_seat_game() -> None:
    state = play(3, b"three-search", {0: "search", 1: "random", 2: "search"}, 10)
    assert GAME.outcome(state) is not None


def test_keeps_to_its_budget() -> None:
    state = to_first_placement(dealt(1, b"budget"))
    view = contract.seat_view(GAME, state, 0)
    for think_ms in (50, 300):
        started = time.perf_counter()
        move = search.choose(view, 0, random.Random(0), think_ms, use_plans=False)
        elapsed_ms = 1000 * (time.perf_counter() - started)
        assert move in list(GAME.legal_moves(state, 0))
        assert elapsed_ms < 1.5 * think_ms


def test_a_passed_deadline_still_gives_a_legal_move() -> None:
    state = to_first_placement(dealt(1, b"late"))
    view = GAME.seat_state(state, 0)
    line = search.plan_turn(view, 0, random.Random(0), deadline=time.perf_counter() - 1)
    assert line and line[0].to_json() in list(GAME.legal_moves(state, 0))


def test_registered_by_name() -> None:
    assert BOTS["search"] is search.search


def test_next_tiles_are_what_the_next_round_offers() -> None:
    state = to_first_placement(dealt(1, b"ahead"))
    upcoming = search.next_tiles(GAME.seat_state(state, 0), 0)
    assert len(upcoming) == 2
    assert not set(upcoming) & set(rules.offered(state, 0))
    rng = random.Random(0)
    first = state.round
    while state.round == first or not (state.seats[0].stage is Stage.CHOOSING and 0 in GAME.to_act(state)):
        move = BOTS["greedy"](contract.seat_view(GAME, state, 0), 0, rng, 0)
        state = contract.fold(GAME, state, GAME.decide(state, 0, move))
    assert state.round == first + 1
    assert sorted(rules.offered(state, 0)) == sorted(upcoming)


def test_no_next_tiles_when_a_commander_turns_the_station() -> None:
    state = to_first_placement(dealt(3, b"ahead"))
    assert search.next_tiles(GAME.seat_state(state, 0), 0) == []


def test_next_fit_rates_the_best_placement_of_the_next_tiles() -> None:
    state = to_first_placement(dealt(1, b"fit"))
    view = GAME.seat_state(state, 0)
    upcoming = search.next_tiles(view, 0)
    assert search.next_fit(view, 0, []) == 0.0
    assert search.next_fit(view, 0, upcoming, deadline=time.perf_counter() - 1) == 0.0
    both = search.next_fit(view, 0, upcoming)
    alone = [search.next_fit(view, 0, [tile]) for tile in upcoming]
    assert both > 0
    assert both == max(alone)


def test_next_fit_counts_what_the_next_tiles_icons_would_advance() -> None:
    state = to_first_placement(dealt(1, b"fit"))
    view = GAME.seat_state(state, 0)
    tile = next(t for t in tiles() if set(t.resources) == {Terrain.BIOMASS, Terrain.CIV})
    seat = view.seats[0]
    topped = dataclasses.replace(
        seat, tracks=tuple(15 if t in (Terrain.BIOMASS, Terrain.CIV) else seat.track(t) for t in TRACKS)
    )
    blocked = search.next_fit(dataclasses.replace(view, seats=(topped,)), 0, [tile.id])
    assert search.next_fit(view, 0, [tile.id]) > blocked + 0.5


def test_open_edge_counts_the_sides_between_covered_and_uncovered_squares() -> None:
    seat = dealt(1, b"edge").seats[0]
    middle = 5 * SIZE + 5
    assert search.open_edge(seat) == 0
    assert search.open_edge(cover(seat, {middle: "c"})) == 4
    assert search.open_edge(cover(seat, {middle: "c", middle + 1: "c"})) == 6
    assert search.open_edge(cover(seat, {middle: "c", middle + 2: "c"})) == 8


def test_a_ragged_edge_costs_its_extra_sides_and_nothing_else() -> None:
    state = dealt(1, b"flush")
    seat = dataclasses.replace(state.seats[0], private_objectives=())
    dominoes = cover(seat, {5 * SIZE + 5: "c", 5 * SIZE + 6: "c", 6 * SIZE + 7: "c", 6 * SIZE + 8: "c"})
    checkered = cover(seat, {5 * SIZE + 5: "c", 5 * SIZE + 7: "c", 6 * SIZE + 6: "c", 6 * SIZE + 8: "c"})
    extra = search.open_edge(checkered) - search.open_edge(dominoes)
    assert extra == 4
    rated = [search.evaluate(dataclasses.replace(state, seats=(s,)), 0, final=True) for s in (dominoes, checkered)]
    assert rated[0] - rated[1] == pytest.approx(search.ROUGHNESS * extra)
