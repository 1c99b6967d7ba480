"""One reader per bucket and process: live streams share its reads and projections.

A :class:`Hub` holds one :class:`Feed` per game that at least one live stream of this
process follows. One reader per bucket (a thread, which gevent's monkey-patching turns
into a greenlet) blocks on the streams of all the bucket's followed games at once
(``RedisStore.wait_many``: one XREAD on keys that share the bucket's hash tag, so it
names one slot under a Redis Cluster), folds the events it read onto each game's head
with no further read (``GameService.advanced``), and wakes the game's
subscribers through a ``threading.Condition``. Subscribers share the envelopes it read
and the projections they render: all spectators of a game share one SSE frame per event,
each seat renders its own. A feed leaves the hub once its last subscriber has left (within
one blocking read), and a reader ends with its bucket's last feed.

Envelopes and frames are kept for the newest :data:`WINDOW` versions read; a subscriber
that resumes further back reads its gap from the store, as a stream without a hub would.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
import weakref
from collections.abc import Iterator

from domain.contract import Viewer
from domain.table.record import Record
from events.envelope import Envelope, canonical
from events.keys import bucket_of
from service.games import GameService

READ_BLOCK_MS = 5_000
"""How long a bucket's reader blocks on Redis before it checks which of its games are still followed."""

WINDOW = 512
"""How many of a game's newest versions a feed keeps envelopes and frames for."""


class Feed:
    """One game followed live in this process: its newest head, and the envelopes and frames read so far."""

    def __init__(self, hub: Hub, game_id: str, head: Record) -> None:
        self.hub = hub
        self.game_id = game_id
        self.bucket = bucket_of(game_id)
        self.head = head
        self.error: BaseException | None = None
        self.subscribers = 0
        self.changed = threading.Condition()
        self._envelopes: dict[int, Envelope] = {}
        self._frames: dict[tuple[int, Viewer, bool], str] = {}
        self.reader: threading.Thread = hub.reader_thread(self.bucket)

    def frames(self, head: Record, viewer: Viewer, after: int, upto: int) -> Iterator[tuple[int, str]]:
        """``(version, SSE frame)`` for the events with ``after < version <= upto``, as ``viewer`` may see them."""
        kept = self._envelopes
        if all(v in kept for v in range(after + 1, upto + 1)):
            envelopes = [kept[v] for v in range(after + 1, upto + 1)]
        else:
            envelopes = self.hub.svc.store.read(self.game_id, after=after, upto=upto)
            self._keep(envelopes)
        for envelope in envelopes:
            key = (envelope.version, viewer, head.over)
            frame = self._frames.get(key)
            if frame is None:
                data = canonical(self.hub.svc.project(head, envelope, viewer))
                frame = f"id: {envelope.version}\nevent: {envelope.type}\ndata: {data}\n\n"
                self._frames[key] = frame
            yield envelope.version, frame

    def wait(self, seen: int, timeout: float) -> None:
        """Return once the head is past version ``seen``, or after ``timeout`` seconds; raise the reader's error."""
        with self.changed:
            self.changed.wait_for(lambda: self.head.version != seen or self.error is not None, timeout)
        if self.error is not None:
            raise self.error

    def deliver(self, head: Record, arrived: list[Envelope]) -> None:
        """Keep the events the reader brought and wake the subscribers at the new ``head``."""
        self._keep([e for e in arrived if e.version <= head.version])
        with self.changed:
            self.head = head
            self.changed.notify_all()

    def fail(self, error: BaseException) -> None:
        """End every stream of this feed with ``error`` (their clients resume with Last-Event-ID)."""
        with self.changed:
            self.error = error
            self.changed.notify_all()

    def _keep(self, envelopes: list[Envelope]) -> None:
        for envelope in envelopes:
            self._envelopes[envelope.version] = envelope
        if len(self._envelopes) > WINDOW:
            floor = max(self._envelopes) - WINDOW
            self._envelopes = {v: e for v, e in self._envelopes.items() if v > floor}
            self._frames = {k: f for k, f in self._frames.items() if k[0] > floor}


class Hub:
    """The feeds of one process's live streams, one per followed game, read by one thread per bucket.

    All the games of a bucket share its hash tag, so one blocking read (``RedisStore.wait_many``) names
    every followed game of the bucket and stays on one Redis Cluster slot: a process holds at most one
    blocking Redis connection per bucket, whatever the number of games and streams it follows.
    """

    def __init__(self, svc: GameService, *, block_ms: int = READ_BLOCK_MS) -> None:
        self.svc = svc
        self.block_ms = block_ms
        self.id = uuid.uuid4().hex
        self.feeds: dict[str, Feed] = {}
        self._by_bucket: dict[int, dict[str, Feed]] = {}
        self.readers: dict[int, threading.Thread] = {}
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def follow(self, game_id: str) -> Iterator[Feed]:
        """The game's feed, started for its first subscriber and left to stop after its last."""
        with self._lock:
            feed = self.feeds.get(game_id)
            if feed is not None:
                feed.subscribers += 1
        if feed is None:
            feed = self._start(game_id)
        try:
            yield feed
        finally:
            with self._lock:
                feed.subscribers -= 1

    def reader_thread(self, bucket: int) -> threading.Thread:
        """The thread that reads ``bucket``'s followed games (made, not started, if none is registered).
        Call it holding the hub's lock."""
        found = self.readers.get(bucket)
        if found is None:
            found = threading.Thread(target=self._read, args=(bucket,), name=f"orrery-feeds-{bucket}", daemon=True)
        return found

    def followed(self, bucket: int) -> dict[str, Feed]:
        """The feeds of ``bucket`` that still have a subscriber; the others leave the hub. With none left, the
        bucket's reader is forgotten (and ends)."""
        with self._lock:
            kept = self._by_bucket.get(bucket, {})
            for game_id, feed in list(kept.items()):
                if feed.subscribers <= 0:
                    del kept[game_id], self.feeds[game_id]
            if not kept:
                self._by_bucket.pop(bucket, None)
                self.readers.pop(bucket, None)
            return dict(kept)

    def _start(self, game_id: str) -> Feed:
        head = self.svc.head(game_id)
        started = woken = False
        with self._lock:
            feed = self.feeds.get(game_id)
            if feed is None:
                feed = self.feeds[game_id] = Feed(self, game_id, head)
                self._by_bucket.setdefault(feed.bucket, {})[game_id] = feed
                if self.readers.get(feed.bucket) is not feed.reader:
                    self.readers[feed.bucket] = feed.reader
                    started = True
                else:
                    woken = True
            feed.subscribers += 1
        if started:
            feed.reader.start()
        elif woken:
            self.svc.store.wake(feed.bucket, self.id)
        return feed

    def _read(self, bucket: int) -> None:
        svc, woken = self.svc, "0-0"
        while True:
            feeds = self.followed(bucket)
            if not feeds:
                return
            try:
                found, woken = svc.store.wait_many(
                    bucket,
                    {game_id: feed.head.version for game_id, feed in feeds.items()},
                    reader=self.id,
                    woken=woken,
                    block_ms=self.block_ms,
                )
            except Exception as error:
                for feed in feeds.values():
                    self._drop(feed, error)
                continue
            for game_id, arrived in found.items():
                if not arrived:
                    continue
                feed = feeds[game_id]
                try:
                    feed.deliver(svc.advanced(feed.head, arrived), arrived)
                except Exception as error:
                    self._drop(feed, error)

    def _drop(self, feed: Feed, error: BaseException) -> None:
        """Remove a failed feed, so that the next subscriber starts a fresh one, and end its streams."""
        with self._lock:
            if self.feeds.get(feed.game_id) is feed:
                del self.feeds[feed.game_id], self._by_bucket[feed.bucket][feed.game_id]
        feed.fail(error)


_hubs: weakref.WeakKeyDictionary[GameService, Hub] = weakref.WeakKeyDictionary()
_hubs_lock = threading.Lock()


def hub_for(svc: GameService) -> Hub:
    """The process's hub for ``svc``, made on first use."""
    with _hubs_lock:
        found = _hubs.get(svc)
        if found is None:
            found = _hubs[svc] = Hub(svc)
        return found
