"""Limits: each test replays an attack on the service's capacity and shows that it now fails.

The whole suite runs with limits it never reaches (see ``TEST_LIMITS`` in
conftest); these tests build apps, and start the real API, with low ones. Each
app here has a namespace of its own, so its counters start at zero.
"""

from __future__ import annotations

import dataclasses
import os
import socket
import statistics
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import requests

from app import Settings, create_app
from events.keys import Keyspace, bucket_of
from events.store import RedisStore
from tests.conftest import NAMESPACE, Worker, served_api, wait_for

API_NAMESPACE = f"{NAMESPACE}-gunicorn"
"""The namespace of the API that ``api`` starts: no worker serves it."""

TWO_SEATS = {"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": {"secret_squares": False}}


def drop_namespace(url: str, namespace: str) -> None:
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(f"{namespace}:*", count=1000))
    for i in range(0, len(keys), 500):
        client.unlink(*keys[i : i + 500])


@pytest.fixture
def limited(redis_url: str) -> Iterator[Any]:
    """Build apps with low limits, each in a fresh namespace; their keys go at the end."""
    namespaces: list[str] = []

    def build(**changes: Any) -> Any:
        namespace = f"{NAMESPACE}-lim-{uuid.uuid4().hex[:6]}"
        namespaces.append(namespace)
        settings = dataclasses.replace(Settings.from_env(), namespace=namespace, queue=namespace, **changes)
        app = create_app(settings)
        app.config["TESTING"] = True
        return app

    yield build
    for namespace in namespaces:
        drop_namespace(redis_url, namespace)


def error_of(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    body: dict[str, Any] = response.json
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    return body


# --- The real API under gunicorn, as `orrery up` runs it ---------------------------


class RawStream:
    """An SSE client on a bare socket, so that one thread can hold many streams open."""

    def __init__(self, port: int, path: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        self.data = b""

    def wait_for(self, marker: bytes, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while marker not in self.data and time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            self.data += chunk
        return marker in self.data

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(scope="module")
def api(redis_url: str) -> Iterator[tuple[str, int]]:
    """gunicorn_command() on a free port, in a namespace with no worker, 100 streams allowed per address."""
    namespace = API_NAMESPACE
    env = os.environ | {
        "REDIS_URL": redis_url,
        "ORRERY_NAMESPACE": namespace,
        "ORRERY_QUEUE": namespace,
        "ORRERY_STREAMS_PER_ADDRESS": "100",
        "ORRERY_STREAMS_PER_GAME": "100",
    }
    try:
        with served_api(env) as served:
            yield served
    finally:
        drop_namespace(redis_url, namespace)


def test_sixty_open_streams_do_not_stop_ordinary_requests(api: tuple[str, int], redis_url: str) -> None:
    url, port = api
    http = requests.Session()
    games = [http.post(f"{url}/v1/games", json=TWO_SEATS, timeout=10).json() for _ in range(3)]
    # A bot seat, so that a move leaves the workers something to do.
    with_bot = TWO_SEATS | {"seats": [{"name": "a"}, {"name": "bot", "bot": {"builtin": "random"}}]}
    bot_games = (http.post(f"{url}/v1/games", json=with_bot, timeout=10).json() for _ in range(20))
    bot_game = next(g for g in bot_games if g["to_act"] == [0])
    streams = [RawStream(port, f"/v1/games/{games[i % 3]['id']}/stream?heartbeat=15") for i in range(60)]
    try:
        assert all(s.wait_for(b"retry: 2000") for s in streams)
        latencies = []
        for game in games:
            for _ in range(5):
                started = time.monotonic()
                assert http.get(f"{url}/v1/games/{game['id']}", timeout=5).status_code == 200
                latencies.append(time.monotonic() - started)
        seat = games[0]["to_act"][0]
        started = time.monotonic()
        moved = http.post(
            f"{url}/v1/games/{games[0]['id']}/moves",
            json={"move": "a1"},
            headers={"Authorization": f"Bearer {games[0]['seats'][seat]['token']}"},
            timeout=5,
        )
        latencies.append(time.monotonic() - started)
        assert moved.status_code == 201, moved.text
        started = time.monotonic()
        moved = http.post(
            f"{url}/v1/games/{bot_game['id']}/moves",
            json={"move": "b2"},
            headers={"Authorization": f"Bearer {bot_game['seats'][0]['token']}"},
            timeout=5,
        )
        latencies.append(time.monotonic() - started)
        assert moved.status_code == 201, moved.text
        store = RedisStore(redis.Redis.from_url(redis_url), Keyspace(API_NAMESPACE))
        outbox = store.redis.xrange(store.keys.outbox(bucket_of(bot_game["id"])))
        noted = [int(fields[b"version"]) for _, fields in outbox if fields[b"game_id"].decode() == bot_game["id"]]
        assert moved.json()["version"] in noted, "the move left the workers an outbox entry to follow"
        assert store.redis.llen(f"{API_NAMESPACE}:celery:{API_NAMESPACE}") == 0, "the API sent the broker nothing"
        assert statistics.median(latencies) < 0.25 and max(latencies) < 2, latencies
        followers = [s for i, s in enumerate(streams) if i % 3 == 0]
        assert all(s.wait_for(b"event: MarkPlaced", timeout=5) for s in followers)
        assert http.get(f"{url}/readyz", timeout=5).json()["redis"] == "ok"
    finally:
        for s in streams:
            s.close()


def test_liveness_is_fast_and_readiness_reports_the_worker(api: tuple[str, int]) -> None:
    url, _ = api
    http = requests.Session()
    timings = []
    for _ in range(10):
        started = time.monotonic()
        response = http.get(f"{url}/healthz", timeout=5)
        timings.append(time.monotonic() - started)
        assert response.status_code == 200 and response.json()["status"] == "ok"
    assert statistics.median(timings) < 0.05, timings
    ready = http.get(f"{url}/readyz", timeout=5)
    assert ready.status_code == 200
    assert ready.json()["redis"] == "ok" and ready.json()["worker"] == "none"


def test_readiness_sees_a_running_worker(client: Any, worker: Worker) -> None:
    started = time.monotonic()
    body = client.get("/readyz").json
    assert body["redis"] == "ok" and body["worker"] == "ok"
    assert time.monotonic() - started < 0.5
    spec = client.get("/openapi.json").json
    for path in ("/healthz", "/readyz"):
        assert "200" in spec["paths"][path]["get"]["responses"]
    assert "Liveness" in spec["components"]["schemas"] and "Health" in spec["components"]["schemas"]


# --- Stream caps -----------------------------------------------------------------------


@pytest.fixture
def served(limited: Any) -> Iterator[Any]:
    """Serve an app with low limits over real HTTP, in a thread."""
    from werkzeug.serving import make_server

    servers = []

    def serve(**changes: Any) -> tuple[str, Any]:
        app = limited(**changes)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}", app

    yield serve
    for server in servers:
        server.shutdown()


def test_stream_caps_per_address_and_per_game_free_their_slot_on_close(served: Any) -> None:
    url, app = served(streams_per_address=3, streams_per_game=2)
    games = [requests.post(f"{url}/v1/games", json=TWO_SEATS, timeout=10).json()["id"] for _ in range(3)]
    streams_of = app.extensions["orrery.streams"]
    stale = streams_of.store.keys.game_streams(games[0])
    streams_of.store.redis.zadd(stale, {f"killed-{i}": 1000 + i for i in range(5)})

    def open_stream(game_id: str) -> requests.Response:
        return requests.get(f"{url}/v1/games/{game_id}/stream?heartbeat=1", stream=True, timeout=10)

    first, second = open_stream(games[0]), open_stream(games[0])
    assert first.status_code == second.status_code == 200
    refused = open_stream(games[0])
    assert refused.status_code == 429
    assert refused.json()["error"] | {"message": ""} == {
        "code": "too_many_streams",
        "message": "",
        "limit": 2,
        "scope": "game",
    }
    third = open_stream(games[1])
    assert third.status_code == 200
    refused = open_stream(games[2])
    assert refused.status_code == 429 and refused.json()["error"]["scope"] == "address"
    assert streams_of.count(address="127.0.0.1") == 3 and streams_of.count(game_id=games[0]) == 2

    first.close()
    wait_for(lambda: streams_of.count(game_id=games[0]) == 1, timeout=10)
    again = open_stream(games[2])
    assert again.status_code == 200
    for response in (second, third, again):
        response.close()
    wait_for(lambda: streams_of.count(address="127.0.0.1") == 0, timeout=10)
    assert streams_of.store.redis.zcard(stale) == 0


def test_stream_cap_per_process(limited: Any) -> None:
    app = limited(streams_per_worker=1)
    client = app.test_client()
    game = client.post("/v1/games", json=TWO_SEATS).json["id"]
    held = client.get(f"/v1/games/{game}/stream", buffered=False)
    assert held.status_code == 200
    body = error_of(client.get(f"/v1/games/{game}/stream", buffered=False), 429, "too_many_streams")
    assert body["error"]["scope"] == "server"
    held.close()
    again = client.get(f"/v1/games/{game}/stream", buffered=False)
    assert again.status_code == 200
    again.close()


# --- Rate limits -----------------------------------------------------------------------


def test_creation_over_the_limit_gets_429_with_retry_after_and_ratelimit_headers(limited: Any) -> None:
    client = limited(limit_create="3/minute").test_client()
    for remaining in (2, 1, 0):
        response = client.post("/v1/games", json=TWO_SEATS)
        assert response.status_code == 201
        assert response.headers["X-RateLimit-Limit"] == "3"
        assert response.headers["X-RateLimit-Remaining"] == str(remaining)
        assert "Retry-After" not in response.headers
    for i in range(3):
        refused = client.post("/v1/games", json=TWO_SEATS, headers={"X-Forwarded-For": f"10.0.0.{i}"})
        error_of(refused, 429, "too_many_requests")
        assert 0 < int(refused.headers["Retry-After"]) <= 60
        assert refused.headers["X-RateLimit-Limit"] == "3" and refused.headers["X-RateLimit-Remaining"] == "0"
        assert int(refused.headers["X-RateLimit-Reset"]) > time.time()
        assert refused.headers["RateLimit-Limit"] == "3" and refused.headers["RateLimit-Remaining"] == "0"
        assert 0 < int(refused.headers["RateLimit-Reset"]) <= 61
    assert client.get("/v1/games").status_code == 200


def test_forwarded_addresses_count_only_behind_a_trusted_proxy(limited: Any) -> None:
    client = limited(limit_create="1/minute", trust_proxy=1).test_client()
    for last in range(3):
        response = client.post("/v1/games", json=TWO_SEATS, headers={"X-Forwarded-For": f"203.0.113.{last}"})
        assert response.status_code == 201
    again = client.post("/v1/games", json=TWO_SEATS, headers={"X-Forwarded-For": "203.0.113.0"})
    error_of(again, 429, "too_many_requests")


def test_a_forged_forwarded_address_is_only_a_name_in_its_own_window(limited: Any) -> None:
    client = limited(limit_create="1/minute", trust_proxy=1).test_client()
    for forged in ("{b00}", "}{", "a}b{c", "*", "x" * 2000, "\u00e9t\u00e9", ""):
        first = client.post("/v1/games", json=TWO_SEATS, headers={"X-Forwarded-For": forged})
        assert first.status_code in (201, 429), (forged, first.status_code)
        again = client.post("/v1/games", json=TWO_SEATS, headers={"X-Forwarded-For": forged})
        error_of(again, 429, "too_many_requests")
        assert again.json["error"]["limit"] == 1 and int(again.headers["Retry-After"]) >= 1


def test_a_bad_token_flood_gets_429s(limited: Any) -> None:
    client = limited(limit_bad_token="5/minute").test_client()
    game = client.post("/v1/games", json=TWO_SEATS).json
    statuses = [
        client.get(f"/v1/games/{game['id']}", headers={"Authorization": f"Bearer guess-{i}"}).status_code
        for i in range(30)
    ]
    assert statuses == [401] * 5 + [429] * 25
    malformed = client.post(f"/v1/games/{game['id']}/moves", json={"move": "a1"}, headers={"Authorization": "x"})
    error_of(malformed, 429, "too_many_requests")
    assert client.get(f"/v1/games/{game['id']}").status_code == 200
    assert client.get("/healthz").status_code == 200


def test_moves_are_limited_per_token_and_per_address(limited: Any, redis_url: str) -> None:
    app = limited(limit_moves="2/minute", limit_moves_per_address="3/minute")
    client = app.test_client()
    game = client.post("/v1/games", json=TWO_SEATS).json
    seat = game["to_act"][0]
    mover = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    other = {"Authorization": f"Bearer {game['seats'][1 - seat]['token']}"}
    url = f"/v1/games/{game['id']}/moves"
    assert client.post(url, json={"move": "a1"}, headers=mover).status_code == 201
    error_of(client.post(url, json={"move": "b1"}, headers=mover), 403, "not_your_turn")
    error_of(client.post(url, json={"move": "b1"}, headers=mover), 429, "too_many_requests")
    assert client.post(url, json={"move": "b1"}, headers=other).status_code == 201
    error_of(client.post(url, json={"move": "c1"}, headers=mover), 429, "too_many_requests")
    error_of(client.post(url, json={"move": "c1"}, headers=other), 429, "too_many_requests")
    namespace = app.extensions["orrery.settings"].namespace
    stored = [k.decode() for k in redis.Redis.from_url(redis_url).scan_iter(f"{namespace}:limits:*")]
    assert stored and not any(s["token"] in key for s in game["seats"] for key in stored)


def test_a_store_that_stops_answering_mid_move_gives_503s_not_500s(memory_app: Any, monkeypatch: Any) -> None:
    client = memory_app.test_client()
    game = client.post("/v1/games", json=TWO_SEATS).json
    seat = game["to_act"][0]
    mover = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    store = memory_app.extensions["orrery.service"].store

    def down(*args: Any, **kwargs: Any) -> Any:
        raise redis.ConnectionError("the store went away")

    monkeypatch.setattr(store, "take_rate", down)
    monkeypatch.setattr(store, "take_rate_and_glance", down)
    url = f"/v1/games/{game['id']}/moves"
    error_of(client.post(url, json={"move": "a1"}, headers=mover), 503, "store_unavailable")
    refused = client.post(url, json={"move": 7, "expected_version": "x"}, headers=mover)
    assert refused.status_code in (400, 503), refused.status_code
    error_of(client.post("/v1/games", json=TWO_SEATS), 503, "store_unavailable")
