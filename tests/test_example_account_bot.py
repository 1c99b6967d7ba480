"""The example bot as a registered bot, in a subprocess against the real API and worker. In account
mode it accepts its challenges, plays its games to the end, resumes after its last cursor when the
connection drops, and stops when another copy of it opens the stream. As a webhook it accepts the
challenges POSTed to it."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from events.embedded import free_port
from service.games import GameService
from tests.conftest import ROOT, Worker, wait_for

RANDOM = {"builtin": "random", "think_ms": 1}
EXAMPLE = str(ROOT / "examples" / "webhook_bot.py")


def register(live_server: str, **transport: Any) -> dict[str, Any]:
    body = {"name": "Example", "games": ["tictactoe"]} | (transport or {"stream": True})
    made = requests.post(f"{live_server}/v1/bots", json=body, timeout=10)
    assert made.status_code == 201, made.text
    return dict(made.json())


def challenge(live_server: str, bot_id: str) -> str:
    seats = [{"name": "Example", "bot": {"id": bot_id}}, {"name": "Random", "bot": RANDOM}]
    made = requests.post(f"{live_server}/v1/games", json={"game": "tictactoe", "seats": seats}, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def start_example(api_url: str, key: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, EXAMPLE, "--account", api_url, *args],
        env=os.environ | {"ORRERY_BOT_KEY": key},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(bot: subprocess.Popen[str], timeout: float = 120) -> tuple[int, str]:
    try:
        _, stderr = bot.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        bot.kill()
        _, stderr = bot.communicate()
        raise AssertionError(f"the example did not stop:\n{stderr}") from None
    return bot.returncode, stderr


def accepted_and_scored(service: GameService, game_id: str, bot_id: str) -> None:
    record = wait_for(lambda: (r := service.head(game_id)).scored is not None and r, timeout=30)
    assert record.outcome is not None
    events = service.events(game_id)
    accepted = [e for e in events if e.type == "ChallengeAccepted"]
    assert len(accepted) == 1 and accepted[0].payload["bot"] == bot_id and accepted[0].payload["auto"] is False
    assert any(e.type == "MoveMade" and e.seat == 0 for e in events)


class CuttableProxy:
    """A TCP proxy in front of the API that notes each request line and can cut every open connection."""

    def __init__(self, target: str) -> None:
        parts = urlsplit(target)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.request_lines: list[str] = []
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, False), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, request: bool) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if request:
                    self.request_lines.append(data.split(b"\r\n", 1)[0].decode())
                    request = False
                sink.sendall(data)

    def cut(self) -> None:
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self.sockets.clear()

    def close(self) -> None:
        self.cut()
        self.listener.close()


@pytest.fixture
def proxy(live_server: str) -> Iterator[CuttableProxy]:
    made = CuttableProxy(live_server)
    yield made
    made.close()


class TestAccountMode:
    def test_it_accepts_a_challenge_and_plays_the_game_to_its_end(
        self, live_server: str, worker: Worker, service: GameService
    ) -> None:
        bot = register(live_server)
        example = start_example(live_server, bot["api_key"], "--games", "1")
        game_id = challenge(live_server, bot["id"])
        status, log = finish(example)
        assert status == 0, log
        accepted_and_scored(service, game_id, bot["id"])
        assert f"accepted the tictactoe challenge chl_{game_id}_0" in log
        assert f"tictactoe game {game_id} started" in log and f"tictactoe game {game_id} is over" in log

    def test_a_dropped_connection_resumes_after_the_last_cursor(
        self, live_server: str, worker: Worker, service: GameService, proxy: CuttableProxy
    ) -> None:
        bot = register(live_server)
        example = start_example(proxy.url, bot["api_key"], "--games", "2")
        first = challenge(live_server, bot["id"])
        wait_for(lambda: service.head(first).scored is not None, timeout=60)
        wait_for(lambda: service.store.bot_games(bot["id"]) == [], timeout=30)
        wait_for(lambda: proxy.sockets, timeout=10)
        proxy.cut()
        second = challenge(live_server, bot["id"])
        status, log = finish(example)
        assert status == 0, log
        for game_id in (first, second):
            accepted_and_scored(service, game_id, bot["id"])
        events_requests = [line for line in proxy.request_lines if "/v1/bots/me/events" in line]
        assert len(events_requests) >= 2 and "after=" not in events_requests[0], events_requests
        assert "after=" in events_requests[-1] and "connected again, after" in log, (events_requests, log)

    def test_it_stops_when_another_copy_opens_the_stream(self, live_server: str, service: GameService) -> None:
        bot = register(live_server)
        example = start_example(live_server, bot["api_key"])
        wait_for(lambda: service.store.inbox_read_now(f"bot:{bot['id']}"), timeout=15)
        other = requests.get(
            f"{live_server}/v1/bots/me/events",
            headers={"Authorization": f"Bearer {bot['api_key']}"},
            stream=True,
            timeout=30,
        )
        try:
            assert other.status_code == 200
            status, log = finish(example, timeout=30)
        finally:
            other.close()
        assert status == 1 and "another copy of this bot" in log, log


def test_as_a_registered_webhook_bot_it_accepts_its_challenge_in_its_answer(
    live_server: str, worker: Worker, service: GameService
) -> None:
    port = free_port()
    bot = register(live_server, webhook=f"http://127.0.0.1:{port}/turn")
    example = subprocess.Popen(
        [sys.executable, EXAMPLE, "--port", str(port), "--secret", bot["webhook_secret"]],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        game_id = challenge(live_server, bot["id"])
        accepted_and_scored(service, game_id, bot["id"])
    finally:
        example.terminate()
        example.wait(10)
    outcomes = [d["outcome"] for d in service.store.deliveries(game_id)]
    assert "accepted" in outcomes and "moved" in outcomes, outcomes
