"""Orrery's composition root: settings, the Flask app factory, the Celery app
and the ``orrery`` command line."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import importlib
import importlib.metadata
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
from redis.backoff import ExponentialWithJitterBackoff
from redis.retry import Retry

from domain import contract
from service.webhook_policy import ALLOW_SETTING, LOOPBACK_ALLOW, Network, WebhookPolicy, is_loopback_host, parse_allow
from workers import context as task_context

BUILTIN_GAMES: tuple[str, ...] = ("domain.homeworlds:GAME", "domain.planet_unknown:GAME")
"""The games every server hosts, as ``module:attribute`` of a contract.Game."""


@dataclasses.dataclass(frozen=True, slots=True)
class Settings:
    """Everything configurable, read from the environment."""

    redis_url: str | None
    namespace: str = "orrery"
    redis_cluster: bool = False
    """``REDIS_URL`` names one node of a Redis Cluster (``ORRERY_REDIS_CLUSTER=true``); the store finds the rest."""
    broker_url: str | None = None
    """Celery's broker (``CELERY_BROKER_URL``), such as RabbitMQ's ``amqp://``; by default the store's Redis.
    kombu cannot use a Redis Cluster as a broker, so a clustered store needs one."""
    queue: str = "orrery"
    snapshot_every: int = 50
    max_body_bytes: int = 64 * 1024
    games: tuple[str, ...] = ()
    visibility_timeout: int = 300
    public_url: str | None = None
    limit_create: str = "30/minute;300/hour"
    """Game creations per client address: a limit string of the ``limits`` library (``;`` joins several)."""
    limit_moves: str = "600/minute"
    """Moves per seat token (counted by the token's hash)."""
    limit_moves_per_address: str = "1200/minute"
    """Moves per client address, whatever the token."""
    limit_bad_token: str = "20/minute"
    """Requests with a token that end in 401, per client address; beyond it, requests with a token get 429."""
    streams_per_address: int = 16
    """Open live streams (SSE and NDJSON) per client address, over all API processes."""
    streams_per_game: int = 200
    """Open live streams per game, over all API processes."""
    streams_per_worker: int = 1500
    """Open live streams per API process; keep it below gunicorn's ``--worker-connections`` (``WORKER_CONNECTIONS``).
    Two processes hold 2,000 viewers even when the kernel hands one of them three in four."""
    trust_proxy: int = 0
    """How many proxies in front of the API to trust for ``X-Forwarded-For`` (0: none; the socket's address)."""
    webhook_allow: tuple[Network, ...] = ()
    """Networks webhook URLs may reach although they are not public (``ORRERY_WEBHOOK_ALLOW``, CIDRs)."""
    timer_lease_ms: int = 10_000
    """How long a sweep holds a due timer; a timer whose sweeper died fires again after this."""
    fsync: str = "everysec"
    """The embedded Redis's ``appendfsync``: ``always`` or ``everysec`` (``ORRERY_FSYNC``)."""
    cors_origins: tuple[str, ...] = ()
    """Origins whose browsers may call the JSON API (``ORRERY_CORS_ORIGINS``, comma-separated; none by default)."""
    ladder: bool = False
    """Whether beat runs the ladder's rounds (``ORRERY_LADDER``: ``on`` or ``off``, the default)."""
    ladder_interval_s: float = 5.0
    """Seconds between two ladder rounds (``ORRERY_LADDER_INTERVAL_S``)."""
    ladder_think_ms: int = 200
    """A reference player's time budget per move in ladder games (``ORRERY_LADDER_THINK_MS``; as
    ``service.ladder.LADDER_THINK_MS``)."""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        namespace = env.get("ORRERY_NAMESPACE", "orrery")
        return cls(
            redis_url=env.get("REDIS_URL") or None,
            namespace=namespace,
            redis_cluster=_flag(env.get("ORRERY_REDIS_CLUSTER", "")),
            broker_url=env.get("CELERY_BROKER_URL") or None,
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
            cors_origins=tuple(
                o.strip().rstrip("/") for o in env.get("ORRERY_CORS_ORIGINS", "").split(",") if o.strip()
            ),
            ladder=_on_off("ORRERY_LADDER", env.get("ORRERY_LADDER", "")),
            ladder_interval_s=_positive("ORRERY_LADDER_INTERVAL_S", env.get("ORRERY_LADDER_INTERVAL_S"), float)
            or _default("ladder_interval_s"),
            ladder_think_ms=_positive("ORRERY_LADDER_THINK_MS", env.get("ORRERY_LADDER_THINK_MS"), int)
            or _default("ladder_think_ms"),
        )

    def require_redis(self) -> str:
        if not self.redis_url:
            raise RuntimeError(
                "REDIS_URL is not set. `orrery up` (or `make run`) starts an embedded Redis and sets it."
            )
        return self.redis_url

    def require_broker(self) -> str:
        """Celery's broker URL: ``CELERY_BROKER_URL``, else the store's Redis (never a cluster)."""
        if self.broker_url:
            return self.broker_url
        if self.redis_cluster:
            raise RuntimeError(
                "ORRERY_REDIS_CLUSTER is set but CELERY_BROKER_URL is not: Celery cannot use a Redis Cluster as "
                "its broker. Name RabbitMQ (amqp://guest:guest@127.0.0.1:5672//) or a plain Redis."
            )
        return self.redis_url or "redis://127.0.0.1:6379/0"


def _flag(raw: str) -> bool:
    """A yes/no setting: yes, true, on or 1 for yes; anything else, empty included, for no."""
    return raw.strip().lower() in ("1", "yes", "true", "on")


def _on_off(name: str, raw: str) -> bool:
    """A switch that is ``on`` or ``off`` (empty: off); any other value is refused, naming the setting."""
    value = raw.strip().lower()
    if value in ("", "off"):
        return False
    if value == "on":
        return True
    raise ValueError(f"{name} is on or off, not {raw!r}")


def _positive(name: str, raw: str | None, kind: type[int] | type[float]) -> Any:
    """A positive number (None when unset or empty); any other value is refused, naming the setting."""
    if raw is None or not raw.strip():
        return None
    try:
        value = kind(raw)
    except ValueError:
        value = 0
    if not value > 0:
        unit = "whole number" if kind is int else "number"
        raise ValueError(f"{name} is a positive {unit}, not {raw!r}")
    return value


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


WORKER_CONNECTIONS = 2000
"""Connections one gevent API process serves at once (gunicorn's ``--worker-connections``): room for
``Settings.streams_per_worker`` live streams (a greenlet and a socket each) and 500 ordinary requests."""

REDIS_MAX_CONNECTIONS = 2 * WORKER_CONNECTIONS
"""The ceiling of one process's Redis pool: a connection per request in flight, plus one per followed game
(``api.fanout``) or open bot stream, each blocked on XREAD (redis-py's default is 100)."""


CLUSTER_REQUEST_TTL = 80
"""Redirections and TRYAGAIN answers one cluster command may follow (redis-py's default is 16). While a slot
migrates, a script whose keys are split between two masters gets TRYAGAIN until the move ends; redis-py waits
50 ms after each of the second half of the attempts, so this waits about 2 s before the API answers 503."""


@functools.cache
def redis_client(url: str, cluster: bool = False) -> Any:
    """One connection pool per URL and process: a ``redis.Redis``, or a ``redis.RedisCluster`` from any node.

    The socket timeout outlasts the longest blocking read (a live stream waits up to 15 s). A cluster client
    follows MOVED and ASK redirections and retries TRYAGAIN while a slot migrates, so a resharding costs
    requests time, not errors.
    """
    options: dict[str, Any] = {
        "socket_timeout": 30,
        "socket_connect_timeout": 5,
        "max_connections": REDIS_MAX_CONNECTIONS,
    }
    if cluster:
        retry = Retry(ExponentialWithJitterBackoff(base=0.01, cap=0.5), retries=10)
        client = redis.RedisCluster.from_url(url, retry=retry, **options)
        client.RedisClusterRequestTTL = CLUSTER_REQUEST_TTL
        return client
    return redis.Redis.from_url(url, health_check_interval=30, **options)


def build_service(settings: Settings, store: Any = None) -> Any:
    """The game service over the configured Redis, or over ``store`` (such as a
    :class:`~events.memory.MemoryStore`); the built-in bots are registered as the ladder's reference players
    (once: a repeat changes nothing). The workers learn of appends from the outboxes they follow
    (``workers.tasks.OutboxFollower``), so the service tells them nothing itself."""
    from events.keys import Keyspace
    from events.store import RedisStore
    from service.bots import BotRegistry
    from service.games import GameService

    load_games(settings)
    if store is None:
        store = RedisStore(redis_client(settings.require_redis(), settings.redis_cluster), Keyspace(settings.namespace))
    service = GameService(
        store,
        snapshot_every=settings.snapshot_every,
        public_url=settings.public_url,
        webhook_policy=WebhookPolicy(settings.webhook_allow),
    )
    BotRegistry(service).ensure_reference_players()
    return service


def create_app(settings: Settings | None = None, store: Any = None) -> Flask:
    """The Flask application: the JSON API, its OpenAPI document and docs, over the configured Redis or
    ``store`` (see :func:`build_service`)."""
    from api import init_api
    from api.cors import install as install_cors
    from web import init_web

    settings = settings or Settings.from_env()
    app = Flask("orrery")
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.extensions["orrery.settings"] = settings
    app.config["CELERY"] = celery_config(settings)
    app.extensions["orrery.service"] = build_service(settings, store)
    celery_init_app(app)
    init_api(app)
    install_cors(app, settings.cors_origins)
    init_web(app)
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
    "workers.tasks.ladder_round": "main",
    "workers.tasks.play_bot_turn": "bots",
    "workers.tasks.deliver_turn": "webhooks",
    "workers.tasks.publish_turn": "webhooks",
    "workers.tasks.deliver_challenge": "webhooks",
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


UP_LOGLEVEL = "WARNING"
"""Celery's log level under ``orrery up``: problems only, not a line per task and per beat tick."""


def worker_command(
    queues: Sequence[str],
    hostname: str,
    *,
    pool: str = "prefork",
    concurrency: int = WORKER_CONCURRENCY,
    loglevel: str = "INFO",
) -> list[str]:
    """A Celery worker that consumes ``queues``; ``hostname`` must be unique per process (``name@%h``)."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "app:celery",
        "worker",
        f"--loglevel={loglevel}",
        "--pool",
        pool,
        f"--concurrency={concurrency}",
        "--queues",
        ",".join(queues),
        "--hostname",
        hostname,
    ]


def worker_commands(settings: Settings, tag: str, *, loglevel: str = UP_LOGLEVEL) -> dict[str, list[str]]:
    """The workers ``orrery up`` runs: a prefork worker for built-in bots, scoring, timers and the relay,
    and a gevent worker for webhook deliveries, so that slow webhook bots only ever wait on each other."""
    names = queue_names(settings)
    return {
        "worker": worker_command([names.main, names.bots], f"orrery-worker-{tag}@%h", loglevel=loglevel),
        "webhooks": worker_command(
            [names.webhooks],
            f"orrery-webhooks-{tag}@%h",
            pool=WEBHOOK_POOL,
            concurrency=WEBHOOK_CONCURRENCY,
            loglevel=loglevel,
        ),
    }


def beat_schedule(settings: Settings) -> dict[str, dict[str, Any]]:
    """What beat sends: the outbox relay and the timer sweep every second, and with ``ORRERY_LADDER=on`` a
    ladder round every ``ORRERY_LADDER_INTERVAL_S`` (dropped unrun if it waits longer than that)."""
    schedule: dict[str, dict[str, Any]] = {
        "relay-outbox": {"task": "workers.tasks.relay_outbox", "schedule": 1.0},
        "sweep-timers": {"task": "workers.tasks.sweep_timers", "schedule": 1.0},
    }
    if settings.ladder:
        schedule["ladder-round"] = {
            "task": "workers.tasks.ladder_round",
            "schedule": settings.ladder_interval_s,
            "options": {"expires": settings.ladder_interval_s},
        }
    return schedule


def celery_config(settings: Settings) -> dict[str, Any]:
    """Celery's whole configuration for ``settings``, as one mapping (``app.config["CELERY"]`` in the API).

    Tasks are at-least-once and idempotent by construction. Beside Celery's own settings it carries what
    the tasks read through :mod:`workers.context`: the settings, and a factory that builds the worker's
    own game service from them.
    """
    visibility_timeout = settings.visibility_timeout
    return {
        "broker_url": settings.require_broker(),
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "task_ignore_result": True,
        "task_default_queue": settings.queue,
        "task_routes": task_routes(settings),
        "broker_transport_options": {
            "visibility_timeout": visibility_timeout,
            "global_keyprefix": f"{settings.namespace}:celery:",
        },
        "result_backend_transport_options": {"visibility_timeout": visibility_timeout},
        "broker_connection_retry_on_startup": True,
        "worker_send_task_events": False,
        "beat_schedule": beat_schedule(settings),
        "timezone": "UTC",
        **task_context.config(settings, functools.partial(build_service, settings)),
    }


def _celery(config: Mapping[str, Any], *, current: bool) -> Celery:
    from workers.tasks import OutboxFollower

    celery_app = Celery("orrery", include=["workers.tasks"], set_as_current=current)
    celery_app.conf.update(config)
    celery_app.steps["worker"].add(OutboxFollower)
    if current:
        celery_app.set_default()
    return celery_app


def make_celery(settings: Settings, *, current: bool = True) -> Celery:
    """The Celery app of ``settings`` (see :func:`celery_config`), as the workers and beat run it.

    ``current=False`` makes an app that talks to the broker without becoming
    the app that ``@shared_task`` tasks are sent through. The current app is
    also made the default of every thread and greenlet: Celery keeps "current"
    per thread, so without it a request served by a gthread thread or a gevent
    greenlet would send tasks through Celery's unconfigured fallback app.
    """
    return _celery(celery_config(settings), current=current)


def celery_init_app(app: Flask) -> Celery:
    """Give the Flask ``app`` its Celery app, made from ``app.config["CELERY"]`` and kept in
    ``app.extensions["celery"]`` (``/readyz`` pings the workers through it).

    It does not become the current app: tasks are sent through the module's :data:`celery`, which the
    same environment configures, so that an app made for other settings (as tests do) redirects no one's
    tasks.
    """
    celery_app = _celery(app.config["CELERY"], current=False)
    app.extensions["celery"] = celery_app
    return celery_app


celery = make_celery(Settings.from_env())
"""The current Celery app, configured from the environment: ``celery -A app:celery worker`` (or ``beat``)."""


# --- The command line ----------------------------------------------------------------


def package_version() -> str:
    """The installed ``orrery`` package's version, from its metadata."""
    try:
        return importlib.metadata.version("orrery")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed as a package)"


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """argparse's help with defaults, except where there is none to show (None, a flag's False, an empty
    list): those help texts say in words what happens without the argument."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default in (None, False, []):
            return action.help
        return super()._get_help_string(action)


def cli_parser() -> argparse.ArgumentParser:
    """The ``orrery`` command line's parser; every argument's help shows its default."""
    formatter = _HelpFormatter
    parser = argparse.ArgumentParser(
        prog="orrery", description="Orrery, an event-sourced game server.", formatter_class=formatter
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, text: str, parent: Any = commands) -> argparse.ArgumentParser:
        found: argparse.ArgumentParser = parent.add_parser(name, help=text, description=text, formatter_class=formatter)
        return found

    up_parser = command("up", "start Redis (embedded unless REDIS_URL is set), the workers, beat and the API")
    up_parser.add_argument(
        "--host", default=os.environ.get("HOST", "127.0.0.1"), help="address the API listens on ($HOST)"
    )
    up_parser.add_argument(
        "--port", type=int, default=int(os.environ.get("PORT", "8000")), help="port the API listens on ($PORT)"
    )
    up_parser.add_argument(
        "--data-dir",
        default=os.environ.get("ORRERY_DATA_DIR", "var"),
        help="folder of the embedded Redis's data and beat's schedule ($ORRERY_DATA_DIR)",
    )

    play_parser = command("play", "play a game in this terminal: you, built-in bots and webhook bots, in any mix")
    play_parser.add_argument("--game", default="homeworlds", help="the game to play")
    play_parser.add_argument(
        "--seat",
        dest="seats",
        action="append",
        type=PlaySeat.parse,
        metavar="SEAT",
        help="a seat, once per seat in order: 'you' (moves typed here), 'builtin:<bot>[:<think_ms>]' or a webhook "
        f"bot's http(s) URL (default: you and builtin:{DEFAULT_OPPONENT})",
    )
    play_parser.add_argument(
        "--option",
        dest="options",
        action="append",
        type=_play_option,
        default=[],
        metavar="KEY=VALUE",
        help="a game or table option, once per option; VALUE is read as JSON when it can be (true, 3, [...]), "
        "else as text (default: the game's defaults)",
    )
    play_parser.add_argument(
        "--seed",
        help="the seed the game is dealt from (32 or more hex digits for a game with hidden information) "
        "(default: a random one)",
    )
    play_parser.add_argument(
        "--export", metavar="PATH", help="where to write the game's export (default: orrery-<game>-<id>.ndjson here)"
    )
    play_parser.add_argument(
        "--webhook-secret",
        metavar="WHSEC",
        help="the signing secret (whsec_...) of the webhook seats (default: a new one, printed at the start)",
    )
    play_parser.add_argument(
        "--max-moves", type=_positive_int, default=2000, help="stop the game unfinished after this many moves"
    )
    play_parser.add_argument(
        "--watch", action="store_true", help="show the board after every bot move too (default: before your moves)"
    )

    transcripts = command("transcripts", "work with game transcripts")
    transcript_commands = transcripts.add_subparsers(dest="transcripts_command", required=True, metavar="COMMAND")
    check = command("check", "replay transcripts and report each file's result", transcript_commands)
    check.add_argument("--game", required=True, help="the game the transcripts are of (homeworlds)")
    check.add_argument("paths", nargs="+", help="transcript files, or folders of them")

    arena = command("arena", "play N games between two built-in bots and print the score")
    arena.add_argument("--game", default="homeworlds", help="the game to play")
    arena.add_argument("bot_a", help="a built-in bot of the game")
    arena.add_argument("bot_b", help="another (or the same) built-in bot")
    arena.add_argument("-n", "--games", type=_positive_int, default=100, help="how many games, first seat alternating")
    arena.add_argument("--think-ms", type=_positive_int, default=200, help="each bot's time budget per move, in ms")
    arena.add_argument("--seed", default="arena", help="the match's seed; the same seed plays the same match")
    arena.add_argument(
        "--max-plies",
        type=_positive_int,
        default=2000,
        help="stop a game unfinished (a draw) after this many moves",
    )

    ladder = command(
        "ladder", "play N rated ladder games between built-in bots in this process and print the leaderboard"
    )
    ladder.add_argument("--game", default="homeworlds", help="the game kind to play")
    ladder.add_argument("-n", "--games", type=_positive_int, default=50, help="how many ladder games")
    ladder.add_argument(
        "--players",
        type=_player_list,
        help="the players, comma-separated, such as builtin-search,builtin-random (default: every built-in bot "
        "of the game)",
    )
    ladder.add_argument(
        "--think-ms",
        type=_positive_int,
        default=_default("ladder_think_ms"),
        help="each built-in bot's time budget per move, in ms",
    )

    verify = command("verify", "check an exported game (NDJSON) with no server and no Redis")
    verify.add_argument("file", help="an export from GET /v1/games/{id}/export or orrery play, or - for standard input")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The ``orrery`` command line: ``up``, ``play``, ``arena``, ``ladder``, ``verify`` and ``transcripts check``.

    A user's mistake (a missing file, an unknown game or bot) is one line on standard error and exit code 2.
    """
    args = cli_parser().parse_args(argv)
    try:
        if args.command == "verify":
            return verify_export(args.file)
        if args.command == "up":
            return up(args.host, args.port, Path(args.data_dir))
        if args.command == "arena":
            return run_arena(args.game, args.bot_a, args.bot_b, args.games, args.think_ms, args.seed, args.max_plies)
        if args.command == "ladder":
            return run_ladder(args.game, args.games, args.players, args.think_ms)
        if args.command == "play":
            return play(
                args.game,
                args.seats or [PlaySeat("you"), PlaySeat("builtin", bot=DEFAULT_OPPONENT)],
                options=dict(args.options),
                seed=args.seed,
                export=args.export,
                webhook_secret=args.webhook_secret,
                max_moves=args.max_moves,
                watch=args.watch,
            )
        return check_transcripts(args.game, args.paths)
    except KeyboardInterrupt:
        print("orrery: interrupted", file=sys.stderr)
        return 130


def run_arena(
    game_name: str, bot_a: str, bot_b: str, games: int, think_ms: int, seed: str, max_plies: int = 2000
) -> int:
    """``orrery arena``: a match between two built-in bots, with no service; prints the score."""
    from domain.arena import arena_bots, play_match, progress_bar

    load_games(Settings.from_env())
    try:
        game = contract.get(game_name)
    except KeyError:
        print(f"orrery: no game {game_name!r}; known: {', '.join(contract.names())}", file=sys.stderr)
        return 2
    known = arena_bots(game)
    for bot in (bot_a, bot_b):
        if bot not in known:
            print(f"orrery: {game_name} has no bot {bot!r}; it has: {', '.join(sorted(known))}", file=sys.stderr)
            return 2
    result = play_match(
        game, bot_a, bot_b, games, think_ms=think_ms, seed=seed, progress=progress_bar("arena"), max_plies=max_plies
    )
    print(result.summary())
    return 0


def _player_list(text: str) -> list[str]:
    players = [p.strip() for p in text.split(",") if p.strip()]
    if len(players) < 2:
        raise argparse.ArgumentTypeError("name at least two players, comma-separated")
    return players


def run_ladder(game_name: str, games: int, players: Sequence[str] | None, think_ms: int) -> int:
    """``orrery ladder``: ``games`` ladder games between built-in bots, played and scored in this process over a
    throwaway embedded Redis, with no API and no workers; prints the leaderboard.

    The rounds, the pairing and the rating updates are the ladder's own (:mod:`service.ladder`); only the moves
    are played here rather than by the workers, as they are when beat runs the ladder (``ORRERY_LADDER=on``).
    Reference players meet each other here, which the beat's rounds never pair.
    """
    import tempfile

    from domain.arena import progress_bar
    from domain.table.seats import BUILTIN_PLAYER_PREFIX
    from events.embedded import EmbeddedRedis
    from events.keys import Keyspace
    from events.store import RedisStore
    from service.bots import BotRegistry
    from service.games import GameService
    from service.ladder import Ladder, leaderboard, run
    from service.ratings import Ratings

    load_games(Settings.from_env())
    try:
        game = contract.get(game_name)
    except KeyError:
        print(f"orrery ladder: no game {game_name!r}; known: {', '.join(contract.names())}", file=sys.stderr)
        return 2
    known = [BUILTIN_PLAYER_PREFIX + bot for bot in sorted(game.bots)]
    unknown = [p for p in players or () if p not in known]
    if unknown:
        print(f"orrery ladder: {game.name} has no player {unknown[0]!r}; it has: {', '.join(known)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="orrery-ladder-") as folder:
        embedded = EmbeddedRedis(Path(folder) / "redis", persistent=False).start()
        try:
            service = GameService(RedisStore(redis.Redis.from_url(embedded.url), Keyspace("orrery-ladder")))
            BotRegistry(service).ensure_reference_players()
            ladder = Ladder(service, think_ms=think_ms, players=players or known, references_meet=True)
            started = time.monotonic()
            played = run(ladder, game.name, games, progress=progress_bar("ladder"))
            elapsed = time.monotonic() - started
            unfinished = f", {len(played.unfinished)} left unfinished" if played.unfinished else ""
            print(f"{len(played.finished)} {game.name} ladder games, {elapsed:.1f} s, think {think_ms} ms{unfinished}")
            print(leaderboard(Ratings(service.store), game.name))
        finally:
            embedded.stop()
    return 0


def verify_export(path: str) -> int:
    """Check an export offline: hash chain, every move's legality, the seed. Exit 0 only if all hold,
    1 if the export fails, 2 if it is no complete Orrery export (or cannot be read)."""
    import json

    from domain.table.verify import verify
    from events.envelope import Envelope
    from service.games import EXPORT_FORMAT
    from service.ratings import replay

    def refuse(reason: str) -> int:
        print(f"orrery verify: {reason}", file=sys.stderr)
        return 2

    load_games(Settings.from_env())
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        return refuse(f"cannot read {path}: {error.strerror or error}")
    except UnicodeDecodeError:
        return refuse(f"{path} is not UTF-8 text, so it is not an Orrery export")
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return refuse(f"{path} is empty")
    try:
        header = json.loads(lines[0])
    except ValueError as error:
        return refuse(f"{path} is not an Orrery export: its first line is not JSON ({error})")
    if not isinstance(header, dict) or header.get("format") != EXPORT_FORMAT:
        return refuse(f"{path} is not an Orrery export (no {EXPORT_FORMAT} header line)")
    if not header.get("complete"):
        return refuse(
            f"this export is {header.get('viewer')}'s view, with redacted events; only an export "
            "that holds every event whole (the creator's, once the game is over) can be verified"
        )
    envelopes = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            envelopes.append(Envelope.from_json(line))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            print(f"FAILED: line {number} is not an event envelope ({error})")
            return 1
    verdict = verify(envelopes, replay)
    print(verdict)
    return 0 if verdict.ok else 1


def check_transcripts(game: str, paths: list[str]) -> int:
    """``orrery transcripts check``: replay each transcript under the game's rules and print its verdict."""
    checkers = {"homeworlds": "domain.homeworlds.transcripts"}
    if game not in checkers:
        print(f"orrery: no transcript checker for {game!r}; known: {', '.join(checkers)}", file=sys.stderr)
        return 2
    for path in paths:
        if not os.path.exists(path):
            print(f"orrery transcripts check: no such file or folder: {path}", file=sys.stderr)
            return 2
        if not os.access(path, os.R_OK):
            print(f"orrery transcripts check: cannot read {path}: permission denied", file=sys.stderr)
            return 2
    module = importlib.import_module(checkers[game])
    return int(module.main(paths))


# --- orrery play ---------------------------------------------------------------------

DEFAULT_OPPONENT = "greedy"
"""The built-in bot ``orrery play`` seats against you when no ``--seat`` is given."""
PLAY_THINK_MS = 1000
"""A built-in bot's time budget per move in ``orrery play`` unless its seat names one."""
HINTS = 8
"""How many legal moves a prompt shows; ``?`` lists more."""
PAGE = 40
TEXT_BOARDS = {"homeworlds": "domain.homeworlds.text_board", "planet-unknown": "domain.planet_unknown.text_board"}
"""Each game's text renderer: a module with ``render(view, seat)`` and ``move_text(move)``."""


@dataclasses.dataclass(frozen=True, slots=True)
class PlaySeat:
    """One seat of ``orrery play``: ``you`` (moves typed here), a built-in bot, or a webhook bot's URL."""

    kind: str
    bot: str | None = None
    think_ms: int = PLAY_THINK_MS
    url: str | None = None

    @classmethod
    def parse(cls, text: str) -> PlaySeat:
        """``you``, ``builtin:<bot>[:<think_ms>]`` or an ``http(s)://`` URL (argparse's type for ``--seat``)."""
        if text == "you":
            return cls("you")
        if text.startswith(("http://", "https://")):
            return cls("webhook", url=text)
        kind, _, rest = text.partition(":")
        name, _, think = rest.partition(":")
        if kind != "builtin" or not name:
            raise argparse.ArgumentTypeError(
                f"{text!r}: a seat is 'you', 'builtin:<bot>[:<think_ms>]' or an http(s):// URL"
            )
        if think and (not think.isdigit() or int(think) < 1):
            raise argparse.ArgumentTypeError(f"{text!r}: the think time is a whole number of ms, at least 1")
        return cls("builtin", bot=name, think_ms=int(think) if think else PLAY_THINK_MS)

    @property
    def label(self) -> str:
        if self.kind == "builtin":
            return f"builtin:{self.bot}"
        return self.url if self.kind == "webhook" and self.url else self.kind

    def bot_spec(self) -> dict[str, Any] | None:
        """The seat's ``bot`` object at game creation."""
        if self.kind == "builtin":
            return {"builtin": self.bot, "think_ms": self.think_ms}
        return {"webhook": self.url} if self.kind == "webhook" else None


def _play_option(text: str) -> tuple[str, Any]:
    import json

    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: an option is KEY=VALUE")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return key.strip(), value


class _Table:
    """One ``orrery play`` game in progress: the service, the seats, and the terminal."""

    def __init__(self, service: Any, game_id: str, seats: Sequence[PlaySeat], watch: bool) -> None:
        self.service = service
        self.game_id = game_id
        self.seats = seats
        self.watch = watch
        humans = [i for i, s in enumerate(seats) if s.kind == "you"]
        self.viewer: contract.Viewer = humans[0] if len(humans) == 1 else contract.Role.SPECTATOR
        module = TEXT_BOARDS.get(service.head(game_id).game.name)
        self.board = None if module is None else importlib.import_module(module)

    def name(self, seat: int) -> str:
        return f"seat {seat} ({self.seats[seat].label})"

    def show(self, viewer: contract.Viewer) -> None:
        import json

        record = self.service.head(self.game_id)
        view = self.service.view(record, viewer)
        seat = viewer if isinstance(viewer, int) else None
        print("", flush=True)
        print(self.board.render(view, seat) if self.board else json.dumps(view, indent=1), flush=True)

    def move_text(self, move: Any) -> str:
        import json

        if self.board is not None:
            try:
                return str(self.board.move_text(move))
            except ValueError:
                pass
        return move if isinstance(move, str) else json.dumps(move)

    def report(self, after: int) -> None:
        """One line per move made after version ``after``, as this terminal's viewer may see it."""
        record = self.service.head(self.game_id)
        for envelope in self.service.events(self.game_id, after=after):
            if envelope.type != "MoveMade":
                continue
            shown = self.service.project(record, envelope, self.viewer)
            seat = int(envelope.payload["seat"])
            text = "(hidden)" if shown.get("redacted") else self.move_text(envelope.payload["move"])
            print(f"{self.name(seat)}: {text}", flush=True)

    def run(self, max_moves: int) -> str | None:
        """Play until the game ends (None) or stops: then the reason, in a few words."""
        if self.viewer is contract.Role.SPECTATOR and not any(s.kind == "you" for s in self.seats):
            self.show(self.viewer)
        for _ in range(max_moves):
            record = self.service.head(self.game_id)
            if record.over:
                return None
            acting = sorted(record.game.to_act(record.state))
            if not acting:
                return "nobody is to act"
            seat = acting[0]
            kind = self.seats[seat].kind
            if kind == "you":
                stopped = self.human(record, seat)
            elif kind == "builtin":
                moved = self.service.bot_move(self.game_id, seat, record.version)
                stopped = None if moved is not None else f"{self.name(seat)} found no legal move"
            else:
                stopped = self.webhook(record, seat)
            self.report(record.version)
            if stopped is not None:
                return stopped
            if self.watch and kind != "you":
                self.show(self.viewer)
        return None if self.service.head(self.game_id).over else f"the game reached {max_moves} moves"

    def human(self, record: Any, seat: int) -> str | None:
        import json

        from service.games import ServiceError

        game = record.game
        self.show(seat)
        moves = list(game.legal_moves(record.state, seat))
        if game.pass_move is not None and game.pass_move in moves:
            moves.remove(game.pass_move)
            moves.append(game.pass_move)
        texts = [self.move_text(m) for m in moves]
        print(f"\n{self.name(seat)} to act: {len(moves)} legal moves", flush=True)
        self.listing(texts, range(min(HINTS, len(texts))))
        print("Type a move, a number from the list, ? for more (? WORDS filters), or q to stop.", flush=True)
        listed: list[int] = []
        shown = 0
        while True:
            print("> ", end="", flush=True)
            line = sys.stdin.readline()
            if not line:
                print("", flush=True)
                return "the input ended"
            line = line.strip()
            if not sys.stdin.isatty():
                print(line, flush=True)
            if not line:
                continue
            if line in ("q", "quit", "exit"):
                return "stopped at your request"
            if line.startswith("?"):
                words = line[1:].lower().split()
                matching = [i for i, t in enumerate(texts) if all(w in t.lower() for w in words)]
                shown = shown if matching == listed else 0
                listed = matching
                self.listing(texts, matching[shown : shown + PAGE])
                shown += PAGE
                if shown < len(matching):
                    print(f"... {len(matching) - shown} more: ? again", flush=True)
                continue
            move: Any = line
            if line.isdigit():
                if not 1 <= int(line) <= len(moves):
                    print(f"pick a number from 1 to {len(moves)}", flush=True)
                    continue
                move = moves[int(line) - 1]
            elif line[0] in '[{"':
                try:
                    move = json.loads(line)
                except ValueError as error:
                    print(f"that is not JSON: {error}", flush=True)
                    continue
            try:
                self.service.submit(self.game_id, seat, move)
                return None
            except (contract.RuleError, ServiceError) as refused:
                print(f"not accepted: {refused}", flush=True)

    @staticmethod
    def listing(texts: Sequence[str], indices: Any) -> None:
        for i in indices:
            print(f"  {i + 1:>4}) {texts[i]}", flush=True)

    def webhook(self, record: Any, seat: int) -> str | None:
        from workers.webhooks import deliver

        attempt = 1
        while True:
            delivery = deliver(self.service, self.game_id, seat, record.version, attempt)
            if delivery.status in ("moved", "stale"):
                return None
            log = self.service.store.deliveries(self.game_id, start=-1, limit=1)
            why = (log[-1].get("error") if log else None) or delivery.status
            if delivery.status == "accepted":
                return (
                    f"{self.name(seat)} answered 202, but orrery play has no API for a later move: "
                    'a webhook bot here answers 200 with {"move": ...}'
                )
            if delivery.retry_in is None:
                return f"{self.name(seat)}: delivery {delivery.status} ({why})"
            print(f"{self.name(seat)}: attempt {attempt}: {why}; again in {delivery.retry_in:.1f} s", flush=True)
            time.sleep(delivery.retry_in)
            attempt += 1


def play(
    game_name: str,
    seats: Sequence[PlaySeat],
    *,
    options: Mapping[str, Any] | None = None,
    seed: str | None = None,
    export: str | None = None,
    webhook_secret: str | None = None,
    max_moves: int = 2000,
    watch: bool = False,
) -> int:
    """``orrery play``: one game in this process, over a throwaway embedded Redis, with no API and no workers.

    Built-in bots move in turn, webhook bots are sent their turns here, and ``you`` seats type
    their moves. The game's export is written at the end. Exit 0 when the game ended, 1 when it
    stopped unfinished, 2 for a game that cannot be set up.
    """
    import tempfile

    from events.embedded import EmbeddedRedis
    from events.keys import Keyspace
    from events.store import RedisStore
    from service.games import GameService, SeatSpec, ServiceError

    def refuse(reason: str) -> int:
        print(f"orrery play: {reason}", file=sys.stderr)
        return 2

    load_games(Settings.from_env())
    try:
        game = contract.get(game_name)
    except KeyError:
        return refuse(f"no game {game_name!r}; known: {', '.join(contract.names())}")
    for spec in seats:
        if spec.kind == "builtin" and spec.bot not in game.bots:
            return refuse(f"{game_name} has no built-in bot {spec.bot!r}; it has: {', '.join(sorted(game.bots))}")
    try:
        policy = WebhookPolicy(parse_allow(os.environ.get(ALLOW_SETTING) or LOOPBACK_ALLOW))
    except ValueError as error:
        return refuse(str(error))
    with tempfile.TemporaryDirectory(prefix="orrery-play-") as folder:
        embedded = EmbeddedRedis(Path(folder) / "redis", persistent=False).start()
        try:
            client = redis.Redis.from_url(embedded.url)
            service = GameService(RedisStore(client, Keyspace("orrery-play")), webhook_policy=policy)
            if webhook_secret:
                for spec in seats:
                    if spec.url:
                        service.store.register_endpoint(spec.url, webhook_secret)
            try:
                created = service.create(
                    game.name,
                    [SeatSpec(s.bot or s.kind, s.bot_spec()) for s in seats],
                    dict(options or {}),
                    seed=None if seed is None else seed.encode(),
                )
            except (ServiceError, contract.RuleError, ValueError) as refused:
                return refuse(str(refused))
            game_id = created.record.game_id
            print(f"orrery play: {game.name} game {game_id}", flush=True)
            for index, secret in created.webhook_secrets.items():
                print(f"orrery play: seat {index}'s webhook secret: {secret}", flush=True)
            table = _Table(service, game_id, seats, watch)
            try:
                stopped = table.run(max_moves)
            except KeyboardInterrupt:
                stopped = "interrupted"
            return _finish(table, stopped, export)
        finally:
            embedded.stop()


def _finish(table: _Table, stopped: str | None, export: str | None) -> int:
    """Score a finished game, show the end, write the export and say where it is."""
    service, game_id = table.service, table.game_id
    record = service.head(game_id)
    if record.over:
        service.score(game_id)
        table.show(contract.Role.AUDITOR)
        outcome = record.outcome
        winners = " and ".join(table.name(s) for s in outcome.winners) if outcome and outcome.winners else "nobody"
        print(f"\nGame over ({outcome.reason if outcome else '?'}): {winners} won", flush=True)
    else:
        print(f"\norrery play: the game stopped unfinished: {stopped}", flush=True)
    path = Path(export or f"orrery-{record.game.name}-{game_id}.ndjson")
    lines = list(service.export(game_id, contract.Role.AUDITOR))
    try:
        path.write_text("".join(lines), encoding="utf-8")
    except OSError as error:
        print(f"orrery play: cannot write the export to {path}: {error.strerror or error}", file=sys.stderr)
        return 2
    print(f"Export: {path} (orrery verify {path} checks it)", flush=True)
    return 0 if record.over else 1


def with_webhook_allow_default(env: Mapping[str, str], host: str) -> dict[str, str]:
    """The environment of ``orrery up``'s children: unless the user set ``ORRERY_WEBHOOK_ALLOW``, an API
    bound to a loopback address may call webhook bots on the same machine (``127.0.0.0/8,::1/128``)."""
    out = dict(env)
    if ALLOW_SETTING not in out and is_loopback_host(host):
        out[ALLOW_SETTING] = LOOPBACK_ALLOW
    return out


def with_public_url_default(env: Mapping[str, str], host: str, port: int) -> dict[str, str]:
    """The environment of ``orrery up``'s children: unless the user set ``ORRERY_PUBLIC_URL``, the address the
    API serves on (a wildcard host as loopback, an IPv6 host in brackets), so turn requests carry absolute URLs."""
    out = dict(env)
    if out.get("ORRERY_PUBLIC_URL"):
        return out
    name = host.strip("[]")
    name = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(name, name)
    out["ORRERY_PUBLIC_URL"] = f"http://{f'[{name}]' if ':' in name else name}:{port}"
    return out


READY_TIMEOUT_S = 60
"""How long ``orrery up`` waits for ``/readyz`` (Redis and a worker) before it prints the API's address anyway."""


def _url_host(host: str) -> str:
    name = host.strip("[]")
    return f"[{name}]" if ":" in name else name


def _reachable_url(host: str, port: int) -> str:
    """Where this machine reaches an API bound to ``host``: a wildcard address as loopback."""
    name = host.strip("[]")
    name = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(name, name)
    return f"http://{_url_host(name)}:{port}"


def readiness(base_url: str, timeout: float = 2.0) -> str | None:
    """None once ``/readyz`` says Redis and a worker answer; otherwise what is still missing, in a few words."""
    import json
    import urllib.error
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{base_url}/readyz", timeout=timeout) as response:
            body = json.loads(response.read())
    except urllib.error.HTTPError as error:
        return f"/readyz answers {error.code}"
    except (OSError, ValueError):
        return "the API does not answer yet"
    missing = [f"{part} {body.get(part)}" for part in ("redis", "worker") if body.get(part) != "ok"]
    return ", ".join(missing) or None


def up(host: str, port: int, data_dir: Path) -> int:
    """Run the whole service in the foreground until Ctrl-C or SIGTERM.

    Every child dies with this supervisor, whatever kills it (``PR_SET_PDEATHSIG``),
    and the embedded Redis refuses a data folder that another one holds.
    """
    from events.embedded import DataDirLocked, EmbeddedRedis, die_with_parent

    env = with_public_url_default(with_webhook_allow_default(os.environ, host), host, port)
    env.setdefault("PYTHONUNBUFFERED", "1")
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
        print(f"orrery: embedded Redis on {embedded.url}, data in {data_dir / 'redis'}, fsync {fsync}", flush=True)
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
            f"--loglevel={UP_LOGLEVEL}",
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
        started = time.monotonic()
        next_probe: float | None = started
        while not stopping:
            exited = [name for name, child in children.items() if child.poll() is not None]
            if exited:
                print(f"orrery: {', '.join(exited)} stopped unexpectedly; shutting down", file=sys.stderr, flush=True)
                status = 1
                break
            if next_probe is not None and time.monotonic() >= next_probe:
                waiting = readiness(_reachable_url(host, port))
                if waiting is None or time.monotonic() - started > READY_TIMEOUT_S:
                    base = f"http://{_url_host(host)}:{port}"
                    note = "" if waiting is None else f"  (not ready after {READY_TIMEOUT_S} s: {waiting})"
                    print(f"orrery: API on {base}  docs at {base}/docs  (Ctrl-C stops everything){note}", flush=True)
                    next_probe = None
                else:
                    next_probe = time.monotonic() + 0.5
            time.sleep(0.2)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        stop_process_groups(list(children.values()))
        if embedded is not None:
            embedded.stop()
    print("orrery: stopped", flush=True)
    return status


ACCESS_LOG_FORMAT = '%(h)s "%(r)s" %(s)s %(B)s %(M)sms'
"""One access-log line per request on standard output: client, request line, status, body bytes, time taken."""


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
    Every request gets one access-log line on standard output (:data:`ACCESS_LOG_FORMAT`).
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
        "--access-logfile",
        "-",
        "--access-logformat",
        ACCESS_LOG_FORMAT,
        "--config",
        str(Path(__file__).resolve().parent / "api" / "server_hooks.py"),
        app,
    ]


def stop_process_groups(children: Sequence[subprocess.Popen[bytes]], timeout: float = 15.0) -> None:
    """SIGTERM each child's process group (children started with ``start_new_session``), wait up to
    ``timeout`` seconds in all, then SIGKILL the groups of whatever is left."""
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
