"""A seat's move from the process that holds its game: one store call, the guarded append, and every other case
answered as a move read from the store would be (on Redis, with two services standing for two API processes)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.contract import IllegalMoveError
from domain.table.verify import verify
from events.store import EventStore, RateCount, RateWindow, RedisStore
from service.games import GameNotFound, GameService, RateCheck, SeatSpec, StaleVersion

SEATS = [SeatSpec("Ada"), SeatSpec("Bob")]
READS = ("glance", "take_rate_and_glance", "meta", "read", "sealed_seed", "snapshot", "prior_result", "role_of")


class Spy:
    """Counts the calls a store gets, by method."""

    def __init__(self, store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        for name in (*READS, "append"):
            original = getattr(store, name)
            monkeypatch.setattr(store, name, self._counted(name, original))

    def _counted(self, name: str, original: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            return original(*args, **kwargs)

        return counted


class Limits:
    """A move's rate windows, as the API hands them over, with every answer the service settles."""

    def __init__(self, owner: str, limit: int = 100) -> None:
        self.window = RateWindow(owner, f"moves/{limit}/60", limit, 60_000)
        self.settled: list[list[RateCount]] = []

    def check(self, member: str) -> RateCheck:
        def settle(counts: list[RateCount]) -> None:
            self.settled.append(counts)
            if not all(c.allowed for c in counts):
                raise RuntimeError("rate limited")

        return RateCheck([self.window], member, settle)


@pytest.fixture()
def processes(service: GameService) -> tuple[GameService, GameService]:
    """Two services on one Redis store, as two API processes are."""
    return GameService(service.store), GameService(service.store)


def test_every_move_of_a_game_held_here_is_one_store_call(
    processes: tuple[GameService, GameService], monkeypatch: pytest.MonkeyPatch
) -> None:
    here, _ = processes
    created = here.create("tictactoe", SEATS, {"secret_squares": False})
    game_id = created.record.game_id
    limits = Limits(f"token:{game_id}")
    spy = Spy(here.store, monkeypatch)
    seat = min(created.record.to_act())
    for n, square in enumerate(("a1", "a2", "b1", "b2", "c1")):
        spy.calls.clear()
        result = here.submit_with_token(game_id, created.seat_tokens[seat], square, rate=limits.check(f"m{n}"))
        assert spy.calls == ["append"], f"move {n + 1} called {spy.calls}"
        assert result.seat == seat and not result.duplicate
        seat = 1 - seat
    assert result.record.over and [e.type for e in result.events][-1] == "SeedRevealed"
    assert len(limits.settled) == 5 and all(c[0].allowed for c in limits.settled)
    assert [c[0].remaining for c in limits.settled] == [99, 98, 97, 96, 95]
    monkeypatch.undo()
    stored = here.store.read(game_id)
    assert verify(stored).ok, "the game's log, with the seed the process held, verifies"


def test_a_game_another_process_moved_is_read_again_and_the_move_counted_once(
    processes: tuple[GameService, GameService],
) -> None:
    here, there = processes
    created = here.create("tictactoe", SEATS, {"secret_squares": False})
    game_id = created.record.game_id
    limits = Limits(f"token:{game_id}")
    first = min(created.record.to_act())
    here.submit_with_token(game_id, created.seat_tokens[first], "a1", rate=limits.check("m1"))
    there.submit_with_token(game_id, created.seat_tokens[1 - first], "b2", rate=limits.check("m2"))
    made = here.submit_with_token(game_id, created.seat_tokens[first], "c3", rate=limits.check("m3"))
    assert made.record.version == here.head(game_id).version == there.head(game_id).version
    assert [e.type for e in here.store.read(game_id)][-2:] == ["MoveMade", made.events[-1].type]
    assert [c[0].remaining for c in limits.settled] == [99, 98, 97], "each move counted once"
    again = here.submit_with_token(game_id, created.seat_tokens[1 - first], "c1", rate=limits.check("m4"))
    assert again.record.version == made.record.version + len(again.events)


def test_a_refused_move_is_answered_from_the_store_and_counted_once(
    processes: tuple[GameService, GameService],
) -> None:
    here, _ = processes
    created = here.create("tictactoe", SEATS, {"secret_squares": False})
    game_id = created.record.game_id
    limits = Limits(f"token:{game_id}")
    seat = min(created.record.to_act())
    here.submit_with_token(game_id, created.seat_tokens[seat], "a1", rate=limits.check("m1"))
    version = here.head(game_id).version
    with pytest.raises(IllegalMoveError, match="taken"):
        here.submit_with_token(game_id, created.seat_tokens[1 - seat], "a1", rate=limits.check("m2"))
    with pytest.raises(StaleVersion):
        here.submit_with_token(
            game_id, created.seat_tokens[1 - seat], "b1", expected_version=version - 1, rate=limits.check("m3")
        )
    assert here.store.meta(game_id).version == version
    assert [c[0].remaining for c in limits.settled] == [99, 98, 97]


def test_a_full_rate_window_refuses_the_move_and_writes_nothing(
    processes: tuple[GameService, GameService],
) -> None:
    here, _ = processes
    created = here.create("tictactoe", SEATS, {"secret_squares": False})
    game_id = created.record.game_id
    limits = Limits(f"token:{game_id}", limit=1)
    seat = min(created.record.to_act())
    here.submit_with_token(game_id, created.seat_tokens[seat], "a1", rate=limits.check("m1"))
    version = here.store.meta(game_id).version
    with pytest.raises(RuntimeError, match="rate limited"):
        here.submit_with_token(game_id, created.seat_tokens[1 - seat], "b1", rate=limits.check("m2"))
    assert here.store.meta(game_id).version == version and len(here.store.read(game_id)) == version
    assert [c[0].allowed for c in limits.settled] == [True, False]


def test_a_game_gone_from_the_store_is_not_found_though_this_process_held_it(
    processes: tuple[GameService, GameService],
) -> None:
    here, _ = processes
    created = here.create("tictactoe", SEATS, {"secret_squares": False})
    game_id = created.record.game_id
    seat = min(created.record.to_act())
    assert isinstance(here.store, RedisStore)
    here.store.redis.delete(here.store.keys.game(game_id).meta)
    with pytest.raises(GameNotFound):
        here.submit_with_token(game_id, created.seat_tokens[seat], "a1", rate=Limits(f"token:{game_id}").check("m1"))


@pytest.mark.parametrize("path", ["", "/events", "/state"])
def test_a_read_of_a_game_this_process_holds_is_one_store_call(
    client: Any, service: GameService, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """The requester's viewer and the game's head come from the same read (``GameService.reading``)."""
    game = client.post("/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]}).json
    url = f"/v1/games/{game['id']}{path}"
    readers = {"spectator": {}, "seat": {"Authorization": f"Bearer {game['seats'][0]['token']}"}}
    spy = Spy(service.store, monkeypatch)
    for who, headers in readers.items():
        assert client.get(url, headers=headers).status_code == 200
        spy.calls.clear()
        assert client.get(url, headers=headers).status_code == 200
        assert spy.calls == (["glance", "read"] if path == "/events" else ["glance"]), f"{who}: {spy.calls}"
    wrong = client.get(url, headers={"Authorization": "Bearer not-a-token-of-this-game"})
    assert wrong.status_code == 401 and wrong.json["error"]["code"] == "unauthorized"
    unknown = client.get(f"/v1/games/{'0' * 16}{path}", headers=readers["seat"])
    assert unknown.status_code == 404
