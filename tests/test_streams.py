"""Live streams over real HTTP: SSE for every viewer, resumed without gap or
duplicate; a bot seat's turn requests by pull; spectators held behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import requests

from service.games import GameService, token_hash
from tests.conftest import ROOT, Worker, wait_for


def create(live_server: str, **body: Any) -> dict[str, Any]:
    payload = {"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]} | body
    response = requests.post(f"{live_server}/v1/games", json=payload, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def move(live_server: str, game: dict[str, Any], square: str) -> None:
    seat_view = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    seat = requests.get(f"{live_server}/v1/games/{game['id']}", headers=seat_view, timeout=10).json()["to_act"][0]
    token = game["seats"][seat]["token"]
    response = requests.post(
        f"{live_server}/v1/games/{game['id']}/moves",
        json={"move": square},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert response.status_code == 201, response.text


class SSE:
    """Reads a stream in a thread, collecting frames."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.response = requests.get(url, headers=headers or {}, stream=True, timeout=30)
        assert self.response.status_code == 200, self.response.text
        assert self.response.headers["Content-Type"].startswith("text/event-stream")
        self.frames: list[dict[str, str]] = []
        self.comments = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        frame: dict[str, str] = {}
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line == "":
                    if frame:
                        self.frames.append(frame)
                    frame = {}
                elif line.startswith(":"):
                    self.comments += 1
                else:
                    key, _, value = line.partition(": ")
                    frame[key] = value
        except (requests.RequestException, AttributeError, OSError):
            return

    def events(self) -> list[dict[str, Any]]:
        return [json.loads(f["data"]) | {"_id": int(f["id"])} for f in self.frames if "id" in f]

    def close(self) -> None:
        self.response.close()


def ids(stream: SSE) -> list[int]:
    return [e["_id"] for e in stream.events()]


class TestGameStream:
    def test_events_arrive_in_order_and_resume_without_gap_or_duplicate(self, live_server: str) -> None:
        game = create(live_server)
        url = f"{live_server}/v1/games/{game['id']}/stream?heartbeat=1"
        first = SSE(url)
        wait_for(lambda: ids(first) == [1, 2, 3, 4])
        move(live_server, game, "a1")
        wait_for(lambda: ids(first) == [1, 2, 3, 4, 5, 6])
        events = first.events()
        assert [e["type"] for e in events[4:]] == ["MoveMade", "MarkPlaced"]
        assert all(e["_id"] == e["version"] for e in events)
        assert events[2]["redacted"] is True and "square" not in events[2]["payload"]
        first.close()
        move(live_server, game, "b2")
        resumed = SSE(url, {"Last-Event-ID": "5"})
        wait_for(lambda: ids(resumed) == [6, 7, 8])
        move(live_server, game, "c3")
        wait_for(lambda: ids(resumed) == [6, 7, 8, 9, 10])
        resumed.close()

    def test_each_seat_sees_its_own_secret(self, live_server: str) -> None:
        game = create(live_server)
        seat0 = SSE(
            f"{live_server}/v1/games/{game['id']}/stream?heartbeat=1",
            {"Authorization": f"Bearer {game['seats'][0]['token']}"},
        )
        wait_for(lambda: len(ids(seat0)) == 4)
        dealt = [e for e in seat0.events() if e["type"] == "SecretSquareDealt"]
        assert [e["redacted"] for e in dealt] == [False, True]
        seat0.close()

    def test_heartbeats_while_idle(self, live_server: str) -> None:
        game = create(live_server)
        stream = SSE(f"{live_server}/v1/games/{game['id']}/stream?heartbeat=1")
        wait_for(lambda: stream.comments >= 2, timeout=10)
        stream.close()

    def test_the_stream_ends_once_the_game_is_scored(self, live_server: str, worker: Worker) -> None:
        game = create(live_server)
        stream = SSE(f"{live_server}/v1/games/{game['id']}/stream?heartbeat=1")
        requests.post(
            f"{live_server}/v1/games/{game['id']}/moves",
            json={"move": "resign"},
            headers={"Authorization": f"Bearer {game['seats'][0]['token']}"},
            timeout=10,
        )
        wait_for(lambda: any(f.get("event") == "end" for f in stream.frames), timeout=30)
        assert [e["type"] for e in stream.events()][-1] == "GameScored"

    def test_a_bad_last_event_id(self, live_server: str) -> None:
        game = create(live_server)
        response = requests.get(
            f"{live_server}/v1/games/{game['id']}/stream", headers={"Last-Event-ID": "x"}, timeout=10
        )
        assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"


class TestSpectatorDelay:
    def test_spectators_are_held_behind_and_seats_are_not(self, live_server: str) -> None:
        game = create(live_server, options={"spectator_delay": 2})
        for square in ("a1", "b1"):
            move(live_server, game, square)
        spectator = requests.get(f"{live_server}/v1/games/{game['id']}", timeout=10).json()
        seat = requests.get(
            f"{live_server}/v1/games/{game['id']}",
            headers={"Authorization": f"Bearer {game['seats'][0]['token']}"},
            timeout=10,
        ).json()
        assert seat["version"] == 8 and spectator["version"] == 6
        events = requests.get(f"{live_server}/v1/games/{game['id']}/events", timeout=10).json()
        assert events["version"] == 6 and [e["version"] for e in events["events"]][-1] == 6
        too_far = requests.get(f"{live_server}/v1/games/{game['id']}/state?at=8", timeout=10)
        assert too_far.status_code == 422
        stream = SSE(f"{live_server}/v1/games/{game['id']}/stream?heartbeat=1")
        wait_for(lambda: ids(stream) == [1, 2, 3, 4, 5, 6])
        move(live_server, game, "c1")
        wait_for(lambda: ids(stream) == list(range(1, 9)))
        stream.close()


def lines(response: requests.Response) -> Iterator[dict[str, Any]]:
    for line in response.iter_lines(decode_unicode=True):
        if line:
            yield json.loads(line)


class TestBotStream:
    def test_a_webhook_seat_pulls_its_turns_and_a_new_stream_closes_the_old(
        self, live_server: str, worker: Worker, service: GameService
    ) -> None:
        game = create(
            live_server,
            seats=[
                {"name": "Pull", "bot": {"webhook": "http://127.0.0.1:9/unreachable"}},
                {"name": "R", "bot": {"builtin": "random", "think_ms": 1}},
            ],
        )
        token = service.store.secret(game["id"], "token:0")
        assert token is not None and service.store.redis.hget(service.store.keys.bot_tokens(), token_hash(token))
        headers = {"Authorization": f"Bearer {token}"}
        first = requests.get(f"{live_server}/v1/bots/stream?heartbeat=1", headers=headers, stream=True, timeout=30)
        assert first.status_code == 200
        reader = lines(first)
        turns = 0
        while turns < 2:
            message = next(reader)
            if message["type"] != "turn":
                assert message["type"] in ("heartbeat", "game_over")
                if message["type"] == "game_over":
                    break
                continue
            turns += 1
            assert message["id"] == f"msg_{game['id']}_{message['version']}_0" and message["token"] == token
            response = requests.post(
                f"{live_server}/v1/games/{game['id']}/moves",
                headers=headers,
                timeout=10,
                json={"move": message["legal_moves"][0], "expected_version": message["version"]},
            )
            assert response.status_code in (201, 423), response.text
        assert turns >= 1
        second = requests.get(f"{live_server}/v1/bots/stream?heartbeat=1", headers=headers, stream=True, timeout=30)
        assert second.status_code == 200
        closed = wait_for(lambda: next(m for m in reader if m["type"] in ("closed", "game_over")), timeout=15)
        assert closed["type"] in ("closed", "game_over")
        first.close()
        second.close()

    def test_a_pull_only_seat_plays_a_whole_game_with_the_token_its_creator_was_given(
        self, live_server: str, worker: Worker, service: GameService
    ) -> None:
        game = create(
            live_server,
            seats=[
                {"name": "Pull", "bot": {"stream": True}},
                {"name": "R", "bot": {"builtin": "random", "think_ms": 1}},
            ],
        )
        token = game["seats"][0]["token"]
        assert token and game["seats"][0]["bot"] == {"stream": True} and game["seats"][0]["webhook_secret"] is None
        public = requests.get(f"{live_server}/v1/games/{game['id']}", timeout=10).json()
        assert public["seats"][0]["bot"] == {"stream": True}
        headers = {"Authorization": f"Bearer {token}"}
        stream = requests.get(f"{live_server}/v1/bots/stream?heartbeat=1", headers=headers, stream=True, timeout=30)
        assert stream.status_code == 200
        turns = []
        for message in lines(stream):
            if message["type"] == "game_over":
                break
            if message["type"] != "turn":
                assert message["type"] == "heartbeat"
                continue
            turns.append(message)
            assert message["token"] == token and message["seat"] == 0 and not message["legal_moves_truncated"]
            assert message["moves_url"] == f"{live_server}/v1/games/{game['id']}/moves"
            response = requests.post(
                message["moves_url"],
                headers=headers,
                timeout=10,
                json={"move": message["legal_moves"][0], "expected_version": message["version"]},
            )
            assert response.status_code == 201, response.text
        stream.close()
        record = wait_for(lambda: (r := service.head(game["id"])).scored is not None and r, timeout=30)
        assert record.outcome is not None and len(turns) >= 2
        assert len({t["id"] for t in turns}) == len(turns)
        assert [e.seat for e in service.events(game["id"]) if e.type == "MarkPlaced"].count(0) == len(turns)
        log = requests.get(
            f"{live_server}/v1/games/{game['id']}/deliveries",
            headers={"Authorization": f"Bearer {game['creator_token']}"},
            timeout=10,
        ).json()["deliveries"]
        assert log == []

    def test_the_example_bot_pulls_a_homeworlds_game_to_its_end(
        self, live_server: str, worker: Worker, service: GameService
    ) -> None:
        game = create(
            live_server,
            game="homeworlds",
            seats=[
                {"name": "Pull", "bot": {"stream": True}},
                {"name": "G", "bot": {"builtin": "greedy", "think_ms": 50}},
            ],
        )
        bot = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "webhook_bot.py"), "--pull", live_server],
            env=os.environ | {"ORRERY_SEAT_TOKEN": game["seats"][0]["token"]},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert bot.returncode == 0, bot.stderr
        record = wait_for(lambda: (r := service.head(game["id"])).scored is not None and r, timeout=30)
        assert record.outcome is not None
        assert any(e.seat == 0 for e in service.events(game["id"]) if e.type != "GameCreated")

    def test_only_bot_tokens_open_a_bot_stream(self, live_server: str) -> None:
        game = create(live_server)
        response = requests.get(
            f"{live_server}/v1/bots/stream",
            headers={"Authorization": f"Bearer {game['seats'][0]['token']}"},
            timeout=10,
        )
        assert response.status_code == 401
