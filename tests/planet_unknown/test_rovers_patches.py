"""Rovers (section 5), lifepods and meteorites (section 6), biomass patches (section 7)."""

from __future__ import annotations

import dataclasses

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import events as ev
from domain.planet_unknown.board import parse_square
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import GARAGE, Benefit, Kind, Stage
from domain.planet_unknown.rules import settle

from .helpers import EMPTY, Play, offer, pending, start, with_seat
from .test_placement import full_except

WATER_ROVER = 104  # D2 "W/R"
A6_B6 = "ksb-4156 12/12/12/12/12/eC10/12/12/12/12/12/12"


def resolving(position: str, *benefits: Benefit, moves: int = 0) -> Play:
    state = with_seat(start(1), 0, position, moves=moves)
    return Play(pending(state, 0, *benefits))


class TestDeploy:
    def test_rover_milestone_deploys_on_the_tile_just_placed(self) -> None:
        play = Play(offer(with_seat(start(1), 0, EMPTY), 0, WATER_ROVER)).move(0, "place 104 b5 0", "advance rover")
        assert sorted(m for m in play.legal() if m.startswith("deploy")) == ["deploy b5", "deploy b6"]
        play.move(0, "deploy b6")
        assert play.seat().rovers == (parse_square("b6"), GARAGE)

    def test_deploying_on_a_lifepod_collects_it(self) -> None:
        play = resolving(A6_B6 + " pods:b6 last:a6,b6", Benefit(Kind.DEPLOY)).move(0, "deploy b6")
        assert play.seat().lifepods_collected == 1

    def test_only_on_the_last_tile(self) -> None:
        with pytest.raises(IllegalMoveError, match="last tile"):
            resolving(A6_B6 + " last:a6,b6", Benefit(Kind.DEPLOY)).move(0, "deploy c6")

    def test_no_garage_rover_means_nothing(self) -> None:
        play = resolving(A6_B6 + " rov:a6,b6 last:a6,b6", Benefit(Kind.DEPLOY))
        _, events = settle(play.state)
        assert events == [ev.BenefitLost(0, 0)]

    def test_no_tile_placed_means_nothing(self) -> None:
        _, events = settle(resolving(EMPTY, Benefit(Kind.DEPLOY)).state)
        assert events == [ev.BenefitLost(0, 0)]

    def test_deploy_is_required_before_confirming(self) -> None:
        with pytest.raises(IllegalMoveError, match="resolve these first"):
            resolving(A6_B6 + " last:a6,b6", Benefit(Kind.DEPLOY)).move(0, "confirm")


class TestMovement:
    def test_one_orthogonal_step_per_movement(self) -> None:
        play = resolving(A6_B6 + " rov:a6,g", moves=2).move(0, "rover 0 a7")
        assert play.seat().rovers[0] == parse_square("a7") and play.seat().moves == 1

    def test_no_diagonal_step(self) -> None:
        with pytest.raises(IllegalMoveError, match="adjacent"):
            resolving(A6_B6 + " rov:a6,g", moves=2).move(0, "rover 0 b7")

    def test_not_off_the_grid(self) -> None:
        with pytest.raises(IllegalMoveError, match="adjacent grid square"):
            resolving(A6_B6 + " rov:b5,g", moves=2).move(0, "rover 0 a5")

    def test_not_onto_another_rover(self) -> None:
        with pytest.raises(IllegalMoveError, match="another rover"):
            resolving(A6_B6 + " rov:a6,b6", moves=2).move(0, "rover 0 b6")

    def test_split_between_rovers_and_backtrack(self) -> None:
        play = resolving(A6_B6 + " rov:a6,c6", moves=3).move(0, "rover 0 a7", "rover 1 d6", "rover 0 a6")
        assert play.seat().rovers == (parse_square("a6"), parse_square("d6"))
        assert play.seat().moves == 0
        with pytest.raises(IllegalMoveError, match="no rover movement"):
            play.move(0, "rover 1 e6")

    def test_entering_collects_meteorites_and_lifepods(self) -> None:
        play = resolving(A6_B6 + " rov:a6,g met:b6 pods:c6", moves=2).move(0, "rover 0 b6", "rover 0 c6")
        assert (play.seat().meteorites_collected, play.seat().lifepods_collected) == (1, 1)
        assert not play.seat().meteorites and not play.seat().lifepods

    def test_movement_interleaves_with_other_benefits(self) -> None:
        play = resolving(A6_B6 + " rov:a6,g", Benefit(Kind.ADVANCE, track=Terrain.CIV), moves=2)
        play.move(0, "rover 0 a7", "advance civ", "rover 0 a6")
        assert play.seat().track(Terrain.CIV) == 1 and play.seat().moves == 0

    def test_unused_movement_is_lost_on_confirm(self) -> None:
        play = resolving(A6_B6 + " rov:a6,g", moves=3).move(0, "confirm")
        assert play.seat().moves == 0


class TestPatches:
    def test_placed_next_to_a_tile(self) -> None:
        play = resolving(A6_B6, Benefit(Kind.PATCH))
        assert "patch e9" not in play.legal()
        play.move(0, "patch c6")
        assert play.seat().cover[parse_square("c6")] == "p"

    def test_first_placement_on_the_edge(self) -> None:
        with pytest.raises(IllegalMoveError, match="edge"):
            resolving(EMPTY, Benefit(Kind.PATCH)).move(0, "patch e9")

    def test_patch_gives_nothing_and_is_not_the_last_tile(self) -> None:
        play = resolving(A6_B6 + " last:a6,b6", Benefit(Kind.PATCH)).move(0, "patch c6")
        assert play.seat().pending == () and play.seat().last_tile == (60, 61)

    def test_patch_on_a_lifepod_destroys_it(self) -> None:
        play = resolving(A6_B6, Benefit(Kind.PATCH)).move(0, "patch b5")
        assert parse_square("b5") not in play.seat().lifepods and play.seat().lifepods_collected == 0

    def test_storing_needs_tech_2(self) -> None:
        with pytest.raises(IllegalMoveError, match="tech level 2"):
            resolving(A6_B6, Benefit(Kind.PATCH)).move(0, "store")
        play = resolving(A6_B6 + " t:0.0.0.0.5", Benefit(Kind.PATCH)).move(0, "store")
        assert play.seat().stored_patches == 1

    def test_lost_without_a_legal_square_even_with_storage(self) -> None:
        play = resolving(full_except() + " t:0.0.0.0.5", Benefit(Kind.PATCH))
        _, events = settle(play.state)
        assert events == [ev.BenefitLost(0, 0)]

    def test_biomass_milestone_gives_a_patch(self) -> None:
        play = resolving(A6_B6 + " t:0.0.2.0.0", Benefit(Kind.ADVANCE, track=Terrain.BIOMASS))
        play.move(0, "advance biomass")
        assert [b.kind for b in play.seat().pending] == [Kind.PATCH]


class TestStoredPatchesAtTheEnd:
    def test_must_be_placed(self) -> None:
        state = with_seat(start(1), 0, A6_B6 + " t:0.0.0.0.5 st:2")
        state = dataclasses.replace(state, last_round=True)
        seats = (dataclasses.replace(state.seats[0], stage=Stage.DONE),)
        state = dataclasses.replace(state, seats=seats)
        state, _ = settle(state)
        assert state.phase.value == "end_game"
        play = Play(state)
        assert "store" not in play.legal() and "confirm" not in play.legal()
        play.move(0, "patch c6", "patch d6", "confirm")
        assert play.state.phase.value == "over"
        assert play.seat().stored_patches == 0
