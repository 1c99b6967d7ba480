"""The tasks. Each is idempotent: running it twice changes nothing more than once.

The outbox relay turns appended events into follow-up tasks: when a game ends,
``score_game`` appends ``GameScored`` through the service, exactly once.
"""

from __future__ import annotations

import functools
import logging
import os
import socket
from typing import Any

import redis
from celery import current_app, shared_task

from events.keys import BUCKETS, bucket_of
from events.service import Record

log = logging.getLogger(__name__)

RELAY_GROUP = "relay"


@functools.cache
def service() -> Any:
    """This worker process's game service."""
    from app import build_service

    return build_service(current_app.conf["orrery_settings"])


def needs_worker(record: Record) -> bool:
    """Whether the game now waits on a worker: a finished game still to be scored."""
    return record.over and record.scored is None


def wake_relay(record: Record) -> None:
    """After an append that a worker must act on, relay the game's bucket now rather than at the next beat.

    Appends that need no worker are relayed by the beat's sweep, which only acknowledges them.
    """
    if not needs_worker(record):
        return
    try:
        relay_outbox.apply_async(args=[bucket_of(record.game_id)])
    except Exception:  # the beat relays every second anyway
        log.warning("could not wake the outbox relay for game %s", record.game_id, exc_info=True)


@shared_task(name="workers.tasks.relay_outbox")
def relay_outbox(bucket: int | None = None) -> int:
    """Turn outbox entries into tasks; returns how many entries were handled."""
    store = service().store
    consumer = f"{socket.gethostname()}-{os.getpid()}"
    handled = 0
    for b in range(BUCKETS) if bucket is None else [bucket]:
        try:
            entries = store.claim_outbox(b, RELAY_GROUP, consumer)
        except redis.ResponseError as error:
            if "NOGROUP" not in str(error):
                raise
            store.ensure_outbox_groups(RELAY_GROUP)
            entries = store.claim_outbox(b, RELAY_GROUP, consumer)
        for entry in entries:
            if entry.finished:
                score_game.delay(entry.game_id)
            store.ack_outbox(entry, RELAY_GROUP)
            handled += 1
    return handled


@shared_task(name="workers.tasks.score_game")
def score_game(game_id: str) -> int:
    """Append ``GameScored`` to a finished game once; returns the game's version."""
    return int(service().score(game_id).version)
