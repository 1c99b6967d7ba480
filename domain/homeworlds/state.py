"""The state of a Homeworlds game behind the service contract: the table and what the table does not show.

Both the game (:mod:`~domain.homeworlds.game`) and the built-in bots (:mod:`~domain.homeworlds.bots`)
read it; neither needs the other. Besides the table it keeps the position history: the
:func:`repetition_key` of the table at the end of every turn, so that bots and clients can tell how
often a position has occurred (:func:`repetitions`). Repetition is information only: it ends no game.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter

from domain.contract import Outcome

from .notation import Homeworld, Turn
from .position import MAX_NAME_LENGTH, NAME_RE, PLAYERS, Position
from .rules import Rules, default_home_name

SYSTEM_BYTES = 10
"""Bytes enough for one packed system (:mod:`~domain.homeworlds.position`: piles and the homeworld mark)."""


@dataclasses.dataclass(frozen=True, slots=True)
class HomeworldsState:
    """The table, the turn count, the last turn, a standing draw offer, the result and the position history
    (``history``: the :func:`repetition_key` of the table at the end of each turn so far, oldest first)."""

    position: Position
    rules: Rules
    turn: int = 1
    last_turn: str | None = None
    draw_offer: int | None = None
    outcome: Outcome | None = None
    seat_names: tuple[str, ...] = ()
    history: tuple[int, ...] = ()


def repetition_key(position: Position) -> int:
    """A key of ``position`` for counting repetitions: the same for the same systems (whatever their names)
    with the same player to move, stable across processes and Python versions (a 64-bit BLAKE2b digest).

    >>> a = Position.from_text("<0>; Alpha(0,r3b2)g3-; Beta(1,y2)-g3; Reach(g3)-y3")
    >>> a_renamed = Position.from_text("<0>; Alpha(0,r3b2)g3-; Beta(1,y2)-g3; Elsewhere(g3)-y3")
    >>> repetition_key(a) == repetition_key(a_renamed)
    True
    >>> repetition_key(a) == repetition_key(Position.from_text("<1>; Alpha(0,r3b2)g3-; Beta(1,y2)-g3; Reach(g3)-y3"))
    False
    """
    data = bytes((position.to_move, position.established))
    data += b"".join(s.to_bytes(SYSTEM_BYTES, "big") for s in sorted(position.systems))
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def repetitions(state: HomeworldsState) -> int:
    """How many times the current position has occurred at the end of a turn, this time included (1 before the
    first turn)."""
    if not state.history:
        return 1
    return state.history.count(state.history[-1])


def seen_positions(state: HomeworldsState) -> Counter[int]:
    """How many times each position (by :func:`repetition_key`) has occurred at the end of a turn."""
    return Counter(state.history)


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
