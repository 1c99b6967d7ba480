"""The event store's contract, run against every Redis available:
the embedded one always, and the one at REDIS_URL when it is set."""

from __future__ import annotations

import dataclasses
import functools
import os
import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
import redis

from app import redis_client
from events.envelope import GENESIS_HASH, Envelope, seal, verify_chain
from events.keys import Keyspace
from events.store import (
    Appended,
    EventStore,
    GameExists,
    IdempotencyConflict,
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
    ]


@pytest.fixture(params=servers())
def store(request: pytest.FixtureRequest) -> EventStore:
    if request.param == "cluster":
        return EventStore(redis_client(embedded_cluster().url, cluster=True), Keyspace(f"{NAMESPACE}-store"))
    url = embedded_redis_url() if request.param == "embedded" else os.environ["ORRERY_EXTERNAL_REDIS_URL"]
    return EventStore(redis.Redis.from_url(url), Keyspace(f"{NAMESPACE}-store"))


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
        ids = [entry_id for entry_id, _ in store.redis.xrange(store.keys.game(game_id).events)]
        assert ids == [b"1-0", b"2-0", b"3-0", b"4-0", b"5-0"]
        assert store.meta(game_id).version == 5

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
        raw = store.redis.xrange(store.keys.game(game_id).events)
        texts = [fields[b"e"].decode() for _, fields in raw]
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
        store.redis.hset(store.keys.game(game_id).snapshot, mapping=old)
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
        assert (bare.role, bare.prior, bare.events) == (None, None, [])
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
