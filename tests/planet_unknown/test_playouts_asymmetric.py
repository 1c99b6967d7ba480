"""Random playouts over random planet and corporation combinations (and the setup choice): no crash,
every invariant."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.contract import decode_event, encode_event, fold, seat_view
from domain.planet_unknown import GAME, bots
from domain.planet_unknown.data import planets
from domain.planet_unknown.planets import PLANET_RULES
from domain.planet_unknown.powers import CORPORATIONS

from .test_playouts import check_invariants

PLANETS = sorted(planets())
CORPS = sorted(CORPORATIONS)


def playout(players: int, seed: int, options: dict[str, object], chooser: str = "random") -> None:
    rng = random.Random(seed)
    initial = GAME.initial(players, options)
    log = list(GAME.setup(initial, seed.to_bytes(8, "big")))
    state = fold(GAME, initial, log)
    choose = getattr(bots, chooser)
    steps = 0
    while GAME.outcome(state) is None:
        acting = GAME.to_act(state)
        assert acting
        seat = rng.choice(sorted(acting))
        events = GAME.decide(state, seat, choose(seat_view(GAME, state, seat), seat, rng))
        for event in events:
            assert decode_event(GAME.events, *encode_event(event)) == event
            state = GAME.evolve(state, event)
        log.extend(events)
        check_invariants(state)
        for s in state.seats:
            rules = PLANET_RULES[s.planet]
            assert all(rules.allows_patch(s, sq) for sq in range(144) if s.cover[sq] == "p"), "no patch where banned"
        steps += 1
        assert steps < 5000
    assert fold(GAME, initial, log) == state
    assert all(row["total"] >= 0 for row in GAME.scores(state)["seats"])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(1, 6),
    seed=st.integers(0, 2**32),
    chosen=st.lists(st.tuples(st.sampled_from(PLANETS), st.sampled_from(CORPS)), min_size=6, max_size=6),
)
def test_random_combinations_never_crash(players: int, seed: int, chosen: list[tuple[str, str]]) -> None:
    playout(players, seed, {"seat_setup": [{"planet": p, "corporation": c} for p, c in chosen[:players]]})


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 6), seed=st.integers(0, 2**32))
def test_dealt_planets_with_every_module_never_crash(players: int, seed: int) -> None:
    options: dict[str, object] = {"asymmetric_planets": True, "events": True}
    if players > 1:
        options["private_objectives"] = True
    playout(players, seed, options)


def test_greedy_on_every_planet_and_corporation() -> None:
    pairs = [(p, CORPS[n % len(CORPS)]) for n, p in enumerate(PLANETS)]
    for n in range(0, len(pairs), 6):
        group = pairs[n : n + 6]
        playout(len(group), n, {"seat_setup": [{"planet": p, "corporation": c} for p, c in group]}, "greedy")


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), flux=st.sampled_from(["civ", "water", "biomass", "rover", "tech"]))
def test_cosmos_flux_and_jump_drive_never_crash(seed: int, flux: str) -> None:
    seats = [
        {"planet": "tartarus", "corporation": "cosmos-inc"},
        {"planet": "petra", "corporation": "flux-industries", "flux": flux},
        {"planet": "ksb-4156", "corporation": "jump-drive"},
    ]
    playout(3, seed, {"seat_setup": seats, "events": True})


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 6), seed=st.integers(0, 2**32))
def test_dealt_corporations_and_planets_never_crash(players: int, seed: int) -> None:
    """The full setup choice: every asymmetric corporation can be dealt (Flux names its track)."""
    playout(players, seed, {"asymmetric_corporations": True, "asymmetric_planets": True, "events": True})


def test_makeshift_never_crashes() -> None:
    seats = [{"planet": "oblivion", "corporation": "makeshift"}, {"planet": "lacuna", "corporation": "makeshift"}]
    playout(2, 7, {"seat_setup": seats, "events": True})
    playout(2, 8, {"seat_setup": seats}, "greedy")
