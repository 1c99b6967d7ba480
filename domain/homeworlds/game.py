"""Homeworlds behind the service contract (:mod:`domain.contract`).

A move is one whole turn, as SDG text (``"sacrifice y3 Alpha; move g1 Alpha Beta"``)
or as a JSON list of action objects
(``[{"action": "sacrifice", "ship": "y3", "system": "Alpha"}, ...]``, see
:func:`~domain.homeworlds.notation.action_to_json`), or one of the special moves
``{"resign": true}``, ``{"draw": "offer"}``, ``{"draw": "accept"}`` and
``{"draw": "decline"}``. Seat 0 moves first (SuperDuperGames' "player 1"); messages and
results name seats from 0, like the API.

A seat's homeworld is named after the seat (option ``seat_names``, which the service fills with
the seats' display names) when that name is a valid system name that the other seat does not
share; otherwise, or when the move names it, as before (``Player1`` / ``Player2``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from domain import contract
from domain.contract import JSON, Bot, Event, Option, Outcome, Viewer

from .bots import BOTS
from .errors import GameOverError, HomeworldsRuleError, NotationError
from .movegen import legal_turns
from .notation import (
    Action,
    Build,
    Capture,
    Catastrophe,
    Discover,
    Homeworld,
    Move,
    Sacrifice,
    Trade,
    Turn,
)
from .pieces import PIECES, Colour, Piece, count
from .position import PLAYERS, Position, ships_of
from .rules import Rules, apply_action, end_turn, play
from .state import HomeworldsState, home_name, repetition_key, repetitions, with_home_name

# --- events ---------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class HomeworldEstablished(Event):
    """A player set up their homeworld (``star2`` None for a one-star homeworld)."""

    seat: int
    name: str
    star1: str
    star2: str | None
    ship: str


@dataclasses.dataclass(frozen=True, slots=True)
class ShipBuilt(Event):
    """A ship came from the bank."""

    seat: int
    system: str
    ship: str


@dataclasses.dataclass(frozen=True, slots=True)
class ShipTraded(Event):
    """A ship was exchanged for a bank piece of the same size."""

    seat: int
    system: str
    ship: str
    new_ship: str


@dataclasses.dataclass(frozen=True, slots=True)
class ShipMoved(Event):
    """A ship moved between connected systems."""

    seat: int
    ship: str
    origin: str
    destination: str


@dataclasses.dataclass(frozen=True, slots=True)
class SystemDiscovered(Event):
    """A ship moved to a new system with a star from the bank."""

    seat: int
    ship: str
    origin: str
    star: str
    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class ShipCaptured(Event):
    """An enemy ship changed sides."""

    seat: int
    system: str
    ship: str


@dataclasses.dataclass(frozen=True, slots=True)
class ShipSacrificed(Event):
    """A ship went back to the bank to pay for up to its size in actions of its colour."""

    seat: int
    system: str
    ship: str


@dataclasses.dataclass(frozen=True, slots=True)
class CatastropheTriggered(Event):
    """Every piece of one colour in an overpopulated system went back to the bank."""

    seat: int
    system: str
    colour: str


@dataclasses.dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The seat's turn ended; ``notation`` is the whole turn in canonical SDG notation."""

    seat: int
    number: int
    notation: str


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerResigned(Event):
    """The seat gave up."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerTimedOut(Event):
    """The seat ran out of time and forfeits."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class DrawOffered(Event):
    """The seat on move offered a draw; it stands until the opponent's next turn."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class DrawAccepted(Event):
    """The opponent of the offering seat accepted the draw."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class DrawDeclined(Event):
    """The opponent of the offering seat declined the draw."""

    seat: int


ACTION_EVENTS = (
    HomeworldEstablished,
    ShipBuilt,
    ShipTraded,
    ShipMoved,
    SystemDiscovered,
    ShipCaptured,
    ShipSacrificed,
    CatastropheTriggered,
)
EVENTS = contract.event_types(
    *ACTION_EVENTS, TurnEnded, PlayerResigned, PlayerTimedOut, DrawOffered, DrawAccepted, DrawDeclined
)


def event_for(seat: int, action: Action) -> Event:
    """The event recording ``action`` by ``seat`` (a homeworld must be named)."""
    match action:
        case Homeworld(star1, star2, ship, name):
            assert name is not None
            return HomeworldEstablished(seat, name, str(star1), None if star2 is None else str(star2), str(ship))
        case Build(ship, system):
            return ShipBuilt(seat, system, str(ship))
        case Trade(ship, new_ship, system):
            return ShipTraded(seat, system, str(ship), str(new_ship))
        case Move(ship, origin, destination):
            return ShipMoved(seat, str(ship), origin, destination)
        case Discover(ship, origin, star, name):
            return SystemDiscovered(seat, str(ship), origin, str(star), name)
        case Capture(ship, system):
            return ShipCaptured(seat, system, str(ship))
        case Sacrifice(ship, system):
            return ShipSacrificed(seat, system, str(ship))
        case Catastrophe(system, colour):
            return CatastropheTriggered(seat, system, colour.letter)
    raise TypeError(action)


def action_of(event: Event) -> Action:
    """The action an action event records (the inverse of :func:`event_for`)."""
    p = Piece.parse
    match event:
        case HomeworldEstablished(_, name, star1, star2, ship):
            return Homeworld(p(star1), None if star2 is None else p(star2), p(ship), name)
        case ShipBuilt(_, system, ship):
            return Build(p(ship), system)
        case ShipTraded(_, system, ship, new_ship):
            return Trade(p(ship), p(new_ship), system)
        case ShipMoved(_, ship, origin, destination):
            return Move(p(ship), origin, destination)
        case SystemDiscovered(_, ship, origin, star, name):
            return Discover(p(ship), origin, p(star), name)
        case ShipCaptured(_, system, ship):
            return Capture(p(ship), system)
        case ShipSacrificed(_, system, ship):
            return Sacrifice(p(ship), system)
        case CatastropheTriggered(_, system, colour):
            return Catastrophe(system, Colour.parse(colour))
    raise TypeError(event)


def _spelled(position: Position, turn: Turn, home: str) -> Turn:
    """``turn`` with system names spelled as on the table and the homeworld name ``home`` filled in."""
    spelling = {n.casefold(): n for n in position.names}

    def fix(name: str) -> str:
        return spelling.get(name.casefold(), name)

    actions: list[Action] = []
    for action in turn.actions:
        if isinstance(action, Homeworld):
            name = action.name or home
            action = dataclasses.replace(action, name=name)
        elif isinstance(action, Discover):
            action = dataclasses.replace(action, origin=fix(action.origin))
            spelling.setdefault(action.name.casefold(), action.name)
        elif isinstance(action, Move):
            action = dataclasses.replace(action, origin=fix(action.origin), destination=fix(action.destination))
        elif isinstance(action, Catastrophe | Build | Trade | Capture | Sacrifice):
            action = dataclasses.replace(action, system=fix(action.system))
        actions.append(action)
    return Turn(tuple(actions))


def _elimination(position: Position) -> Outcome | None:
    result = position.outcome()
    if result is None:
        return None
    return Outcome(() if result.winner is None else (result.winner,), "elimination")


# --- the game -------------------------------------------------------------------


class Homeworlds:
    """Binary Homeworlds for two seats under the official rules."""

    name: str = "homeworlds"
    rules_version: str = "homeworlds-2"
    seat_counts: range = range(2, 3)
    options: Sequence[Option] = (
        Option("require_large_ship", bool, False, "each homeworld's first ship must be large"),
        Option(
            "allow_pass_before_setup",
            bool,
            False,
            "a player may pass instead of setting up their homeworld (as SuperDuperGames allowed)",
        ),
        Option(
            "seat_names",
            list,
            [],
            "the names of seats 0 and 1, which their homeworlds take when valid and distinct; the server fills "
            "it with the seats' display names",
            check=lambda v: (
                None
                if v == [] or (len(v) == len(PLAYERS) and all(isinstance(n, str) for n in v))
                else "a list of the two seats' names"
            ),
        ),
    )
    events: Mapping[str, type[Event]] = EVENTS
    pass_move: JSON | None = "pass"

    @property
    def bots(self) -> Mapping[str, Bot]:
        """``random``, ``greedy`` and ``search`` (see :mod:`~domain.homeworlds.bots`)."""
        return BOTS

    def initial(self, seats: int, options: Mapping[str, JSON]) -> HomeworldsState:
        """The empty table with every piece in the bank."""
        if seats not in self.seat_counts:
            raise contract.InvalidOptionError("Homeworlds is played by exactly 2 seats")
        values = contract.parse_options(self.options, options)
        rules = Rules(
            require_large_ship=values["require_large_ship"],
            allow_pass_before_setup=values["allow_pass_before_setup"],
        )
        return HomeworldsState(Position.initial(), rules, seat_names=tuple(values["seat_names"]))

    def setup(self, state: HomeworldsState, seed: bytes) -> list[Event]:
        """Nothing is random in Homeworlds."""
        return []

    def decide(self, state: HomeworldsState, seat: int, move: JSON) -> list[Event]:
        """Check ``move`` by ``seat`` and return its events."""
        if state.outcome is not None:
            raise GameOverError("the game is over")
        if seat not in PLAYERS:
            raise contract.NotYourTurnError(f"seat {seat} does not play in this game")
        if isinstance(move, Mapping):
            return self._special(state, seat, move)
        on_move = state.position.to_move
        if seat != on_move:
            raise contract.NotYourTurnError(f"it is seat {on_move}'s turn, not seat {seat}'s")
        if isinstance(move, str):
            turn = Turn.parse(move)
        elif isinstance(move, list):
            turn = Turn.from_json(move)
        else:
            raise NotationError("a move is a turn in SDG notation, a list of action objects, or a special move")
        turn = _spelled(state.position, turn, home_name(state, seat))
        play(state.position, turn, state.rules)
        events: list[Event] = [event_for(seat, a) for a in turn.actions]
        events.append(TurnEnded(seat, state.turn, str(turn)))
        return events

    def _special(self, state: HomeworldsState, seat: int, move: Mapping[str, Any]) -> list[Event]:
        if move == {"resign": True}:
            return [PlayerResigned(seat)]
        draw = move.get("draw") if len(move) == 1 else None
        if draw not in ("offer", "accept", "decline"):
            raise NotationError('special moves are {"resign": true} and {"draw": "offer" | "accept" | "decline"}')
        if seat != state.position.to_move:
            raise contract.NotYourTurnError(f"only the player on move may {draw} a draw")
        if draw == "offer":
            if state.draw_offer is not None:
                who = "you" if state.draw_offer == seat else "your opponent"
                raise HomeworldsRuleError(f"a draw offer by {who} is already standing")
            return [DrawOffered(seat)]
        if state.draw_offer != 1 - seat:
            raise HomeworldsRuleError(f"there is no draw offer by your opponent to {draw}")
        return [DrawAccepted(seat) if draw == "accept" else DrawDeclined(seat)]

    def evolve(self, state: HomeworldsState, event: Event) -> HomeworldsState:
        """Apply ``event`` without checking it."""
        match event:
            case TurnEnded(seat, _, notation):
                position = end_turn(state.position)
                offer = state.draw_offer if state.draw_offer == seat else None
                return dataclasses.replace(
                    state,
                    position=position,
                    turn=state.turn + 1,
                    last_turn=notation,
                    draw_offer=offer,
                    outcome=_elimination(position),
                    history=(*state.history, repetition_key(position)),
                )
            case PlayerResigned(seat):
                return dataclasses.replace(state, outcome=Outcome((1 - seat,), "resignation"), draw_offer=None)
            case PlayerTimedOut(seat):
                return dataclasses.replace(state, outcome=Outcome((1 - seat,), "timeout"), draw_offer=None)
            case DrawOffered(seat):
                return dataclasses.replace(state, draw_offer=seat)
            case DrawAccepted():
                return dataclasses.replace(state, outcome=Outcome((), "agreement"), draw_offer=None)
            case DrawDeclined():
                return dataclasses.replace(state, draw_offer=None)
        return dataclasses.replace(state, position=apply_action(state.position, action_of(event)))

    def seat_state(self, state: HomeworldsState, seat: int) -> HomeworldsState:
        """The whole state: Homeworlds has no hidden information."""
        return state

    def timed_out(self, state: HomeworldsState, seat: int) -> list[Event]:
        """The seat forfeits on time; the other seat wins."""
        if state.outcome is not None:
            raise GameOverError("the game is over")
        return [PlayerTimedOut(seat)]

    def legal_moves(self, state: HomeworldsState, seat: int) -> Iterator[str]:
        """Each legal whole turn of ``seat`` in canonical SDG notation, one per resulting position."""
        if state.outcome is not None or seat != state.position.to_move:
            return iter(())
        return (str(with_home_name(state, seat, turn)) for turn in legal_turns(state.position, state.rules))

    def to_act(self, state: HomeworldsState) -> frozenset[int]:
        """The seat on move, or nobody once the game is over."""
        return frozenset() if state.outcome is not None else frozenset({state.position.to_move})

    def outcome(self, state: HomeworldsState) -> Outcome | None:
        """Elimination, resignation or agreement, once the game is over."""
        return state.outcome

    def scores(self, state: HomeworldsState) -> dict[str, JSON]:
        """Match points in halves (2 for a win, 1 for a draw, 0 for a loss: event payloads hold no
        floats), with the ships and pips each seat has left."""
        outcome = state.outcome
        per_seat: dict[str, JSON] = {}
        for seat in PLAYERS:
            ships = [
                PIECES[k] for s in state.position.systems for k in range(12) for _ in range(count(ships_of(s, seat), k))
            ]
            if outcome is None:
                half_points: int | None = None
            elif not outcome.winners:
                half_points = 1
            else:
                half_points = 2 if seat in outcome.winners else 0
            per_seat[str(seat)] = {"half_points": half_points, "ships": len(ships), "pips": sum(p.size for p in ships)}
        return {
            "result": self.result_text(outcome),
            "reason": None if outcome is None else outcome.reason,
            "per_seat": per_seat,
        }

    def view(self, state: HomeworldsState, viewer: Viewer) -> JSON:
        """Everything is public: every viewer sees the same table, and how many times its position has occurred
        at the end of a turn (``repetitions``, 1 the first time; information only, it ends no game)."""
        position = state.position
        systems = [
            {
                "name": v.name,
                "homeworld_of": v.home,
                "stars": [str(p) for p in v.stars],
                "ships": {str(seat): [str(p) for p in v.ships[seat]] for seat in PLAYERS},
            }
            for v in position.views()
        ]
        bank = {c.letter: {str(size): count(position.bank, 3 * c + size - 1) for size in (1, 2, 3)} for c in Colour}
        return {
            "systems": systems,
            "bank": bank,
            "to_move": None if state.outcome is not None else position.to_move,
            "turn": state.turn,
            "set_up": [position.has_set_up(seat) for seat in PLAYERS],
            "last_turn": state.last_turn,
            "draw_offer": state.draw_offer,
            "repetitions": repetitions(state),
            "position": position.text(),
            "result": None
            if state.outcome is None
            else {
                "winners": list(state.outcome.winners),
                "reason": state.outcome.reason,
                "text": self.result_text(state.outcome),
            },
        }

    @staticmethod
    def result_text(outcome: Outcome | None) -> str:
        """``seat 1 won``, ``draw`` or ``unfinished``."""
        if outcome is None:
            return "unfinished"
        return f"seat {outcome.winners[0]} won" if outcome.winners else "draw"


class Homeworlds1(Homeworlds):
    """Rules ``homeworlds-1``: the same game, whose result text named SDG's players (``winner:2`` for seat 1).

    Kept for the games stored under it: their ``GameScored`` is computed again when they are verified.
    """

    rules_version: str = "homeworlds-1"

    @staticmethod
    def result_text(outcome: Outcome | None) -> str:
        """``winner:1``, ``winner:2``, ``draw`` or ``unfinished``."""
        if outcome is None:
            return "unfinished"
        return f"winner:{outcome.winners[0] + 1}" if outcome.winners else "draw"


GAME = Homeworlds()
