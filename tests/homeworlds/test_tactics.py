"""The ``search`` bot's tactical suite: every official win in one, and positions where a bot walked into a loss in one.

Each position must be solved within a budget. The tests give the search 500 ms, two and a half times the arena's
default, so that a loaded machine's pauses cannot fail them; at the default 200 ms the suite is measured
by ``benchmarks/homeworlds_strength.py``, not timed here. The win-in-one positions are the
official puzzles of the reference pack; the avoid-loss positions are the reference pack's
``avoid-loss.tsv`` (games of 2026-11 against Quuxplusone's AI) and :data:`FROM_ARENA`, taken
from arena games between ``search-v1`` and ``greedy`` where the bot on move played a turn that
allowed a win in one while a safe turn existed.
"""

from __future__ import annotations

import csv
import gc
import itertools
import random
import time

import pytest

from domain.contract import seat_view
from domain.homeworlds import GAME, HomeworldsState, Outcome, Position, Rules, Turn, play, successors, winning_turn
from domain.homeworlds.mcts import mcts_turn
from domain.homeworlds.movegen import winning_turn_by
from domain.homeworlds.search import _walk, find_win, greedy_turn, reinforcements, search_turn
from domain.homeworlds.threats import may_win

from .shared import GAMES, puzzle_positions, reference

BUDGET = 500
"""The search's think time in these tests, in ms."""

WINNING_PUZZLES = [p for p in puzzle_positions() if p[2]] if GAMES.exists() else [("reference pack", "", True, None)]

FROM_ARENA = [
    (
        "<0>; Player1(0,y3b2)g3-; Player2(1,y1b2)-r1r2g3; New2(y3)-r2r3; New4(b3)-r1r2y1y1y2; New5(b3)g1g2-; "
        "New1(r1)-r3g1g1g3; New6(r3)g2g2-",
        "sacrifice g1 New5; build g1 Player1",
    ),
    (
        "<1>; Player1(0,y1b3)r3y2y3g1g3-; Player2(1,y2b3)y3-y3g3g3; New2(b1)b3-r2r2y1y1g2; New3(b2)r1r1-; "
        "New5(g1)r3r3-; New1(b2)r2g2g2-; New4(g1)-y2b1b2",
        "move g2 New2 New1",
    ),
    ("<1>; Player1(0,y1b3)r3g1g2-; Player2(1,y3b1)-g1; New1(b2)y3g3b3-g1", "build g2 Player2"),
    (
        "<0>; Player1(0,y1b3)g1g2b2-r3; Player2(1,y2b1)-r2r2g1g3; New1(g2)r1r2g3-; New2(y3)-r1; New3(b2)-r3r3; "
        "New4(y2)-r1",
        "discover g1 Player1 y2 New5",
    ),
    ("<1>; Player1(0,y1b3)r1y3-; Player2(1,y3b1)r1r2g1-g3", "build g1 Player2"),
]
"""Positions of arena games (``search-v1`` against ``greedy``, 60 ms a move) and the turn played that lost at once."""


def avoid_loss_rows() -> list[dict[str, str]]:
    """The reference pack's 14 rows: position, losing turn played, a safe turn, the refutation."""
    with reference("avoid-loss.tsv").open() as f:
        return list(csv.DictReader(f, delimiter="\t"))


def avoid_loss_positions() -> list[tuple[str, str]]:
    """The reference pack's positions and :data:`FROM_ARENA`: (position, losing turn). In rows 2, 3, 4, 5, 8
    and 10 of the pack the safe turns are long sacrifice turns that bring ships home, which the shortest-first
    ranking reaches late; the search finds them among its reinforcements."""
    return [(row["position"], row["losing_turn_played"]) for row in avoid_loss_rows()] + FROM_ARENA


AVOID_LOSS = avoid_loss_positions() if GAMES.exists() else FROM_ARENA


def state_of(position: Position) -> HomeworldsState:
    return HomeworldsState(position, Rules())


def searched(position: Position) -> str:
    """The search's turn within :data:`BUDGET`. The collector is paused meanwhile: in the full suite one
    collection of the test process's heap can take a large part of the budget, which is the suite's cost,
    not the bot's."""
    seat = position.to_move
    gc.collect()
    gc.disable()
    try:
        move = GAME.bots["search"](seat_view(GAME, state_of(position), seat), seat, random.Random(1), BUDGET)
    finally:
        gc.enable()
    assert isinstance(move, str)
    return move


@pytest.mark.parametrize("puzzle", WINNING_PUZZLES, ids=lambda p: p[0])
def test_search_wins_every_official_win_in_one(puzzle: tuple[str, str, bool, str | None]) -> None:
    reference("puzzles.md")
    name, text, _, _ = puzzle
    position = Position.from_text(text)
    assert play(position, Turn.parse(searched(position))).outcome() == Outcome(0), name


def test_the_avoid_loss_suite_is_complete() -> None:
    reference("avoid-loss.tsv")
    assert len(avoid_loss_rows()) == 14
    assert len(AVOID_LOSS) == 14 + len(FROM_ARENA)


@pytest.mark.parametrize("case", AVOID_LOSS, ids=[f"avoid-loss-{i}" for i in range(len(AVOID_LOSS))])
def test_search_avoids_every_loss_in_one(case: tuple[str, str]) -> None:
    text, losing = case
    position = Position.from_text(text)
    assert winning_turn(play(position, Turn.parse(losing))) is not None
    move = searched(position)
    reached = play(position, Turn.parse(move))
    assert reached.outcome() is None
    win, done = find_win(reached, Rules(), time.monotonic() + 60)
    assert done and win is None, f"{move} allows {win}"


def test_every_pack_position_has_a_safe_turn_and_a_refutation() -> None:
    rows = avoid_loss_rows()
    for i in range(len(rows)):
        position = Position.from_text(rows[i]["position"])
        lost = play(position, Turn.parse(rows[i]["losing_turn_played"]))
        assert play(lost, Turn.parse(rows[i]["the_refutation"])).outcome() == Outcome(1 - position.to_move)
        win, done = find_win(play(position, Turn.parse(rows[i]["a_safe_turn"])), Rules(), time.monotonic() + 60)
        assert done and win is None


def test_the_reinforcements_hold_the_only_safe_turn_of_row_8() -> None:
    """Row 8 of the pack has one safe turn among its 9,865 (a yellow sacrifice moving two ships home, one of them
    in two steps); the reinforcements list it, and none of those the rules accept loses at once."""
    row = avoid_loss_rows()[8]
    position = Position.from_text(row["position"])
    safe = play(position, Turn.parse(row["a_safe_turn"]))
    reached = []
    for turn in reinforcements(position):
        try:
            reached.append(play(position, turn))
        except ValueError:
            continue
    assert safe in reached
    assert reached and all(position.to_move not in r.losers() for r in reached)


def test_may_win_never_rules_out_a_real_win() -> None:
    wins = [Position.from_text(text) for _, text, win, _ in WINNING_PUZZLES if win and text]
    refutations = [play(Position.from_text(text), Turn.parse(losing)) for text, losing in AVOID_LOSS]
    for position in wins + refutations:
        assert may_win(position), position.text()
    rng = random.Random(4)
    ruled_out = agreed = 0
    for text, _ in AVOID_LOSS:
        position = Position.from_text(text)
        for _, reached in rng.sample(list(itertools.islice(successors(position), 100)), 2):
            if reached.outcome() is not None:
                continue
            win, done = winning_turn_by(reached, time.monotonic() + 1)
            if not done:
                continue
            if not may_win(reached):
                ruled_out += 1
                assert win is None, reached.text()
            masked, _ = find_win(reached, Rules(), time.monotonic() + 10)
            assert (masked is None) == (win is None), reached.text()
            agreed += 1
    assert ruled_out >= 5 and agreed >= 10


def test_the_searches_stop_at_their_deadline() -> None:
    """The first avoid-loss position: after the losing turn, the depth-first win search needs seconds
    (the enemy has some 200,000 turns); with a deadline already passed it gives up at once."""
    text, losing = AVOID_LOSS[0]
    heavy = play(Position.from_text(text), Turn.parse(losing))
    assert winning_turn_by(heavy, time.monotonic() - 1) == (None, False)
    assert list(_walk(heavy, time.monotonic() - 1)) == []
    started = time.monotonic()
    move = greedy_turn(heavy, Rules(), random.Random(1), 50)
    assert time.monotonic() - started < 1.0  # uninterrupted, this position's win search takes over 2 s
    play(heavy, move)
    for turn_of in (search_turn, mcts_turn):
        started = time.monotonic()
        move = turn_of(heavy, Rules(), random.Random(1), 50)
        assert time.monotonic() - started < 1.0
        play(heavy, move)
