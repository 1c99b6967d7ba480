"""Every hosted game keeps the contract the service relies on."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app import Settings, load_games
from domain import contract
from domain.table.record import SERVICE_EVENTS, GameScored
from domain.table.seats import TABLE_OPTIONS

load_games(Settings.from_env())
GAMES = [contract.get(name) for name in contract.names()]


def dealt(game: Any, seats: int) -> Any:
    state = game.initial(seats, contract.parse_options(game.options, {}))
    return contract.fold(game, state, game.setup(state, b"contract"))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
class TestContract:
    def test_every_event_it_produces_is_registered_and_round_trips(self, game: Any) -> None:
        seats = game.seat_counts.start if game.seat_counts.start > 1 else 2
        state = dealt(game, seats)
        produced = list(game.setup(game.initial(seats, contract.parse_options(game.options, {})), b"contract"))
        rng = random.Random(1)
        for _ in range(40):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            events = game.decide(state, seat, rng.choice(list(game.legal_moves(state, seat))))
            produced += events
            state = contract.fold(game, state, events)
        if game.outcome(state) is None:
            ending = game.timed_out(state, min(game.to_act(state)))
            produced += ending
            state = contract.fold(game, state, ending)
        outcome = game.outcome(state)
        assert outcome is not None
        produced.append(GameScored(winners=outcome.winners, reason=outcome.reason, scores=game.scores(state)))
        for event in produced:
            name, payload = contract.encode_event(event)
            registry = SERVICE_EVENTS if name in SERVICE_EVENTS else game.events
            assert name in registry, f"{name} is not in {game.name}'s event registry"
            assert contract.decode_event(registry, name, payload) == event

    def test_its_options_do_not_shadow_the_table_options(self, game: Any) -> None:
        assert not {o.name for o in game.options} & {o.name for o in TABLE_OPTIONS}

    def test_its_bots_and_pass_move(self, game: Any) -> None:
        assert "random" in game.bots
        if game.name in ("homeworlds", "planet-unknown"):
            assert "greedy" in game.bots
        assert game.pass_move is None or isinstance(game.pass_move, str | dict | list)
