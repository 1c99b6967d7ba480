"""The search bot and the biomass patches Universal Coalition may store for the end of the game (tech 2)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domain import contract
from domain.planet_unknown import GAME, search
from domain.planet_unknown.data import Terrain, corporation_tracks
from domain.planet_unknown.model import Benefit, Kind, Phase, Stage, State

from .helpers import pending, with_seat
from .test_search_bot import NODES, dealt, to_first_placement

TECH_2 = next(k for k, s in enumerate(corporation_tracks("universal-coalition")[Terrain.TECH]) if s.tech_level == 2)
"""The tech track's position of Universal Coalition's tech level 2, which lets a patch be stored."""
ONE_SHORT = "ksb-4156 5c6/12/12/12/12/12/12/12/12/12/12/12"
"""An otherwise empty planet whose top row (two squares) lacks one square: a patch there completes it."""
TWO_SHORT = "ksb-4156 5c6/12/12/12/12/12/12/12/12/12/12/5c6"
"""An otherwise empty planet whose top and bottom rows (two squares each) each lack one square."""


def solo_midgame() -> State:
    return to_first_placement(dealt(1, b"stored"))


def storing(state: State, stored: int = 0) -> State:
    """``state`` with the seat at tech level 2 on :data:`ONE_SHORT`, ``stored`` patches kept, one to resolve."""
    state = with_seat(state, 0, f"{ONE_SHORT} t:0.0.0.0.{TECH_2}", stored_patches=stored)
    return pending(state, 0, Benefit(Kind.PATCH))


def chosen(state: State) -> contract.JSON:
    view = contract.seat_view(GAME, state, 0)
    return search.choose(view, 0, random.Random(1), 60_000, nodes=NODES, use_plans=False)


class TestWorth:
    def test_each_stored_patch_adds_its_worth_until_the_end(self) -> None:
        state = solo_midgame()
        none, two = (search.evaluate(storing(state, n), 0, final=True) for n in (0, 2))
        assert two - none == pytest.approx(2 * search.STORED_PATCH_WORTH)

    def test_in_the_end_game_turn_they_are_worth_the_rows_and_columns_they_complete(self) -> None:
        ended = dataclasses.replace(solo_midgame(), phase=Phase.END_GAME)
        none, one, two = (search.evaluate(storing(ended, n), 0, final=True) for n in (0, 1, 2))
        assert one - none == pytest.approx(1.0), "the first completes the top row"
        assert two == pytest.approx(one), "a second completes nothing more"

    def test_in_the_last_round_once_the_tile_is_placed_they_are_worth_what_they_will_complete(self) -> None:
        last = dataclasses.replace(solo_midgame(), last_round=True)
        for stage, worth in ((Stage.CHOOSING, 2 * search.STORED_PATCH_WORTH), (Stage.RESOLVING, 1.0)):
            none, two = (
                search.evaluate(with_seat(last, 0, f"{ONE_SHORT} t:0.0.0.0.{TECH_2}", stored_patches=n, stage=stage), 0)
                for n in (0, 2)
            )
            assert two - none == pytest.approx(worth), stage

    def test_each_goes_where_it_adds_most(self) -> None:
        ended = dataclasses.replace(solo_midgame(), phase=Phase.END_GAME)
        one, two = (with_seat(ended, 0, f"{TWO_SHORT} t:0.0.0.0.{TECH_2}", stored_patches=n) for n in (1, 2))
        assert search.stored_fill(one, 0) == 1
        assert search.stored_fill(two, 0) == 2


class TestChoice:
    def test_a_patch_that_completes_a_row_is_placed_when_storing_is_worth_less(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        state = storing(solo_midgame())
        assert {"action": "store"} in list(GAME.legal_moves(state, 0))
        monkeypatch.setattr(search, "STORED_PATCH_WORTH", 0.0)
        assert chosen(state) == {"action": "patch", "square": "g1"}

    def test_a_patch_is_stored_when_storing_is_worth_more(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(search, "STORED_PATCH_WORTH", 10.0)
        assert chosen(storing(solo_midgame())) == {"action": "store"}
