"""Solo mode (rules notes section 13): 4 objectives keep 3, the event deck, the target and the band."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest

from domain.arena import BotTally, play_game
from domain.contract import IllegalMoveError, Role, seat_view
from domain.planet_unknown import GAME
from domain.planet_unknown import events as ev
from domain.planet_unknown.data import planets, private_objectives
from domain.planet_unknown.event_deck import solo_band, solo_target
from domain.planet_unknown.model import Phase
from domain.planet_unknown.notation import parse_seat

from .helpers import Play
from .test_private_objectives import board


def dealt(seed: bytes = b"solo", **options: object) -> Play:
    state = GAME.initial(1, dict(options))
    log = GAME.setup(state, seed)
    for event in log:
        state = GAME.evolve(state, event)
    play = Play(state)
    play.events.extend(log)
    return play


class TestSetup:
    def test_four_objectives_keep_three_privately(self) -> None:
        play = dealt()
        offer = play.state.seats[0].objective_offer
        assert len(offer) == 4 and GAME.to_act(play.state) == frozenset({0})
        assert play.legal() == [f"reject {c}" for c in offer]
        dealt_event = next(e for e in play.events if isinstance(e, ev.PrivateObjectivesDealt))
        assert dealt_event.visibility().seats == frozenset({0})
        with pytest.raises(IllegalMoveError):
            play.move(0, "reject 99")
        play.move(0, f"reject {offer[2]}")
        assert play.state.seats[0].private_objectives == (offer[0], offer[1], offer[3])
        assert play.state.round == 1
        assert play.state.objectives == ()

    def test_event_deck_on_by_default(self) -> None:
        play = dealt()
        assert play.state.event_mix is not None and len(play.state.event_deck) == 20
        play.move(0, play.legal()[0])
        assert any(isinstance(e, ev.EventRevealed) for e in play.events)

    def test_event_deck_can_be_turned_off(self) -> None:
        play = dealt(events=False)
        assert play.state.event_mix is None and play.state.event_deck == ()

    def test_random_starting_depot(self) -> None:
        rotations = {dealt(b"%d" % seed).state.rotation for seed in range(20)}
        assert len(rotations) > 3

    def test_station_turns_one_depot_clockwise_each_round(self) -> None:
        rng = random.Random(1)
        play = dealt(b"turns", events=False)
        play.move(0, play.legal()[0])
        rotations = [play.state.rotation]
        while play.state.round < 4:
            move = GAME.bots["greedy"](seat_view(GAME, play.state, 0), 0, rng, 0)
            play.move(0, move)
            if play.state.round > len(rotations):
                rotations.append(play.state.rotation)
        assert all((a - b) % 6 == 1 for a, b in itertools.pairwise(rotations))


class TestTarget:
    @pytest.mark.parametrize(
        ("mix", "target"),
        [
            (None, 60),
            ((0, 0, 20), 49),
            ((20, 0, 0), 72),
            ((0, 20, 0), 56),
            ((7, 7, 6), 59),
            ((2, 2, 16), 49),
            ((3, 3, 14), 53),
            ((11, 7, 2), 67),
        ],
    )
    def test_60_adjusted_by_the_mix(self, mix: tuple[int, int, int] | None, target: int) -> None:
        assert solo_target(mix) == target

    @pytest.mark.parametrize(
        ("difference", "band"),
        [
            (-40, -15),
            (-15, -15),
            (-11, -15),
            (-10, -10),
            (-1, -5),
            (0, 0),
            (4, 0),
            (5, 5),
            (14, 10),
            (15, 15),
            (30, 15),
        ],
    )
    def test_bands(self, difference: int, band: int) -> None:
        assert solo_band(difference)[0] == band

    def test_band_names(self) -> None:
        assert solo_band(0) == (0, "mission complete") and solo_band(-20) == (-15, "critical fail")


class TestResult:
    def test_scores_and_outcome(self) -> None:
        play = dealt(event_mix={"green": 0, "orange": 0, "red": 20})
        strong = parse_seat(board(dict.fromkeys(planets()["ksb-4156"].squares, "c"), "t:15.15.15.15.15"))
        state = dataclasses.replace(play.state, seats=(strong,), phase=Phase.OVER)
        solo = GAME.scores(state)["solo"]
        assert solo["target"] == 49 and solo["score"] == GAME.scores(state)["seats"][0]["total"]
        assert solo["score"] >= 49 and solo["band"] == solo_band(solo["difference"])[0]
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.winners == (0,) and outcome.reason == "score"
        weak = dataclasses.replace(state, seats=(parse_seat("ksb-4156 12/12/12/12/12/12/12/12/12/12/12/12"),))
        outcome = GAME.outcome(weak)
        assert outcome is not None and outcome.winners == () and outcome.reason == "score"

    def test_greedy_plays_a_solo_game_to_its_end(self) -> None:
        tally = BotTally("greedy")
        state, outcome, _ = play_game(GAME, {0: (GAME.bots["greedy"], tally)}, seed=b"solo-greedy", think_ms=0)
        assert outcome is not None and outcome.reason == "score"
        solo = GAME.scores(state)["solo"]
        assert solo["target"] == solo_target(state.event_mix)
        assert outcome.winners == ((0,) if solo["difference"] >= 0 else ())
        assert state.events_drawn > 0 and len(state.seats[0].private_objectives) >= 2

    def test_kept_objectives_are_hidden_from_spectators_until_the_end(self) -> None:
        play = dealt()
        play.move(0, play.legal()[0])
        names = [json.dumps(private_objectives()[c].name) for c in play.state.seats[0].private_objectives]
        spectator = json.dumps(GAME.view(play.state, Role.SPECTATOR))
        assert not any(name in spectator for name in names)
        assert all(name in json.dumps(GAME.view(play.state, 0)) for name in names)
        assert "score" not in GAME.view(play.state, Role.SPECTATOR)["solo"]
