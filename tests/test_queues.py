"""Separate queues: a slow webhook bot slows no other game (issue 12).

Webhook deliveries, built-in bot turns, and scoring/timers/relay each have a queue of their
own, and ``orrery up`` runs a gevent worker for the webhooks beside the prefork worker for
the rest. Four webhook bots that never answer in time leave a built-in bot's replies in
another game as fast as they were.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import redis

from app import (
    TASK_QUEUES,
    WEBHOOK_CONCURRENCY,
    WEBHOOK_POOL,
    WORKER_CONCURRENCY,
    Settings,
    make_celery,
    queue_names,
    worker_commands,
)
from tests.conftest import NAMESPACE, Worker, wait_for
from tests.support.slow_webhooks import SleepingEndpoint, bot_reply_latencies, service_for, summary, webhook_games
from workers import tasks

SAMPLES = 6
HANGING = 4
FAST_ENOUGH_S = 3.0


def fresh_env(suffix: str) -> dict[str, str]:
    namespace = f"{NAMESPACE}-{suffix}"
    return os.environ | {"ORRERY_NAMESPACE": namespace, "ORRERY_QUEUE": namespace}


def forget(redis_client: redis.Redis, namespace: str) -> None:
    keys = list(redis_client.scan_iter(f"{namespace}:*", count=1000))
    for i in range(0, len(keys), 500):
        redis_client.unlink(*keys[i : i + 500])


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


class TestRouting:
    def test_queue_names_derive_from_the_queue_setting(self) -> None:
        names = queue_names(Settings.from_env({"ORRERY_QUEUE": "q"}))
        assert (names.main, names.bots, names.webhooks) == ("q", "q.bots", "q.webhooks")
        assert names.all == ("q", "q.bots", "q.webhooks")

    def test_each_task_is_routed_to_its_queue(self) -> None:
        settings = Settings.from_env()
        names = queue_names(settings)
        celery = make_celery(settings, current=False)
        expected = {
            "workers.tasks.deliver_turn": names.webhooks,
            "workers.tasks.publish_turn": names.webhooks,
            "workers.tasks.deliver_challenge": names.webhooks,
            "workers.tasks.ladder_round": names.main,
            "workers.tasks.play_bot_turn": names.bots,
            "workers.tasks.score_game": names.main,
            "workers.tasks.sweep_timers": names.main,
            "workers.tasks.relay_outbox": names.main,
        }
        assert set(TASK_QUEUES) == set(expected)
        for task, queue in expected.items():
            assert celery.amqp.router.route({}, task)["queue"].name == queue, task
        for entry in celery.conf.beat_schedule.values():
            assert celery.amqp.router.route({}, entry["task"])["queue"].name == names.main

    def test_delay_and_apply_async_land_on_the_tasks_queues(self) -> None:
        settings = Settings.from_env(fresh_env("routes"))
        names = queue_names(settings)
        celery = make_celery(settings, current=False)
        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        try:
            celery.tasks[tasks.deliver_turn.name].delay("no-game", 0, 1)
            celery.tasks[tasks.deliver_turn.name].apply_async(args=["no-game", 0, 1, 2], countdown=0)
            celery.tasks[tasks.play_bot_turn.name].delay("no-game", 0, 1)
            celery.tasks[tasks.score_game.name].delay("no-game")
            celery.tasks[tasks.relay_outbox.name].apply_async(args=[0])
            prefix = f"{settings.namespace}:celery:"
            lengths = {queue: client.llen(prefix + queue) for queue in names.all}
            assert lengths == {names.webhooks: 2, names.bots: 1, names.main: 2}
        finally:
            forget(client, settings.namespace)

    def test_orrery_up_consumes_every_queue_with_a_gevent_webhook_worker(self) -> None:
        settings = Settings.from_env()
        names = queue_names(settings)
        commands = worker_commands(settings, "42")
        consumed = [q for command in commands.values() for q in option(command, "--queues").split(",")]
        assert sorted(consumed) == sorted(names.all)
        assert option(commands["webhooks"], "--queues") == names.webhooks
        assert option(commands["webhooks"], "--pool") == WEBHOOK_POOL == "gevent"
        assert f"--concurrency={WEBHOOK_CONCURRENCY}" in commands["webhooks"]
        assert option(commands["worker"], "--pool") == "prefork"
        hostnames = [option(command, "--hostname") for command in commands.values()]
        assert len(set(hostnames)) == len(hostnames) and all(h.endswith("-42@%h") for h in hostnames)


def test_hanging_webhooks_leave_builtin_bot_replies_fast(tmp_path: Path) -> None:
    env = fresh_env("queues")
    settings = Settings.from_env(env)
    names = queue_names(settings)
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    service = service_for(settings)
    main = Worker(tmp_path, env)
    hooks = Worker(tmp_path, env)
    endpoint = SleepingEndpoint(sleep_s=25)
    prompt = SleepingEndpoint(sleep_s=0)
    try:
        main.start(queues=[names.main, names.bots], concurrency=WORKER_CONCURRENCY)
        hooks.start(queues=[names.webhooks], pool=WEBHOOK_POOL, concurrency=WEBHOOK_CONCURRENCY, beat=False)
        calm = bot_reply_latencies(service, SAMPLES)
        games = webhook_games(service, endpoint.url, HANGING)
        versions = {game_id: service.head(game_id).version for game_id in games}
        wait_for(lambda: endpoint.holding >= HANGING, timeout=20)
        busy = bot_reply_latencies(service, SAMPLES)
        assert endpoint.holding >= HANGING, "the webhook bots stopped hanging before the replies were timed"
        assert {game_id: service.head(game_id).version for game_id in games} == versions
        answered = webhook_games(service, prompt.url, 1)[0]
        wait_for(lambda: service.head(answered).over, timeout=30)
    finally:
        endpoint.close()
        prompt.close()
        hooks.stop()
        main.stop()
        forget(client, settings.namespace)
    print(f"\nbuilt-in bot replies, quiet: {summary(calm)}")
    print(f"built-in bot replies, {HANGING} webhooks hanging: {summary(busy)}")
    assert max(busy) < FAST_ENOUGH_S, summary(busy)
    main_log, hooks_log = main.log.read_text(), hooks.log.read_text()
    assert re.search(r"deliver_turn\[[^]]+\] received", hooks_log)
    assert re.search(r"play_bot_turn\[[^]]+\] received", main_log)
    assert "deliver_turn[" not in main_log and "play_bot_turn[" not in hooks_log
