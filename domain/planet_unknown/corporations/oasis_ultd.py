"""Oasis Ultd.: a water tracker winding across the other tracks."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

from ..data import Space, Terrain, corporation_tracks, corporations
from ..model import Benefit, Kind, Seat, Stage
from ..powers import Corporation, register


@functools.cache
def water_path() -> tuple[tuple[tuple[Terrain, int], Space], ...]:
    """The 24 steps of the water path: the (track, position) each lies on and what it gives
    (synergy, rover movement, and a medal only on the water column)."""
    out = []
    for step in corporations()["oasis-ultd"]["water_path"]:
        track, position = step["space"]
        space = Space(
            medal=int(step.get("medal", 0)),
            synergy=int(step.get("synergy", 0)),
            rover_moves=int(step.get("rover_moves", 0)),
        )
        out.append(((Terrain(track), int(position)), space))
    return tuple(out)


class OasisUltd(Corporation):
    """The water tracker follows a 24-step path (data) crossing the other tracks and claims the
    synergies and rover movement of the steps it lands on; it scores only the water-column
    medals (step 19: 8, as BGA). Trackers block each other: an advance onto a space holding
    another tracker is lost. A water icon advances water once per water square of the tile
    on ice.

    Techs: 1 a blocked tracker jumps over the blocker (one space further on its own track);
    2 once per round, ``power 2``: 1 rover movement per rover standing on water terrain;
    3 a placed tile covering no ice advances water; 4 a placed tile with a water icon gives a
    patch; 5 ... and a synergy.
    """

    slug = "oasis-ultd"

    def tracks(self) -> Mapping[Terrain, tuple[Space, ...]]:
        return corporation_tracks(self.slug)

    def spaces(self, track: Terrain) -> tuple[Space, ...]:
        if track is Terrain.WATER:
            return tuple(space for _, space in water_path())
        return super().spaces(track)

    def top(self, track: Terrain) -> int:
        return len(water_path()) - 1 if track is Terrain.WATER else super().top(track)

    def occupied(self, seat: Seat, track: Terrain, position: int) -> bool:
        """Whether another tracker stands on the space the tracker of ``track`` would reach at ``position``."""
        if track is Terrain.WATER:
            other, where = water_path()[position][0]
            return other is not Terrain.WATER and seat.track(other) == where
        other, where = water_path()[seat.track(Terrain.WATER)][0]
        return other is track and where == position

    def next_position(self, seat: Seat, track: Terrain, position: int) -> int:
        top = self.top(track)
        step = min(top, position + 1)
        if self.tech_level(seat) >= 1 and step < top and self.occupied(seat, track, step):
            step += 1
        return step

    def can_advance(self, seat: Seat, track: Terrain) -> bool:
        position = seat.track(track)
        if position >= self.top(track):
            return track is Terrain.ROVER
        return not self.occupied(seat, track, self.next_position(seat, track, position))

    def water_count(self, seat: Seat, cells: Mapping[int, Any], ice: frozenset[int]) -> int:
        return sum(1 for s, c in cells.items() if c.terrain is Terrain.WATER and s in ice)

    def placement_extras(
        self, seat: Seat, cells: Mapping[int, Any], ice: frozenset[int], synergy: bool
    ) -> tuple[Benefit, ...]:
        level = self.tech_level(seat)
        water_icon = any(c.icon and c.terrain is Terrain.WATER for c in cells.values())
        out: tuple[Benefit, ...] = ()
        if level >= 3 and not any(s in ice for s in cells):
            out += (Benefit(Kind.ADVANCE, track=Terrain.WATER),)
        if level >= 4 and water_icon:
            out += (Benefit(Kind.PATCH),)
        if level >= 5 and water_icon and synergy:
            out += (Benefit(Kind.CHOOSE, source="synergy"),)
        return out

    def _on_water(self, seat: Seat) -> int:
        return sum(1 for r in seat.rovers if r >= 0 and seat.cover[r].lower() == "w")

    def actions(self, seat: Seat, placeable: tuple[int, ...]) -> tuple[int, ...]:
        usable = self.tech_level(seat) >= 2 and 2 not in seat.powers_used and seat.stage is Stage.RESOLVING
        return (2,) if usable and self._on_water(seat) else ()

    def use_action(self, seat: Seat, level: int) -> Seat:
        assert level == 2
        return dataclasses.replace(seat, moves=seat.moves + self._on_water(seat))


register(OasisUltd())
