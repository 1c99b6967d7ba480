"""The service over the test game: hidden information, the committed seed,
snapshots, and the folds they must agree with."""

from __future__ import annotations

import hashlib
import json
import threading
from typing import Any

from domain.contract import Role
from events.keys import Keyspace
from events.store import RedisStore
from service.games import GameService, SeatSpec
from tests.conftest import NAMESPACE
from tests.support.seeds import strong_seed

SEATS = [SeatSpec("Ada"), SeatSpec("Bob")]


def finish(service: GameService, game_id: str) -> None:
    """Play the game to its end: the seat on move resigns."""
    record = service.head(game_id)
    service.submit(game_id, next(iter(record.game.to_act(record.state))), "resign")


def outputs(service: GameService, game_id: str, viewer: Any) -> str:
    """Everything a viewer can read of a game, as one string."""
    record = service.head(game_id)
    parts = [service.view(record, viewer)]
    parts += [service.project(record, e, viewer) for e in service.events(game_id)]
    parts += [service.view(service.at(game_id, v), viewer) for v in range(1, record.version + 1)]
    return json.dumps(parts)


class TestHiddenInformation:
    def test_a_secret_is_seen_only_by_its_seat(self, service: GameService) -> None:
        created = service.create("tictactoe", SEATS, {}, strong_seed("hidden"))
        game_id = created.record.game_id
        secrets = created.record.state.secrets
        names = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
        for seat in (0, 1):
            mine = service.view(created.record, seat)
            assert mine["secret_square"] == names[secrets[seat]]
        dealt = [e for e in service.events(game_id) if e.type == "SecretSquareDealt"]
        assert len(dealt) == 2
        for envelope in dealt:
            owner = envelope.payload["seat"]
            other = service.project(created.record, envelope, 1 - owner)
            assert other["redacted"] is True and other["payload"] == {"seat": owner}
            assert "hash" not in other and "event_id" not in other
            assert service.project(created.record, envelope, owner)["payload"]["square"] == secrets[owner]
            assert service.project(created.record, envelope, Role.SPECTATOR)["redacted"] is True
            assert service.project(created.record, envelope, Role.AUDITOR)["redacted"] is True

    def test_the_auditor_sees_everything_once_the_game_is_over(self, service: GameService) -> None:
        created = service.create("tictactoe", SEATS, {}, strong_seed("audit"))
        game_id = created.record.game_id
        finish(service, game_id)
        record = service.head(game_id)
        dealt = [e for e in service.events(game_id) if e.type == "SecretSquareDealt"]
        assert all(service.project(record, e, Role.AUDITOR)["redacted"] is False for e in dealt)
        assert service.view(record, Role.AUDITOR)["secret_squares"][0] is not None
        assert service.project(record, dealt[0], Role.SPECTATOR)["redacted"] is True


class TestSeed:
    def test_the_seed_is_committed_then_revealed(self, service: GameService) -> None:
        seed = strong_seed("tournament-round-1-table-7")
        created = service.create("tictactoe", SEATS, {}, seed)
        game_id = created.record.game_id
        first = service.events(game_id)[0]
        assert first.type == "GameCreated" and first.payload["seed_sha256"] != hashlib.sha256(seed).hexdigest()
        for viewer in (0, 1, Role.SPECTATOR, Role.AUDITOR):
            text = outputs(service, game_id, viewer)
            assert seed.hex() not in text and seed.decode() not in text
        finish(service, game_id)
        revealed = [e for e in service.events(game_id) if e.type == "SeedRevealed"]
        assert len(revealed) == 1 and bytes.fromhex(revealed[0].payload["seed"]) == seed
        salt = bytes.fromhex(revealed[0].payload["salt"])
        assert len(salt) == 32 and hashlib.sha256(salt + seed).hexdigest() == first.payload["seed_sha256"]
        assert service.head(game_id).seed == seed.hex()

    def test_the_same_seed_deals_the_same_game(self, service: GameService) -> None:
        one = service.create("tictactoe", SEATS, {}, strong_seed("same")).record.state
        two = service.create("tictactoe", SEATS, {}, strong_seed("same")).record.state
        assert one == two


class TestFolds:
    def test_a_state_folded_from_a_snapshot_equals_a_full_fold(self, service: GameService) -> None:
        store = RedisStore(service.store.redis, Keyspace(NAMESPACE))
        writer = GameService(store, snapshot_every=2)
        game_id = writer.create("tictactoe", SEATS, {}, strong_seed("snap")).record.game_id
        for square in ("a1", "b2", "c1"):
            record = writer.head(game_id)
            writer.submit(game_id, next(iter(record.game.to_act(record.state))), square)
        snapshot = store.snapshot(game_id)
        assert snapshot is not None and 1 < snapshot.version <= 10
        reads: list[int] = []
        original_read = store.read

        def spy(game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None) -> Any:
            reads.append(after)
            return original_read(game_id, after=after, upto=upto, limit=limit)

        store.read = spy  # type: ignore[method-assign]
        from_snapshot = GameService(store, snapshot_every=2).head(game_id)
        assert reads == [snapshot.version]
        store.read = original_read  # type: ignore[method-assign]
        replayed = GameService(store, snapshot_every=10_000)._fold(None, store.read(game_id))
        assert from_snapshot == replayed
        assert from_snapshot.state == replayed.state and from_snapshot.hash == replayed.hash

    def test_a_snapshot_of_other_rules_is_ignored(self, service: GameService) -> None:
        import dataclasses

        from service import snapshots

        store = service.store
        game_id = service.create("tictactoe", SEATS, {}, strong_seed("rules")).record.game_id
        head = service.head(game_id)
        poisoned = dataclasses.replace(head, state=dataclasses.replace(head.state, to_move=7))
        store.save_snapshot(game_id, dataclasses.replace(snapshots.encode(poisoned), rules_version="tictactoe-0"))
        assert GameService(store).head(game_id).state == head.state
        assert store.snapshot(game_id) is None

    def test_a_snapshot_saved_after_a_reader_read_the_metadata_is_kept(self, service: GameService) -> None:
        """A reader whose metadata is one move old meets the snapshot that move saved: it folds from events
        and leaves the snapshot for the next read (a worker following the outbox did drop it)."""
        from service import snapshots

        store = service.store
        writer = GameService(store, snapshot_every=2)
        game_id = writer.create("tictactoe", SEATS, {}, strong_seed("kept")).record.game_id
        record = writer.head(game_id)
        writer.submit(game_id, next(iter(record.game.to_act(record.state))), "a1")
        old_meta = store.meta(game_id)
        record = writer.head(game_id)
        writer.submit(game_id, next(iter(record.game.to_act(record.state))), "b2")
        saved = store.snapshot(game_id)
        assert saved is not None and saved.version > old_meta.version
        reader = GameService(store)
        assert reader._from_snapshot(game_id, old_meta) is None
        assert store.snapshot(game_id) == saved
        assert reader._from_snapshot(game_id, store.meta(game_id)) == snapshots.decode(saved, game_id)

    def test_a_snapshot_ahead_of_the_game_itself_is_dropped(self, service: GameService) -> None:
        import dataclasses

        from service import snapshots

        store = service.store
        game_id = service.create("tictactoe", SEATS, {}, strong_seed("ahead")).record.game_id
        head = service.head(game_id)
        store.save_snapshot(game_id, snapshots.encode(dataclasses.replace(head, version=head.version + 5)))
        assert GameService(store).head(game_id) == head
        assert store.snapshot(game_id) is None

    def test_concurrent_moves_without_expected_version_all_land_or_are_refused_cleanly(
        self, service: GameService
    ) -> None:
        game_id = service.create("tictactoe", SEATS, {}, strong_seed("race")).record.game_id
        results: list[str] = []

        def resign(seat: int) -> None:
            try:
                service.submit(game_id, seat, "resign")
                results.append("ok")
            except Exception as error:
                results.append(type(error).__name__)

        threads = [threading.Thread(target=resign, args=(seat,)) for seat in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == ["GameOverError", "ok"]
        envelopes = service.events(game_id)
        assert [e.type for e in envelopes].count("PlayerResigned") == 1
