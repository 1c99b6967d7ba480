"""Rules versions (README "Rules versions"): new games get ``planet-unknown-6``, issue 17's rulings with events
that carry their outcomes; games stored under ``planet-unknown-5``, ``-4`` and ``-3`` keep playing as they were
recorded."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from domain.contract import fold, seat_view
from domain.planet_unknown import GAME, PREVIOUS_VERSIONS, PlanetUnknown, bots
from domain.planet_unknown import events as ev
from domain.planet_unknown.model import RULINGS_4, Benefit, Kind, Phase, Rulings, Stage
from domain.planet_unknown.rules import evolve

from .event_helpers import at_event
from .helpers import EMPTY, Play, pending, start, with_seat
from .test_placement import full_except

OLD = {game.rules_version: game for game in PREVIOUS_VERSIONS}
FOUR = OLD["planet-unknown-4"]
BEFORE_5 = [FOUR, OLD["planet-unknown-3"]]
HORIZON_5 = "ksb-4156 12/12/12/12/12/3cCrRwW3/12/12/12/12/12/12 t:0.0.0.0.14 corp:horizon-group"
REPUBLIC_5 = "ksb-4156 12/12/12/12/12/12/12/12/12/12/12/12 t:0.0.0.0.14 corp:republic"


def versions(new: object, old: object) -> list[Any]:
    """``(game, expected)`` pairs: ``new`` under rules 5, ``old`` under rules 4 and 3."""
    return [pytest.param(GAME, new, id="5")] + [pytest.param(g, old, id=g.rules_version[-1]) for g in BEFORE_5]


class TestRegistry:
    def test_new_games_get_rules_6_and_the_old_versions_stay(self) -> None:
        assert GAME.rules_version == "planet-unknown-6"
        assert sorted(OLD) == ["planet-unknown-3", "planet-unknown-4", "planet-unknown-5"]
        assert GAME.initial(1, {}).rulings == OLD["planet-unknown-5"].initial(1, {}).rulings == Rulings()
        assert all(game.initial(1, {}).rulings == RULINGS_4 for game in BEFORE_5)
        assert GAME.records_outcomes and not any(game.records_outcomes for game in PREVIOUS_VERSIONS)
        assert OLD["planet-unknown-3"].legacy_moves and not FOUR.legacy_moves

    def test_an_old_game_plays_to_its_end(self) -> None:
        """A whole solo game with the event deck under rules 4, as the stored ones are verified."""
        initial = FOUR.initial(1, {"events": True})
        state = fold(FOUR, initial, FOUR.setup(initial, b"rules-4-playout-seed"))
        rng = random.Random(4)
        while FOUR.outcome(state) is None:
            seat = min(FOUR.to_act(state))
            for event in FOUR.decide(state, seat, bots.random(seat_view(FOUR, state, seat), seat, rng)):
                state = FOUR.evolve(state, event)
        assert state.rulings == RULINGS_4 and state.phase is Phase.OVER


class TestRulings:
    @pytest.mark.parametrize(("game", "compulsory"), versions(True, False))
    def test_event_82(self, game: PlanetUnknown, compulsory: bool) -> None:
        play = at_event(82, EMPTY, game=game)
        assert ("confirm" not in play.legal()) is compulsory

    @pytest.mark.parametrize(("game", "exact"), versions(True, False))
    def test_approved_overtime(self, game: PlanetUnknown, exact: bool) -> None:
        state = dataclasses.replace(with_seat(start(1, game=game), 0, EMPTY), phase=Phase.CIV, civ_order=(0,))
        piles = (state.civ_piles[0], (13, *state.civ_piles[1]), *state.civ_piles[2:])
        state = pending(dataclasses.replace(state, civ_piles=piles), 0, Benefit(Kind.CIV, rank=2))
        play = Play(state).move(0, "civ 13", "collect b5")
        assert ("confirm" not in play.legal()) is exact

    @pytest.mark.parametrize(("game", "picks"), versions([Kind.SELECT], [Kind.ADVANCE, Kind.ADVANCE]))
    def test_event_104_on_a_taken_tile(self, game: PlanetUnknown, picks: list[Kind]) -> None:
        play = at_event(104, full_except("f1"), tiles=(104, None), game=game).move(0, "take 104")
        assert [b.kind for b in play.seat().pending] == picks

    @pytest.mark.parametrize(("game", "again"), versions(False, True))
    def test_horizon_5_in_the_civ_slot(self, game: PlanetUnknown, again: bool) -> None:
        play = Play(pending(with_seat(start(1, b"horizon", game=game), 0, HORIZON_5), 0))
        play.move(0, "power 5", "advance rover")
        seat = dataclasses.replace(play.seat(), civ_queue=(1,), stage=Stage.IDLE)
        state = dataclasses.replace(play.state, seats=(seat,), phase=Phase.CIV, civ_order=(0,))
        assert ("power 5" in Play(evolve(state, ev.CivSlotStarted(0))).legal()) is again

    @pytest.mark.parametrize(("game", "picks"), versions(0, 2))
    def test_republic_5_in_a_second_end_game_turn(self, game: PlanetUnknown, picks: int) -> None:
        state = with_seat(start(1, b"republic", game=game), 0, REPUBLIC_5)
        for _ in range(2):
            seat = dataclasses.replace(state.seats[0], stage=Stage.DONE, pending=())
            state = evolve(dataclasses.replace(state, seats=(seat,), phase=Phase.CIV), ev.EndGameTurnStarted())
        assert len(state.seats[0].pending) == picks
