"""Legal placements: the fast mask enumeration against a plain square-by-square oracle,
``decide`` against ``legal_moves``, and pinned counts in ``placements.txt``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import GAME
from domain.planet_unknown.board import ROTATIONS, footprint, neighbours
from domain.planet_unknown.data import planets
from domain.planet_unknown.model import Stage, State
from domain.planet_unknown.moves import Place, parse_move
from domain.planet_unknown.powers import tech_level
from domain.planet_unknown.rules import offered, tile_placements

from .helpers import offer, start, with_seat

PINNED = Path(__file__).with_name("placements.txt")


def picture(tile: int, anchor: int, rotation: int, flip: bool) -> frozenset[tuple[int, str, bool, bool]] | None:
    cells = footprint(tile, anchor, rotation, flip)
    if cells is None:
        return None
    return frozenset((s, c.terrain.value, c.icon, c.meteor) for s, c in cells.items())


def oracle(state: State, seat_index: int, tile: int) -> set[frozenset[tuple[int, str, bool, bool]]]:
    """Every legal placement, checked square by square from the rules text."""
    seat = state.seats[seat_index]
    planet = planets()[seat.planet]
    covered = {s for s, x in enumerate(seat.cover) if x}
    out = set()
    for anchor in range(144):
        for rotation in ROTATIONS:
            for flip in (False, True):
                cells = footprint(tile, anchor, rotation, flip)
                if cells is None or not set(cells) <= planet.squares or set(cells) & covered:
                    continue
                if tech_level(seat) >= 1:
                    ok = True
                elif not covered:
                    ok = bool(set(cells) & planet.edge)
                else:
                    ok = any(n in covered for s in cells for n in neighbours(s))
                if ok:
                    out.add(frozenset((s, c.terrain.value, c.icon, c.meteor) for s, c in cells.items()))
    return out


def choosing_states() -> list[State]:
    out = []
    for players, seed in ((1, 1), (2, 2), (4, 3)):
        rng = random.Random(seed)
        state = start(players, b"legal-%d" % seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            if state.seats[seat].stage is Stage.CHOOSING and rng.random() < 0.3:
                out.append(state)
            for event in GAME.decide(state, seat, rng.choice(list(GAME.legal_moves(state, seat)))):
                state = GAME.evolve(state, event)
    return out


STATES = choosing_states()


def test_mask_enumeration_matches_the_oracle() -> None:
    for state in STATES:
        seat = min(i for i, s in enumerate(state.seats) if s.stage is Stage.CHOOSING)
        for tile in offered(state, seat):
            fast = [picture(tile, a, r, f) for a, r, f in tile_placements(state, seat, tile)]
            assert len(fast) == len(set(fast)), "each distinct placement is listed once"
            assert set(fast) == oracle(state, seat, tile)


def test_decide_accepts_exactly_the_listed_placements() -> None:
    for state in STATES[:: max(1, len(STATES) // 4)]:
        seat = min(i for i, s in enumerate(state.seats) if s.stage is Stage.CHOOSING)
        listed = set()
        for raw in GAME.legal_moves(state, seat):
            move = parse_move(raw)
            if isinstance(move, Place):
                assert move.tile is not None and move.square is not None
                listed.add(picture(move.tile, move.square, move.rotation, move.flip))
        accepted = set()
        for tile in offered(state, seat):
            for anchor in range(144):
                for rotation in ROTATIONS:
                    for flip in (False, True):
                        move = Place(tile=tile, square=anchor, rotation=rotation, flip=flip)
                        try:
                            GAME.decide(state, seat, move.to_json())
                        except IllegalMoveError:
                            continue
                        accepted.add(picture(tile, anchor, rotation, flip))
        assert accepted == listed


def pinned() -> list[tuple[str, int, int]]:
    rows = []
    for line in PINNED.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            position, tile, count = (part.strip() for part in line.split("|"))
            rows.append((position, int(tile), int(count)))
    return rows


@pytest.mark.parametrize(("position", "tile", "count"), pinned())
def test_pinned_placement_counts(position: str, tile: int, count: int) -> None:
    state = offer(with_seat(start(1), 0, position), 0, tile)
    assert len(list(tile_placements(state, 0, tile))) == count
    assert len(oracle(state, 0, tile)) == count
