"""Republic: a civ track of seven milestones, each one paid for with another track."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ..data import TRACKS, Space, Terrain, corporation_tracks, tiles
from ..model import Benefit, Kind, Seat, Stage
from ..powers import Corporation, TilePlacement, register

LAST_RANK = 4
END_PICKS = 2


def civ_tile(tile: int) -> bool:
    """Whether a tile has civ terrain."""
    return any(s.terrain is Terrain.CIV for s in tiles()[tile].squares)


class Republic(Corporation):
    """One rover; the civ track has milestones of ranks 1, 2, 2, 3, 3, 4, 4 and one medal (data).
    Each civ milestone claimed makes the seat regress another tracker one space, without benefits
    (also when the pile is empty; not when an event blocks the milestone).

    Techs: 1 once per round, while choosing a tile from a depot offering a civ tile it can place,
    gain the rover movement under the rover tracker (``power 1``), then take a civ tile;
    2 a civ pick may also take the top card of the next rank's pile; 3 a rover on civ terrain
    may move to any other civ-terrain square for 1 movement (ignoring the Tartarus chasm);
    4 a synergy boost with every civ milestone; 5 in the end-game turn, up to two cards from
    all the civ piles.
    """

    slug = "republic"
    rovers = 1
    acts_while_choosing = True

    def tracks(self) -> Mapping[Terrain, tuple[Space, ...]]:
        return corporation_tracks(self.slug)

    def arrival_extras(
        self, seat: Seat, track: Terrain, space: Space, milestones: bool, synergy: bool
    ) -> tuple[Benefit, ...]:
        if not (space.civ_rank and milestones):
            return ()
        others = tuple(t for t in TRACKS if t is not Terrain.CIV)
        gains: tuple[Benefit, ...] = (Benefit(Kind.REGRESS, options=others, source="republic"),)
        if self.tech_level(seat) >= 4 and synergy:
            gains += (Benefit(Kind.CHOOSE, source="synergy"),)
        return gains

    def actions(self, seat: Seat, placeable: tuple[int, ...]) -> tuple[int, ...]:
        usable = (
            self.tech_level(seat) >= 1
            and 1 not in seat.powers_used
            and seat.stage is Stage.CHOOSING
            and any(civ_tile(t) for t in placeable)
        )
        return (1,) if usable else ()

    def use_action(self, seat: Seat, level: int) -> Seat:
        assert level == 1
        movement = self.tracks()[Terrain.ROVER][seat.track(Terrain.ROVER)].rover_moves
        return dataclasses.replace(seat, moves=seat.moves + movement)

    def tile_placement(self, seat: Seat, tile: int) -> TilePlacement:
        allowed = not (seat.stage is Stage.CHOOSING and 1 in seat.powers_used) or civ_tile(tile)
        return TilePlacement.CHECKED if allowed else TilePlacement.REFUSED

    def extra_civ_choices(self, seat: Seat, rank: int, piles: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
        if self.tech_level(seat) < 2 or rank >= LAST_RANK or not piles[rank]:
            return ()
        return (piles[rank][0],)

    def rover_reach(self, seat: Seat, start: int) -> tuple[frozenset[int], frozenset[int]]:
        if self.tech_level(seat) < 3 or seat.cover[start].lower() != "c":
            return frozenset(), frozenset()
        return frozenset(), frozenset(s for s, letter in enumerate(seat.cover) if letter.lower() == "c" and s != start)

    def end_game_gains(self, seat: Seat) -> tuple[Benefit, ...]:
        return (Benefit(Kind.CIV, rank=0),) * END_PICKS if self.tech_level(seat) >= 5 else ()


register(Republic())
