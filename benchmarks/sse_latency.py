"""How long an event takes from its append to an SSE client.

Starts the API under gunicorn against a Redis (embedded, or ``REDIS_URL``),
follows a game of the test game over ``GET /v1/games/{id}/stream`` from a
reader thread, and makes moves over HTTP from another. For every event it
takes the time between the append (the envelope's ``recorded_at``, written
by the server in the same request) and the moment the reader parsed the
event. Both clocks are this machine's. Prints the median, p95 and max.

    python benchmarks/sse_latency.py [--games 40]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.harness import bench_redis, gunicorn  # noqa: E402
from benchmarks.move_path import SQUARES  # noqa: E402


def follow(url: str, latencies: list[float], stop: threading.Event) -> None:
    with contextlib.suppress(requests.RequestException), requests.get(url, stream=True, timeout=60) as response:
        for line in response.iter_lines(decode_unicode=True):
            if line.startswith("data: "):
                received = time.time()
                event = json.loads(line[6:])
                if "recorded_at" in event and event["type"] != "GameCreated":
                    latencies.append(received * 1000 - event["recorded_at"])
            if stop.is_set() or line.startswith("event: end"):
                return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    latencies: list[float] = []
    with bench_redis() as target, gunicorn(target) as url:
        http = requests.Session()
        for _ in range(args.games):
            body = {"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": {"secret_squares": False}}
            game = http.post(f"{url}/v1/games", json=body).json()
            stop = threading.Event()
            stream = f"{url}/v1/games/{game['id']}/stream?after=2"
            reader = threading.Thread(target=follow, args=(stream, latencies, stop))
            reader.start()
            time.sleep(0.05)
            tokens = {s["index"]: s["token"] for s in game["seats"]}
            seat = game["to_act"][0]
            for square in SQUARES:
                http.post(
                    f"{url}/v1/games/{game['id']}/moves",
                    json={"move": square},
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                )
                seat = 1 - seat
                time.sleep(0.01)
            stop.set()
            http.post(
                f"{url}/v1/games/{game['id']}/moves",
                json={"move": "resign"},
                headers={"Authorization": f"Bearer {tokens[0]}"},
            )
            reader.join(timeout=5)
        ordered = sorted(latencies)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        print(f"SSE delivery latency, append to client ({target.where}; {len(ordered)} events, {args.games} games)")
        print(f"  median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms, max {ordered[-1]:.1f} ms")
        print("  (recorded_at has millisecond resolution, so figures carry about 1 ms of rounding)")


if __name__ == "__main__":
    main()
