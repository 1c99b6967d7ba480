"""The built-in bots through every event card, and the solo and private-objective choices."""

from __future__ import annotations

import random

import pytest

from domain.contract import seat_view
from domain.planet_unknown import GAME, bots
from domain.planet_unknown.data import event_cards
from domain.planet_unknown.model import Phase

from .event_helpers import RICH, at_event
from .helpers import Play


def play_round(play: Play, chooser: str, seed: int) -> Play:
    """Let the bot play every seat until the round after the event is over."""
    rng = random.Random(seed)
    start_round = play.state.round
    steps = 0
    while play.state.round == start_round and play.state.phase is not Phase.OVER:
        acting = sorted(GAME.to_act(play.state))
        assert acting, "somebody must act"
        seat = acting[0]
        play.move(seat, getattr(bots, chooser)(seat_view(GAME, play.state, seat), seat, rng, 0))
        steps += 1
        assert steps < 300
    return play


@pytest.mark.parametrize("chooser", ["greedy", "random"])
@pytest.mark.parametrize("card", sorted(event_cards()))
def test_bots_play_every_card_in_solo(card: int, chooser: str) -> None:
    play = at_event(card, RICH, objectives=(40, 41, 42), objective_deck=(50, 51), after=(80, 81))
    assert play.state.event_card == card
    play_round(play, chooser, card)


@pytest.mark.parametrize("card", sorted(c.id for c in event_cards().values() if not c.solo))
def test_bots_play_every_card_at_a_table_of_three(card: int) -> None:
    play = at_event(card, RICH, RICH, "ksb-4156 12/12/12/12/12/12/12/12/12/12/12/12", players=3, after=(80, 81))
    play_round(play, "random", card)


@pytest.mark.parametrize("chooser", ["greedy", "random"])
def test_bots_choose_their_objectives(chooser: str) -> None:
    rng = random.Random(3)
    for players, options in ((1, {}), (3, {"private_objectives": True})):
        state = GAME.initial(players, options)
        for event in GAME.setup(state, b"choose"):
            state = GAME.evolve(state, event)
        for seat in sorted(GAME.to_act(state)):
            move = getattr(bots, chooser)(seat_view(GAME, state, seat), seat, rng, 0)
            assert move["action"] == "reject"
            for event in GAME.decide(state, seat, move):
                state = GAME.evolve(state, event)
        kept = 3 if players == 1 else 1
        assert all(len(s.private_objectives) == kept for s in state.seats) and state.round == 1


def test_greedy_keeps_the_objectives_it_is_closest_to() -> None:
    rich = at_event(97, RICH + " t:3.3.3.3.14").state
    seat = rich.seats[0]
    from dataclasses import replace

    state = replace(rich, seats=(replace(seat, objective_offer=(56, 61, 55, 40)),), round=0, phase=Phase.INTERLUDE)
    move = bots.greedy(seat_view(GAME, state, 0), 0, random.Random(0), 0)
    assert move == {"action": "reject", "card": 40}, "one civ square of a 3x3 civ block is the furthest"
