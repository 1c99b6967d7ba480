"""The tasks. Each is idempotent: running it twice changes nothing more than once.

* The outbox relay turns appended events into follow-up tasks: scoring a
  finished game, and the turn of a bot seat that must act. Workers that
  consume the main queue follow the outboxes (:class:`OutboxFollower`) and
  relay each entry as it lands; beat's ``relay_outbox`` takes back what a
  dead worker left.
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

import json
import logging
import os
import socket
import threading
import time
from collections.abc import Sequence
from typing import Any

from celery import bootsteps, shared_task

from domain.table.record import Record
from domain.table.seats import BOT_GRACE_MS, BotSeat, parse_timer, registered, timer_member
from events.keys import BUCKETS, bucket_of
from events.store import OutboxEntry, UnknownOutboxGroup
from service.accounts import post_updates
from service.games import ServiceError, StaleVersion
from workers.context import service, settings

log = logging.getLogger(__name__)

RELAY_GROUP = "relay"

FOLLOW_BLOCK_MS = 2_000
"""How long one read of an :class:`OutboxFollower` waits on its bucket's outbox before it checks for a stop."""


def bot_seats_to_act(record: Record) -> list[tuple[int, BotSeat]]:
    seats = []
    for seat in sorted(record.to_act()):
        bot = BotSeat.from_public(record.created.seats[seat]["bot"])
        if bot is not None:
            seats.append((seat, bot))
    return seats


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
    """Turn outbox entries into tasks, taking back those another consumer left unacknowledged a while; returns
    how many entries were handled. Beat sends it every second, behind the workers' :class:`OutboxFollower`."""
    store = service().store
    handled = 0
    for b in range(BUCKETS) if bucket is None else [bucket]:
        try:
            entries = store.claim_outbox(b, RELAY_GROUP, relay_consumer())
        except UnknownOutboxGroup:
            store.ensure_outbox_groups(RELAY_GROUP)
            entries = store.claim_outbox(b, RELAY_GROUP, relay_consumer())
        handled += relay(entries)
    return handled


def relay_consumer() -> str:
    """This process's name in the relay's consumer group."""
    return f"{socket.gethostname()}-{os.getpid()}"


def relay(entries: Sequence[OutboxEntry]) -> int:
    """Dispatch what each game of ``entries`` needs at its newest version, and acknowledge the entries; returns
    how many were acknowledged.

    One game never holds up the others: a game the service refuses (damaged, or played under rules this
    server lacks) is logged and passed over, and one that fails otherwise is left unacknowledged, to be
    claimed again once it has been idle a while, while the other games go on.
    """
    store = service().store
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
    handled = 0
    for entry in entries:
        if entry.game_id not in retry_later:
            store.ack_outbox(entry, RELAY_GROUP)
            handled += 1
    return handled


class OutboxFollower(bootsteps.StartStopStep):
    """The outbox relay as it happens: in a worker that consumes the main queue, one thread per bucket waits on
    the bucket's outbox (a blocking read of the relay's consumer group) and relays each entry as it comes.

    An append therefore needs nothing from the API beyond the append itself, and a bot's turn or a finished
    game is dispatched within milliseconds. Beat's :func:`relay_outbox` still runs every second: it takes back
    entries a follower read but did not acknowledge (a worker that died), and relays for deployments whose
    workers do not follow.
    """

    requires = ("celery.worker.components:Pool",)
    block_ms = FOLLOW_BLOCK_MS

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.stopping = threading.Event()
        self.threads: list[threading.Thread] = []

    def start(self, parent: Any) -> None:
        """Start following, unless this worker does not consume the main queue (a webhook worker)."""
        main = parent.app.conf.task_default_queue
        if main not in parent.app.amqp.queues.consume_from:
            return
        self.stopping.clear()
        self.threads = [
            threading.Thread(target=follow_outbox, args=(b, self.stopping, self.block_ms), daemon=True)
            for b in range(BUCKETS)
        ]
        for thread in self.threads:
            thread.start()

    def stop(self, parent: Any) -> None:
        """Stop following: each thread ends after its current read."""
        self.stopping.set()
        for thread in self.threads:
            thread.join(self.block_ms / 1000 + 1)


def follow_outbox(bucket: int, stopping: threading.Event, block_ms: int = FOLLOW_BLOCK_MS) -> None:
    """Relay ``bucket``'s outbox entries as they are appended, until ``stopping`` is set.

    A failed read (Redis away, a slot moving) is logged and tried again after a second; the entries it would
    have read wait in the outbox for the next read or for beat's relay.
    """
    while not stopping.is_set():
        try:
            store = service().store
            try:
                entries = store.follow_outbox(bucket, RELAY_GROUP, relay_consumer(), block_ms=block_ms)
            except UnknownOutboxGroup:
                store.ensure_outbox_groups(RELAY_GROUP)
                continue
            if entries:
                relay(entries)
        except Exception:
            log.warning("following outbox %d failed; trying again in a second", bucket, exc_info=True)
            stopping.wait(1)


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
