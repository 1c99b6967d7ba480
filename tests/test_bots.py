"""Bots as players: built-in bots run by real workers, webhook bots reached by
signed requests, turn deadlines, and a worker killed in the middle of a turn."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from events.embedded import free_port
from events.keys import Keyspace
from events.store import RedisStore
from service.games import GameService, SeatSpec
from service.turns import LEGAL_MOVES_LIMIT, turn_request
from tests.conftest import NAMESPACE, ROOT, TMP, Worker, wait_for
from tests.support.seeds import strong_seed

RANDOM = {"builtin": "random", "think_ms": 1}
GREEDY = {"builtin": "greedy", "think_ms": 50}


def types_of(service: GameService, game_id: str) -> list[str]:
    return [e.type for e in service.events(game_id)]


def finished(service: GameService, game_id: str) -> Any:
    record = service.head(game_id)
    return record if record.over and record.scored is not None else None


class TestBuiltinBots:
    def test_two_builtin_bots_play_to_the_end(self, service: GameService, worker: Worker) -> None:
        game_id = service.create("tictactoe", [SeatSpec("R1", RANDOM), SeatSpec("R2", RANDOM)], {}).record.game_id
        record = wait_for(lambda: finished(service, game_id), timeout=60)
        assert record.outcome.reason in ("line", "full board")
        assert types_of(service, game_id).count("MarkPlaced") >= 5

    @pytest.mark.parametrize(
        "bot",
        [
            {"builtin": "deep-blue"},
            {"builtin": "random", "think_ms": 0},
            {"builtin": "random", "webhook": "http://x/"},
            {"webhook": "ftp://example.org/"},
            {"webhook": "http://x/", "think_ms": 5},
            {"brain": "big"},
            {"stream": False},
            {"stream": "yes"},
            {"stream": True, "webhook": "http://x/"},
            {"stream": True, "builtin": "random"},
            {"stream": True, "think_ms": 5},
        ],
    )
    def test_invalid_bot_seats_are_refused(self, client: Any, bot: dict[str, Any]) -> None:
        response = client.post(
            "/v1/games", json={"game": "tictactoe", "seats": [{"name": "a", "bot": bot}, {"name": "b"}]}
        )
        assert response.status_code == 422
        assert response.json["error"]["code"] == "invalid_request"
        assert "seat 0" in response.json["error"]["message"]

    def test_a_late_or_repeated_bot_task_changes_nothing(self, service: GameService) -> None:
        store = RedisStore(service.store.redis, Keyspace(f"{NAMESPACE}-idle"))
        idle = GameService(store)
        created = idle.create("tictactoe", [SeatSpec("R1", RANDOM), SeatSpec("R2", RANDOM)], {}, strong_seed("dup"))
        game_id, version = created.record.game_id, created.record.version
        seat = next(iter(created.record.game.to_act(created.record.state)))
        first = idle.bot_move(game_id, seat, version)
        assert first is not None and first.record.version == version + 2
        assert idle.bot_move(game_id, seat, version) is None
        assert types_of(idle, game_id).count("MarkPlaced") == 1


@pytest.fixture
def bot_port() -> int:
    return free_port()


def fresh_hook_url(port: int) -> str:
    """A webhook URL no earlier test registered: the API shows an endpoint's secret only the first time.

    The operating system hands out a freed port again, so the port alone does not make the URL new.
    """
    return f"http://127.0.0.1:{port}/turn/{uuid.uuid4().hex}"


def start_example_bot(port: int, secret: str, *extra: str) -> subprocess.Popen[bytes]:
    bot = subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "webhook_bot.py"), "--port", str(port), "--secret", secret, *extra],
        stdout=subprocess.DEVNULL,
        stderr=(TMP / f"webhook-bot-{port}.log").open("wb"),
    )
    wait_for(lambda: _listening(port), timeout=20)
    return bot


def _listening(port: int) -> bool:
    try:
        requests.get(f"http://127.0.0.1:{port}/", timeout=1)
    except requests.ConnectionError:
        return False
    return True


def create_webhook_game(
    live_server: str, url: str, game: str = "tictactoe", opponent: dict[str, Any] = RANDOM, **options: Any
) -> dict[str, Any]:
    body = {
        "game": game,
        "seats": [{"name": "Hook", "bot": {"webhook": url}}, {"name": "Opponent", "bot": opponent}],
        "options": options,
    }
    response = requests.post(f"{live_server}/v1/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def deliveries(live_server: str, game: dict[str, Any]) -> list[dict[str, Any]]:
    response = requests.get(
        f"{live_server}/v1/games/{game['id']}/deliveries",
        headers={"Authorization": f"Bearer {game['creator_token']}"},
        timeout=10,
    )
    assert response.status_code == 200, response.text
    return response.json()["deliveries"]


class TestWebhookBots:
    def test_the_example_bot_finishes_a_game_against_a_builtin_bot(
        self, live_server: str, worker: Worker, service: GameService, bot_port: int
    ) -> None:
        url = fresh_hook_url(bot_port)
        game = create_webhook_game(live_server, url)
        secret = game["seats"][0]["webhook_secret"]
        assert secret.startswith("whsec_") and game["seats"][0]["token"] is None
        bot = start_example_bot(bot_port, secret)
        try:
            record = wait_for(lambda: finished(service, game["id"]), timeout=90)
            assert record.outcome is not None
            log = deliveries(live_server, game)
            assert any(d["status"] == 200 and d["outcome"] == "moved" for d in log)
            assert all(d["latency_ms"] >= 0 and d["url"] == url for d in log)
            ids = {d["version"]: d["webhook_id"] for d in log}
            retried = [d for d in log if d["attempt"] > 1]
            assert all(d["webhook_id"] == ids[d["version"]] for d in retried)
            forged = requests.post(
                url,
                data=b'{"type":"turn"}',
                timeout=5,
                headers={"webhook-id": "msg_x", "webhook-timestamp": "1", "webhook-signature": "v1,AAAA"},
            )
            assert forged.status_code == 401
            second = create_webhook_game(live_server, url)
            assert second["seats"][0]["webhook_secret"] is None
            wait_for(lambda: finished(service, second["id"]), timeout=90)
        finally:
            bot.terminate()
            bot.wait(10)

    def test_a_bot_that_answers_202_moves_later_with_its_token(
        self, live_server: str, worker: Worker, service: GameService, bot_port: int
    ) -> None:
        url = fresh_hook_url(bot_port)
        game = create_webhook_game(live_server, url)
        bot = start_example_bot(bot_port, game["seats"][0]["webhook_secret"], "--reply-later")
        try:
            wait_for(lambda: finished(service, game["id"]), timeout=90)
            assert any(d["status"] == 202 and d["outcome"] == "accepted" for d in deliveries(live_server, game))
        finally:
            bot.terminate()
            bot.wait(10)


class TestTurnRequests:
    def test_urls_are_absolute_and_a_long_list_of_moves_is_marked_truncated(self, service: GameService) -> None:
        store = RedisStore(service.store.redis, Keyspace(f"{NAMESPACE}-idle"))
        hooked = GameService(store, public_url="https://orrery.example/")
        seats = [SeatSpec("Pull", {"stream": True}), SeatSpec("G", GREEDY)]
        record = hooked.create("homeworlds", seats, {}).record
        turn = turn_request(hooked, record, 0)
        base = f"https://orrery.example/v1/games/{record.game_id}"
        assert turn["api_url"] == "https://orrery.example"
        assert turn["moves_url"] == f"{base}/moves"
        assert turn["legal_moves_url"].startswith(f"{base}/legal-moves?limit=")
        assert turn["legal_moves"] is None and turn["legal_moves_truncated"] is True
        assert len(list(record.game.legal_moves(record.state, 0))) > LEGAL_MOVES_LIMIT
        assert turn["token"] == store.secret(record.game_id, "token:0")
        unset = turn_request(GameService(store), record, 0)
        assert unset["moves_url"].startswith("http://") and unset["legal_moves_url"].startswith("http://")

    @pytest.mark.parametrize(
        ("env", "host", "expected"),
        [
            ({}, "127.0.0.1", "http://127.0.0.1:8123"),
            ({}, "0.0.0.0", "http://127.0.0.1:8123"),
            ({}, "::1", "http://[::1]:8123"),
            ({}, "::", "http://[::1]:8123"),
            ({}, "bots.example", "http://bots.example:8123"),
            ({"ORRERY_PUBLIC_URL": "https://orrery.example"}, "::", "https://orrery.example"),
        ],
    )
    def test_orrery_up_gives_its_children_a_public_url(self, env: dict[str, str], host: str, expected: str) -> None:
        from app import with_public_url_default

        assert with_public_url_default(env, host, 8123)["ORRERY_PUBLIC_URL"] == expected

    def test_a_short_list_of_moves_is_carried_whole(self, service: GameService) -> None:
        store = RedisStore(service.store.redis, Keyspace(f"{NAMESPACE}-idle"))
        hooked = GameService(store, public_url="http://127.0.0.1:9999")
        seats = [SeatSpec("Pull", {"stream": True}), SeatSpec("R", RANDOM)]
        record = hooked.create("tictactoe", seats, {}).record
        seat = next(iter(record.game.to_act(record.state)))
        turn = turn_request(hooked, record, seat)
        assert turn["legal_moves_truncated"] is False
        assert turn["legal_moves"] == list(record.game.legal_moves(record.state, seat))


class TestExampleBotPlaysTheRealGames:
    """``examples/webhook_bot.py`` against a greedy built-in bot, to the end, answering 200 or 202."""

    @pytest.mark.parametrize("mode", ["200", "202"])
    @pytest.mark.parametrize("game_name", ["homeworlds", "planet-unknown"])
    def test_the_example_bot_finishes_a_game(
        self, live_server: str, worker: Worker, service: GameService, bot_port: int, game_name: str, mode: str
    ) -> None:
        url = fresh_hook_url(bot_port)
        game = create_webhook_game(live_server, url, game=game_name, opponent=GREEDY)
        later = ["--reply-later"] if mode == "202" else []
        bot = start_example_bot(bot_port, game["seats"][0]["webhook_secret"], "--seed", "13", *later)
        try:
            record = wait_for(lambda: finished(service, game["id"]), timeout=240, interval=0.2)
        finally:
            bot.terminate()
            bot.wait(10)
        assert record.outcome is not None
        assert any(e.seat == 0 for e in service.events(game["id"]) if e.type not in ("GameCreated",))
        answered = {"200": "moved", "202": "accepted"}[mode]
        log = deliveries(live_server, game)
        assert [d for d in log if d["outcome"] == answered]
        assert not [d for d in log if d["outcome"] in ("gave_up", "refused", "disabled")], log
        assert not [d for d in log if "rejected" in (d["error"] or "")], log


class Scripted:
    """An HTTP endpoint that answers with scripted statuses, then with a legal move."""

    def __init__(self, statuses: list[int], headers: dict[str, str] | None = None) -> None:
        self.statuses = list(statuses)
        self.headers = headers or {}
        self.seen: list[dict[str, str]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.seen.append({k.lower(): v for k, v in self.headers.items()})
                status = owner.statuses.pop(0) if owner.statuses else 200
                data = json.dumps({"move": body["legal_moves"][0]} if status == 200 else {}).encode()
                self.send_response(status)
                for key, value in owner.headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/turn"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def scripted() -> Iterator[Any]:
    servers: list[Scripted] = []

    def make(statuses: list[int], headers: dict[str, str] | None = None) -> Scripted:
        servers.append(Scripted(statuses, headers))
        return servers[-1]

    yield make
    for s in servers:
        s.server.shutdown()


class TestDeliveryFailures:
    def test_5xx_and_429_are_retried_with_the_same_webhook_id(
        self, live_server: str, worker: Worker, service: GameService, scripted: Any
    ) -> None:
        endpoint = scripted([500, 503, 429], {"Retry-After": "1"})
        game = create_webhook_game(live_server, endpoint.url)
        wait_for(lambda: finished(service, game["id"]), timeout=90)
        log = deliveries(live_server, game)
        first_turn = [d for d in log if d["webhook_id"] == log[0]["webhook_id"]]
        assert [d["status"] for d in first_turn][:4] == [500, 503, 429, 200]
        assert [d["attempt"] for d in first_turn][:4] == [1, 2, 3, 4]
        assert first_turn[3]["outcome"] == "moved"
        assert len({h["webhook-id"] for h in endpoint.seen[:4]}) == 1
        assert all(h["webhook-signature"].startswith("v1,") for h in endpoint.seen)

    def test_410_disables_the_endpoint(
        self, live_server: str, worker: Worker, service: GameService, scripted: Any
    ) -> None:
        endpoint = scripted([410])
        game = create_webhook_game(live_server, endpoint.url)
        wait_for(lambda: any(d["outcome"] == "disabled" for d in deliveries(live_server, game)), timeout=30)
        assert service.store.endpoint_disabled(endpoint.url)
        assert len(endpoint.seen) == 1

    def test_only_the_creator_reads_the_delivery_log(self, live_server: str, scripted: Any) -> None:
        game = create_webhook_game(live_server, scripted([]).url)
        response = requests.get(f"{live_server}/v1/games/{game['id']}/deliveries", timeout=10)
        assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden"


class TestDeadlines:
    def test_forfeit(self, client: Any, service: GameService, worker: Worker) -> None:
        game = client.post(
            "/v1/games",
            json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": {"move_deadline_s": 1}},
        ).json
        record = wait_for(lambda: finished(service, game["id"]), timeout=30)
        assert record.outcome.reason == "timeout"
        assert record.outcome.winners == (1 - game["to_act"][0],)
        assert types_of(service, game["id"]).count("TurnTimedOut") == 1

    def test_random_move(self, client: Any, service: GameService, worker: Worker) -> None:
        game = client.post(
            "/v1/games",
            json={
                "game": "tictactoe",
                "seats": [{"name": "a"}, {"name": "b"}],
                "options": {"move_deadline_s": 1, "on_timeout": "random"},
            },
        ).json
        wait_for(lambda: "MarkPlaced" in types_of(service, game["id"]), timeout=30)
        envelopes = service.events(game["id"])
        timed_out = [e for e in envelopes if e.type == "TurnTimedOut"]
        assert timed_out[0].payload == {"seat": game["to_act"][0], "policy": "random"}
        assert envelopes[envelopes.index(timed_out[0]) + 1].type == "MarkPlaced"

    def test_pass_needs_a_game_that_can_pass(self, client: Any) -> None:
        response = client.post(
            "/v1/games",
            json={
                "game": "tictactoe",
                "seats": [{"name": "a"}, {"name": "b"}],
                "options": {"move_deadline_s": 5, "on_timeout": "pass"},
            },
        )
        assert response.status_code == 422 and response.json["error"]["code"] == "invalid_option"

    def test_a_repeated_timeout_changes_nothing(self, service: GameService) -> None:
        store = RedisStore(service.store.redis, Keyspace(f"{NAMESPACE}-idle"))
        idle = GameService(store)
        record = idle.create("tictactoe", [SeatSpec("a"), SeatSpec("b")], {"move_deadline_s": 60}).record
        assert any(m.startswith("deadline|") for m in store.timers(store.keys.game(record.game_id).bucket))
        assert idle.time_out(record.game_id, record.version) is not None
        assert idle.time_out(record.game_id, record.version) is None
        assert GameService(store).time_out(record.game_id, record.version) is None
        assert types_of(idle, record.game_id).count("TurnTimedOut") == 1


def test_a_worker_killed_mid_turn_is_replaced_and_the_turn_is_played_once(tmp_path: Path) -> None:
    namespace = f"{NAMESPACE}-kill"
    env = os.environ | {"ORRERY_NAMESPACE": namespace, "ORRERY_QUEUE": namespace, "ORRERY_VISIBILITY_TIMEOUT": "10"}
    store = RedisStore(redis.Redis.from_url(os.environ["REDIS_URL"]), Keyspace(namespace))
    service = GameService(store)
    slow = {"builtin": "slow", "think_ms": 3000}
    first = Worker(tmp_path, env).start(concurrency=1)
    record = service.create("tictactoe", [SeatSpec("S1", slow), SeatSpec("S2", slow)], {}, strong_seed("kill")).record
    game_id, version = record.game_id, record.version
    try:
        wait_for(lambda: re.search(r"play_bot_turn\[[^]]+\] received", first.log.read_text()), timeout=30)
        time.sleep(0.5)
        first.stop(signal.SIGKILL)
        assert service.head(game_id).version == version
    finally:
        first.stop(signal.SIGKILL)
    second = Worker(tmp_path, env).start(concurrency=1)
    try:
        wait_for(lambda: service.head(game_id).version > version + 3, timeout=90)
    finally:
        second.stop()
    envelopes = store.read(game_id)
    moves = [e for e in envelopes if e.type == "MarkPlaced"]
    assert [e.version for e in envelopes] == list(range(1, len(envelopes) + 1))
    assert moves[0].version == version + 2
    assert moves[1].version == version + 4 and moves[1].seat != moves[0].seat
    assert len({(e.seat, e.version) for e in moves}) == len(moves)
