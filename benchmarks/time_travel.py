"""Time travel: the latency of a past state late in a long game against one early in it.

Plays a long Homeworlds game through the service against a Redis (the embedded one, or
``REDIS_URL``): the opening of a real SuperDuperGames game from the reference pack (when
``$ORRERY_SHARED`` or ``../shared`` is there), then passes until the game is past ``--far``.
Then it reads ``GameService.state_at`` (what ``GET /v1/games/{id}/state?at=N`` serves) at
version ``--near`` and at ``--far``, in alternating rounds so that the machine's noise hits
both alike, and prints each median, their ratio, the worst case (the version just below the
next snapshot) and the memory the game's snapshots take.

    python benchmarks/time_travel.py [--near 10] [--far 1000] [--rounds 9] [--per-round 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.harness import bench_redis  # noqa: E402

SHARED = Path(os.environ.get("ORRERY_SHARED") or ROOT.parent / "shared")
OPENING = SHARED / "reference" / "homeworlds" / "games" / "sdg" / "sdg-34234.txt"
OPENING_PLIES = 150
HOMEWORLDS = ("homeworld r1 b2 g3 North", "homeworld y1 b3 g3 South")


def opening() -> tuple[list[str], str]:
    """The turns to open with, and where they come from."""
    if OPENING.exists():
        lines = [x.strip() for x in OPENING.read_text().splitlines() if x.strip() and not x.startswith("#")]
        return lines[:OPENING_PLIES], f"{OPENING_PLIES} plies of {OPENING.name}, then passes"
    return list(HOMEWORLDS), "homeworlds, then passes (no reference pack)"


def play_long_game(service: object, past: int) -> tuple[str, str]:
    """A running Homeworlds game past version ``past``; its id and how it was played."""
    from service.games import GameService, SeatSpec

    assert isinstance(service, GameService)
    turns, origin = opening()
    record = service.create("homeworlds", [SeatSpec("North"), SeatSpec("South")], {}).record
    for turn in turns:
        record = service.submit(record.game_id, next(iter(record.game.to_act(record.state))), turn).record
    while record.version <= past:
        record = service.submit(record.game_id, next(iter(record.game.to_act(record.state))), "pass").record
    return record.game_id, origin


def timed(service: object, game_id: str, version: int, count: int) -> float:
    """Seconds per ``state_at`` of seat 0 at ``version``."""
    from service.games import GameService

    assert isinstance(service, GameService)
    started = time.perf_counter()
    for _ in range(count):
        assert service.state_at(game_id, 0, version)[0] == version
    return (time.perf_counter() - started) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--near", type=int, default=10)
    parser.add_argument("--far", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--per-round", type=int, default=20)
    parser.add_argument("--snapshot-every", type=int, default=50)
    args = parser.parse_args()

    from app import Settings, load_games
    from events.keys import Keyspace
    from events.store import RedisStore
    from service.games import GameService

    with bench_redis() as target:
        load_games(Settings.from_env({"REDIS_URL": target.url}))
        store = RedisStore(redis.Redis.from_url(target.url), Keyspace(target.namespace))
        writer = GameService(store, snapshot_every=args.snapshot_every)
        worst = (args.far // args.snapshot_every + 1) * args.snapshot_every - 1
        game_id, origin = play_long_game(writer, worst + 1)
        reader = GameService(store, snapshot_every=args.snapshot_every)
        for version in (args.near, args.far, worst):
            timed(reader, game_id, version, 3)
        near: list[float] = []
        far: list[float] = []
        ratios: list[float] = []
        for n in range(args.rounds):
            order = (args.near, args.far) if n % 2 == 0 else (args.far, args.near)
            spent = {v: timed(reader, game_id, v, args.per_round) for v in order}
            near.append(spent[args.near])
            far.append(spent[args.far])
            ratios.append(spent[args.far] / spent[args.near])
        worst_s = statistics.median(timed(reader, game_id, worst, args.per_round) for _ in range(3))

        k = store.keys.game(game_id)
        count = store.redis.zcard(k.snapshots) + (1 if store.redis.exists(k.snapshot) else 0)
        memory = sum(store.redis.memory_usage(key) or 0 for key in (k.snapshots, k.snapshot_states, k.snapshot))
        events = store.redis.memory_usage(k.events) or 0
        head = reader.head(game_id).version

        print(f"time travel benchmark ({target.where}; Homeworlds, {origin}; {head} versions)")
        print(
            f"  state?at={args.near:<5}              {statistics.median(near) * 1000:7.2f} ms (median of {args.rounds})"
        )
        print(f"  state?at={args.far:<5}              {statistics.median(far) * 1000:7.2f} ms")
        print(f"  ratio far / near:           {statistics.median(ratios):7.2f} (median of the rounds' ratios)")
        print(f"  state?at={worst:<5} (worst case) {worst_s * 1000:7.2f} ms")
        print(
            f"  snapshots: {count}, {memory:,} bytes in Redis ({memory // max(count, 1):,} per snapshot); "
            f"the events take {events:,}"
        )


if __name__ == "__main__":
    main()
