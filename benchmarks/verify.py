"""How long ``verify`` takes on long games.

Plays, through the service and into a real Redis (embedded, or ``REDIS_URL``):

* a 6-seat Planet Unknown game of ``random`` bots, to its end;
* the longest Homeworlds game of the SuperDuperGames corpus (when
  ``../shared`` is there), replayed turn by turn in SDG notation.

Then times ``GameService.verify`` (hash chain, every move decided again, the
deal derived from the seed) against a plain fold of the same events, both
with no cache, and prints both and their ratio.

    python benchmarks/verify.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import Settings, load_games  # noqa: E402
from benchmarks.harness import bench_redis  # noqa: E402
from events.keys import Keyspace  # noqa: E402
from events.store import RedisStore  # noqa: E402
from service.games import GameService, SeatSpec  # noqa: E402


def planet_unknown_game(service: GameService) -> str:
    seats = [SeatSpec(f"Bot{i}", {"builtin": "random", "think_ms": 1}) for i in range(6)]
    game_id = service.create("planet-unknown", seats, {}, b"verify-benchmark").record.game_id
    while not (record := service.head(game_id)).over:
        for seat in sorted(record.game.to_act(record.state)):
            service.bot_move(game_id, seat, record.version)
            break
    service.score(game_id)
    return game_id


def homeworlds_game(service: GameService) -> str | None:
    shared = (
        Path(os.environ.get("ORRERY_SHARED", ROOT.parent / "shared")) / "reference" / "homeworlds" / "games" / "sdg"
    )
    if not shared.is_dir():
        return None
    longest = max(
        shared.glob("*.txt"),
        key=lambda p: sum(1 for line in p.read_text().splitlines() if line and not line.startswith("#")),
    )
    turns = [line for line in longest.read_text().splitlines() if line.strip() and not line.startswith("#")]
    game_id = service.create(
        "homeworlds", [SeatSpec("North"), SeatSpec("South")], {"allow_pass_before_setup": True}
    ).record.game_id
    for turn in turns:
        record = service.head(game_id)
        if record.over:
            break
        service.submit(game_id, next(iter(record.game.to_act(record.state))), turn)
    service.score(game_id)
    print(f"  (Homeworlds: {longest.name}, {len(turns)} turns)")
    return game_id


def timed(label: str, service: GameService, game_id: str) -> None:
    envelopes = service.store.read(game_id)
    started = time.perf_counter()
    verdict = service.verify(game_id)
    verify_s = time.perf_counter() - started
    started = time.perf_counter()
    GameService(service.store)._fold(None, service.store.read(game_id))
    fold_s = time.perf_counter() - started
    print(
        f"  {label}: {len(envelopes)} events; verify {verify_s * 1000:.0f} ms ({verdict.seed}, "
        f"{'ok' if verdict.ok else verdict}); plain fold {fold_s * 1000:.0f} ms; ratio {verify_s / fold_s:.1f}"
    )


def main() -> None:
    load_games(Settings.from_env())
    with bench_redis() as target:
        service = GameService(RedisStore(redis.Redis.from_url(target.url), Keyspace(target.namespace)))
        print(f"verify on long games ({target.where})")
        timed("Planet Unknown, 6 random bots", service, planet_unknown_game(service))
        hw = homeworlds_game(service)
        if hw is None:
            print("  Homeworlds: skipped, ../shared is not there")
        else:
            timed("Homeworlds, longest SDG game", service, hw)


if __name__ == "__main__":
    main()
