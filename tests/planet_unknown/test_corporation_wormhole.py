"""Wormhole Corp.: biomass boxes, patches on tiles and meteorites (rules notes 4, 7, 14.24)."""

from __future__ import annotations

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import powers
from domain.planet_unknown.board import parse_square
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import Benefit, Kind
from domain.planet_unknown.notation import parse_seat
from domain.planet_unknown.rules import can_advance, energy_options

from .helpers import Play, offer, pending, start, with_seat

WORMHOLE = "corp:wormhole-corp"
BLANK = "12/12/12/12/12/12/12/12/12/12/12/12"
TECH = {0: 0, 1: 3, 2: 5, 3: 7, 4: 10, 5: 14}
CIV_BIOMASS = 120  # N5 "..Cc/bBb."


def resolving(tracks: str, *benefits: Benefit, rows: str = BLANK, extra: str = "") -> Play:
    position = " ".join(x for x in (f"ksb-4156 {rows} t:{tracks}", extra, WORMHOLE) if x)
    return Play(pending(with_seat(start(1, b"wormhole"), 0, position), 0, *benefits))


def advance_biomass(tracks: str) -> Play:
    return resolving(tracks, Benefit(Kind.ADVANCE, track=Terrain.BIOMASS)).move(0, "advance biomass")


class TestBoxes:
    def test_box_1_synergy_or_patch(self) -> None:
        play = advance_biomass("0.0.0.0.0")
        assert play.seat().track(Terrain.BIOMASS) == 2
        assert [m for m in play.legal() if m.startswith("pick")] == ["pick 0 0", "pick 0 1"]
        play.move(0, "pick 0 0")
        assert play.seat().pending[0].source == "synergy"
        patch = advance_biomass("0.0.0.0.0").move(0, "pick 0 1")
        assert [b.kind for b in patch.seat().pending] == [Kind.PATCH]

    def test_later_boxes_advance_a_named_track_or_give_a_patch(self) -> None:
        play = advance_biomass("0.0.2.0.0")
        assert play.seat().track(Terrain.BIOMASS) == 5
        play.move(0, "pick 0 0", "advance civ")
        assert play.seat().track(Terrain.CIV) == 1
        assert advance_biomass("0.0.5.0.0").seat().pending[0].alternatives[0][0].track is Terrain.WATER

    def test_medals_between_boxes_count_once_passed(self) -> None:
        seat = parse_seat(f"ksb-4156 {BLANK} t:0.0.2.0.0 {WORMHOLE}")
        assert powers.medals(seat)["biomass"] == 0
        assert powers.medals(parse_seat(f"ksb-4156 {BLANK} t:0.0.5.0.0 {WORMHOLE}"))["biomass"] == 1
        assert powers.medals(parse_seat(f"ksb-4156 {BLANK} t:0.0.14.0.0 {WORMHOLE}"))["biomass"] == 5

    def test_a_regression_goes_back_one_box(self) -> None:
        play = resolving("0.0.8.0.0", Benefit(Kind.REGRESS, options=(Terrain.BIOMASS,), steps=1))
        play.move(0, "regress biomass")
        assert play.seat().track(Terrain.BIOMASS) == 5
        play = resolving("0.0.2.0.0", Benefit(Kind.REGRESS, options=(Terrain.BIOMASS,), steps=2))
        play.move(0, "regress biomass")
        assert play.seat().track(Terrain.BIOMASS) == 0

    def test_the_top_is_box_5_and_further_advances_are_lost(self) -> None:
        play = advance_biomass("0.0.11.0.0").move(0, "pick 0 1")
        assert play.seat().track(Terrain.BIOMASS) == 14
        assert not can_advance(play.seat(), Terrain.BIOMASS)
        assert can_advance(parse_seat(f"ksb-4156 {BLANK} t:0.0.14.0.0"), Terrain.BIOMASS)  # UC: 15 is the top


class TestRestriction:
    def test_biomass_must_extend_an_area(self) -> None:
        state = offer(with_seat(start(1, b"wormhole"), 0, f"ksb-4156 {BLANK} {WORMHOLE}"), 0, CIV_BIOMASS)
        play = Play(state).move(0, f"place {CIV_BIOMASS} a6 0")
        assert [b.track for b in play.seat().pending] == [Terrain.CIV]

    def test_extending_an_area_advances(self) -> None:
        position = f"ksb-4156 12/12/12/12/12/12/12/1p10/12/12/12/12 {WORMHOLE}"
        state = offer(with_seat(start(1, b"wormhole"), 0, position), 0, CIV_BIOMASS)
        play = Play(state).move(0, f"place {CIV_BIOMASS} a6 0")
        assert sorted(str(b.track) for b in play.seat().pending) == ["biomass", "civ"]

    def test_energy_never_advances_biomass(self) -> None:
        rows = "12/12/12/12/12/Eb10/12/12/12/12/12/12"
        assert energy_options(parse_seat(f"ksb-4156 {rows}"), [parse_square("a6")]) == (Terrain.BIOMASS,)
        assert energy_options(parse_seat(f"ksb-4156 {rows} {WORMHOLE}"), [parse_square("a6")]) == ()


class TestTechs:
    ROWS = "12/12/12/12/12/cC10/12/12/12/12/12/12"

    def test_1_reset_at_the_top(self) -> None:
        """14.24: reset to 0 without benefits, then advance again."""
        play = resolving(f"0.0.14.0.{TECH[1]}")
        assert "power 1" in play.legal()
        play.move(0, "power 1")
        assert play.seat().track(Terrain.BIOMASS) == 0 and not play.seat().pending
        assert "power 1" not in resolving(f"0.0.11.0.{TECH[1]}").legal()
        assert "power 1" not in resolving("0.0.14.0.0").legal()

    def test_2_patches_on_tiles(self) -> None:
        play = resolving(f"0.0.0.0.{TECH[2]}", Benefit(Kind.PATCH), rows=self.ROWS, extra="met:b6")
        squares = {m.split()[1] for m in play.legal() if m.startswith("patch")}
        assert "a6" in squares and "b6" not in squares and "c6" in squares
        play.move(0, "patch a6")
        assert play.seat().cover[parse_square("a6")] == "p"
        with pytest.raises(IllegalMoveError):
            resolving(f"0.0.0.0.{TECH[1]}", Benefit(Kind.PATCH), rows=self.ROWS).move(0, "patch a6")

    def test_3_a_second_patch_once_per_round(self) -> None:
        play = resolving(f"0.0.0.0.{TECH[3]}", Benefit(Kind.PATCH), Benefit(Kind.PATCH), rows=self.ROWS)
        play.move(0, "patch c6")
        assert [b.kind for b in play.seat().pending] == [Kind.PATCH, Kind.PATCH]
        play.move(0, "patch d6")
        assert [b.kind for b in play.seat().pending] == [Kind.PATCH]

    def test_4_store_patches(self) -> None:
        play = resolving(f"0.0.0.0.{TECH[4]}", Benefit(Kind.PATCH), rows=self.ROWS)
        assert "store" in play.legal()
        assert "store" not in resolving(f"0.0.0.0.{TECH[2]}", Benefit(Kind.PATCH), rows=self.ROWS).legal()

    def test_5_a_patch_on_a_meteorite_destroys_it(self) -> None:
        play = resolving(f"0.0.0.0.{TECH[5]}", Benefit(Kind.PATCH), rows=self.ROWS, extra="met:b6")
        play.move(0, "patch b6")
        seat = play.seat()
        assert not seat.meteorites and seat.meteorites_collected == 0 and seat.cover[parse_square("b6")] == "p"
