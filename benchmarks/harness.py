"""What the benchmarks share: a Redis to measure against, and the API under gunicorn."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import redis
import requests

ROOT = Path(__file__).resolve().parents[1]


@dataclasses.dataclass(frozen=True, slots=True)
class BenchRedis:
    url: str
    namespace: str
    embedded: bool

    fsync: str | None = None

    @property
    def where(self) -> str:
        if self.fsync:
            return f"embedded Redis, appendfsync {self.fsync}"
        return "embedded Redis" if self.embedded else self.url


@contextlib.contextmanager
def bench_redis(fsync: str | None = None) -> Iterator[BenchRedis]:
    """``REDIS_URL``, or an embedded Redis; a namespace of its own, deleted afterwards.

    With ``fsync`` (``always`` or ``everysec``) it is always an embedded Redis with its
    append-only file on, as ``orrery up`` runs it.
    """
    from events.embedded import EmbeddedRedis

    namespace = f"orrery-bench-{uuid.uuid4().hex[:6]}"
    url = None if fsync else os.environ.get("REDIS_URL")
    with tempfile.TemporaryDirectory() as tmp:
        if url:
            embedded = None
        elif fsync:
            embedded = EmbeddedRedis(Path(tmp) / "redis", persistent=True, fsync=fsync).start()
        else:
            embedded = EmbeddedRedis(Path(tmp) / "redis", persistent=False).start()
        target = BenchRedis(embedded.url if embedded else str(url), namespace, embedded is not None, fsync)
        try:
            yield target
        finally:
            client = redis.Redis.from_url(target.url)
            keys = list(client.scan_iter(f"{namespace}:*", count=1000))
            for i in range(0, len(keys), 500):
                client.unlink(*keys[i : i + 500])
            if embedded is not None:
                embedded.stop()


BENCH_LIMITS = {
    "ORRERY_LIMIT_CREATE": "1000000/minute",
    "ORRERY_LIMIT_MOVES": "1000000/minute",
    "ORRERY_LIMIT_MOVES_PER_ADDRESS": "1000000/minute",
    "ORRERY_LIMIT_BAD_TOKEN": "1000000/minute",
}
"""Benchmarks drive the API from one address faster than any client may: rate limits they never reach."""


@contextlib.contextmanager
def gunicorn(
    target: BenchRedis,
    app: str = "app:create_app()",
    threads: int = 16,
    *,
    worker_class: str = "gthread",
    env: dict[str, str] | None = None,
) -> Iterator[str]:
    """The API under gunicorn (2 workers) with the test game, serving until the block ends; yields its URL.
    The server dies with this process, however this process ends.

    ``worker_class="gevent"`` runs the command ``orrery up`` runs (``app.gunicorn_command``);
    ``"gthread"`` runs ``threads`` threads per worker. ``env`` is added to the server's environment
    (after ``BENCH_LIMITS``, so it can lower them).
    """
    from app import gunicorn_command, stop_process_groups
    from events.embedded import die_with_parent, free_port

    port = free_port()
    server_env = (
        os.environ
        | BENCH_LIMITS
        | {
            "REDIS_URL": target.url,
            "ORRERY_NAMESPACE": target.namespace,
            "ORRERY_QUEUE": target.namespace,
            "ORRERY_GAMES": "tests.support.tictactoe:GAME",
            "PYTHONPATH": str(ROOT),
        }
        | (env or {})
    )
    if worker_class == "gevent":
        command = [*gunicorn_command("127.0.0.1", port, app=app), "--log-level", "warning"]
    else:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--threads",
            str(threads),
            "--graceful-timeout",
            "3",
            "--log-level",
            "warning",
            app,
        ]
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        env=server_env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        preexec_fn=die_with_parent,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, server)
        yield url
    finally:
        stop_process_groups([server])


def _wait_until_up(url: str, process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("gunicorn exited while starting")
        try:
            requests.get(f"{url}/openapi.json", timeout=1)
            return
        except requests.RequestException:
            time.sleep(0.1)
    raise SystemExit("gunicorn did not start")
