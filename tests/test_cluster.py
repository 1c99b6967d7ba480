"""Orrery at scale: the store on a real 3-master Redis Cluster, Celery over RabbitMQ, two API servers.

The cluster is started by the tests from a ``redis-server`` binary (see ``tests.conftest.embedded_cluster``).
Two gunicorn API servers on different ports and one Celery worker share it. The broker is the machine's
RabbitMQ when it answers at 127.0.0.1:5672, else the suite's plain Redis (kombu cannot use a cluster).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
import redis
import requests

from tests.conftest import (
    NAMESPACE,
    TMP,
    Worker,
    embedded_cluster,
    redis_server_missing,
    served_api,
    wait_for,
)
from tests.support.seeds import strong_seed
from tests.test_http_e2e import play_and_score_over_http

RABBITMQ_URL = "amqp://guest:guest@127.0.0.1:5672//"
WIN = ("a1", "a2", "b1", "b2", "c1")
"""Seat 0 takes the top row in five moves."""

pytestmark = pytest.mark.skipif(bool(redis_server_missing()), reason=redis_server_missing() or "")


def rabbitmq_answers() -> bool:
    """True when something accepts AMQP connections at 127.0.0.1:5672."""
    try:
        with socket.create_connection(("127.0.0.1", 5672), timeout=1):
            return True
    except OSError:
        return False


@dataclass
class Deployment:
    """Two API servers, a worker and the cluster they share."""

    servers: tuple[str, str]
    env: dict[str, str]
    cluster: Any
    broker: str
    worker: Worker

    def store(self) -> Any:
        from app import redis_client
        from events.keys import Keyspace
        from events.store import RedisStore

        return RedisStore(redis_client(self.cluster.url, cluster=True), Keyspace(self.env["ORRERY_NAMESPACE"]))


@pytest.fixture(scope="module")
def deployment() -> Iterator[Deployment]:
    cluster = embedded_cluster()
    namespace = f"{NAMESPACE}-cluster"
    broker = RABBITMQ_URL if rabbitmq_answers() else os.environ["REDIS_URL"]
    env = os.environ | {
        "REDIS_URL": cluster.url,
        "ORRERY_REDIS_CLUSTER": "true",
        "CELERY_BROKER_URL": broker,
        "ORRERY_NAMESPACE": namespace,
        "ORRERY_QUEUE": namespace,
    }
    with contextlib.ExitStack() as stack:
        first, _ = stack.enter_context(served_api(env, workers=2))
        second, _ = stack.enter_context(served_api(env, workers=2))
        stack.callback(_drop_queues, env)
        worker = Worker(TMP, env | {"ORRERY_PUBLIC_URL": first}).start()
        stack.callback(worker.stop)
        yield Deployment((first, second), env, cluster, broker, worker)


def _drop_queues(env: dict[str, str]) -> None:
    """Delete this run's queues from the broker once its worker has stopped (a running worker declares
    them again), so that a shared RabbitMQ keeps none of them."""
    from app import Settings, make_celery, queue_names

    settings = Settings.from_env(env)
    if not settings.require_broker().startswith("amqp"):
        return
    with contextlib.suppress(Exception), make_celery(settings, current=False).connection_for_write() as conn:
        channel = conn.default_channel
        for queue in queue_names(settings).all:
            channel.queue_delete(queue)


def create(base: str, *, bot: bool = False, seed: str | None = None) -> dict[str, Any]:
    second: dict[str, Any] = {"name": "Bot", "bot": {"builtin": "random"}} if bot else {"name": "Bob"}
    body = {"game": "tictactoe", "seats": [{"name": "Ada"}, second], "seed": seed or strong_seed("cl").decode()}
    response = requests.post(f"{base}/v1/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return dict(response.json())


def move(base: str, game: dict[str, Any], seat: int, square: str, version: int, key: str | None = None) -> Any:
    token = next(s["token"] for s in game["seats"] if s["index"] == seat)
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key or uuid.uuid4().hex}
    return requests.post(
        f"{base}/v1/games/{game['id']}/moves",
        json={"move": square, "expected_version": version},
        headers=headers,
        timeout=30,
    )


def test_every_key_of_a_game_is_on_one_slot_and_buckets_spread_over_the_masters(deployment: Deployment) -> None:
    from redis.crc import key_slot

    from events.keys import BUCKETS, Keyspace

    keys = Keyspace(deployment.env["ORRERY_NAMESPACE"])
    game = keys.game("some-game")
    names = [getattr(game, f) for f in ("events", "meta", "idempotency", "snapshot", "tokens", "seed", "secrets")]
    names += [game.deliveries, game.verdicts, game.listing, game.outbox, keys.timers(game.bucket)]
    names += [keys.index(game.bucket, "*", "*"), keys.game_streams("some-game")]
    assert len({key_slot(name.encode()) for name in names}) == 1
    client = redis.RedisCluster.from_url(deployment.cluster.url)
    owners = {client.get_node_from_key(keys.outbox(b)).name for b in range(BUCKETS)}
    assert len(owners) == 3, "the 16 buckets live on all three masters"


def test_a_game_is_played_across_two_servers_and_scored_by_the_worker(deployment: Deployment) -> None:
    a, b = deployment.servers
    game = create(a)
    version = game["version"]
    for i, square in enumerate(WIN):
        server = (a, b)[i % 2]
        response = move(server, game, i % 2, square, version)
        assert response.status_code == 201, response.text
        version = response.json()["version"]
        other = (b, a)[i % 2]
        seen = requests.get(f"{other}/v1/games/{game['id']}", timeout=10).json()
        assert seen["version"] >= version, "the other server's caches saw the move at once"

    def scored() -> Any:
        body = requests.get(f"{b}/v1/games/{game['id']}", timeout=10).json()
        return body if body["result"] and body["result"]["scored"] else None

    final = wait_for(scored, timeout=30)
    assert final["result"]["winners"] == [0]
    listed = requests.get(f"{a}/v1/games?status=finished&game=tictactoe&limit=100", timeout=10).json()
    assert game["id"] in [g["id"] for g in listed["games"]]
    audit = requests.get(
        f"{b}/v1/games/{game['id']}/events",
        headers={"Authorization": f"Bearer {game['creator_token']}"},
        timeout=10,
    ).json()
    assert [e["type"] for e in audit["events"]].count("GameScored") == 1
    verdict = requests.get(f"{a}/v1/games/{game['id']}/verify", timeout=30)
    assert verdict.status_code == 200 and verdict.json()["verdict"] == "ok", verdict.text


def test_the_end_to_end_http_game_passes_on_the_cluster(deployment: Deployment) -> None:
    play_and_score_over_http(deployment.servers[1])


def test_50_concurrent_moves_split_across_both_servers_give_exactly_one_winner(deployment: Deployment) -> None:
    game = create(deployment.servers[0])
    version = game["version"]
    squares = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    barrier = threading.Barrier(50)

    def attempt(i: int) -> Any:
        barrier.wait()
        return move(deployment.servers[i % 2], game, 0, squares[i % 9], version)

    with ThreadPoolExecutor(50) as pool:
        responses = list(pool.map(attempt, range(50)))
    statuses = [r.status_code for r in responses]
    assert statuses.count(201) == 1, statuses
    assert statuses.count(409) == 49, statuses
    won = next(r.json() for r in responses if r.status_code == 201)
    for server in deployment.servers:
        state = requests.get(f"{server}/v1/games/{game['id']}", timeout=10).json()
        assert state["version"] == won["version"] and state["to_act"] == [1]
    creator = {"Authorization": f"Bearer {game['creator_token']}"}
    events = requests.get(f"{deployment.servers[1]}/v1/games/{game['id']}/events", headers=creator, timeout=10)
    moved = [e for e in events.json()["events"] if e["version"] > version and e["seat"] == 0]
    assert len({e["version"] for e in moved}) >= 1 and all(e["version"] <= won["version"] for e in moved)


def test_every_cached_read_on_one_server_sees_a_move_made_on_the_other(deployment: Deployment) -> None:
    a, b = deployment.servers
    game = create(a)
    url = f"/v1/games/{game['id']}"
    seat0 = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    reads = [url, f"{url}/state"]
    etags = {}
    for path in reads:
        for _ in range(3):
            response = requests.get(f"{a}{path}", timeout=10)
            assert response.status_code == 200, response.text
        etags[path] = response.headers["ETag"]
        assert requests.get(f"{a}{path}", headers={"If-None-Match": etags[path]}, timeout=10).status_code == 304
    before = requests.get(f"{a}{url}/legal-moves", headers=seat0, timeout=10).json()["moves"]
    assert "a1" in before
    response = move(b, game, 0, "a1", game["version"])
    assert response.status_code == 201, response.text
    for path in reads:
        fresh = requests.get(f"{a}{path}", headers={"If-None-Match": etags[path]}, timeout=10)
        assert fresh.status_code == 200 and fresh.headers["ETag"] != etags[path], path
    assert requests.get(f"{a}{url}", timeout=10).json()["version"] == response.json()["version"]
    seat1 = {"Authorization": f"Bearer {game['seats'][1]['token']}"}
    after = requests.get(f"{a}{url}/legal-moves", headers=seat1, timeout=10).json()["moves"]
    assert "a1" not in after and len(after) == len(before) - 1


def test_a_stream_on_one_server_sees_moves_made_on_the_other(deployment: Deployment) -> None:
    a, b = deployment.servers
    game = create(a)
    start = game["version"]
    seen: list[int] = []
    ended = threading.Event()

    def follow() -> None:
        with requests.get(f"{a}/v1/games/{game['id']}/stream?after={start}", stream=True, timeout=30) as response:
            assert response.status_code == 200
            for line in response.iter_lines(decode_unicode=True):
                if line.startswith("id: "):
                    seen.append(int(line[4:]))
                if line == "event: end":
                    break
        ended.set()

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    time.sleep(0.3)
    version = start
    for i, square in enumerate(WIN):
        response = move(b, game, i % 2, square, version)
        assert response.status_code == 201, response.text
        version = response.json()["version"]
    assert ended.wait(30), f"the stream on {a} ended; it saw {seen}"
    final = requests.get(f"{b}/v1/games/{game['id']}", timeout=10).json()
    assert seen == list(range(start + 1, final["version"] + 1))


def test_a_bot_game_runs_through_the_worker(deployment: Deployment) -> None:
    a, b = deployment.servers
    game = create(a, bot=True)

    def my_turn() -> Any:
        body = requests.get(f"{b}/v1/games/{game['id']}", timeout=10).json()
        return body if body["status"] == "finished" or 0 in body["to_act"] else None

    for _ in range(5):
        state = wait_for(my_turn, timeout=30)
        if state["status"] == "finished":
            break
        legal = requests.get(
            f"{a}/v1/games/{game['id']}/legal-moves",
            headers={"Authorization": f"Bearer {game['seats'][0]['token']}"},
            timeout=10,
        ).json()
        response = move(a, game, 0, legal["moves"][0], state["version"])
        assert response.status_code == 201, response.text
    final = wait_for(my_turn, timeout=30)
    assert final["status"] == "finished"


@pytest.mark.skipif(not rabbitmq_answers(), reason="no RabbitMQ answers at 127.0.0.1:5672 (guest/guest)")
def test_celery_runs_over_rabbitmq_while_the_store_is_a_cluster(deployment: Deployment) -> None:
    from app import Settings, make_celery

    assert deployment.broker.startswith("amqp://")
    celery = make_celery(Settings.from_env(deployment.env), current=False)
    assert celery.conf.broker_url.startswith("amqp://")
    assert celery.control.ping(destination=[deployment.worker.node], timeout=5), "the worker answers over AMQP"
    test_a_bot_game_runs_through_the_worker(deployment)


def test_a_cluster_store_without_a_broker_is_refused_with_a_reason() -> None:
    from app import Settings

    settings = Settings.from_env({"REDIS_URL": "redis://127.0.0.1:7000/0", "ORRERY_REDIS_CLUSTER": "true"})
    with pytest.raises(RuntimeError, match="CELERY_BROKER_URL"):
        settings.require_broker()


# --- moving a slot while games are played --------------------------------------------------------------


def _node_ids(cluster: Any) -> dict[int, tuple[redis.Redis, str]]:
    out = {}
    for port in cluster.ports:
        client = redis.Redis(port=port)
        out[port] = (client, client.execute_command("CLUSTER", "MYID").decode())
    return out


def migrate_slot(cluster: Any, slot: int, source: int, target: int, pause_s: float = 0.02) -> int:
    """Move ``slot`` from the master on port ``source`` to the one on ``target``, a few keys at a time."""
    nodes = _node_ids(cluster)
    src, src_id = nodes[source]
    dst, dst_id = nodes[target]
    dst.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", src_id)
    src.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", dst_id)
    moved = 0
    while True:
        keys = src.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 3)
        if not keys:
            break
        src.execute_command("MIGRATE", "127.0.0.1", target, "", 0, 5000, "KEYS", *keys)
        moved += len(keys)
        time.sleep(pause_s)
    for client, _ in nodes.values():
        client.execute_command("CLUSTER", "SETSLOT", slot, "NODE", dst_id)
    return moved


def test_moving_a_slot_while_games_are_played_loses_no_acknowledged_move(deployment: Deployment) -> None:
    from redis.crc import key_slot

    store = deployment.store()
    client = redis.RedisCluster.from_url(deployment.cluster.url)
    games = [create(deployment.servers[i % 2]) for i in range(24)]
    slot_of = {g["id"]: key_slot(store.keys.game(g["id"]).meta.encode()) for g in games}
    slot = slot_of[games[0]["id"]]
    players = [g for g in games if slot_of[g["id"]] == slot] + [g for g in games if slot_of[g["id"]] != slot][:4]
    source = client.get_node_from_key(store.keys.game(games[0]["id"]).meta).port
    target = next(p for p in deployment.cluster.ports if p != source)

    acknowledged: dict[str, list[int]] = {g["id"]: [] for g in players}
    answers: list[int] = []
    playing = threading.Event()
    playing.set()

    def play(game: dict[str, Any], n: int) -> None:
        version = game["version"]
        for i, square in enumerate(WIN):
            key = f"slot-{game['id']}-{i}"
            for _ in range(20):
                response = move(deployment.servers[(n + i) % 2], game, i % 2, square, version, key)
                answers.append(response.status_code)
                if response.status_code != 503:
                    break
                time.sleep(float(response.headers.get("Retry-After", "1")) / 10)
            assert response.status_code == 201, response.text
            version = response.json()["version"]
            acknowledged[game["id"]].append(version)

    with ThreadPoolExecutor(len(players)) as pool:
        futures = [pool.submit(play, game, n) for n, game in enumerate(players)]
        wait_for(lambda: answers, timeout=30, interval=0.01)
        before = len(answers)
        moved = migrate_slot(deployment.cluster, slot, source, target, pause_s=0.05)
        during = len(answers) - before
        for future in futures:
            future.result()

    assert moved > 0 and during > 0, "moves were answered while the slot moved"
    refreshed = redis.RedisCluster.from_url(deployment.cluster.url)
    assert refreshed.get_node_from_key(store.keys.game(games[0]["id"]).meta).port == target
    assert set(answers) <= {201, 503}, sorted(set(answers))
    for game in players:
        stored = [e.version for e in store.read(game["id"])]
        assert set(acknowledged[game["id"]]) <= set(stored), game["id"]
        assert stored == list(range(1, stored[-1] + 1))
        body = requests.get(f"{deployment.servers[0]}/v1/games/{game['id']}", timeout=10).json()
        assert body["result"]["winners"] == [0]
    counts = {status: answers.count(status) for status in set(answers)}
    print(json.dumps({"slot": slot, "keys_moved": moved, "during": during, "answers": counts}))


def test_a_store_that_does_not_answer_is_a_503_with_retry_after(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    created = client.post("/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]})
    assert created.status_code == 201
    store = client.application.extensions["orrery.service"].store

    def unavailable(*args: Any, **kwargs: Any) -> Any:
        raise redis.exceptions.ClusterError("TTL exhausted.")

    monkeypatch.setattr(store, "glance", unavailable)
    response = client.get(f"/v1/games/{created.json['id']}")
    assert response.status_code == 503
    assert response.json["error"]["code"] == "store_unavailable"
    assert response.headers["Retry-After"] == "1"
    documented = client.get("/openapi.json").json["paths"]["/v1/games/{game_id}/moves"]["post"]["responses"]
    assert "503" in documented and "Retry-After" in documented["503"]["headers"]
