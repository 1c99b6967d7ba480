"""What every kind of pending benefit provides, and the table of kinds the package fills.

A kind keeps together its legal options (the moves that use it), its check and the events its moves
decide: :class:`KindRules`. A benefit is possible when it has an option, unless its kind says
otherwise (an automatic kind, or one whose use is checked more loosely than its options list).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from domain.contract import Event, IllegalMoveError

from ..model import Benefit, Kind, Seat, State
from ..moves import Action, Move

Options = Callable[[State, int, Benefit, int], Iterator[Move]]
"""``options(state, seat, benefit, index)``: the moves that use ``benefit`` (pending at ``index``)."""
Decider = Callable[[State, int, Any], list[Event]]
"""``decide(state, seat, move)``: the events of the move, after checking it (raises RuleError); ``move``
is of the class of the action the decider is registered for (:data:`.moves.MOVES`)."""


def _by_what(benefit: Benefit, index: int) -> object:
    return benefit.what


def by_index(benefit: Benefit, index: int) -> object:
    """The ``key`` of a kind whose every pending benefit lists its own options."""
    return index


@dataclasses.dataclass(frozen=True, slots=True)
class KindRules:
    """The rules of one kind of pending benefit (or of a small family of them).

    ``options`` lists the moves that use a benefit; ``decide`` maps each action it owns to the
    function that checks it and returns its events. ``possible`` replaces "has an option" where the
    kind is usable more widely than its options (None: has an option); ``automatic`` is the event the
    benefit resolves itself with, if any. ``key`` says which benefits of the kind list the same
    options (only the first of them is listed); ``unique`` drops options already listed by an
    earlier benefit of the kind.
    """

    kinds: tuple[Kind, ...]
    options: Options
    decide: Mapping[Action, Decider] = dataclasses.field(default_factory=dict)
    possible: Callable[[State, int, Benefit], bool] | None = None
    automatic: Callable[[State, int, int, Benefit], Event | None] | None = None
    key: Callable[[Benefit, int], object] = _by_what
    unique: bool = False


KINDS: dict[Kind, KindRules] = {}
"""Every kind's rules, filled by the package (:mod:`.benefits`)."""


def possible(state: State, seat: int, benefit: Benefit) -> bool:
    """Whether a pending benefit can be used at all (else it is lost)."""
    rules = KINDS[benefit.kind]
    if rules.possible is not None:
        return rules.possible(state, seat, benefit)
    return next(rules.options(state, seat, benefit, 0), None) is not None


def find(seat: Seat, kind: Kind, **match: Any) -> int:
    """The index of the seat's first pending benefit of ``kind`` (with the ``match``ed fields)."""
    for index, benefit in enumerate(seat.pending):
        if benefit.kind is kind and all(getattr(benefit, k) == v for k, v in match.items()):
            return index
    raise IllegalMoveError(f"you have no pending {kind.value} benefit" + (f" for {match}" if match else ""))


def no_options(state: State, seat: int, benefit: Benefit, index: int) -> Iterator[Move]:
    """The options of an automatic kind: none, it resolves itself."""
    return iter(())
