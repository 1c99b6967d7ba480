"""Slow webhook bots and a stopwatch for built-in bots, shared by tests/test_queues.py and
benchmarks/slow_webhooks.py.

:class:`SleepingEndpoint` is a webhook bot on 127.0.0.1 that holds every turn request before
it answers. :func:`bot_reply_latencies` plays tic-tac-toe against a built-in bot and times each of
its replies from the append of the human's move to the append of the bot's, as the server recorded them.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import TYPE_CHECKING, Any

from domain.table.record import Record
from events.keys import Keyspace
from events.store import RedisStore
from service.games import GameService, SeatSpec
from service.webhook_policy import WebhookPolicy

if TYPE_CHECKING:
    from app import Settings

RANDOM_BOT = {"builtin": "random", "think_ms": 1}
NO_SECRETS = {"secret_squares": False}


class SleepingEndpoint:
    """A webhook bot that holds every turn request for ``sleep_s`` seconds (or until closed), then answers
    with the first legal move; with ``sleep_s=0`` it is a prompt bot."""

    def __init__(self, sleep_s: float = 25.0) -> None:
        self.sleep_s = sleep_s
        self.received = 0
        self.holding = 0
        self.released = threading.Event()
        lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                with lock:
                    owner.received += 1
                    owner.holding += 1
                try:
                    owner.released.wait(owner.sleep_s)
                finally:
                    with lock:
                        owner.holding -= 1
                data = json.dumps({"move": (body.get("legal_moves") or [None])[0]}).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/turn"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        """Let every held request go and stop serving."""
        self.released.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)

    def __enter__(self) -> SleepingEndpoint:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


def service_for(settings: Settings) -> GameService:
    """A game service for ``settings``, as the API's (their workers follow its appends in the outboxes)."""
    from app import load_games, redis_client

    load_games(settings)
    return GameService(
        RedisStore(redis_client(settings.require_redis()), Keyspace(settings.namespace)),
        webhook_policy=WebhookPolicy(settings.webhook_allow),
    )


def webhook_games(service: GameService, url: str, count: int) -> list[str]:
    """``count`` games of two webhook seats at ``url``: whoever starts, a webhook bot must act first."""
    hook = {"webhook": url}
    return [
        service.create("tictactoe", [SeatSpec("Hook A", hook), SeatSpec("Hook B", hook)], NO_SECRETS).record.game_id
        for _ in range(count)
    ]


def _wait(predicate: Callable[[], Record | None], timeout_s: float) -> Record:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = predicate()
        if found is not None:
            return found
        time.sleep(0.005)
    raise AssertionError(f"the built-in bot did not reply within {timeout_s}s")


def bot_reply_latencies(service: GameService, samples: int, timeout_s: float = 60.0) -> list[float]:
    """Play seat 0 against a random built-in bot, game after game, until ``samples`` replies were timed.

    Each latency (seconds) runs from the human's move to the bot's answering move, both as
    recorded in their envelopes; a move that ends the game is not timed.
    """
    latencies: list[float] = []
    while len(latencies) < samples:
        created = service.create("tictactoe", [SeatSpec("Human"), SeatSpec("Bot", RANDOM_BOT)], NO_SECRETS)
        game_id = created.record.game_id

        def humans_turn(game_id: str = game_id) -> Record | None:
            record = service.head(game_id)
            return record if record.over or 0 in record.game.to_act(record.state) else None

        record = _wait(humans_turn, timeout_s)
        while not record.over and len(latencies) < samples:
            move = next(iter(record.game.legal_moves(record.state, 0)))
            moved = service.submit(game_id, 0, move).record
            if moved.over:
                break
            record = _wait(humans_turn, timeout_s)
            envelopes = service.events(game_id, after=moved.version - 1)
            human = envelopes[0]
            bot = next(e for e in envelopes if e.seat == 1 and e.type == "MarkPlaced")
            latencies.append((bot.recorded_at - human.recorded_at) / 1000)
    return latencies


def summary(latencies: list[float]) -> str:
    """``median … s, max … s over n replies``."""
    return f"median {statistics.median(latencies):.3f} s, max {max(latencies):.3f} s over {len(latencies)} replies"
