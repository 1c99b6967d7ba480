"""Cosmos Inc.: collected lifepods go onto the tracks, where trackers jump over them."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..board import terrain_of
from ..corporation_state import CosmosState
from ..data import SIZE, TRACKS, Space, Terrain, corporation_tracks
from ..model import Benefit, Kind, Seat, Stage
from ..moves import parse_spot
from ..planets import planet_rules
from ..powers import Corporation, Piece, register

AREA = "area"
"""The lifepod spot of the scoring area."""
COLLECTED = "collected"
"""``source`` of the ``lifepod`` benefit for the lifepod just collected (from the scoring area only)."""
REPOSITION = "reposition"
"""``source`` of the ``lifepod`` benefit of techs 2, 3 and 5 (any collected lifepod, anywhere)."""


def track_pods(seat: Seat) -> tuple[tuple[int, int], ...]:
    """The seat's lifepods on track spaces (track index, position), sorted."""
    found = seat.corporation_state
    return found.track_pods if isinstance(found, CosmosState) else ()


def spot(track: Terrain, position: int) -> str:
    """The text form of a track space, e.g. ``tech7``."""
    return f"{track}{position}"


def covered(seat: Seat, track: Terrain) -> frozenset[int]:
    """The positions of ``track`` holding a lifepod."""
    index = TRACKS.index(track)
    return frozenset(p for t, p in track_pods(seat) if t == index)


def diagonals(square: int) -> frozenset[int]:
    """The diagonal neighbours of ``square`` inside the frame."""
    r, c = divmod(square, SIZE)
    return frozenset(
        (r + dr) * SIZE + c + dc for dr in (-1, 1) for dc in (-1, 1) if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )


class CosmosInc(Corporation):
    """One rover; a rover track with a single rover milestone (data). Each collected lifepod may go
    onto any empty track space (``lifepod area <track><position>``; optional, confirming keeps it in
    the scoring area). Trackers jump over lifepods, ignoring what the covered space gives.

    Restriction: only lifepods in the scoring area score (Space Citizen Decree counts them all,
    14.21); a covered tech milestone gives no level (the higher ones still count); a covered space's
    medal is never scored; a covered civ milestone still counts when numbering the later ranks (the
    ranks are printed).

    Techs: 1 rovers also step diagonally (planet rules apply: the Tartarus chasm only at its two
    diagonal crossings); 2 once per game, ``power 2``: reposition up to three collected lifepods
    (track spaces or scoring area); 3 a placed energy icon lets the seat reposition one lifepod
    (outside the events 104/108 choice); 4 a rover step onto energy terrain (Petra currents included)
    costs no movement (the seat still needs movement left to step); 5 once per round, ``power 5``:
    reposition one lifepod.
    """

    slug = "cosmos-inc"
    rovers = 1

    def tracks(self) -> Mapping[Terrain, tuple[Space, ...]]:
        return corporation_tracks(self.slug)

    def initial_state(self, track: Terrain | None = None) -> CosmosState:
        return CosmosState()

    def lifepod_moved(self, seat: Seat, origin: str, target: str) -> Seat:
        pods = set(track_pods(seat))
        for where, add in ((parse_spot(origin), False), (parse_spot(target), True)):
            if where is not None:
                key = (TRACKS.index(where[0]), where[1])
                pods = pods | {key} if add else pods - {key}
        return dataclasses.replace(seat, corporation_state=CosmosState(tuple(sorted(pods))))

    def board_fields(self, seat: Seat) -> list[str]:
        pods = track_pods(seat)
        return super().board_fields(seat) + (["tp:" + ",".join(f"{TRACKS[t]}{p}" for t, p in pods)] if pods else [])

    def read_board_field(self, seat: Seat, key: str, value: str) -> Seat | None:
        if key != "tp":
            return super().read_board_field(seat, key, value)
        spots = [parse_spot(text) for text in value.split(",") if text]
        if any(where is None for where in spots):
            raise ValueError("tp: lifepods on track spaces like tech7")
        pods = tuple(sorted((TRACKS.index(w[0]), w[1]) for w in spots if w is not None))
        return dataclasses.replace(seat, corporation_state=CosmosState(pods))

    def has(self, seat: Seat, level: int) -> bool:
        """Whether tech ``level`` is unlocked: its milestone at or below the tracker and not covered."""
        spaces = self.tracks()[Terrain.TECH]
        blocked = covered(seat, Terrain.TECH)
        return any(
            s.tech_level == level and p not in blocked for p, s in enumerate(spaces[: seat.track(Terrain.TECH) + 1])
        )

    def tech_level(self, seat: Seat) -> int:
        return max((level for level in range(1, 6) if self.has(seat, level)), default=0)

    def _free_above(self, seat: Seat, track: Terrain, position: int) -> int | None:
        blocked = covered(seat, track)
        return next((p for p in range(position + 1, self.top(track) + 1) if p not in blocked), None)

    def next_position(self, seat: Seat, track: Terrain, position: int) -> int:
        found = self._free_above(seat, track, position)
        return position if found is None else found

    def can_advance(self, seat: Seat, track: Terrain) -> bool:
        position = seat.track(track)
        if track is Terrain.ROVER and position >= self.top(track):
            return True
        return self._free_above(seat, track, position) is not None

    def _free_below(self, seat: Seat, track: Terrain) -> list[int]:
        blocked = covered(seat, track)
        return [p for p in range(seat.track(track) - 1, -1, -1) if p not in blocked]

    def regress_room(self, seat: Seat, track: Terrain) -> int:
        return len(self._free_below(seat, track))

    def regress_to(self, seat: Seat, track: Terrain, steps: int) -> int:
        below = self._free_below(seat, track)
        return below[steps - 1] if 0 < steps <= len(below) else (0 if steps > 0 else seat.track(track))

    def track_medal(self, seat: Seat, track: Terrain) -> int:
        blocked = covered(seat, track)
        spaces = self.spaces(track)[: seat.track(track) + 1]
        return max((s.medal for p, s in enumerate(spaces) if p not in blocked), default=0)

    def scored_lifepods(self, seat: Seat) -> int:
        return max(0, seat.lifepods_collected - len(track_pods(seat)))

    def collection_gains(self, seat: Seat, piece: Piece) -> tuple[Benefit, ...]:
        return (Benefit(Kind.LIFEPOD, source=COLLECTED),) if piece is Piece.LIFEPOD else ()

    def empty_spots(self, seat: Seat) -> list[str]:
        """The track spaces a lifepod may go onto: no lifepod, no tracker, not a start space."""
        pods = set(track_pods(seat))
        return [
            spot(track, p)
            for n, track in enumerate(TRACKS)
            for p in range(1, self.top(track) + 1)
            if (n, p) not in pods and seat.track(track) != p
        ]

    def lifepod_moves(self, seat: Seat, benefit: Benefit) -> list[tuple[str, str]]:
        targets = self.empty_spots(seat)
        in_area = self.scored_lifepods(seat) > 0
        if benefit.source == COLLECTED:
            return [(AREA, t) for t in targets] if in_area else []
        origins = [spot(TRACKS[t], p) for t, p in track_pods(seat)]
        out = [(o, t) for o in origins for t in [*targets, AREA]]
        if in_area:
            out = [(AREA, t) for t in targets] + out
        return out

    def rover_reach(self, seat: Seat, start: int) -> tuple[frozenset[int], frozenset[int]]:
        return (diagonals(start) if self.has(seat, 1) else frozenset()), frozenset()

    def rover_entry(self, seat: Seat, start: int, end: int) -> int | None:
        if not self.has(seat, 4):
            return 1
        letter = seat.cover[end]
        if letter and terrain_of(letter) is Terrain.ENERGY:
            return 0
        return 0 if end in planet_rules(seat).currents(seat) else 1

    def placement_extras(
        self, seat: Seat, cells: Mapping[int, Any], ice: frozenset[int], synergy: bool
    ) -> tuple[Benefit, ...]:
        energy = any(c.icon and c.terrain is Terrain.ENERGY for c in cells.values())
        return (Benefit(Kind.LIFEPOD, source=REPOSITION),) if energy and self.has(seat, 3) else ()

    def actions(self, seat: Seat, placeable: tuple[int, ...]) -> tuple[int, ...]:
        if seat.stage is not Stage.RESOLVING or not seat.lifepods_collected:
            return ()
        out: tuple[int, ...] = ()
        if self.has(seat, 2) and 2 not in seat.once_used:
            out += (2,)
        if self.has(seat, 5) and 5 not in seat.powers_used:
            out += (5,)
        return out

    def use_action(self, seat: Seat, level: int) -> Seat:
        if level == 2:
            gain = Benefit(Kind.LIFEPOD, source=REPOSITION, count=3)
            return dataclasses.replace(seat, pending=(*seat.pending, gain), once_used=(*seat.once_used, 2))
        assert level == 5
        return dataclasses.replace(seat, pending=(*seat.pending, Benefit(Kind.LIFEPOD, source=REPOSITION)))


register(CosmosInc())
