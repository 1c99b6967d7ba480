"""Thousands of live viewers: every event to every client, and ordinary requests beside them.

Starts the API as ``orrery up`` runs it (``app.gunicorn_command``: gevent workers)
against a Redis (embedded, or ``REDIS_URL``) with the rate limits and stream caps
lifted, creates twice ``--games`` games of the test game, and times ordinary reads
(``GET /v1/games/{id}`` and ``/events``, each on a new connection) on the idle server.
Then it plays ``--moves`` moves in each game of the first half (another process,
over HTTP, at ``--rate`` moves/s in all) with no stream open, timing the same reads:
the baseline. Then one asyncio process opens ``--clients`` SSE streams spread evenly
over the second half (bare sockets, resuming after the deal) and the same moves are
played there while the reads are timed again. The API's CPU seconds and Redis's
command count are taken over both phases.

For each event a client receives, the latency runs from the append (the event's
``recorded_at``, in milliseconds, written by the server; the same machine's
clock) to the moment the client parsed it. Each client checks that versions
arrive once, in order, with no gap. It prints the clients connected, the events
expected and received, p50/p99 latency, the ordinary reads' p50/p99 with and
without streams and their ratio, and the number of API processes.

``--design per-client`` serves the streams as they were served before the hub:
each stream reads the head, the visible version and the events itself, and
blocks on an XREAD of its own connection.

    python benchmarks/stream_fanout.py [--clients 2000] [--games 200] [--moves 9] [--rate 100] [--design hub]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import statistics
import sys
import threading
import time
from collections.abc import Generator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import redis
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.harness import bench_redis, gunicorn  # noqa: E402
from benchmarks.stream_load import describe, percentile, timed_reads  # noqa: E402

TWO_SEATS = {"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": {"secret_squares": False}}
DRAW = ("a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2")
"""Nine moves of tic-tac-toe that end in a draw, whoever starts."""

API_PROCESSES = 2
"""The gevent workers ``app.gunicorn_command`` starts by default (one per core here)."""


def per_client_events(
    svc: Any, game_id: str, viewer: Any, after: int, heartbeat_s: int, hub: Any = None
) -> Generator[str, None, None]:
    """The stream before the hub: every client polls the head and blocks on an XREAD of its own."""
    from events.envelope import canonical

    yield "retry: 2000\n\n"
    last_output = time.monotonic()
    while True:
        head = svc.head(game_id)
        limit = svc.visible(game_id, viewer).version
        if limit > after:
            for envelope in svc.store.read(game_id, after=after, upto=limit):
                data = canonical(svc.project(head, envelope, viewer))
                yield f"id: {envelope.version}\nevent: {envelope.type}\ndata: {data}\n\n"
                after = envelope.version
            last_output = time.monotonic()
        if head.over and head.scored is not None and after >= head.version:
            yield f"event: end\ndata: {canonical({'version': head.version})}\n\n"
            return
        idle = time.monotonic() - last_output
        svc.store.wait(game_id, after=head.version, block_ms=max(1, int((heartbeat_s - idle) * 1000)))
        if time.monotonic() - last_output >= heartbeat_s:
            yield ": heartbeat\n\n"
            last_output = time.monotonic()


def per_client_app() -> Any:
    """The API with the per-client streams; gunicorn loads this for ``--design per-client``."""
    import api.live
    from app import create_app

    api.live.game_events = per_client_events
    return create_app()


# --- the SSE clients: one asyncio process ------------------------------------------------


class Tally:
    """What the clients saw: connections, events in order, anomalies and latencies (ms)."""

    def __init__(self) -> None:
        self.connected = 0
        self.received = 0
        self.out_of_order = 0
        self.latencies: list[float] = []


async def watch(
    host: str, port: int, game: str, after: int, tally: Tally, ready: asyncio.Event, final: dict[str, int]
) -> None:
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        ready.set()
        return
    request = f"GET /v1/games/{game}/stream?after={after}&heartbeat=15 HTTP/1.0\r\nHost: {host}:{port}\r\n\r\n"
    writer.write(request.encode())
    version = 0
    try:
        if b" 200 " not in await reader.readline():
            return
        while line := await reader.readline():
            if line.startswith(b"data: "):
                received_ms = time.time() * 1000
                event = json.loads(line[6:])
                tally.latencies.append(received_ms - event["recorded_at"])
                if version == after + 1:
                    tally.received += 1
                else:
                    tally.out_of_order += 1
                after = max(after, version)
                if final and after >= final[game]:
                    return
            elif line.startswith(b"id: "):
                version = int(line[4:])
            elif line.startswith(b"retry: "):
                tally.connected += 1
                ready.set()
    except OSError:
        return
    finally:
        ready.set()
        writer.close()


def clients(url: str, plan: list[tuple[str, int]], control: Connection, niceness: int = 0) -> None:
    """Open one stream per ``(game, after)`` in ``plan``; report when all are open and, once told the
    final versions, when every client has them (or ``timeout`` passed). ``niceness`` lowers this process's
    priority: real viewers run on their own machines, not on the server's cores."""
    if niceness:
        os.nice(niceness)

    async def main() -> None:
        host, _, port = url.removeprefix("http://").partition(":")
        tally, final = Tally(), dict[str, int]()
        tasks = []
        for i in range(0, len(plan), 100):
            opened = []
            for game, after in plan[i : i + 100]:
                ready = asyncio.Event()
                tasks.append(asyncio.create_task(watch(host, int(port), game, after, tally, ready, final)))
                opened.append(ready.wait())
            await asyncio.wait_for(asyncio.gather(*opened), 30)
        control.send(tally.connected)
        loop = asyncio.get_running_loop()
        versions, timeout = await loop.run_in_executor(None, control.recv)
        final.update(versions)
        _, pending = await asyncio.wait(tasks, timeout=timeout)
        for task in pending:
            task.cancel()
        control.send((tally.connected, tally.received, tally.out_of_order, tally.latencies))

    asyncio.run(main())


# --- the moves: another process ------------------------------------------------------------


def mover(url: str, games: list[dict[str, Any]], moves: int, rate: float, control: Connection) -> None:
    """Play ``moves`` moves in every game, round after round, ``rate`` moves/s in all; send the final versions."""
    final: dict[str, int] = {}
    lock = threading.Lock()
    started = time.monotonic() + 0.2
    lanes = 16

    def lane(k: int) -> None:
        http = requests.Session()
        for round_ in range(moves):
            for i in range(k, len(games), lanes):
                game = games[i]
                delay = started + (round_ * len(games) + i) / rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                seat = (game["to_act"][0] + round_) % 2
                response = http.post(
                    f"{url}/v1/games/{game['id']}/moves",
                    json={"move": DRAW[round_]},
                    headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"},
                    timeout=30,
                )
                response.raise_for_status()
                with lock:
                    final[game["id"]] = response.json()["version"]

    threads = [threading.Thread(target=lane, args=(k,)) for k in range(lanes)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    control.send(final)


# --- this process: the server, the plan, the ordinary reads ---------------------------------


class Usage:
    """CPU seconds of the API's processes and commands run by Redis, from one mark to the next."""

    def __init__(self, port: int, redis_url: str) -> None:
        self.marker = f"127.0.0.1:{port}".encode()
        self.redis = redis.Redis.from_url(redis_url)
        self.cpu, self.commands = self._now()

    def _now(self) -> tuple[float, int]:
        ticks = 0
        for proc in Path("/proc").iterdir():
            with contextlib.suppress(OSError):
                if proc.name.isdigit() and self.marker in (proc / "cmdline").read_bytes():
                    ticks += sum(int(f) for f in (proc / "stat").read_text().rsplit(")", 1)[1].split()[11:13])
        return ticks / os.sysconf("SC_CLK_TCK"), int(self.redis.info("stats")["total_commands_processed"])

    def mark(self) -> tuple[float, int]:
        """CPU seconds and Redis commands since the last mark."""
        cpu, commands = self._now()
        spent = (cpu - self.cpu, commands - self.commands)
        self.cpu, self.commands = cpu, commands
        return spent


def play_while_reading(
    url: str, games: list[dict[str, Any]], args: argparse.Namespace
) -> tuple[dict[str, int], list[float], float]:
    """Play every game in a process of its own while timing ordinary reads here: final versions, reads, seconds."""
    moving, moved = multiprocessing.get_context("spawn").Pipe()
    players = multiprocessing.get_context("spawn").Process(
        target=mover, args=(url, games, args.moves, args.rate, moved)
    )
    started = time.monotonic()
    players.start()
    ids = [g["id"] for g in games]
    reads: list[float] = []
    while not moving.poll():
        reads += timed_reads(url, ids, 20, 5)[0]
    final = moving.recv()
    players.join()
    return final, reads, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=2000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=9, choices=range(1, 10), metavar="1..9")
    parser.add_argument("--rate", type=float, default=100.0, help="moves per second over all games")
    parser.add_argument("--requests", type=int, default=1000, help="ordinary reads timed on an idle server")
    parser.add_argument("--design", choices=("hub", "per-client"), default="hub")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds the clients wait for the last event")
    parser.add_argument(
        "--viewer-nice",
        type=int,
        default=10,
        help="niceness of the process that plays the 2,000 viewers, which shares the server's cores here",
    )
    args = parser.parse_args()
    env = {
        "ORRERY_STREAMS_PER_ADDRESS": str(args.clients + 10),
        "ORRERY_STREAMS_PER_GAME": str(args.clients + 10),
    }
    app = "app:create_app()" if args.design == "hub" else "benchmarks.stream_fanout:per_client_app()"
    with bench_redis() as target, gunicorn(target, app, worker_class="gevent", env=env) as url:
        http = requests.Session()
        unwatched, games = (
            [http.post(f"{url}/v1/games", json=TWO_SEATS, timeout=10).json() for _ in range(args.games)]
            for _ in range(2)
        )
        ids = [g["id"] for g in games]
        timed_reads(url, ids, 50, 5)
        idle, _ = timed_reads(url, ids, args.requests, 5)
        usage = Usage(int(url.rsplit(":", 1)[1]), target.url)
        _, quiet, quiet_s = play_while_reading(url, unwatched, args)
        quiet_cpu, quiet_commands = usage.mark()

        plan = [(games[i % args.games]["id"], games[i % args.games]["version"]) for i in range(args.clients)]
        spawn = multiprocessing.get_context("spawn")
        watching, watcher = spawn.Pipe()
        watchers = spawn.Process(target=clients, args=(url, plan, watcher, args.viewer_nice))
        opened_at = time.monotonic()
        watchers.start()
        connected = watching.recv()
        opened_s = time.monotonic() - opened_at
        redis_clients = usage.redis.info("clients")["connected_clients"]
        usage.mark()
        final, loaded, loaded_s = play_while_reading(url, games, args)
        loaded_cpu, loaded_commands = usage.mark()
        watching.send((final, args.timeout))
        connected, received, out_of_order, latencies = watching.recv()
        watchers.join()

    expected = sum(final[game] - after for game, after in plan)
    moves = args.moves * args.games
    print(
        f"Live viewers, {args.design} design; {target.where}; {API_PROCESSES} gunicorn gevent processes; "
        f"the viewers' process at niceness {args.viewer_nice}"
    )
    print(f"  {connected} of {args.clients} clients connected on {args.games} games (all open in {opened_s:.1f} s)")
    print(f"  events expected {expected}, received {received} in order, {out_of_order} out of order or repeated")
    if latencies:
        print(
            f"  append to client: p50 {statistics.median(latencies):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, "
            f"max {max(latencies):.1f} ms  (recorded_at has 1 ms resolution)"
        )
    print(
        f"  {moves} moves per phase at {args.rate:g}/s asked: {moves / quiet_s:.0f}/s without streams, "
        f"{moves / loaded_s:.0f}/s with them"
    )
    print(
        f"  API CPU: {quiet_cpu:.1f} s without streams, {loaded_cpu:.1f} s with them; Redis commands: "
        f"{quiet_commands} and {loaded_commands}; Redis clients with the streams open: {redis_clients}"
    )
    print(f"  ordinary reads, idle server:                   {describe(idle)}  ({len(idle)} requests)")
    print(f"  ordinary reads, moves flowing, no stream open: {describe(quiet)}  ({len(quiet)} requests)")
    print(f"  ordinary reads, moves flowing, {connected} streams:  {describe(loaded)}  ({len(loaded)} requests)")
    if quiet and loaded:
        p50 = statistics.median(loaded) / statistics.median(quiet)
        p99 = percentile(loaded, 0.99) / percentile(quiet, 0.99)
        print(f"  with streams / without: p50 x{p50:.2f}, p99 x{p99:.2f}")


if __name__ == "__main__":
    main()
