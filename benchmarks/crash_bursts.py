"""Acknowledged moves across SIGKILLs of the whole service, in the middle of a write burst.

Starts ``orrery up`` (embedded Redis with its append-only file) in a process group
of its own, drives moves from several client threads, and ``kill -9``s the whole
group while they write, as ``kill -9 -- -<pgid of make run>`` does. Then it counts
the processes left after 5 s, starts the service again on the same data folder,
and checks that every move that was acknowledged (a 201) is still there with the
same hash. It prints, per burst and in total: moves acknowledged, moves lost,
processes left.

    python benchmarks/crash_bursts.py [--bursts 3] [--clients 4] [--burst-seconds 3] [--fsync everysec]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.harness import BENCH_LIMITS  # noqa: E402
from events.embedded import free_port  # noqa: E402

SQUARES = ("a1", "a2", "b1", "b2", "c1", "c2", "c3", "b3", "a3")


class Stack:
    """``orrery up`` in a process group of its own, on a fixed data folder and ports."""

    def __init__(self, data_dir: Path, fsync: str) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.redis_port = free_port()
        self.fsync = fsync
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | BENCH_LIMITS
        env |= {
            "PORT": str(self.port),
            "ORRERY_DATA_DIR": str(self.data_dir),
            "ORRERY_REDIS_PORT": str(self.redis_port),
            "ORRERY_FSYNC": self.fsync,
            "ORRERY_GAMES": "tests.support.tictactoe:GAME",
        }
        orrery = Path(sys.executable).parent / "orrery"
        self.process = subprocess.Popen(
            [str(orrery), "up"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{self.url}/readyz", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise RuntimeError("orrery up did not become ready")

    def descendants(self) -> set[int]:
        assert self.process is not None
        parents: dict[int, int] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
        found: set[int] = set()
        frontier = {self.process.pid}
        while frontier:
            frontier = {c for c, p in parents.items() if p in frontier} - found
            found |= frontier
        return found

    def kill_group(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(60)


def alive(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def client(url: str, stop: threading.Event, acknowledged: list[tuple[str, str, int, str]]) -> None:
    """Play games until stopped, recording every acknowledged event as (game, token, version, hash)."""
    http = requests.Session()
    while not stop.is_set():
        try:
            game = http.post(
                f"{url}/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]}, timeout=5
            ).json()
            tokens = {s["index"]: s["token"] for s in game["seats"]}
            seat = game["to_act"][0]
            for square in SQUARES:
                if stop.is_set():
                    return
                response = http.post(
                    f"{url}/v1/games/{game['id']}/moves",
                    json={"move": square},
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                    timeout=5,
                )
                if response.status_code != 201:
                    break
                for event in response.json()["events"]:
                    if "hash" in event:
                        acknowledged.append((game["id"], tokens[seat], event["version"], event["hash"]))
                seat = 1 - seat
        except (requests.RequestException, ValueError, KeyError):
            return


def lost_moves(url: str, acknowledged: list[tuple[str, str, int, str]]) -> int:
    lost = 0
    http = requests.Session()
    stored: dict[tuple[str, str], dict[int, str]] = {}
    for game_id, token, version, digest in acknowledged:
        if (game_id, token) not in stored:
            body = http.get(
                f"{url}/v1/games/{game_id}/events?limit=1000", headers={"Authorization": f"Bearer {token}"}, timeout=10
            ).json()
            stored[(game_id, token)] = {e["version"]: e.get("hash", "") for e in body.get("events", [])}
        if stored[(game_id, token)].get(version) != digest:
            lost += 1
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bursts", type=int, default=3)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--burst-seconds", type=float, default=3.0)
    parser.add_argument("--fsync", default="everysec", choices=("everysec", "always"))
    args = parser.parse_args()
    total_acknowledged = total_lost = total_left = 0
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "var"
        stack = Stack(data_dir, args.fsync)
        for burst in range(1, args.bursts + 1):
            stack.start()
            acknowledged: list[tuple[str, str, int, str]] = []
            stop = threading.Event()
            threads = [
                threading.Thread(target=client, args=(stack.url, stop, acknowledged)) for _ in range(args.clients)
            ]
            for thread in threads:
                thread.start()
            time.sleep(args.burst_seconds)
            children = stack.descendants()
            stack.kill_group()
            stop.set()
            for thread in threads:
                thread.join(10)
            time.sleep(5)
            left = sum(1 for pid in children if alive(pid))
            restarted = Stack(data_dir, args.fsync)
            restarted.redis_port = stack.redis_port
            restarted.start()
            lost = lost_moves(restarted.url, acknowledged)
            print(
                f"burst {burst}: {len(acknowledged)} events acknowledged, {lost} lost; "
                f"{left} of {len(children)} processes left 5 s after kill -9"
            )
            total_acknowledged += len(acknowledged)
            total_lost += lost
            total_left += left
            restarted.stop()
            stack = restarted
            stack.port = free_port()
            stack.url = f"http://127.0.0.1:{stack.port}"
    print(
        f"total over {args.bursts} bursts (fsync {args.fsync}): {total_acknowledged} events acknowledged, "
        f"{total_lost} lost, {total_left} processes left"
    )


if __name__ == "__main__":
    main()
