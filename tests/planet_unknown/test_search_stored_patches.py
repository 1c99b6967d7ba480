"""The search bot and the biomass patches Universal Coalition may store for the end of the game (tech 2)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domain import contract
from domain.planet_unknown import GAME, search
from domain.planet_unknown.data import Terrain, corporation_tracks
from domain.planet_unknown.model import Benefit, Kind, Phase, State

from .helpers import pending, with_seat
from .test_search_bot import NODES, dealt, to_first_placement

TECH_2 = next(k for k, s in enumerate(corporation_tracks("universal-coalition")[Terrain.TECH]) if s.tech_level == 2)
"""The tech track's position of Universal Coalition's tech level 2, which lets a patch be stored."""
ONE_SHORT = "ksb-4156 5c6/12/12/12/12/12/12/12/12/12/12/12"
"""An otherwise empty planet whose top row (two squares) lacks one square: a patch there completes it."""


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

    def test_nothing_once_the_end_of_the_game_places_them(self) -> None:
        ended = dataclasses.replace(solo_midgame(), phase=Phase.END_GAME)
        none, two = (search.evaluate(storing(ended, n), 0, final=True) for n in (0, 2))
        assert two == pytest.approx(none)


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
