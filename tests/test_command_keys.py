"""Idempotency keys: a client's keys live in its seat's own namespace, and no client key can
stop the server's own commands (scoring, bot turns, deadlines). Every retry loop is bounded."""

from __future__ import annotations

import time
from typing import Any

import pytest

import service.games as service_module
from events.keys import Keyspace
from events.store import RedisStore, VersionConflict
from service.games import GameService, SeatSpec, StaleVersion
from tests.conftest import NAMESPACE, Worker, wait_for
from tests.support.seeds import strong_seed

HUMANS = [SeatSpec("Ada"), SeatSpec("Bob")]
RANDOM = {"builtin": "random", "think_ms": 1}
SERVER_LOOKALIKES = ("game-scored", "server:game-scored", "server:bot:1:4", "client:1:k", "timeout:4", "bot:1:4")


@pytest.fixture
def idle(service: GameService) -> GameService:
    """A service on a namespace no worker relays, so a test alone decides when bots and timers act."""
    return GameService(RedisStore(service.store.redis, Keyspace(f"{NAMESPACE}-keys")))


def to_act(svc: GameService, game_id: str) -> int:
    record = svc.head(game_id)
    return min(record.game.to_act(record.state))


class TestScoringCannotBeStopped:
    @pytest.mark.timeout(30)
    @pytest.mark.parametrize("key", ["game-scored", "server:game-scored"])
    def test_a_move_keyed_like_scoring_does_not_stop_it(self, idle: GameService, key: str) -> None:
        game_id = idle.create("tictactoe", HUMANS, {}, strong_seed(f"scored-{key}")).record.game_id
        seat = to_act(idle, game_id)
        idle.submit(game_id, seat, "resign", idempotency_key=key)
        record = idle.score(game_id)
        assert record.scored is not None
        assert [e.type for e in idle.events(game_id)].count("GameScored") == 1

    @pytest.mark.timeout(30)
    def test_scoring_finishes_over_conflicting_entries(self, idle: GameService) -> None:
        game_id = idle.create("tictactoe", HUMANS, {}, strong_seed("conflicting")).record.game_id
        idle.submit(game_id, to_act(idle, game_id), "resign")
        junk = {name: f"{'f' * 64}|1|1" for name in ("game-scored", "server:game-scored", "server:score")}
        idle.store.redis.hset(idle.store.keys.game(game_id).idempotency, mapping=junk)
        assert idle.score(game_id).scored is not None
        assert idle.score(game_id).scored is not None
        assert [e.type for e in idle.events(game_id)].count("GameScored") == 1

    def test_the_worker_scores_a_game_whose_last_move_was_keyed_game_scored(
        self, client: Any, service: GameService, worker: Worker
    ) -> None:
        game = client.post("/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]}).json
        seat = game["to_act"][0]
        token = game["seats"][seat]["token"]
        moved = client.post(
            f"/v1/games/{game['id']}/moves",
            json={"move": "resign"},
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "game-scored"},
        )
        assert moved.status_code == 201, moved.json
        wait_for(lambda: service.head(game["id"]).scored is not None, timeout=30)


class TestBotTurnsAndDeadlinesCannotBeStopped:
    def test_a_human_move_keyed_like_the_bots_turn_does_not_stop_the_bot(self, idle: GameService) -> None:
        created = idle.create("tictactoe", [SeatSpec("Ada"), SeatSpec("Bot", RANDOM)], {}, strong_seed("bot-key"))
        game_id = created.record.game_id
        if to_act(idle, game_id) == 1:
            first = idle.bot_move(game_id, 1, idle.head(game_id).version)
            assert first is not None
        before = idle.head(game_id).version
        bot_version = before + 2
        record = idle.head(game_id)
        square = next(iter(record.game.legal_moves(record.state, 0)))
        idle.submit(game_id, 0, square, idempotency_key=f"bot:1:{bot_version}")
        assert idle.head(game_id).version == bot_version
        moved = idle.bot_move(game_id, 1, bot_version)
        assert moved is not None and not moved.duplicate
        assert moved.events[0].type == "MoveMade" and moved.events[0].seat == 1

    def test_a_move_keyed_like_a_timeout_does_not_stop_the_deadline(self, idle: GameService) -> None:
        created = idle.create("tictactoe", HUMANS, {"move_deadline_s": 60}, strong_seed("timeout-key"))
        game_id = created.record.game_id
        version_after = created.record.version + 2
        idle.submit(game_id, to_act(idle, game_id), "b2", idempotency_key=f"timeout:{version_after}")
        assert idle.head(game_id).version == version_after
        timed_out = idle.time_out(game_id, version_after)
        assert timed_out is not None
        assert "TurnTimedOut" in [e.type for e in timed_out.events]


class TestClientKeyNamespaces:
    def test_seat_1_may_use_a_key_that_seat_0_used(self, idle: GameService) -> None:
        game_id = idle.create("tictactoe", HUMANS, {}, strong_seed("two-seats")).record.game_id
        first_seat = to_act(idle, game_id)
        one = idle.submit(game_id, first_seat, "a1", idempotency_key="same-key")
        two = idle.submit(game_id, 1 - first_seat, "b1", idempotency_key="same-key")
        assert not one.duplicate and not two.duplicate
        assert two.record.version == one.record.version + 2

    def test_a_retry_by_the_same_seat_still_returns_the_first_result(self, idle: GameService) -> None:
        game_id = idle.create("tictactoe", HUMANS, {}, strong_seed("retry")).record.game_id
        seat = to_act(idle, game_id)
        first = idle.submit(game_id, seat, "a1", idempotency_key="k")
        again = idle.submit(game_id, seat, "a1", idempotency_key="k")
        assert again.duplicate and [e.version for e in again.events] == [e.version for e in first.events]

    def test_client_keys_are_stored_under_the_seat(self, idle: GameService) -> None:
        game_id = idle.create("tictactoe", HUMANS, {}, strong_seed("stored")).record.game_id
        seat = to_act(idle, game_id)
        idle.submit(game_id, seat, "a1", idempotency_key="game-scored")
        fields = {f.decode() for f in idle.store.redis.hkeys(idle.store.keys.game(game_id).idempotency)}
        assert fields == {f"client:{seat}:game-scored"}


class TestRetriesAreBoundedAndBackOff:
    def test_a_move_that_always_conflicts_gives_up(self, idle: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
        game_id = idle.create("tictactoe", HUMANS, {}, strong_seed("contended")).record.game_id
        seat = to_act(idle, game_id)
        calls: list[float] = []

        def always_conflicts(*args: Any, **kwargs: Any) -> Any:
            calls.append(time.monotonic())
            raise VersionConflict(idle.head(game_id).version)

        monkeypatch.setattr(service_module, "MAX_ATTEMPTS", 6)
        monkeypatch.setattr(idle.store, "append", always_conflicts)
        with pytest.raises(StaleVersion):
            idle.submit(game_id, seat, "a1")
        assert len(calls) == 6
        assert calls[-1] - calls[0] > 0.001, "attempts must be spread out by a backoff"

    def test_scoring_that_always_conflicts_gives_up_for_the_task_to_retry(
        self, idle: GameService, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        game_id = idle.create("tictactoe", HUMANS, {}, strong_seed("contended-score")).record.game_id
        idle.submit(game_id, to_act(idle, game_id), "resign")
        calls: list[int] = []

        def always_conflicts(*args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            raise VersionConflict(idle.head(game_id).version)

        monkeypatch.setattr(service_module, "SCORE_ATTEMPTS", 4)
        monkeypatch.setattr(idle.store, "append", always_conflicts)
        with pytest.raises(StaleVersion):
            idle.score(game_id)
        assert len(calls) == 4
