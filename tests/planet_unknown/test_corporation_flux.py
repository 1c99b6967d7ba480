"""Flux Industries: the flux track and one tech at a time (rules notes 4, 5, 14.10, 14.14, 14.15)."""

from __future__ import annotations

import dataclasses

import pytest

from domain.contract import IllegalMoveError, InvalidOptionError
from domain.planet_unknown import GAME
from domain.planet_unknown import events as ev
from domain.planet_unknown.corporations.flux_industries import flux
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import GARAGE, Benefit, Kind
from domain.planet_unknown.notation import parse_seat, print_seat
from domain.planet_unknown.powers import CORPORATIONS
from domain.planet_unknown.rules import evolve

from .event_helpers import at_event
from .helpers import EMPTY, Play, next_round, offer, pending, start, with_seat
from .test_setup_choice import dealt

FLUX = "corp:flux-industries"
TECH = {0: "0", 1: "3", 2: "5", 3: "7", 4: "10", 5: "14"}
ROW6 = "ksb-4156 12/12/12/12/12/3cCrRwW3/12/12/12/12/12/12"  # d6 c, e6 C, f6 r, g6 R, h6 w, i6 W


def board(tech: int, tracks: str = "0.0.0.0", flux: str = "civ", extra: str = "", at: str = "") -> str:
    """A Flux board at tech level ``tech`` (or tech position ``at``), the other trackers at ``tracks``."""
    flux_field = "" if flux == "civ" else f" flux:{flux}"
    return f"{ROW6} t:{tracks}.{at or TECH[tech]}{extra} {FLUX}{flux_field}"


def resolving(position: str, *benefits: Benefit, moves: int = 0) -> Play:
    state = with_seat(start(1, b"flux"), 0, position, moves=moves)
    return Play(pending(state, 0, *benefits))


def advance(track: Terrain) -> Benefit:
    return Benefit(Kind.ADVANCE, track=track)


class TestBoard:
    def test_two_rovers_a_second_rover_milestone_and_civ_by_default(self) -> None:
        state = start(1, b"f", seat_setup=[{"corporation": "Flux Industries"}])
        seat = state.seats[0]
        assert seat.rovers == (GARAGE,) * 2 and flux(seat) is Terrain.CIV
        rover = CORPORATIONS["flux-industries"].tracks()[Terrain.ROVER]
        assert [p for p, s in enumerate(rover) if s.rover] == [1, 6]

    def test_seat_setup_names_the_flux_track(self) -> None:
        state = start(1, b"f", seat_setup=[{"corporation": "flux-industries", "flux": "water"}])
        assert flux(state.seats[0]) is Terrain.WATER

    @pytest.mark.parametrize(
        "entry", [{"corporation": "flux-industries", "flux": "energy"}, {"corporation": "republic", "flux": "civ"}]
    )
    def test_a_bad_flux_track_is_refused(self, entry: dict[str, str]) -> None:
        with pytest.raises(InvalidOptionError, match="flux"):
            GAME.initial(1, {"seat_setup": [entry]})

    def test_notation_round_trip(self) -> None:
        text = f"{EMPTY} t:0.0.0.0.5 {FLUX} flux:rover once:2"
        seat = parse_seat(text)
        assert flux(seat) is Terrain.ROVER and seat.once_used == (2,)
        assert print_seat(seat) == text
        assert flux(parse_seat(f"{EMPTY} {FLUX}")) is Terrain.CIV
        with pytest.raises(ValueError, match="flux"):
            parse_seat(f"{EMPTY} flux:water")


class TestSetupChoice:
    def offered(self) -> Play:
        state = dealt(2)
        seat = dataclasses.replace(state.seats[0], setup_offer=("ksb-4156", "flux-industries"))
        return Play(dataclasses.replace(state, seats=(seat, *state.seats[1:])))

    def test_flux_picks_its_starting_track_in_the_setup_choice(self) -> None:
        play = self.offered()
        legal = play.legal(0)
        assert "setup ksb-4156 flux-industries water" in legal
        assert "setup ksb-4156 flux-industries" not in legal
        assert sum(1 for m in legal if "flux-industries" in m) == 5
        with pytest.raises(IllegalMoveError, match="flux track"):
            play.move(0, "setup ksb-4156 flux-industries")
        with pytest.raises(IllegalMoveError, match="no flux track"):
            play.move(0, "setup ksb-4156 universal-coalition tech")
        play.move(0, "setup ksb-4156 flux-industries biomass")
        assert play.state.seats[0].corporation_state is None  # secret until every seat has chosen
        planet = play.state.seats[1].setup_offer[0]  # type: ignore[index]
        play.move(1, f"setup {planet} universal-coalition")
        revealed = [e for e in play.events if isinstance(e, ev.SetupRevealed)]
        assert revealed[0].flux == ("biomass", "")
        assert play.seat().corporation == "flux-industries" and flux(play.seat()) is Terrain.BIOMASS
        assert play.seat(1).corporation_state is None
        assert GAME.view(play.state, 1)["seats"][0]["flux_track"] == "biomass"


class TestFluxChoice:
    def test_each_tech_milestone_chooses_the_flux_track_again(self) -> None:
        play = resolving(board(0, at="2"), advance(Terrain.TECH))
        play.move(0, "advance tech")
        assert play.seat().track(Terrain.TECH) == 3
        assert [b.source for b in play.seat().pending] == ["flux"]
        assert len([m for m in play.legal() if m.startswith("choose 0")]) == 5
        play.move(0, "choose 0 water")
        assert flux(play.seat()) is Terrain.WATER and play.seat().track(Terrain.WATER) == 0
        assert not play.seat().pending

    def test_the_flux_track_may_be_kept_even_at_the_top(self) -> None:
        play = resolving(board(0, "15.0.0.0", at="2"), advance(Terrain.TECH))
        play.move(0, "advance tech", "choose 0 civ")
        assert flux(play.seat()) is Terrain.CIV and play.seat().track(Terrain.CIV) == 15

    @pytest.mark.parametrize(("card", "skipped"), [(109, True), (123, True), (80, False)])
    def test_events_109_123_skip_the_choice(self, card: int, skipped: bool) -> None:
        """14.15: the re-choice is skipped; the tech level still unlocks."""
        play = at_event(card, f"{EMPTY} t:0.0.0.0.2 {FLUX}")
        play = Play(pending(play.state, 0, advance(Terrain.TECH))).move(0, "advance tech")
        assert (play.seat().pending == ()) is skipped
        assert CORPORATIONS["flux-industries"].tech_level(play.seat()) == 1


class TestRestriction:
    def test_only_the_level_held_is_active(self) -> None:
        flux = CORPORATIONS["flux-industries"]
        position = board(2, extra=" rov:d6")
        state = evolve(resolving(position).state, ev.DraftStarted())
        assert state.seats[0].moves == 0  # tech 1 switched off at level 2
        assert flux.tech_level(state.seats[0]) == 2


class TestTechs:
    def test_1_two_movement_per_rover_on_flux_terrain_at_each_reset_point(self) -> None:
        state = evolve(resolving(board(1, extra=" rov:d6,f6")).state, ev.DraftStarted())
        assert state.seats[0].moves == 2
        state = evolve(resolving(board(1, flux="rover", extra=" rov:d6,f6")).state, ev.DraftStarted())
        assert state.seats[0].moves == 2
        state = evolve(resolving(board(1, flux="water", extra=" rov:d6,f6")).state, ev.DraftStarted())
        assert state.seats[0].moves == 0

    def test_2_straight_to_the_next_milestone_without_the_spaces_between(self) -> None:
        play = resolving(board(2, flux="biomass"))
        assert "power 2" in play.legal()
        play.move(0, "power 2")
        assert play.seat().track(Terrain.BIOMASS) == 2 and play.seat().once_used == (2,)
        play.move(0, "advance biomass")
        assert play.seat().track(Terrain.BIOMASS) == 3
        assert [b.kind for b in play.seat().pending] == [Kind.PATCH]  # no synergy from space 2

    def test_2_on_the_tech_track_reaches_level_3_and_chooses_again(self) -> None:
        play = resolving(board(2, flux="tech")).move(0, "power 2", "advance tech")
        assert play.seat().track(Terrain.TECH) == 7
        assert [b.source for b in play.seat().pending] == ["flux"]
        play.move(0, "choose 0 rover")
        assert flux(play.seat()) is Terrain.ROVER

    def test_2_civ_claims_the_card(self) -> None:
        play = resolving(board(2, "4.0.0.0")).move(0, "power 2", "advance civ")
        assert play.seat().track(Terrain.CIV) == 6 and play.seat().civ_queue == (2,)

    def test_2_once_per_game_and_banked_across_rounds(self) -> None:
        """14.10: banked while level 2 is active, used once per game."""
        play = resolving(board(2, flux="rover"))
        state = evolve(play.state, ev.DraftStarted())
        play = Play(pending(state, 0))
        assert "power 2" in play.legal()
        play.move(0, "power 2", "advance rover")
        state = evolve(play.state, ev.DraftStarted())
        assert "power 2" not in Play(pending(state, 0)).legal()

    def test_2_not_on_water_and_lost_at_level_3(self) -> None:
        """14.10: Flux loses an unused level-2 ability when moving to level 3."""
        assert "power 2" not in resolving(board(2, flux="water")).legal()
        assert "power 2" not in resolving(board(3, flux="civ")).legal()

    def test_3_improved_civ_water_biomass_and_rover(self) -> None:
        civ = resolving(board(3, "5.0.0.0"), advance(Terrain.CIV)).move(0, "advance civ")
        assert civ.seat().civ_queue == (3,)
        top = resolving(board(3, "13.0.0.0"), advance(Terrain.CIV)).move(0, "advance civ")
        assert top.seat().civ_queue == (4,)
        water = resolving(board(3, "0.6.0.0", flux="water"), advance(Terrain.WATER)).move(0, "advance water")
        assert [b.source for b in water.seat().pending] == ["synergy", "synergy"]
        biomass = resolving(board(3, "0.0.2.0", flux="biomass"), advance(Terrain.BIOMASS))
        biomass.move(0, "advance biomass")
        assert [b.kind for b in biomass.seat().pending] == [Kind.PATCH, Kind.PATCH]
        rover = resolving(board(3, "0.0.0.1", flux="rover"), advance(Terrain.ROVER)).move(0, "advance rover")
        assert rover.seat().moves == 2
        top_rover = resolving(board(3, "0.0.0.15", flux="rover"), advance(Terrain.ROVER))
        assert top_rover.move(0, "advance rover").seat().moves == 4

    def test_3_only_the_flux_track_is_improved(self) -> None:
        water = resolving(board(3, "0.6.0.0"), advance(Terrain.WATER)).move(0, "advance water")
        assert [b.source for b in water.seat().pending] == ["synergy"]
        rover = resolving(board(3, "0.0.0.1"), advance(Terrain.ROVER)).move(0, "advance rover")
        assert rover.seat().moves == 1
        civ = resolving(board(4, "5.0.0.0"), advance(Terrain.CIV)).move(0, "advance civ")
        assert civ.seat().civ_queue == (2,)

    def test_4_a_flux_icon_collects_a_meteorite(self) -> None:
        position = f"ksb-4156 12/12/12/12/12/eC10/12/12/12/12/12/12 t:0.0.0.0.10 met:k10 {FLUX}"
        state = offer(with_seat(start(1, b"flux"), 0, position), 0, 8)
        play = Play(state).move(0, "place 8 c6 90")
        assert "collect k10" in play.legal()
        play.move(0, "collect k10")
        assert play.seat().meteorites_collected == 1 and not play.seat().meteorites
        state = offer(with_seat(start(1, b"flux"), 0, position + " flux:water"), 0, 8)
        play = Play(state).move(0, "place 8 c6 90")
        assert not any(b.kind is Kind.COLLECT for b in play.seat().pending)

    def test_4_part_of_the_events_104_108_choice(self) -> None:
        """14.14: the meteorite collection is part of the "choose exactly one" of the tile's advances."""
        position = f"ksb-4156 12/12/12/12/12/eC10/12/12/12/12/12/12 t:0.0.0.0.10 met:k10 {FLUX}"
        play = at_event(104, position, tiles=(8, None))
        play.move(0, "place 8 c6 90")
        select = [b for b in play.seat().pending if b.kind is Kind.SELECT]
        assert len(select) == 1
        kinds = [[b.kind for b in alternative] for alternative in select[0].alternatives]
        assert [Kind.ADVANCE, Kind.COLLECT] in kinds

    def test_5_advance_the_flux_tracker_once_per_round(self) -> None:
        play = resolving(board(5, flux="water"))
        assert play.legal().count("power 5") == 1
        play.move(0, "power 5", "advance water")
        assert play.seat().track(Terrain.WATER) == 1
        with pytest.raises(IllegalMoveError, match="once per round"):
            play.move(0, "power 5")
        assert "power 5" in Play(pending(next_round(play.state), 0)).legal()
