"""Jump Drive: six techs unlocked by putting collected lifepods on their slots."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ..board import terrain_of
from ..corporation_state import JumpDriveState
from ..data import TRACKS, Space, Terrain, corporation_tracks, planets
from ..model import Benefit, Kind, Seat, Stage
from ..powers import Corporation, Piece, register

SLOTS = 6
AREA = "area"
COLLECTED = "collected"
"""``source`` of the ``lifepod`` benefit for the lifepod just collected."""
HEIGHT = "height"
"""``source`` of the tech E ``choose`` benefit (the same as ``rules.HEIGHT``)."""
SHARED = "shared"
"""``what`` of the tech F ``draw`` benefit (the same as ``rules.SHARED``)."""


def state(seat: Seat) -> JumpDriveState:
    """The seat's Jump Drive state."""
    found = seat.corporation_state
    return found if isinstance(found, JumpDriveState) else JumpDriveState()


def pod_slots(seat: Seat) -> tuple[int, ...]:
    """The seat's tech slots holding a lifepod (1-6 = A-F), sorted."""
    return state(seat).pod_slots


def slot(level: int) -> str:
    """The text form of a tech slot, e.g. ``slot2`` (tech B)."""
    return f"slot{level}"


class JumpDrive(Corporation):
    """One rover; a rover track with a single rover milestone, a tech track without tech milestones
    whose medals fall as the tracker rises (5 at 1, 3 at 6, 2 at 8, 1 at 11: the last medal passed
    scores). Six techs A-F (levels 1-6) are unlocked by putting a lifepod just collected on their
    slot (``lifepod area slot<n>``, optional; confirming keeps it in the scoring area), in any order.

    Restriction: lifepods on slots do not score (Space Citizen Decree still counts them, 14.21).

    Techs: A once per round, ``power 1``: a pending biomass patch becomes a synergy boost;
    B once per round, ``power 2`` (1 movement): teleport a rover to a square of the same tile
    terrain as the one under it; C once per round, ``power 3``: a pending synergy boost advances its
    tracker twice; D a placed tech icon is resolved as energy from the tile's tech squares (BGA);
    E once per game, ``power 5``: name a track (``choose <i> <track>``) and claim every space at
    the height of its tracker on all five tracks; F once per game, ``power 6``: draw three objective
    cards and ``keep`` one face up, scored by every seat against all others (5 in solo, BGA).
    Event 122 blocks A and C (from rules ``planet-unknown-5``; choice 32).
    """

    slug = "jump-drive"
    rovers = 1
    synergy_powers = frozenset({1, 3})

    def tracks(self) -> Mapping[Terrain, tuple[Space, ...]]:
        return corporation_tracks(self.slug)

    def initial_state(self, track: Terrain | None = None) -> JumpDriveState:
        return JumpDriveState()

    def lifepod_moved(self, seat: Seat, origin: str, target: str) -> Seat:
        assert origin == AREA and target.startswith("slot")
        now = state(seat)
        slots = tuple(sorted({*now.pod_slots, int(target[4:])}))
        return dataclasses.replace(seat, corporation_state=dataclasses.replace(now, pod_slots=slots))

    def board_fields(self, seat: Seat) -> list[str]:
        slots = pod_slots(seat)
        return super().board_fields(seat) + (["slots:" + ",".join(str(n) for n in slots)] if slots else [])

    def read_board_field(self, seat: Seat, key: str, value: str) -> Seat | None:
        if key != "slots":
            return super().read_board_field(seat, key, value)
        slots = tuple(sorted(int(n) for n in value.split(",") if n))
        return dataclasses.replace(seat, corporation_state=dataclasses.replace(state(seat), pod_slots=slots))

    def drawn_objectives(self, seat: Seat) -> tuple[int, ...]:
        return state(seat).shared_offer

    def with_drawn_objectives(self, seat: Seat, cards: tuple[int, ...]) -> Seat:
        return dataclasses.replace(seat, corporation_state=dataclasses.replace(state(seat), shared_offer=cards))

    def has(self, seat: Seat, level: int) -> bool:
        """Whether tech ``level`` (1-6 = A-F) holds a lifepod."""
        return level in pod_slots(seat)

    def tech_level(self, seat: Seat) -> int:
        return len(pod_slots(seat))

    def track_medal(self, seat: Seat, track: Terrain) -> int:
        if track is not Terrain.TECH:
            return super().track_medal(seat, track)
        passed = [s.medal for s in self.spaces(track)[: seat.track(track) + 1] if s.medal]
        return passed[-1] if passed else 0

    def scored_lifepods(self, seat: Seat) -> int:
        return max(0, seat.lifepods_collected - len(pod_slots(seat)))

    def collection_gains(self, seat: Seat, piece: Piece) -> tuple[Benefit, ...]:
        return (Benefit(Kind.LIFEPOD, source=COLLECTED),) if piece is Piece.LIFEPOD else ()

    def lifepod_moves(self, seat: Seat, benefit: Benefit) -> list[tuple[str, str]]:
        if self.scored_lifepods(seat) <= 0:
            return []
        return [(AREA, slot(n)) for n in range(1, SLOTS + 1) if n not in pod_slots(seat)]

    def tech_as_energy(self, seat: Seat) -> bool:
        return self.has(seat, 4)

    def teleport_targets(self, seat: Seat) -> bool:
        """Whether some rover stands on a tile square with another free square of the same terrain."""
        grid = planets()[seat.planet].squares
        for at in seat.rovers:
            if at < 0 or not seat.cover[at]:
                continue
            terrain = terrain_of(seat.cover[at])
            if any(
                s != at and s not in seat.rovers and seat.cover[s] and terrain_of(seat.cover[s]) is terrain
                for s in grid
            ):
                return True
        return False

    def actions(self, seat: Seat, placeable: tuple[int, ...]) -> tuple[int, ...]:
        if seat.stage is not Stage.RESOLVING:
            return ()
        used, once = seat.powers_used, seat.once_used
        out: list[int] = []
        if self.has(seat, 1) and 1 not in used and any(b.kind is Kind.PATCH and not b.final for b in seat.pending):
            out.append(1)
        if self.has(seat, 2) and 2 not in used and seat.moves > 0 and self.teleport_targets(seat):
            out.append(2)
        if self.has(seat, 3) and 3 not in used and self._synergy(seat) is not None:
            out.append(3)
        if self.has(seat, 5) and 5 not in once and any(seat.tracks):
            out.append(5)
        if self.has(seat, 6) and 6 not in once:
            out.append(6)
        return tuple(out)

    def _synergy(self, seat: Seat) -> int | None:
        return next(
            (
                n
                for n, b in enumerate(seat.pending)
                if b.kind is Kind.CHOOSE and b.source == "synergy" and b.steps == 1 and b.count == 1
            ),
            None,
        )

    def use_action(self, seat: Seat, level: int) -> Seat:
        pending = list(seat.pending)
        if level == 1:
            n = next(n for n, b in enumerate(pending) if b.kind is Kind.PATCH and not b.final)
            pending[n] = Benefit(Kind.CHOOSE, source="synergy")
            return dataclasses.replace(seat, pending=tuple(pending))
        if level == 2:
            teleport = Benefit(Kind.TELEPORT, what="terrain")
            return dataclasses.replace(seat, moves=seat.moves - 1, pending=(*seat.pending, teleport))
        if level == 3:
            found = self._synergy(seat)
            assert found is not None
            pending[found] = dataclasses.replace(pending[found], steps=2)
            return dataclasses.replace(seat, pending=tuple(pending))
        if level == 5:
            options = tuple(t for t, p in zip(TRACKS, seat.tracks, strict=True) if p > 0)
            gain = Benefit(Kind.CHOOSE, options=options, source=HEIGHT)
            return dataclasses.replace(seat, pending=(*seat.pending, gain), once_used=(*seat.once_used, 5))
        assert level == 6
        gain = Benefit(Kind.DRAW, what=SHARED)
        return dataclasses.replace(seat, pending=(*seat.pending, gain), once_used=(*seat.once_used, 6))


register(JumpDrive())
