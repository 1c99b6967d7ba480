"""Setup (section 1), the round (section 2), the station (section 9) and the end triggers (section 11)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import GAME
from domain.planet_unknown import events as ev
from domain.planet_unknown.data import station, tiles
from domain.planet_unknown.model import Phase
from domain.planet_unknown.rules import depot, offered

from .helpers import Play, start


def finish_round(play: Play) -> Play:
    """Every seat places its first legal tile, resolves with the first legal moves and confirms."""
    number = play.state.round
    while play.state.round == number and play.state.phase is not Phase.OVER:
        seat = min(GAME.to_act(play.state))
        play.move(seat, play.legal(seat)[0])
    return play


class TestSetup:
    @pytest.mark.parametrize(
        ("players", "positions"),
        [(1, [0]), (2, [0, 3]), (3, [0, 2, 4]), (4, [0, 1, 3, 4]), (5, [0, 1, 2, 3, 4]), (6, [0, 1, 2, 3, 4, 5])],
    )
    def test_seats_around_the_station(self, players: int, positions: list[int]) -> None:
        state = start(players)
        outers = [depot(state, seat)[0] for seat in range(players)]
        assert outers == [(p + state.rotation) % 6 for p in positions]

    def test_twelve_stacks_of_twelve_one_shape_each(self) -> None:
        state = start(2)
        inner, outer, _ = station()
        assert [len(s) for s in state.stacks] == [12] * 12
        assert [{tiles()[t].shape for t in s} for s in state.stacks] == [{shape} for shape in outer + inner]
        assert sorted(t for s in state.stacks for t in s) == list(range(144))

    def test_depot_pairs_an_outer_and_an_inner_stack(self) -> None:
        state = start(1)
        outer, inner = depot(state, 0)
        assert outer < 6 <= inner and inner == 6 + (outer + state.offset) % 6
        assert offered(state, 0) == [state.stacks[outer][0], state.stacks[inner][0]]

    def test_a_depot_with_an_empty_stack_offers_one_tile(self) -> None:
        state = start(1)
        outer, inner = depot(state, 0)
        stacks = list(state.stacks)
        stacks[inner] = ()
        assert offered(dataclasses.replace(state, stacks=tuple(stacks)), 0) == [state.stacks[outer][0]]

    def test_the_deal_follows_the_seed(self) -> None:
        assert start(3, b"a").stacks == start(3, b"a").stacks
        assert start(3, b"a").stacks != start(3, b"b").stacks

    @pytest.mark.parametrize("players", range(1, 7))
    def test_civ_piles_of_players_plus_one(self, players: int) -> None:
        state = start(players)
        assert [len(p) for p in state.civ_piles] == [players + 1] * 4
        assert len(state.civ_aside) == 36 - 4 * (players + 1)
        assert sorted(c for p in state.civ_piles for c in p) + sorted(state.civ_aside) != []

    @pytest.mark.parametrize(("players", "cards"), [(1, 0), (2, 3), (3, 3), (4, 4), (6, 6)])
    def test_neighbour_objectives(self, players: int, cards: int) -> None:
        state = start(players)
        assert len(state.objectives) == len(set(state.objectives)) == cards

    def test_all_top_tiles_face_up(self) -> None:
        assert all(start(4).revealed)


class TestRotation:
    def test_commander_chooses_with_3_or_more(self) -> None:
        play = Play(start(3))
        assert play.state.phase is Phase.ROTATION
        assert GAME.to_act(play.state) == {play.state.commander}
        play.move(play.state.commander, "rotate 4")
        assert play.state.rotation == 4 and play.state.phase is Phase.DRAFT

    @pytest.mark.parametrize("players", [1, 2])
    def test_turns_one_depot_each_round_with_1_or_2(self, players: int) -> None:
        play = Play(start(players))
        first = play.state.rotation
        finish_round(play)
        assert play.state.rotation == (first - 1) % 6
        assert any(isinstance(e, ev.StationRotated) and e.by is None for e in play.events)

    def test_option_lets_the_commander_turn_it_with_2(self) -> None:
        play = Play(start(2, two_player_auto_rotation=False))
        assert play.state.phase is Phase.ROTATION

    def test_only_the_commander_rotates(self) -> None:
        with pytest.raises(IllegalMoveError):
            Play(start(1)).move(0, "rotate 2")


class TestRound:
    def test_refill_after_everyone_placed(self) -> None:
        play = Play(start(2))
        play.move(0, play.legal(0)[0])
        assert play.state.revealed.count(False) == 1
        finish_round(play)
        revealed = [e for e in play.events if isinstance(e, ev.TileRevealed)]
        assert len(revealed) == 2
        assert all(play.state.revealed)

    def test_commander_passes_clockwise(self) -> None:
        play = Play(start(3))
        first = play.state.commander
        finish_round(play)
        assert play.state.commander == (first + 1) % 3

    def test_empty_depot_ends_the_game_after_the_round(self) -> None:
        state = start(1)
        outer, inner = depot(state, 0)
        stacks = list(state.stacks)
        stacks[outer] = stacks[outer][:1]
        stacks[inner] = ()
        others = [t for k in (outer, inner) for t in state.stacks[k]][1:]
        stacks[(outer + 1) % 6] = stacks[(outer + 1) % 6] + tuple(others)
        play = Play(dataclasses.replace(state, stacks=tuple(stacks)))
        finish_round(play)
        assert play.state.phase is Phase.OVER
        assert play.state.round == 1

    def test_tiles_are_accounted_for(self) -> None:
        play = finish_round(finish_round(Play(start(4))))
        placed = Counter(t for s in play.state.seats for t in (*s.placed, *s.unplaced))
        assert sum(len(s) for s in play.state.stacks) + sum(placed.values()) == 144
