"""The live-stream hub: one reader per followed game and process, shared by its subscribers,
with each stream's events once, in order, resumable, and as its viewer may see them."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from api.fanout import Hub, hub_for
from api.live import game_events
from domain.contract import Role, Viewer
from events.store import RedisStore
from service.games import GameService
from tests.conftest import wait_for
from tests.test_streams import SSE, create, ids, move

SQUARES = ("a1", "b2", "c3", "b1", "b3")


class Follower:
    """``game_events`` through a hub, read in a thread: the versions it yielded, in order."""

    def __init__(self, service: GameService, hub: Hub, game_id: str, viewer: Viewer, after: int = 0) -> None:
        self.frames = game_events(service, game_id, viewer, after, 1, hub=hub)
        self.versions: list[int] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for chunk in self.frames:
            self.versions.extend(int(line[4:]) for line in chunk.split("\n") if line.startswith("id: "))
            if self.stop.is_set():
                break
        self.frames.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        assert not self.thread.is_alive()


@pytest.fixture
def hub(service: GameService) -> Iterator[Hub]:
    yield Hub(service, block_ms=200)


def play(client: Any, game: dict[str, Any], squares: tuple[str, ...]) -> None:
    for square in squares:
        seat = client.get(f"/v1/games/{game['id']}", headers=bearer(game["seats"][0]["token"])).json["to_act"][0]
        response = client.post(
            f"/v1/games/{game['id']}/moves", json={"move": square}, headers=bearer(game["seats"][seat]["token"])
        )
        assert response.status_code == 201, response.json


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(client: Any, **options: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]} | options)
    assert response.status_code == 201, response.json
    return dict(response.json)


class TestOneReaderForManyStreams:
    def test_many_subscribers_get_every_event_once_in_order(self, client: Any, service: GameService, hub: Hub) -> None:
        game = new_game(client)
        followers = [Follower(service, hub, game["id"], Role.SPECTATOR) for _ in range(25)]
        wait_for(lambda: all(f.versions == [1, 2, 3, 4] for f in followers))
        feed = hub.feeds[game["id"]]
        assert list(hub.feeds) == [game["id"]] and feed.subscribers == 25
        play(client, game, SQUARES)
        final = service.head(game["id"]).version
        wait_for(lambda: all(f.versions == list(range(1, final + 1)) for f in followers))
        assert hub.feeds[game["id"]] is feed
        for f in followers:
            f.stop.set()
        for f in followers:
            f.close()

    def test_spectators_share_frames_and_each_seat_sees_its_own_secret(
        self, client: Any, service: GameService, hub: Hub
    ) -> None:
        game = new_game(client)
        with hub.follow(game["id"]) as feed:
            head = feed.head
            spectators = [list(feed.frames(head, Role.SPECTATOR, 0, head.version)) for _ in range(2)]
            seats = [list(feed.frames(head, seat, 0, head.version)) for seat in (0, 1)]
        assert all(a[1] is b[1] for a, b in zip(*spectators, strict=True))
        dealt = [[f for _, f in frames if "SecretSquareDealt" in f] for frames in seats]
        assert [['"redacted":false' in f for f in frames] for frames in dealt] == [[True, False], [False, True]]

    def test_a_resumed_stream_loses_nothing(self, live_server: str) -> None:
        game = create(live_server)
        url = f"{live_server}/v1/games/{game['id']}/stream?heartbeat=1"
        watching, first = SSE(url), SSE(url)
        wait_for(lambda: ids(first) == [1, 2, 3, 4])
        move(live_server, game, "a1")
        wait_for(lambda: ids(first) == [1, 2, 3, 4, 5, 6])
        first.close()
        move(live_server, game, "b2")
        move(live_server, game, "c3")
        resumed = SSE(url, {"Last-Event-ID": "6"})
        wait_for(lambda: ids(resumed) == [7, 8, 9, 10])
        move(live_server, game, "b1")
        wait_for(lambda: ids(resumed) == list(range(7, 13)) and ids(watching) == list(range(1, 13)))
        resumed.close()
        watching.close()


class TestNoReadPerEvent:
    def test_the_reader_folds_what_it_read_and_reads_the_game_no_more(
        self, client: Any, service: GameService, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A second service on the same store stands for another API process: once its followers have
        started, its only reads are the bucket's blocking waits, whatever the number of moves (and the
        spectator, held one event behind, needs no read either)."""
        other = GameService(RedisStore(service.store.redis, service.store.keys))
        hub = Hub(other, block_ms=200)
        game = new_game(client, options={"spectator_delay": 1})
        spectator, seat = Follower(other, hub, game["id"], Role.SPECTATOR), Follower(other, hub, game["id"], 0)
        wait_for(lambda: seat.versions == [1, 2, 3, 4] and spectator.versions == [1, 2, 3, 4])
        reads: list[str] = []

        def counted(name: str) -> Any:
            real = getattr(other.store, name)

            def call(*args: Any, **kwargs: Any) -> Any:
                reads.append(name)
                return real(*args, **kwargs)

            return call

        for name in ("glance", "meta", "read", "snapshot"):
            monkeypatch.setattr(other.store, name, counted(name))
        play(client, game, SQUARES)
        final = service.head(game["id"]).version
        wait_for(lambda: seat.versions == list(range(1, final + 1)))
        wait_for(lambda: spectator.versions == list(range(1, final)))
        assert reads == []
        assert hub.feeds[game["id"]].head == service.head(game["id"])
        spectator.close()
        seat.close()

    def test_advanced_is_the_head_and_a_gap_reads_the_game(self, client: Any, service: GameService) -> None:
        game = new_game(client)
        start = service.head(game["id"])
        play(client, game, ("a1", "b2"))
        after = service.store.read(game["id"], after=start.version)
        head = service.head(game["id"])
        assert service.advanced(start, after) == head
        assert service.advanced(start, after[1:]) == head
        assert service.advanced(start, []) is start
        assert service.advanced(head, after) is head

    def test_events_ready_together_go_out_in_one_chunk(self, client: Any, service: GameService, hub: Hub) -> None:
        game = new_game(client)
        play(client, game, ("a1", "b2"))
        frames = game_events(service, game["id"], Role.SPECTATOR, 0, 1, hub=hub)
        assert next(frames) == "retry: 2000\n\n"
        chunk = next(frames)
        frames.close()
        last = service.head(game["id"]).version
        assert [int(line[4:]) for line in chunk.split("\n") if line.startswith("id: ")] == list(range(1, last + 1))


class TestSpectatorDelay:
    def test_spectators_are_held_behind_on_a_shared_feed_and_seats_are_not(
        self, client: Any, service: GameService, hub: Hub
    ) -> None:
        game = new_game(client, options={"spectator_delay": 2})
        play(client, game, ("a1", "b1"))
        spectator = Follower(service, hub, game["id"], Role.SPECTATOR)
        seat = Follower(service, hub, game["id"], 0)
        wait_for(lambda: spectator.versions == [1, 2, 3, 4, 5, 6] and seat.versions == list(range(1, 9)))
        play(client, game, ("c1",))
        wait_for(lambda: seat.versions == list(range(1, 11)))
        wait_for(lambda: spectator.versions == list(range(1, 9)))
        assert hub.feeds[game["id"]].subscribers == 2
        spectator.close()
        seat.close()


class TestReaderLifetime:
    def test_the_reader_stops_when_its_last_subscriber_leaves(self, client: Any, hub: Hub) -> None:
        game = new_game(client)
        with hub.follow(game["id"]) as feed, hub.follow(game["id"]) as same:
            assert same is feed and feed.subscribers == 2 and feed.reader.is_alive()
        wait_for(lambda: not feed.reader.is_alive(), timeout=5)
        assert game["id"] not in hub.feeds
        with hub.follow(game["id"]) as fresh:
            assert fresh is not feed and fresh.reader.is_alive()
        wait_for(lambda: not fresh.reader.is_alive(), timeout=5)

    def test_one_hub_per_service(self, service: GameService) -> None:
        assert hub_for(service) is hub_for(service)


class TestOneReaderPerBucket:
    def test_games_of_a_bucket_share_a_reader_and_a_new_game_wakes_it(self, client: Any, service: GameService) -> None:
        from events.keys import bucket_of

        hub = Hub(service, block_ms=30_000)
        games: dict[int, list[dict[str, Any]]] = {}
        while not any(len(same) >= 3 for same in games.values()):
            game = new_game(client)
            games.setdefault(bucket_of(game["id"]), []).append(game)
        first, second, third = next(same for same in games.values() if len(same) >= 3)[:3]
        followers = [Follower(service, hub, first["id"], Role.SPECTATOR)]
        wait_for(lambda: followers[0].versions == [1, 2, 3, 4])
        reader = hub.feeds[first["id"]].reader
        followers += [Follower(service, hub, g["id"], Role.SPECTATOR) for g in (second, third)]
        wait_for(lambda: all(f.versions == [1, 2, 3, 4] for f in followers))
        assert {hub.feeds[g["id"]].reader for g in (first, second, third)} == {reader}
        assert list(hub.readers.values()).count(reader) == 1
        play(client, third, ("a1",))
        wait_for(lambda: followers[2].versions == [1, 2, 3, 4, 5, 6], timeout=5)
        play(client, second, ("a1", "b1"))
        wait_for(lambda: followers[1].versions == list(range(1, 9)), timeout=5)
        assert followers[0].versions == [1, 2, 3, 4]
        for f in followers:
            f.stop.set()
        for f in followers:
            f.close()


class TestReaderFailure:
    def test_a_store_error_ends_the_bucket_streams_and_the_next_follower_starts_afresh(
        self, client: Any, service: GameService, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        import redis

        hub = Hub(service, block_ms=200)
        game = new_game(client)
        failing = True
        real = service.store.wait_many

        def flaky(*args: Any, **kwargs: Any) -> Any:
            if failing:
                raise redis.ConnectionError("the store went away")
            return real(*args, **kwargs)

        monkeypatch.setattr(service.store, "wait_many", flaky)
        with hub.follow(game["id"]) as feed:
            wait_for(lambda: feed.error is not None, timeout=5)
            with pytest.raises(redis.ConnectionError):
                feed.wait(feed.head.version, timeout=1)
            assert game["id"] not in hub.feeds
        failing = False
        follower = Follower(service, hub, game["id"], Role.SPECTATOR)
        wait_for(lambda: follower.versions == [1, 2, 3, 4])
        play(client, game, ("a1",))
        wait_for(lambda: follower.versions == [1, 2, 3, 4, 5, 6], timeout=5)
        follower.close()
