"""A seat's turn: the moves it may make now (:func:`legal_moves`) and the events of the one it
makes (:func:`decide`). Benefit moves are their kinds' (:mod:`.benefits`); here are the moves of the
setup, the rotation, the tile choice, tech powers, rover movement and confirming."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from domain.contract import Event, IllegalMoveError, NotYourTurnError

from . import events as ev
from . import roving, setup_choice
from .benefits import ACTIONS as BENEFIT_ACTIONS
from .benefits import pending_options
from .benefits.base import Decider
from .benefits.place import placed, placements
from .benefits.rotate import ORIENTATIONS
from .flow import settle
from .fold import evolve
from .model import Phase, Seat, Stage, State
from .moves import Action, Confirm, Move, Place, Power, Reject, Rotate, Rover, Setup, Take
from .outcomes import record
from .powers import CORPORATIONS
from .reading import can_place, choosing_setup, offered, power_levels, to_act


def _setup(i: int, seat: Seat, move: Setup) -> Event:
    if not choosing_setup(seat):
        raise IllegalMoveError("you have no setup choice to make")
    assert seat.setup_offer is not None
    planet = setup_choice.planet_slug(move.planet) or move.planet
    corp = setup_choice.corporation_slug(move.corporation) or move.corporation
    allowed = setup_choice.choices(seat.setup_offer)
    if (planet, corp) not in allowed:
        raise IllegalMoveError("choose one of: " + ", ".join(f"setup {p} {c}" for p, c in allowed))
    named = CORPORATIONS[corp].setup_tracks
    if not named:
        if move.flux is not None:
            raise IllegalMoveError(f"{corp} has no flux track to choose")
        return ev.SetupChosen(i, planet, corp)
    if move.flux is None or move.flux not in named:
        raise IllegalMoveError(f"name the flux track: setup {planet} {corp} <{'|'.join(named)}>")
    return ev.SetupChosen(i, planet, corp, str(move.flux))


def _take(state: State, i: int, move: Take) -> Event:
    choices = offered(state, i)
    if move.tile not in choices:
        raise IllegalMoveError(f"tile {move.tile} is not offered by your depot (it offers {choices})")
    if any(can_place(state, i, t) for t in choices):
        raise IllegalMoveError("a tile you can place must be placed")
    return ev.TileTaken(i, move.tile)


def _confirm(state: State, i: int, move: Confirm) -> list[Event]:
    left = [b.describe() for b in state.seats[i].pending if not b.optional]
    if left:
        raise IllegalMoveError("resolve these first: " + ", ".join(left))
    return [ev.TurnConfirmed(i)]


def _power(state: State, i: int, move: Power) -> list[Event]:
    if move.level not in power_levels(state, i):
        raise IllegalMoveError(f"tech {move.level} is not a power you may use now (once per round, once unlocked)")
    return [ev.PowerUsed(i, move.level)]


def _not_now(state: State, i: int, move: Move) -> list[Event]:
    raise IllegalMoveError(f"{move.action.value} is only possible when choosing your tile")


_RESOLVING: Mapping[Action, Decider] = {
    **BENEFIT_ACTIONS,
    Action.TAKE: _not_now,
    Action.ROVER: roving.decide,
    Action.CONFIRM: _confirm,
    Action.POWER: _power,
}
"""What decides each move while a seat resolves its benefits."""


def play(state: State, seat_index: int, move: Move) -> tuple[State, list[Event]]:
    """``move`` decided and applied, with the automatic events after it: the state it leads to, and every event
    (the move's, then the automatic ones). Raises RuleError as :func:`decide` does."""
    state, out = moved(state, seat_index, move)
    state, more = settle(state)
    return state, out + more


def moved(state: State, seat_index: int, move: Move) -> tuple[State, list[Event]]:
    """``move`` decided and applied, before the automatic events: the state after it, and its events, each
    with its outcome recorded (:func:`.outcomes.record`). Raises RuleError as :func:`decide` does."""
    out = []
    for event in _decide(state, seat_index, move):
        event = record(state, event)
        state = evolve(state, event)
        out.append(event)
    return state, out


def decide(state: State, seat_index: int, move: Move) -> list[Event]:
    """The events of ``move`` by ``seat_index`` (before the automatic ones), with their outcomes; raises RuleError."""
    return moved(state, seat_index, move)[1]


def _decide(state: State, seat_index: int, move: Move) -> list[Event]:
    if seat_index not in to_act(state):
        raise NotYourTurnError(f"seat {seat_index} has nothing to do now")
    seat = state.seats[seat_index]
    a = move.action
    if isinstance(move, Setup):
        return [_setup(seat_index, seat, move)]
    if choosing_setup(seat) and not seat.objective_offer:
        raise IllegalMoveError("first choose your planet and corporation (setup <planet> <corporation>)")
    if seat.objective_offer:
        if not isinstance(move, Reject):
            raise IllegalMoveError("first reject one of the objective cards you were dealt")
        if move.card not in seat.objective_offer:
            raise IllegalMoveError(f"objective {move.card} is not one of yours ({list(seat.objective_offer)})")
        return [ev.ObjectiveRejected(seat_index, move.card, None)]
    if state.phase is Phase.ROTATION:
        if not isinstance(move, Rotate):
            raise IllegalMoveError("the commander must rotate the station first")
        return [ev.StationRotated(move.rotation, seat_index)]
    if seat.stage is Stage.CHOOSING:
        if isinstance(move, Place):
            return [placed(state, seat_index, move, None)]
        if isinstance(move, Take):
            return [_take(state, seat_index, move)]
        if isinstance(move, Power):
            return _power(state, seat_index, move)
        if isinstance(move, Rover) and seat.moves > 0:
            return roving.decide(state, seat_index, move)
        raise IllegalMoveError("first choose a tile from your depot and place it")
    handler = _RESOLVING.get(a)
    if handler is None:
        raise IllegalMoveError(f"{a.value} is not possible now")
    return handler(state, seat_index, move)


def legal_moves(state: State, i: int) -> Iterator[Move]:
    """Every move seat ``i`` may make now."""
    if i not in to_act(state):
        return
    seat = state.seats[i]
    if choosing_setup(seat):
        assert seat.setup_offer is not None
        for planet, corp in setup_choice.choices(seat.setup_offer):
            named = CORPORATIONS[corp].setup_tracks
            if not named:
                yield Setup(planet, corp)
            else:
                yield from (Setup(planet, corp, t) for t in named)
    if seat.objective_offer:
        yield from (Reject(c) for c in seat.objective_offer)
        return
    if choosing_setup(seat):
        return
    if state.phase is Phase.ROTATION:
        yield from (Rotate(r) for r in range(ORIENTATIONS))
        return
    if seat.stage is Stage.CHOOSING:
        found = False
        for move in placements(state, i):
            found = True
            yield move
        if not found:
            yield from (Take(t) for t in offered(state, i))
        yield from (Power(level) for level in power_levels(state, i))
        yield from roving.rover_moves(state, seat)
        return
    yield from pending_options(state, i)
    yield from roving.rover_moves(state, seat)
    yield from (Power(level) for level in power_levels(state, i))
    if all(b.optional for b in seat.pending):
        yield Confirm()
