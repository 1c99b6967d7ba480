"""Building Planet Unknown positions for tests from the text notation."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from domain.contract import Event
from domain.planet_unknown import GAME, PlanetUnknown
from domain.planet_unknown.events import DraftStarted, RoundStarted, StationRotated
from domain.planet_unknown.model import Benefit, Seat, Stage, State
from domain.planet_unknown.moves import parse_move
from domain.planet_unknown.notation import parse_seat
from domain.planet_unknown.rules import depot, settle

EMPTY = "ksb-4156 12/12/12/12/12/12/12/12/12/12/12/12"


def shared_reference() -> Path | None:
    """The shared reference folder (``ORRERY_SHARED`` or the repository's sibling ``shared``), if present."""
    root = Path(os.environ.get("ORRERY_SHARED", Path(__file__).resolve().parents[3] / "shared"))
    folder = root / "reference" / "planet-unknown"
    return folder if folder.is_dir() else None


def start(
    players: int = 1, seed: bytes = b"test", *, modules: bool = False, game: PlanetUnknown = GAME, **options: Any
) -> State:
    """A dealt game of ``game`` (rules version), ready for round 1.

    Without ``modules`` it is the core game: no event deck (unless ``events`` is given) and the
    dealt solo objectives are put away, so round 1 starts at once. With ``modules`` the event deck
    is on whatever the player count, unless ``events`` says otherwise.
    """
    options.setdefault("events", modules)
    state = game.initial(players, options)
    for event in game.setup(state, seed):
        state = game.evolve(state, event)
    if not modules and any(s.objective_offer for s in state.seats):
        seats = tuple(dataclasses.replace(s, objective_offer=()) for s in state.seats)
        state, _ = settle(dataclasses.replace(state, seats=seats))
    return state


def with_seat(state: State, seat: int, text: str, **changes: object) -> State:
    """Replace a seat's planet and board by the position ``text`` (keeping its stage and pending benefits)."""
    old = state.seats[seat]
    new = dataclasses.replace(parse_seat(text), stage=old.stage, pending=old.pending, moves=old.moves)
    new = dataclasses.replace(new, **changes)  # type: ignore[arg-type]
    seats = list(state.seats)
    seats[seat] = new
    return dataclasses.replace(state, seats=tuple(seats))


def offer(state: State, seat: int, first: int, second: int | None = None) -> State:
    """Put ``first`` (and ``second``) face up on top of the stacks of the seat's depot."""
    stacks = [tuple(t for t in stack if t not in (first, second)) for stack in state.stacks]
    revealed = list(state.revealed)
    outer, inner = depot(state, seat)
    stacks[outer] = (first, *stacks[outer])
    revealed[outer] = True
    if second is not None:
        stacks[inner] = (second, *stacks[inner])
        revealed[inner] = True
    return dataclasses.replace(state, stacks=tuple(stacks), revealed=tuple(revealed))


def next_round(state: State) -> State:
    """The game at the tile phase of the next round (once-per-round powers are free again)."""
    for event in (RoundStarted(state.round + 1), StationRotated(state.rotation, None), DraftStarted()):
        state = GAME.evolve(state, event)
    return state


def pending(state: State, seat: int, *benefits: Benefit) -> State:
    """Give a seat pending benefits to resolve (it is resolving its turn)."""
    seats = list(state.seats)
    seats[seat] = dataclasses.replace(seats[seat], pending=benefits, stage=Stage.RESOLVING)
    return dataclasses.replace(state, seats=tuple(seats))


class Play:
    """Apply moves and keep the events, e.g. ``Play(state).move(0, "place 8 a6 90").state``."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def move(self, seat: int, *moves: object) -> Play:
        for move in moves:
            new = GAME.decide(self.state, seat, move)
            for event in new:
                self.state = GAME.evolve(self.state, event)
            self.events.extend(new)
        return self

    def seat(self, index: int = 0) -> Seat:
        return self.state.seats[index]

    def legal(self, seat: int = 0) -> list[str]:
        return [str(parse_move(m)) for m in GAME.legal_moves(self.state, seat)]
