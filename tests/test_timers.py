"""Timers and scoring are at least once: a due timer is leased, not removed, until it is handled.

A sweeper that dies between taking a timer and handling it is simulated by taking
the lease here and never finishing it: a real worker must then handle the timer
once the lease runs out, exactly once.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from domain.table.seats import timer_member
from events.keys import Keyspace
from events.store import RedisStore
from service.games import GameService, SeatSpec
from tests.conftest import NAMESPACE, Worker, wait_for
from tests.support.seeds import strong_seed

LEASE_MS = 1000
HUMANS = [SeatSpec("Ada"), SeatSpec("Bob")]


@pytest.fixture(scope="module")
def timers_namespace() -> str:
    return f"{NAMESPACE}-timers"


@pytest.fixture(scope="module")
def store(timers_namespace: str, service: GameService) -> RedisStore:
    """A store of its own namespace; ``service`` loads the games, the test game included."""
    return RedisStore(redis.Redis.from_url(os.environ["REDIS_URL"]), Keyspace(timers_namespace))


@pytest.fixture(scope="module")
def leasing_worker(timers_namespace: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    env = os.environ | {
        "ORRERY_NAMESPACE": timers_namespace,
        "ORRERY_QUEUE": timers_namespace,
        "ORRERY_TIMER_LEASE_MS": str(LEASE_MS),
    }
    running = Worker(Path(tmp_path_factory.mktemp("timers")), env)
    yield running
    running.stop()


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def events_of(store: RedisStore, game_id: str, kind: str) -> int:
    return sum(1 for e in store.read(game_id) if e.type == kind)


class TestLeases:
    def test_a_leased_timer_stays_until_it_is_finished(self, store: RedisStore) -> None:
        bucket, member = 3, timer_member("deadline", "lease-unit", 7)
        store.set_timer(bucket, member, now_ms() - 1)
        lease = store.claim_timer(bucket, member, now_ms(), 60_000)
        assert lease is not None
        assert store.claim_timer(bucket, member, now_ms(), 60_000) is None, "a second sweep must not take it"
        assert store.timers(bucket)[member] == lease
        assert store.finish_timer(bucket, member, lease)
        assert member not in store.timers(bucket)

    def test_a_timer_set_again_while_leased_survives_the_finish(self, store: RedisStore) -> None:
        bucket, member = 4, timer_member("bot", "lease-unit", 9, 1)
        store.set_timer(bucket, member, now_ms() - 1)
        lease = store.claim_timer(bucket, member, now_ms(), 60_000)
        assert lease is not None
        store.set_timer(bucket, member, lease + 5000)
        assert not store.finish_timer(bucket, member, lease)
        assert store.timers(bucket)[member] == lease + 5000
        store.redis.zrem(store.keys.timers(bucket), member)


class TestAtLeastOnce:
    def test_a_deadline_whose_sweeper_died_fires_once(self, store: RedisStore, leasing_worker: Worker) -> None:
        idle = GameService(store)
        record = idle.create("tictactoe", HUMANS, {"move_deadline_s": 1}, strong_seed("lease-deadline")).record
        bucket = store.keys.game(record.game_id).bucket
        member = timer_member("deadline", record.game_id, record.version)
        wait_for(lambda: store.timers(bucket)[member] <= now_ms(), timeout=5)
        lease = store.claim_timer(bucket, member, now_ms(), LEASE_MS)
        assert lease is not None, "the test takes the lease as a sweeper that then dies"
        leasing_worker.start()
        wait_for(lambda: events_of(store, record.game_id, "TurnTimedOut") >= 1, timeout=30)
        wait_for(lambda: member not in store.timers(bucket), timeout=10)
        time.sleep(2 * LEASE_MS / 1000)
        assert events_of(store, record.game_id, "TurnTimedOut") == 1

    def test_a_finished_game_whose_scoring_task_was_lost_is_scored_once(
        self, store: RedisStore, leasing_worker: Worker
    ) -> None:
        idle = GameService(store)
        record = idle.create("tictactoe", HUMANS, {}, strong_seed("lease-score")).record
        seat = min(record.game.to_act(record.state))
        finished = idle.submit(record.game_id, seat, "resign").record
        bucket = store.keys.game(record.game_id).bucket
        store.redis.xtrim(store.keys.outbox(bucket), maxlen=0)
        member = timer_member("score", record.game_id, finished.version)
        assert member in store.timers(bucket), "a finished game carries a scoring watchdog"
        if leasing_worker.process is None:
            leasing_worker.start()
        store.set_timer(bucket, member, now_ms())
        wait_for(lambda: events_of(store, record.game_id, "GameScored") == 1, timeout=30)
        wait_for(lambda: member not in store.timers(bucket), timeout=10)
        assert events_of(store, record.game_id, "GameScored") == 1


class TestHandlersAreIdempotent:
    """A lease that runs out while its handler is still working lets a second sweep run it again."""

    def test_every_timer_kind_handled_twice_acts_once(self, service: GameService) -> None:
        from workers.tasks import handle_timer

        deadline = service.create("tictactoe", HUMANS, {"move_deadline_s": 60}, strong_seed("twice-deadline")).record
        for _ in range(2):
            handle_timer("deadline", deadline.game_id, deadline.version, None)
        assert events_of(service.store, deadline.game_id, "TurnTimedOut") == 1

        over = service.create("tictactoe", HUMANS, {}, strong_seed("twice-score")).record
        finished = service.submit(over.game_id, min(over.game.to_act(over.state)), "resign").record
        for _ in range(2):
            handle_timer("score", over.game_id, finished.version, None)
        assert events_of(service.store, over.game_id, "GameScored") == 1

        random_bot = {"builtin": "random", "think_ms": 1}
        bots = [SeatSpec("R1", random_bot), SeatSpec("R2", random_bot)]
        played = service.create("tictactoe", bots, {}, strong_seed("twice-bot")).record
        version_after = played.version + 2
        seat = min(played.game.to_act(played.state))
        service.bot_move(played.game_id, seat, played.version)
        for _ in range(2):
            handle_timer("bot", played.game_id, played.version, seat)
        first_moves = [e for e in service.store.read(played.game_id, upto=version_after) if e.type == "MoveMade"]
        assert len(first_moves) == 1
