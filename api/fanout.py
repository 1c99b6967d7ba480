"""One reader per followed game and process: live streams share its reads and projections.

A :class:`Hub` holds one :class:`Feed` per game that at least one live stream of this
process follows. A feed's reader (a thread, which gevent's monkey-patching turns into a
greenlet) blocks on the game's Redis stream (``EventStore.wait``: one XREAD on one key,
so it names one slot under a Redis Cluster), folds the new head once, and wakes its
subscribers through a ``threading.Condition``. Subscribers share the envelopes it read
and the projections they render: all spectators of a game share one SSE frame per event,
each seat renders its own. A feed stops once its last subscriber has left (within one
blocking read).

Envelopes and frames are kept for the newest :data:`WINDOW` versions read; a subscriber
that resumes further back reads its gap from the store, as a stream without a hub would.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Iterator

from domain.contract import Viewer
from events.envelope import Envelope, canonical
from events.record import Record
from events.service import GameService

READ_BLOCK_MS = 5_000
"""How long a feed's reader blocks on Redis before it checks whether anyone still follows the game."""

WINDOW = 512
"""How many of a game's newest versions a feed keeps envelopes and frames for."""


class Feed:
    """One game followed live in this process: its newest head, and the envelopes and frames read so far."""

    def __init__(self, hub: Hub, game_id: str, head: Record) -> None:
        self.hub = hub
        self.game_id = game_id
        self.head = head
        self.error: BaseException | None = None
        self.subscribers = 0
        self.changed = threading.Condition()
        self._envelopes: dict[int, Envelope] = {}
        self._frames: dict[tuple[int, Viewer, bool], str] = {}
        self._limits: dict[tuple[int, Viewer], int] = {}
        self.reader = threading.Thread(target=self._read, name=f"orrery-feed-{game_id}", daemon=True)

    def limit(self, head: Record, viewer: Viewer) -> int:
        """The newest version ``viewer`` may see at ``head`` (``GameService.visible``, computed once per head)."""
        key = (head.version, viewer)
        found = self._limits.get(key)
        if found is None:
            found = min(head.version, self.hub.svc.visible(self.game_id, viewer).version)
            self._limits = {k: v for k, v in self._limits.items() if k[0] == head.version} | {key: found}
        return found

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

    def _keep(self, envelopes: list[Envelope]) -> None:
        for envelope in envelopes:
            self._envelopes[envelope.version] = envelope
        if len(self._envelopes) > WINDOW:
            floor = max(self._envelopes) - WINDOW
            self._envelopes = {v: e for v, e in self._envelopes.items() if v > floor}
            self._frames = {k: f for k, f in self._frames.items() if k[0] > floor}

    def _read(self) -> None:
        svc, head = self.hub.svc, self.head
        try:
            while self.hub.still_followed(self):
                arrived = svc.store.wait(self.game_id, after=head.version, block_ms=self.hub.block_ms)
                if not arrived:
                    continue
                head = svc.head(self.game_id)
                self._keep([e for e in arrived if e.version <= head.version])
                with self.changed:
                    self.head = head
                    self.changed.notify_all()
        except Exception as error:
            self.hub.drop(self)
            with self.changed:
                self.error = error
                self.changed.notify_all()


class Hub:
    """The feeds of one process's live streams, one per followed game."""

    def __init__(self, svc: GameService, *, block_ms: int = READ_BLOCK_MS) -> None:
        self.svc = svc
        self.block_ms = block_ms
        self.feeds: dict[str, Feed] = {}
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

    def still_followed(self, feed: Feed) -> bool:
        """Whether ``feed`` has a subscriber; if not, it leaves the hub and its reader ends."""
        with self._lock:
            if feed.subscribers > 0:
                return True
            if self.feeds.get(feed.game_id) is feed:
                del self.feeds[feed.game_id]
            return False

    def drop(self, feed: Feed) -> None:
        """Remove a failed feed, so that the next subscriber starts a fresh one."""
        with self._lock:
            if self.feeds.get(feed.game_id) is feed:
                del self.feeds[feed.game_id]

    def _start(self, game_id: str) -> Feed:
        head = self.svc.head(game_id)
        with self._lock:
            feed = self.feeds.get(game_id)
            if feed is None:
                feed = self.feeds[game_id] = Feed(self, game_id, head)
                feed.subscribers += 1
                feed.reader.start()
            else:
                feed.subscribers += 1
        return feed


_hubs: weakref.WeakKeyDictionary[GameService, Hub] = weakref.WeakKeyDictionary()
_hubs_lock = threading.Lock()


def hub_for(svc: GameService) -> Hub:
    """The process's hub for ``svc``, made on first use."""
    with _hubs_lock:
        found = _hubs.get(svc)
        if found is None:
            found = _hubs[svc] = Hub(svc)
        return found
