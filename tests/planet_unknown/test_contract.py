"""PlanetUnknown against the service contract."""

from __future__ import annotations

import dataclasses
import inspect
import json

import pytest

from domain import contract
from domain.contract import GameOverError, InvalidMoveError, InvalidOptionError, Role
from domain.planet_unknown import GAME
from domain.planet_unknown import events as ev
from domain.planet_unknown.model import Phase

from .helpers import start


def test_implements_the_protocol() -> None:
    assert isinstance(GAME, contract.Game)
    assert GAME.name == "planet-unknown"
    assert GAME.seat_counts == range(1, 7)
    assert GAME.rules_version


def test_every_event_class_is_registered_and_past_tense() -> None:
    classes = {
        name
        for name, obj in inspect.getmembers(ev, inspect.isclass)
        if issubclass(obj, contract.Event) and obj is not contract.Event
    }
    assert classes == set(GAME.events)
    assert all(name.endswith(("ed", "Dealt", "Taken", "Lost", "Chosen", "Shown", "Drawn")) for name in classes)
    for cls in GAME.events.values():
        params = getattr(cls, "__dataclass_params__")  # noqa: B009
        assert params.frozen and hasattr(cls, "__slots__")


def test_options_are_validated() -> None:
    with pytest.raises(InvalidOptionError):
        GAME.initial(2, {"variant": True})
    with pytest.raises(InvalidOptionError):
        GAME.initial(2, {"two_player_auto_rotation": "yes"})
    assert GAME.initial(2, {"two_player_auto_rotation": False}).options["two_player_auto_rotation"] is False


def test_text_and_json_moves_are_both_accepted() -> None:
    state = start(1)
    move = next(iter(GAME.legal_moves(state, 0)))
    text = f"place {move['tile']} {move['anchor']} {move['rotation']}"
    text += " flip" if move["flip"] else ""
    assert GAME.decide(state, 0, move) == GAME.decide(state, 0, text)


def test_unreadable_move() -> None:
    with pytest.raises(InvalidMoveError):
        GAME.decide(start(1), 0, {"action": "dance"})


def test_no_moves_after_the_end() -> None:
    state = dataclasses.replace(start(1), phase=Phase.OVER)
    with pytest.raises(GameOverError):
        GAME.decide(state, 0, "confirm")
    assert GAME.to_act(state) == frozenset()
    assert list(GAME.legal_moves(state, 0)) == []


def test_views_are_json() -> None:
    state = start(3)
    for viewer in (0, 1, 2, Role.SPECTATOR, Role.AUDITOR):
        view = GAME.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
    assert GAME.view(state, Role.AUDITOR) == GAME.view(state, Role.SPECTATOR)


def test_scores_are_json() -> None:
    scores = GAME.scores(start(2))
    assert json.loads(json.dumps(scores)) == scores
    assert GAME.outcome(start(2)) is None


def test_setup_hides_the_station_and_civ_piles() -> None:
    events = GAME.setup(GAME.initial(2, {}), b"seed")
    loaded = next(e for e in events if isinstance(e, ev.StationLoaded))
    dealt = next(e for e in events if isinstance(e, ev.CivPilesDealt))
    assert loaded.visibility().seats == frozenset() and dealt.visibility().seats == frozenset()
    assert sum(isinstance(e, ev.TileRevealed) for e in events) == 12


def test_bots_are_offered_by_name() -> None:
    import random

    state = start(2)
    for name in ("random", "greedy"):
        move = GAME.bots[name](contract.seat_view(GAME, state, 0), 0, random.Random(1), 100)
        assert move in list(GAME.legal_moves(state, 0))
    assert GAME.pass_move is None


def test_a_seat_that_times_out_forfeits() -> None:
    state = start(3)
    events = GAME.timed_out(state, 1)
    assert events == [ev.SeatForfeited(1)]
    for event in events:
        state = GAME.evolve(state, event)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "timeout" and 1 not in outcome.winners
    assert GAME.to_act(state) == frozenset()
    with pytest.raises(GameOverError):
        GAME.timed_out(state, 0)
