"""Makeshift: trackers that change tracks."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..corporation_state import MakeshiftState
from ..data import TOP, TRACKS, Space, Terrain, corporation_tracks
from ..model import Benefit, Kind, Seat, Stage
from ..powers import Corporation, register


def _moved(seat: Seat) -> tuple[int, ...]:
    """The lanes as stored: empty while no tracker has changed tracks."""
    found = seat.corporation_state
    return found.lanes if isinstance(found, MakeshiftState) else ()


def lanes(seat: Seat) -> tuple[int, ...]:
    """The track index each tracker (by colour, in board order) stands on."""
    return _moved(seat) or tuple(range(len(TRACKS)))


def lane(seat: Seat, colour: Terrain) -> Terrain:
    """The track the tracker of ``colour`` stands on."""
    return TRACKS[lanes(seat)[TRACKS.index(colour)]]


class Makeshift(Corporation):
    """Two rovers; the water track has medals 1-5 and more synergies, the rover track a second rover
    milestone (data). An advance of a colour moves that colour's tracker straight up or diagonally up
    onto a neighbouring track (``advance civ water``; order civ, water, biomass, rover, tech), and
    the tracker claims the space it lands on, whatever the track.

    Restriction: a space holds one tracker; an advance onto an occupied space is lost (regressions
    do not check, as Oasis). A tracker's medal is the track's it stands on; the tech level is given
    by the highest tracker on the tech track (none there: no tech).

    Techs: 1 civ and tech tracks are neighbours; 2 +1 to rover movement from track spaces while two
    or more trackers stand on the rover track; 3 a tracker may shift sideways onto a neighbouring
    track at the same height instead (``advance civ water side``), claiming that space; 4 once per
    round, ``power 4``: regress any tracker one space (no benefits); 5 each tracker scores as if it
    stood on the highest position occupied on its track.
    """

    slug = "makeshift"
    rovers = 2

    def tracks(self) -> Mapping[Terrain, tuple[Space, ...]]:
        return corporation_tracks(self.slug)

    def initial_state(self, track: Terrain | None = None) -> MakeshiftState:
        return MakeshiftState()

    def board_fields(self, seat: Seat) -> list[str]:
        moved = _moved(seat)
        return super().board_fields(seat) + (["lanes:" + ".".join(TRACKS[n].value for n in moved)] if moved else [])

    def read_board_field(self, seat: Seat, key: str, value: str) -> Seat | None:
        if key != "lanes":
            return super().read_board_field(seat, key, value)
        names = value.split(".")
        if len(names) != len(TRACKS) or any(n not in TRACKS for n in names):
            raise ValueError("lanes: five track names, e.g. civ.civ.biomass.rover.tech")
        return dataclasses.replace(
            seat, corporation_state=MakeshiftState(tuple(TRACKS.index(Terrain(n)) for n in names))
        )

    def view_fields(self, seat: Seat) -> dict[str, Any]:
        moved = _moved(seat)
        return {"lanes": {str(t): str(TRACKS[n]) for t, n in zip(TRACKS, moved, strict=True)}} if moved else {}

    def occupied(self, seat: Seat, track: Terrain, position: int, colour: Terrain) -> bool:
        """Whether a tracker other than ``colour``'s stands on ``position`` of ``track``."""
        return any(lane(seat, c) is track and seat.track(c) == position for c in TRACKS if c is not colour)

    def neighbour_tracks(self, seat: Seat, track: Terrain) -> list[Terrain]:
        """The tracks next to ``track`` (tech 1: civ and tech too)."""
        n = TRACKS.index(track)
        out = [TRACKS[m] for m in (n - 1, n + 1) if 0 <= m < len(TRACKS)]
        if self.tech_level(seat) >= 1 and track in (Terrain.CIV, Terrain.TECH):
            out.append(Terrain.TECH if track is Terrain.CIV else Terrain.CIV)
        return out

    def space_at(self, seat: Seat, track: Terrain, position: int) -> Space:
        return self.spaces(lane(seat, track))[position]

    def can_advance(self, seat: Seat, track: Terrain) -> bool:
        position = seat.track(track)
        if position >= TOP:
            return track is Terrain.ROVER
        return not self.occupied(seat, lane(seat, track), position + 1, track)

    def routes(self, seat: Seat, track: Terrain) -> list[tuple[Terrain | None, bool]]:
        position, here = seat.track(track), lane(seat, track)
        out: list[tuple[Terrain | None, bool]] = [(None, False)]
        for other in self.neighbour_tracks(seat, here):
            if position < TOP and not self.occupied(seat, other, position + 1, track):
                out.append((other, False))
            if self.tech_level(seat) >= 3 and position > 0 and not self.occupied(seat, other, position, track):
                out.append((other, True))
        return out

    def enter_lane(self, seat: Seat, track: Terrain, lane: Terrain, side: bool) -> Seat:
        n = TRACKS.index(track)
        new_lanes = list(lanes(seat))
        new_lanes[n] = TRACKS.index(lane)
        tracks = list(seat.tracks)
        if side:
            tracks[n] -= 1
        identity = tuple(new_lanes) == tuple(range(len(TRACKS)))
        state = MakeshiftState(() if identity else tuple(new_lanes))
        return dataclasses.replace(seat, corporation_state=state, tracks=tuple(tracks))

    def tech_level(self, seat: Seat) -> int:
        on_tech = [seat.track(c) for c in TRACKS if lane(seat, c) is Terrain.TECH]
        if not on_tech:
            return 0
        return sum(1 for space in self.spaces(Terrain.TECH)[1 : max(on_tech) + 1] if space.tech_level)

    def track_medal(self, seat: Seat, track: Terrain) -> int:
        here = lane(seat, track)
        position = seat.track(track)
        if self.tech_level(seat) >= 5:
            position = max(seat.track(c) for c in TRACKS if lane(seat, c) is here)
        return max(space.medal for space in self.spaces(here)[: position + 1])

    def rover_bonus(self, seat: Seat) -> int:
        on_rover = sum(1 for c in TRACKS if lane(seat, c) is Terrain.ROVER)
        return 1 if self.tech_level(seat) >= 2 and on_rover >= 2 else 0

    def actions(self, seat: Seat, placeable: tuple[int, ...]) -> tuple[int, ...]:
        usable = self.tech_level(seat) >= 4 and 4 not in seat.powers_used and seat.stage is Stage.RESOLVING
        return (4,) if usable and any(seat.tracks) else ()

    def use_action(self, seat: Seat, level: int) -> Seat:
        assert level == 4
        options = tuple(t for t in TRACKS if seat.track(t) > 0)
        return dataclasses.replace(seat, pending=(*seat.pending, Benefit(Kind.REGRESS, options=options)))


register(Makeshift())
