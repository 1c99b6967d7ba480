"""The corporations' own states: what a corporation keeps on a seat beyond its tracks, rovers and pieces.

A seat holds one of them (or None) in :attr:`.model.Seat.corporation_state`; the corporation's module under
:mod:`.corporations` reads and changes it through its hooks. They are defined here, apart from the
corporations' rules, because the seat names them: this module imports neither the model nor the rules.
:data:`CorporationState` is a closed union, so that the snapshot codec can read a state back.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from .data import Terrain
from .literal import render


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class CosmosState:
    """Cosmos Inc.'s own state: the lifepods on track spaces, as sorted (track index, position) pairs."""

    track_pods: tuple[tuple[int, int], ...] = ()

    def __repr__(self) -> str:
        return render(self)


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class FluxState:
    """Flux Industries' own state: the ``flux`` track."""

    flux: Terrain = Terrain.CIV

    def __repr__(self) -> str:
        return render(self)


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class JumpDriveState:
    """Jump Drive's own state: the tech slots (1-6 = A-F) holding a lifepod, sorted, and the objective
    cards tech F drew (``shared_offer``, hidden from the other seats), one to ``keep``."""

    pod_slots: tuple[int, ...] = ()
    shared_offer: tuple[int, ...] = ()
    hidden: typing.ClassVar[tuple[str, ...]] = ("shared_offer",)

    def __repr__(self) -> str:
        return render(self)


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class MakeshiftState:
    """Makeshift's own state: the track index each tracker (by colour, in board order) stands on;
    empty while every tracker stands on its own track."""

    lanes: tuple[int, ...] = ()

    def __repr__(self) -> str:
        return render(self)


CorporationState = CosmosState | FluxState | JumpDriveState | MakeshiftState
"""The state a corporation keeps in :attr:`.model.Seat.corporation_state`."""

STATE_TYPES: dict[str, Any] = {cls.__name__: cls for cls in typing.get_args(CorporationState)}
"""The state classes by name (for :func:`.literal.read`)."""


def public(state: CorporationState | None) -> CorporationState | None:
    """``state`` as every seat may see it: the fields its class names ``hidden`` at their defaults."""
    hidden: tuple[str, ...] = getattr(state, "hidden", ())
    if state is None or not hidden:
        return state
    defaults: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(state) if f.name in hidden}
    shown: CorporationState = dataclasses.replace(state, **defaults)
    return shown


def merged(recorded: CorporationState, current: CorporationState | None) -> CorporationState:
    """A ``recorded`` public state (:func:`public`) with the hidden fields of the seat's ``current`` one."""
    hidden: tuple[str, ...] = getattr(recorded, "hidden", ())
    if not hidden or type(current) is not type(recorded):
        return recorded
    return dataclasses.replace(recorded, **{name: getattr(current, name) for name in hidden})
