"""Time the enumeration of a tile's legal placements on a half-full Planet Unknown planet.

Run from the repository root: ``python benchmarks/planet_unknown_placements.py``.
Prints, per tile shape, the number of legal placements and the median time to list them.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.planet_unknown import GAME
from domain.planet_unknown.board import placements
from domain.planet_unknown.data import planets, tiles
from domain.planet_unknown.model import State
from domain.planet_unknown.rules import tile_placements


def half_full_state(seed: int = 7) -> State:
    """A one-player game played at random until about half of the planet is covered."""
    rng = random.Random(seed)
    state = GAME.initial(1, {})
    for event in GAME.setup(state, seed.to_bytes(4, "big")):
        state = GAME.evolve(state, event)
    half = len(planets()["ksb-4156"].squares) // 2
    while bin(state.seats[0].covered).count("1") < half or state.seats[0].stage.value != "choosing":
        move = rng.choice(list(GAME.legal_moves(state, 0)))
        for event in GAME.decide(state, 0, move):
            state = GAME.evolve(state, event)
    return state


def main() -> None:
    state = half_full_state()
    covered = bin(state.seats[0].covered).count("1")
    print(f"planet KSB-4156, {covered} of 96 squares covered")
    mask = planets()["ksb-4156"].mask
    for tile in range(12):
        placements(tile, mask)
    worst = 0.0
    for tile in range(12):
        timings = []
        for _ in range(50):
            start = time.perf_counter()
            found = list(tile_placements(state, 0, tile))
            timings.append(time.perf_counter() - start)
        median = statistics.median(timings) * 1000
        worst = max(worst, median)
        print(f"tile {tile:3} {tiles()[tile].shape}: {len(found):4} placements, median {median:.3f} ms")
    start = time.perf_counter()
    for _ in range(20):
        moves = list(GAME.legal_moves(state, 0))
    per_call = (time.perf_counter() - start) / 20 * 1000
    print(f"worst median per tile: {worst:.3f} ms (target < 5 ms)")
    print(f"legal_moves of the seat choosing between its two tiles ({len(moves)} moves): {per_call:.3f} ms")


if __name__ == "__main__":
    main()
