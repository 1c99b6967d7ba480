"""The asymmetric planets (rules notes sections 3, 5, 12 and 14), set up in the text notation."""

from __future__ import annotations

import dataclasses

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import scoring
from domain.planet_unknown.board import mask_of, parse_square
from domain.planet_unknown.data import SIZE, Terrain, planets
from domain.planet_unknown.model import Benefit, Kind, Seat
from domain.planet_unknown.notation import parse_seat, print_seat
from domain.planet_unknown.planets import PLANET_RULES
from domain.planet_unknown.rules import energy_options

from .helpers import Play, offer, pending, start, with_seat

CIV_ENERGY = 8  # D2: civ icon above energy icon (rotated 90: energy left, civ right)

BLANK = "12/12/12/12/12/12/12/12/12/12/12/12"


def empty(planet: str) -> str:
    return f"{planet} {BLANK}"


def game(position: str, tile: int = CIV_ENERGY) -> Play:
    state = with_seat(start(1, b"planets"), 0, position)
    return Play(offer(state, 0, tile))


def resolving(position: str, *benefits: Benefit, moves: int = 0) -> Play:
    state = with_seat(start(1, b"planets"), 0, position, moves=moves)
    return Play(pending(state, 0, *benefits))


def covering(planet: str, *squares: str, letter: str = "c") -> Seat:
    """A seat on ``planet`` with ``letter`` terrain on the named squares."""
    seat = parse_seat(empty(planet))
    chosen = {parse_square(s) for s in squares}
    cover = tuple(letter if s in chosen else "" for s in range(SIZE * SIZE))
    return dataclasses.replace(seat, cover=cover, covered=mask_of(chosen))


def all_but(planet: str, *free: str) -> Seat:
    """A seat on ``planet`` with every grid square covered except the named ones."""
    keep = {parse_square(s) for s in free}
    names = [f"{'abcdefghijkl'[s % SIZE]}{s // SIZE + 1}" for s in planets()[planet].squares if s not in keep]
    return covering(planet, *names)


class TestData:
    def test_every_planet_has_rules_and_six_lifepods(self) -> None:
        assert set(PLANET_RULES) == set(planets())
        assert all(len(p.lifepods) == 6 for p in planets().values())

    def test_special_squares_are_not_ice(self) -> None:
        assert not planets()["arashi"].ice & planets()["arashi"].squares_lettered("R")
        assert not planets()["petra"].ice
        assert len(planets()["lacuna"].squares) == 94  # 15 holes

    def test_corporation_field_round_trips(self) -> None:
        text = "gaia 12/12/12/12/12/12/12/12/12/12/12/12 t:1.0.0.0.0"
        assert print_seat(parse_seat(text)) == text


class TestArashi:
    def test_a_tile_only_on_the_ring_is_refused(self) -> None:
        with pytest.raises(IllegalMoveError, match="Arashi forbids"):
            game(empty("arashi")).move(0, "place 8 a6 0")
        assert "place 8 a6 90" not in game(empty("arashi")).legal()

    def test_a_tile_reaching_the_ring_from_the_planet_is_fine(self) -> None:
        play = game(empty("arashi")).move(0, "place 8 b5 0")
        assert play.seat().cover[parse_square("b6")] == "E"

    def test_no_patch_on_the_ring(self) -> None:
        play = resolving("arashi 12/12/12/12/1c10/1c10/12/12/12/12/12/12", Benefit(Kind.PATCH))
        squares = {m.split()[1] for m in play.legal() if m.startswith("patch")}
        assert "c5" in squares and "b4" in squares
        assert not squares & {"a6", "c6", "b7"}
        with pytest.raises(IllegalMoveError):
            play.move(0, "patch c6")


class TestCharybdis:
    def test_first_tile_must_cover_the_centre(self) -> None:
        with pytest.raises(IllegalMoveError, match="centre"):
            game(empty("charybdis")).move(0, "place 8 a6 90")
        game(empty("charybdis")).move(0, "place 8 f6 0")

    def test_then_normal_adjacency(self) -> None:
        play = game("charybdis 12/12/12/12/12/5cC5/12/12/12/12/12/12")
        with pytest.raises(IllegalMoveError, match="touch"):
            play.move(0, "place 8 a6 90")
        play.move(0, "place 8 h6 90")

    def test_a_first_patch_goes_in_the_centre(self) -> None:
        play = resolving(empty("charybdis"), Benefit(Kind.PATCH))
        assert sorted(m for m in play.legal() if m.startswith("patch")) == [
            "patch f6",
            "patch f7",
            "patch g6",
            "patch g7",
        ]


class TestK273:
    def test_a_tile_may_not_mix_ice_and_land(self) -> None:
        with pytest.raises(IllegalMoveError, match="K-273 forbids"):
            game("k-273 12/12/12/12/12/eC10/12/12/12/12/12/12").move(0, "place 8 b7 90")  # b7 ice, c7 lifepod land

    def test_all_ice_or_all_land_is_fine(self) -> None:
        game(empty("k-273")).move(0, "place 8 a6 90")  # a6, b6 ice
        game("k-273 12/12/12/12/12/eC10/12/12/12/12/12/12").move(0, "place 8 c6 90")  # c6, d6 land

    def test_a_patch_always_passes(self) -> None:
        play = resolving("k-273 12/12/12/12/12/eC10/12/12/12/12/12/12", Benefit(Kind.PATCH))
        assert {"patch c6", "patch a7", "patch b7"} <= set(play.legal())


class TestTartarus:
    def test_a_tile_may_not_span_the_chasm(self) -> None:
        with pytest.raises(IllegalMoveError, match="Tartarus forbids"):
            game("tartarus 12/3cC7/12/12/12/12/12/12/12/12/12/12").move(0, "place 8 f2 90")  # f2 west, g2 east
        game("tartarus 12/3cC7/12/12/12/12/12/12/12/12/12/12").move(0, "place 8 e3 0")

    def test_rovers_do_not_cross_the_chasm(self) -> None:
        play = resolving(empty("tartarus") + " rov:f2,g", moves=2)
        assert "rover 0 g2" not in play.legal()
        with pytest.raises(IllegalMoveError, match="Tartarus"):
            play.move(0, "rover 0 g2")
        play.move(0, "rover 0 f3")

    def test_teleports_ignore_the_chasm(self) -> None:
        play = resolving(empty("tartarus") + " rov:f2,g", Benefit(Kind.TELEPORT))
        play.move(0, "teleport 0 k5")
        assert play.seat().rovers[0] == parse_square("k5")


class TestKaax:
    def test_rovers_avoid_uncovered_toxic_squares(self) -> None:
        play = resolving(empty("kaax") + " rov:e2,g", moves=2)
        assert "rover 0 d2" not in play.legal()
        with pytest.raises(IllegalMoveError, match="K'Aax"):
            play.move(0, "rover 0 d2")

    def test_a_tile_neutralises_toxic_terrain(self) -> None:
        play = resolving("kaax 12/3c8/12/12/12/12/12/12/12/12/12/12 rov:e2,g", moves=2)
        play.move(0, "rover 0 d2")
        assert play.seat().rovers[0] == parse_square("d2")

    def test_the_relocation_teleport_may_land_on_toxic_terrain(self) -> None:
        """14.12: BGA lets the Relocation Bonus target any square, toxic included."""
        play = resolving(empty("kaax") + " rov:e2,g", Benefit(Kind.TELEPORT))
        play.move(0, "teleport 0 d2")
        assert play.seat().rovers[0] == parse_square("d2")

    def test_tiles_may_cover_toxic_squares(self) -> None:
        game(empty("kaax")).move(0, "place 8 a6 90")  # b6 is toxic


class TestPetra:
    def test_currents_join_the_energy_area(self) -> None:
        petra = parse_seat("petra 12/3E1w6/12/12/12/12/12/12/12/12/12/12")  # e2 is an uncovered current
        assert Terrain.WATER in energy_options(petra, [parse_square("d2")])
        ksb = dataclasses.replace(petra, planet="ksb-4156")
        assert Terrain.WATER not in energy_options(ksb, [parse_square("d2")])

    def test_a_covered_current_is_just_its_tile(self) -> None:
        seat = parse_seat("petra 12/3Eb1w5/12/12/12/12/12/12/12/12/12/12")
        assert energy_options(seat, [parse_square("d2")]) == (Terrain.BIOMASS,)

    def test_uncovered_currents_fill_rows(self) -> None:
        seat = covering("petra", "d11", "e11", "f11", "g11", "h11")  # i11 is a current
        assert scoring.planet_medals(seat) == planets()["petra"].row_medals[10]
        assert scoring.uncovered(seat) == len(planets()["petra"].squares) - 5

    def test_currents_count_as_covered_land_for_coveralls(self) -> None:
        currents = planets()["petra"].squares_lettered("E")
        names = [f"{'abcdefghijkl'[s % SIZE]}{s // SIZE + 1}" for s in currents]
        assert scoring._no_uncovered(all_but("petra", *names), ice=False)
        assert not scoring._no_uncovered(all_but("petra", "a6"), ice=False)


class TestGaia:
    def test_uncovered_cities_score_two_each(self) -> None:
        assert scoring.planet_medals(parse_seat(empty("gaia"))) == 16
        assert scoring.planet_medals(covering("gaia", "f1")) == 14

    def test_a_patch_covers_a_city(self) -> None:
        assert scoring.planet_medals(covering("gaia", "c3", letter="p")) == 14


class TestCerberus:
    def test_a_covered_sub_planet_scores_two(self) -> None:
        rules = PLANET_RULES["cerberus"]
        assert rules.bonus_medals(all_but("cerberus")) == 6
        assert rules.bonus_medals(parse_seat(empty("cerberus"))) == 0

    def test_the_last_row_and_column_of_a_sub_planet_count(self) -> None:
        rules = PLANET_RULES["cerberus"]
        assert rules.bonus_medals(all_but("cerberus", "k12")) == 4  # south-east's last row (BGA skips it)
        assert rules.bonus_medals(all_but("cerberus", "k3")) == 4  # north-east's last column
        assert rules.bonus_medals(all_but("cerberus", "g6")) == 4  # west, not north-east


class TestOblivion:
    def test_only_the_outer_frame_is_the_edge(self) -> None:
        with pytest.raises(IllegalMoveError, match="edge"):
            game(empty("oblivion")).move(0, "place 8 b4 0")
        game(empty("oblivion")).move(0, "place 8 a4 0")

    def test_rows_without_centre_are_complete_with_their_squares(self) -> None:
        seat = covering("oblivion", "a6", "l6")
        assert scoring.planet_medals(seat) == planets()["oblivion"].row_medals[5]

    def test_no_tile_in_the_void(self) -> None:
        with pytest.raises(IllegalMoveError, match="grid square"):
            game("oblivion 12/12/12/12/12/e11/12/12/12/12/12/12").move(0, "place 8 b6 90")


class TestLacuna:
    def test_holes_take_no_tile(self) -> None:
        with pytest.raises(IllegalMoveError, match="grid square"):
            game("lacuna 12/12/4c7/12/12/12/12/12/12/12/12/12").move(0, "place 8 f3 90")

    def test_rows_ignore_holes(self) -> None:
        seat = covering("lacuna", "b3", "c3", "d3", "e3", "h3", "i3", "j3", "k3")
        assert scoring.planet_medals(seat) == planets()["lacuna"].row_medals[2]

    def test_rovers_do_not_enter_holes(self) -> None:
        play = resolving(empty("lacuna") + " rov:e3,g", moves=1)
        assert "rover 0 f3" not in play.legal()
        with pytest.raises(IllegalMoveError):
            play.move(0, "rover 0 f3")

    def test_a_square_next_to_a_hole_is_not_edge(self) -> None:
        edge = planets()["lacuna"].edge
        assert parse_square("e3") not in edge and parse_square("a5") in edge


class TestPajitnov:
    POCKET = "pajitnov 12/12/12/12/5c6/4c1c5/4c1c5/5c6/12/12/12/12"

    def test_a_tile_that_cannot_slide_in_is_refused(self) -> None:
        with pytest.raises(IllegalMoveError, match="Pajitnov forbids"):
            game(self.POCKET).move(0, "place 8 f6 0")

    def test_one_open_side_is_enough(self) -> None:
        game("pajitnov 12/12/12/12/5c6/4c1c5/4c1c5/12/12/12/12/12").move(0, "place 8 f6 0")

    def test_patches_need_not_slide(self) -> None:
        play = resolving("pajitnov 12/12/12/12/5c6/4c1c5/5c6/12/12/12/12/12", Benefit(Kind.PATCH))
        play.move(0, "patch f6")


class TestPersephone:
    def test_an_icon_in_the_quadrant_that_bans_it_is_refused(self) -> None:
        with pytest.raises(IllegalMoveError, match="Persephone forbids"):
            game(empty("persephone")).move(0, "place 8 a6 0")  # civ icon top left
        with pytest.raises(IllegalMoveError, match="Persephone forbids"):
            game(empty("persephone")).move(0, "place 8 l6 180")  # energy icon top right

    def test_other_icons_may_go_there(self) -> None:
        game(empty("persephone")).move(0, "place 8 a6 180")  # energy top left, civ bottom left
        game(empty("persephone")).move(0, "place 8 l6 0")  # civ top right, energy bottom right

    def test_patches_are_never_restricted(self) -> None:
        play = resolving(empty("persephone"), Benefit(Kind.PATCH))
        assert "patch a6" in play.legal()
