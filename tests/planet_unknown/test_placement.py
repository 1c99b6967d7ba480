"""Tile placement (rules notes section 3)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.contract import IllegalMoveError, NotYourTurnError
from domain.planet_unknown import GAME
from domain.planet_unknown import events as ev
from domain.planet_unknown.data import planets
from domain.planet_unknown.model import DESTROYED, Benefit, Kind, Stage
from domain.planet_unknown.notation import parse_seat, print_seat

from .helpers import EMPTY, Play, offer, start, with_seat

ENERGY_CIV = 8  # D2 "C/E": civ icon above energy icon; rotated 90: E left, C right
ENERGY_CIV_METEOR = 20  # same, meteor symbol on the energy square
WATER_ROVER = 104  # D2 "W/R"
ROVER_WATER_I3 = 98  # I3 "R/W/w"
A6_B6 = "ksb-4156 12/12/12/12/12/eC10/12/12/12/12/12/12"


def full_except(*free: str) -> str:
    """KSB-4156 with every grid square covered by civ terrain except the named squares."""
    from domain.planet_unknown.board import parse_square

    keep = {parse_square(s) for s in free}
    seat = parse_seat(EMPTY)
    cover = tuple("c" if s in planets()["ksb-4156"].squares and s not in keep else "" for s in range(144))
    import dataclasses

    from domain.planet_unknown.board import mask_of

    full = dataclasses.replace(seat, cover=cover, covered=mask_of(s for s, x in enumerate(cover) if x))
    return print_seat(full)


def game(position: str = EMPTY, tile: int = ENERGY_CIV, second: int | None = None, **options: Any) -> Play:
    state = start(1, b"test", **options)
    state = with_seat(state, 0, position)
    return Play(offer(state, 0, tile, second))


class TestFirstTile:
    def test_must_cover_an_edge_square(self) -> None:
        with pytest.raises(IllegalMoveError, match="edge"):
            game().move(0, "place 8 f5 0")

    def test_on_the_edge_is_fine(self) -> None:
        play = game().move(0, "place 8 a6 90")
        assert play.seat().cover[60:62] == ("E", "C")
        assert play.seat().stage is Stage.RESOLVING


class TestLaterTiles:
    def test_must_touch_a_tile(self) -> None:
        with pytest.raises(IllegalMoveError, match="touch"):
            game(A6_B6).move(0, "place 8 e9 0")

    def test_adjacent_is_fine(self) -> None:
        game(A6_B6).move(0, "place 8 c6 90")

    def test_no_overlap(self) -> None:
        with pytest.raises(IllegalMoveError, match="overlap"):
            game(A6_B6).move(0, "place 8 b6 90")

    def test_only_on_grid_squares(self) -> None:
        with pytest.raises(IllegalMoveError, match="grid square"):
            game().move(0, "place 8 a5 0")

    def test_inside_the_frame(self) -> None:
        with pytest.raises(IllegalMoveError, match="leave"):
            game().move(0, "place 8 l6 90")

    def test_only_offered_tiles(self) -> None:
        with pytest.raises(IllegalMoveError, match="not offered"):
            game().move(0, "place 9 a6 0")

    @pytest.mark.parametrize("rotation", [0, 90, 180, 270])
    @pytest.mark.parametrize("flip", [False, True])
    def test_any_rotation_and_flip(self, rotation: int, flip: bool) -> None:
        play = game(tile=ROVER_WATER_I3).move(
            0, {"action": "place", "tile": ROVER_WATER_I3, "anchor": "b5", "rotation": rotation, "flip": flip}
        )
        assert play.seat().placed == (ROVER_WATER_I3,)

    def test_legal_moves_list_distinct_placements_of_both_tiles(self) -> None:
        play = game(tile=ENERGY_CIV, second=WATER_ROVER)
        legal = play.legal()
        assert {m.split()[1] for m in legal} == {"8", "104"}
        assert len(legal) == len(set(legal))
        for text in legal[:: max(1, len(legal) // 20)]:
            Play(play.state).move(0, text)


class TestCovering:
    def test_lifepod_is_destroyed(self) -> None:
        play = game().move(0, "place 8 b5 0")
        assert 49 not in play.seat().lifepods
        assert play.seat().lifepods_collected == 0

    def test_rover_is_destroyed(self) -> None:
        play = game(EMPTY + " rov:a6,g").move(0, "place 8 a6 90")
        assert play.seat().rovers == (DESTROYED, -1)

    def test_meteor_symbol_drops_a_meteorite(self) -> None:
        play = game(tile=ENERGY_CIV_METEOR).move(0, "place 20 a6 0")
        assert play.seat().meteorites == {72}

    def test_tech_5_stops_meteorites(self) -> None:
        play = game(EMPTY + " t:0.0.0.0.14", tile=ENERGY_CIV_METEOR).move(0, "place 20 a6 0")
        assert play.seat().meteorites == frozenset()


class TestTech1:
    def test_ignores_adjacency(self) -> None:
        game(A6_B6 + " t:0.0.0.0.3").move(0, "place 8 e9 0")

    def test_ignores_the_edge_rule_by_default(self) -> None:
        game(EMPTY + " t:0.0.0.0.3").move(0, "place 8 f5 0")

    def test_option_keeps_the_edge_rule(self) -> None:
        with pytest.raises(IllegalMoveError, match="edge"):
            game(EMPTY + " t:0.0.0.0.3", uc_tech1_waives_edge=False).move(0, "place 8 f5 0")


class TestCannotPlace:
    def test_a_player_who_can_place_must_place(self) -> None:
        with pytest.raises(IllegalMoveError, match="must be placed"):
            game().move(0, "take 8")
        assert all(m.startswith("place") for m in game().legal())

    def test_take_when_neither_tile_fits(self) -> None:
        play = game(full_except("f1"), tile=ENERGY_CIV, second=WATER_ROVER)
        assert sorted(play.legal()) == ["take 104", "take 8"]
        play.move(0, "take 8")
        assert play.seat().unplaced == (ENERGY_CIV,)
        assert play.seat().pending == (Benefit(Kind.ADVANCE, track=play.seat().pending[0].track),) * 2
        assert str(play.seat().pending[0].track) == "civ"

    def test_take_needs_no_ice_for_water(self) -> None:
        play = game(full_except("f1"), tile=WATER_ROVER).move(0, "take 104")
        assert sorted(str(b.track) for b in play.seat().pending) == ["rover", "water"]

    def test_water_is_not_doubled_by_tech_4(self) -> None:
        play = game(full_except("f1") + " t:0.0.0.0.10", tile=WATER_ROVER).move(0, "take 104")
        assert len(play.seat().pending) == 2

    def test_an_unplaceable_depot_triggers_the_last_round(self) -> None:
        play = game(full_except("f1", "g1", "g2"), tile=ENERGY_CIV)
        play.move(0, "place 8 f1 90", "advance civ", "choose 0 civ", "confirm")
        assert any(isinstance(e, ev.LastRoundTriggered) for e in play.events)
        assert play.state.last_round
        tiles = [m for m in play.legal() if m.startswith("take")]
        assert tiles
        play.move(0, tiles[0])
        while play.state.phase.value != "over":
            play.move(0, play.legal()[0])
        assert play.state.round == 2


class TestTurns:
    def test_not_your_turn(self) -> None:
        state = start(3)
        other = (state.commander + 1) % 3
        with pytest.raises(NotYourTurnError):
            Play(state).move(other, "rotate 2")

    def test_seats_draft_at_the_same_time(self) -> None:
        play = Play(start(3))
        play.move(play.state.commander, "rotate 2")
        assert play.state.phase.value == "draft"
        assert GAME.to_act(play.state) == {0, 1, 2}

    def test_tile_first(self) -> None:
        with pytest.raises(IllegalMoveError, match="first choose"):
            game().move(0, "confirm")
