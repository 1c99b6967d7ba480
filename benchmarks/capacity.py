"""Capacity figures per component, for the capacity plan (docs/scaling.md).

Prints, in one run, against embedded Redis servers started for the purpose:

1. **Appends/s per Redis master.** ``RedisStore.append``, one append per call (as
   the API makes one per move), from 1, 2 and 4 client processes, each on games of
   its own, against one redis-server; then against a 3-master Redis Cluster. Beside
   the rates it prints the server's own CPU time per append (``INFO cpu``), whose
   inverse is what one fully busy master core can take whatever the clients do.
2. **Bot turns/s per worker.** One Celery worker as ``orrery up`` runs it (prefork,
   here with concurrency 1, beat embedded), on games whose every seat is a built-in
   bot, for a fixed time per kind of game; with the worker's CPU time per turn.
3. **Bytes per event and per game.** Complete games played through the service into
   a Redis, then ``MEMORY USAGE <key> SAMPLES 0`` of every key of each game: bytes per
   event (the events stream alone), bytes per finished game (all its keys), events per
   game, and the raw JSON size of an envelope.

Run from the repository root (about 3-4 minutes with the defaults):

    python benchmarks/capacity.py [--parts 1,2,3] [--appends 2000] [--bot-seconds 20] [--games 2]

On a machine with few cores the clients, the server and the worker share them, so
the rates are lower bounds; the CPU-time figures are the ones to plan with.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import multiprocessing
import os
import queue
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import (  # noqa: E402
    Settings,
    build_service,
    load_games,
    make_celery,
    queue_names,
    redis_client,
    stop_process_groups,
    worker_command,
)
from benchmarks.harness import BENCH_LIMITS  # noqa: E402
from domain import contract  # noqa: E402
from events.embedded import EmbeddedCluster, EmbeddedRedis, die_with_parent  # noqa: E402
from events.envelope import GENESIS_HASH, Envelope, seal  # noqa: E402
from events.keys import Keyspace  # noqa: E402
from events.store import RedisStore  # noqa: E402
from service.games import GameService, SeatSpec, ServiceError  # noqa: E402

TEST_GAMES = "tests.support.tictactoe:GAME"
"""The test game (tic-tac-toe), registered beside the built-in games."""

SEATS = {"tictactoe": 2, "homeworlds": 2, "planet-unknown": 4}
"""Seats of the bot games of part 2, by game."""

MAX_PLIES = 3000
"""A game of part 3 still running after this many bot turns is reported unfinished."""

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def say(text: str = "") -> None:
    print(text, flush=True)


# --- Redis's own figures ----------------------------------------------------------


def server_cpu(client: redis.Redis) -> float:
    """Seconds of CPU the server has used (user + system, every thread)."""
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def script_calls(client: redis.Redis) -> int:
    """How many ``EVALSHA`` calls the server has run (one per append or create)."""
    stats = client.info("commandstats")
    return int(stats.get("cmdstat_evalsha", {}).get("calls", 0))


def server_version(client: redis.Redis) -> str:
    server, memory = client.info("server"), client.info("memory")
    return f"redis-server {server['redis_version']}, allocator {memory['mem_allocator']}"


def group_cpu(pgid: int) -> float:
    """CPU seconds (user + system) used so far by the live processes of process group ``pgid``."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if int(fields[2]) == pgid:
            total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


# --- 1. appends per master ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class ClientResult:
    """What one client process did between the start signal and its last append."""

    appends: int
    started: float
    ended: float


@dataclasses.dataclass(frozen=True, slots=True)
class AppendRun:
    """One measurement: client rates and, per master (by port), appends and CPU seconds."""

    processes: int
    events_per_append: int
    clients: list[ClientResult]
    per_master: dict[int, tuple[int, float]]

    @property
    def appends(self) -> int:
        return sum(c.appends for c in self.clients)

    @property
    def seconds(self) -> float:
        return max(c.ended for c in self.clients) - min(c.started for c in self.clients)

    @property
    def rate(self) -> float:
        return self.appends / self.seconds

    @property
    def mean_ms(self) -> float:
        return statistics.mean(1000 * (c.ended - c.started) / c.appends for c in self.clients)

    @property
    def cpu_per_append(self) -> float:
        """Server CPU seconds per append, over every master."""
        return sum(cpu for _, cpu in self.per_master.values()) / self.appends


def bench_chain(game_id: str, count: int, events_per_append: int, envelope_bytes: int) -> list[list[Envelope]]:
    """The envelopes of ``count`` appends after a game's first event, sealed in advance.

    Each carries a payload padded so that its stored JSON is about ``envelope_bytes`` long.
    """

    def make(previous: str, version: int, pad: str) -> Envelope:
        return seal(
            previous,
            game_id=game_id,
            version=version,
            type="TurnEnded",
            seat=version % 2,
            payload={"n": version, "notation": pad},
            visible_to=None,
            redacted={},
            recorded_at=time.time_ns() // 1_000_000,
            event_id=uuid.uuid4().hex,
            rules_version="bench-1",
        )

    bare = len(make(GENESIS_HASH, 1, "").to_json())
    pad = "x" * max(0, envelope_bytes - bare)
    batches: list[list[Envelope]] = []
    previous, version = GENESIS_HASH, 1
    for _ in range(count + 1):
        batch = []
        for _ in range(1 if version == 1 else events_per_append):
            envelope = make(previous, version, pad)
            batch.append(envelope)
            previous, version = envelope.hash, version + 1
        batches.append(batch)
    return batches


LISTED = {
    "seats": '[{"bot":null,"name":"a"},{"bot":null,"name":"b"}]',
    "created_at": "0",
    "delay": "0",
    "first": "2",
    "to_act": "[0]",
    "result": "null",
}
"""Game-list fields as the service passes them with every append (``service.listing.fields_of``)."""


def append_client(
    url: str,
    cluster: bool,
    namespace: str,
    appends: int,
    games: int,
    events_per_append: int,
    envelope_bytes: int,
    ready: Any,
    go: Any,
    results: Any,
) -> None:
    """A client process: create ``games`` games, say it is ready, wait for the go, then ``appends`` appends
    round-robin over its games."""
    try:
        client = redis_client(url, cluster=True) if cluster else redis.Redis.from_url(url)
        store = RedisStore(client, Keyspace(namespace))
        per_game = -(-appends // games)
        chains = []
        for _ in range(games):
            game_id = uuid.uuid4().hex[:16]
            chain = bench_chain(game_id, per_game, events_per_append, envelope_bytes)
            store.create(game_id, "bench", "bench-1", chain[0], seed=b"", tokens={}, created_ms=0)
            chains.append((game_id, chain))
        ready.wait(120)
        go.wait(120)
        started = time.monotonic()
        for i in range(appends):
            game_id, chain = chains[i % games]
            step = 1 + i // games
            previous = chain[step - 1][-1]
            store.append(
                game_id,
                previous.version,
                previous.hash,
                chain[step],
                game="bench",
                now_ms=time.time_ns() // 1_000_000,
                listed=LISTED,
            )
        results.put(ClientResult(appends, started, time.monotonic()))
    except BaseException:
        ready.abort()
        go.abort()
        results.put(traceback.format_exc())


def drive_appends(
    url: str,
    ports: Sequence[int],
    *,
    cluster: bool,
    processes: int,
    appends: int,
    games: int,
    events_per_append: int,
    envelope_bytes: int,
) -> AppendRun:
    """Start ``processes`` clients, release them at once, and read every master's counters around the run.

    The clients create their games and seal their envelopes first; the counters are read once they
    are all ready and before they go, and again once they have all finished.
    """
    context = multiprocessing.get_context("spawn")
    ready, go = context.Barrier(processes + 1), context.Barrier(processes + 1)
    results = context.Queue()
    namespace = f"orrery-capacity-{uuid.uuid4().hex[:6]}"
    args = (url, cluster, namespace, appends, games, events_per_append, envelope_bytes, ready, go, results)
    clients = [context.Process(target=append_client, args=args, daemon=True) for _ in range(processes)]
    masters = {port: redis.Redis(port=port) for port in ports}
    try:
        for process in clients:
            process.start()
        try:
            ready.wait(180)
            before = {port: (script_calls(c), server_cpu(c)) for port, c in masters.items()}
            go.wait(30)
        except threading.BrokenBarrierError:
            raise SystemExit(f"an append client failed:\n{results.get(timeout=10)}") from None
        done: list[ClientResult] = []
        while len(done) < processes:
            try:
                result = results.get(timeout=300)
            except queue.Empty:
                raise SystemExit("the append clients did not finish within 5 minutes") from None
            if not isinstance(result, ClientResult):
                raise SystemExit(f"an append client failed:\n{result}")
            done.append(result)
        after = {port: (script_calls(c), server_cpu(c)) for port, c in masters.items()}
    finally:
        for process in clients:
            if process.is_alive():
                process.terminate()
            process.join(10)
        for client in masters.values():
            client.close()
    per_master = {port: (after[port][0] - before[port][0], after[port][1] - before[port][1]) for port in ports}
    return AppendRun(processes, events_per_append, done, per_master)


def part_appends(args: argparse.Namespace, tmp: Path) -> None:
    say("1. Appends/s per Redis master: RedisStore.append, one append per call (not pipelined)")
    say(
        f"   each client process on {args.games_per_client} games of its own, {args.appends} appends each; envelope "
        f"JSON ~{args.envelope_bytes} bytes; the Lua script's keys and arguments as the service sends them"
    )
    batches = [int(n) for n in args.events_per_append.split(",")]
    processes = [int(n) for n in args.processes.split(",")]
    common = {"appends": args.appends, "games": args.games_per_client, "envelope_bytes": args.envelope_bytes}
    single = EmbeddedRedis(tmp / "appends", persistent=False).start()
    try:
        with contextlib.closing(redis.Redis.from_url(single.url)) as probe:
            say(f"   one master ({server_version(probe)}, no persistence):")
        say("     clients  events/append  appends/s  per client/s  client ms/append  server CPU us/append  ceiling/s")
        for batch in batches:
            for count in processes:
                run = drive_appends(
                    single.url, [single.port], cluster=False, processes=count, events_per_append=batch, **common
                )
                say(
                    f"     {count:7d}  {batch:13d}  {run.rate:9.0f}  {run.rate / count:12.0f}  {run.mean_ms:16.3f}  "
                    f"{run.cpu_per_append * 1e6:20.1f}  {1 / run.cpu_per_append:9.0f}"
                )
    finally:
        single.stop()
    say("     ceiling/s = 1 / server CPU per append: one master core fully busy with appends.")
    cluster = EmbeddedCluster(tmp / "cluster", masters=args.masters).start()
    try:
        count = max(processes)
        say(f"   {args.masters}-master Redis Cluster, {count} client processes (app.redis_client(url, cluster=True)):")
        for batch in batches:
            run = drive_appends(
                cluster.url, cluster.ports, cluster=True, processes=count, events_per_append=batch, **common
            )
            say(
                f"     {batch} event(s)/append: total {run.rate:.0f} appends/s ({run.rate / args.masters:.0f} per "
                f"master on average), client {run.mean_ms:.3f} ms/append"
            )
            for port, (calls, cpu) in run.per_master.items():
                share = calls / run.seconds
                per = cpu / calls if calls else 0.0
                ceiling = f"{1 / per:.0f}" if per else "-"
                say(
                    f"       master :{port}: {share:7.0f} appends/s ({100 * calls / max(1, run.appends):.0f}% of "
                    f"them), server CPU {per * 1e6:.1f} us/append, ceiling {ceiling}/s"
                )
    finally:
        cluster.stop()
    say("   Games spread over 16 bucket hash tags, so the masters' shares follow how those tags fall on the slots;")
    say("   the client side (Python, sealing excluded) is the bottleneck here, not the masters.")
    say()


# --- 2. bot turns per worker ----------------------------------------------------------------


class Worker:
    """One Celery worker with beat, as ``orrery up`` starts it, in a process group of its own."""

    def __init__(self, env: dict[str, str], workdir: Path, concurrency: int) -> None:
        self.env = env
        self.workdir = workdir
        self.concurrency = concurrency
        self.node = f"capacity-{uuid.uuid4().hex[:6]}@{socket.gethostname()}"
        self.log = workdir / f"worker-{self.node.split('@')[0]}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> Worker:
        settings = Settings.from_env(self.env)
        command = worker_command(queue_names(settings).all, self.node, concurrency=self.concurrency, loglevel="WARNING")
        command += ["-B", "--schedule", str(self.workdir / f"beat-{uuid.uuid4().hex[:6]}")]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                start_new_session=True,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,
            )
        control = make_celery(settings, current=False).control
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the worker exited: {self.log.read_text()[-3000:]}")
            if control.ping(destination=[self.node], timeout=0.5):
                return self
        raise SystemExit(f"the worker did not answer within {timeout:.0f} s: {self.log.read_text()[-3000:]}")

    def cpu(self) -> float:
        assert self.process is not None
        return group_cpu(self.process.pid)

    def stop(self) -> None:
        """A warm shutdown (SIGTERM to the group), killed after 30 s."""
        if self.process is None or self.process.poll() is not None:
            return
        stop_process_groups([self.process], timeout=30)


@dataclasses.dataclass(frozen=True, slots=True)
class TurnRun:
    """Turns counted over ``seconds``, the CPU seconds each part used meanwhile, and the CPU seconds
    per second each used with the worker up and no game (``idle``: worker, store, broker)."""

    label: str
    turns: int
    seconds: float
    worker_cpu: float
    store_cpu: float
    broker_cpu: float
    idle: tuple[float, float, float]
    games: int

    def net(self, used: float, idle: float) -> float:
        """CPU seconds per turn beyond what the same part uses when idle."""
        return max(0.0, used - idle * self.seconds) / max(1, self.turns)


def bot_turns(kind: str, think_ms: int, args: argparse.Namespace, url: str, broker_url: str, tmp: Path) -> TurnRun:
    """Keep ``args.live_games`` bot games of ``kind`` (``game:bot``) running on one worker; count turns.

    The store and Celery's broker are two Redis servers, so that each one's CPU per turn shows.
    """
    game, bot = kind.split(":")
    namespace = f"orrery-capacity-{uuid.uuid4().hex[:6]}"
    env = {k: v for k, v in os.environ.items() if k != "ORRERY_REDIS_CLUSTER"}
    env |= BENCH_LIMITS | {
        "REDIS_URL": url,
        "CELERY_BROKER_URL": broker_url,
        "ORRERY_NAMESPACE": namespace,
        "ORRERY_QUEUE": namespace,
        "ORRERY_GAMES": TEST_GAMES,
        "PYTHONPATH": str(ROOT),
    }
    settings = Settings.from_env(env)
    make_celery(settings)  # the current app: the service's wake-ups go to this broker and queue
    service = build_service(settings)
    store: RedisStore = service.store
    seats = [SeatSpec(f"{bot}-{i}", {"builtin": bot, "think_ms": think_ms}) for i in range(SEATS[game])]
    games: list[str] = []
    live: list[str] = []

    def top_up() -> None:
        nonlocal live
        listings = store.listings(live)
        live = [g for g, meta in zip(live, listings, strict=True) if meta and meta.get("status") == "active"]
        while len(live) < args.live_games:
            created = service.create(game, seats, {}).record.game_id
            games.append(created)
            live.append(created)

    def turns() -> int:
        pipe = store.redis.pipeline(transaction=False)
        for game_id in games:
            pipe.hlen(store.keys.game(game_id).idempotency)
        return sum(pipe.execute())

    def run_for(seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            top_up()
            time.sleep(0.2)

    probe, broker = redis.Redis.from_url(url), redis.Redis.from_url(broker_url)
    worker = Worker(env, tmp, concurrency=1).start()
    try:
        time.sleep(1)
        idle0 = (worker.cpu(), server_cpu(probe), server_cpu(broker), time.monotonic())
        time.sleep(args.idle_seconds)
        idle1 = (worker.cpu(), server_cpu(probe), server_cpu(broker), time.monotonic())
        spent = idle1[3] - idle0[3]
        idle = ((idle1[0] - idle0[0]) / spent, (idle1[1] - idle0[1]) / spent, (idle1[2] - idle0[2]) / spent)
        top_up()
        deadline = time.monotonic() + 60
        while turns() == 0:
            if time.monotonic() > deadline:
                raise SystemExit(f"no bot turn within 60 s: {worker.log.read_text()[-3000:]}")
            run_for(0.2)
        run_for(args.warmup)
        count0, cpu0, t0 = turns(), worker.cpu(), time.monotonic()
        store0, broker0 = server_cpu(probe), server_cpu(broker)
        run_for(args.bot_seconds)
        count1, cpu1, t1 = turns(), worker.cpu(), time.monotonic()
        store1, broker1 = server_cpu(probe), server_cpu(broker)
    finally:
        worker.stop()
        probe.close()
        broker.close()
    label = f"{game} ({SEATS[game]} seats), {bot}" + (f" think_ms={think_ms}" if bot != "random" else "")
    return TurnRun(label, count1 - count0, t1 - t0, cpu1 - cpu0, store1 - store0, broker1 - broker0, idle, len(games))


def part_bots(args: argparse.Namespace, tmp: Path) -> None:
    say("2. Bot turns/s per worker process: one Celery worker as `orrery up` runs it (prefork pool, concurrency 1,")
    say(
        f"   beat embedded, every queue), restarted for each kind; {args.live_games} bot games kept running at once, "
        f"counted over {args.bot_seconds:g} s"
    )
    say("   after a warm-up. A turn is one built-in bot move; the worker's CPU covers the bot, the relay task that")
    say("   queues each turn, beat, scoring, and Celery itself.")
    say("   The store and Celery's broker are two Redis servers here (CELERY_BROKER_URL), each with its CPU per turn.")
    store = EmbeddedRedis(tmp / "bots-store", persistent=False).start()
    broker = EmbeddedRedis(tmp / "bots-broker", persistent=False).start()
    try:
        for kind in args.bot_kinds.split(","):
            run = bot_turns(kind, args.think_ms, args, store.url, broker.url, tmp)
            turns = max(1, run.turns)
            worker_net = run.net(run.worker_cpu, run.idle[0])
            store_net, broker_net = run.net(run.store_cpu, run.idle[1]), run.net(run.broker_cpu, run.idle[2])
            ceiling = f"{(1 - run.idle[0]) / worker_net:.1f}" if worker_net else "-"
            say(
                f"   {run.label}: {run.turns} turns in {run.seconds:.1f} s = {run.turns / run.seconds:.1f} turns/s "
                f"({run.games} games started)"
            )
            say(
                f"     CPU per turn, all / net of idle: worker {1000 * run.worker_cpu / turns:.1f} / "
                f"{1000 * worker_net:.1f} ms, store Redis {1e6 * run.store_cpu / turns:.0f} / "
                f"{1e6 * store_net:.0f} us, "
                f"broker Redis {1e6 * run.broker_cpu / turns:.0f} / {1e6 * broker_net:.0f} us"
            )
            say(
                f"     idle (worker up, no game): worker {1000 * run.idle[0]:.1f} ms/s, store {1e6 * run.idle[1]:.0f} "
                f"us/s, broker {1e6 * run.idle[2]:.0f} us/s; ceiling {ceiling} turns/s per worker process on a core "
                "of its own"
            )
    finally:
        broker.stop()
        store.stop()
    say("   The worker ran beside this process and two Redis servers on the same cores: turns/s is what it got;")
    say("   ceiling = (1 s - idle worker CPU/s) / net worker CPU per turn. The store's figures include this process")
    say("   creating games and polling their status (a few commands per 0.2 s).")
    say()


# --- 3. bytes per event and per game -----------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Footprint:
    """The memory of one finished game."""

    events: int
    commands: int
    stream_bytes: int
    json_bytes: int
    keys: dict[str, int]
    finished: bool

    @property
    def total(self) -> int:
        return sum(self.keys.values())


def footprint(service: GameService, game_id: str, commands: int, finished: bool) -> Footprint:
    """``MEMORY USAGE`` of every key of the game, and its envelopes' JSON size."""
    store = service.store
    keys = store.keys.game(game_id)
    sizes: dict[str, int] = {}
    for key in store.redis.scan_iter(f"{store.keys.tag(keys.bucket)}:g:{game_id}:*", count=1000):
        name = key.decode()
        sizes[name.rsplit(":", 1)[1]] = int(store.redis.memory_usage(name, samples=0) or 0)
    envelopes = store.read(game_id)
    return Footprint(
        events=len(envelopes),
        commands=commands,
        stream_bytes=sizes.get("events", 0),
        json_bytes=sum(len(e.to_json().encode()) for e in envelopes),
        keys=sizes,
        finished=finished,
    )


def bot_game(service: GameService, game: str, seats: list[SeatSpec]) -> Footprint:
    """A game of built-in bots, one turn at a time through ``GameService.bot_move``, scored at its end."""
    record = service.create(game, seats, {}).record
    game_id, commands = record.game_id, 0
    while not record.over and commands < MAX_PLIES:
        seat = min(record.game.to_act(record.state))
        if service.bot_move(game_id, seat, record.version) is None:
            raise SystemExit(f"{game}: the bot of seat {seat} did not move at version {record.version}")
        commands += 1
        record = service.head(game_id)
    if record.over:
        service.score(game_id)
    return footprint(service, game_id, commands, record.over)


def sdg_games(count: int) -> list[list[str]]:
    """The turns of SuperDuperGames Homeworlds games of about the median length (from ``../shared``)."""
    shared = Path(os.environ.get("ORRERY_SHARED") or ROOT.parent / "shared") / "reference" / "homeworlds"
    files = sorted((shared / "games" / "sdg").glob("*.txt"))
    if not files:
        return []
    games = []
    for path in files:
        lines = path.read_text(errors="replace").splitlines()
        games.append([line for line in lines if line.strip() and not line.startswith("#")])
    games.sort(key=len)
    middle = len(games) // 2
    return games[middle : middle + 4 * count]


def sdg_game(service: GameService, turns: list[str]) -> Footprint | None:
    """A transcript replayed by two human seats through ``GameService.submit``; one that ends unfinished
    is resigned by the seat on move. None if a turn is refused."""
    created = service.create("homeworlds", [SeatSpec("North"), SeatSpec("South")], {"allow_pass_before_setup": True})
    game_id, commands = created.record.game_id, 0
    for turn in turns:
        head = service.head(game_id)
        if head.over:
            break
        try:
            service.submit(game_id, min(head.game.to_act(head.state)), turn)
        except (ServiceError, contract.RuleError, ValueError):
            return None
        commands += 1
    head = service.head(game_id)
    if not head.over:
        service.submit(game_id, min(head.game.to_act(head.state)), {"resign": True})
        commands += 1
    service.score(game_id)
    return footprint(service, game_id, commands, True)


def index_entry_bytes(client: redis.Redis, namespace: str) -> float:
    """Bytes one game adds to one of its bucket's index sorted sets, at the size where they are skiplists."""
    key = f"{namespace}:scratch-index"
    now = time.time_ns() // 1_000_000
    members = {uuid.uuid4().hex[:16]: now + i for i in range(2000)}
    client.zadd(key, members)
    used = int(client.memory_usage(key, samples=0) or 0)
    client.delete(key)
    return used / len(members)


def part_bytes(args: argparse.Namespace, tmp: Path) -> None:
    say("3. Bytes per event and per finished game: MEMORY USAGE <key> SAMPLES 0 of every key of the game")
    say(
        "   (events stream, meta, seed, tokens, idempotency, snapshots, ...), games played through GameService; "
        f"{args.games} game(s) per kind"
    )
    embedded = EmbeddedRedis(tmp / "bytes", persistent=False).start()
    try:
        client = redis.Redis.from_url(embedded.url)
        settings = Settings.from_env({"ORRERY_GAMES": TEST_GAMES})
        load_games(settings)
        namespace = f"orrery-capacity-{uuid.uuid4().hex[:6]}"
        service = GameService(RedisStore(client, Keyspace(namespace)), snapshot_every=settings.snapshot_every)
        say(f"   ({server_version(client)}; snapshots every {settings.snapshot_every} events, as configured)")
        kinds: list[tuple[str, str, int, str, int]] = [
            ("tictactoe, 2 random bots", "tictactoe", 2, "random", 1),
            ("homeworlds, 2 random bots", "homeworlds", 2, "random", 1),
            (f"homeworlds, 2 greedy bots (think_ms={args.think_ms})", "homeworlds", 2, "greedy", args.think_ms),
            ("planet-unknown, 2 greedy bots", "planet-unknown", 2, "greedy", 1),
            ("planet-unknown, 4 greedy bots", "planet-unknown", 4, "greedy", 1),
        ]
        results: list[tuple[str, list[Footprint]]] = []
        for label, game, seats, bot, think in kinds:
            spec = [SeatSpec(f"{bot}-{i}", {"builtin": bot, "think_ms": think}) for i in range(seats)]
            played = [bot_game(service, game, spec) for _ in range(args.games)]
            results.append((label, played))
            report(label, played)
        transcripts = sdg_games(args.games)
        if transcripts:
            replayed: list[Footprint] = []
            for turns in transcripts:
                found = sdg_game(service, turns)
                if found is not None:
                    replayed.append(found)
                if len(replayed) == args.games:
                    break
            label = "homeworlds, SDG transcripts of median length, 2 human seats"
            if replayed:
                results.append((label, replayed))
                report(label, replayed)
        else:
            say("   homeworlds SDG transcripts: skipped, ../shared is not there")
        every = [f for _, played in results for f in played]
        mean_json = sum(f.json_bytes for f in every) / sum(f.events for f in every)
        say(f"   Average envelope (Envelope.to_json()) over every game above: {mean_json:.0f} bytes of JSON.")
        entry = index_entry_bytes(client, namespace)
        say(
            f"   Outside the game's keys: 4 entries in its bucket's game-list indexes, ~{entry:.0f} bytes each "
            f"(~{4 * entry:.0f} bytes per game);"
        )
        say("   the outbox and timer entries go once the relay and the sweep handle them (not counted).")
        client.close()
    finally:
        embedded.stop()
    say()


def report(label: str, played: list[Footprint]) -> None:
    n = len(played)
    events = sum(f.events for f in played) / n
    commands = sum(f.commands for f in played) / n
    per_event = sum(f.stream_bytes for f in played) / sum(f.events for f in played)
    json_per_event = sum(f.json_bytes for f in played) / sum(f.events for f in played)
    total = sum(f.total for f in played) / n
    unfinished = sum(not f.finished for f in played)
    note = f" ({unfinished} unfinished after {MAX_PLIES} turns)" if unfinished else ""
    say(
        f"   {label}{note}: {events:.0f} events/game ({commands:.0f} moves), {per_event:.0f} bytes/event in the "
        f"stream (JSON {json_per_event:.0f}), {total:,.0f} bytes/game in all"
    )
    names = sorted({k for f in played for k in f.keys}, key=lambda k: -sum(f.keys.get(k, 0) for f in played))
    parts = ", ".join(f"{k} {sum(f.keys.get(k, 0) for f in played) / n:,.0f}" for k in names)
    say(f"     by key: {parts}")


# --- main ---------------------------------------------------------------------------------------


@contextlib.contextmanager
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="orrery-capacity-") as tmp:
        yield Path(tmp)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parts", default="1,2,3", help="which parts to run")
    parser.add_argument("--processes", default="1,2,4", help="part 1: client processes per run")
    parser.add_argument("--appends", type=int, default=2000, help="part 1: appends per client process")
    parser.add_argument("--games-per-client", type=int, default=20, help="part 1: games each client appends to")
    parser.add_argument("--events-per-append", default="1,3", help="part 1: envelopes per append, per run")
    parser.add_argument(
        "--envelope-bytes", type=int, default=360, help="part 1: JSON bytes per envelope (part 3 measures real ones)"
    )
    parser.add_argument("--masters", type=int, default=3, help="part 1: masters of the cluster")
    parser.add_argument(
        "--bot-kinds",
        default="tictactoe:random,homeworlds:random,homeworlds:greedy,planet-unknown:random",
        help="part 2: game:bot pairs, each measured on a fresh worker",
    )
    parser.add_argument("--think-ms", type=int, default=50, help="think_ms of the greedy bots (parts 2 and 3)")
    parser.add_argument("--live-games", type=int, default=4, help="part 2: bot games kept running at once")
    parser.add_argument("--warmup", type=float, default=3.0, help="part 2: seconds before counting")
    parser.add_argument("--idle-seconds", type=float, default=3.0, help="part 2: seconds of idle baseline")
    parser.add_argument("--bot-seconds", type=float, default=20.0, help="part 2: seconds counted per kind")
    parser.add_argument("--games", type=int, default=2, help="part 3: games played per kind")
    args = parser.parse_args()
    parts = {p.strip() for p in args.parts.split(",")}
    cores = os.cpu_count() or 1
    say(
        f"Orrery capacity figures. This machine has {cores} CPU core(s), shared with other work: the benchmark's "
        "clients,"
    )
    say("the Redis servers and the worker compete for them, so every rate below is a lower bound; plan with the")
    say("CPU-time-per-operation figures and the ceilings derived from them (one busy core each).")
    say()
    started = time.monotonic()
    with workdir() as tmp:
        if "1" in parts:
            part_appends(args, tmp)
        if "2" in parts:
            part_bots(args, tmp)
        if "3" in parts:
            part_bytes(args, tmp)
    say(f"({time.monotonic() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
