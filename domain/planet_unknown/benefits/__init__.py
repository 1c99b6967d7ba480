"""The kinds of pending benefit, one module each (or one per small family of kinds).

Each module's ``RULES`` (:class:`.base.KindRules`) keeps together the kind's options, the check of
its moves and the events they decide. :data:`KINDS` maps every kind to its rules, :data:`ACTIONS`
every action a benefit's move uses to the function that decides it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from domain.contract import Event

from ..model import Benefit, Kind, State
from ..moves import Action, Move
from . import (
    advance,
    choose,
    civ,
    clear,
    deploy,
    discard,
    draw,
    empty,
    keep,
    lifepod,
    meteorite,
    patch,
    peek,
    pieces,
    place,
    regress,
    rotate,
    select,
    teleport,
)
from .base import KINDS, Decider, KindRules, possible

_MODULES = (
    advance,
    choose,
    deploy,
    patch,
    civ,
    pieces,
    clear,
    teleport,
    place,
    regress,
    select,
    rotate,
    meteorite,
    discard,
    empty,
    draw,
    peek,
    lifepod,
    keep,
)
KINDS.update({kind: module.RULES for module in _MODULES for kind in module.RULES.kinds})
assert set(KINDS) == set(Kind), set(Kind) - set(KINDS)

ACTIONS: Mapping[Action, Decider] = {
    action: decide for module in _MODULES for action, decide in module.RULES.decide.items()
}
"""The function that checks and decides each action that uses a pending benefit."""


def pending_options(state: State, seat: int) -> Iterator[Move]:
    """The moves that use the seat's pending benefits, kind by kind (benefits that would list the same
    options as an earlier one are skipped)."""
    seen: set[tuple[Kind, object]] = set()
    listed: set[Move] = set()
    for index, benefit in enumerate(state.seats[seat].pending):
        rules = KINDS[benefit.kind]
        key = (benefit.kind, rules.key(benefit, index))
        if key in seen:
            continue
        seen.add(key)
        for move in rules.options(state, seat, benefit, index):
            if rules.unique:
                if move in listed:
                    continue
                listed.add(move)
            yield move


def automatic(state: State, seat: int, index: int, benefit: Benefit) -> Event | None:
    """The event a pending benefit resolves itself with, if its kind has one."""
    rules = KINDS[benefit.kind]
    return None if rules.automatic is None else rules.automatic(state, seat, index, benefit)


__all__ = ["ACTIONS", "KINDS", "KindRules", "automatic", "pending_options", "possible"]
