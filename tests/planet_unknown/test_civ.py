"""Civilization cards (section 8) and their effects, edge cases 14.8, 14.11, 14.12, 14.22."""

from __future__ import annotations

import dataclasses

import pytest

from domain.contract import IllegalMoveError, Role
from domain.planet_unknown import GAME
from domain.planet_unknown import events as ev
from domain.planet_unknown.board import parse_square
from domain.planet_unknown.data import Terrain
from domain.planet_unknown.model import Benefit, Kind, Phase, State
from domain.planet_unknown.rules import depot, settle

from .helpers import EMPTY, Play, offer, pending, start, with_seat

CIV_ENERGY = (8, 20, 2)  # one civ and one energy icon each
A6_B6 = "ksb-4156 12/12/12/12/12/eC10/12/12/12/12/12/12"


def slot(position: str, card: int, rank: int | None = None, players: int = 1) -> Play:
    """Seat 0 in its civ-card slot, with ``card`` in the pile it picks from."""
    state = with_seat(start(players), 0, position)
    from domain.planet_unknown.data import civ_cards

    rank = rank or civ_cards()[card].rank
    piles = list(state.civ_piles)
    piles[rank - 1] = (card, *(c for c in piles[rank - 1] if c != card))
    state = dataclasses.replace(state, civ_piles=tuple(piles), phase=Phase.CIV, civ_order=(0,))
    return Play(pending(state, 0, Benefit(Kind.CIV, rank=rank)))


class TestTiming:
    def three_players(self) -> tuple[Play, int]:
        state = start(3, b"civ-timing")
        commander = state.commander
        state = Play(state).move(commander, "rotate 0").state
        for seat in range(3):
            state = with_seat(state, seat, EMPTY + (" t:2.0.0.0.0" if seat != commander else ""))
            state = offer(state, seat, CIV_ENERGY[seat])
        return Play(state), commander

    def test_picks_wait_for_everyone_then_go_clockwise_from_the_commander(self) -> None:
        play, commander = self.three_players()
        for seat in range(3):
            play.move(seat, f"place {CIV_ENERGY[seat]} a6 90", "advance civ", "choose 0 civ")
            assert play.state.phase is Phase.DRAFT
            play.move(seat, "confirm")
        started = [e for e in play.events if isinstance(e, ev.CivPhaseStarted)]
        expected = tuple(s for s in ((commander + k) % 3 for k in range(3)) if s != commander)
        assert started == [ev.CivPhaseStarted(expected)]
        assert GAME.to_act(play.state) == {expected[0]}

    def test_the_pick_is_private(self) -> None:
        play, _commander = self.three_players()
        for seat in range(3):
            play.move(seat, f"place {CIV_ENERGY[seat]} a6 90", "advance civ", "choose 0 civ", "confirm")
        picker = next(iter(GAME.to_act(play.state)))
        view = GAME.view(play.state, picker)
        assert "cards" in view["civ_piles"][0]
        other = (picker + 1) % 3
        assert "cards" not in GAME.view(play.state, other)["civ_piles"][0]
        card = view["civ_piles"][0]["cards"][0]["id"]
        shown = next(e for e in play.events if isinstance(e, ev.CivPileShown))
        assert shown.seat == picker and card in shown.cards and shown.visibility().seats == {picker}
        play.move(picker, f"civ {card}")
        taken = next(e for e in play.events if isinstance(e, ev.CivCardTaken))
        assert taken.visibility().seats == {picker}
        assert "card" not in taken.visibility().redacted
        assert "hand" not in GAME.view(play.state, other)["seats"][picker]
        assert "hand" not in GAME.view(play.state, Role.SPECTATOR)["seats"][picker]

    def test_empty_pile_gives_nothing(self) -> None:
        play = slot(EMPTY, 1)
        state = dataclasses.replace(play.state, civ_piles=((), *play.state.civ_piles[1:]))
        _, events = settle(state)
        assert events[0] == ev.BenefitLost(0, 0)

    def test_only_cards_of_the_rank(self) -> None:
        with pytest.raises(IllegalMoveError):
            slot(EMPTY, 1).move(0, "civ 10")


class TestImmediateCards:
    def test_temp_agency_two_different_trackers(self) -> None:
        play = slot(EMPTY, 1).move(0, "civ 1", "choose 0 water")
        assert "choose 0 water" not in play.legal()
        play.move(0, "choose 0 tech")
        assert play.seat().tracks == (0, 1, 0, 0, 1)

    def test_dept_of_operations_one_tracker_two_spaces(self) -> None:
        play = slot(EMPTY, 2).move(0, "civ 2", "choose 0 tech")
        assert play.seat().track(Terrain.TECH) == 2

    def test_two_spaces_stop_at_the_top(self) -> None:
        play = slot(EMPTY + " t:0.0.0.0.14", 2).move(0, "civ 2", "choose 0 tech")
        assert play.seat().track(Terrain.TECH) == 15

    def test_milestone_reached_in_the_slot_is_picked_at_once(self) -> None:
        play = slot(EMPTY + " t:5.0.0.0.0", 2).move(0, "civ 2", "choose 0 civ")
        assert [b.kind for b in play.seat().pending] == [Kind.CIV]
        assert play.seat().pending[0].rank == 2

    def test_natural_resources_patch(self) -> None:
        play = slot(A6_B6, 3).move(0, "civ 3")
        assert [b.kind for b in play.seat().pending] == [Kind.PATCH]

    def test_engineering_gives_4_movement_not_raised_by_tech_3(self) -> None:
        play = slot(A6_B6 + " t:0.0.0.0.7 rov:a6,g", 4).move(0, "civ 4")
        assert play.seat().moves == 4

    def test_salvage_yard_places_a_depot_tile_without_resources(self) -> None:
        play = slot(A6_B6, 5)
        play.state = offer(play.state, 0, 8)
        play.move(0, "civ 5", "place 8 c6 90")
        assert play.seat().pending == () and play.seat().placed == (8,)
        outer, _ = depot(play.state, 0)
        assert not play.state.revealed[outer]
        play.move(0, "confirm")
        assert play.state.revealed[outer] or not play.state.stacks[outer]

    def test_depot_repair_places_with_resources(self) -> None:
        play = slot(A6_B6, 16)
        play.state = offer(play.state, 0, 8)
        play.move(0, "civ 16", "place 8 c6 90")
        assert [b.describe() for b in play.seat().pending] == ["choose energy: civ", "advance civ"]

    @pytest.mark.parametrize(("card", "count"), [(13, 2), (18, 3)])
    def test_lifepod_cards_collect_exactly_their_number(self, card: int, count: int) -> None:
        """Approved Overtime / Search and Rescue Team: "collect two / three lifepods", or all there are."""
        play = slot(EMPTY, card).move(0, f"civ {card}")
        for square in ("b5", "k5", "c8")[:count]:
            with pytest.raises(IllegalMoveError, match="resolve these first"):
                play.move(0, "confirm")
            play.move(0, f"collect {square}")
        assert play.seat().lifepods_collected == count and play.seat().pending == ()
        fewer = slot(EMPTY + " pods:b5", card).move(0, f"civ {card}", "collect b5")
        assert fewer.seat().lifepods_collected == 1 and fewer.seat().pending == ()

    def test_relocation_bonus_teleports_anywhere(self) -> None:
        play = slot(A6_B6 + " rov:a6,g met:b6", 14).move(0, "civ 14", "teleport 0 b6")
        assert play.seat().rovers[0] == parse_square("b6") and play.seat().meteorites_collected == 1

    def test_relocation_bonus_may_land_on_a_bare_square(self) -> None:
        play = slot(A6_B6 + " rov:a6,g", 14).move(0, "civ 14", "teleport 0 e9")
        assert play.seat().rovers[0] == parse_square("e9")

    def test_landing_zone_clears_a_line(self) -> None:
        play = slot(A6_B6 + " met:a6,b6", 17).move(0, "civ 17", "clear 6")
        assert play.seat().meteorites == frozenset() and play.seat().meteorites_collected == 0

    def test_meteor_defense_destroys_up_to_three(self) -> None:
        play = slot(A6_B6 + " met:a6,b6", 25).move(0, "civ 25", "destroy a6", "destroy b6")
        assert play.seat().meteorites == frozenset()

    def test_unionization_raises_to_5_without_synergy(self) -> None:
        play = slot(A6_B6 + " last:a6,b6", 21).move(0, "civ 21")
        assert play.seat().tracks == (5, 5, 5, 5, 5)
        kinds = sorted(b.kind.value for b in play.seat().pending)
        assert kinds == ["civ", "deploy", "patch"]
        assert play.seat().moves == 1 + 1 + 2 + 2

    def test_end_game_cards_do_nothing_now(self) -> None:
        play = slot(EMPTY, 6).move(0, "civ 6")
        assert play.seat().pending == () and play.seat().hand == (6,)


class TestEndGameCards:
    def end(self, position: str) -> State:
        state = with_seat(start(1), 0, position)
        state = dataclasses.replace(state, last_round=True)
        state = pending(state, 0)
        state, _ = settle(Play(state).move(0, "confirm").state)
        return state

    def test_revealed_at_the_end(self) -> None:
        play = Play(pending(dataclasses.replace(with_seat(start(2), 0, EMPTY + " hand:6"), last_round=True), 0))
        play.move(0, "confirm")
        assert not any(isinstance(e, ev.CivCardsRevealed) for e in play.events)
        play.state = pending(play.state, 1)
        play.move(1, "confirm")
        revealed = [e for e in play.events if isinstance(e, ev.CivCardsRevealed)]
        assert revealed and revealed[0].hands[0] == (6,)
        assert GAME.view(play.state, 1)["seats"][0]["hand"] == [6]

    def test_end_game_milestones_get_another_civ_slot(self) -> None:
        state = self.end(EMPTY + " t:2.0.0.0.0 hand:23")
        play = Play(state).move(0, "choose 0 civ", "confirm")
        assert play.state.phase is Phase.CIV
        card = play.state.civ_piles[0][0]
        play.move(0, f"civ {card}")
        while play.state.phase is not Phase.OVER:
            play.move(0, play.legal()[0])
        revealed = [e for e in play.events if isinstance(e, ev.CivCardsRevealed)]
        assert revealed[-1].hands == ((23, card),)

    def test_gaming_commission_advances_at_the_end(self) -> None:
        state = self.end(EMPTY + " hand:23")
        assert state.phase is Phase.END_GAME
        play = Play(state).move(0, "choose 0 water", "confirm")
        assert play.seat().track(Terrain.WATER) == 1
        assert play.state.phase is Phase.OVER
