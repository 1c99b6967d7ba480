"""Cosmos Inc.: lifepods on the tracks, diagonal rovers (rules notes 4, 5, 6, 14.10, 14.21, 14.23)."""

from __future__ import annotations

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import events as ev
from domain.planet_unknown import scoring
from domain.planet_unknown.corporations.cosmos_inc import CosmosInc, track_pods
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import GARAGE, Benefit, Kind
from domain.planet_unknown.notation import parse_seat, print_seat
from domain.planet_unknown.powers import CORPORATIONS
from domain.planet_unknown.rules import evolve

from .helpers import EMPTY, Play, next_round, offer, pending, start, with_seat

COSMOS = "corp:cosmos-inc"
TECH = {0: "0", 1: "3", 2: "5", 3: "7", 4: "10", 5: "14"}
ROW6 = "ksb-4156 12/12/12/12/12/3cCeEwW3/12/12/12/12/12/12"  # d6 c, e6 C, f6 e, g6 E, h6 w, i6 W


def board(tech: int = 0, tracks: str = "0.0.0.0", extra: str = "", planet: str = ROW6) -> str:
    return f"{planet} t:{tracks}.{TECH[tech]}{extra} {COSMOS}"


def resolving(position: str, *benefits: Benefit, moves: int = 0) -> Play:
    state = with_seat(start(1, b"cosmos"), 0, position, moves=moves)
    return Play(pending(state, 0, *benefits))


def advance(track: Terrain) -> Benefit:
    return Benefit(Kind.ADVANCE, track=track)


def cosmos_level(play: Play) -> int:
    return CORPORATIONS["cosmos-inc"].tech_level(play.seat())


class TestBoard:
    def test_one_rover_and_one_rover_milestone(self) -> None:
        state = start(1, b"c", seat_setup=[{"corporation": "Cosmos Inc."}])
        assert state.seats[0].rovers == (GARAGE,)
        rover = CORPORATIONS["cosmos-inc"].tracks()[Terrain.ROVER]
        assert [p for p, s in enumerate(rover) if s.rover] == [1]

    def test_notation_round_trip(self) -> None:
        text = f"{EMPTY} t:0.0.0.0.5 lc:3 {COSMOS} once:2 tp:civ3,tech7"
        seat = parse_seat(text)
        assert track_pods(seat) == ((0, 3), (4, 7))
        assert print_seat(seat) == text


class TestLifepods:
    def test_a_collected_lifepod_may_go_onto_a_track_space(self) -> None:
        play = resolving(board(extra=" rov:g3"), moves=1).move(0, "rover 0 h3")
        assert play.seat().lifepods_collected == 1
        assert "lifepod area tech3" in play.legal() and "lifepod area civ0" not in play.legal()
        play.move(0, "lifepod area tech3")
        assert track_pods(play.seat()) == ((4, 3),) and not play.seat().pending
        assert CORPORATIONS["cosmos-inc"].scored_lifepods(play.seat()) == 0

    def test_also_a_lifepod_collected_by_a_card(self) -> None:
        play = resolving(board(), Benefit(Kind.COLLECT)).move(0, "collect h3")
        assert [b.kind for b in play.seat().pending] == [Kind.LIFEPOD]
        assert "lifepod area water2" in play.legal()

    def test_or_stay_in_the_scoring_area(self) -> None:
        play = resolving(board(extra=" rov:g3"), moves=1).move(0, "rover 0 h3", "confirm")
        assert track_pods(play.seat()) == () and scoring.lifepod_medals(play.seat()) == 1

    def test_not_onto_a_tracker_or_another_lifepod(self) -> None:
        play = resolving(board(tracks="2.0.0.0", extra=" lc:2 tp:civ3"), Benefit(Kind.LIFEPOD, source="collected"))
        legal = play.legal()
        assert "lifepod area civ2" not in legal and "lifepod area civ3" not in legal and "lifepod area civ4" in legal
        with pytest.raises(IllegalMoveError, match="lifepod"):
            play.move(0, "lifepod area civ3")

    def test_trackers_jump_over_lifepods_and_skip_the_space(self) -> None:
        play = resolving(board(tracks="2.0.0.0", extra=" lc:1 tp:civ3"), advance(Terrain.CIV))
        play.move(0, "advance civ")
        assert play.seat().track(Terrain.CIV) == 4 and play.seat().civ_queue == ()

    def test_a_covered_civ_milestone_still_numbers_the_ranks(self) -> None:
        play = resolving(board(tracks="5.0.0.0", extra=" lc:1 tp:civ3"), advance(Terrain.CIV))
        assert play.move(0, "advance civ").seat().civ_queue == (2,)

    def test_a_covered_top_space_stops_the_tracker_below(self) -> None:
        play = resolving(board(tracks="0.14.0.0", extra=" lc:1 tp:water15"), advance(Terrain.WATER))
        play.move(0, "advance water")
        assert play.seat().track(Terrain.WATER) == 14

    def test_regression_skips_lifepods(self) -> None:
        cosmos = CORPORATIONS["cosmos-inc"]
        seat = parse_seat(board(tracks="4.0.0.0", extra=" lc:1 tp:civ3"))
        assert cosmos.regress_to(seat, Terrain.CIV, 1) == 2 and cosmos.regress_room(seat, Terrain.CIV) == 3

    def test_covered_medals_do_not_score(self) -> None:
        seat = parse_seat(board(tracks="3.0.0.0", extra=" lc:1 tp:civ2"))
        assert scoring.track_medals(seat)["civ"] == 0

    def test_only_lifepods_in_the_scoring_area_score(self) -> None:
        seat = parse_seat(board(extra=" lc:3 tp:civ3,tech7"))
        assert scoring.lifepod_medals(seat) == 1

    def test_space_citizen_decree_counts_every_collected_lifepod(self) -> None:
        """14.21: the Decree counts the lifepods on the tracks too."""
        seat = parse_seat(board(extra=" lc:3 hand:28 tp:civ3,tech7"))
        assert scoring.lifepod_medals(seat) == 1 + 3


class TestRestriction:
    def test_a_covered_tech_milestone_gives_no_level_but_the_higher_ones_count(self) -> None:
        cosmos = CORPORATIONS["cosmos-inc"]
        assert isinstance(cosmos, CosmosInc)
        seat = parse_seat(board(tech=3, extra=" lc:1 tp:tech5"))
        assert cosmos.has(seat, 1) and not cosmos.has(seat, 2) and cosmos.has(seat, 3)
        assert cosmos.tech_level(seat) == 3


class TestTechs:
    def test_1_diagonal_steps(self) -> None:
        play = resolving(board(tech=1, extra=" rov:d6"), moves=1)
        assert "rover 0 e7" in play.legal()
        play.move(0, "rover 0 e7")
        assert play.seat().moves == 0
        assert "rover 0 e7" not in resolving(board(extra=" rov:d6"), moves=1).legal()

    def test_1_tartarus_crossings(self) -> None:
        """Choice 29: the chasm is crossed only at its two diagonal crossing points."""
        tartarus = "tartarus 12/12/12/12/12/12/12/12/12/12/12/12"
        play = resolving(board(tech=1, extra=" rov:f4", planet=tartarus), moves=1)
        assert "rover 0 g5" in play.legal()
        play = resolving(board(tech=1, extra=" rov:f3", planet=tartarus), moves=1)
        assert "rover 0 g4" not in play.legal()
        with pytest.raises(IllegalMoveError, match="Tartarus"):
            play.move(0, "rover 0 g4")

    def test_2_reposition_up_to_three_once_per_game(self) -> None:
        """14.10: banked while the level is held, used once per game."""
        play = resolving(board(tech=2, extra=" lc:3 tp:civ3"))
        assert "power 2" in play.legal()
        play.move(0, "power 2", "lifepod civ3 area", "lifepod area water4", "lifepod area rover4")
        assert track_pods(play.seat()) == ((1, 4), (3, 4)) and play.seat().once_used == (2,)
        assert not play.seat().pending
        state = evolve(play.state, ev.DraftStarted())
        assert "power 2" not in Play(pending(state, 0)).legal()

    def test_2_not_without_a_collected_lifepod(self) -> None:
        assert "power 2" not in resolving(board(tech=2)).legal()

    def test_3_an_energy_icon_repositions_one_lifepod(self) -> None:
        position = f"ksb-4156 12/12/12/12/12/eC10/12/12/12/12/12/12 t:0.0.0.0.7 lc:1 {COSMOS}"
        state = offer(with_seat(start(1, b"cosmos"), 0, position), 0, 8)
        play = Play(state).move(0, "place 8 c6 90")
        assert any(b.kind is Kind.LIFEPOD for b in play.seat().pending)
        play.move(0, "lifepod area biomass5")
        assert track_pods(play.seat()) == ((2, 5),)

    def test_4_a_step_onto_energy_costs_no_movement(self) -> None:
        play = resolving(board(tech=4, extra=" rov:e6"), moves=1).move(0, "rover 0 f6")
        assert play.seat().moves == 1
        play.move(0, "rover 0 f7")
        assert play.seat().moves == 0
        assert resolving(board(tech=3, extra=" rov:e6"), moves=1).move(0, "rover 0 f6").seat().moves == 0

    def test_5_reposition_one_once_per_round(self) -> None:
        play = resolving(board(tech=5, extra=" lc:1"))
        play.move(0, "power 5", "lifepod area civ1")
        with pytest.raises(IllegalMoveError, match="once per round"):
            play.move(0, "power 5")
        assert "power 5" in Play(pending(next_round(play.state), 0)).legal()
