"""Republic: seven civ milestones, each paid for by another track (rules notes 4, 5, 8, 14.8, 14.9)."""

from __future__ import annotations

import dataclasses

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import events as ev
from domain.planet_unknown.board import parse_square
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import GARAGE, Benefit, Kind, Phase, Stage
from domain.planet_unknown.powers import CORPORATIONS
from domain.planet_unknown.rules import civ_choices, evolve

from .helpers import Play, offer, pending, start, with_seat

REPUBLIC = "corp:republic"
BLANK = "12/12/12/12/12/12/12/12/12/12/12/12"
TECH = {0: 0, 1: 3, 2: 5, 3: 7, 4: 10, 5: 14}


def resolving(tracks: str, *benefits: Benefit, rows: str = BLANK, extra: str = "", moves: int = 0) -> Play:
    position = f"ksb-4156 {rows} t:{tracks} {extra} {REPUBLIC}".replace("  ", " ")
    state = with_seat(start(1, b"republic"), 0, position, moves=moves)
    return Play(pending(state, 0, *benefits))


class TestBoard:
    def test_one_rover_and_seven_civ_milestones(self) -> None:
        republic = CORPORATIONS["republic"]
        state = start(1, b"r", seat_setup=[{"corporation": "republic"}])
        assert state.seats[0].rovers == (GARAGE,)
        civ = republic.tracks()[Terrain.CIV]
        assert [s.civ_rank for s in civ if s.civ_rank] == [1, 2, 2, 3, 3, 4, 4]
        assert [s.medal for s in civ if s.medal] == [5]


class TestRestriction:
    def test_a_civ_milestone_makes_another_tracker_regress(self) -> None:
        play = resolving("1.2.0.3.0", Benefit(Kind.ADVANCE, track=Terrain.CIV))
        play.move(0, "advance civ")
        assert play.seat().civ_queue == (1,)
        assert sorted(m for m in play.legal() if m.startswith("regress")) == ["regress rover", "regress water"]
        with pytest.raises(IllegalMoveError, match="resolve"):
            play.move(0, "confirm")
        play.move(0, "regress water")
        assert play.seat().track(Terrain.WATER) == 1
        assert play.seat().track(Terrain.CIV) == 2

    def test_nothing_to_regress_is_nothing(self) -> None:
        play = resolving("1.0.0.0.0", Benefit(Kind.ADVANCE, track=Terrain.CIV)).move(0, "advance civ")
        assert not play.seat().pending

    def test_regression_also_with_an_empty_pile(self) -> None:
        """14.8: an empty pile gives no card, the regression still happens."""
        play = resolving("1.2.0.0.0", Benefit(Kind.ADVANCE, track=Terrain.CIV))
        play.state = dataclasses.replace(play.state, civ_piles=((), *play.state.civ_piles[1:]))
        play.move(0, "advance civ")
        assert [b.kind for b in play.seat().pending] == [Kind.REGRESS]

    def test_other_corporations_do_not_regress(self) -> None:
        state = with_seat(start(1, b"republic"), 0, f"ksb-4156 {BLANK} t:2.2.0.0.0")
        play = Play(pending(state, 0, Benefit(Kind.ADVANCE, track=Terrain.CIV))).move(0, "advance civ")
        assert not play.seat().pending


class TestTechs:
    def test_1_rover_movement_before_placing_then_a_civ_tile(self) -> None:
        position = f"ksb-4156 12/12/12/12/12/eC10/12/12/12/12/12/12 t:0.0.0.4.{TECH[1]} rov:a6 {REPUBLIC}"
        state = offer(with_seat(start(1, b"republic"), 0, position), 0, 8, 104)
        play = Play(state)
        assert "power 1" in play.legal()
        play.move(0, "power 1")
        assert play.seat().moves == 2 and play.seat().stage is Stage.CHOOSING
        play.move(0, "rover 0 a7")
        assert not any(m.startswith("place 104") for m in play.legal())
        with pytest.raises(IllegalMoveError, match="civ terrain"):
            play.move(0, "place 104 c6 90")
        assert "power 1" not in play.legal()
        play.move(0, "place 8 c6 90")
        assert play.seat().moves == 1

    def test_1_needs_a_civ_tile_in_the_depot(self) -> None:
        position = f"ksb-4156 12/12/12/12/12/eC10/12/12/12/12/12/12 t:0.0.0.4.{TECH[1]} {REPUBLIC}"
        play = Play(offer(with_seat(start(1, b"republic"), 0, position), 0, 104, 102))
        assert "power 1" not in play.legal()
        with pytest.raises(IllegalMoveError, match="not a power"):
            play.move(0, "power 1")

    def test_2_the_top_card_of_the_next_pile_is_a_choice(self) -> None:
        play = resolving(f"3.0.0.0.{TECH[2]}", Benefit(Kind.CIV, rank=1))
        top = play.state.civ_piles[1][0]
        assert top in civ_choices(play.state, play.seat(), play.seat().pending[0])
        play.move(0, f"civ {top}")
        assert top in play.seat().hand and top not in play.state.civ_piles[1]

    def test_2_not_at_rank_4_nor_before_the_level(self) -> None:
        play = resolving(f"3.0.0.0.{TECH[2]}", Benefit(Kind.CIV, rank=4))
        assert civ_choices(play.state, play.seat(), play.seat().pending[0]) == play.state.civ_piles[3]
        play = resolving(f"3.0.0.0.{TECH[1]}", Benefit(Kind.CIV, rank=1))
        assert civ_choices(play.state, play.seat(), play.seat().pending[0]) == play.state.civ_piles[0]

    def test_3_a_rover_jumps_between_civ_squares(self) -> None:
        rows = "12/12/12/12/12/3c8/12/12/9C2/12/12/12"
        play = resolving(f"0.0.0.0.{TECH[3]}", rows=rows, extra="rov:d6", moves=1)
        assert "rover 0 j9" in play.legal()
        play.move(0, "rover 0 j9")
        assert play.seat().rovers == (parse_square("j9"),) and play.seat().moves == 0

    def test_3_only_from_civ_terrain_and_with_the_level(self) -> None:
        rows = "12/12/12/12/12/3c8/12/12/9C2/12/12/12"
        assert "rover 0 j9" not in resolving(f"0.0.0.0.{TECH[2]}", rows=rows, extra="rov:d6", moves=1).legal()
        assert "rover 0 j9" not in resolving(f"0.0.0.0.{TECH[3]}", rows=rows, extra="rov:d7", moves=1).legal()

    def test_4_a_synergy_with_every_civ_milestone(self) -> None:
        play = resolving(f"1.2.0.0.{TECH[4]}", Benefit(Kind.ADVANCE, track=Terrain.CIV)).move(0, "advance civ")
        assert [b.kind for b in play.seat().pending] == [Kind.REGRESS, Kind.CHOOSE]

    def test_5_up_to_two_cards_of_any_rank_at_the_end(self) -> None:
        play = resolving(f"0.0.0.0.{TECH[5]}")
        seat = dataclasses.replace(play.seat(), stage=Stage.DONE, pending=())
        state = evolve(dataclasses.replace(play.state, seats=(seat,), phase=Phase.CIV), ev.EndGameTurnStarted())
        picks = state.seats[0].pending
        assert [(b.kind, b.rank) for b in picks] == [(Kind.CIV, 0), (Kind.CIV, 0)]
        assert all(b.optional for b in picks)
        every = {c for pile in state.civ_piles for c in pile}
        assert set(civ_choices(state, state.seats[0], picks[0])) == every
        last = state.civ_piles[3][-1]
        play = Play(state).move(0, f"civ {last}", "confirm")
        assert last in play.seat().hand

    def test_5_once_although_the_end_game_turn_repeats(self) -> None:
        """A civ milestone reached in the end-game turn brings another end-game turn, not two more cards."""
        play = resolving(f"0.0.0.0.{TECH[5]}")
        seat = dataclasses.replace(play.seat(), stage=Stage.DONE, pending=())
        state = evolve(dataclasses.replace(play.state, seats=(seat,), phase=Phase.CIV), ev.EndGameTurnStarted())
        seat = dataclasses.replace(state.seats[0], stage=Stage.DONE, pending=())
        again = evolve(dataclasses.replace(state, seats=(seat,), phase=Phase.CIV), ev.EndGameTurnStarted())
        assert again.seats[0].pending == () and again.seats[0].stage is Stage.DONE
