"""The built-in bots: wins they must find, losses they must avoid, legality, budget, determinism."""

from __future__ import annotations

import gc
import random
import time

import pytest

from domain import contract
from domain.arena import arena_bots, play_match
from domain.contract import seat_view
from domain.homeworlds import (
    GAME,
    HomeworldsState,
    Outcome,
    Position,
    Rules,
    Turn,
    bots,
    play,
    successors,
    winning_turn,
)
from domain.homeworlds.evaluation import WIN, evaluate, pressure_at
from domain.homeworlds.state import repetition_key, repetitions

from .shared import GAMES, puzzle_positions, reference

WINNING_PUZZLES = [p for p in puzzle_positions() if p[2]] if GAMES.exists() else [("reference pack", "", True, None)]

# Player 2's r3 sits in player 1's homeworld next to its only ship, a g1: passing loses at once.
THREATENED = "<0>; Alpha(0,b1y2)g1-r3; Beta(1,y3g3)-g1"


def state_of(text: str) -> HomeworldsState:
    return HomeworldsState(Position.from_text(text), Rules())


def test_the_bots_are_registered() -> None:
    assert set(GAME.bots) == {"random", "greedy", "search"}
    assert set(arena_bots(GAME)) == {"random", "greedy", "search", "search-v1", "search-alphabeta"}


@pytest.mark.parametrize("puzzle", WINNING_PUZZLES, ids=lambda p: p[0])
def test_greedy_wins_every_official_win_in_one(puzzle: tuple[str, str, bool, str | None]) -> None:
    reference("puzzles.md")
    name, text, _, _ = puzzle
    state = state_of(text)
    move = bots.greedy(seat_view(GAME, state, 0), 0, random.Random(1), 1000)
    assert isinstance(move, str)
    assert play(state.position, Turn.parse(move)).outcome() == Outcome(0), name


def test_there_are_51_official_wins() -> None:
    reference("puzzles.md")
    assert len(WINNING_PUZZLES) == 51


@pytest.mark.parametrize("name", ["greedy", "search"])
def test_no_move_into_an_immediate_loss_when_avoidable(name: str) -> None:
    state = state_of(THREATENED)
    assert winning_turn(play(state.position, Turn.parse("pass"))) is not None
    move = GAME.bots[name](seat_view(GAME, state, 0), 0, random.Random(3), 500)
    assert isinstance(move, str)
    reached = play(state.position, Turn.parse(move))
    assert reached.outcome() is None
    assert winning_turn(reached) is None


@pytest.mark.parametrize("name", ["greedy", "search"])
def test_deterministic_given_the_rng(name: str) -> None:
    state = state_of("<0>; Alpha(0,y3b1)r2g1g3-; Beta(1,y3b2)-g1g2g3; Gamma(r1)-y1; Delta(b2)g2-")
    moves = {GAME.bots[name](seat_view(GAME, state, 0), 0, random.Random(7), 1000) for _ in range(3)}
    assert len(moves) == 1


def play_some(first: str, second: str, plies: int, think_ms: int, seed: int) -> list[tuple[str, float]]:
    """Plies of a game between two bots from the start; each move with the bot's time, in seconds."""
    state = GAME.initial(2, {})
    rng = random.Random(seed)
    seated = (first, second)
    timed = []
    for _ in range(plies):
        if state.outcome is not None:
            break
        seat = state.position.to_move
        started = time.perf_counter()
        move = GAME.bots[seated[seat]](seat_view(GAME, state, seat), seat, rng, think_ms)
        elapsed = time.perf_counter() - started
        state = contract.fold(GAME, state, GAME.decide(state, seat, move))
        timed.append((seated[seat], elapsed))
    return timed


def test_search_plays_legal_turns_within_its_budget() -> None:
    """The search holds its budget. The garbage collector is paused while it is timed: in the full
    suite the test process holds the heap of every test before it, and one collection of that heap
    (over 100 ms) is the suite's cost, not the bot's."""
    for seed in (1, 2):
        gc.collect()
        gc.disable()
        try:
            timed = play_some("search", "greedy", 30, 100, seed)
        finally:
            gc.enable()
        times = [elapsed for name, elapsed in timed if name == "search"]
        assert times
        assert max(times) < 0.15  # a 100 ms budget, held to 1.5 x as the bots' contract asks


def test_greedy_beats_random_in_a_short_game() -> None:
    state = GAME.initial(2, {})
    rng = random.Random(11)
    seats = ("greedy", "random")
    while state.outcome is None:
        seat = state.position.to_move
        move = GAME.bots[seats[seat]](seat_view(GAME, state, seat), seat, rng, 100)
        state = contract.fold(GAME, state, GAME.decide(state, seat, move))
    assert state.outcome.winners == (0,)


def test_evaluation_is_antisymmetric_and_decides_finished_games() -> None:
    position = Position.from_text("<1>; Alpha(0,y3b1)r2g1g3-; Beta(1,y3b2)-g1g2g3; Gamma(r1)-y1")
    assert evaluate(position, 0) == pytest.approx(-evaluate(position, 1))
    lost = Position.from_text("<1>; Alpha(0,y3b1)r2-; Beta(1,y3b2)r3-")
    assert evaluate(lost, 0) == WIN
    assert evaluate(lost, 1) == -WIN
    assert pressure_at(1) == 1.0 < pressure_at(200)


def test_the_arena_seats_the_reference_bot_and_stops_games_at_the_cap() -> None:
    result = play_match(GAME, "search", "search-v1", 2, think_ms=5, seed="cap", max_plies=6)
    assert [g.plies for g in result.games] == [6, 6]
    assert result.unfinished == 2
    assert "2 stopped at the ply limit" in result.summary()
    assert result.a.slowest_ms > 0 and result.a.mean_think_ms <= result.a.slowest_ms


@pytest.mark.parametrize("name", ["greedy", "search"])
def test_a_repeated_position_turns_the_bot_away_from_its_usual_turn(name: str) -> None:
    """The same position seen twice already, first with another position in between, then with the one the
    bot's usual turn reaches: the bot plays another turn, one that repeats nothing and allows no win in one."""
    position = Position.from_text("<0>; Alpha(0,y1b2)g1g3-; Beta(1,r1b3)-g1g3")
    seat = position.to_move
    fresh = HomeworldsState(position, Rules(), turn=20, history=(repetition_key(position), 0, repetition_key(position)))
    usual = play(position, Turn.parse(str(GAME.bots[name](seat_view(GAME, fresh, seat), seat, random.Random(3), 300))))
    history = (repetition_key(position), repetition_key(usual), repetition_key(position))
    state = HomeworldsState(position, Rules(), turn=20, history=history)
    assert repetitions(state) == 2
    move = GAME.bots[name](seat_view(GAME, state, seat), seat, random.Random(3), 300)
    reached = play(position, Turn.parse(str(move)))
    assert repetition_key(reached) not in history
    assert reached.outcome() is None and winning_turn(reached) is None


def test_when_every_safe_turn_repeats_the_bot_still_plays_a_safe_one() -> None:
    position = Position.from_text(THREATENED)
    seat = position.to_move
    safe = [reached for _, reached in successors(position) if reached.outcome() is None and not winning_turn(reached)]
    history = (repetition_key(position), *(repetition_key(r) for r in safe), repetition_key(position))
    state = HomeworldsState(position, Rules(), history=history)
    for name in ("greedy", "search"):
        move = GAME.bots[name](seat_view(GAME, state, seat), seat, random.Random(1), 300)
        reached = play(position, Turn.parse(str(move)))
        assert reached.outcome() is None and winning_turn(reached) is None, name


def test_bots_thinking_at_once_leave_the_collector_as_they_found_it() -> None:
    import gc
    import threading

    from domain.homeworlds import bots

    assert gc.isenabled()
    second_in, first_done = threading.Event(), threading.Event()
    seen: list[bool] = []

    def second() -> None:
        with bots._collector_paused():
            second_in.set()
            first_done.wait(5)
            seen.append(gc.isenabled())

    with bots._collector_paused():
        thread = threading.Thread(target=second)
        thread.start()
        assert second_in.wait(5)
    first_done.set()
    thread.join(5)
    assert seen == [False], "the collector came back while the second bot was still thinking"
    assert gc.isenabled()
