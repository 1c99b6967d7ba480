"""Homeworlds (Binary Homeworlds, two players) under the official Pyramid Quartet rules.

A pure, standard-library-only rules engine::

    >>> from domain.homeworlds import Position, Turn, play, winning_turn
    >>> position = Position.from_text("<0>; Player1(0,y3g2)g1-; Player2(1,g3b2)r1y1b1-b1b1")
    >>> turn = winning_turn(position)
    >>> str(turn)
    'catastrophe Player2 b'
    >>> play(position, turn).outcome()
    Outcome(winner=0)

``GAME`` implements the service contract (:mod:`domain.contract`).
"""

from .errors import HomeworldsRuleError, NotationError
from .game import GAME, Homeworlds, Homeworlds1, HomeworldsState
from .movegen import count_turns, legal_turns, successors, turn_to, winning_turn
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
from .pieces import Colour, Piece
from .position import Outcome, Position, System
from .rules import OFFICIAL, SDG, Rules, end_turn, is_legal, play

PREVIOUS_VERSIONS: tuple[Homeworlds, ...] = (Homeworlds1(),)
"""The games of earlier rules versions that stored games still use (see "Rules versions" in the README)."""

__all__ = [
    "GAME",
    "OFFICIAL",
    "PREVIOUS_VERSIONS",
    "SDG",
    "Action",
    "Build",
    "Capture",
    "Catastrophe",
    "Colour",
    "Discover",
    "Homeworld",
    "Homeworlds",
    "HomeworldsRuleError",
    "HomeworldsState",
    "Move",
    "NotationError",
    "Outcome",
    "Piece",
    "Position",
    "Rules",
    "Sacrifice",
    "System",
    "Trade",
    "Turn",
    "count_turns",
    "end_turn",
    "is_legal",
    "legal_turns",
    "play",
    "successors",
    "turn_to",
    "winning_turn",
]
