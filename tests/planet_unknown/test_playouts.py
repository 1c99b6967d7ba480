"""Random playouts with 1-6 players: no crash, and every invariant holds at every step."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.contract import decode_event, encode_event, fold, seat_view
from domain.planet_unknown import GAME, bots
from domain.planet_unknown.data import TRACKS, planets
from domain.planet_unknown.model import State
from domain.planet_unknown.powers import CORPORATIONS

from .helpers import start


def check_invariants(state: State) -> None:
    stacked = [t for s in state.stacks for t in s]
    used = [t for seat in state.seats for t in (*seat.placed, *seat.unplaced)] + list(state.removed)
    assert sorted(stacked + used) == list(range(144)), "the 144 tiles are always accounted for"
    cards = [c for p in state.civ_piles for c in p] + list(state.civ_aside) + [c for s in state.seats for c in s.hand]
    assert sorted(cards) == list(range(1, 37))
    for seat in state.seats:
        corp = CORPORATIONS[seat.corporation]
        assert all(0 <= p <= corp.top(t) for t, p in zip(TRACKS, seat.tracks, strict=True))
        assert len(seat.tracks) == len(TRACKS)
        grid = planets()[seat.planet].squares
        covered = {s for s, x in enumerate(seat.cover) if x}
        assert covered <= grid and sum(1 << s for s in covered) == seat.covered
        assert seat.lifepods <= grid - covered
        assert seat.meteorites <= covered or seat.corporation == "horizon-group", "Horizon drags meteorites"
        on_planet = [r for r in seat.rovers if r >= 0]
        assert len(on_planet) == len(set(on_planet)) and set(on_planet) <= grid - covered | covered
        assert seat.moves >= 0 and seat.stored_patches >= 0


def playout(players: int, seed: int, chooser: str = "random") -> None:
    rng = random.Random(seed)
    raw_seed = seed.to_bytes(8, "big")
    initial = GAME.initial(players, {})
    log = list(GAME.setup(initial, raw_seed))
    state = fold(GAME, initial, log)
    choose = getattr(bots, chooser)
    steps = 0
    while GAME.outcome(state) is None:
        acting = GAME.to_act(state)
        assert acting, "somebody must act until the game is over"
        seat = rng.choice(sorted(acting))
        move = choose(seat_view(GAME, state, seat), seat, rng)
        before = copy.deepcopy(state)
        events = GAME.decide(state, seat, move)
        assert state == before
        for event in events:
            name, payload = encode_event(event)
            assert decode_event(GAME.events, name, payload) == event
            state = GAME.evolve(state, event)
        assert before == state or events
        log.extend(events)
        check_invariants(state)
        steps += 1
        assert steps < 5000
    again = fold(GAME, initial, [decode_event(GAME.events, *encode_event(e)) for e in log])
    assert again == state, "folding the events equals the live state"
    assert GAME.to_act(state) == frozenset()
    scores = GAME.scores(state)["seats"]
    if players == 1:
        solo = GAME.scores(state)["solo"]
        assert GAME.outcome(state).winners == ((0,) if solo["score"] >= solo["target"] else ())  # type: ignore
    else:
        assert GAME.outcome(state).winners  # type: ignore[union-attr]
    assert all(row["total"] >= 0 for row in scores)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 6), seed=st.integers(0, 2**32))
def test_random_playouts_never_crash(players: int, seed: int) -> None:
    playout(players, seed)


def test_greedy_playout() -> None:
    playout(2, 11, "greedy")


def test_greedy_beats_random_on_average() -> None:
    wins = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = start(2, b"duel-%d" % seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            move = (bots.greedy if seat == 0 else bots.random)(seat_view(GAME, state, seat), seat, rng)
            for event in GAME.decide(state, seat, move):
                state = GAME.evolve(state, event)
        totals = [row["total"] for row in GAME.scores(state)["seats"]]
        wins += totals[0] > totals[1]
    assert wins >= 2
