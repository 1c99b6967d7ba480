"""Flux Industries: one flux track, chosen again at every tech milestone, and one tech at a time."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..board import terrain_of
from ..corporation_state import FluxState
from ..data import TRACKS, Space, Terrain, corporation_tracks
from ..model import Benefit, Kind, Seat, Stage
from ..powers import Corporation, register

FLUX = "flux"
"""``source`` of the ``choose`` benefit naming the flux track (the same as ``rules.FLUX``)."""
LAST_RANK = 4


def state(seat: Seat) -> FluxState:
    """The seat's Flux Industries state."""
    found = seat.corporation_state
    return found if isinstance(found, FluxState) else FluxState()


def flux(seat: Seat) -> Terrain:
    """The seat's flux track."""
    return state(seat).flux


def milestone(space: Space) -> bool:
    """Whether a track space is a milestone (civ card, patch, rover or tech level)."""
    return bool(space.civ_rank or space.patch or space.rover or space.tech_level)


class FluxIndustries(Corporation):
    """Two rovers; a second rover milestone on the rover track (data). The flux track is chosen at
    setup (default civ) and again at every tech milestone reached (``choose <i> <track>``, may keep
    it; skipped by events 109/123).

    Restriction: only the tech level the seat holds is active (lower ones switch off).

    Techs: 1 at the start of the tile phase (choice 26), 2 rover movement per rover on terrain of the flux track;
    2 once per game while active, ``power 2``: the flux tracker goes straight to the space before
    its next milestone and advances onto it, claiming it (nothing on the skipped spaces, BGA; not
    with water, which has no milestone; lost on reaching level 3, 14.10); 3 the improved flux track:
    civ milestones one rank higher (2, 3, 4, 4), water synergies doubled, biomass milestones two
    patches, every rover movement +1 (also at the top); 4 a placed icon of the flux track's terrain
    may collect one meteorite (part of the events 104/108 choice); 5 once per round, ``power 5``:
    advance the flux tracker.
    """

    slug = "flux-industries"
    rovers = 2
    setup_tracks = TRACKS

    def tracks(self) -> Mapping[Terrain, tuple[Space, ...]]:
        return corporation_tracks(self.slug)

    def initial_state(self, track: Terrain | None = None) -> FluxState:
        return FluxState(track or Terrain.CIV)

    def board_fields(self, seat: Seat) -> list[str]:
        named = [] if flux(seat) is Terrain.CIV else [f"flux:{flux(seat)}"]
        return named + super().board_fields(seat)

    def read_board_field(self, seat: Seat, key: str, value: str) -> Seat | None:
        if key != "flux":
            return super().read_board_field(seat, key, value)
        if value not in TRACKS:
            raise ValueError(f"unknown flux track {value!r}")
        return dataclasses.replace(seat, corporation_state=FluxState(Terrain(value)))

    def view_fields(self, seat: Seat) -> dict[str, Any]:
        return {"flux_track": str(flux(seat))}

    def _active(self, seat: Seat, level: int) -> bool:
        return self.tech_level(seat) == level

    def _improved(self, seat: Seat, track: Terrain) -> bool:
        return self._active(seat, 3) and flux(seat) is track

    def space_at(self, seat: Seat, track: Terrain, position: int) -> Space:
        space = self.spaces(track)[position]
        if not self._improved(seat, track):
            return space
        if track is Terrain.CIV and space.civ_rank:
            return dataclasses.replace(space, civ_rank=min(LAST_RANK, space.civ_rank + 1))
        if track is Terrain.WATER and space.synergy:
            return dataclasses.replace(space, synergy=2 * space.synergy)
        return space

    def arrival_extras(
        self, seat: Seat, track: Terrain, space: Space, milestones: bool, synergy: bool
    ) -> tuple[Benefit, ...]:
        gains: tuple[Benefit, ...] = ()
        if track is Terrain.BIOMASS and space.patch and milestones and self._improved(seat, track):
            gains += (Benefit(Kind.PATCH),)
        if track is Terrain.TECH and space.tech_level and milestones:
            gains += (Benefit(Kind.CHOOSE, source=FLUX),)
        return gains

    def rover_bonus(self, seat: Seat) -> int:
        return 1 if self._improved(seat, Terrain.ROVER) else 0

    def icon_extras(self, seat: Seat, terrain: Terrain) -> tuple[Benefit, ...]:
        if self._active(seat, 4) and terrain is flux(seat):
            return (Benefit(Kind.COLLECT, what="meteorite"),)
        return ()

    def round_bonus(self, seat: Seat) -> Seat:
        if not self._active(seat, 1):
            return seat
        track = flux(seat)
        on_flux = sum(1 for r in seat.rovers if r >= 0 and seat.cover[r] and terrain_of(seat.cover[r]) is track)
        return dataclasses.replace(seat, moves=seat.moves + 2 * on_flux) if on_flux else seat

    def next_milestone(self, seat: Seat) -> int | None:
        """The position of the next milestone on the flux track above its tracker, if any."""
        track = flux(seat)
        spaces = self.spaces(track)
        return next((p for p in range(seat.track(track) + 1, len(spaces)) if milestone(spaces[p])), None)

    def actions(self, seat: Seat, placeable: tuple[int, ...]) -> tuple[int, ...]:
        if seat.stage is not Stage.RESOLVING:
            return ()
        if self._active(seat, 2) and 2 not in seat.once_used and self.next_milestone(seat) is not None:
            return (2,)
        if self._active(seat, 5) and 5 not in seat.powers_used:
            return (5,)
        return ()

    def use_action(self, seat: Seat, level: int) -> Seat:
        track = flux(seat)
        advance = Benefit(Kind.ADVANCE, track=track)
        if level == 5:
            return dataclasses.replace(seat, pending=(*seat.pending, advance))
        assert level == 2
        target = self.next_milestone(seat)
        assert target is not None
        tracks = tuple(target - 1 if t is track else p for t, p in zip(TRACKS, seat.tracks, strict=True))
        return dataclasses.replace(
            seat, tracks=tracks, pending=(*seat.pending, advance), once_used=(*seat.once_used, 2)
        )


register(FluxIndustries())
