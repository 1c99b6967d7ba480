"""The search bot's pull of its rovers towards the meteorites that hold back a row or column."""

from __future__ import annotations

import dataclasses

import pytest

from domain.planet_unknown import outlook, search
from domain.planet_unknown.data import SIZE, planets
from domain.planet_unknown.edits import cover
from domain.planet_unknown.model import State

from .test_search_bot import dealt

ROW = 4
"""A row of KSB-4156 whose grid squares are columns 1 to 10."""
METEORITE = ROW * SIZE + 5


def with_rovers(*rovers: int, row_covered: bool = True, meteorites: frozenset[int] = frozenset({METEORITE})) -> State:
    """A solo game at its start, with ``ROW`` covered (or not), one meteorite on it and the rovers on ``rovers``."""
    state = dealt(1, b"meteorite pull")
    seat = dataclasses.replace(state.seats[0], private_objectives=(), lifepods=frozenset())
    if row_covered:
        seat = cover(seat, {ROW * SIZE + column: "c" for column in range(1, SIZE - 1)})
    seat = dataclasses.replace(seat, meteorites=meteorites, rovers=rovers)
    return dataclasses.replace(state, seats=(seat,))


def pull(state: State) -> float:
    return search.meteorite_pull(state, 0, 1.0, final=True)


def test_nothing_without_a_rover_on_the_planet() -> None:
    assert pull(with_rovers()) == 0
    assert pull(with_rovers(-1)) == 0


def test_a_nearer_rover_is_pulled_harder_towards_a_meteorite_alone_on_a_complete_row() -> None:
    near, far = pull(with_rovers(METEORITE + 1)), pull(with_rovers(METEORITE + 6 * SIZE))
    assert near > far > 0
    assert pull(with_rovers(METEORITE + 1, METEORITE + 6 * SIZE)) == near


def test_with_the_promises_faded_the_pull_is_a_share_of_the_row_medal_withheld() -> None:
    state = with_rovers(METEORITE + 1)
    rounds = outlook.rounds_left(state, 0)
    assert rounds
    travel = search.ROVER_PACE * rounds
    medal = planets()[state.seats[0].planet].row_medals[ROW]
    expected = search.METEORITE_PULL * medal * travel / (travel + 1)
    assert search.meteorite_pull(state, 0, 0.0, final=True) == pytest.approx(expected)


def test_a_meteorite_on_an_open_row_and_column_pulls_nothing() -> None:
    assert pull(with_rovers(METEORITE + 1, row_covered=False)) == 0


def test_a_second_meteorite_on_the_row_weakens_the_pull_of_each() -> None:
    alone = pull(with_rovers(METEORITE + 1))
    shared = pull(with_rovers(METEORITE + 1, meteorites=frozenset({METEORITE, METEORITE + 2})))
    assert alone < shared < 1.5 * alone


def test_taking_the_meteorite_is_worth_more_than_standing_next_to_it() -> None:
    beside = with_rovers(METEORITE + 1)
    taken = with_rovers(METEORITE, meteorites=frozenset())
    seat = dataclasses.replace(taken.seats[0], meteorites_collected=1)
    taken = dataclasses.replace(taken, seats=(seat,))
    gain = search.evaluate(taken, 0, final=True) - search.evaluate(beside, 0, final=True)
    assert gain > 0
