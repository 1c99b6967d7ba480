"""Ordinary requests while many live streams are open, and a bad-token flood.

Starts the API as ``orrery up`` runs it (``app.gunicorn_command``: 2 gevent
workers) against a Redis (embedded, or ``REDIS_URL``), creates a few games of
the test game, and times ordinary reads, each on a new connection
(``GET /v1/games/{id}`` and ``/events``) first with no stream open, then with
``--streams`` SSE streams open on those games (bare sockets, heartbeat every
second). It prints p50 and p99 of both and their ratio. Then it sends
``--flood`` requests with made-up tokens from one address, under the default
bad-token limit, and counts the answers by status.

With ``--also-gthread`` it runs the same with the old server (2 workers x 16
threads), where each stream holds a thread, and counts the ordinary requests
that got no answer within ``--timeout`` seconds.

    python benchmarks/stream_load.py [--streams 60] [--requests 300] [--flood 200] [--also-gthread]
"""

from __future__ import annotations

import argparse
import collections
import socket
import statistics
import sys
import time
import uuid
from pathlib import Path

import redis
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import Settings  # noqa: E402
from benchmarks.harness import BenchRedis, bench_redis, gunicorn  # noqa: E402

TWO_SEATS = {"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": {"secret_squares": False}}


def open_stream(url: str, path: str) -> socket.socket:
    host, _, port = url.removeprefix("http://").partition(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    return sock


def wait_started(sock: socket.socket, timeout: float) -> bool:
    data = b""
    deadline = time.monotonic() + timeout
    while b"retry: 2000" not in data and time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            return False
        if not chunk:
            return False
        data += chunk
    return b"retry: 2000" in data


def timed_reads(url: str, games: list[str], count: int, timeout: float) -> tuple[list[float], int]:
    """Latencies (ms) of ``count`` ordinary reads, and how many got no answer within ``timeout``.

    Each read opens a connection of its own, as a new client would, so that reads
    land on every server process and not on one kept-alive connection's.
    """
    latencies: list[float] = []
    unanswered = 0
    for i in range(count):
        game = games[i % len(games)]
        path = f"/v1/games/{game}" if i % 2 == 0 else f"/v1/games/{game}/events"
        started = time.perf_counter()
        try:
            response = requests.get(f"{url}{path}", timeout=timeout)
            response.raise_for_status()
        except requests.RequestException:
            unanswered += 1
            continue
        latencies.append((time.perf_counter() - started) * 1000)
    return latencies, unanswered


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def describe(values: list[float]) -> str:
    if not values:
        return "no answers"
    return f"p50 {statistics.median(values):6.2f} ms, p99 {percentile(values, 0.99):7.2f} ms"


def run(target: BenchRedis, args: argparse.Namespace, worker_class: str) -> None:
    env = {
        "ORRERY_STREAMS_PER_ADDRESS": str(args.streams + 10),
        "ORRERY_STREAMS_PER_GAME": str(args.streams + 10),
        "ORRERY_LIMIT_BAD_TOKEN": args.bad_token_limit,
        "ORRERY_NAMESPACE": f"{target.namespace}-{worker_class}",
        "ORRERY_QUEUE": f"{target.namespace}-{worker_class}",
    }
    label = "gevent (orrery up)" if worker_class == "gevent" else "gthread, 2 workers x 16 threads"
    with gunicorn(target, worker_class=worker_class, env=env) as url:
        http = requests.Session()
        games = [http.post(f"{url}/v1/games", json=TWO_SEATS, timeout=10).json()["id"] for _ in range(3)]
        count = args.requests if worker_class == "gevent" else min(args.requests, 10)
        timed_reads(url, games, 30, args.timeout)
        quiet, _ = timed_reads(url, games, count, args.timeout)
        sockets = [open_stream(url, f"/v1/games/{games[i % 3]}/stream?heartbeat=1") for i in range(args.streams)]
        try:
            started = sum(wait_started(s, 2.0 if worker_class == "gevent" else 0.5) for s in sockets)
            loaded, unanswered = timed_reads(url, games, count, args.timeout)
        finally:
            for s in sockets:
                s.close()
        print(f"\n{label}; {target.where}")
        print(f"  ordinary reads, no stream open:       {describe(quiet)}  ({len(quiet)} requests)")
        print(
            f"  ordinary reads, {args.streams} streams requested, {started} started: {describe(loaded)}"
            f"  ({len(loaded)} answered, {unanswered} unanswered within {args.timeout:g} s)"
        )
        if quiet and loaded:
            p50 = statistics.median(loaded) / statistics.median(quiet)
            p99 = percentile(loaded, 0.99) / percentile(quiet, 0.99)
            print(f"  with streams / without: p50 x{p50:.2f}, p99 x{p99:.2f}")
        if worker_class == "gevent":
            flood(http, url, games[0], args)
    drop(target.url, env["ORRERY_NAMESPACE"])


def drop(url: str, namespace: str) -> None:
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(f"{namespace}:*", count=1000))
    for i in range(0, len(keys), 500):
        client.unlink(*keys[i : i + 500])


def flood(http: requests.Session, url: str, game: str, args: argparse.Namespace) -> None:
    statuses: collections.Counter[int] = collections.Counter()
    started = time.perf_counter()
    for _ in range(args.flood):
        token = uuid.uuid4().hex
        response = http.get(f"{url}/v1/games/{game}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        statuses[response.status_code] += 1
    elapsed = time.perf_counter() - started
    counts = ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items()))
    print(f"  bad-token flood of {args.flood} requests (limit {args.bad_token_limit} per address): {counts}")
    print(f"    in {elapsed:.2f} s; {statuses[429]} refused with 429")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=60)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--flood", type=int, default=200)
    parser.add_argument("--bad-token-limit", default=Settings.from_env({}).limit_bad_token)
    parser.add_argument("--timeout", type=float, default=3.0)
    parser.add_argument("--also-gthread", action="store_true")
    args = parser.parse_args()
    with bench_redis() as target:
        run(target, args, "gevent")
        if args.also_gthread:
            run(target, args, "gthread")


if __name__ == "__main__":
    main()
