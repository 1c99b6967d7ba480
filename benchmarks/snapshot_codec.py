"""Snapshot encode and decode time of Planet Unknown records.

Plays one Planet Unknown game between random bots (six seats by default, asymmetric planets and
corporations, events and private objectives on) and, at every version, encodes the record as the
service's snapshot (canonical JSON through :mod:`events.codec`) and decodes it again. Prints the
mean, median and slowest encode, decode and round trip, and the snapshot's size.

    python benchmarks/snapshot_codec.py [--seats 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain import contract  # noqa: E402
from domain.planet_unknown import GAME  # noqa: E402
from domain.table.record import GameCreated, Record  # noqa: E402
from domain.table.seats import rules_options, split_options  # noqa: E402
from service import snapshots  # noqa: E402


def records(seats: int, seed: int) -> list[Record]:
    """Every record of one game, as the service folds it (the service's own fields filled in)."""
    raw = {"asymmetric_planets": True, "asymmetric_corporations": True, "events": True, "private_objectives": True}
    options = split_options(GAME, raw)
    created = GameCreated(
        game=GAME.name,
        rules_version=GAME.rules_version,
        seats=tuple({"name": f"P{i}", "bot": None} for i in range(seats)),
        options=options,
        seed_sha256="0" * 64,
        setup_events=0,
    )
    rng = random.Random(seed)
    state = GAME.initial(seats, rules_options(options))
    states = [state]
    for event in GAME.setup(state, rng.randbytes(32)):
        state = GAME.evolve(state, event)
        states.append(state)
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        move = GAME.bots["random"](contract.seat_view(GAME, state, seat), seat, rng, 0)
        for event in GAME.decide(state, seat, move):
            state = GAME.evolve(state, event)
            states.append(state)
    return [
        Record("bench", GAME, v, "0" * 64, created, 0, 0, s, GAME.outcome(s)) for v, s in enumerate(states, start=1)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    contract.register(GAME)
    played = records(args.seats, args.seed)
    encode_ms, decode_ms, sizes = [], [], []
    for record in played:
        started = time.perf_counter()
        snapshot = snapshots.encode(record)
        encoded = time.perf_counter()
        back = snapshots.decode(snapshot, "bench")
        decode_ms.append((time.perf_counter() - encoded) * 1000)
        encode_ms.append((encoded - started) * 1000)
        sizes.append(len(snapshot.state))
        assert back == record
    both = [e + d for e, d in zip(encode_ms, decode_ms, strict=True)]
    print(f"planet unknown, {args.seats} seats, {len(played)} versions")
    for name, values in (("encode", encode_ms), ("decode", decode_ms), ("round trip", both)):
        print(
            f"  {name:<10} mean {statistics.mean(values):.2f} ms  median {statistics.median(values):.2f} ms"
            f"  max {max(values):.2f} ms"
        )
    print(f"  size       mean {statistics.mean(sizes) / 1024:.1f} KiB  max {max(sizes) / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
