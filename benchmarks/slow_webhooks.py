"""How long a built-in bot takes to reply while webhook bots in other games hang.

Starts Celery workers and beat against a Redis (embedded, or ``REDIS_URL``) in one of two
layouts, plays tic-tac-toe against a random built-in bot (``think_ms`` 1) and times each reply
from the human's move to the bot's (as the server recorded both), first with nothing else
running, then while ``--hanging`` games wait on a webhook bot that holds every request.

* ``split`` (default): the workers ``orrery up`` runs (``app.worker_commands``), a prefork
  worker for bots, scoring, timers and the relay, and a gevent worker for webhooks.
* ``shared``: the layout before issue 12, one prefork worker of 2 processes on every queue.

    python benchmarks/slow_webhooks.py [--layout split|shared] [--replies 8] [--hanging 4]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import Settings, make_celery, queue_names, stop_process_groups, worker_command, worker_commands  # noqa: E402
from benchmarks.harness import bench_redis  # noqa: E402
from service.webhook_policy import LOOPBACK_ALLOW  # noqa: E402
from tests.support.slow_webhooks import (  # noqa: E402
    SleepingEndpoint,
    bot_reply_latencies,
    service_for,
    summary,
    webhook_games,
)


def commands(settings: Settings, layout: str, workdir: Path) -> dict[str, list[str]]:
    """The worker commands of ``layout``, and beat."""
    tag = uuid.uuid4().hex[:6]
    if layout == "split":
        workers = worker_commands(settings, tag)
    else:
        workers = {"worker": worker_command(queue_names(settings).all, f"orrery-shared-{tag}@%h", concurrency=2)}
    beat = [sys.executable, "-m", "celery", "-A", "app:celery", "beat", "--schedule", str(workdir / "beat")]
    return workers | {"beat": beat}


@contextlib.contextmanager
def running(settings: Settings, env: dict[str, str], layout: str) -> Iterator[None]:
    """The workers of ``layout`` and beat, answering pings, until the block ends."""
    celery = make_celery(settings, current=False)
    with tempfile.TemporaryDirectory() as tmp:
        started = commands(settings, layout, Path(tmp))
        children = [
            subprocess.Popen(
                command, cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            for command in started.values()
        ]
        try:
            nodes = [
                command[command.index("--hostname") + 1].replace("%h", socket.gethostname())
                for command in started.values()
                if "--hostname" in command
            ]
            deadline = time.monotonic() + 60
            while len(celery.control.ping(destination=nodes, timeout=0.5)) < len(nodes):
                if time.monotonic() > deadline or any(child.poll() is not None for child in children):
                    raise SystemExit("the workers did not start")
            yield
        finally:
            stop_process_groups(children, timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layout", choices=("split", "shared"), default="split")
    parser.add_argument("--replies", type=int, default=8, help="bot replies timed in each phase")
    parser.add_argument("--hanging", type=int, default=4, help="games whose webhook bot hangs")
    parser.add_argument("--sleep", type=float, default=30.0, help="how long the webhook bot holds each request (s)")
    args = parser.parse_args()
    with bench_redis() as target:
        env = os.environ | {
            "REDIS_URL": target.url,
            "ORRERY_NAMESPACE": target.namespace,
            "ORRERY_QUEUE": target.namespace,
            "ORRERY_GAMES": "tests.support.tictactoe:GAME",
            "ORRERY_WEBHOOK_ALLOW": LOOPBACK_ALLOW,
            "PYTHONPATH": str(ROOT),
        }
        settings = Settings.from_env(env)
        service = service_for(settings)
        with SleepingEndpoint(args.sleep) as endpoint, running(settings, env, args.layout):
            try:
                quiet = bot_reply_latencies(service, args.replies, timeout_s=120)
                webhook_games(service, endpoint.url, args.hanging)
                deadline = time.monotonic() + 30
                while endpoint.holding < min(args.hanging, 2) and time.monotonic() < deadline:
                    time.sleep(0.05)
                busy = bot_reply_latencies(service, args.replies, timeout_s=120)
            finally:
                endpoint.released.set()
        print(f"layout {args.layout}, {target.where}")
        print(f"  built-in bot replies, quiet:                        {summary(quiet)}")
        print(f"  built-in bot replies, {args.hanging} webhook bots hanging {args.sleep:.0f} s: {summary(busy)}")
        print(f"  requests the hanging webhook bots received: {endpoint.received}")


if __name__ == "__main__":
    main()
