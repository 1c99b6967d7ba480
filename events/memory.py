"""The event store in this process's memory, for tests of the service.

:class:`MemoryStore` keeps what :class:`events.store.RedisStore` keeps in Redis, with the same
semantics (the append's version and idempotency checks, the outbox's consumer groups, leased
timers, snapshots by version, account streams, ratings applied once) and passes the same contract
suite. One lock makes every operation atomic, as a Redis script is. It is not a test of the
store: tests that claim Redis use the real one.
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from domain.table.record import ACTIVE, CANCELLED, FINISHED
from events.envelope import Envelope, canonical
from events.keys import BUCKETS, Keyspace, bucket_of
from events.store import (
    Appended,
    EventStore,
    GameExists,
    Glance,
    IdempotencyConflict,
    Meta,
    OutboxEntry,
    RateCount,
    RateRefused,
    RateWindow,
    SeatGuard,
    SlotScope,
    Snapshot,
    UnknownGame,
    UnknownOutboxGroup,
    VersionConflict,
    unseal,
)

WAKE_KEEP = 8
"""How many entries a wake stream keeps."""
WAKE_TTL_MS = 60_000
"""How long a wake stream lives after its last entry."""
READ_BATCH = 500
"""The most entries one blocking read of game streams returns, as the Redis store reads."""

_PRIOR = re.compile(r"^([0-9a-fA-F]+)\|(\d+)\|(\d+)$")
T = TypeVar("T")


def _wall_ms() -> int:
    return time.time_ns() // 1_000_000


def _id_key(entry_id: str) -> tuple[int, int]:
    """A stream entry id (``<ms>-<seq>``, or ``<ms>``) as a sortable pair."""
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def _index_range(items: Sequence[T], start: int, stop: int) -> list[T]:
    """``items[start..stop]`` with both ends included and negative ends counted from the end, as Redis ranges go."""
    n = len(items)
    start, stop = (start + n if start < 0 else start), (stop + n if stop < 0 else stop)
    return list(items[max(start, 0) : stop + 1]) if start <= stop else []


class _Stream:
    """An append-only log with Redis-style ids (``<ms>-<seq>``, always increasing)."""

    def __init__(self) -> None:
        self.entries: list[tuple[tuple[int, int], Any]] = []
        self.last = (0, 0)

    def add(self, value: Any, keep: int | None = None) -> str:
        ms = _wall_ms()
        self.last = (ms, 0) if ms > self.last[0] else (self.last[0], self.last[1] + 1)
        self.entries.append((self.last, value))
        if keep is not None and len(self.entries) > keep:
            del self.entries[: len(self.entries) - keep]
        return f"{self.last[0]}-{self.last[1]}"

    def after(self, entry_id: str, count: int | None = None) -> list[tuple[str, Any]]:
        key = _id_key(entry_id)
        found = [(f"{i[0]}-{i[1]}", value) for i, value in self.entries if i > key]
        return found if count is None else found[:count]


@dataclasses.dataclass
class _Group:
    """A consumer group on one outbox: what it delivered last, and what its consumers hold unacknowledged."""

    delivered: tuple[int, int] = (0, 0)
    pending: dict[tuple[int, int], tuple[str, float]] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class _Game:
    """Everything kept of one game."""

    meta: dict[str, str] = dataclasses.field(default_factory=dict)
    events: list[str] = dataclasses.field(default_factory=list)
    tokens: dict[str, str] = dataclasses.field(default_factory=dict)
    seed: str | None = None
    secrets: dict[str, str] = dataclasses.field(default_factory=dict)
    idempotency: dict[str, str] = dataclasses.field(default_factory=dict)
    listing: dict[str, str] = dataclasses.field(default_factory=dict)
    snapshot: Snapshot | None = None
    snapshots: dict[int, Snapshot] = dataclasses.field(default_factory=dict)
    verdicts: dict[str, str] = dataclasses.field(default_factory=dict)
    deliveries: list[str] = dataclasses.field(default_factory=list)


class MemoryStore(EventStore):
    """The store's interface over plain dictionaries, behind one lock; blocking reads wait on a condition."""

    def __init__(self, keyspace: Keyspace | None = None) -> None:
        self.keys = keyspace or Keyspace()
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self.clear()

    def clear(self) -> None:
        with self._lock:
            self._games: dict[str, _Game] = {}
            self._outboxes = [_Stream() for _ in range(BUCKETS)]
            self._groups: list[dict[str, _Group]] = [{} for _ in range(BUCKETS)]
            self._timers: list[dict[str, int]] = [{} for _ in range(BUCKETS)]
            self._wakes: dict[tuple[int, str], tuple[_Stream, int]] = {}
            self._bots: dict[str, dict[str, str]] = {}
            self._bot_keys: dict[str, str] = {}
            self._ladder: set[str] = set()
            self._bot_games: dict[str, set[str]] = {}
            self._bot_tokens: dict[str, str] = {}
            self._ratings: dict[str, dict[str, str]] = {}
            self._ratings_applied: dict[str, dict[str, str]] = {}
            self._rating_board: dict[str, dict[str, float]] = {}
            self._rating_history: dict[tuple[str, str], list[str]] = {}
            self._ladder_pairs: dict[str, dict[str, str]] = {}
            self._inboxes: dict[str, _Stream] = {}
            self._inbox_seen: dict[tuple[str, str], float] = {}
            self._inbox_readers: dict[str, tuple[str, float]] = {}
            self._webhooks: dict[str, str] = {}
            self._stream_slots: dict[tuple[str, str], dict[str, int]] = {}
            self._rate_windows: dict[tuple[str, str], list[int]] = {}
            self._changed.notify_all()

    # --- writing ---------------------------------------------------------

    def create(
        self,
        game_id: str,
        game: str,
        rules_version: str,
        envelopes: Sequence[Envelope],
        *,
        seed: bytes,
        tokens: dict[str, str],
        created_ms: int,
        salt: bytes = b"",
        timers: Sequence[tuple[str, int]] = (),
        secrets: dict[str, str] | None = None,
        forked_from: str = "",
        outbox_event: str = "created",
        listed: Mapping[str, str] | None = None,
        listed_by_version: Mapping[int, str] | None = None,
        cancelled: bool = False,
    ) -> Appended:
        with self._lock:
            g = self._game(game_id)
            if g.meta:
                raise GameExists(game_id)
            n = len(envelopes)
            g.events[:] = [e.to_json() for e in envelopes]
            g.meta.update(
                game=game,
                version=str(n),
                hash=envelopes[-1].hash,
                status=CANCELLED if cancelled else ACTIVE,
                created_ms=str(created_ms),
                updated_ms=str(created_ms),
                rules_version=rules_version,
            )
            g.seed = f"{salt.hex()}:{seed.hex()}" if salt else seed.hex()
            g.tokens.update(tokens)
            self._set_timers(game_id, timers)
            g.secrets.update(secrets or {})
            if forked_from:
                g.meta["forked_from"] = forked_from
            g.meta.update(listed or {})
            g.listing.update({str(v): entry for v, entry in (listed_by_version or {}).items()})
            self._post_outbox(game_id, n, CANCELLED if cancelled else "0", outbox_event)
            self._changed.notify_all()
            return Appended(1, n)

    def append(
        self,
        game_id: str,
        expected_version: int,
        previous_hash: str,
        envelopes: Sequence[Envelope],
        *,
        game: str,
        idempotency_key: str | None = None,
        fingerprint: str = "",
        finished: bool = False,
        cancelled: bool = False,
        now_ms: int = 0,
        timers: Sequence[tuple[str, int]] = (),
        outbox_event: str = "appended",
        listed: Mapping[str, str] | None = None,
        listed_by_version: Mapping[int, str] | None = None,
        guard: SeatGuard | None = None,
    ) -> Appended:
        with self._lock:
            g = self._games.get(game_id)
            if g is None or not g.meta:
                raise UnknownGame(game_id)
            current = int(g.meta["version"])
            rate: tuple[RateCount, ...] = ()
            if guard is not None:
                if current != expected_version or g.meta["hash"] != previous_hash:
                    raise VersionConflict(current)
                if g.tokens.get(guard.token_hash) != guard.role:
                    raise VersionConflict(current)
                rate = tuple(self.take_rate(guard.windows, now_ms=now_ms, member=guard.member))
                if not all(count.allowed for count in rate):
                    raise RateRefused(rate)
            if idempotency_key:
                prior = g.idempotency.get(idempotency_key)
                if prior is not None:
                    match = _PRIOR.match(prior)
                    if match and match[1] == fingerprint:
                        return Appended(int(match[2]), int(match[3]), duplicate=True, rate=rate)
                    raise IdempotencyConflict(current)
            if current != expected_version or g.meta["hash"] != previous_hash:
                raise VersionConflict(current)
            g.events += [e.to_json() for e in envelopes]
            last = current + len(envelopes)
            g.meta.update(version=str(last), updated_ms=str(now_ms))
            g.meta["hash"] = envelopes[-1].hash if envelopes else previous_hash
            if idempotency_key:
                g.idempotency[idempotency_key] = f"{fingerprint}|{current + 1}|{last}"
            if cancelled or finished:
                g.meta["status"] = CANCELLED if cancelled else FINISHED
            self._set_timers(game_id, timers)
            g.meta.update(listed or {})
            g.listing.update({str(v): entry for v, entry in (listed_by_version or {}).items()})
            self._post_outbox(game_id, last, CANCELLED if cancelled else "1" if finished else "0", outbox_event)
            self._changed.notify_all()
            return Appended(current + 1, last, rate=rate)

    @property
    def appends_as_seat(self) -> bool:
        return True

    def save_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        with self._lock:
            g = self._game(game_id)
            older = g.snapshot
            if older is not None and older.version != snapshot.version:
                g.snapshots[older.version] = older
            g.snapshot = snapshot

    def drop_snapshot(self, game_id: str, state: bytes, version: int | None = None) -> bool:
        with self._lock:
            g = self._game(game_id)
            if g.snapshot is not None and g.snapshot.state == state:
                g.snapshot = None
                return True
            for held in sorted(g.snapshots) if version is None else [version]:
                if held in g.snapshots and g.snapshots[held].state == state:
                    del g.snapshots[held]
                    return True
            return False

    # --- reading -----------------------------------------------------------

    def meta(self, game_id: str) -> Meta:
        with self._lock:
            g = self._games.get(game_id)
            if g is None or not g.meta:
                raise UnknownGame(game_id)
            return Meta.from_fields(game_id, g.meta)

    def glance(
        self,
        game_id: str,
        *,
        after: int | None = None,
        token_hash: str | None = None,
        idempotency_key: str | None = None,
        with_seed: bool = False,
    ) -> Glance:
        with self._lock:
            meta = self.meta(game_id)
            g = self._games[game_id]
            role = g.tokens.get(token_hash) if token_hash else None
            prior = g.idempotency.get(idempotency_key) if idempotency_key else None
            events = [] if after is None else self.read(game_id, after=after)
            return Glance(meta, role, prior, events, unseal(g.seed) if with_seed and g.seed is not None else None)

    def prior_result(self, game_id: str, idempotency_key: str) -> str | None:
        with self._lock:
            g = self._games.get(game_id)
            return None if g is None else g.idempotency.get(idempotency_key)

    def snapshot_at(self, game_id: str, upto: int) -> tuple[Snapshot | None, list[Envelope]]:
        with self._lock:
            g = self._game(game_id)
            kept = [v for v in g.snapshots if v <= upto]
            found = g.snapshots[max(kept)] if kept else None
            newest = g.snapshot
            if newest is not None and newest.version <= upto and (found is None or newest.version >= found.version):
                found = newest
            start = max((found.version if found else 0) - 1, 0)
            return found, self.read(game_id, after=start, upto=upto)

    def read(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Envelope]:
        with self._lock:
            g = self._games.get(game_id)
            if g is None or (upto is not None and upto <= after):
                return []
            chosen = g.events[max(after, 0) : upto]
            return [Envelope.from_json(text) for text in chosen[:limit]]

    def tail(self, game_id: str) -> Envelope | None:
        with self._lock:
            g = self._games.get(game_id)
            return Envelope.from_json(g.events[-1]) if g is not None and g.events else None

    def wait(self, game_id: str, *, after: int, block_ms: int) -> list[Envelope]:
        return self._wait(block_ms, lambda: self.read(game_id, after=after, limit=READ_BATCH))

    def wait_many(
        self, bucket: int, after: Mapping[str, int], *, reader: str, woken: str, block_ms: int
    ) -> tuple[dict[str, list[Envelope]], str]:
        def ready() -> tuple[dict[str, list[Envelope]], str] | None:
            found = {g: e for g, v in after.items() if (e := self.read(g, after=v, limit=READ_BATCH))}
            wakes = self._wake_stream(bucket, reader).after(woken)
            return (found, wakes[-1][0] if wakes else woken) if found or wakes else None

        return self._wait(block_ms, ready) or ({}, woken)

    def wake(self, bucket: int, reader: str) -> None:
        with self._lock:
            stream = self._wake_stream(bucket, reader)
            stream.add("1", keep=WAKE_KEEP)
            self._wakes[(bucket, reader)] = (stream, _wall_ms() + WAKE_TTL_MS)
            self._changed.notify_all()

    def snapshot(self, game_id: str) -> Snapshot | None:
        with self._lock:
            g = self._games.get(game_id)
            return None if g is None else g.snapshot

    def role_of(self, game_id: str, token_hash: str) -> str | None:
        with self._lock:
            g = self._games.get(game_id)
            return None if g is None else g.tokens.get(token_hash)

    def sealed_seed(self, game_id: str) -> tuple[bytes, bytes]:
        with self._lock:
            g = self._games.get(game_id)
            if g is None or g.seed is None:
                raise UnknownGame(game_id)
            return unseal(g.seed)

    def cached_verdict(self, game_id: str, version: int) -> dict[str, Any] | None:
        with self._lock:
            raw = self._game(game_id).verdicts.get(str(version))
            return None if raw is None else dict(json.loads(raw))

    def cache_verdict(self, game_id: str, version: int, verdict: dict[str, Any]) -> None:
        with self._lock:
            self._game(game_id).verdicts[str(version)] = canonical(verdict)

    def listings(self, game_ids: Sequence[str]) -> list[dict[str, str] | None]:
        with self._lock:
            metas = [self._games[g].meta if g in self._games else {} for g in game_ids]
            return [dict(meta) if meta else None for meta in metas]

    def held_listings(self, wanted: Sequence[tuple[str, int]]) -> list[str | None]:
        with self._lock:
            return [self._game(g).listing.get(str(v)) for g, v in wanted]

    def list_games(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        limit: int = 20,
        before: tuple[int, str] | None = None,
    ) -> list[tuple[int, str]]:
        with self._lock:
            found = [
                (int(g.meta["created_ms"]), game_id)
                for game_id, g in self._games.items()
                if g.meta
                and (game is None or g.meta["game"] == game)
                and (status is None or g.meta["status"] == status)
            ]
        return sorted((pair for pair in found if before is None or pair < before), reverse=True)[:limit]

    # --- outbox --------------------------------------------------------------

    def ensure_outbox_groups(self, group: str) -> None:
        with self._lock:
            for groups in self._groups:
                groups.setdefault(group, _Group())

    def claim_outbox(
        self, bucket: int, group: str, consumer: str, *, count: int = 100, min_idle_ms: int = 30_000
    ) -> list[OutboxEntry]:
        with self._lock:
            state = self._groups[bucket].get(group)
            if state is None:
                raise UnknownOutboxGroup(f"NOGROUP no consumer group {group!r} on outbox {bucket}")
            outbox = self._outboxes[bucket]
            held = dict(outbox.entries)
            now = time.monotonic() * 1000
            stale: list[tuple[int, int]] = []
            for entry_id in sorted(state.pending):
                if entry_id not in held:
                    del state.pending[entry_id]
                elif len(stale) < count and now - state.pending[entry_id][1] >= min_idle_ms:
                    state.pending[entry_id] = (consumer, now)
                    stale.append(entry_id)
            fresh = self._deliver(state, outbox, consumer, count, now)
            return [_outbox_entry(bucket, entry_id, held[entry_id]) for entry_id in stale + fresh]

    def follow_outbox(
        self, bucket: int, group: str, consumer: str, *, block_ms: int, count: int = 100
    ) -> list[OutboxEntry]:
        def fresh() -> list[OutboxEntry]:
            state = self._groups[bucket].get(group)
            if state is None:
                raise UnknownOutboxGroup(f"NOGROUP no consumer group {group!r} on outbox {bucket}")
            outbox = self._outboxes[bucket]
            held = dict(outbox.entries)
            delivered = self._deliver(state, outbox, consumer, count, time.monotonic() * 1000)
            return [_outbox_entry(bucket, entry_id, held[entry_id]) for entry_id in delivered]

        return self._wait(block_ms, fresh)

    @staticmethod
    def _deliver(state: _Group, outbox: _Stream, consumer: str, count: int, now: float) -> list[tuple[int, int]]:
        """The ids of up to ``count`` entries the group has not delivered yet, now pending for ``consumer``."""
        fresh = [i for i, _ in outbox.entries if i > state.delivered][:count]
        for entry_id in fresh:
            state.pending[entry_id] = (consumer, now)
            state.delivered = entry_id
        return fresh

    def ack_outbox(self, entry: OutboxEntry, group: str) -> None:
        with self._lock:
            key = _id_key(entry.entry_id)
            state = self._groups[entry.bucket].get(group)
            if state is not None:
                state.pending.pop(key, None)
            outbox = self._outboxes[entry.bucket]
            outbox.entries = [(i, fields) for i, fields in outbox.entries if i != key]

    # --- timers ----------------------------------------------------------------

    def due_timers(self, bucket: int, now_ms: int, limit: int = 100) -> list[str]:
        with self._lock:
            due = sorted((at, member) for member, at in self._timers[bucket].items() if at <= now_ms)
            return [member for _, member in due[:limit]]

    def claim_timer(self, bucket: int, member: str, now_ms: int, lease_ms: int) -> int | None:
        with self._lock:
            due = self._timers[bucket].get(member)
            if due is None or due > now_ms:
                return None
            self._timers[bucket][member] = now_ms + lease_ms
            return now_ms + lease_ms

    def finish_timer(self, bucket: int, member: str, lease: int) -> bool:
        with self._lock:
            if self._timers[bucket].get(member) != lease:
                return False
            del self._timers[bucket][member]
            return True

    def set_timer(self, bucket: int, member: str, due_ms: int) -> None:
        with self._lock:
            self._timers[bucket][member] = due_ms

    def timers(self, bucket: int) -> dict[str, int]:
        with self._lock:
            return dict(self._timers[bucket])

    # --- bot seats and registered bots -------------------------------------------

    def secret(self, game_id: str, field: str) -> str | None:
        with self._lock:
            return self._game(game_id).secrets.get(field)

    def register_bot(self, bot_id: str, key_hash: str, fields: Mapping[str, str]) -> bool:
        with self._lock:
            if self._bots.get(bot_id) or key_hash in self._bot_keys:
                return False
            self._bots[bot_id] = {**fields, "api_key_hash": key_hash}
            self._bot_keys[key_hash] = bot_id
            if self._bots[bot_id].get("ladder") == "1":
                self._ladder.add(bot_id)
            return True

    def bot(self, bot_id: str) -> dict[str, str] | None:
        with self._lock:
            fields = self._bots.get(bot_id)
            return dict(fields) if fields else None

    def bot_of_key(self, key_hash: str) -> str | None:
        with self._lock:
            return self._bot_keys.get(key_hash)

    def rotate_bot_key(self, bot_id: str, old_hash: str, new_hash: str) -> bool:
        with self._lock:
            if self._bot_keys.get(old_hash) != bot_id:
                return False
            del self._bot_keys[old_hash]
            self._bot_keys[new_hash] = bot_id
            self._bots.setdefault(bot_id, {})["api_key_hash"] = new_hash
            return True

    def put_reference_bot(self, bot_id: str, fields: Mapping[str, str]) -> None:
        with self._lock:
            self._bots.setdefault(bot_id, {}).update(fields)
            self._ladder.add(bot_id)

    def ladder_bots(self) -> list[str]:
        with self._lock:
            return sorted(self._ladder)

    def claim_bot_game(self, bot_id: str, game_id: str, limit: int | None = None) -> bool:
        with self._lock:
            games = self._bot_games.setdefault(bot_id, set())
            if limit is not None and game_id not in games and len(games) >= limit:
                return False
            games.add(game_id)
            return True

    def release_bot_game(self, bot_id: str, game_id: str) -> None:
        with self._lock:
            self._bot_games.get(bot_id, set()).discard(game_id)

    def bot_games(self, bot_id: str) -> list[str]:
        with self._lock:
            return sorted(self._bot_games.get(bot_id, ()))

    def set_bot_field(self, bot_id: str, field: str, value: str) -> None:
        with self._lock:
            self._bots.setdefault(bot_id, {})[field] = value

    def set_bot_tokens(self, tokens: Mapping[str, str]) -> None:
        with self._lock:
            self._bot_tokens.update(tokens)

    def bot_token(self, token_hash: str) -> str | None:
        with self._lock:
            return self._bot_tokens.get(token_hash)

    # --- ratings and the ladder ------------------------------------------------------

    def rating_records(self, game: str, players: Sequence[str]) -> list[str | None]:
        with self._lock:
            records = self._ratings.get(game, {})
            return [records.get(player) for player in players]

    def apply_ratings(
        self, game: str, game_id: str, payload: str, writes: Sequence[tuple[str, str, str, int, str]], *, keep: int
    ) -> tuple[str, str]:
        with self._lock:
            applied = self._ratings_applied.setdefault(game, {})
            if game_id in applied:
                return "applied", applied[game_id]
            records = self._ratings.setdefault(game, {})
            if any(records.get(player, "") != as_read for player, as_read, *_ in writes):
                return "conflict", ""
            board = self._rating_board.setdefault(game, {})
            for player, _, record, ordinal, change in writes:
                records[player] = record
                board[player] = float(ordinal)
                history = self._rating_history.setdefault((game, player), [])
                history.insert(0, change)
                history[:] = _index_range(history, 0, keep - 1)
            applied[game_id] = payload
            return "ok", payload

    def rating_board(self, game: str, offset: int, limit: int) -> tuple[int, list[str]]:
        with self._lock:
            board = self._rating_board.get(game, {})
            ranked = [player for _, player in sorted(((s, p) for p, s in board.items()), reverse=True)]
            return len(ranked), _index_range(ranked, offset, offset + limit - 1)

    def rating_history(self, game: str, player: str, limit: int) -> list[str]:
        with self._lock:
            return _index_range(self._rating_history.get((game, player), []), 0, limit - 1)

    def ladder_pairs(self, game: str) -> dict[str, str]:
        with self._lock:
            return dict(self._ladder_pairs.get(game, {}))

    def swap_ladder_pair(self, game: str, pair: str, expected: str, value: str) -> bool:
        with self._lock:
            pairs = self._ladder_pairs.setdefault(game, {})
            if pairs.get(pair, "") != expected:
                return False
            if value:
                pairs[pair] = value
            else:
                pairs.pop(pair, None)
            return True

    # --- account streams -----------------------------------------------------------

    def post_inbox(self, owner: str, key: str, body: str, *, keep: int = 1000, remember_s: int = 7 * 86400) -> bool:
        with self._lock:
            now = time.time()
            if self._inbox_seen.get((owner, key), 0.0) > now:
                return False
            self._inbox_seen[(owner, key)] = now + remember_s
            self._inboxes.setdefault(owner, _Stream()).add(body, keep=keep)
            self._changed.notify_all()
            return True

    def inbox_events(
        self, owner: str, *, after: str = "0-0", block_ms: int | None = None, count: int = 100
    ) -> list[tuple[str, str]]:
        def ready() -> list[tuple[str, str]]:
            stream = self._inboxes.get(owner)
            return [] if stream is None else stream.after(after, count)

        if block_ms is None:
            with self._lock:
                return ready()
        return self._wait(block_ms, ready) or []

    def inbox_bounds(self, owner: str) -> tuple[str | None, str | None]:
        with self._lock:
            entries = self._inboxes[owner].after("0-0") if owner in self._inboxes else []
            return (entries[0][0], entries[-1][0]) if entries else (None, None)

    def claim_inbox_reader(self, owner: str, reader: str, ttl_s: int) -> None:
        with self._lock:
            self._inbox_readers[owner] = (reader, time.time() + ttl_s)

    def inbox_reader(self, owner: str, reader: str, ttl_s: int) -> bool:
        with self._lock:
            if self._current_reader(owner) != reader:
                return False
            self._inbox_readers[owner] = (reader, time.time() + ttl_s)
            return True

    def release_inbox_reader(self, owner: str, reader: str) -> None:
        with self._lock:
            if self._current_reader(owner) == reader:
                del self._inbox_readers[owner]

    def inbox_read_now(self, owner: str) -> bool:
        with self._lock:
            return self._current_reader(owner) is not None

    # --- webhook endpoints and deliveries -----------------------------------------

    def register_endpoint(self, url: str, secret: str) -> bool:
        with self._lock:
            if f"secret:{url}" in self._webhooks:
                return False
            self._webhooks[f"secret:{url}"] = secret
            return True

    def endpoint_secret(self, url: str) -> str | None:
        with self._lock:
            return self._webhooks.get(f"secret:{url}")

    def endpoint_disabled(self, url: str) -> bool:
        with self._lock:
            return f"disabled:{url}" in self._webhooks

    def disable_endpoint(self, url: str, reason: str) -> None:
        with self._lock:
            self._webhooks[f"disabled:{url}"] = reason

    def log_delivery(self, game_id: str, attempt: dict[str, Any], keep: int = 10_000) -> None:
        with self._lock:
            log = self._game(game_id).deliveries
            log.append(canonical(attempt))
            log[:] = _index_range(log, -keep, -1)

    def deliveries(self, game_id: str, *, start: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        with self._lock:
            rows = _index_range(self._game(game_id).deliveries, start, start + limit - 1)
        return [json.loads(row) for row in rows]

    # --- live stream slots ------------------------------------------------------

    def take_stream_slot(
        self, scope: SlotScope, owner: str, member: str, cap: int, *, now_ms: int, ttl_ms: int
    ) -> bool:
        with self._lock:
            slots = self._stream_slots.setdefault((scope, owner), {})
            for gone in [m for m, expiry in slots.items() if expiry <= now_ms]:
                del slots[gone]
            if len(slots) >= cap:
                return False
            slots[member] = now_ms + ttl_ms
            return True

    def refresh_stream_slots(
        self, slots: Sequence[tuple[SlotScope, str]], member: str, *, now_ms: int, ttl_ms: int
    ) -> None:
        with self._lock:
            for slot in slots:
                self._stream_slots.setdefault(slot, {})[member] = now_ms + ttl_ms

    def release_stream_slots(self, slots: Sequence[tuple[SlotScope, str]], member: str) -> None:
        with self._lock:
            for slot in slots:
                self._stream_slots.get(slot, {}).pop(member, None)

    def stream_slots(self, scope: SlotScope, owner: str, *, now_ms: int) -> int:
        with self._lock:
            return sum(expiry >= now_ms for expiry in self._stream_slots.get((scope, owner), {}).values())

    # --- the store itself -------------------------------------------------------

    def ping(self) -> bool:
        return True

    def take_rate(self, windows: Sequence[RateWindow], *, now_ms: int, member: str) -> list[RateCount]:
        with self._lock:
            times = []
            for w in windows:
                kept = [t for t in self._rate_windows.get((w.owner, w.name), []) if t > now_ms - w.period_ms]
                self._rate_windows[(w.owner, w.name)] = kept
                times.append(kept)
            allowed = all(len(kept) < w.limit for w, kept in zip(windows, times, strict=True))
            answers = []
            for w, kept in zip(windows, times, strict=True):
                room = len(kept) < w.limit
                if allowed and w.take:
                    kept.append(now_ms)
                frees = max(0, len(kept) - w.limit)
                reset = kept[frees] + w.period_ms if frees < len(kept) else now_ms + w.period_ms
                answers.append(RateCount(room, max(0, w.limit - len(kept)), reset))
            return answers

    # --- inside ---------------------------------------------------------------

    def _game(self, game_id: str) -> _Game:
        """The game's record, made empty if there is none (as a Redis key springs up when first written)."""
        return self._games.setdefault(game_id, _Game())

    def _set_timers(self, game_id: str, timers: Sequence[tuple[str, int]]) -> None:
        for member, due_ms in timers:
            self._timers[bucket_of(game_id)][member] = int(due_ms)

    def _post_outbox(self, game_id: str, version: int, finished: str, event: str) -> None:
        fields = {"game_id": game_id, "version": str(version), "finished": finished, "event": event}
        self._outboxes[bucket_of(game_id)].add(fields)

    def _wake_stream(self, bucket: int, reader: str) -> _Stream:
        stream, expiry = self._wakes.get((bucket, reader), (None, 0))
        return stream if stream is not None and expiry > _wall_ms() else _Stream()

    def _current_reader(self, owner: str) -> str | None:
        reader, expiry = self._inbox_readers.get(owner, (None, 0.0))
        return reader if expiry > time.time() else None

    def _wait(self, block_ms: int, ready: Callable[[], T]) -> T:
        """``ready()``'s first truthy answer within ``block_ms``, or its last answer."""
        deadline = time.monotonic() + block_ms / 1000
        with self._changed:
            found = ready()
            while not found and (left := deadline - time.monotonic()) > 0:
                self._changed.wait(left)
                found = ready()
            return found


def _outbox_entry(bucket: int, entry_id: tuple[int, int], fields: Mapping[str, str]) -> OutboxEntry:
    return OutboxEntry(
        entry_id=f"{entry_id[0]}-{entry_id[1]}",
        bucket=bucket,
        game_id=fields["game_id"],
        version=int(fields["version"]),
        finished=fields["finished"] == "1",
        event=fields["event"],
    )
