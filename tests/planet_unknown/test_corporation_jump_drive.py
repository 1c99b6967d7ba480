"""Jump Drive: six techs unlocked by lifepods on their slots (rules notes 4, 5, 6, 14.10, 14.20, 14.21)."""

from __future__ import annotations

import dataclasses

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import GAME, scoring
from domain.planet_unknown import events as ev
from domain.planet_unknown.corporations import jump_drive
from domain.planet_unknown.corporations.jump_drive import pod_slots
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import GARAGE, Benefit, Kind
from domain.planet_unknown.notation import parse_seat, parse_state, print_seat, print_state
from domain.planet_unknown.powers import CORPORATIONS
from domain.planet_unknown.rules import evolve

from .helpers import EMPTY, Play, offer, pending, start, with_seat

JUMP = "corp:jump-drive"
ROW6 = "ksb-4156 12/12/12/12/12/3cCeEwW3/12/12/12/12/3c8/12"  # d6 c, e6 C, f6 e, g6 E, h6 w, i6 W, d11 c
GEODE = 61  # most meteorites collected


def board(slots: str = "", tracks: str = "0.0.0.0.0", extra: str = "") -> str:
    slot_field = f" slots:{slots}" if slots else ""
    return f"{ROW6} t:{tracks}{extra} {JUMP}{slot_field}"


def resolving(position: str, *benefits: Benefit, moves: int = 0, players: int = 1) -> Play:
    state = with_seat(start(players, b"jump"), 0, position, moves=moves)
    return Play(pending(state, 0, *benefits))


def synergy() -> Benefit:
    return Benefit(Kind.CHOOSE, source="synergy")


class TestBoard:
    def test_one_rover_and_one_rover_milestone(self) -> None:
        state = start(1, b"j", seat_setup=[{"corporation": "Jump Drive"}])
        assert state.seats[0].rovers == (GARAGE,)
        rover = CORPORATIONS["jump-drive"].tracks()[Terrain.ROVER]
        assert [p for p, s in enumerate(rover) if s.rover] == [1]

    @pytest.mark.parametrize(("tech", "medal"), [(0, 0), (1, 5), (5, 5), (6, 3), (8, 2), (11, 1), (15, 1)])
    def test_tech_medals_fall_as_the_tracker_rises(self, tech: int, medal: int) -> None:
        seat = parse_seat(board(tracks=f"0.0.0.0.{tech}"))
        assert scoring.track_medals(seat)["tech"] == medal

    def test_no_tech_level_from_the_tech_track(self) -> None:
        assert CORPORATIONS["jump-drive"].tech_level(parse_seat(board(tracks="0.0.0.0.15"))) == 0

    def test_notation_round_trip(self) -> None:
        text = f"{EMPTY} lc:2 {JUMP} once:5 slots:2,5"
        assert pod_slots(parse_seat(text)) == (2, 5) and print_seat(parse_seat(text)) == text


class TestSlots:
    def test_a_collected_lifepod_may_unlock_a_tech(self) -> None:
        play = resolving(f"{EMPTY} rov:g3 {JUMP}", moves=1).move(0, "rover 0 h3")
        legal = [m for m in play.legal() if m.startswith("lifepod")]
        assert legal == [f"lifepod area slot{n}" for n in range(1, 7)]
        play.move(0, "lifepod area slot4")
        assert pod_slots(play.seat()) == (4,) and CORPORATIONS["jump-drive"].tech_level(play.seat()) == 1
        assert scoring.lifepod_medals(play.seat()) == 0

    def test_also_a_lifepod_collected_by_a_card(self) -> None:
        play = resolving(board(), Benefit(Kind.COLLECT)).move(0, "collect h3")
        assert "lifepod area slot6" in play.legal()

    def test_or_stay_in_the_scoring_area(self) -> None:
        play = resolving(f"{EMPTY} rov:g3 {JUMP}", moves=1).move(0, "rover 0 h3", "confirm")
        assert pod_slots(play.seat()) == () and scoring.lifepod_medals(play.seat()) == 1

    def test_a_filled_slot_takes_no_other(self) -> None:
        play = resolving(board("2", extra=" lc:2"), Benefit(Kind.LIFEPOD, source="collected"))
        assert "lifepod area slot2" not in play.legal()
        with pytest.raises(IllegalMoveError, match="lifepod"):
            play.move(0, "lifepod area slot2")

    def test_space_citizen_decree_counts_the_slots(self) -> None:
        """14.21: the Decree counts every collected lifepod, also those on tech slots."""
        seat = parse_seat(board("1,2", extra=" lc:3 hand:28"))
        assert scoring.lifepod_medals(seat) == 1 + 3


class TestTechs:
    def test_a_a_patch_becomes_a_synergy_once_per_round(self) -> None:
        play = resolving(board("1"), Benefit(Kind.PATCH), Benefit(Kind.PATCH))
        play.move(0, "power 1")
        assert [b.kind for b in play.seat().pending] == [Kind.CHOOSE, Kind.PATCH]
        assert "power 1" not in play.legal()
        assert "power 1" not in resolving(board("2"), Benefit(Kind.PATCH)).legal()

    def test_b_teleport_to_the_same_terrain_for_one_movement(self) -> None:
        play = resolving(board("2", extra=" rov:d6"), moves=2)
        play.move(0, "power 2")
        assert play.seat().moves == 1
        legal = [m for m in play.legal() if m.startswith("teleport")]
        assert sorted(legal) == ["teleport 0 d11", "teleport 0 e6"]
        with pytest.raises(IllegalMoveError, match="same terrain"):
            play.move(0, "teleport 0 f6")
        play.move(0, "teleport 0 d11")
        assert play.seat().rovers == (parse_seat(board(extra=" rov:d11")).rovers[0],)
        assert "power 2" not in play.legal()

    def test_b_needs_movement(self) -> None:
        assert "power 2" not in resolving(board("2", extra=" rov:d6")).legal()

    def test_c_a_synergy_advances_twice_once_per_round(self) -> None:
        play = resolving(board("3"), synergy(), synergy())
        play.move(0, "power 3", "choose 0 water")
        assert play.seat().track(Terrain.WATER) == 2
        assert "power 3" not in play.legal()

    def test_a_and_c_are_blocked_by_event_122(self) -> None:
        """Event 122 blocks every synergy source (rules notes 14.16): A makes one, C doubles one."""
        play = resolving(board("1,3"), Benefit(Kind.PATCH), synergy())
        assert {"power 1", "power 3"} <= set(play.legal())
        play.state = dataclasses.replace(play.state, event_card=122)
        assert not any(m.startswith("power") for m in play.legal())
        for level in (1, 3):
            with pytest.raises(IllegalMoveError, match="not a power you may use now"):
                play.move(0, f"power {level}")

    def test_d_a_tech_icon_resolves_as_energy(self) -> None:
        position = f"ksb-4156 12/12/12/12/12/cC10/12/12/12/12/12/12 {JUMP} slots:4"
        state = offer(with_seat(start(1, b"jump"), 0, position), 0, 80)  # tech icon over biomass icon
        play = Play(state).move(0, "place 80 c6 0")
        energy = [b for b in play.seat().pending if b.source == "energy"]
        assert len(energy) == 1 and energy[0].options == (Terrain.CIV, Terrain.BIOMASS)
        assert play.seat().track(Terrain.TECH) == 0
        plain = Play(offer(with_seat(start(1, b"jump"), 0, position.replace(" slots:4", "")), 0, 80))
        plain.move(0, "place 80 c6 0")
        assert not any(b.source == "energy" for b in plain.seat().pending)

    def test_e_claim_a_height_on_all_five_tracks_once_per_game(self) -> None:
        """14.10: banked until used, then gone."""
        play = resolving(board("5", tracks="3.0.1.0.0"))
        state = evolve(play.state, ev.DraftStarted())
        play = Play(pending(state, 0)).move(0, "power 5")
        assert sorted(m for m in play.legal() if m.startswith("choose")) == ["choose 0 biomass", "choose 0 civ"]
        play.move(0, "choose 0 civ")
        seat = play.seat()
        assert seat.civ_queue == (1,) and seat.moves == 1  # civ C1, rover v1
        assert sorted(b.kind for b in seat.pending) == sorted([Kind.CHOOSE, Kind.PATCH])  # water s, biomass P
        assert seat.tracks == (3, 0, 1, 0, 0) and seat.once_used == (5,)
        state = evolve(play.state, ev.DraftStarted())
        assert "power 5" not in Play(pending(state, 0)).legal()

    def test_f_keep_one_of_three_objectives_for_everyone(self) -> None:
        play = resolving(board("6"), players=2)
        deck = play.state.objective_deck
        play.move(0, "power 6")
        assert jump_drive.state(play.seat()).shared_offer == deck[:3]
        assert parse_state(print_state(play.state)) == play.state  # the drawn cards go on the turn line
        assert str(deck[0]) not in GAME.view(play.state, 1)["seats"][0]["position"]
        drawn = [e for e in play.events if isinstance(e, ev.SharedObjectiveDrawn)]
        assert drawn[0].visibility().seats == frozenset({0})
        play.move(0, f"keep {deck[1]}")
        assert play.state.shared_objectives == (deck[1],) and jump_drive.state(play.seat()).shared_offer == ()
        assert play.state.objective_deck == deck[3:]
        assert "power 6" not in play.legal()

    def test_f_scored_by_every_seat_against_all_others(self) -> None:
        """14.20: every seat competes; a tie for the best gives 2; solo always 5."""
        state = start(3, b"jump")
        counts = [3, 3, 1]
        seats = tuple(dataclasses.replace(s, meteorites_collected=n) for s, n in zip(state.seats, counts, strict=True))
        state = dataclasses.replace(state, seats=seats, shared_objectives=(GEODE,), objectives=())
        medals = scoring.objective_medals(state)
        assert [m[f"shared {GEODE}"] for m in medals] == [2, 2, 0]
        solo = dataclasses.replace(start(1, b"jump"), shared_objectives=(GEODE,))
        assert scoring.objective_medals(solo)[0][f"shared {GEODE}"] == 5
