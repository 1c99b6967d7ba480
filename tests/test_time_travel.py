"""Time travel starts from the nearest snapshot at or below the version asked for, and a move reads
the store once before it appends."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from domain.contract import Role
from domain.table.record import Record
from events.keys import Keyspace
from events.store import RedisStore
from service import snapshots
from service.games import (
    DuplicateCommandConflict,
    Forbidden,
    GameNotFound,
    GameService,
    SeatSpec,
    Unauthorized,
)
from tests.conftest import NAMESPACE

EVERY = 7
SEATS = [SeatSpec("North"), SeatSpec("South")]
HOMEWORLDS = ("homeworld r1 b2 g3 North", "homeworld y1 b3 g3 South")


@pytest.fixture
def store(service: GameService, redis_url: str) -> RedisStore:
    """A store of its own (a client of its own, so that spies see only this test's commands)."""
    return RedisStore(redis.Redis.from_url(redis_url), Keyspace(NAMESPACE))


@pytest.fixture
def writer(store: RedisStore) -> GameService:
    return GameService(store, snapshot_every=EVERY)


def play(service: GameService, game_id: str, passes: int) -> Record:
    """Both homeworlds, then ``passes`` passes (two events each)."""
    for seat, turn in enumerate(HOMEWORLDS):
        service.submit(game_id, seat, turn)
    record = service.head(game_id)
    for _ in range(passes):
        record = service.submit(game_id, next(iter(record.game.to_act(record.state))), "pass").record
    return record


def long_game(writer: GameService, passes: int = 30, options: dict[str, Any] | None = None) -> Record:
    game_id = writer.create("homeworlds", SEATS, options or {}).record.game_id
    return play(writer, game_id, passes)


def full_fold(store: RedisStore, game_id: str, upto: int) -> Record:
    return GameService(store)._fold(None, store.read(game_id, upto=upto))


def snapshot_versions(store: RedisStore, game_id: str) -> list[int]:
    """Every snapshot version a game keeps: the history and the newest."""
    k = store.keys.game(game_id)
    history = [int(v) for v in store.redis.zrange(k.snapshots, 0, -1)]
    newest = store.snapshot(game_id)
    return sorted(history + ([newest.version] if newest else []))


@dataclasses.dataclass
class Folded:
    """How many envelopes the spied store handed to a fold."""

    counts: list[int] = dataclasses.field(default_factory=list)


@pytest.fixture
def folded(store: RedisStore) -> Iterator[Folded]:
    """Counts the envelopes that :meth:`RedisStore.read` and :meth:`RedisStore.snapshot_at` return."""
    seen = Folded()
    read, snapshot_at = store.read, store.snapshot_at

    def spy_read(*args: Any, **kwargs: Any) -> Any:
        envelopes = read(*args, **kwargs)
        seen.counts.append(len(envelopes))
        return envelopes

    def spy_snapshot_at(*args: Any, **kwargs: Any) -> Any:
        snap, envelopes = snapshot_at(*args, **kwargs)
        seen.counts.append(len(envelopes))
        return snap, envelopes

    store.read = spy_read  # type: ignore[method-assign]
    store.snapshot_at = spy_snapshot_at  # type: ignore[method-assign]
    yield seen
    store.read, store.snapshot_at = read, snapshot_at  # type: ignore[method-assign]


class TestAt:
    def test_every_version_equals_the_fold_from_the_first_event(self, store: RedisStore, writer: GameService) -> None:
        head = long_game(writer)
        versions = snapshot_versions(store, head.game_id)
        assert len(versions) >= head.version // EVERY - 1
        reader = GameService(store, snapshot_every=EVERY)
        for version in range(1, head.version + 1):
            assert reader.at(head.game_id, version) == full_fold(store, head.game_id, version), version

    def test_at_folds_only_the_events_after_the_nearest_snapshot(
        self, store: RedisStore, writer: GameService, folded: Folded
    ) -> None:
        head = long_game(writer)
        versions = snapshot_versions(store, head.game_id)
        reader = GameService(store, snapshot_every=EVERY)
        reader.head(head.game_id)
        for version in (versions[0] - 1, versions[0], versions[0] + 1, versions[-2] + EVERY - 1, versions[-1] - 1):
            folded.counts.clear()
            reader.at(head.game_id, version)
            nearest = max((v for v in versions if v <= version), default=0)
            assert folded.counts == [version - max(nearest, 1) + 1], version
            assert folded.counts[0] <= EVERY + 1

    def test_an_old_game_with_one_snapshot_uses_it(
        self, store: RedisStore, writer: GameService, folded: Folded
    ) -> None:
        head = long_game(writer, passes=10)
        k = store.keys.game(head.game_id)
        store.redis.delete(k.snapshots, k.snapshot_states, k.snapshot)
        old = full_fold(store, head.game_id, 9)
        store.redis.hset(k.snapshot, mapping=dataclasses.asdict(snapshots.encode(old)))
        reader = GameService(store)
        reader.head(head.game_id)
        folded.counts.clear()
        assert reader.at(head.game_id, 12) == full_fold(store, head.game_id, 12)
        assert folded.counts[0] == 12 - 9 + 1


class TestUnusableSnapshots:
    @pytest.mark.parametrize("kind", ["garbage", "other rules", "other schema", "off the hash chain", "no state"])
    def test_an_unusable_snapshot_is_dropped_and_the_fold_starts_lower(
        self, kind: str, store: RedisStore, writer: GameService
    ) -> None:
        head = long_game(writer)
        k = store.keys.game(head.game_id)
        history = [int(v) for v in store.redis.zrange(k.snapshots, 0, -1)]
        bad = history[-1]
        good = snapshots.encode(full_fold(store, head.game_id, bad))
        unusable: dict[str, dict[str, Any]] = {
            "garbage": {"state": b"\x80not json"},
            "other rules": {"rules_version": "homeworlds-0"},
            "other schema": {"schema": "0" * 64},
            "off the hash chain": {
                "state": snapshots.encode(dataclasses.replace(full_fold(store, head.game_id, bad), hash="0" * 64)).state
            },
            "no state": {},
        }
        fields = unusable[kind]
        store.redis.hdel(k.snapshot_states, f"{bad}:state")
        store.redis.hset(
            k.snapshot_states,
            mapping={
                f"{bad}:{name}": value
                for name, value in (dataclasses.asdict(good) | fields).items()
                if name != "version" and (kind != "no state" or name != "state")
            },
        )
        reader = GameService(store)
        assert reader.at(head.game_id, bad + 1) == full_fold(store, head.game_id, bad + 1)
        assert bad not in [int(v) for v in store.redis.zrange(k.snapshots, 0, -1)]
        assert not store.redis.hexists(k.snapshot_states, f"{bad}:state")
        assert reader.at(head.game_id, bad) == full_fold(store, head.game_id, bad)

    def test_snapshots_are_kept_by_version_in_the_games_slot(self, store: RedisStore, writer: GameService) -> None:
        head = long_game(writer)
        k = store.keys.game(head.game_id)
        tag = store.keys.tag(k.bucket)
        assert all(key.startswith(tag + ":") for key in (k.snapshots, k.snapshot_states, k.snapshot))
        assert snapshot_versions(store, head.game_id) == sorted(set(snapshot_versions(store, head.game_id)))


class TestSpectatorDelay:
    def test_held_back_reads_fold_from_a_snapshot(self, store: RedisStore, writer: GameService, folded: Folded) -> None:
        head = long_game(writer, passes=30, options={"spectator_delay": 5})
        reader = GameService(store)
        reader.head(head.game_id)
        folded.counts.clear()
        held = reader.visible(head.game_id, Role.SPECTATOR)
        assert folded.counts and max(folded.counts) <= EVERY + 1
        assert held.version == head.version - 5
        assert held == full_fold(store, head.game_id, head.version - 5)
        folded.counts.clear()
        version, _ = reader.state_at(head.game_id, Role.SPECTATOR, head.version - 9)
        assert version == head.version - 9
        assert folded.counts and max(folded.counts) <= EVERY + 1


class TestMovePath:
    def spy(self, store: RedisStore) -> list[tuple[str, str]]:
        """Every command the store's client sends from now on, as ``(name, script sha or "")``."""
        sent: list[tuple[str, str]] = []
        client = store.redis
        original = client.execute_command

        def counted(*args: Any, **options: Any) -> Any:
            sent.append((str(args[0]), str(args[1]) if args[0] == "EVALSHA" else ""))
            return original(*args, **options)

        client.execute_command = counted
        return sent

    def before_append(self, store: RedisStore, sent: list[tuple[str, str]]) -> list[tuple[str, str]]:
        append = store._append.sha
        return sent[: next(i for i, command in enumerate(sent) if command == ("EVALSHA", append))]

    def test_a_move_with_a_token_reads_the_store_once_before_it_appends(self, store: RedisStore) -> None:
        service = GameService(store)
        created = service.create("tictactoe", SEATS, {})
        seat = next(iter(created.record.game.to_act(created.record.state)))
        sent = self.spy(store)
        result = service.submit_with_token(created.record.game_id, created.seat_tokens[seat], "a1")
        assert result.record.version > created.record.version and result.seat == seat
        assert self.before_append(store, sent) == [("EVALSHA", store._glance.sha)]

    def test_a_move_with_an_idempotency_key_reads_the_store_once_before_it_appends(self, store: RedisStore) -> None:
        service = GameService(store)
        created = service.create("tictactoe", SEATS, {}).record
        seat = next(iter(created.game.to_act(created.state)))
        sent = self.spy(store)
        first = service.submit(created.game_id, seat, "a1", idempotency_key="k1")
        assert self.before_append(store, sent) == [("EVALSHA", store._glance.sha)]
        sent.clear()
        again = service.submit(created.game_id, seat, "a1", idempotency_key="k1")
        assert again.duplicate and [e.version for e in again.events] == [e.version for e in first.events]
        assert ("EVALSHA", store._append.sha) not in sent
        with pytest.raises(DuplicateCommandConflict):
            service.submit(created.game_id, seat, "b2", idempotency_key="k1")

    def test_a_process_that_missed_moves_reads_them_in_the_same_round_trip(self, store: RedisStore) -> None:
        one, two = GameService(store), GameService(store)
        created = one.create("tictactoe", SEATS, {}).record
        two.head(created.game_id)
        record = one.submit(created.game_id, next(iter(created.game.to_act(created.state))), "a1").record
        sent = self.spy(store)
        moved = two.submit(created.game_id, next(iter(record.game.to_act(record.state))), "b2").record
        assert self.before_append(store, sent) == [("EVALSHA", store._glance.sha)]
        assert moved == full_fold(store, created.game_id, moved.version)

    def test_the_token_path_refuses_as_the_seat_lookup_does(self, store: RedisStore) -> None:
        service = GameService(store)
        created = service.create("tictactoe", SEATS, {})
        game_id = created.record.game_id
        with pytest.raises(Unauthorized):
            service.submit_with_token(game_id, None, "a1")
        with pytest.raises(Unauthorized):
            service.submit_with_token(game_id, "not-a-token", "a1")
        with pytest.raises(Forbidden):
            service.submit_with_token(game_id, created.creator_token, "a1")
        with pytest.raises(GameNotFound):
            service.submit_with_token("0000000000000000", created.seat_tokens[0], "a1")
        for token in (None, "not-a-token", created.creator_token):
            with pytest.raises((Unauthorized, Forbidden)) as refused:
                service.seat_for(game_id, token)
            with pytest.raises(type(refused.value), match=re.escape(str(refused.value))):
                service.submit_with_token(game_id, token, "a1")
        assert service.head(game_id).version == created.record.version
