"""A load test with Locust, against two set-ups in one run.

1. ``make run``: ``orrery up`` (an embedded Redis, gunicorn, a worker and beat) on a free port,
   with a data folder of its own.
2. A cluster: a 3-master Redis Cluster (``EmbeddedCluster``), Celery's broker (RabbitMQ when
   127.0.0.1:5672 answers, else a plain embedded Redis), 2 API servers (each the gunicorn that
   ``orrery up`` runs, on its own port), 2 Celery workers (the prefork worker ``orrery up`` runs,
   on the main and bot queues) and beat once.

Against each, the same headless Locust run (``benchmarks/locustfile.py``, in a child process,
bounded in users and time) plays games over HTTP; the users are spread over the API servers.
Rate limits are lifted and every run has a namespace of its own. At the end it prints one table:
moves/s, the p50 and p99 of a move (ms), the p50 of a bot's reply as a client sees it, the
failures and all requests/s, for each set-up. Locust runs on the same machine as the server.

    python benchmarks/load_test.py [--users 20] [--spawn-rate 10] [--run-time 30s] [--only make-run,cluster]
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import Settings, make_celery, queue_names, readiness, stop_process_groups, worker_commands  # noqa: E402
from benchmarks.harness import BENCH_LIMITS, BenchRedis, gunicorn  # noqa: E402
from events.embedded import EmbeddedCluster, EmbeddedRedis, die_with_parent, free_port  # noqa: E402

LOCUSTFILE = ROOT / "benchmarks" / "locustfile.py"
RABBITMQ = "amqp://guest:guest@127.0.0.1:5672//"
READY_TIMEOUT_S = 90.0
TARGETS = ("make-run", "cluster")


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """One set-up's numbers, from Locust's stats CSV."""

    target: str
    moves_per_s: float
    move_p50_ms: float
    move_p99_ms: float
    bot_p50_ms: float | None
    failures: int
    errors: int
    """Exceptions raised in the users' own code (a bug in the locustfile, or a body it could not read)."""
    requests: int
    requests_per_s: float


def rabbitmq_answers(timeout: float = 0.5) -> bool:
    """Whether something accepts TCP connections on RabbitMQ's port on this machine."""
    try:
        with socket.create_connection(("127.0.0.1", 5672), timeout=timeout):
            return True
    except OSError:
        return False


def server_env(namespace: str) -> dict[str, str]:
    """The environment of every server process: the test game, no rate limits a load test reaches, ``namespace``.

    ``REDIS_URL``, ``CELERY_BROKER_URL`` and ``ORRERY_REDIS_CLUSTER`` are dropped: each set-up names its own.
    """
    inherited = {
        k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CELERY_BROKER_URL", "ORRERY_REDIS_CLUSTER"}
    }
    return (
        inherited
        | BENCH_LIMITS
        | {
            "ORRERY_NAMESPACE": namespace,
            "ORRERY_QUEUE": namespace,
            "ORRERY_GAMES": "tests.support.tictactoe:GAME",
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
        }
    )


def spawn(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """``command`` in a session of its own, killed with this script whatever kills it, its output in ``log``."""
    with log.open("ab") as out:
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )


def tail(log: Path, lines: int = 30) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:]) if log.exists() else "(no log)"


@contextlib.contextmanager
def make_run(workdir: Path) -> Iterator[list[str]]:
    """``orrery up`` as ``make run`` starts it, on a free port and a fresh data folder; yields its URL once ready."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = workdir / "orrery-up.log"
    orrery = Path(sys.executable).with_name("orrery")
    entry = [str(orrery)] if orrery.exists() else [sys.executable, "-m", "app"]
    command = [*entry, "up", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(workdir / "data")]
    up = spawn(command, server_env(f"orrery-load-{uuid.uuid4().hex[:6]}"), log)
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while (waiting := readiness(url)) is not None:
            if up.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"orrery up did not become ready ({waiting}):\n{tail(log)}")
            time.sleep(0.3)
        yield [url]
    finally:
        stop_process_groups([up], timeout=30)


@contextlib.contextmanager
def celery_workers(settings: Settings, env: dict[str, str], workdir: Path, count: int) -> Iterator[None]:
    """``count`` workers (the prefork one ``orrery up`` runs, each with its own name) and beat, answering pings."""
    tag = uuid.uuid4().hex[:6]
    commands = [worker_commands(settings, f"{tag}-{i}")["worker"] for i in range(count)]
    beat = [sys.executable, "-m", "celery", "-A", "app:celery", "beat", "--loglevel=WARNING"]
    beat += ["--schedule", str(workdir / "celerybeat-schedule")]
    log = workdir / "celery.log"
    children = [spawn(command, env, log) for command in [*commands, beat]]
    celery = make_celery(settings, current=False)
    try:
        nodes = [c[c.index("--hostname") + 1].replace("%h", socket.gethostname()) for c in commands]
        deadline = time.monotonic() + READY_TIMEOUT_S
        while len(celery.control.ping(destination=nodes, timeout=0.5)) < len(nodes):
            if time.monotonic() > deadline or any(child.poll() is not None for child in children):
                raise SystemExit(f"the Celery workers did not start:\n{tail(log)}")
        yield
    finally:
        stop_process_groups(children, timeout=30)
        if settings.broker_url == RABBITMQ:
            delete_queues(settings)


def delete_queues(settings: Settings) -> None:
    """Delete this run's queues from the shared RabbitMQ, so that runs leave nothing behind."""
    with make_celery(settings, current=False).connection_for_write() as connection:
        for queue in queue_names(settings).all:
            with contextlib.suppress(Exception), connection.channel() as channel:
                channel.queue_delete(queue)


@contextlib.contextmanager
def cluster(workdir: Path, api_servers: int = 2, workers: int = 2) -> Iterator[list[str]]:
    """A 3-master Redis Cluster, a broker, ``api_servers`` API servers, ``workers`` workers and beat; yields the
    API servers' URLs once every server reads the cluster and every worker answers."""
    namespace = f"orrery-load-{uuid.uuid4().hex[:6]}"
    with contextlib.ExitStack() as stack:
        store = stack.enter_context(EmbeddedCluster(workdir / "cluster", masters=3))
        if rabbitmq_answers():
            broker = RABBITMQ
        else:
            broker = stack.enter_context(EmbeddedRedis(workdir / "broker", persistent=False)).url
        print(f"  cluster {store.url} (ports {store.ports}), broker {broker}", file=sys.stderr, flush=True)
        env = server_env(namespace) | {
            "REDIS_URL": store.url,
            "ORRERY_REDIS_CLUSTER": "true",
            "CELERY_BROKER_URL": broker,
        }
        settings = Settings.from_env(env)
        stack.enter_context(celery_workers(settings, env, workdir, workers))
        target = BenchRedis(store.url, namespace, embedded=True)
        extra = {"ORRERY_REDIS_CLUSTER": "true", "CELERY_BROKER_URL": broker}
        urls = [stack.enter_context(gunicorn(target, worker_class="gevent", env=extra)) for _ in range(api_servers)]
        for url in urls:
            if (waiting := readiness(url, timeout=5)) is not None:
                raise SystemExit(f"the API on {url} is not ready: {waiting}")
        yield urls


def seconds(timespan: str) -> int:
    """Locust's ``--run-time`` (``90``, ``30s``, ``2m``, ``1h30m``) in seconds."""
    if timespan.isdigit():
        return int(timespan)
    parts = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", timespan)
    if parts is None or not any(parts.groups()):
        raise argparse.ArgumentTypeError(f"not a time span: {timespan!r} (try 30s, 2m or 1m30s)")
    hours, minutes, secs = (int(p or 0) for p in parts.groups())
    return hours * 3600 + minutes * 60 + secs


def run_locust(target: str, urls: list[str], args: argparse.Namespace, workdir: Path) -> Outcome:
    """The headless Locust run against ``urls`` (users handed out round-robin); its numbers."""
    prefix = workdir / f"locust-{target}"
    log = workdir / f"locust-{target}.log"
    command = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless", "--only-summary"]
    command += ["--users", str(args.users), "--spawn-rate", str(args.spawn_rate), "--run-time", f"{args.run_time}s"]
    command += ["--host", urls[0], "--csv", str(prefix), "--loglevel", "WARNING"]
    print(f"  locust: {args.users} users for {args.run_time} s against {', '.join(urls)}", file=sys.stderr, flush=True)
    locust = spawn(command, os.environ | {"ORRERY_LOAD_HOSTS": ",".join(urls)}, log)
    try:
        locust.wait(args.run_time + 120)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"locust did not finish:\n{tail(log)}") from None
    finally:
        stop_process_groups([locust], timeout=30)
    stats = prefix.with_name(f"{prefix.name}_stats.csv")
    if not stats.exists():
        raise SystemExit(f"locust wrote no stats (exit {locust.returncode}):\n{tail(log)}")
    with stats.open(newline="") as f:
        rows = {row["Name"]: row for row in csv.DictReader(f)}
    if "move" not in rows:
        raise SystemExit(f"locust made no moves:\n{tail(log)}")
    errors = report_problems(target, prefix)
    move, bot = rows["move"], rows.get("bot-turn")
    http = [row for name, row in rows.items() if name not in {"Aggregated", "bot-turn"}]
    return Outcome(
        target=target,
        moves_per_s=float(move["Requests/s"]),
        move_p50_ms=float(move["50%"]),
        move_p99_ms=float(move["99%"]),
        bot_p50_ms=float(bot["50%"]) if bot else None,
        failures=int(rows["Aggregated"]["Failure Count"]),
        errors=errors,
        requests=sum(int(row["Request Count"]) for row in http),
        requests_per_s=sum(float(row["Requests/s"]) for row in http),
    )


def report_problems(target: str, prefix: Path, shown: int = 5) -> int:
    """Print the commonest failures and the errors raised in the users' code, from Locust's CSVs, if any;
    returns how many errors there were."""
    errors = 0
    for kind, count_column, what in (("failures", "Occurrences", "Error"), ("exceptions", "Count", "Message")):
        path = prefix.with_name(f"{prefix.name}_{kind}.csv")
        if not path.exists():
            continue
        with path.open(newline="") as f:
            rows = sorted(csv.DictReader(f), key=lambda row: -int(row[count_column]))
        if kind == "exceptions":
            errors = sum(int(row[count_column]) for row in rows)
        for row in rows[:shown]:
            where = row.get("Name", "user code")
            print(f"  {target} {kind}: {row[count_column]} x {where}: {row[what][:300]}", file=sys.stderr)
    return errors


LABELS = {
    "make-run": "make run (orrery up)",
    "cluster": "3-master cluster, 2 API, 2 workers",
}


def table(outcomes: list[Outcome]) -> str:
    """The results, one line per set-up."""
    header = (
        f"{'set-up':<36} {'moves/s':>8} {'move p50':>9} {'move p99':>9} {'bot p50':>8} "
        f"{'failures':>9} {'errors':>7} {'requests':>9} {'req/s':>7}"
    )
    lines = [header, "-" * len(header)]
    for o in outcomes:
        bot = "-" if o.bot_p50_ms is None else f"{o.bot_p50_ms:.0f}"
        lines.append(
            f"{LABELS[o.target]:<36} {o.moves_per_s:>8.1f} {o.move_p50_ms:>9.0f} {o.move_p99_ms:>9.0f} {bot:>8} "
            f"{o.failures:>9} {o.errors:>7} {o.requests:>9} {o.requests_per_s:>7.1f}"
        )
    lines.append("(times in ms; bot p50: from a move to the player's turn again, across a random bot's reply)")
    return "\n".join(lines)


def _stop_on_sigterm(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=20, help="concurrent Locust users (default 20)")
    parser.add_argument("--spawn-rate", type=float, default=10, help="users started per second (default 10)")
    parser.add_argument("--run-time", type=seconds, default=30, help="each Locust run's length (default 30s)")
    parser.add_argument(
        "--only", default=",".join(TARGETS), help=f"the set-ups to run, comma-separated (default {','.join(TARGETS)})"
    )
    args = parser.parse_args()
    chosen = [t.strip() for t in args.only.split(",") if t.strip()]
    if unknown := sorted(set(chosen) - set(TARGETS)):
        parser.error(f"unknown set-up {unknown[0]!r}; choose from {', '.join(TARGETS)}")
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    starters = {"make-run": make_run, "cluster": cluster}
    outcomes: list[Outcome] = []
    try:
        for target in chosen:
            with tempfile.TemporaryDirectory(prefix=f"orrery-load-{target}-") as tmp:
                print(f"{LABELS[target]}: starting", file=sys.stderr, flush=True)
                with starters[target](Path(tmp)) as urls:
                    outcomes.append(run_locust(target, urls, args, Path(tmp)))
    except KeyboardInterrupt:
        print("load test: interrupted; everything it started is stopped", file=sys.stderr)
        return 130
    print(f"Locust, {args.users} users (spawn rate {args.spawn_rate:g}/s), {args.run_time} s per set-up, no think time")
    print(table(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
