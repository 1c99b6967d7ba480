"""Orrery's composition root: settings, the Flask app factory, the Celery app
and the ``orrery`` command line."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import importlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import redis
from celery import Celery
from flask import Flask

from domain import contract
from events.webhook_policy import ALLOW_SETTING, LOOPBACK_ALLOW, Network, WebhookPolicy, is_loopback_host, parse_allow

BUILTIN_GAMES: tuple[str, ...] = ("domain.homeworlds:GAME", "domain.planet_unknown:GAME")
"""The games every server hosts, as ``module:attribute`` of a contract.Game."""


@dataclasses.dataclass(frozen=True, slots=True)
class Settings:
    """Everything configurable, read from the environment."""

    redis_url: str | None
    namespace: str = "orrery"
    queue: str = "orrery"
    snapshot_every: int = 50
    max_body_bytes: int = 64 * 1024
    games: tuple[str, ...] = ()
    visibility_timeout: int = 300
    public_url: str | None = None
    limit_create: str = "30/minute;300/hour"
    """Game creations per client address (a Flask-Limiter limit string; ``;`` joins several)."""
    limit_moves: str = "120/minute"
    """Moves per seat token (counted by the token's hash)."""
    limit_moves_per_address: str = "600/minute"
    """Moves per client address, whatever the token."""
    limit_bad_token: str = "20/minute"
    """Requests with a token that end in 401, per client address; beyond it, requests with a token get 429."""
    streams_per_address: int = 16
    """Open live streams (SSE and NDJSON) per client address, over all API processes."""
    streams_per_game: int = 200
    """Open live streams per game, over all API processes."""
    streams_per_worker: int = 800
    """Open live streams per API process; keep it below gunicorn's ``--worker-connections``."""
    trust_proxy: int = 0
    """How many proxies in front of the API to trust for ``X-Forwarded-For`` (0: none; the socket's address)."""
    webhook_allow: tuple[Network, ...] = ()
    """Networks webhook URLs may reach although they are not public (``ORRERY_WEBHOOK_ALLOW``, CIDRs)."""
    timer_lease_ms: int = 10_000
    """How long a sweep holds a due timer; a timer whose sweeper died fires again after this."""
    fsync: str = "everysec"
    """The embedded Redis's ``appendfsync``: ``always`` or ``everysec`` (``ORRERY_FSYNC``)."""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        namespace = env.get("ORRERY_NAMESPACE", "orrery")
        return cls(
            redis_url=env.get("REDIS_URL") or None,
            namespace=namespace,
            queue=env.get("ORRERY_QUEUE", namespace),
            snapshot_every=int(env.get("ORRERY_SNAPSHOT_EVERY", "50")),
            max_body_bytes=int(env.get("ORRERY_MAX_BODY_BYTES", str(64 * 1024))),
            games=tuple(g for g in env.get("ORRERY_GAMES", "").split(",") if g),
            visibility_timeout=int(env.get("ORRERY_VISIBILITY_TIMEOUT", "300")),
            public_url=env.get("ORRERY_PUBLIC_URL") or None,
            limit_create=env.get("ORRERY_LIMIT_CREATE") or _default("limit_create"),
            limit_moves=env.get("ORRERY_LIMIT_MOVES") or _default("limit_moves"),
            limit_moves_per_address=env.get("ORRERY_LIMIT_MOVES_PER_ADDRESS") or _default("limit_moves_per_address"),
            limit_bad_token=env.get("ORRERY_LIMIT_BAD_TOKEN") or _default("limit_bad_token"),
            streams_per_address=int(env.get("ORRERY_STREAMS_PER_ADDRESS") or _default("streams_per_address")),
            streams_per_game=int(env.get("ORRERY_STREAMS_PER_GAME") or _default("streams_per_game")),
            streams_per_worker=int(env.get("ORRERY_STREAMS_PER_WORKER") or _default("streams_per_worker")),
            trust_proxy=_proxy_hops(env.get("ORRERY_TRUST_PROXY", "")),
            webhook_allow=parse_allow(env.get(ALLOW_SETTING, "")),
            timer_lease_ms=int(env.get("ORRERY_TIMER_LEASE_MS") or _default("timer_lease_ms")),
            fsync=env.get("ORRERY_FSYNC") or _default("fsync"),
        )

    def require_redis(self) -> str:
        if not self.redis_url:
            raise RuntimeError(
                "REDIS_URL is not set. `orrery up` (or `make run`) starts an embedded Redis and sets it."
            )
        return self.redis_url


def _default(name: str) -> Any:
    return Settings.__dataclass_fields__[name].default


def _proxy_hops(raw: str) -> int:
    """``ORRERY_TRUST_PROXY``: a number of proxies, or yes/true/on for one; empty, 0, no, false or off for none."""
    value = raw.strip().lower()
    if value in ("", "0", "no", "false", "off"):
        return 0
    if value in ("yes", "true", "on"):
        return 1
    return int(value)


def load_games(settings: Settings) -> list[str]:
    """Register the built-in games and any named in ``ORRERY_GAMES``.

    A game's module may export ``PREVIOUS_VERSIONS``: the games of its earlier rules versions,
    registered beside the current one so that games played under them stay readable.
    """
    for spec in (*BUILTIN_GAMES, *settings.games):
        module, _, attribute = spec.partition(":")
        loaded = importlib.import_module(module)
        for previous in getattr(loaded, "PREVIOUS_VERSIONS", ()):
            contract.register(previous, current=False)
        contract.register(getattr(loaded, attribute or "GAME"))
    return contract.names()


WORKER_CONNECTIONS = 1000
"""Connections one gevent API process serves at once (gunicorn's ``--worker-connections``)."""

REDIS_MAX_CONNECTIONS = 4 * WORKER_CONNECTIONS
"""The ceiling of one process's Redis pool. Each open live stream holds a connection while it blocks
on XREAD, so the pool must outgrow the connections a process serves (redis-py's default is 100)."""


@functools.cache
def redis_client(url: str) -> redis.Redis:
    """One connection pool per URL and process.

    The socket timeout outlasts the longest blocking read (a live stream waits up to 15 s).
    """
    return redis.Redis.from_url(
        url,
        health_check_interval=30,
        socket_timeout=30,
        socket_connect_timeout=5,
        max_connections=REDIS_MAX_CONNECTIONS,
    )


def build_service(settings: Settings) -> Any:
    """The game service over the configured Redis, wired to wake the workers."""
    from events.keys import Keyspace
    from events.service import GameService
    from events.store import EventStore
    from workers.tasks import wake_relay

    load_games(settings)
    store = EventStore(redis_client(settings.require_redis()), Keyspace(settings.namespace))
    return GameService(
        store,
        snapshot_every=settings.snapshot_every,
        on_append=wake_relay,
        public_url=settings.public_url,
        webhook_policy=WebhookPolicy(settings.webhook_allow),
    )


def create_app(settings: Settings | None = None) -> Flask:
    """The Flask application: the JSON API, its OpenAPI document and docs."""
    from api import init_api

    settings = settings or Settings.from_env()
    app = Flask("orrery")
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.extensions["orrery.settings"] = settings
    app.extensions["orrery.service"] = build_service(settings)
    app.extensions["orrery.celery"] = make_celery(settings, current=False)
    init_api(app)
    return app


@dataclasses.dataclass(frozen=True, slots=True)
class Queues:
    """The Celery queues of one deployment, all named after ``Settings.queue``.

    Separate queues keep slow neighbours apart: a webhook bot that takes its time holds
    a slot of the webhook worker only, never one that a built-in bot's turn or a deadline needs.
    """

    main: str
    """Scoring, the timer sweep and the outbox relay: ``<queue>``."""
    bots: str
    """Built-in bot turns: ``<queue>.bots``."""
    webhooks: str
    """Turn requests to webhook bots: ``<queue>.webhooks``."""

    @property
    def all(self) -> tuple[str, ...]:
        """Every queue; a worker that consumes them all runs every task."""
        return (self.main, self.bots, self.webhooks)


def queue_names(settings: Settings) -> Queues:
    """The queues of ``settings``; ``orrery up``, the tests and the routes all take them from here."""
    return Queues(main=settings.queue, bots=f"{settings.queue}.bots", webhooks=f"{settings.queue}.webhooks")


TASK_QUEUES: dict[str, str] = {
    "workers.tasks.relay_outbox": "main",
    "workers.tasks.sweep_timers": "main",
    "workers.tasks.score_game": "main",
    "workers.tasks.play_bot_turn": "bots",
    "workers.tasks.deliver_turn": "webhooks",
}
"""Which of the :class:`Queues` (by field name) each task is sent to."""


def task_routes(settings: Settings) -> dict[str, dict[str, str]]:
    """Celery's ``task_routes``: every task to its queue, whoever sends it (``delay``, ``apply_async``, beat)."""
    names = queue_names(settings)
    return {task: {"queue": getattr(names, field)} for task, field in TASK_QUEUES.items()}


WORKER_CONCURRENCY = 2
"""Processes of the prefork worker that runs built-in bots, scoring, timers and the relay (CPU-bound work)."""

WEBHOOK_POOL = "gevent"
"""The webhook worker's pool: a delivery mostly waits on the network, and a greenlet waits for almost nothing."""

WEBHOOK_CONCURRENCY = 100
"""Deliveries one webhook worker keeps in flight at once."""


def worker_command(
    queues: Sequence[str], hostname: str, *, pool: str = "prefork", concurrency: int = WORKER_CONCURRENCY
) -> list[str]:
    """A Celery worker that consumes ``queues``; ``hostname`` must be unique per process (``name@%h``)."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "app:celery",
        "worker",
        "--loglevel=INFO",
        "--pool",
        pool,
        f"--concurrency={concurrency}",
        "--queues",
        ",".join(queues),
        "--hostname",
        hostname,
    ]


def worker_commands(settings: Settings, tag: str) -> dict[str, list[str]]:
    """The workers ``orrery up`` runs: a prefork worker for built-in bots, scoring, timers and the relay,
    and a gevent worker for webhook deliveries, so that slow webhook bots only ever wait on each other."""
    names = queue_names(settings)
    return {
        "worker": worker_command([names.main, names.bots], f"orrery-worker-{tag}@%h"),
        "webhooks": worker_command(
            [names.webhooks], f"orrery-webhooks-{tag}@%h", pool=WEBHOOK_POOL, concurrency=WEBHOOK_CONCURRENCY
        ),
    }


def make_celery(settings: Settings, *, current: bool = True) -> Celery:
    """The Celery app. Tasks are at-least-once and idempotent by construction.

    ``current=False`` makes an app that talks to the broker without becoming
    the app that ``@shared_task`` tasks are sent through. The current app is
    also made the default of every thread and greenlet: Celery keeps "current"
    per thread, so without it a request served by a gthread thread or a gevent
    greenlet would send tasks through Celery's unconfigured fallback app.
    """
    visibility_timeout = settings.visibility_timeout
    app = Celery(
        "orrery",
        broker=settings.redis_url or "redis://127.0.0.1:6379/0",
        include=["workers.tasks"],
        set_as_current=current,
    )
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_ignore_result=True,
        task_default_queue=settings.queue,
        task_routes=task_routes(settings),
        broker_transport_options={
            "visibility_timeout": visibility_timeout,
            "global_keyprefix": f"{settings.namespace}:celery:",
        },
        result_backend_transport_options={"visibility_timeout": visibility_timeout},
        broker_connection_retry_on_startup=True,
        worker_send_task_events=False,
        beat_schedule={
            "relay-outbox": {"task": "workers.tasks.relay_outbox", "schedule": 1.0},
            "sweep-timers": {"task": "workers.tasks.sweep_timers", "schedule": 1.0},
        },
        timezone="UTC",
    )
    app.conf["orrery_settings"] = settings
    if current:
        app.set_default()
    return app


celery = make_celery(Settings.from_env())


# --- The command line ----------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``orrery up`` runs the service; ``orrery transcripts check`` checks game records."""
    parser = argparse.ArgumentParser(prog="orrery", description="Orrery, an event-sourced game server.")
    commands = parser.add_subparsers(dest="command", required=True)
    up_parser = commands.add_parser(
        "up", help="start Redis (embedded unless REDIS_URL is set), the workers, beat and the API"
    )
    up_parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    up_parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    up_parser.add_argument("--data-dir", default=os.environ.get("ORRERY_DATA_DIR", "var"))
    transcripts = commands.add_parser("transcripts", help="work with game transcripts")
    transcript_commands = transcripts.add_subparsers(dest="transcripts_command", required=True)
    check = transcript_commands.add_parser("check", help="replay transcripts and report each file's result")
    check.add_argument("--game", required=True)
    check.add_argument("paths", nargs="+")
    arena = commands.add_parser("arena", help="play N games between two built-in bots and print the score")
    arena.add_argument("--game", default="homeworlds")
    arena.add_argument("bot_a")
    arena.add_argument("bot_b")
    arena.add_argument("-n", "--games", type=int, default=100)
    arena.add_argument("--think-ms", type=int, default=200)
    arena.add_argument("--seed", default="arena")
    verify = commands.add_parser("verify", help="check an exported game (NDJSON) with no server and no Redis")
    verify.add_argument("file", help="an export from GET /v1/games/{id}/export, or - for standard input")
    args = parser.parse_args(argv)
    if args.command == "verify":
        return verify_export(args.file)
    if args.command == "up":
        return up(args.host, args.port, Path(args.data_dir))
    if args.command == "arena":
        return run_arena(args.game, args.bot_a, args.bot_b, args.games, args.think_ms, args.seed)
    return check_transcripts(args.game, args.paths)


def run_arena(game_name: str, bot_a: str, bot_b: str, games: int, think_ms: int, seed: str) -> int:
    from domain.arena import play_match, progress_bar

    load_games(Settings.from_env())
    try:
        game = contract.get(game_name)
    except KeyError:
        print(f"orrery: no game {game_name!r}; known: {', '.join(contract.names())}", file=sys.stderr)
        return 2
    for bot in (bot_a, bot_b):
        if bot not in game.bots:
            print(f"orrery: {game_name} has no bot {bot!r}; it has: {', '.join(sorted(game.bots))}", file=sys.stderr)
            return 2
    result = play_match(game, bot_a, bot_b, games, think_ms=think_ms, seed=seed, progress=progress_bar("arena"))
    print(result.summary())
    return 0


def verify_export(path: str) -> int:
    """Check an export offline: hash chain, every move's legality, the seed. Exit 0 only if all hold."""
    import json

    from events.envelope import Envelope
    from events.service import EXPORT_FORMAT
    from events.verify import verify

    load_games(Settings.from_env())
    text = sys.stdin.read() if path == "-" else Path(path).read_text()
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        header = json.loads(lines[0]) if lines else {}
    except ValueError:
        header = {}
    if header.get("format") != EXPORT_FORMAT:
        print(f"orrery verify: {path} is not an Orrery export (no {EXPORT_FORMAT} header line)", file=sys.stderr)
        return 2
    if not header.get("complete"):
        print(
            f"orrery verify: this export is {header.get('viewer')}'s view, with redacted events; only an export "
            "that holds every event whole (the creator's, once the game is over) can be verified",
            file=sys.stderr,
        )
        return 2
    envelopes = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            envelopes.append(Envelope.from_json(line))
        except (ValueError, KeyError, TypeError) as error:
            print(f"FAILED: line {number} is not an event envelope ({error})")
            return 1
    verdict = verify(envelopes)
    print(verdict)
    return 0 if verdict.ok else 1


def check_transcripts(game: str, paths: list[str]) -> int:
    checkers = {"homeworlds": "domain.homeworlds.transcripts"}
    if game not in checkers:
        print(f"orrery: no transcript checker for {game!r}; known: {', '.join(checkers)}", file=sys.stderr)
        return 2
    module = importlib.import_module(checkers[game])
    return int(module.main(paths))


def with_webhook_allow_default(env: Mapping[str, str], host: str) -> dict[str, str]:
    """The environment of ``orrery up``'s children: unless the user set ``ORRERY_WEBHOOK_ALLOW``, an API
    bound to a loopback address may call webhook bots on the same machine (``127.0.0.0/8,::1/128``)."""
    out = dict(env)
    if ALLOW_SETTING not in out and is_loopback_host(host):
        out[ALLOW_SETTING] = LOOPBACK_ALLOW
    return out


def up(host: str, port: int, data_dir: Path) -> int:
    """Run the whole service in the foreground until Ctrl-C or SIGTERM.

    Every child dies with this supervisor, whatever kills it (``PR_SET_PDEATHSIG``),
    and the embedded Redis refuses a data folder that another one holds.
    """
    from events.embedded import DataDirLocked, EmbeddedRedis, die_with_parent

    env = with_webhook_allow_default(os.environ, host)
    embedded = None
    if not env.get("REDIS_URL"):
        redis_port = int(env.get("ORRERY_REDIS_PORT", "0")) or None
        fsync = Settings.from_env(env).fsync
        try:
            embedded = EmbeddedRedis(data_dir / "redis", port=redis_port, fsync=fsync).start()
        except (DataDirLocked, ValueError) as refused:
            print(f"orrery: {refused}", file=sys.stderr, flush=True)
            return 2
        env["REDIS_URL"] = embedded.url
        print(
            f"orrery: embedded Redis on {embedded.url}, data in {data_dir / 'redis'}, fsync {fsync}", flush=True
        )
    data_dir.mkdir(parents=True, exist_ok=True)
    python = sys.executable
    commands = {
        **worker_commands(Settings.from_env(env), str(os.getpid())),
        "beat": [
            python,
            "-m",
            "celery",
            "-A",
            "app:celery",
            "beat",
            "--loglevel=INFO",
            "--schedule",
            str(data_dir / "celerybeat-schedule"),
        ],
        "api": gunicorn_command(host, port),
    }
    stopping = False

    def request_stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    children: dict[str, subprocess.Popen[bytes]] = {}
    status = 0
    try:
        for name, command in commands.items():
            children[name] = subprocess.Popen(command, env=env, start_new_session=True, preexec_fn=die_with_parent)
        print(
            f"orrery: API on http://{host}:{port}  docs at http://{host}:{port}/docs  (Ctrl-C stops everything)",
            flush=True,
        )
        while not stopping:
            exited = [name for name, child in children.items() if child.poll() is not None]
            if exited:
                print(f"orrery: {', '.join(exited)} stopped unexpectedly; shutting down", file=sys.stderr, flush=True)
                status = 1
                break
            time.sleep(0.2)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _stop_all(list(children.values()))
        if embedded is not None:
            embedded.stop()
    print("orrery: stopped", flush=True)
    return status


def gunicorn_command(
    host: str,
    port: int,
    *,
    workers: int = 2,
    worker_connections: int = WORKER_CONNECTIONS,
    app: str = "app:create_app()",
) -> list[str]:
    """The command that serves the API, as ``orrery up`` runs it (tests start the same one).

    gevent workers serve each connection in a greenlet, so an open live stream
    (blocked on Redis) holds no thread that an ordinary request needs; the
    stream caps (see ``Settings.streams_per_worker``) keep some of each
    process's ``worker_connections`` free for ordinary requests.
    Header limits are raised above any value the API accepts, so that an
    oversized header reaches the API and gets its JSON error, not gunicorn's page.
    """
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        f"{host}:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "gevent",
        "--worker-connections",
        str(worker_connections),
        "--graceful-timeout",
        "5",
        "--limit-request-line",
        "16384",
        "--limit-request-field_size",
        "65536",
        "--config",
        str(Path(__file__).resolve().parent / "api" / "server_hooks.py"),
        app,
    ]


def _stop_all(children: list[subprocess.Popen[bytes]], timeout: float = 15.0) -> None:
    for child in children:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for child in children:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(max(0.1, deadline - time.monotonic()))
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()


if __name__ == "__main__":
    sys.exit(main())
