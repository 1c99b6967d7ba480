"""A very small game that exercises the service until the real games land.

Tic-tac-toe, plus a coin flip for who starts and one secret square dealt to
each seat (a bonus point at the end if the seat holds it), so that the
service's randomness and hidden information have something to carry.
It ships only in the tests.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterable, Mapping
from typing import Any

from domain import contract
from domain.contract import (
    JSON,
    Event,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
    Option,
    Outcome,
    Role,
    Viewer,
    Visibility,
)

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
NAMES = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")


@dataclasses.dataclass(frozen=True, slots=True)
class FirstPlayerDrawn(Event):
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class SecretSquareDealt(Event):
    seat: int
    square: int

    def visibility(self) -> Visibility:
        return Visibility(frozenset({self.seat}), {"seat": self.seat})


@dataclasses.dataclass(frozen=True, slots=True)
class MarkPlaced(Event):
    seat: int
    square: int


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerResigned(Event):
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerTimedOut(Event):
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class Board:
    cells: tuple[int | None, ...] = (None,) * 9
    to_move: int = 0
    secrets: tuple[int | None, int | None] = (None, None)
    resigned: int | None = None
    timed_out: int | None = None
    dealing_secrets: bool = True


class TicTacToe:
    """The test game, implementing :class:`domain.contract.Game`."""

    name = "tictactoe"
    rules_version = "tictactoe-1"
    seat_counts = range(2, 3)
    options = (Option("secret_squares", bool, True, "deal each seat a secret bonus square"),)
    events = contract.event_types(FirstPlayerDrawn, SecretSquareDealt, MarkPlaced, PlayerResigned, PlayerTimedOut)
    pass_move = None

    @property
    def bots(self) -> dict[str, contract.Bot]:
        return {"random": random_bot, "slow": slow_bot}

    def initial(self, seats: int, options: Mapping[str, JSON]) -> Board:
        return Board(dealing_secrets=bool(options["secret_squares"]))

    def setup(self, state: Board, seed: bytes) -> list[Event]:
        rng = contract.rng(seed, "setup")
        first = rng.randrange(2)
        squares = rng.sample(range(9), 2)
        if not state.dealing_secrets:
            return [FirstPlayerDrawn(first)]
        return [FirstPlayerDrawn(first), SecretSquareDealt(0, squares[0]), SecretSquareDealt(1, squares[1])]

    def decide(self, state: Board, seat: int, move: JSON) -> list[Event]:
        if self.outcome(state) is not None:
            raise GameOverError("the game is over")
        if move == "resign":
            return [PlayerResigned(seat)]
        square = self._square(move)
        if seat != state.to_move:
            raise NotYourTurnError(f"it is seat {state.to_move}'s turn, not seat {seat}'s")
        if state.cells[square] is not None:
            raise IllegalMoveError(f"square {NAMES[square]} is already taken")
        return [MarkPlaced(seat, square)]

    def evolve(self, state: Board, event: Event) -> Board:
        match event:
            case FirstPlayerDrawn(seat):
                return dataclasses.replace(state, to_move=seat)
            case SecretSquareDealt(seat, square):
                secrets = list(state.secrets)
                secrets[seat] = square
                return dataclasses.replace(state, secrets=(secrets[0], secrets[1]))
            case MarkPlaced(seat, square):
                cells = list(state.cells)
                cells[square] = seat
                return dataclasses.replace(state, cells=tuple(cells), to_move=1 - seat)
            case PlayerResigned(seat):
                return dataclasses.replace(state, resigned=seat)
            case PlayerTimedOut(seat):
                return dataclasses.replace(state, timed_out=seat)
        raise ValueError(f"unknown event {event!r}")

    def legal_moves(self, state: Board, seat: int) -> Iterable[JSON]:
        if self.outcome(state) is not None or seat != state.to_move:
            return []
        return [NAMES[i] for i, cell in enumerate(state.cells) if cell is None]

    def to_act(self, state: Board) -> frozenset[int]:
        return frozenset() if self.outcome(state) is not None else frozenset({state.to_move})

    def outcome(self, state: Board) -> Outcome | None:
        if state.resigned is not None:
            return Outcome((1 - state.resigned,), "resignation")
        if state.timed_out is not None:
            return Outcome((1 - state.timed_out,), "timeout")
        for a, b, c in LINES:
            owner = state.cells[a]
            if owner is not None and owner == state.cells[b] == state.cells[c]:
                return Outcome((owner,), "line")
        if all(cell is not None for cell in state.cells):
            return Outcome((), "full board")
        return None

    def scores(self, state: Board) -> dict[str, JSON]:
        outcome = self.outcome(state)
        winners = outcome.winners if outcome else ()
        return {
            str(seat): {"win": 1 if seat in winners else 0, "secret_bonus": 1 if self._holds_secret(state, seat) else 0}
            for seat in (0, 1)
        }

    def view(self, state: Board, viewer: Viewer) -> JSON:
        rows = ["".join("." if c is None else "XO"[c] for c in state.cells[r * 3 : r * 3 + 3]) for r in range(3)]
        view: dict[str, Any] = {"board": rows, "to_move": state.to_move}
        if isinstance(viewer, int):
            secret = state.secrets[viewer]
            view["secret_square"] = None if secret is None else NAMES[secret]
        elif viewer is Role.AUDITOR:
            view["secret_squares"] = [None if s is None else NAMES[s] for s in state.secrets]
        return view

    def timed_out(self, state: Board, seat: int) -> list[Event]:
        return [PlayerTimedOut(seat)]

    def seat_state(self, state: Board, seat: int) -> Board:
        """The board without the other seat's secret square."""
        secrets = tuple(square if owner == seat else None for owner, square in enumerate(state.secrets))
        return dataclasses.replace(state, secrets=(secrets[0], secrets[1]))

    def _holds_secret(self, state: Board, seat: int) -> bool:
        secret = state.secrets[seat]
        return secret is not None and state.cells[secret] == seat

    def _square(self, move: JSON) -> int:
        if isinstance(move, str) and move.lower() in NAMES:
            return NAMES.index(move.lower())
        if isinstance(move, int) and not isinstance(move, bool) and 0 <= move < 9:
            return move
        raise InvalidMoveError(f"a move is a square from a1 to c3 (or 0 to 8), or 'resign'; not {move!r}")


def random_bot(view: contract.SeatView[Board], seat: int, rng: random.Random, think_ms: int) -> JSON:
    """Any free square."""
    return rng.choice(list(GAME.legal_moves(view.state, seat)))


def slow_bot(view: contract.SeatView[Board], seat: int, rng: random.Random, think_ms: int) -> JSON:
    """Thinks for all of ``think_ms``, then plays like ``random_bot`` (for tests that kill a worker mid-turn)."""
    time.sleep(think_ms / 1000)
    return random_bot(view, seat, rng, think_ms)


GAME = TicTacToe()
