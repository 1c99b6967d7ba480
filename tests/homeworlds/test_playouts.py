"""Random legal playouts never crash and keep every invariant."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain import contract
from domain.homeworlds import GAME, Position, Rules, Turn, play, successors
from domain.homeworlds.pieces import count
from domain.homeworlds.position import Position as PositionClass
from domain.homeworlds.position import home_of, ships_of, stars_of

RULES = st.builds(Rules, st.booleans(), st.booleans(), st.booleans())


def check_invariants(position: Position) -> None:
    for kind in range(12):
        on_table = sum(
            count(stars_of(s), kind) + count(ships_of(s, 0), kind) + count(ships_of(s, 1), kind)
            for s in position.systems
        )
        assert on_table + count(position.bank, kind) == 3
    folded = [n.casefold() for n in position.names]
    assert len(folded) == len(set(folded))
    homes = [home_of(s) for s in position.systems if home_of(s) is not None]
    assert len(homes) == len(set(homes))
    for s in position.systems:
        assert stars_of(s)
        assert ships_of(s, 0) or ships_of(s, 1)
    for player in homes:
        assert player is not None and position.has_set_up(player)
    assert Position.from_text(position.text(), established=position.established) == position
    assert eval(repr(position), {"Position": PositionClass}) == position


def pick(position: Position, rules: Rules, rnd: random.Random) -> tuple[Turn, Position]:
    """A random turn among the first few hundred, avoiding suicide when possible so that games last."""
    options = list(itertools.islice(successors(position, rules), 600))
    safe = [o for o in options if position.to_move not in o[1].losers()]
    return rnd.choice(safe or options)


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), RULES)
def test_random_playouts_keep_invariants(rnd: random.Random, rules: Rules) -> None:
    position = Position.initial()
    for _ in range(40):
        if position.outcome() is not None:
            assert not list(itertools.islice(successors(position, rules), 1))
            break
        turn, reached = pick(position, rules, rnd)
        assert Turn.parse(str(turn)) == turn
        played = play(position, turn, rules)
        assert played.key() == reached.key() and played == reached
        position = played
        check_invariants(position)


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_games_through_the_contract(rnd: random.Random) -> None:
    state = GAME.initial(2, {})
    position = Position.initial()
    for _ in range(30):
        if GAME.outcome(state) is not None:
            assert GAME.to_act(state) == frozenset()
            break
        (seat,) = GAME.to_act(state)
        moves = list(itertools.islice(GAME.legal_moves(state, seat), 300))
        safe = [m for m in moves if seat not in play(position, Turn.parse(m)).losers()]
        move = rnd.choice(safe or moves)
        state = contract.fold(GAME, state, GAME.decide(state, seat, move))
        position = play(position, Turn.parse(move))
        assert state.position == position
        outcome = position.outcome()
        if outcome is not None:
            winners = () if outcome.winner is None else (outcome.winner,)
            assert GAME.outcome(state) == contract.Outcome(winners, "elimination")
