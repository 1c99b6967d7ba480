"""Real Celery workers: end-game scoring happens once, however often it runs."""

from __future__ import annotations

import os
import threading
import types
import uuid
from pathlib import Path
from typing import Any

import requests

from service.games import GameService, SeatSpec
from tests.conftest import NAMESPACE, Worker, wait_for
from tests.support.seeds import strong_seed

SEATS = [SeatSpec("Ada"), SeatSpec("Bob")]


def scored_events(service: GameService, game_id: str) -> list[Any]:
    return [e for e in service.events(game_id) if e.type == "GameScored"]


def finished_game(service: GameService, seed: bytes) -> str:
    game_id = service.create("tictactoe", SEATS, {}, seed).record.game_id
    record = service.head(game_id)
    service.submit(game_id, next(iter(record.game.to_act(record.state))), "resign")
    return game_id


class TestScoring:
    def test_a_finished_game_is_scored_once_by_the_worker(self, service: GameService, worker: Worker) -> None:
        game_id = finished_game(service, strong_seed("score-me"))
        wait_for(lambda: scored_events(service, game_id))
        event = scored_events(service, game_id)[0]
        assert event.payload["reason"] == "resignation"
        assert set(event.payload["scores"]) == {"0", "1"}

    def test_running_the_task_again_changes_nothing(self, service: GameService, worker: Worker) -> None:
        from workers.tasks import score_game

        game_id = finished_game(service, strong_seed("twice"))
        wait_for(lambda: scored_events(service, game_id))
        version = service.head(game_id).version
        ids = [score_game.delay(game_id).id for _ in range(3)]
        wait_for(lambda: all(f"score_game[{i}] succeeded" in worker.log.read_text() for i in ids))
        assert len(scored_events(service, game_id)) == 1
        assert service.head(game_id).version == version

    def test_concurrent_scoring_appends_one_event(self, service: GameService) -> None:
        game_id = finished_game(service, strong_seed("race-score"))
        threads = [threading.Thread(target=GameService(service.store).score, args=(game_id,)) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(scored_events(service, game_id)) == 1


class TestHealth:
    def test_readyz_sees_redis_and_the_worker(self, live_server: str, worker: Worker) -> None:
        body = requests.get(f"{live_server}/readyz", timeout=10).json()
        assert body["redis"] == "ok"
        assert body["worker"] == "ok"
        assert "tictactoe" in body["games"]


class TestRelay:
    def test_a_game_the_relay_cannot_read_holds_up_no_other_game_of_its_bucket(
        self, service: GameService, monkeypatch: Any
    ) -> None:
        """On a namespace of its own: the session's workers relay (and drop) every entry of theirs, and would
        race this test's relay for the entries it adds."""
        from events.keys import Keyspace, bucket_of
        from events.store import RedisStore
        from workers import tasks

        own = RedisStore(service.store.redis, Keyspace(f"{NAMESPACE}-relay-{uuid.uuid4().hex[:6]}"))
        service = GameService(own)
        bot = SeatSpec("R", {"builtin": "random", "think_ms": 1})
        game_id = service.create("tictactoe", [SeatSpec("Ada"), bot], {}).record.game_id
        bucket, outbox = bucket_of(game_id), service.store.keys.outbox(bucket_of(game_id))
        group = f"relay-test-{uuid.uuid4().hex[:8]}"
        service.store.redis.xgroup_create(outbox, group, id="$")
        missing = next(g for g in (uuid.uuid4().hex[:16] for _ in range(10_000)) if bucket_of(g) == bucket)
        broken = next(g for g in (uuid.uuid4().hex[:16] for _ in range(10_000)) if bucket_of(g) == bucket)
        for gone in (missing, broken):
            service.store.redis.xadd(outbox, {"game_id": gone, "version": 1, "finished": 0, "event": "created"})
        version = service.head(game_id).version
        service.store.redis.xadd(outbox, {"game_id": game_id, "version": version, "finished": 0, "event": "created"})
        head = service.head

        def flaky_head(wanted: str) -> Any:
            if wanted == broken:
                raise RuntimeError("the store hiccupped")
            return head(wanted)

        dispatched: list[str] = []
        monkeypatch.setattr(service, "head", flaky_head)
        monkeypatch.setattr(tasks, "service", lambda: service)
        monkeypatch.setattr(tasks, "RELAY_GROUP", group)
        monkeypatch.setattr(tasks, "dispatch", lambda record: dispatched.append(record.game_id))
        assert tasks.relay_outbox(bucket) == 2
        assert dispatched == [game_id]
        pending = service.store.redis.xpending_range(outbox, group, min="-", max="+", count=10)
        assert len(pending) == 1
        own.clear()


class TestFollower:
    """Workers relay the outbox as it is appended to: the API sends the broker nothing after a move."""

    def test_a_worker_relays_a_finished_game_with_no_beat_and_no_word_from_the_api(
        self, service: GameService, tmp_path: Path
    ) -> None:
        from events.keys import Keyspace
        from events.store import RedisStore

        namespace = f"{NAMESPACE}-follow-{uuid.uuid4().hex[:6]}"
        env = os.environ | {"ORRERY_NAMESPACE": namespace, "ORRERY_QUEUE": namespace}
        own = RedisStore(service.store.redis, Keyspace(namespace))
        quiet = GameService(own)
        following = Worker(tmp_path, env).start(beat=False, concurrency=1)
        try:
            game_id = finished_game(quiet, strong_seed("followed"))
            wait_for(lambda: scored_events(quiet, game_id), timeout=30)
            bot = SeatSpec("R", {"builtin": "random", "think_ms": 1})
            played = quiet.create("tictactoe", [bot, SeatSpec("Bob", {"builtin": "random", "think_ms": 1})], {})
            wait_for(lambda: quiet.head(played.record.game_id).over, timeout=60)
        finally:
            following.stop()
            own.clear()

    def test_a_worker_that_does_not_consume_the_main_queue_follows_nothing(self) -> None:
        from app import Settings, make_celery, queue_names
        from workers.tasks import OutboxFollower

        settings = Settings.from_env()
        celery = make_celery(settings, current=False)
        celery.amqp.queues.select([queue_names(settings).webhooks])
        parent = types.SimpleNamespace(app=celery)
        step = OutboxFollower(parent)
        step.start(parent)
        assert step.threads == []
        assert OutboxFollower in celery.steps["worker"]

    def test_a_forked_process_builds_its_own_service(self) -> None:
        from workers import context

        def factory() -> Any:
            return object()

        parents = context._built(factory)
        read, write = os.pipe()
        child = os.fork()
        if child == 0:
            os.write(write, b"same" if context._built(factory) is parents else b"own")
            os._exit(0)
        os.close(write)
        os.waitpid(child, 0)
        assert os.read(read, 16) == b"own"
        assert context._built(factory) is parents
