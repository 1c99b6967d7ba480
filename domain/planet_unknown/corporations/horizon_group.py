"""Horizon Group: four rovers that carry meteorites home to rover icons."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..data import Space, Terrain, corporation_tracks, tiles
from ..model import Benefit, Kind, Seat, Stage
from ..powers import Corporation, Piece, TilePlacement, register

CARRIED = "carried"
"""``what`` of the tech 4 ``destroy`` benefit: the meteorite a rover on water carries."""


def carrying(seat: Seat) -> list[int]:
    """The squares of the rovers that carry a meteorite (a Horizon rover on a meteorite carries it)."""
    return [r for r in seat.rovers if r >= 0 and r in seat.meteorites]


class HorizonGroup(Corporation):
    """Four rovers and a rover track up to 5 movement (data). A rover does not collect a meteorite
    on contact: it picks it up (one per rover; a carrying rover cannot enter another meteorite's
    square) and the meteorite travels with it, still on the planet, until the rover stands on a
    rover resource icon, where it is collected.

    Techs: 1 a tile with a rover icon skips every placement check except free grid squares (BGA);
    2 at the start of the tile phase (choice 26), 1 movement per carrying rover; 3 a biomass patch
    per meteorite collected; 4 a carrying rover arriving on water terrain may destroy its meteorite; 5 once per round,
    advance the rover tracker (``power 5``).
    """

    slug = "horizon-group"
    rovers = 4

    def tracks(self) -> Mapping[Terrain, tuple[Space, ...]]:
        return corporation_tracks(self.slug)

    def tile_placement(self, seat: Seat, tile: int) -> TilePlacement:
        rover_icon = any(s.icon and s.terrain is Terrain.ROVER for s in tiles()[tile].squares)
        return TilePlacement.FREE if self.tech_level(seat) >= 1 and rover_icon else TilePlacement.CHECKED

    def rover_entry(self, seat: Seat, start: int, end: int) -> int | None:
        return None if start in seat.meteorites and end in seat.meteorites else 1

    def rover_arrives(self, seat: Seat, start: int | None, square: int) -> Seat:
        changes: dict[str, Any] = {}
        meteorites = seat.meteorites
        if start is not None and start in meteorites:
            meteorites = (meteorites - {start}) | {square}
        gains: tuple[Benefit, ...] = ()
        if square in meteorites:
            if seat.cover[square] == "R":
                meteorites = meteorites - {square}
                changes["meteorites_collected"] = seat.meteorites_collected + 1
                gains = self.collection_gains(seat, Piece.METEORITE)
            elif self.tech_level(seat) >= 4 and seat.cover[square].lower() == "w":
                gains = (Benefit(Kind.DESTROY, what=CARRIED),)
        if square in seat.lifepods:
            changes.update(lifepods=seat.lifepods - {square}, lifepods_collected=seat.lifepods_collected + 1)
        return dataclasses.replace(seat, meteorites=meteorites, pending=seat.pending + gains, **changes)

    def collection_gains(self, seat: Seat, piece: Piece) -> tuple[Benefit, ...]:
        return (Benefit(Kind.PATCH),) if piece is Piece.METEORITE and self.tech_level(seat) >= 3 else ()

    def round_bonus(self, seat: Seat) -> Seat:
        bonus = len(carrying(seat)) if self.tech_level(seat) >= 2 else 0
        return dataclasses.replace(seat, moves=seat.moves + bonus) if bonus else seat

    def actions(self, seat: Seat, placeable: tuple[int, ...]) -> tuple[int, ...]:
        usable = self.tech_level(seat) >= 5 and 5 not in seat.powers_used and seat.stage is Stage.RESOLVING
        return (5,) if usable else ()

    def use_action(self, seat: Seat, level: int) -> Seat:
        assert level == 5
        return dataclasses.replace(seat, pending=(*seat.pending, Benefit(Kind.ADVANCE, track=Terrain.ROVER)))


register(HorizonGroup())
