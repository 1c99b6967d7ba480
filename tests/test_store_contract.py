"""The event store's contract, run against every store: the embedded Redis always, a Redis Cluster when a
``redis-server`` binary is at hand, the Redis at REDIS_URL when it is set, and the in-memory store."""

from __future__ import annotations

import dataclasses
import functools
import os
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
import redis

from app import redis_client
from events.envelope import GENESIS_HASH, Envelope, seal, verify_chain
from events.keys import Keyspace
from events.memory import MemoryStore
from events.store import (
    Appended,
    EventStore,
    GameExists,
    IdempotencyConflict,
    OutboxEntry,
    RateCount,
    RateRefused,
    RateWindow,
    RedisStore,
    SeatGuard,
    Snapshot,
    UnknownGame,
    VersionConflict,
)
from tests.conftest import NAMESPACE, embedded_cluster, embedded_redis_url, redis_server_missing


def servers() -> list[Any]:
    external = os.environ.get("ORRERY_EXTERNAL_REDIS_URL")
    no_cluster = redis_server_missing()
    return [
        pytest.param("embedded", id="embedded"),
        pytest.param("cluster", id="cluster", marks=pytest.mark.skipif(bool(no_cluster), reason=no_cluster or "")),
        pytest.param(
            "external",
            id="external",
            marks=pytest.mark.skipif(not external, reason="REDIS_URL is not set, so only the embedded Redis is tested"),
        ),
        pytest.param("memory", id="memory"),
    ]


@pytest.fixture(params=servers())
def store(request: pytest.FixtureRequest) -> Any:
    if request.param == "memory":
        return MemoryStore(Keyspace(f"{NAMESPACE}-store"))
    if request.param == "cluster":
        return RedisStore(redis_client(embedded_cluster().url, cluster=True), Keyspace(f"{NAMESPACE}-store"))
    url = embedded_redis_url() if request.param == "embedded" else os.environ["ORRERY_EXTERNAL_REDIS_URL"]
    return RedisStore(redis.Redis.from_url(url), Keyspace(f"{NAMESPACE}-store"))


def redis_of(store: EventStore) -> Any:
    """The Redis client under ``store``, for a test that reads or damages what Redis holds; skips on other stores."""
    if not isinstance(store, RedisStore):
        pytest.skip("this checks what Redis holds")
    return store.redis


def envelopes(game_id: str, previous: str, first_version: int, count: int, tag: str = "x") -> list[Envelope]:
    out = []
    for i in range(count):
        env = seal(
            previous,
            game_id=game_id,
            version=first_version + i,
            type="Ticked",
            seat=0,
            payload={"n": first_version + i, "tag": tag},
            visible_to=None,
            redacted={},
            recorded_at=1,
            event_id=uuid.uuid4().hex,
            rules_version="test-1",
        )
        out.append(env)
        previous = env.hash
    return out


def new_game(store: EventStore, count: int = 1) -> tuple[str, list[Envelope]]:
    game_id = uuid.uuid4().hex[:12]
    first = envelopes(game_id, GENESIS_HASH, 1, count)
    store.create(game_id, "test", "test-1", first, seed=b"seed", tokens={"h": "seat:0"}, created_ms=1)
    return game_id, first


def race(threads: int, action: Callable[[], object]) -> list[str]:
    """Run ``action`` in ``threads`` threads released at once; "ok" or "conflict@<version>" for each."""
    barrier = threading.Barrier(threads)
    outcomes: list[str] = []

    def attempt() -> None:
        barrier.wait()
        try:
            action()
            outcomes.append("ok")
        except VersionConflict as conflict:
            outcomes.append(f"conflict@{conflict.current}")

    workers = [threading.Thread(target=attempt) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return outcomes


def append(store: EventStore, game_id: str, after: list[Envelope], count: int = 1, **kw: Any) -> Appended:
    new = envelopes(game_id, after[-1].hash, after[-1].version + 1, count, kw.pop("tag", "x"))
    return store.append(game_id, after[-1].version, after[-1].hash, new, game="test", **kw)


class TestAppend:
    def test_versions_are_the_entry_ids(self, store: EventStore) -> None:
        game_id, first = new_game(store, 3)
        result = append(store, game_id, first, 2)
        assert (result.first, result.last) == (4, 5)
        assert store.meta(game_id).version == 5
        ids = [entry_id for entry_id, _ in redis_of(store).xrange(store.keys.game(game_id).events)]
        assert ids == [b"1-0", b"2-0", b"3-0", b"4-0", b"5-0"]

    def test_create_twice_is_refused(self, store: EventStore) -> None:
        game_id, first = new_game(store)
        with pytest.raises(GameExists):
            store.create(game_id, "test", "test-1", first, seed=b"s", tokens={}, created_ms=1)

    def test_unknown_game(self, store: EventStore) -> None:
        with pytest.raises(UnknownGame):
            store.meta("nope")
        fake = envelopes("nope", GENESIS_HASH, 1, 1)
        with pytest.raises(UnknownGame):
            store.append("nope", 0, GENESIS_HASH, fake, game="test")

    def test_32_threads_at_the_same_version(self, store: EventStore) -> None:
        game_id, _ = new_game(store)
        for _ in range(3):
            head = store.read(game_id)
            outcomes = race(32, functools.partial(append, store, game_id, head))
            assert outcomes.count("ok") == 1
            assert outcomes.count(f"conflict@{head[-1].version + 1}") == 31
        stored = store.read(game_id)
        assert [e.version for e in stored] == [1, 2, 3, 4]
        assert verify_chain(stored) is None
        assert store.meta(game_id).version == 4

    def test_stale_expected_version_appends_nothing(self, store: EventStore) -> None:
        game_id, first = new_game(store, 2)
        append(store, game_id, first)
        with pytest.raises(VersionConflict) as conflict:
            append(store, game_id, first)
        assert conflict.value.current == 3
        assert len(store.read(game_id)) == 3


class TestIdempotency:
    def test_a_retry_returns_the_first_result(self, store: EventStore) -> None:
        game_id, first = new_game(store)
        one = append(store, game_id, first, 2, idempotency_key="k1", fingerprint="aa")
        again = append(store, game_id, first, 2, idempotency_key="k1", fingerprint="aa")
        assert (again.first, again.last, again.duplicate) == (one.first, one.last, True)
        later = store.read(game_id)
        retry_later = append(store, game_id, later, 1, idempotency_key="k1", fingerprint="aa")
        assert (retry_later.first, retry_later.last) == (2, 3)
        assert len(store.read(game_id)) == 3

    def test_another_command_under_a_used_key_is_a_conflict(self, store: EventStore) -> None:
        game_id, first = new_game(store)
        append(store, game_id, first, idempotency_key="k1", fingerprint="aa")
        with pytest.raises(IdempotencyConflict):
            append(store, game_id, store.read(game_id), idempotency_key="k1", fingerprint="bb")
        assert len(store.read(game_id)) == 2


class TestReads:
    def test_after_and_up_to(self, store: EventStore) -> None:
        game_id, _first = new_game(store, 10)
        assert [e.version for e in store.read(game_id)] == list(range(1, 11))
        assert [e.version for e in store.read(game_id, after=7)] == [8, 9, 10]
        assert [e.version for e in store.read(game_id, upto=3)] == [1, 2, 3]
        assert [e.version for e in store.read(game_id, after=2, upto=5)] == [3, 4, 5]
        assert [e.version for e in store.read(game_id, after=2, limit=2)] == [3, 4]
        assert store.read(game_id, after=10) == []
        assert store.read(game_id, after=5, upto=5) == []

    def test_envelopes_round_trip(self, store: EventStore) -> None:
        game_id, first = new_game(store, 3)
        assert store.read(game_id) == first


class TestHashChain:
    def test_an_altered_entry_is_detected(self, store: EventStore) -> None:
        game_id, _first = new_game(store, 5)
        texts = [e.to_json() for e in store.read(game_id)]
        if isinstance(store, RedisStore):
            texts = [fields[b"e"].decode() for _, fields in store.redis.xrange(store.keys.game(game_id).events)]
        assert verify_chain([Envelope.from_json(t) for t in texts]) is None
        texts[2] = texts[2].replace('"n":3', '"n":30')
        problem = verify_chain([Envelope.from_json(t) for t in texts])
        assert problem is not None and problem.version == 3

    def test_a_dropped_or_reordered_entry_is_detected(self, store: EventStore) -> None:
        game_id, _first = new_game(store, 5)
        stored = store.read(game_id)
        assert verify_chain(stored[:2] + stored[3:]) is not None
        assert verify_chain([stored[0], stored[2], stored[1], *stored[3:]]) is not None
        forged = dataclasses.replace(stored[1], payload={"n": 99})
        assert verify_chain([stored[0], forged, *stored[2:]]) is not None


class TestEveryOperation:
    """Snapshots, the outbox, timers, the game index, seat secrets, endpoints and deliveries, on every server."""

    def test_snapshots_are_saved_replaced_and_dropped_only_when_unchanged(self, store: EventStore) -> None:
        game_id, _ = new_game(store, 2)
        assert store.snapshot(game_id) is None
        store.save_snapshot(game_id, Snapshot(2, "test-1", b"{}", "s1"))
        assert store.snapshot(game_id) == Snapshot(2, "test-1", b"{}", "s1")
        assert store.drop_snapshot(game_id, b"other") is False
        assert store.snapshot(game_id) is not None
        assert store.drop_snapshot(game_id, b"{}") is True
        assert store.snapshot(game_id) is None

    def test_outbox_entries_are_claimed_once_and_acknowledged(self, store: EventStore) -> None:
        group = f"g-{uuid.uuid4().hex[:6]}"
        store.ensure_outbox_groups(group)
        store.ensure_outbox_groups(group)
        game_id, first = new_game(store)
        append(store, game_id, first, finished=True)
        bucket = store.keys.game(game_id).bucket
        claimed = [e for e in store.claim_outbox(bucket, group, "c1") if e.game_id == game_id]
        assert [(e.version, e.finished, e.event) for e in claimed] == [(1, False, "created"), (2, True, "appended")]
        assert not [e for e in store.claim_outbox(bucket, group, "c2") if e.game_id == game_id]
        stale = [e for e in store.claim_outbox(bucket, group, "c2", min_idle_ms=0) if e.game_id == game_id]
        assert [e.version for e in stale] == [1, 2]
        for entry in stale:
            store.ack_outbox(entry, group)
        assert not [e for e in store.claim_outbox(bucket, group, "c3", min_idle_ms=0) if e.game_id == game_id]

    def test_following_the_outbox_waits_for_new_entries_and_takes_each_once(self, store: EventStore) -> None:
        group = f"g-{uuid.uuid4().hex[:6]}"
        store.ensure_outbox_groups(group)
        game_id, first = new_game(store)
        bucket = store.keys.game(game_id).bucket
        taken: list[OutboxEntry] = []
        while not any(e.game_id == game_id for e in taken):
            taken = store.follow_outbox(bucket, group, "c1", block_ms=100)
        assert [(e.version, e.event) for e in taken if e.game_id == game_id] == [(1, "created")]
        started = time.monotonic()
        assert store.follow_outbox(bucket, group, "c1", block_ms=300) == []
        assert time.monotonic() - started >= 0.2
        waited: list[OutboxEntry] = []
        reader = threading.Thread(
            target=lambda: waited.extend(store.follow_outbox(bucket, group, "c2", block_ms=10_000))
        )
        started = time.monotonic()
        reader.start()
        time.sleep(0.2)
        append(store, game_id, first, finished=True)
        reader.join(10)
        assert time.monotonic() - started < 5
        assert [(e.version, e.finished, e.event) for e in waited] == [(2, True, "appended")]
        assert store.follow_outbox(bucket, group, "c3", block_ms=50) == []
        started = time.monotonic()
        assert store.follow_outbox(bucket, group, "c3", block_ms=0) == []
        assert time.monotonic() - started < 1
        pending = [e for e in store.claim_outbox(bucket, group, "c4", min_idle_ms=0) if e.game_id == game_id]
        assert [e.version for e in pending] == [1, 2]

    def test_timers_are_leased_by_one_sweeper(self, store: EventStore) -> None:
        game_id, _ = new_game(store)
        bucket, member = store.keys.game(game_id).bucket, f"deadline:{game_id}"
        store.set_timer(bucket, member, 100)
        assert member in store.due_timers(bucket, 150)
        lease = store.claim_timer(bucket, member, 150, 1_000)
        assert lease == 1_150
        assert store.claim_timer(bucket, member, 150, 1_000) is None
        assert member not in store.due_timers(bucket, 150)
        assert store.finish_timer(bucket, member, lease) is True
        assert member not in store.timers(bucket)

    def test_the_index_lists_games_of_every_bucket_newest_first(self, store: EventStore) -> None:
        ids = []
        for i in range(40):
            game_id = f"list-{uuid.uuid4().hex[:8]}"
            first = envelopes(game_id, GENESIS_HASH, 1, 1)
            store.create(game_id, "indexed", "test-1", first, seed=b"s", tokens={}, created_ms=10_000 + i)
            ids.append(game_id)
        assert len({store.keys.game(g).bucket for g in ids}) > 8
        listed = store.list_games(game="indexed", limit=100)
        assert [g for _, g in listed] == ids[::-1]
        page = store.list_games(game="indexed", limit=15, before=listed[14])
        assert [g for _, g in page] == ids[::-1][15:30]
        metas = store.listings([*ids[:3], "gone"])
        assert [m["game"] if m else None for m in metas] == ["indexed", "indexed", "indexed", None]

    def test_a_game_its_first_events_cancel_is_stored_cancelled(self, store: EventStore) -> None:
        game = f"born-cancelled-{uuid.uuid4().hex[:8]}"
        ids = []
        for cancelled in (False, True):
            game_id = f"c-{uuid.uuid4().hex[:8]}"
            first = envelopes(game_id, GENESIS_HASH, 1, 2)
            store.create(game_id, game, "test-1", first, seed=b"s", tokens={}, created_ms=10_000, cancelled=cancelled)
            ids.append(game_id)
        assert [g for _, g in store.list_games(game=game, status="cancelled")] == ids[1:]
        assert [g for _, g in store.list_games(game=game, status="active")] == ids[:1]
        assert sorted(g for _, g in store.list_games(game=game)) == sorted(ids)
        assert [m["status"] if m else None for m in store.listings(ids)] == ["active", "cancelled"]
        assert store.meta(ids[1]).status == "cancelled" and store.meta(ids[1]).version == 2

    def test_blocking_wait_returns_the_next_event(self, store: EventStore) -> None:
        game_id, first = new_game(store)
        threading.Timer(0.2, append, (store, game_id, first)).start()
        arrived = store.wait(game_id, after=1, block_ms=5_000)
        assert [e.version for e in arrived] == [2]

    def test_secrets_endpoints_tokens_and_deliveries(self, store: EventStore) -> None:
        game_id, _ = new_game(store)
        assert store.role_of(game_id, "h") == "seat:0" and store.role_of(game_id, "x") is None
        assert store.seed(game_id) == b"seed"
        url = f"https://bots.example/{uuid.uuid4().hex}"
        assert store.register_endpoint(url, "s1") is True and store.register_endpoint(url, "s2") is False
        assert store.endpoint_secret(url) == "s1" and not store.endpoint_disabled(url)
        store.disable_endpoint(url, "410")
        assert store.endpoint_disabled(url)
        for n in range(3):
            store.log_delivery(game_id, {"n": n}, keep=2)
        assert store.deliveries(game_id) == [{"n": 1}, {"n": 2}]
        store.cache_verdict(game_id, 1, {"ok": True})
        assert store.cached_verdict(game_id, 1) == {"ok": True}


class TestSnapshotsByVersion:
    """Snapshots kept by version, and the one-round-trip read of the move path, on every server."""

    def test_a_replaced_snapshot_is_kept_by_version(self, store: EventStore) -> None:
        game_id, _ = new_game(store, 30)
        assert store.snapshot_at(game_id, 30)[0] is None
        assert [e.version for e in store.snapshot_at(game_id, 4)[1]] == [1, 2, 3, 4]
        for version in (10, 20):
            store.save_snapshot(game_id, Snapshot(version, "test-1", b'{"v":%d}' % version, "s1"))
        assert store.snapshot(game_id) == Snapshot(20, "test-1", b'{"v":20}', "s1")
        for upto, held in ((9, None), (10, 10), (19, 10), (20, 20), (30, 20)):
            snap, events = store.snapshot_at(game_id, upto)
            assert (snap.version if snap else None) == held
            assert [e.version for e in events] == list(range(held or 1, upto + 1))
        assert store.snapshot_at(game_id, 15)[0] == Snapshot(10, "test-1", b'{"v":10}', "s1")

    def test_a_snapshot_is_dropped_by_version_only_when_unchanged(self, store: EventStore) -> None:
        game_id, _ = new_game(store, 30)
        for version in (10, 20, 30):
            store.save_snapshot(game_id, Snapshot(version, "test-1", b'{"v":%d}' % version, "s1"))
        assert store.drop_snapshot(game_id, b"other", 10) is False
        assert store.drop_snapshot(game_id, b'{"v":10}', 10) is True
        assert store.snapshot_at(game_id, 15)[0] is None
        assert store.drop_snapshot(game_id, b'{"v":20}') is True
        assert store.snapshot_at(game_id, 29)[0] is None
        assert store.snapshot(game_id) == Snapshot(30, "test-1", b'{"v":30}', "s1")

    def test_an_old_single_snapshot_is_read_and_then_kept_by_version(self, store: EventStore) -> None:
        game_id, _ = new_game(store, 30)
        old = {"version": 12, "rules_version": "test-1", "schema": "s0", "state": b"{}"}
        redis_of(store).hset(store.keys.game(game_id).snapshot, mapping=old)
        assert store.snapshot_at(game_id, 12)[0] == Snapshot(12, "test-1", b"{}", "s0")
        assert store.snapshot_at(game_id, 11)[0] is None
        store.save_snapshot(game_id, Snapshot(24, "test-1", b"{}", "s1"))
        assert store.snapshot_at(game_id, 23)[0] == Snapshot(12, "test-1", b"{}", "s0")
        assert store.snapshot_at(game_id, 30)[0] == Snapshot(24, "test-1", b"{}", "s1")

    def test_a_glance_reads_meta_role_key_and_new_events_at_once(self, store: EventStore) -> None:
        game_id, first = new_game(store, 2)
        append(store, game_id, first, 2, idempotency_key="k", fingerprint="ab")
        glance = store.glance(game_id, after=2, token_hash="h", idempotency_key="k")
        assert glance.meta == store.meta(game_id) and glance.meta.version == 4
        assert glance.role == "seat:0" and glance.prior == "ab|3|4"
        assert [e.version for e in glance.events] == [3, 4]
        bare = store.glance(game_id)
        assert (bare.role, bare.prior, bare.events, bare.sealed_seed) == (None, None, [], None)
        assert store.glance(game_id, with_seed=True).sealed_seed == store.sealed_seed(game_id)
        assert store.glance(game_id, after=4, token_hash="x", idempotency_key="y").events == []
        assert store.prior_result(game_id, "k") == "ab|3|4" and store.prior_result(game_id, "y") is None
        with pytest.raises(UnknownGame):
            store.glance("no-such-game", after=0)


class TestWaitMany:
    def test_one_read_follows_several_games_of_a_bucket_and_a_wake_interrupts_it(self, store: EventStore) -> None:
        by_bucket: dict[int, list[tuple[str, list[Envelope]]]] = {}
        while not any(len(games) >= 2 for games in by_bucket.values()):
            game_id, first = new_game(store)
            by_bucket.setdefault(store.keys.game(game_id).bucket, []).append((game_id, first))
        bucket, games = next((b, g) for b, g in by_bucket.items() if len(g) >= 2)
        (one, one_first), (two, two_first) = games[:2]
        append(store, two, two_first, 2)
        found, woken = store.wait_many(bucket, {one: 1, two: 1}, reader="r1", woken="0-0", block_ms=1_000)
        assert list(found) == [two] and [e.version for e in found[two]] == [2, 3] and woken == "0-0"
        threading.Timer(0.2, store.wake, (bucket, "r1")).start()
        found, woken = store.wait_many(bucket, {one: 1, two: 3}, reader="r1", woken=woken, block_ms=10_000)
        assert found == {} and woken != "0-0"
        threading.Timer(0.2, append, (store, one, one_first)).start()
        found, again = store.wait_many(bucket, {one: 1, two: 3}, reader="r1", woken=woken, block_ms=10_000)
        assert [e.version for e in found[one]] == [2] and again == woken


def sibling(store: EventStore, namespace: str) -> EventStore:
    """A store of the same kind (on the same server) under another namespace."""
    if isinstance(store, RedisStore):
        return RedisStore(store.redis, Keyspace(namespace))
    return MemoryStore(Keyspace(namespace))


class TestAccounts:
    """Registered bots, bot seats' tokens, ratings, the ladder and account streams, on every store."""

    def test_a_bot_registers_once_and_its_key_rotates(self, store: EventStore) -> None:
        bot_id, key, other = (uuid.uuid4().hex for _ in range(3))
        assert store.register_bot(bot_id, key, {"name": "Ada", "ladder": "1"}) is True
        assert store.register_bot(bot_id, other, {"name": "again"}) is False
        assert store.register_bot(uuid.uuid4().hex, key, {"name": "same key"}) is False
        assert store.bot(bot_id) == {"name": "Ada", "ladder": "1", "api_key_hash": key}
        assert store.bot_of_key(key) == bot_id and store.bot("nobody") is None
        assert bot_id in store.ladder_bots()
        assert store.rotate_bot_key(bot_id, other, "x") is False
        assert store.rotate_bot_key(bot_id, key, other) is True
        assert store.bot_of_key(key) is None and store.bot_of_key(other) == bot_id
        store.set_bot_field(bot_id, "secret", "s2")
        assert store.bot(bot_id) == {"name": "Ada", "ladder": "1", "api_key_hash": other, "secret": "s2"}
        reference = f"builtin-{uuid.uuid4().hex[:6]}"
        store.put_reference_bot(reference, {"name": "Random"})
        assert store.bot(reference) == {"name": "Random"} and reference in store.ladder_bots()

    def test_a_bot_plays_at_most_its_limit_of_games(self, store: EventStore) -> None:
        bot_id = uuid.uuid4().hex
        assert store.claim_bot_game(bot_id, "g1", 2) and store.claim_bot_game(bot_id, "g2", 2)
        assert store.claim_bot_game(bot_id, "g1", 2) is True
        assert store.claim_bot_game(bot_id, "g3", 2) is False
        assert store.claim_bot_game(bot_id, "g3") is True
        store.release_bot_game(bot_id, "g1")
        assert store.bot_games(bot_id) == ["g2", "g3"]

    def test_bot_seat_tokens(self, store: EventStore) -> None:
        hashed = uuid.uuid4().hex
        store.set_bot_tokens({hashed: "game1:2"})
        store.set_bot_tokens({})
        assert store.bot_token(hashed) == "game1:2" and store.bot_token("other") is None

    def test_ratings_apply_once_and_refuse_a_stale_read(self, store: EventStore) -> None:
        game, a, b = f"kind-{uuid.uuid4().hex[:6]}", "bot:a", "bot:b"
        assert store.rating_records(game, [a, b]) == [None, None] and store.rating_records(game, []) == []
        writes = [(a, "", "ra1", 2000, "ha1"), (b, "", "rb1", 1000, "hb1")]
        assert store.apply_ratings(game, "g1", "p1", writes, keep=2) == ("ok", "p1")
        assert store.apply_ratings(game, "g1", "other", writes, keep=2) == ("applied", "p1")
        assert store.apply_ratings(game, "g2", "p2", [(a, "", "ra2", 1, "ha2")], keep=2) == ("conflict", "")
        for n in (2, 3):
            later = [(a, f"ra{n - 1}", f"ra{n}", 500, f"ha{n}")]
            assert store.apply_ratings(game, f"g{n}", f"p{n}", later, keep=2) == ("ok", f"p{n}")
        assert store.rating_records(game, [a, b, "bot:c"]) == ["ra3", "rb1", None]
        assert store.rating_board(game, 0, 10) == (2, [b, a])
        assert store.rating_board(game, 1, 1) == (2, [a])
        assert store.rating_history(game, a, 10) == ["ha3", "ha2"]
        assert store.rating_history(game, a, 1) == ["ha3"]

    def test_a_ladder_pair_is_swapped_only_from_what_was_read(self, store: EventStore) -> None:
        game = f"kind-{uuid.uuid4().hex[:6]}"
        assert store.ladder_pairs(game) == {}
        assert store.swap_ladder_pair(game, "a|b", "", "pending:1") is True
        assert store.swap_ladder_pair(game, "a|b", "", "pending:2") is False
        assert store.swap_ladder_pair(game, "a|b", "pending:1", "g1") is True
        assert store.ladder_pairs(game) == {"a|b": "g1"}
        assert store.swap_ladder_pair(game, "a|b", "g1", "") is True
        assert store.ladder_pairs(game) == {}

    def test_an_account_stream_takes_each_event_once_and_keeps_the_newest(self, store: EventStore) -> None:
        owner = f"bot:{uuid.uuid4().hex}"
        assert store.inbox_bounds(owner) == (None, None) and store.inbox_events(owner) == []
        for n in range(5):
            assert store.post_inbox(owner, f"k{n}", f"body{n}", keep=3) is True
        assert store.post_inbox(owner, "k4", "again", keep=3) is False
        events = store.inbox_events(owner)
        assert [body for _, body in events][-3:] == ["body2", "body3", "body4"]
        oldest, newest = store.inbox_bounds(owner)
        assert oldest == events[0][0] and newest == events[-1][0]
        assert store.inbox_events(owner, after=events[-2][0]) == [events[-1]]
        assert store.inbox_events(owner, after=newest, block_ms=100) == []
        threading.Timer(0.2, store.post_inbox, (owner, "k5", "body5")).start()
        arrived = store.inbox_events(owner, after=newest, block_ms=5_000)
        assert [body for _, body in arrived] == ["body5"]

    def test_one_reader_at_a_time_reads_an_account_stream(self, store: EventStore) -> None:
        owner = f"bot:{uuid.uuid4().hex}"
        assert store.inbox_read_now(owner) is False
        store.claim_inbox_reader(owner, "r1", 60)
        assert store.inbox_read_now(owner) and store.inbox_reader(owner, "r1", 60)
        store.claim_inbox_reader(owner, "r2", 60)
        assert store.inbox_reader(owner, "r1", 60) is False
        store.release_inbox_reader(owner, "r1")
        assert store.inbox_read_now(owner)
        store.release_inbox_reader(owner, "r2")
        assert store.inbox_read_now(owner) is False


class TestServerSide:
    """Live stream slots, the store's health and forgetting a namespace, on every store."""

    def test_stream_slots_are_capped_expire_and_are_released(self, store: EventStore) -> None:
        address, game_id, now = f"10.0.0.{uuid.uuid4().int % 250}-{uuid.uuid4().hex[:6]}", uuid.uuid4().hex, 1_000
        ttl = 45_000
        assert store.take_stream_slot("address", address, "s1", 2, now_ms=now, ttl_ms=ttl)
        assert store.take_stream_slot("address", address, "s2", 2, now_ms=now, ttl_ms=ttl)
        assert not store.take_stream_slot("address", address, "s3", 2, now_ms=now, ttl_ms=ttl)
        assert store.take_stream_slot("game", game_id, "s1", 1, now_ms=now, ttl_ms=ttl)
        assert store.stream_slots("address", address, now_ms=now) == 2
        assert store.stream_slots("game", game_id, now_ms=now) == 1
        store.refresh_stream_slots([("address", address)], "s1", now_ms=now + 30_000, ttl_ms=ttl)
        later = now + ttl + 1
        assert store.stream_slots("address", address, now_ms=later) == 1
        assert store.take_stream_slot("address", address, "s3", 2, now_ms=later, ttl_ms=ttl)
        store.release_stream_slots([("address", address), ("game", game_id)], "s1")
        assert store.stream_slots("address", address, now_ms=later) == 1
        assert store.stream_slots("game", game_id, now_ms=now) == 0

    def test_rate_windows_count_only_when_every_window_has_room(self, store: EventStore) -> None:
        owner = f"token:{uuid.uuid4().hex}"
        address = f"addr:{uuid.uuid4().hex[:8]}"
        windows = [
            RateWindow(owner, "moves/2/60", 2, 60_000),
            RateWindow(address, "moves/3/60", 3, 60_000),
            RateWindow(address, "bad-token/1/60", 1, 60_000, take=False),
        ]
        first = store.take_rate(windows, now_ms=1_000, member="r1")
        assert first == [RateCount(True, 1, 61_000), RateCount(True, 2, 61_000), RateCount(True, 1, 61_000)]
        store.take_rate(windows, now_ms=2_000, member="r2")
        refused = store.take_rate(windows, now_ms=3_000, member="r3")
        assert [c.allowed for c in refused] == [False, True, True]
        assert refused[0] == RateCount(False, 0, 61_000)
        assert refused[1].remaining == 1, "a refused request is not counted in the windows with room"
        assert store.take_rate(windows[1:2], now_ms=3_000, member="r4")[0] == RateCount(True, 0, 61_000)
        assert store.take_rate(windows[1:2], now_ms=3_500, member="r5")[0] == RateCount(False, 0, 61_000)
        assert store.take_rate(windows, now_ms=61_001, member="r6")[0] == RateCount(True, 0, 62_000)
        checked = store.take_rate([RateWindow(address, "bad-token/1/60", 1, 60_000)], now_ms=61_001, member="r7")
        assert checked == [RateCount(True, 0, 121_001)]
        assert not store.take_rate(windows[2:], now_ms=61_002, member="r8")[0].allowed

    def test_rate_windows_and_a_glance_are_read_together(self, store: EventStore) -> None:
        game_id, _ = new_game(store)
        window = RateWindow(f"addr:{uuid.uuid4().hex[:8]}", "moves/1/60", 1, 60_000)
        counts, glance = store.take_rate_and_glance([window], now_ms=5_000, member="m1", game_id=game_id)
        assert counts == [RateCount(True, 0, 65_000)]
        assert glance is not None and glance == store.glance(game_id)
        counts, missing = store.take_rate_and_glance([window], now_ms=6_000, member="m2", game_id="no-such-game")
        assert counts == [RateCount(False, 0, 65_000)] and missing is None
        _, seeded = store.take_rate_and_glance([window], now_ms=7_000, member="m3", game_id=game_id, with_seed=True)
        assert seeded is not None and seeded.sealed_seed == store.sealed_seed(game_id)

    def test_a_guarded_append_checks_the_game_and_the_token_then_counts_the_rate(self, store: EventStore) -> None:
        if not store.appends_as_seat:
            game_id, first = new_game(store)
            guard = SeatGuard("h", "seat:0", [], "m0")
            with pytest.raises(ValueError, match="one node"):
                append(store, game_id, first, guard=guard, now_ms=1_000)
            assert store.meta(game_id).version == 1, "the refused append wrote nothing"
            return
        game_id, first = new_game(store)
        owner = f"token:{uuid.uuid4().hex}"
        windows = [RateWindow(owner, "moves/2/60", 2, 60_000)]

        def guarded(after: list[Envelope], role: str = "seat:0", token: str = "h", member: str = "m") -> Appended:
            return append(store, game_id, after, guard=SeatGuard(token, role, windows, member), now_ms=5_000)

        done = guarded(first, member="m1")
        assert (done.first, done.last, done.rate) == (2, 2, (RateCount(True, 1, 65_000),))
        second = store.read(game_id)
        for stale_version, role, token in [(first, "seat:0", "h"), (second, "seat:1", "h"), (second, "seat:0", "x")]:
            with pytest.raises(VersionConflict):
                guarded(stale_version, role=role, token=token, member="m-stale")
        assert store.meta(game_id).version == 2
        assert store.take_rate(windows, now_ms=5_000, member="peek")[0] == RateCount(True, 0, 65_000), (
            "a guard that failed counted nothing"
        )
        with pytest.raises(RateRefused) as refused:
            guarded(store.read(game_id), member="m3")
        assert refused.value.counts == [RateCount(False, 0, 65_000)]
        assert store.meta(game_id).version == 2 and len(store.read(game_id)) == 2, "a refused move wrote nothing"
        later = store.read(game_id)
        done = append(
            store, game_id, later, guard=SeatGuard("h", "seat:0", windows, "m4"), now_ms=65_001, finished=True
        )
        assert done.first == 3 and done.rate == (RateCount(True, 1, 125_001),)
        assert store.meta(game_id).status == "finished"

    def test_a_forgotten_script_runs_once_when_rate_windows_and_a_glance_are_read_together(
        self, store: EventStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A script Redis does not hold (a restart, a failover, ``SCRIPT FLUSH``) is loaded and run once; here
        the script is made one Redis has never seen, so that no other test process loses its scripts."""
        client = redis_of(store)
        game_id, _ = new_game(store)
        window = RateWindow(f"addr:{uuid.uuid4().hex[:8]}", "moves/5/60", 5, 60_000)
        if isinstance(client, redis.RedisCluster):
            pytest.skip("a cluster reads the windows and the game in separate calls")
        assert isinstance(store, RedisStore)
        source = store._take_rate_and_glance.script
        unseen = f"{source.decode() if isinstance(source, bytes) else source}\n-- {uuid.uuid4().hex}\n"
        monkeypatch.setattr(store, "_take_rate_and_glance", client.register_script(unseen))
        assert client.script_exists(store._take_rate_and_glance.sha) == [False]
        counts, glance = store.take_rate_and_glance([window], now_ms=5_000, member="m1", game_id=game_id)
        assert counts == [RateCount(True, 4, 65_000)] and glance is not None
        assert client.script_exists(store._take_rate_and_glance.sha) == [True], "the script was loaded"

    def test_ping_and_clear(self, store: EventStore) -> None:
        assert store.ping() is True
        own = sibling(store, f"{NAMESPACE}-clear-{uuid.uuid4().hex[:6]}")
        game_id, _ = new_game(own)
        kept, _ = new_game(store)
        own.register_endpoint("https://bots.example/x", "s")
        own.clear()
        with pytest.raises(UnknownGame):
            own.meta(game_id)
        assert own.endpoint_secret("https://bots.example/x") is None
        assert store.meta(kept).version == 1
