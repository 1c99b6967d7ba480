"""Makeshift: trackers that change tracks (rules notes 4, 14.23) and the full corporation deal."""

from __future__ import annotations

import pytest

from domain.contract import IllegalMoveError, fold
from domain.planet_unknown import GAME, scoring
from domain.planet_unknown.corporation_state import MakeshiftState
from domain.planet_unknown.corporations.makeshift import lanes
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import GARAGE, Benefit, Kind
from domain.planet_unknown.notation import parse_seat, print_seat
from domain.planet_unknown.powers import CORPORATIONS
from domain.planet_unknown.setup_choice import asymmetric_corporations, missing

from .helpers import EMPTY, Play, pending, start, with_seat

MAKESHIFT = "corp:makeshift"
ON_TECH = "lanes:civ.water.biomass.rover.tech"


def board(tracks: str, lanes: str = "", extra: str = "") -> str:
    lane_field = f" lanes:{lanes}" if lanes else ""
    return f"{EMPTY} t:{tracks}{extra} {MAKESHIFT}{lane_field}"


def resolving(position: str, *benefits: Benefit, moves: int = 0) -> Play:
    state = with_seat(start(1, b"makeshift"), 0, position, moves=moves)
    return Play(pending(state, 0, *benefits))


def advance(track: Terrain) -> Benefit:
    return Benefit(Kind.ADVANCE, track=track)


def level(position: str) -> int:
    return CORPORATIONS["makeshift"].tech_level(parse_seat(position))


class TestBoard:
    def test_two_rovers_a_different_water_track(self) -> None:
        state = start(1, b"m", seat_setup=[{"corporation": "Makeshift"}])
        assert state.seats[0].rovers == (GARAGE,) * 2
        water = CORPORATIONS["makeshift"].tracks()[Terrain.WATER]
        assert [s.medal for s in water if s.medal] == [1, 2, 3, 4, 5]

    def test_notation_round_trip(self) -> None:
        text = board("2.3.0.0.0", "civ.civ.biomass.rover.tech")
        seat = parse_seat(text)
        assert seat.corporation_state == MakeshiftState((0, 0, 2, 3, 4)) and print_seat(seat) == text


class TestMoving:
    def test_straight_or_diagonally_onto_a_neighbour_track(self) -> None:
        play = resolving(board("2.0.0.0.0"), advance(Terrain.CIV))
        assert sorted(m for m in play.legal() if m.startswith("advance")) == ["advance civ", "advance civ water"]
        play.move(0, "advance civ water")
        seat = play.seat()
        assert seat.track(Terrain.CIV) == 3 and seat.corporation_state == MakeshiftState((1, 1, 2, 3, 4))
        assert [b.source for b in seat.pending] == ["synergy"]  # water space 3, not civ's card
        assert seat.civ_queue == ()
        with pytest.raises(IllegalMoveError, match="cannot move"):
            resolving(board("2.0.0.0.0"), advance(Terrain.CIV)).move(0, "advance civ biomass")

    def test_any_tracker_claims_the_space_it_lands_on(self) -> None:
        play = resolving(board("0.0.2.0.0", "civ.water.civ.rover.tech"), advance(Terrain.BIOMASS))
        play.move(0, "advance biomass")
        assert play.seat().civ_queue == (1,)

    def test_a_chosen_track_may_also_move_diagonally(self) -> None:
        play = resolving(board("0.2.0.0.0"), Benefit(Kind.CHOOSE, source="synergy"))
        assert "choose 0 water biomass" in play.legal()
        play.move(0, "choose 0 water biomass")
        assert play.seat().pending == (Benefit(Kind.PATCH),)

    def test_an_advance_onto_another_tracker_is_lost(self) -> None:
        """14.23: a space holds one tracker."""
        play = resolving(board("2.3.0.0.0", "civ.civ.biomass.rover.tech"), advance(Terrain.CIV))
        play.move(0, "advance civ")
        assert play.seat().track(Terrain.CIV) == 2 and not play.seat().pending
        play = resolving(board("2.3.0.0.0"), advance(Terrain.CIV))
        assert "advance civ water" not in play.legal()

    def test_medals_of_the_track_each_tracker_ends_on(self) -> None:
        medals = scoring.track_medals(parse_seat(board("4.0.0.0.0", "water.water.biomass.rover.tech")))
        assert medals["civ"] == 2 and medals["water"] == 0

    def test_the_tech_level_is_the_highest_tracker_on_the_tech_track(self) -> None:
        assert level(board("0.0.0.0.7", "civ.water.biomass.rover.rover")) == 0
        assert level(board("5.0.0.0.3", "tech.water.biomass.rover.tech")) == 2
        assert level(board("0.0.0.0.7", ON_TECH.split(":")[1])) == 3


class TestTechs:
    def test_1_civ_and_tech_are_neighbours(self) -> None:
        play = resolving(board("2.0.0.0.4"), advance(Terrain.CIV))
        assert "advance civ tech" in play.legal()
        assert "advance civ tech" not in resolving(board("2.0.0.0.0"), advance(Terrain.CIV)).legal()

    def test_2_one_more_movement_with_two_trackers_on_the_rover_track(self) -> None:
        position = board("0.0.2.1.5", "civ.water.rover.rover.tech")
        play = resolving(position, advance(Terrain.BIOMASS)).move(0, "advance biomass")
        assert play.seat().moves == 2  # rover space 3: 1, +1
        play = resolving(board("0.0.0.2.5"), advance(Terrain.ROVER)).move(0, "advance rover")
        assert play.seat().moves == 1

    def test_3_sideways_at_the_same_height(self) -> None:
        play = resolving(board("3.0.0.0.7"), advance(Terrain.CIV))
        assert "advance civ water side" in play.legal()
        play.move(0, "advance civ water side")
        assert play.seat().track(Terrain.CIV) == 3 and lanes(play.seat())[0] == 1
        assert [b.source for b in play.seat().pending] == ["synergy"]
        assert "advance civ water side" not in resolving(board("3.0.0.0.5"), advance(Terrain.CIV)).legal()

    def test_4_regress_any_tracker_once_per_round(self) -> None:
        play = resolving(board("3.0.0.0.10"))
        play.move(0, "power 4", "regress civ")
        assert play.seat().track(Terrain.CIV) == 2 and not play.seat().pending
        with pytest.raises(IllegalMoveError, match="once per round"):
            play.move(0, "power 4")

    def test_4_beside_another_pending_regression(self) -> None:
        other = Benefit(Kind.REGRESS, options=(Terrain.TECH,))
        play = resolving(board("3.0.0.0.10"), other).move(0, "power 4", "regress civ")
        assert play.seat().track(Terrain.CIV) == 2 and play.seat().pending == (other,)

    def test_5_score_the_highest_position_on_the_track(self) -> None:
        lanes = "water.water.biomass.rover.tech"
        assert scoring.track_medals(parse_seat(board("2.8.0.0.14", lanes)))["civ"] == 3
        assert scoring.track_medals(parse_seat(board("2.8.0.0.10", lanes)))["civ"] == 1


class TestDeal:
    def test_every_asymmetric_corporation_can_be_dealt(self) -> None:
        assert missing()[1] == [] and len(asymmetric_corporations()) == 8
        initial = GAME.initial(3, {"asymmetric_corporations": True})
        state = fold(GAME, initial, GAME.setup(initial, b"deal"))
        assert all(s.setup_offer is not None for s in state.seats)
