"""Horizon Group: four rovers carrying meteorites (rules notes 4, 5, 14.6, 14.9)."""

from __future__ import annotations

import dataclasses

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import events as ev
from domain.planet_unknown.board import parse_square
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import GARAGE, Benefit, Kind, Phase, Stage
from domain.planet_unknown.powers import CORPORATIONS
from domain.planet_unknown.rules import evolve

from .helpers import Play, offer, pending, start, with_seat

HORIZON = "corp:horizon-group"
ROW6 = "ksb-4156 12/12/12/12/12/3cCrRwW3/12/12/12/12/12/12"  # d6 c, e6 C, f6 r, g6 R, h6 w, i6 W
TECH = {0: "0.0.0.0.0", 1: "0.0.0.0.3", 2: "0.0.0.0.5", 3: "0.0.0.0.7", 4: "0.0.0.0.10", 5: "0.0.0.0.14"}
WATER_ROVER = 104  # D2: water icon above rover icon


def resolving(position: str, *benefits: Benefit, moves: int = 0) -> Play:
    state = with_seat(start(1, b"horizon"), 0, position, moves=moves)
    return Play(pending(state, 0, *benefits))


def carrying(tech: int = 0, extra: str = "", moves: int = 3) -> Play:
    return resolving(f"{ROW6} t:{TECH[tech]} met:d6{extra} rov:d6,g,g,g {HORIZON}", moves=moves)


class TestBoard:
    def test_four_rovers_and_a_faster_rover_track(self) -> None:
        horizon = CORPORATIONS["horizon-group"]
        state = start(1, b"h", seat_setup=[{"planet": "ksb-4156", "corporation": "Horizon Group"}])
        assert state.seats[0].rovers == (GARAGE,) * 4
        rover = horizon.tracks()[Terrain.ROVER]
        assert sum(1 for s in rover if s.rover) == 4 and rover[15].rover_moves == 5


class TestCarrying:
    def test_a_rover_picks_a_meteorite_up_instead_of_collecting_it(self) -> None:
        play = resolving(f"{ROW6} met:e6 rov:d6,g,g,g {HORIZON}", moves=2)
        play.move(0, "rover 0 e6")
        assert play.seat().meteorites == {parse_square("e6")} and play.seat().meteorites_collected == 0
        play.move(0, "rover 0 e7")
        assert play.seat().meteorites == {parse_square("e7")}

    def test_delivered_on_a_rover_icon(self) -> None:
        play = carrying().move(0, "rover 0 e6", "rover 0 f6")
        assert play.seat().meteorites_collected == 0
        play.move(0, "rover 0 g6")
        assert not play.seat().meteorites and play.seat().meteorites_collected == 1

    def test_one_meteorite_per_rover(self) -> None:
        play = carrying(extra=",e6")
        assert "rover 0 e6" not in play.legal()
        with pytest.raises(IllegalMoveError, match="carrying"):
            play.move(0, "rover 0 e6")

    def test_deploying_onto_a_meteorite_picks_it_up(self) -> None:
        play = resolving(f"{ROW6} met:d6 last:d6,e6 {HORIZON}", Benefit(Kind.DEPLOY))
        play.move(0, "deploy d6")
        assert play.seat().meteorites == {parse_square("d6")} and play.seat().meteorites_collected == 0

    def test_lifepods_are_still_collected_on_contact(self) -> None:
        play = resolving(f"ksb-4156 12/12/12/12/12/12/12/12/12/12/12/12 rov:g3,g,g,g {HORIZON}", moves=1)
        play.move(0, "rover 0 h3")
        assert play.seat().lifepods_collected == 1

    def test_a_tile_on_a_carrying_rover_destroys_it_but_not_the_meteorite(self) -> None:
        position = f"ksb-4156 12/12/12/12/12/eC10/12/12/12/12/12/12 met:c6 sym: rov:c6,g,g,g {HORIZON}"
        state = offer(with_seat(start(1, b"horizon"), 0, position), 0, 8)
        play = Play(state).move(0, "place 8 c6 90")
        seat = play.seat()
        assert seat.rovers[0] < 0 and parse_square("c6") in seat.meteorites


class TestTechs:
    def test_1_a_rover_tile_goes_anywhere_free(self) -> None:
        state = offer(with_seat(start(1, b"horizon"), 0, f"ksb-4156 {'12/' * 11}12 t:{TECH[1]} {HORIZON}"), 0, 104)
        Play(state).move(0, "place 104 f6 0")
        plain = offer(with_seat(start(1, b"horizon"), 0, f"ksb-4156 {'12/' * 11}12 t:{TECH[1]} {HORIZON}"), 0, 8)
        with pytest.raises(IllegalMoveError, match="edge"):
            Play(plain).move(0, "place 8 f6 0")

    def test_1_even_planet_restrictions_are_skipped(self) -> None:
        position = f"tartarus 12/3cC7/12/12/12/12/12/12/12/12/12/12 t:{TECH[1]} {HORIZON}"
        state = offer(with_seat(start(1, b"horizon"), 0, position), 0, WATER_ROVER)
        Play(state).move(0, "place 104 f2 90")  # across the chasm

    def test_1_not_before_the_level(self) -> None:
        state = offer(with_seat(start(1, b"horizon"), 0, f"ksb-4156 {'12/' * 11}12 {HORIZON}"), 0, WATER_ROVER)
        with pytest.raises(IllegalMoveError, match="edge"):
            Play(state).move(0, "place 104 f6 0")

    def test_2_movement_per_carrying_rover_at_the_tile_phase(self) -> None:
        play = carrying(tech=2, moves=0)
        state = evolve(play.state, ev.DraftStarted())
        assert state.seats[0].moves == 1
        assert evolve(carrying(tech=1, moves=0).state, ev.DraftStarted()).seats[0].moves == 0

    def test_3_a_patch_per_collected_meteorite(self) -> None:
        play = carrying(tech=3).move(0, "rover 0 e6", "rover 0 f6", "rover 0 g6")
        assert [b.kind for b in play.seat().pending] == [Kind.PATCH]

    def test_4_a_carrying_rover_on_water_may_destroy_its_meteorite(self) -> None:
        play = resolving(f"{ROW6} t:{TECH[4]} met:g7 rov:g7,g,g,g {HORIZON}", moves=2)
        play.move(0, "rover 0 h7")
        assert not play.seat().pending
        play = resolving(f"{ROW6} t:{TECH[4]} met:h7 rov:h7,g,g,g {HORIZON}", moves=2)
        play.move(0, "rover 0 h6")
        assert "destroy h6" in play.legal()
        play.move(0, "destroy h6")
        assert not play.seat().meteorites and play.seat().meteorites_collected == 0

    def test_4_the_choice_lapses_when_the_rover_leaves_the_water(self) -> None:
        play = resolving(f"{ROW6} t:{TECH[4]} met:h7 rov:h7,g,g,g {HORIZON}", moves=2)
        play.move(0, "rover 0 h6", "rover 0 h5")
        assert not play.seat().pending

    def test_5_advance_the_rover_tracker_once_per_round(self) -> None:
        play = resolving(f"{ROW6} t:{TECH[5]} {HORIZON}")
        assert "power 5" in play.legal()
        play.move(0, "power 5", "advance rover")
        assert play.seat().track(Terrain.ROVER) == 1
        assert "power 5" not in play.legal()
        with pytest.raises(IllegalMoveError, match="once per round"):
            play.move(0, "power 5")

    def test_5_not_again_in_the_civ_slot_of_the_same_round(self) -> None:
        """Once per round means once per round: BGA's reset at the civ-card slot (14.9) is not played."""
        play = resolving(f"{ROW6} t:{TECH[5]} {HORIZON}").move(0, "power 5", "advance rover")
        seat = dataclasses.replace(play.seat(), civ_queue=(1,), stage=Stage.IDLE)
        state = dataclasses.replace(play.state, seats=(seat,), phase=Phase.CIV, civ_order=(0,))
        slot = Play(evolve(state, ev.CivSlotStarted(0)))
        assert "power 5" not in slot.legal()
        with pytest.raises(IllegalMoveError, match="once per round"):
            slot.move(0, "power 5")
        assert evolve(slot.state, ev.RoundStarted(2)).seats[0].powers_used == ()

    def test_2_movement_once_per_round(self) -> None:
        play = carrying(tech=2, moves=0)
        drafted = evolve(play.state, ev.DraftStarted())
        seat = dataclasses.replace(drafted.seats[0], moves=0, civ_queue=(1,))
        state = dataclasses.replace(drafted, seats=(seat,), phase=Phase.CIV, civ_order=(0,))
        assert evolve(state, ev.CivSlotStarted(0)).seats[0].moves == 0
        assert evolve(dataclasses.replace(state, phase=Phase.CIV), ev.EndGameTurnStarted()).seats[0].moves == 0

    def test_uc_has_no_power_moves(self) -> None:
        play = resolving(f"{ROW6} t:{TECH[5]}")
        assert not any(m.startswith("power") for m in play.legal())
