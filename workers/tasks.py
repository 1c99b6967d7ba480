"""The tasks. Each is idempotent: running it twice changes nothing more than once.

* The outbox relay turns appended events into follow-up tasks: scoring a
  finished game, and the turn of a bot seat that must act.
* ``play_bot_turn`` lets a built-in bot move, through the same service
  function as the API, with a deterministic idempotency key.
* ``deliver_turn`` POSTs a signed turn request to a webhook bot (see
  :mod:`workers.webhooks`); ``publish_turn`` puts a pull-only bot's turn
  request on its pull stream, with no HTTP request.
* ``sweep_timers`` runs every second from beat: turn deadlines, and a
  watchdog that dispatches again a bot turn whose worker died.

Each task has its queue (``app.TASK_QUEUES``, routed by ``task_routes``):
webhook deliveries, built-in bot turns, and scoring, timers and the relay
never wait behind each other, so a slow webhook bot slows no other game.

Tasks take ids, never objects, and find the game service through :mod:`workers.context`:
the worker builds its own from the settings its Celery app was made with.
"""

from __future__ import annotations

import concurrent.futures
import json
import logging
import os
import socket
import time
from typing import Any

import redis
from celery import shared_task

from domain.table.record import Record
from domain.table.seats import BOT_GRACE_MS, BotSeat, parse_timer, registered, timer_member
from events.keys import BUCKETS, bucket_of
from service.accounts import post_updates
from service.games import ServiceError, StaleVersion
from workers.context import service, settings

log = logging.getLogger(__name__)

RELAY_GROUP = "relay"


def bot_seats_to_act(record: Record) -> list[tuple[int, BotSeat]]:
    seats = []
    for seat in sorted(record.to_act()):
        bot = BotSeat.from_public(record.created.seats[seat]["bot"])
        if bot is not None:
            seats.append((seat, bot))
    return seats


def needs_worker(record: Record) -> bool:
    """Whether the game now waits on a worker: a finished game to score, a bot to move, or a registered
    bot to be told of a challenge, a start or an end."""
    return (
        (record.over and record.scored is None)
        or bool(bot_seats_to_act(record))
        or bool(registered(record.created.seats))
    )


_waker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="orrery-wake")
"""Sends the relay's wake-ups beside the request, in order (a greenlet under gevent)."""


def wake_relay_soon(record: Record) -> None:
    """:func:`wake_relay`, sent beside the caller rather than by it: a move's answer never waits on the broker.

    A wake-up is only a hint (beat relays every bucket each second), so one that a dying process never
    sends delays its game by at most a second.
    """
    if needs_worker(record):
        _waker.submit(wake_relay, record)


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


def dispatch(record: Record) -> None:
    """Queue what a game needs from the workers at its current version, and tell its registered bots
    what changed on their account streams (a webhook bot's new challenge is POSTed to it too)."""
    if registered(record.created.seats):
        for seat in post_updates(service(), record):
            if _registration_webhook(record, seat):
                deliver_challenge.delay(record.game_id, seat)
    if record.over:
        if record.scored is None:
            score_game.delay(record.game_id)
        return
    for seat, bot in bot_seats_to_act(record):
        if bot.bot_id is not None:
            if _registration_webhook(record, seat):
                deliver_turn.delay(record.game_id, seat, record.version)
            else:
                publish_turn.delay(record.game_id, seat, record.version)
        elif bot.webhook is not None:
            deliver_turn.delay(record.game_id, seat, record.version)
        elif bot.stream:
            publish_turn.delay(record.game_id, seat, record.version)
        else:
            play_bot_turn.delay(record.game_id, seat, record.version)


def _registration_webhook(record: Record, seat: int) -> bool:
    """Whether the registered bot in ``seat`` takes its events by webhook."""
    bot_id = registered(record.created.seats).get(seat)
    return bot_id is not None and bool((service().store.bot(bot_id) or {}).get("webhook"))


@shared_task(name="workers.tasks.relay_outbox")
def relay_outbox(bucket: int | None = None) -> int:
    """Turn outbox entries into tasks; returns how many entries were handled.

    One game never holds up its bucket: a game the service refuses (damaged, or played under rules this
    server lacks) is logged and passed over, and one that fails otherwise is left unacknowledged, to be
    claimed again once it has been idle a while, while the bucket's other games go on.
    """
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
        latest: dict[str, int] = {}
        for entry in entries:
            latest[entry.game_id] = max(latest.get(entry.game_id, 0), entry.version)
        retry_later = set()
        for game_id, version in latest.items():
            try:
                record = service().head(game_id)
                if record.version == version:
                    dispatch(record)
            except ServiceError as refused:
                log.warning("game %s: nothing to relay (%s: %s)", game_id, refused.code, refused)
            except Exception:
                log.exception("game %s: relaying failed; its entries are claimed again later", game_id)
                retry_later.add(game_id)
        for entry in entries:
            if entry.game_id not in retry_later:
                store.ack_outbox(entry, RELAY_GROUP)
                handled += 1
    return handled


@shared_task(
    name="workers.tasks.score_game",
    autoretry_for=(StaleVersion,),
    retry_backoff=1,
    retry_backoff_max=30,
    retry_jitter=True,
    max_retries=10,
)
def score_game(game_id: str) -> int:
    """Append ``GameScored`` to a finished game once; returns the game's version.

    Scoring is bounded inside the service; a game that stays contended past that is retried
    by Celery with backoff.
    """
    return int(service().score(game_id).version)


@shared_task(name="workers.tasks.play_bot_turn")
def play_bot_turn(game_id: str, seat: int, version: int) -> int | None:
    """A built-in bot's turn at ``version``; a late or repeated task changes nothing."""
    result = service().bot_move(game_id, seat, version)
    return None if result is None else result.record.version


@shared_task(name="workers.tasks.deliver_turn", bind=True)
def deliver_turn(self: Any, game_id: str, seat: int, version: int, attempt: int = 1) -> str:
    """POST a signed turn request to a webhook bot, retrying with backoff until the deadline."""
    from workers.webhooks import deliver

    outcome = deliver(service(), game_id, seat, version, attempt)
    if outcome.retry_in is not None:
        deliver_turn.apply_async(args=[game_id, seat, version, attempt + 1], countdown=outcome.retry_in)
    return outcome.status


@shared_task(name="workers.tasks.deliver_challenge", bind=True)
def deliver_challenge(self: Any, game_id: str, seat: int, attempt: int = 1) -> str:
    """POST a signed challenge to a registered webhook bot, retrying with backoff until it expires."""
    from workers.webhooks import deliver_challenge as deliver

    outcome = deliver(service(), game_id, seat, attempt)
    if outcome.retry_in is not None:
        deliver_challenge.apply_async(args=[game_id, seat, attempt + 1], countdown=outcome.retry_in)
    return outcome.status


@shared_task(name="workers.tasks.publish_turn")
def publish_turn(game_id: str, seat: int, version: int) -> str:
    """Put a stream bot's turn request on its account's stream; a repeat is dropped (one post per turn id)."""
    from service.accounts import publish
    from service.turns import turn_request

    record = service().head(game_id)
    if record.version != version or seat not in record.to_act():
        return "stale"
    streamed = publish(service(), record, seat, json.dumps(turn_request(service(), record, seat)))
    return "streamed" if streamed else "published"


@shared_task(name="workers.tasks.sweep_timers")
def sweep_timers() -> int:
    """Handle due timers: turn deadlines and bot watchdogs. A repeated sweep changes nothing.

    Each timer is leased, handled, then removed; a worker that dies in between leaves it to
    fire again once its lease runs out. Handlers are idempotent, so a second run is a no-op.
    """
    store = service().store
    lease_ms = settings().timer_lease_ms
    handled = 0
    now = time.time_ns() // 1_000_000
    for bucket in range(BUCKETS):
        for member in store.due_timers(bucket, now):
            lease = store.claim_timer(bucket, member, now, lease_ms)
            if lease is None:
                continue
            kind, game_id, version, seat = parse_timer(member)
            try:
                handle_timer(kind, game_id, version, seat)
            except Exception:
                log.exception("timer %s failed; it fires again when its lease ends", member)
                continue
            store.finish_timer(bucket, member, lease)
            handled += 1
    return handled


def handle_timer(kind: str, game_id: str, version: int, seat: int | None) -> None:
    if kind == "deadline":
        service().time_out(game_id, version)
        return
    if kind == "score":
        service().score(game_id)
        return
    if kind == "challenge":
        service().expire_challenges(game_id)
        return
    if kind != "bot" or seat is None:
        return
    record = service().head(game_id)
    if record.version != version or seat not in record.to_act():
        return
    log.warning("bot turn of seat %s in game %s at version %s is late; dispatching it again", seat, game_id, version)
    play_bot_turn.delay(game_id, seat, version)
    bot = BotSeat.from_public(record.created.seats[seat]["bot"])
    due = time.time_ns() // 1_000_000 + (bot.think_ms if bot else 0) + BOT_GRACE_MS
    service().store.set_timer(bucket_of(game_id), timer_member("bot", game_id, version, seat), due)


@shared_task(name="workers.tasks.ladder_round")
def ladder_round() -> int:
    """One round of the ladder (see :mod:`service.ladder`); beat sends it every ``ORRERY_LADDER_INTERVAL_S``
    when ``ORRERY_LADDER=on``. Returns how many games it started; a repeat pairs nobody twice."""
    from service.ladder import Ladder

    return len(Ladder(service(), think_ms=settings().ladder_think_ms).round())
