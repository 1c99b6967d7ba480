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
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import redis
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.move_path import SQUARES, wait_until_up  # noqa: E402


def follow(url: str, latencies: list[float], stop: threading.Event) -> None:
    with requests.get(url, stream=True, timeout=60) as response:
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
    from events.embedded import EmbeddedRedis, free_port

    namespace = f"orrery-bench-{uuid.uuid4().hex[:6]}"
    tmp = tempfile.TemporaryDirectory()
    redis_url = os.environ.get("REDIS_URL")
    embedded = None
    if not redis_url:
        embedded = EmbeddedRedis(Path(tmp.name) / "redis", persistent=False).start()
        redis_url = embedded.url
    port = free_port()
    env = os.environ | {
        "REDIS_URL": redis_url,
        "ORRERY_NAMESPACE": namespace,
        "ORRERY_QUEUE": namespace,
        "ORRERY_GAMES": "tests.support.tictactoe:GAME",
        "PYTHONPATH": str(ROOT),
    }
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--threads",
            "16",
            "--log-level",
            "warning",
            "app:create_app()",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    latencies: list[float] = []
    try:
        wait_until_up(url, server)
        http = requests.Session()
        for _ in range(args.games):
            game = http.post(
                f"{url}/v1/games",
                json={
                    "game": "tictactoe",
                    "seats": [{"name": "a"}, {"name": "b"}],
                    "options": {"secret_squares": False},
                },
            ).json()
            stop = threading.Event()
            reader = threading.Thread(
                target=follow, args=(f"{url}/v1/games/{game['id']}/stream?after=2", latencies, stop)
            )
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
        where = "embedded Redis" if embedded else redis_url
        print(f"SSE delivery latency, append to client ({where}; {len(ordered)} events, {args.games} games)")
        print(f"  median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms, max {ordered[-1]:.1f} ms")
        print("  (recorded_at has millisecond resolution, so figures carry about 1 ms of rounding)")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(f"{namespace}:*", count=1000))
        for i in range(0, len(keys), 500):
            client.unlink(*keys[i : i + 500])
        if embedded is not None:
            embedded.stop()
        tmp.cleanup()


if __name__ == "__main__":
    main()
