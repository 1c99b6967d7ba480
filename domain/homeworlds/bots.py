"""Built-in bots: ``random``, ``greedy`` and ``search``, and ``search-v1`` and ``search-alphabeta`` for the arena only.

Each takes ``(view, seat, rng, think_ms)``, ``view`` being the seat's
:class:`~domain.contract.SeatView`, and returns a legal turn of ``seat`` in SDG notation.
Everything in Homeworlds is public, so the view is the whole table.
Given the same state and an ``rng`` in the same state they choose the same turn
(as long as the clock does not cut them short; see :mod:`~domain.homeworlds.search` and
:mod:`~domain.homeworlds.mcts`). ``greedy`` and ``search`` read the state's position history
(:func:`~domain.homeworlds.state.seen_positions`) to steer away from repeating a position, and
pause the cyclic garbage collector while they think.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import random as _random
import threading
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from domain.arena import register_reference_bots
from domain.contract import JSON, Bot, SeatView

from .mcts import mcts_turn
from .movegen import successors
from .notation import Turn
from .position import Position
from .search import greedy_turn, search_turn
from .search_v1 import search_turn as search_v1_turn
from .state import HomeworldsState, seen_positions, with_home_name

SAMPLE = 2000
"""How many turns (the shortest first) ``random`` picks from."""


_thinking = 0
_collector_was_enabled = False
_thinking_lock = threading.Lock()


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a bot thinks, and restore it after.

    A collection of a large heap can take tens of milliseconds, which counts against the bot's ``think_ms``
    though it is not the bot's work; what the bots allocate has no reference cycles and is freed as it goes.
    Bots that think at once in one process share the pause: the collector is restored, as it was before the
    first, when the last is done.
    """
    global _thinking, _collector_was_enabled
    with _thinking_lock:
        if _thinking == 0:
            _collector_was_enabled = gc.isenabled()
            gc.disable()
        _thinking += 1
    try:
        yield
    finally:
        with _thinking_lock:
            _thinking -= 1
            if _thinking == 0 and _collector_was_enabled:
                gc.enable()


def _check(state: HomeworldsState, seat: int) -> None:
    if state.outcome is not None or state.position.to_move != seat:
        raise ValueError(f"seat {seat} has no move now")


def _candidates(state: HomeworldsState, seat: int) -> list[tuple[Turn, Position]]:
    _check(state, seat)
    return list(itertools.islice(successors(state.position, state.rules), SAMPLE))


def random(view: SeatView[HomeworldsState], seat: int, rng: _random.Random, think_ms: int = 0) -> JSON:
    """A random legal turn among the first few thousand, preferring turns that do not lose at once."""
    found = _candidates(view.state, seat)
    safe = [turn for turn, reached in found if seat not in reached.losers()]
    return str(with_home_name(view.state, seat, rng.choice(safe or [turn for turn, _ in found])))


def greedy(view: SeatView[HomeworldsState], seat: int, rng: _random.Random, think_ms: int = 1000) -> JSON:
    """One turn ahead: win at once if possible, else the best-evaluated safe turn.

    The setup turn maximises :func:`~domain.homeworlds.evaluation.setup_score`. Later,
    a winning turn is taken if there is one; otherwise the first few thousand turns
    are ranked by :func:`~domain.homeworlds.evaluation.evaluate` (material, access
    to the four powers, home defence, catastrophe risk at home and pressure on the
    enemy homeworld; see that module for the terms and why), and the best one after
    which the opponent has no winning turn is played. If every checked turn allows
    a win, the best-ranked one is played anyway. Once the current position has
    occurred before, a safe turn back to a position already seen gives way to one
    that is new. ``think_ms`` only stops the safety checks early on a slow machine.
    """
    state = view.state
    _check(state, seat)
    with _collector_paused():
        turn = greedy_turn(state.position, state.rules, rng, think_ms, state.turn, seen_positions(state))
    return str(with_home_name(state, seat, turn))


def search(view: SeatView[HomeworldsState], seat: int, rng: _random.Random, think_ms: int = 2000) -> JSON:
    """The strongest bot: wins at once if it can, never allows a win in one it can avoid, within ``think_ms``.

    Candidates, best-evaluated first, are proven safe against an enemy win in one; the
    best of them are then compared by a tree search guided by the evaluation (PUCT, no
    random playouts: each side plays its best-evaluated turns, and a side that can win
    at once does), and the most visited is played. As the game drags on, or once a
    position repeats, it presses harder on the enemy homeworld, and it avoids going back
    to a position already seen. See :mod:`~domain.homeworlds.mcts`.
    """
    state = view.state
    _check(state, seat)
    with _collector_paused():
        turn = mcts_turn(state.position, state.rules, rng, think_ms, state.turn, seen_positions(state))
    return str(with_home_name(state, seat, turn))


def search_alphabeta(view: SeatView[HomeworldsState], seat: int, rng: _random.Random, think_ms: int = 2000) -> JSON:
    """The two-turn alpha-beta search with a position table that was ``search`` until the tree search beat it,
    kept as a reference for the arena. See :mod:`~domain.homeworlds.search`."""
    state = view.state
    _check(state, seat)
    return str(with_home_name(state, seat, search_turn(state.position, state.rules, rng, think_ms, state.turn)))


def search_v1(view: SeatView[HomeworldsState], seat: int, rng: _random.Random, think_ms: int = 2000) -> JSON:
    """The first ``search`` (two turns ahead, the worst enemy reply among the first few hundred), kept as a
    reference for the arena. See :mod:`~domain.homeworlds.search_v1`."""
    state = view.state
    _check(state, seat)
    turn = search_v1_turn(state.position, state.rules, rng, think_ms, state.turn)
    return str(with_home_name(state, seat, turn))


BOTS: Mapping[str, Bot] = MappingProxyType({"random": random, "greedy": greedy, "search": search})
"""The built-in bots by name, as :attr:`~domain.homeworlds.game.Homeworlds.bots` offers them."""

REFERENCE_BOTS: Mapping[str, Bot] = MappingProxyType({"search-v1": search_v1, "search-alphabeta": search_alphabeta})
"""Bots kept for the arena only (``orrery arena``), not offered by the service: ``search-v1`` and
``search-alphabeta``."""

register_reference_bots("homeworlds", REFERENCE_BOTS)
