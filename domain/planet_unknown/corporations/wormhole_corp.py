"""Wormhole Corp.: a biomass track of five two-choice boxes."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ..board import neighbours
from ..data import TRACKS, Space, Terrain, corporation_tracks
from ..model import Benefit, Kind, Seat, Stage
from ..powers import Corporation, PatchRules, register


def biomass_areas(seat: Seat) -> int:
    """The number of separate biomass areas (tiles and patches)."""
    biomass = {s for s, letter in enumerate(seat.cover) if letter.lower() in ("b", "p")}
    count, seen = 0, set()
    for square in biomass:
        if square in seen:
            continue
        count += 1
        frontier = [square]
        while frontier:
            s = frontier.pop()
            if s in seen:
                continue
            seen.add(s)
            frontier.extend(n for n in neighbours(s) if n in biomass and n not in seen)
    return count


class WormholeCorp(Corporation):
    """The biomass tracker moves box by box (data: the boxes' first spaces, markers with the medals
    1, 2, 3, 5 between them that count once passed); each advance into a box gives a choice
    (``pick``): its first half (box 1 a synergy, boxes 2-5 an advance of civ, water, tech, rover)
    or a biomass patch. The top is box 5; a regression goes back one box.

    Restriction: a placed tile's biomass icon advances only if the number of biomass areas does not
    grow; an energy icon never advances biomass (BGA).

    Techs: 1 while the biomass tracker is at the top, ``power 1`` resets it to 0 without benefits
    (any time); 2 patches may go on tiles; 3 once per round, a patch placed or stored brings a
    second one; 4 patches may be stored for the end; 5 patches may go on meteorites, destroying them.
    """

    slug = "wormhole-corp"

    def tracks(self) -> Mapping[Terrain, tuple[Space, ...]]:
        return corporation_tracks(self.slug)

    def boxes(self) -> list[int]:
        """The first space of each biomass box."""
        spaces = self.tracks()[Terrain.BIOMASS]
        return [p for p in range(1, len(spaces)) if not spaces[p].skip and spaces[p - 1].skip]

    def _box(self, position: int) -> int:
        return sum(1 for start in self.boxes() if start <= position)

    def top(self, track: Terrain) -> int:
        return self.boxes()[-1] if track is Terrain.BIOMASS else super().top(track)

    def next_position(self, seat: Seat, track: Terrain, position: int) -> int:
        if track is not Terrain.BIOMASS:
            return super().next_position(seat, track, position)
        return next((start for start in self.boxes() if start > position), self.boxes()[-1])

    def regress_room(self, seat: Seat, track: Terrain) -> int:
        if track is not Terrain.BIOMASS:
            return super().regress_room(seat, track)
        return self._box(seat.track(track))

    def regress_to(self, seat: Seat, track: Terrain, steps: int) -> int:
        if track is not Terrain.BIOMASS:
            return super().regress_to(seat, track, steps)
        box = self._box(seat.track(track)) - steps
        return self.boxes()[box - 1] if box > 0 else 0

    def arrival_gains(
        self, seat: Seat, track: Terrain, position: int, milestones: bool, synergy: bool
    ) -> tuple[Benefit, ...] | None:
        if track is not Terrain.BIOMASS:
            return None
        space = self.tracks()[track][position]
        first: tuple[Benefit, ...] = ()
        if space.advance is not None:
            first = (Benefit(Kind.ADVANCE, track=space.advance),)
        elif space.synergy and synergy:
            first = (Benefit(Kind.CHOOSE, source="synergy"),)
        patch: tuple[Benefit, ...] = (Benefit(Kind.PATCH),) if milestones else ()
        alternatives = tuple(alt for alt in (first, patch) if alt)
        if len(alternatives) < 2:
            return alternatives[0] if alternatives else ()
        return (Benefit(Kind.SELECT, alternatives=alternatives),)

    def icon_advances(self, before: Seat, after: Seat, icon: Terrain, track: Terrain) -> bool:
        if track is not Terrain.BIOMASS:
            return True
        return icon is not Terrain.ENERGY and biomass_areas(after) <= biomass_areas(before)

    def actions(self, seat: Seat, placeable: tuple[int, ...]) -> tuple[int, ...]:
        at_top = seat.track(Terrain.BIOMASS) >= self.top(Terrain.BIOMASS)
        return (1,) if self.tech_level(seat) >= 1 and at_top and seat.stage is Stage.RESOLVING else ()

    def use_action(self, seat: Seat, level: int) -> Seat:
        assert level == 1
        tracks = tuple(0 if t is Terrain.BIOMASS else p for t, p in zip(TRACKS, seat.tracks, strict=True))
        return dataclasses.replace(seat, tracks=tracks)

    def patch_rules(self, seat: Seat) -> PatchRules:
        level = self.tech_level(seat)
        return PatchRules(on_tiles=level >= 2, on_meteorites=level >= 5, stored=level >= 4)

    def patch_used(self, seat: Seat) -> Seat:
        if self.tech_level(seat) < 3 or 3 in seat.powers_used:
            return seat
        return dataclasses.replace(
            seat, pending=(*seat.pending, Benefit(Kind.PATCH)), powers_used=(*seat.powers_used, 3)
        )


register(WormholeCorp())
