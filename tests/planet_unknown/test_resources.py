"""Resources and tracks (rules notes section 4, edge cases 14.2-14.4)."""

from __future__ import annotations

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import events as ev
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import Benefit, Kind
from domain.planet_unknown.powers import tech_level
from domain.planet_unknown.rules import settle

from .helpers import EMPTY, Play, offer, pending, start, with_seat

ENERGY_CIV = 8
WATER_ROVER = 104
ROVER_WATER_I3 = 98  # "R/W/w"
ENERGY_AREA = "ksb-4156 12/12/12/12/12/12/eep9/1w10/12/12/12/12"


def game(position: str = EMPTY, tile: int = ENERGY_CIV) -> Play:
    return Play(offer(with_seat(start(1), 0, position), 0, tile))


def kinds(play: Play) -> list[str]:
    return [b.describe() for b in play.seat().pending]


class TestIcons:
    def test_two_advances_per_tile(self) -> None:
        play = game(tile=ENERGY_CIV).move(0, "place 8 a6 90")
        assert kinds(play) == ["choose energy: civ", "advance civ"]

    def test_advance_moves_the_tracker(self) -> None:
        play = game().move(0, "place 8 a6 90", "advance civ")
        assert play.seat().track(Terrain.CIV) == 1


class TestWater:
    def test_water_on_ice_advances(self) -> None:
        play = game(tile=WATER_ROVER).move(0, "place 104 a6 0")
        assert "advance water" in kinds(play)

    def test_water_on_land_does_not(self) -> None:
        play = game(tile=WATER_ROVER).move(0, "place 104 b5 0")
        assert kinds(play) == ["advance rover"]

    def test_any_water_square_of_the_tile_counts(self) -> None:
        play = game(tile=ROVER_WATER_I3).move(0, "place 98 f1 0")
        assert play.seat().cover[5] == "R" and play.seat().cover[29] == "w"
        assert kinds(play) == ["advance rover", "advance water"]

    def test_tech_4_doubles_water_from_a_placed_tile(self) -> None:
        play = game(EMPTY + " t:0.0.0.0.10", tile=WATER_ROVER).move(0, "place 104 a6 0")
        assert kinds(play).count("advance water") == 2


class TestEnergy:
    def test_area_grows_through_old_energy_and_counts_patches(self) -> None:
        play = game(ENERGY_AREA).move(0, "place 8 a6 90")
        assert kinds(play)[0] == "choose energy: civ/water/biomass"

    def test_water_chosen_by_energy_needs_no_ice(self) -> None:
        play = game(ENERGY_AREA).move(0, "place 8 a6 90", "choose 0 water")
        assert play.seat().track(Terrain.WATER) == 1

    def test_water_chosen_by_energy_is_not_doubled(self) -> None:
        play = game(ENERGY_AREA + " t:0.0.0.0.10").move(0, "place 8 a6 90", "choose 0 water")
        assert play.seat().track(Terrain.WATER) == 1
        assert [b.describe() for b in play.seat().pending] == ["advance civ"]

    def test_only_listed_tracks(self) -> None:
        with pytest.raises(IllegalMoveError, match="not one of"):
            game(ENERGY_AREA).move(0, "place 8 a6 90", "choose 0 tech")

    def test_lost_when_no_listed_track_can_move(self) -> None:
        play = game(EMPTY + " t:15.0.0.0.0").move(0, "place 8 a6 90")
        assert any(isinstance(e, ev.BenefitLost) for e in play.events)
        assert kinds(play) == []


class TestTrackTop:
    def test_advance_at_the_top_is_lost(self) -> None:
        play = game(EMPTY + " t:15.0.0.0.0").move(0, "place 8 a6 90")
        assert play.seat().track(Terrain.CIV) == 15
        assert play.legal() == ["confirm"]

    def test_rover_top_gives_movement_again(self) -> None:
        play = game(EMPTY + " t:0.0.0.15.0", tile=WATER_ROVER).move(0, "place 104 b5 0", "advance rover")
        assert play.seat().track(Terrain.ROVER) == 15
        assert play.seat().moves == 4


class TestSynergy:
    def test_synergy_space_gives_a_free_choice(self) -> None:
        play = game(EMPTY + " t:7.0.0.0.0").move(0, "place 8 a6 90", "advance civ")
        assert kinds(play) == ["choose energy: civ", "choose synergy: civ/water/biomass/rover/tech"]
        play.move(0, "choose 1 tech")
        assert play.seat().track(Terrain.TECH) == 1

    def test_top_tracks_cannot_be_chosen(self) -> None:
        play = game(EMPTY + " t:7.15.0.0.15").move(0, "place 8 a6 90", "advance civ")
        assert [m for m in play.legal() if m.startswith("choose 1")] == [
            "choose 1 civ",
            "choose 1 biomass",
            "choose 1 rover",
        ]

    def test_benefits_resolve_in_any_order(self) -> None:
        first = game().move(0, "place 8 a6 90", "advance civ", "choose 0 civ")
        second = game().move(0, "place 8 a6 90", "choose 0 civ", "advance civ")
        assert first.seat().tracks == second.seat().tracks == (2, 0, 0, 0, 0)


class TestTech:
    @pytest.mark.parametrize(("position", "level"), [(0, 0), (2, 0), (3, 1), (5, 2), (7, 3), (9, 3), (10, 4), (14, 5)])
    def test_levels(self, position: int, level: int) -> None:
        state = with_seat(start(1), 0, EMPTY + f" t:0.0.0.0.{position}")
        assert tech_level(state.seats[0]) == level

    def test_tech_3_adds_a_rover_movement(self) -> None:
        play = game(EMPTY + " t:0.0.0.3.7", tile=WATER_ROVER).move(0, "place 104 b5 0", "advance rover")
        assert play.seat().moves == 3

    def test_tech_milestone_unlocks_at_once(self) -> None:
        state = with_seat(start(1), 0, EMPTY + " t:0.0.0.0.2")
        state = pending(state, 0, Benefit(Kind.ADVANCE, track=Terrain.TECH))
        play = Play(state).move(0, "advance tech")
        assert tech_level(play.seat()) == 1
        assert "store" not in play.legal()

    def test_lost_benefits_are_dropped_automatically(self) -> None:
        state = pending(with_seat(start(1), 0, EMPTY + " t:15.0.0.0.0"), 0, Benefit(Kind.ADVANCE, track=Terrain.CIV))
        after, events = settle(state)
        assert events == [ev.BenefitLost(0, 0)]
        assert after.seats[0].pending == ()
