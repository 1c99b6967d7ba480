"""The move path, measured against its floor.

Starts the API under gunicorn against a Redis (the embedded one, or
``REDIS_URL``) and, from one client process over keep-alive HTTP, drives:

* moves of the test game (tic-tac-toe) through ``POST /v1/games/{id}/moves``;
* the floor: an endpoint this script registers itself, which only appends one
  event through the store, with no rules, no fold and no schema;
* the same floor behind the moves' rate limits (per seat token, per address, and the
  bad-token limit of requests that carry a token), sent with a seat's token, counted in
  a round trip of their own: what the limits would cost a move that did not read them
  together with its game, as a move does.

Rounds of all three alternate, so that the machine's noise hits both alike. It
prints moves/s, floor/s, their ratio, the raw appends/s of the store
called from Python with no HTTP at all, and the Redis calls a move makes (seen with ``MONITOR``).

    python benchmarks/move_path.py [--rounds 5] [--per-round 300] [--fsync everysec,always]
"""

from __future__ import annotations

import argparse
import collections
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import redis
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.harness import bench_redis, gunicorn  # noqa: E402

SQUARES = ("a1", "a2", "b1", "b2", "c1")


def bench_app() -> Any:
    """The API plus the floor endpoint; gunicorn loads this."""
    from flask import jsonify

    from api.limits import address_key, token_key
    from app import create_app
    from events.envelope import seal

    app = create_app()
    store = app.extensions["orrery.service"].store

    @app.post("/bench/append/<game_id>")
    def append_only(game_id: str) -> Any:
        meta = store.meta(game_id)
        envelope = seal(
            meta.hash,
            game_id=game_id,
            version=meta.version + 1,
            type="Ticked",
            seat=None,
            payload={"n": meta.version},
            visible_to=None,
            redacted={},
            recorded_at=time.time_ns() // 1_000_000,
            event_id=uuid.uuid4().hex,
            rules_version=meta.rules_version,
        )
        appended = store.append(game_id, meta.version, meta.hash, [envelope], game=meta.game)
        return jsonify({"version": appended.last}), 201

    settings = app.extensions["orrery.settings"]
    rates = app.extensions["orrery.rate_limits"]
    app.add_url_rule("/bench/append-limited/<game_id>", "append_limited", append_only, methods=["POST"])
    rates.limit("append_limited", settings.limit_moves, token_key)
    rates.limit("append_limited", settings.limit_moves_per_address, address_key)
    return app


def drive_moves(http: requests.Session, url: str, count: int) -> float:
    """Seconds spent on ``count`` move requests (game creation is not timed)."""
    spent = 0.0
    done = 0
    while done < count:
        game = http.post(f"{url}/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]}).json()
        tokens = {s["index"]: s["token"] for s in game["seats"]}
        seat = game["to_act"][0]
        for square in SQUARES[: count - done]:
            started = time.perf_counter()
            response = http.post(
                f"{url}/v1/games/{game['id']}/moves",
                json={"move": square},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            spent += time.perf_counter() - started
            assert response.status_code == 201, response.text
            seat = 1 - seat
            done += 1
    return spent


def drive_floor(http: requests.Session, url: str, game_id: str, count: int, token: str | None = None) -> float:
    """Seconds spent on ``count`` floor appends; with a ``token``, through the moves' rate limits as a seat."""
    path, headers = ("append-limited", {"Authorization": f"Bearer {token}"}) if token else ("append", {})
    started = time.perf_counter()
    for _ in range(count):
        response = http.post(f"{url}/bench/{path}/{game_id}", headers=headers)
        assert response.status_code == 201, response.text
    return time.perf_counter() - started


def calls_per_move(redis_url: str, http: requests.Session, url: str, games: int = 10) -> collections.Counter[str]:
    """The commands the API sends Redis for one move, on average (by name), seen with ``MONITOR``: each move
    is bracketed by two ``ECHO`` marks sent from here, and the commands that scripts run inside Redis are
    not counted (they are no round trips)."""
    client = redis.Redis.from_url(redis_url)
    seen: list[dict[str, Any]] = []
    ready = threading.Event()

    def watch() -> None:
        with client.monitor() as monitor:
            ready.set()
            for command in monitor.listen():
                seen.append(command)
                if command["command"] == "ECHO orrery-bench-done":
                    return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    ready.wait(5)
    marks = redis.Redis.from_url(redis_url)
    marks.echo("orrery-bench-start")
    moves = 0
    for _ in range(games):
        game = http.post(f"{url}/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]}).json()
        tokens = {s["index"]: s["token"] for s in game["seats"]}
        seat = game["to_act"][0]
        for square in SQUARES:
            marks.echo("orrery-bench-move")
            response = http.post(
                f"{url}/v1/games/{game['id']}/moves",
                json={"move": square},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            assert response.status_code == 201, response.text
            marks.echo("orrery-bench-moved")
            seat, moves = 1 - seat, moves + 1
    marks.echo("orrery-bench-done")
    watcher.join(10)
    counted: collections.Counter[str] = collections.Counter()
    inside = False
    for command in seen:
        text = command["command"]
        if text in ("ECHO orrery-bench-move", "ECHO orrery-bench-moved"):
            inside = text.endswith("move")
        elif inside and command["client_type"] != "lua":
            counted[text.split(" ", 1)[0].upper()] += 1
    return collections.Counter({name: n / moves for name, n in counted.items()})


def raw_appends(redis_url: str, namespace: str, count: int) -> float:
    """Appends per second of the store itself, from Python."""
    from events.envelope import GENESIS_HASH, seal
    from events.keys import Keyspace
    from events.store import RedisStore

    store = RedisStore(redis.Redis.from_url(redis_url), Keyspace(namespace))
    game_id = uuid.uuid4().hex[:16]

    def envelope(previous: str, version: int) -> Any:
        return seal(
            previous,
            game_id=game_id,
            version=version,
            type="Ticked",
            seat=None,
            payload={"n": version},
            visible_to=None,
            redacted={},
            recorded_at=0,
            event_id=uuid.uuid4().hex,
            rules_version="bench-1",
        )

    first = envelope(GENESIS_HASH, 1)
    store.create(game_id, "bench", "bench-1", [first], seed=b"", tokens={}, created_ms=0)
    previous = first.hash
    started = time.perf_counter()
    for version in range(2, count + 2):
        env = envelope(previous, version)
        store.append(game_id, version - 1, previous, [env], game="bench")
        previous = env.hash
    return count / (time.perf_counter() - started)


def measure(target: Any, rounds: int, per_round: int) -> float:
    """Print one measurement against ``target``; return the moves/s."""
    with gunicorn(target, "benchmarks.move_path:bench_app()", threads=4) as url:
        http = requests.Session()
        floor_game = http.post(f"{url}/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]})
        floor_id, seat_token = floor_game.json()["id"], floor_game.json()["seats"][0]["token"]
        drive_moves(http, url, 50)
        drive_floor(http, url, floor_id, 50)
        drive_floor(http, url, floor_id, 50, seat_token)
        move_time = floor_time = limited_time = 0.0
        for _ in range(rounds):
            move_time += drive_moves(http, url, per_round)
            floor_time += drive_floor(http, url, floor_id, per_round)
            limited_time += drive_floor(http, url, floor_id, per_round, seat_token)
        total = rounds * per_round
        moves_per_s = total / move_time
        floor_per_s = total / floor_time
        limited_per_s = total / limited_time
        raw = raw_appends(target.url, target.namespace, total)
        calls = calls_per_move(target.url, http, url)
        setting = f"{target.where}; gunicorn 2 workers x 4 threads; one client; {total} requests each"
        print(f"move path benchmark ({setting})")
        print(f"  moves through the API:      {moves_per_s:8.0f} moves/s  ({1000 / moves_per_s:.2f} ms each)")
        print(f"  floor (append only, HTTP):  {floor_per_s:8.0f} appends/s ({1000 / floor_per_s:.2f} ms each)")
        print(f"  ratio moves / floor:        {moves_per_s / floor_per_s:8.2f}")
        print(f"  floor with the rate limits: {limited_per_s:8.0f} appends/s ({1000 / limited_per_s:.2f} ms each)")
        print(f"  ratio moves / that floor:   {moves_per_s / limited_per_s:8.2f}")
        print(f"  raw store appends (Python): {raw:8.0f} appends/s ({1000 / raw:.3f} ms each)")
        named = ", ".join(f"{name} {n:.2f}" for name, n in calls.most_common())
        print(f"  Redis calls per move:       {sum(calls.values()):8.2f}  ({named})")
    return moves_per_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per-round", type=int, default=300)
    parser.add_argument(
        "--fsync",
        default="",
        help="compare the embedded Redis with its append-only file under these fsync modes, "
        "e.g. everysec,always (the ratio of the last to the first is printed)",
    )
    args = parser.parse_args()
    modes = [m for m in args.fsync.split(",") if m]
    if not modes:
        with bench_redis() as target:
            measure(target, args.rounds, args.per_round)
        return
    rates = {}
    for mode in modes:
        with bench_redis(fsync=mode) as target:
            rates[mode] = measure(target, args.rounds, args.per_round)
    first, last = modes[0], modes[-1]
    print(f"fsync {last} / fsync {first}: {rates[last] / rates[first]:.2f} of the moves/s")


if __name__ == "__main__":
    main()
