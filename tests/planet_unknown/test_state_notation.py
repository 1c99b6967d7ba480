"""The whole state has a text form: ``repr(state)`` builds it back, and so does the position notation."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.planet_unknown import GAME, notation, powers
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import State

from .helpers import start

CORPORATIONS = tuple(powers.CORPORATIONS)
"""Every corporation with rules, Universal Coalition first (the project's own list)."""
PLANETS = ("ksb-4156", "arashi", "cerberus", "charybdis", "gaia", "k-273", "kaax", "lacuna", "oblivion")


def _every_corporation(first: int, seats: int) -> list[dict[str, str]]:
    out = []
    for n in range(first, first + seats):
        entry = {"planet": PLANETS[n % len(PLANETS)], "corporation": CORPORATIONS[n % len(CORPORATIONS)]}
        if Terrain.WATER in powers.CORPORATIONS[entry["corporation"]].setup_tracks:
            entry["flux"] = "water"
        out.append(entry)
    return out


def _games() -> list[tuple[str, int, dict[str, Any]]]:
    games: list[tuple[str, int, dict[str, Any]]] = [
        ("solo-events", 1, {"events": True}),
        ("four-core", 4, {}),
        ("two-dealt", 2, {"asymmetric_planets": True, "asymmetric_corporations": True, "private_objectives": True}),
    ]
    games += [(f"corporations-{n}", 3, {"events": True, "seat_setup": _every_corporation(3 * n, 3)}) for n in range(3)]
    return games


def _states(players: int, options: dict[str, Any], seed: bytes) -> list[State]:
    rng = random.Random(seed)
    state = start(players, seed, **options)
    out = [state]
    for _ in range(400):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        legal = sorted(GAME.legal_moves(state, seat), key=str)
        for event in GAME.decide(state, seat, rng.choice(legal)):
            state = GAME.evolve(state, event)
        out.append(state)
    return out


@pytest.fixture(scope="module")
def states() -> list[State]:
    found = [s for name, players, options in _games() for s in _states(players, options, name.encode())[::3]]
    assert any(seat.pending for s in found for seat in s.seats), "some states are mid-turn"
    assert {seat.corporation for s in found for seat in s.seats} == set(CORPORATIONS)
    return found


def _same(a: State, b: State) -> bool:
    return a == b and a.options == b.options


def test_repr_builds_the_state_back(states: list[State]) -> None:
    for state in states:
        assert _same(eval(repr(state), dict(notation.NAMES)), state)


def test_the_notation_prints_and_reads_the_whole_state(states: list[State]) -> None:
    for state in states:
        assert _same(notation.parse_state(notation.print_state(state)), state)
        assert _same(notation.parse_state(repr(state)), state)


@pytest.mark.parametrize("bad", ["", "Seat()", "State(players=1, options={}, seats=()).__class__", "__import__('os')"])
def test_anything_else_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        notation.parse_state(bad)
