"""The state of a Homeworlds game behind the service contract: the table and what the table does not show.

Both the game (:mod:`~domain.homeworlds.game`) and the built-in bots (:mod:`~domain.homeworlds.bots`)
read it; neither needs the other.
"""

from __future__ import annotations

import dataclasses

from domain.contract import Outcome

from .notation import Homeworld, Turn
from .position import MAX_NAME_LENGTH, NAME_RE, PLAYERS, Position
from .rules import Rules, default_home_name


@dataclasses.dataclass(frozen=True, slots=True)
class HomeworldsState:
    """The table, the turn count, the last turn, a standing draw offer and the result."""

    position: Position
    rules: Rules
    turn: int = 1
    last_turn: str | None = None
    draw_offer: int | None = None
    outcome: Outcome | None = None
    seat_names: tuple[str, ...] = ()


def home_name(state: HomeworldsState, seat: int) -> str:
    """The name ``seat``'s homeworld gets when its set-up move names none: the seat's name when it is a
    valid system name, not the other seat's (ignoring case) and not on the table yet; else the default."""
    if len(state.seat_names) == len(PLAYERS):
        name, other = state.seat_names[seat], state.seat_names[1 - seat]
        if (
            NAME_RE.fullmatch(name)
            and len(name) <= MAX_NAME_LENGTH
            and name.casefold() != other.casefold()
            and state.position.index(name) is None
        ):
            return name
    return default_home_name(state.position, seat)


def with_home_name(state: HomeworldsState, seat: int, turn: Turn) -> Turn:
    """``turn`` with its homeworld, if it sets one up, named :func:`home_name`."""
    if not any(isinstance(a, Homeworld) for a in turn.actions):
        return turn
    name = home_name(state, seat)
    return Turn(tuple(dataclasses.replace(a, name=name) if isinstance(a, Homeworld) else a for a in turn.actions))
