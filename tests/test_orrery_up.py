"""`orrery up` (what `make run` calls): the whole service from one command,
stopped cleanly by SIGTERM, with games that survive a restart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from events.embedded import free_port
from tests.conftest import NAMESPACE, ROOT, wait_for


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid``, read from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents[int(stat.parent.name)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        children = {child for child, parent in parents.items() if parent in frontier} - found
        found |= children
        frontier = children
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


class Service:
    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        self.redis_port = free_port()
        self.data_dir = data_dir
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.start_process()
        self.wait_healthy()

    def start_process(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        env |= {
            "PORT": str(self.port),
            "ORRERY_DATA_DIR": str(self.data_dir),
            "ORRERY_REDIS_PORT": str(self.redis_port),
            "ORRERY_NAMESPACE": f"{NAMESPACE}-up",
            "ORRERY_QUEUE": f"{NAMESPACE}-up",
        }
        orrery = Path(sys.executable).parent / "orrery"
        self.process = subprocess.Popen(
            [str(orrery), "up"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )

    def wait_healthy(self) -> None:
        def healthy() -> bool:
            assert self.process is not None and self.process.poll() is None, "orrery up exited"
            try:
                body = requests.get(f"{self.url}/readyz", timeout=2).json()
            except requests.RequestException:
                return False
            return bool(body["redis"] == "ok" and body["worker"] == "ok")

        wait_for(healthy, timeout=90, interval=0.5)

    def stop(self) -> tuple[int, bytes, set[int]]:
        assert self.process is not None
        children = descendants(self.process.pid)
        self.process.send_signal(signal.SIGTERM)
        output, _ = self.process.communicate(timeout=60)
        return self.process.returncode, output, children


@pytest.fixture
def service_dir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "var"


def test_orrery_up_serves_and_stops_cleanly(service_dir: Path) -> None:
    first = Service(service_dir)
    first.start()
    try:
        assert requests.get(f"{first.url}/openapi.json", timeout=5).json()["info"]["title"] == "Orrery"
        assert "swagger-ui" in requests.get(f"{first.url}/docs", timeout=5).text
        created = requests.post(
            f"{first.url}/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]}, timeout=5
        ).json()
    finally:
        code, output, children = first.stop()
    assert code == 0, output.decode()[-3000:]
    assert b"/docs" in output
    assert len(children) >= 4
    time.sleep(0.5)
    assert not [pid for pid in children if alive(pid)]
    assert (service_dir / "redis" / "appendonly.aof").exists() or (service_dir / "redis" / "appendonlydir").exists()

    second = Service(service_dir)
    second.redis_port = first.redis_port
    second.start()
    try:
        again = requests.get(f"{second.url}/v1/games/{created['id']}", timeout=5)
        assert again.status_code == 200 and again.json()["version"] == created["version"]
    finally:
        code, _, children = second.stop()
    assert code == 0
    time.sleep(0.5)
    assert not [pid for pid in children if alive(pid)]


def test_killing_the_supervisor_kills_every_child_and_a_second_one_is_refused(service_dir: Path) -> None:
    first = Service(service_dir)
    first.start()
    assert first.process is not None
    children = descendants(first.process.pid)
    try:
        second = Service(service_dir)
        second.start_process()
        assert second.process is not None
        code = second.process.wait(timeout=20)
        output = second.process.stdout.read().decode() if second.process.stdout else ""
        assert code == 2, output
        assert "in use by another Orrery" in output and f"pid {first.process.pid}" in output
        created = requests.post(
            f"{first.url}/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]}, timeout=5
        ).json()
    finally:
        first.process.kill()
        first.process.wait()
    assert len(children) >= 5
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and [pid for pid in children if alive(pid)]:
        time.sleep(0.1)
    assert not [pid for pid in children if alive(pid)], "every child dies within 5 s of a SIGKILL"

    third = Service(service_dir)
    third.redis_port = first.redis_port
    third.start()
    try:
        again = requests.get(f"{third.url}/v1/games/{created['id']}", timeout=5)
        assert again.status_code == 200 and again.json()["version"] == created["version"]
    finally:
        code, _, _ = third.stop()
    assert code == 0
