"""The service contract: decide, evolve, special moves, views and scores."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from domain import contract
from domain.homeworlds import GAME, SDG, Position, Turn, play
from domain.homeworlds.game import HomeworldsState, TurnEnded
from domain.homeworlds.state import repetition_key, repetitions, seen_positions
from events import codec

from .shared import GAMES, reference

OPENING = ["homeworld b2 y1 g3 Alpha", "homeworld b3 r1 g3 Beta", "build g1 Alpha", "build g1 Beta"]


def new(**options: Any) -> HomeworldsState:
    return GAME.initial(2, options)


def act(state: HomeworldsState, seat: int, move: Any) -> HomeworldsState:
    events = GAME.decide(state, seat, move)
    for event in events:
        kind, payload = contract.encode_event(event)
        decoded = contract.decode_event(GAME.events, kind, json.loads(json.dumps(payload)))
        assert decoded == event
    return contract.fold(GAME, state, events)


def opened() -> HomeworldsState:
    state = new()
    for n, line in enumerate(OPENING):
        state = act(state, n % 2, line)
    return state


class TestContract:
    def test_metadata(self) -> None:
        assert isinstance(GAME, contract.Game)
        assert GAME.name == "homeworlds" and GAME.seat_counts == range(2, 3)
        assert {o.name for o in GAME.options} == {"require_large_ship", "allow_pass_before_setup", "seat_names"}
        assert "ShipBuilt" in GAME.events and "TurnEnded" in GAME.events

    def test_options_are_checked(self) -> None:
        with pytest.raises(contract.InvalidOptionError):
            new(colours=5)
        with pytest.raises(contract.InvalidOptionError):
            GAME.initial(3, {})
        assert new(require_large_ship=True).rules.require_large_ship

    def test_setup_is_empty(self) -> None:
        assert GAME.setup(new(), b"seed") == []

    def test_events_of_a_turn(self) -> None:
        state = opened()
        events = GAME.decide(state, 0, "sac g1 alpha; BUILD G1 alpha")
        assert [type(e).__name__ for e in events] == ["ShipSacrificed", "ShipBuilt", "TurnEnded"]
        assert events[-1] == TurnEnded(0, 5, "sacrifice g1 Alpha; build g1 Alpha")

    def test_fold_matches_the_engine(self) -> None:
        state = new()
        position = Position.initial()
        for n, line in enumerate([*OPENING, "discover g1 Alpha b3 Gamma", "pass", "trade g3 y3 Alpha"]):
            state = act(state, n % 2, line)
            position = play(position, Turn.parse(line))
            assert state.position == position
        assert state.last_turn == "trade g3 y3 Alpha" and state.turn == 8

    def test_json_turns(self) -> None:
        state = opened()
        move = [
            {"action": "sacrifice", "ship": "g1", "system": "Alpha"},
            {"action": "build", "ship": "g1", "system": "Alpha"},
        ]
        assert GAME.decide(state, 0, move) == GAME.decide(state, 0, "sacrifice g1 Alpha; build g1 Alpha")

    def test_homeworld_default_name(self) -> None:
        state = act(new(), 0, "homeworld b2 y1 g3")
        assert state.last_turn == "homeworld b2 y1 g3 Player1"


class TestRejections:
    def test_not_your_turn(self) -> None:
        with pytest.raises(contract.NotYourTurnError):
            GAME.decide(opened(), 1, "pass")

    def test_illegal_turn_says_which_rule(self) -> None:
        with pytest.raises(contract.IllegalMoveError, match="smallest green piece in the bank, which is g1"):
            GAME.decide(opened(), 0, "build g2 Alpha")

    @pytest.mark.parametrize("move", ["fly g1 Alpha", 42, [{"verb": "pass"}], {"draw": "maybe"}])
    def test_unreadable_moves(self, move: Any) -> None:
        with pytest.raises(contract.InvalidMoveError):
            GAME.decide(opened(), 0, move)

    def test_game_over(self) -> None:
        state = act(opened(), 0, {"resign": True})
        with pytest.raises(contract.GameOverError):
            GAME.decide(state, 1, "pass")

    def test_pass_before_setup_option(self) -> None:
        with pytest.raises(contract.IllegalMoveError):
            GAME.decide(new(), 0, "pass")
        assert GAME.to_act(act(new(allow_pass_before_setup=True), 0, "pass")) == {1}


class TestResignAndDraws:
    def test_resign_at_any_time(self) -> None:
        state = act(opened(), 1, {"resign": True})
        assert GAME.outcome(state) == contract.Outcome((0,), "resignation")
        assert GAME.to_act(state) == frozenset()

    def test_offer_and_accept(self) -> None:
        state = act(opened(), 0, {"draw": "offer"})
        assert state.draw_offer == 0 and GAME.to_act(state) == {0}
        with pytest.raises(contract.NotYourTurnError):
            GAME.decide(state, 1, {"draw": "accept"})
        state = act(state, 0, "build g1 Alpha")
        assert state.draw_offer == 0
        state = act(state, 1, {"draw": "accept"})
        assert GAME.outcome(state) == contract.Outcome((), "agreement")
        assert GAME.scores(state)["per_seat"]["0"]["half_points"] == 1

    def test_playing_declines(self) -> None:
        state = act(act(opened(), 0, {"draw": "offer"}), 0, "pass")
        state = act(state, 1, "pass")
        assert state.draw_offer is None
        with pytest.raises(contract.IllegalMoveError, match="no draw offer"):
            GAME.decide(state, 0, {"draw": "accept"})

    def test_explicit_decline(self) -> None:
        state = act(act(act(opened(), 0, {"draw": "offer"}), 0, "pass"), 1, {"draw": "decline"})
        assert state.draw_offer is None and GAME.to_act(state) == {1}

    def test_no_second_offer(self) -> None:
        with pytest.raises(contract.IllegalMoveError, match="already standing"):
            GAME.decide(act(opened(), 0, {"draw": "offer"}), 0, {"draw": "offer"})


class TestLegalMovesViewScores:
    def test_legal_moves(self) -> None:
        state = opened()
        assert list(GAME.legal_moves(state, 1)) == []
        moves = list(GAME.legal_moves(state, 0))
        assert moves[0] == "pass" and len(moves) == len(set(moves))
        for move in moves:
            GAME.decide(state, 0, move)

    def test_view_is_public_json(self) -> None:
        state = act(opened(), 0, {"draw": "offer"})
        views = [GAME.view(state, v) for v in (0, 1, contract.Role.SPECTATOR, contract.Role.AUDITOR)]
        assert all(v == views[0] for v in views)
        view = json.loads(json.dumps(views[0]))
        assert view["to_move"] == 0 and view["turn"] == 5 and view["draw_offer"] == 0
        assert view["last_turn"] == "build g1 Beta"
        assert view["systems"][0] == {
            "name": "Alpha",
            "homeworld_of": 0,
            "stars": ["y1", "b2"],
            "ships": {"0": ["g1", "g3"], "1": []},
        }
        assert sum(n for sizes in view["bank"].values() for n in sizes.values()) == 36 - 8

    def test_scores_after_elimination(self) -> None:
        state = act(opened(), 0, "pass")
        state = act(state, 1, "sacrifice g3 Beta")
        state = act(state, 0, "pass")
        state = act(state, 1, "sacrifice g1 Beta")
        assert GAME.outcome(state) == contract.Outcome((0,), "elimination")
        scores = GAME.scores(state)
        assert scores["result"] == "seat 0 won"
        assert scores["per_seat"]["0"] == {"half_points": 2, "ships": 2, "pips": 4}
        assert scores["per_seat"]["1"] == {"half_points": 0, "ships": 0, "pips": 0}
        assert GAME.view(state, 0)["result"]["reason"] == "elimination"


class TestRealGame:
    def test_replays_through_decide_and_evolve(self) -> None:
        path = reference("games/sdg/sdg-00608.txt")
        state = GAME.initial(2, {})
        position = Position.initial()
        lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
        for seat, line in zip(itertools.cycle((0, 1)), lines, strict=False):
            state = act(state, seat, line)
            position = play(position, Turn.parse(line), SDG)
            assert state.position == position
        assert GAME.outcome(state) == contract.Outcome((1,), "elimination")
        assert GAMES.exists()


class TestTimeoutAndBots:
    def test_timeout_forfeits(self) -> None:
        state = contract.fold(GAME, opened(), GAME.timed_out(opened(), 0))
        assert GAME.outcome(state) == contract.Outcome((1,), "timeout")
        with pytest.raises(contract.GameOverError):
            GAME.timed_out(state, 1)

    def test_pass_move(self) -> None:
        state = opened()
        assert GAME.pass_move == "pass"
        assert GAME.to_act(act(state, 0, GAME.pass_move)) == {1}

    def test_bots_play_legal_games(self) -> None:
        rng = random.Random(7)
        state = new()
        for ply in range(30):
            if GAME.outcome(state) is not None:
                break
            (seat,) = GAME.to_act(state)
            bot = GAME.bots["greedy" if ply % 2 else "random"]
            state = act(state, seat, bot(contract.seat_view(GAME, state, seat), seat, rng, 200))

    def test_greedy_takes_a_win(self) -> None:
        state = HomeworldsState(Position.from_text("<0>; Alpha(0,y3g2)g1-; Beta(1,g3b2)r1y1b1-b1b1"), SDG)
        move = GAME.bots["greedy"](contract.seat_view(GAME, state, 0), 0, random.Random(1), 100)
        assert GAME.outcome(act(state, 0, move)) == contract.Outcome((0,), "elimination")


class TestRepetitions:
    def test_each_turn_adds_its_position_to_the_history(self) -> None:
        state = opened()
        assert len(state.history) == len(OPENING)
        assert GAME.view(state, 0)["repetitions"] == 1
        counts = []
        for n in range(4):
            state = act(state, n % 2, "pass")
            counts.append(GAME.view(state, 0)["repetitions"])
        assert counts == [1, 2, 2, 3]
        assert repetitions(state) == 3 and len(state.history) == len(OPENING) + 4
        assert act(state, 0, {"draw": "offer"}).history == state.history
        assert act(state, 1, {"resign": True}).history == state.history

    def test_the_key_ignores_names_but_not_the_player_to_move(self) -> None:
        table = "Alpha(0,r3b2)g3-; Beta(1,y2)-g3; {}(g3)-y3"
        first = Position.from_text("<0>; " + table.format("Reach"))
        assert repetition_key(first) == repetition_key(Position.from_text("<0>; " + table.format("Far")))
        assert repetition_key(first) != repetition_key(Position.from_text("<1>; " + table.format("Reach")))
        assert seen_positions(opened())[repetition_key(opened().position)] == 1

    def test_a_state_with_its_history_survives_the_snapshot_codec(self) -> None:
        state = act(act(opened(), 0, "pass"), 1, "pass")
        back = codec.loads(codec.dumps(state, HomeworldsState), HomeworldsState)
        assert back == state and back.history == state.history and repetitions(back) == 2
        assert GAME.view(back, 0) == GAME.view(state, 0)

    def test_repetition_ends_no_game(self) -> None:
        state = opened()
        for n in range(12):
            state = act(state, n % 2, "pass")
        assert repetitions(state) == 7 and GAME.outcome(state) is None and GAME.to_act(state) == {0}
