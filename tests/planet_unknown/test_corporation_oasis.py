"""Oasis Ultd.: the winding water path and trackers that block each other (rules notes 4, 12, 14.4, 14.23)."""

from __future__ import annotations

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import powers
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import Benefit, Kind
from domain.planet_unknown.notation import parse_seat
from domain.planet_unknown.powers import CORPORATIONS
from domain.planet_unknown.rules import can_advance

from .helpers import Play, offer, pending, start, with_seat

OASIS = "corp:oasis-ultd"
BLANK = "12/12/12/12/12/12/12/12/12/12/12/12"
TECH = {0: 0, 1: 3, 2: 5, 3: 7, 4: 10, 5: 14}
A6_B6 = "12/12/12/12/12/eC10/12/12/12/12/12/12"
WATER_ENERGY = 24  # N5 "..Ww/eEe."
WATER_ROVER = 104  # D2: water icon above rover icon


def seat_at(tracks: str, rows: str = BLANK, extra: str = "") -> str:
    return " ".join(x for x in (f"ksb-4156 {rows} t:{tracks}", extra, OASIS) if x)


def resolving(tracks: str, *benefits: Benefit, rows: str = BLANK, extra: str = "") -> Play:
    return Play(pending(with_seat(start(1, b"oasis"), 0, seat_at(tracks, rows, extra)), 0, *benefits))


def placing(tracks: str, tile: int, rows: str = BLANK) -> Play:
    return Play(offer(with_seat(start(1, b"oasis"), 0, seat_at(tracks, rows)), 0, tile))


class TestPath:
    def test_the_water_tracker_claims_the_steps_of_its_path(self) -> None:
        play = resolving("0.1.0.0.0", Benefit(Kind.ADVANCE, track=Terrain.WATER)).move(0, "advance water")
        assert play.seat().track(Terrain.WATER) == 2  # on biomass space 2
        assert [b.source for b in play.seat().pending] == ["synergy"]
        play = resolving("0.2.0.0.0", Benefit(Kind.ADVANCE, track=Terrain.WATER)).move(0, "advance water")
        assert play.seat().moves == 1  # rover space 3

    def test_the_top_is_step_23(self) -> None:
        assert CORPORATIONS["oasis-ultd"].top(Terrain.WATER) == 23
        assert not can_advance(parse_seat(seat_at("0.23.0.0.0")), Terrain.WATER)
        assert can_advance(parse_seat(seat_at("0.22.0.0.0")), Terrain.WATER)

    def test_only_water_column_medals_score(self) -> None:
        assert powers.medals(parse_seat(seat_at("0.10.0.0.0")))["water"] == 3
        assert powers.medals(parse_seat(seat_at("0.14.0.0.0")))["water"] == 6  # biomass 8's medal ignored
        assert powers.medals(parse_seat(seat_at("0.23.0.0.0")))["water"] == 15
        assert powers.medals(parse_seat(seat_at("0.9.0.0.0")))["biomass"] == 0


class TestBlocking:
    def test_water_is_blocked_by_another_tracker(self) -> None:
        """14.4 / 14.23: an advance onto an occupied space is lost."""
        assert not can_advance(parse_seat(seat_at("0.1.2.0.0")), Terrain.WATER)
        play = resolving("0.1.2.0.0", Benefit(Kind.ADVANCE, track=Terrain.WATER))
        assert "advance water" not in play.legal() or not can_advance(play.seat(), Terrain.WATER)

    def test_other_trackers_are_blocked_by_water(self) -> None:
        assert not can_advance(parse_seat(seat_at("0.3.0.2.0")), Terrain.ROVER)  # water on rover space 3
        assert can_advance(parse_seat(seat_at("0.3.0.3.0")), Terrain.ROVER)

    def test_tech_1_jumps_over_the_blocker(self) -> None:
        play = resolving(f"0.1.2.0.{TECH[1]}", Benefit(Kind.ADVANCE, track=Terrain.WATER)).move(0, "advance water")
        assert play.seat().track(Terrain.WATER) == 3 and play.seat().moves == 1
        play = resolving(f"0.3.0.2.{TECH[1]}", Benefit(Kind.ADVANCE, track=Terrain.ROVER)).move(0, "advance rover")
        assert play.seat().track(Terrain.ROVER) == 4


class TestWater:
    def test_one_advance_per_water_square_on_ice(self) -> None:
        play = placing("0.0.0.0.0", WATER_ENERGY).move(0, f"place {WATER_ENERGY} a6 0 flip")
        assert [b.track for b in play.seat().pending if b.kind is Kind.ADVANCE] == [Terrain.WATER] * 2
        uc = Play(offer(with_seat(start(1, b"oasis"), 0, f"ksb-4156 {BLANK}"), 0, WATER_ENERGY))
        uc.move(0, f"place {WATER_ENERGY} a6 0 flip")
        assert [b.track for b in uc.seat().pending if b.kind is Kind.ADVANCE] == [Terrain.WATER]


class TestTechs:
    def test_2_movement_per_rover_on_water_once_per_round(self) -> None:
        rows = "12/12/12/12/12/wW10/12/12/12/12/12/12"
        play = resolving(f"0.0.0.0.{TECH[2]}", rows=rows, extra="rov:a6,b7")
        play.move(0, "power 2")
        assert play.seat().moves == 1
        with pytest.raises(IllegalMoveError):
            play.move(0, "power 2")

    def test_3_a_tile_off_the_ice_advances_water(self) -> None:
        play = placing(f"0.0.0.0.{TECH[3]}", 8, rows=A6_B6).move(0, "place 8 c6 90")
        assert Benefit(Kind.ADVANCE, track=Terrain.WATER) in play.seat().pending
        play = placing(f"0.0.0.0.{TECH[2]}", 8, rows=A6_B6).move(0, "place 8 c6 90")
        assert Benefit(Kind.ADVANCE, track=Terrain.WATER) not in play.seat().pending

    def test_4_and_5_a_water_icon_gives_a_patch_and_a_synergy(self) -> None:
        play = placing(f"0.0.0.0.{TECH[5]}", WATER_ROVER, rows=A6_B6).move(0, f"place {WATER_ROVER} c6 0")
        kinds = sorted(b.kind.value for b in play.seat().pending)
        assert kinds == ["advance", "advance", "choose", "patch"]  # rover, tech 3 water, synergy, patch


class TestNotation:
    def test_the_water_tracker_may_stand_beyond_15_only_for_oasis(self) -> None:
        assert parse_seat(seat_at("0.23.0.0.0")).track(Terrain.WATER) == 23
        with pytest.raises(ValueError, match="beyond the top"):
            parse_seat(f"ksb-4156 {BLANK} t:0.16.0.0.0")
