"""Text forms: moves, squares and positions round-trip."""

from __future__ import annotations

import doctest
import random

import pytest

from domain.contract import InvalidMoveError
from domain.planet_unknown import GAME, board, moves, notation
from domain.planet_unknown.moves import parse_move
from domain.planet_unknown.notation import parse_seat, print_seat

from .helpers import EMPTY, start


@pytest.mark.parametrize("module", [board, moves, notation])
def test_doctests(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


class TestMoveText:
    @pytest.mark.parametrize(
        "text",
        [
            "rotate 3",
            "place 57 e4 90",
            "place 8 a6 270 flip",
            "take 57",
            "advance civ",
            "choose 2 water",
            "deploy e4",
            "rover 0 e5",
            "patch l12",
            "store",
            "civ 12",
            "collect e4",
            "destroy e4",
            "clear 5",
            "clear e",
            "teleport 1 a1",
            "confirm",
        ],
    )
    def test_round_trip(self, text: str) -> None:
        move = parse_move(text)
        assert str(move) == text
        assert parse_move(move.to_json()) == move
        assert str(parse_move(move.to_json())) == text

    @pytest.mark.parametrize(
        "bad",
        [
            "",
            "fly e4",
            "place 57 e4",
            "place 57 z4 90",
            "place 57 e4 45",
            "advance energy",
            "rotate 6",
            "clear 13",
            "place 5 e4 90 twist",
            {"action": "place", "tile": 5},
            {"action": "place", "tile": True, "anchor": "a1", "rotation": 0},
            ["place"],
            {"action": "deploy", "square": "a13"},
            {"action": "deploy", "square": [3, 4]},
            {"action": "deploy", "square": 40},
            {"action": "deploy", "square": "E4"},
            {"action": "clear", "line": 5},
            "deploy E4",
            "deploy e04",
        ],
    )
    def test_unreadable_moves_are_rejected(self, bad: object) -> None:
        with pytest.raises(InvalidMoveError):
            parse_move(bad)

    def test_every_legal_move_of_random_games_round_trips(self) -> None:
        rng = random.Random(3)
        for players in (1, 3):
            state = start(players, b"notation")
            for _ in range(150):
                if GAME.outcome(state) is not None:
                    break
                seat = min(GAME.to_act(state))
                legal = list(GAME.legal_moves(state, seat))
                for raw in legal:
                    move = parse_move(raw)
                    assert parse_move(str(move)) == move
                    assert move.to_json() == raw
                for event in GAME.decide(state, seat, rng.choice(legal)):
                    state = GAME.evolve(state, event)


class TestPosition:
    @pytest.mark.parametrize(
        "text",
        [
            EMPTY,
            "ksb-4156 12/12/12/12/12/ecC9/12/12/12/12/12/12 t:3.0.2.1.5 met:b6 rov:a6,g",
            "ksb-4156 5pp5/12/12/12/12/Ww10/12/12/12/12/12/12 pods:b5 mc:4 lc:2 st:1 last:a6,b6 hand:6,29",
            "ksb-4156 12/12/12/12/12/12/12/12/12/12/12/12 rov:x,x",
        ],
    )
    def test_round_trip(self, text: str) -> None:
        assert print_seat(parse_seat(text)) == text

    def test_positions_of_random_games_round_trip(self) -> None:
        rng = random.Random(5)
        state = start(2, b"positions")
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            for event in GAME.decide(state, seat, rng.choice(list(GAME.legal_moves(state, seat)))):
                state = GAME.evolve(state, event)
            for s in state.seats:
                again = parse_seat(print_seat(s))
                for field in ("cover", "covered", "lifepods", "meteorites", "rovers", "tracks", "hand", "last_tile"):
                    assert getattr(again, field) == getattr(s, field), field

    @pytest.mark.parametrize(
        "bad",
        [
            "",
            "mars 12/12/12/12/12/12/12/12/12/12/12/12",
            "ksb-4156 12/12",
            "ksb-4156 13/12/12/12/12/12/12/12/12/12/12/12",
            "ksb-4156 c11/12/12/12/12/12/12/12/12/12/12/12",
            "ksb-4156 12/12/12/12/12/12/12/12/12/12/12/12 t:1.2",
            "ksb-4156 12/12/12/12/12/12/12/12/12/12/12/12 zz:1",
            "ksb-4156 x11/12/12/12/12/12/12/12/12/12/12/12",
        ],
    )
    def test_bad_positions_are_rejected(self, bad: str) -> None:
        with pytest.raises(ValueError):
            parse_seat(bad)
