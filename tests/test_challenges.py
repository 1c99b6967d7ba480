"""Registered bots in games: challenges accepted, declined, timed out and auto-accepted, the account
event stream with its resume, and a registered webhook bot whose requests only its own secret signs."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from service.games import GameService, SeatSpec
from tests.conftest import Worker, wait_for

RANDOM = {"builtin": "random", "think_ms": 1}


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def register(client: Any, **body: Any) -> dict[str, Any]:
    made = client.post("/v1/bots", json={"name": "Challenger", "games": ["tictactoe"], "stream": True} | body)
    assert made.status_code == 201, made.json
    return dict(made.json)


def table(client: Any, bot_id: str, **options: Any) -> dict[str, Any]:
    body = {"game": "tictactoe", "seats": [{"name": "Ada"}, {"name": "Bot", "bot": {"id": bot_id}}], "options": options}
    made = client.post("/v1/games", json=body)
    assert made.status_code == 201, made.json
    return dict(made.json)


def move_as_human(client: Any, game: dict[str, Any]) -> Any:
    state = client.get(f"/v1/games/{game['id']}/legal-moves", headers=bearer(game["seats"][0]["token"]))
    moves = state.json.get("moves") if state.status_code == 200 else None
    square = moves[0] if moves else "a1"
    return client.post(
        f"/v1/games/{game['id']}/moves", json={"move": square}, headers=bearer(game["seats"][0]["token"])
    )


class TestChallenges:
    def test_a_seat_names_only_a_registered_bot_that_plays_the_game(self, client: Any) -> None:
        other = register(client, games=["homeworlds"])
        for seat_bot, says in (
            ({"id": "bot_0000000000000000"}, "no registered bot"),
            ({"id": other["id"]}, "does not play tictactoe"),
            ({"id": "robert"}, "names a registered bot by its id"),
            ({"id": "builtin-random"}, "names a registered bot by its id"),
            ({"id": other["id"], "builtin": "random"}, "exactly one of"),
        ):
            body = {"game": "tictactoe", "seats": [{"name": "Ada"}, {"name": "B", "bot": seat_bot}]}
            refused = client.post("/v1/games", json=body)
            assert refused.status_code == 422 and says in refused.json["error"]["message"], refused.json

    def test_nobody_moves_until_the_bot_accepts_then_the_game_starts(self, client: Any, service: GameService) -> None:
        bot = register(client)
        game = table(client, bot["id"])
        challenge = game["challenges"][0]
        assert challenge["id"] == f"chl_{game['id']}_1" and challenge["status"] == "pending"
        assert challenge["bot"] == bot["id"] and game["to_act"] == [] and game["seats"][1]["token"] is None
        early = move_as_human(client, game)
        assert early.status_code == 409 and early.json["error"]["code"] == "challenge_pending"

        assert client.post(f"/v1/challenges/{challenge['id']}/accept").status_code == 401
        stranger = register(client)
        forbidden = client.post(f"/v1/challenges/{challenge['id']}/accept", headers=bearer(stranger["api_key"]))
        assert forbidden.status_code == 403
        odd = (f"chl_{game['id']}_\u00b2", f"chl_{game['id']}_\u0661", "chl__1", "chl_" + "f" * 70 + "_1")
        for unknown in ("chl_ffffffffffffffff_1", "nonsense", f"chl_{game['id']}_0", f"chl_{game['id']}_7", *odd):
            missing = client.post(f"/v1/challenges/{unknown}/accept", headers=bearer(bot["api_key"]))
            assert missing.status_code == 404 and missing.json["error"]["code"] == "unknown_challenge", unknown

        for _ in range(2):
            accepted = client.post(f"/v1/challenges/{challenge['id']}/accept", headers=bearer(bot["api_key"]))
            assert accepted.status_code == 200 and accepted.json["started"] is True, accepted.json
        assert [e.type for e in service.events(game["id"])].count("ChallengeAccepted") == 1
        now = client.get(f"/v1/games/{game['id']}").json
        assert now["challenges"][0]["status"] == "accepted" and now["status"] == "active" and now["to_act"]
        assert service.store.bot_games(bot["id"]) == [game["id"]]
        late = client.post(f"/v1/challenges/{challenge['id']}/decline", headers=bearer(bot["api_key"]))
        assert late.status_code == 409 and late.json["error"]["code"] == "challenge_closed"

    def test_a_declined_challenge_cancels_the_game_for_good(self, client: Any, service: GameService) -> None:
        bot = register(client)
        game = table(client, bot["id"])
        cid = game["challenges"][0]["id"]
        declined = client.post(f"/v1/challenges/{cid}/decline", headers=bearer(bot["api_key"]))
        assert declined.status_code == 200 and declined.json["status"] == "cancelled"
        again = client.post(f"/v1/challenges/{cid}/decline", headers=bearer(bot["api_key"]))
        assert again.status_code == 200
        after = client.post(f"/v1/challenges/{cid}/accept", headers=bearer(bot["api_key"]))
        assert after.status_code == 409 and after.json["error"]["code"] == "challenge_closed"
        moved = move_as_human(client, game)
        assert moved.status_code == 409 and moved.json["error"]["code"] == "game_cancelled"

        shown = client.get(f"/v1/games/{game['id']}").json
        assert shown["status"] == "cancelled" and shown["challenges"][0]["status"] == "declined"
        listed = client.get("/v1/games?status=cancelled&game=tictactoe&limit=100").json["games"]
        assert game["id"] in [g["id"] for g in listed]
        record = service.score(game["id"])
        types = [e.type for e in service.events(game["id"])]
        assert record.scored is None and "GameScored" not in types and "RatingsUpdated" not in types
        assert types[-2:] == ["ChallengeDeclined", "GameCancelled"]
        assert service.verify(game["id"]).ok

    def test_a_live_stream_of_a_cancelled_game_ends(self, live_server: str) -> None:
        bot = http_register(live_server)
        game = http_table(live_server, bot["id"])
        stream = requests.get(f"{live_server}/v1/games/{game['id']}/stream?heartbeat=1", stream=True, timeout=30)
        declined = requests.post(
            f"{live_server}/v1/challenges/{game['challenges'][0]['id']}/decline",
            headers=bearer(bot["api_key"]),
            timeout=10,
        )
        assert declined.status_code == 200
        frames = list(stream.iter_lines(decode_unicode=True))
        assert "event: end" in frames and any("GameCancelled" in f for f in frames)

    def test_an_unanswered_challenge_times_out(self, memory_app: Any) -> None:
        # On a store of its own: the session's worker sweeps the Redis namespace, and could expire it first.
        client, service = memory_app.test_client(), memory_app.extensions["orrery.service"]
        bot = register(client)
        game = table(client, bot["id"], challenge_timeout_s=1)
        assert service.expire_challenges(game["id"]) is None
        time.sleep(1.05)
        record = service.expire_challenges(game["id"])
        assert record is not None and record.cancelled is not None and record.cancelled.reason == "timeout"
        assert client.get(f"/v1/games/{game['id']}").json["challenges"][0]["status"] == "timeout"

    def test_the_worker_cancels_a_timed_out_challenge_by_itself(
        self, client: Any, worker: Worker, service: GameService
    ) -> None:
        bot = register(client)
        game = table(client, bot["id"], challenge_timeout_s=1)
        wait_for(lambda: service.head(game["id"]).cancelled is not None, timeout=15)
        assert client.get(f"/v1/games/{game['id']}").json["status"] == "cancelled"

    def test_auto_accept_plays_up_to_its_limit_and_declines_past_it(
        self, client: Any, worker: Worker, service: GameService
    ) -> None:
        bot = register(client, auto_accept={"games": ["tictactoe"], "max_concurrent": 1})
        first = table(client, bot["id"])
        assert first["challenges"][0]["status"] == "accepted" and first["to_act"]
        accepted = [e for e in service.events(first["id"]) if e.type == "ChallengeAccepted"]
        assert accepted[0].payload["auto"] is True
        second = table(client, bot["id"])
        assert second["status"] == "cancelled" and second["challenges"][0]["status"] == "busy"
        tokens = {0: first["seats"][0]["token"], 1: service.store.secret(first["id"], "token:1")}
        while not service.head(first["id"]).closed:
            seat = min(service.head(first["id"]).to_act())
            moves = client.get(f"/v1/games/{first['id']}/legal-moves", headers=bearer(tokens[seat])).json["moves"]
            played = client.post(
                f"/v1/games/{first['id']}/moves", json={"move": moves[0]}, headers=bearer(tokens[seat])
            )
            assert played.status_code == 201, played.json
        wait_for(lambda: service.store.bot_games(bot["id"]) == [], timeout=30)
        third = table(client, bot["id"])
        assert third["challenges"][0]["status"] == "accepted"

    def test_a_challenge_a_policy_answers_is_never_open_in_the_stored_game(
        self, client: Any, service: GameService, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        bot = register(client, auto_accept={"games": ["tictactoe"], "max_concurrent": 1})
        stored: list[list[str]] = []
        create = service.store.create

        def recording(game_id: str, *args: Any, **kwargs: Any) -> Any:
            stored.append([e.type for e in args[2]])
            return create(game_id, *args, **kwargs)

        monkeypatch.setattr(service.store, "create", recording)
        first = table(client, bot["id"])
        assert first["challenges"][0]["status"] == "accepted" and first["to_act"]
        assert stored[0][-1] == "ChallengeAccepted" and stored[0].count("ChallengeAccepted") == 1
        assert service.store.bot_games(bot["id"]) == [first["id"]]

        second = table(client, bot["id"])
        assert second["status"] == "cancelled" and second["challenges"][0]["status"] == "busy"
        assert stored[1][-2:] == ["ChallengeDeclined", "GameCancelled"] and "ChallengeAccepted" not in stored[1]
        assert service.store.meta(second["id"]).status == "cancelled"
        assert service.store.bot_games(bot["id"]) == [first["id"]]

    def test_a_game_the_store_refuses_releases_the_bot_games_its_policies_claimed(
        self, client: Any, service: GameService, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        bot = register(client, auto_accept={"games": ["tictactoe"], "max_concurrent": 1})

        def refusing(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionError("the store went away")

        monkeypatch.setattr(service.store, "create", refusing)
        with pytest.raises(ConnectionError):
            service.create("tictactoe", [SeatSpec("Ada"), SeatSpec("Bot", {"id": bot["id"]})], {})
        assert service.store.bot_games(bot["id"]) == []

    def test_a_fork_challenges_the_bot_again_and_never_carries_its_consent_over(
        self, client: Any, service: GameService
    ) -> None:
        bot = register(client)
        game = table(client, bot["id"], secret_squares=False)
        cid = game["challenges"][0]["id"]
        assert client.post(f"/v1/challenges/{cid}/accept", headers=bearer(bot["api_key"])).status_code == 200
        creator = bearer(game["creator_token"])
        past = client.post(f"/v1/games/{game['id']}/fork", json={"at_turn": 1}, headers=creator)
        assert past.status_code == 409 and past.json["error"]["code"] == "fork_unavailable", past.json
        again = client.post(f"/v1/games/{game['id']}/fork", json={"at_turn": 0}, headers=creator)
        assert again.status_code == 201, again.json
        assert again.json["challenges"][0]["status"] == "pending" and again.json["to_act"] == []
        assert service.verify(again.json["id"]).ok

    def test_a_registered_seat_token_does_not_open_a_seat_stream(self, client: Any, service: GameService) -> None:
        bot = register(client)
        game = table(client, bot["id"])
        token = service.store.secret(game["id"], "token:1")
        assert token
        refused = client.get("/v1/bots/stream", headers=bearer(token))
        assert refused.status_code == 409 and refused.json["error"]["code"] == "registered_bot_seat"

    def test_a_rated_game_needs_two_rated_players(self, client: Any) -> None:
        body = {
            "game": "tictactoe",
            "seats": [{"name": "Ada"}, {"name": "R", "bot": RANDOM}],
            "options": {"rated": True},
        }
        refused = client.post("/v1/games", json=body)
        assert refused.status_code == 422 and "two different rated players" in refused.json["error"]["message"]
        self_play = body | {"seats": [{"name": "R1", "bot": RANDOM}, {"name": "R2", "bot": RANDOM}]}
        assert client.post("/v1/games", json=self_play).status_code == 422
        two = body | {
            "seats": [{"name": "R1", "bot": RANDOM}, {"name": "S", "bot": {"builtin": "slow", "think_ms": 1}}]
        }
        assert client.post("/v1/games", json=two).status_code == 201


def lines(response: requests.Response) -> Iterator[dict[str, Any]]:
    for line in response.iter_lines(decode_unicode=True):
        if line:
            yield json.loads(line)


def next_of(reader: Iterator[dict[str, Any]], kind: str) -> dict[str, Any]:
    for message in reader:
        if message["type"] == kind:
            return message
        assert message["type"] in ("heartbeat", "turn", "challenge", "gameStart", "gameFinish"), message
    raise AssertionError(f"the stream ended before a {kind}")


def open_stream(live_server: str, key: str, **params: str) -> requests.Response:
    query = "&".join(f"{k}={v}" for k, v in (params | {"heartbeat": "1"}).items())
    stream = requests.get(f"{live_server}/v1/bots/me/events?{query}", headers=bearer(key), stream=True, timeout=30)
    assert stream.status_code == 200, stream.text
    return stream


def http_register(live_server: str, **body: Any) -> dict[str, Any]:
    made = requests.post(
        f"{live_server}/v1/bots", json={"name": "Streamer", "games": ["tictactoe"], "stream": True} | body, timeout=10
    )
    assert made.status_code == 201, made.text
    return dict(made.json())


def http_table(live_server: str, bot_id: str, opponent: dict[str, Any] | None = None) -> dict[str, Any]:
    seats = [{"name": "Other", "bot": opponent}, {"name": "Bot", "bot": {"id": bot_id}}]
    made = requests.post(f"{live_server}/v1/games", json={"game": "tictactoe", "seats": seats}, timeout=10)
    assert made.status_code == 201, made.text
    return dict(made.json())


class TestAccountStream:
    def test_a_bot_is_challenged_accepts_plays_and_hears_the_end_on_one_stream(
        self, live_server: str, worker: Worker, service: GameService
    ) -> None:
        bot = http_register(live_server)
        stream = open_stream(live_server, bot["api_key"])
        reader = lines(stream)
        game = http_table(live_server, bot["id"], RANDOM)
        challenge = next_of(reader, "challenge")
        assert challenge["challenge"]["game_id"] == game["id"] and challenge["challenge"]["seat"] == 1
        assert challenge["cursor"] and challenge["challenge"]["accept_url"].startswith(live_server)
        accepted = requests.post(challenge["challenge"]["accept_url"], headers=bearer(bot["api_key"]), timeout=10)
        assert accepted.status_code == 200 and accepted.json()["started"]
        start = next_of(reader, "gameStart")
        token = start["game"]["token"]
        assert start["game"]["id"] == game["id"] and token
        turns = set()
        while True:
            message = next(reader)
            if message["type"] == "gameFinish":
                break
            if message["type"] != "turn":
                assert message["type"] == "heartbeat", message
                continue
            assert message["token"] == token and message["game_id"] == game["id"] and message["id"] not in turns
            turns.add(message["id"])
            played = requests.post(
                message["moves_url"],
                headers=bearer(token),
                json={"move": message["legal_moves"][0], "expected_version": message["version"]},
                timeout=10,
            )
            assert played.status_code == 201, played.text
        stream.close()
        assert message["game"]["id"] == game["id"] and message["game"]["status"] == "finished"
        assert message["game"]["result"]["scored"] is True and turns
        assert service.store.bot_games(bot["id"]) == []

    def test_the_stream_resumes_after_its_last_cursor_without_loss_or_repeat(
        self, live_server: str, worker: Worker, service: GameService
    ) -> None:
        bot = http_register(live_server)
        first = http_table(live_server, bot["id"])
        wait_for(lambda: service.store.inbox_bounds(f"bot:{bot['id']}")[0], timeout=15)
        stream = open_stream(live_server, bot["api_key"])
        opening = next_of(lines(stream), "challenge")
        assert opening["challenge"]["game_id"] == first["id"] and "cursor" not in opening
        stream.close()
        second = http_table(live_server, bot["id"])
        stream = open_stream(live_server, bot["api_key"])
        reader = lines(stream)
        seen = [next_of(reader, "challenge")["challenge"]["game_id"] for _ in range(2)]
        assert seen == [first["id"], second["id"]]
        stream.close()

        live = open_stream(live_server, bot["api_key"])
        reader = lines(live)
        next_of(reader, "challenge")
        next_of(reader, "challenge")
        third = http_table(live_server, bot["id"])
        streamed = next_of(reader, "challenge")
        assert streamed["challenge"]["game_id"] == third["id"]
        cursor = streamed["cursor"]
        live.close()
        missed = [http_table(live_server, bot["id"])["id"] for _ in range(2)]
        for how in ("query", "header"):
            if how == "query":
                resumed = open_stream(live_server, bot["api_key"], after=cursor)
            else:
                resumed = requests.get(
                    f"{live_server}/v1/bots/me/events?heartbeat=1",
                    headers=bearer(bot["api_key"]) | {"Last-Event-ID": cursor},
                    stream=True,
                    timeout=30,
                )
            got = []
            for message in lines(resumed):
                if message["type"] == "heartbeat":
                    break
                got.append(message)
            resumed.close()
            assert [m["type"] for m in got] == ["challenge", "challenge"], (how, got)
            assert sorted(m["challenge"]["game_id"] for m in got) == sorted(missed), (how, got)
            assert all(m["cursor"] > cursor for m in got)

    def test_a_cursor_the_stream_no_longer_holds_says_resync(
        self, live_server: str, worker: Worker, service: GameService
    ) -> None:
        bot = http_register(live_server)
        http_table(live_server, bot["id"])
        wait_for(lambda: service.store.inbox_bounds(f"bot:{bot['id']}")[0], timeout=15)
        stream = open_stream(live_server, bot["api_key"], after="1-0")
        assert next(lines(stream))["type"] == "resync"
        stream.close()
        for cursor in ("yesterday", "\u0661\u0662-0", "1-"):
            bad = requests.get(
                f"{live_server}/v1/bots/me/events", params={"after": cursor}, headers=bearer(bot["api_key"]), timeout=10
            )
            assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request", cursor
        anonymous = requests.get(f"{live_server}/v1/bots/me/events", timeout=10)
        assert anonymous.status_code == 401

    def test_a_second_connection_closes_the_first(self, live_server: str) -> None:
        bot = http_register(live_server)
        first = open_stream(live_server, bot["api_key"])
        reader = lines(first)
        assert next(reader)["type"] == "heartbeat"
        second = open_stream(live_server, bot["api_key"])
        closed = wait_for(lambda: next(m for m in reader if m["type"] == "closed"), timeout=10)
        assert closed["reason"]
        first.close()
        second.close()


class Receiver:
    """A registered webhook bot's endpoint: accepts challenges in its answer and plays the first legal move."""

    def __init__(self) -> None:
        self.seen: list[tuple[dict[str, str], bytes]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                owner.seen.append(({k.lower(): v for k, v in self.headers.items()}, raw))
                body = json.loads(raw)
                answer = {"accept": True} if body["type"] == "challenge" else {"move": body["legal_moves"][0]}
                data = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/bot"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver()
    yield made
    made.server.shutdown()


def test_a_registered_webhook_bot_is_signed_for_with_its_own_secret_only(
    live_server: str, worker: Worker, service: GameService, receiver: Receiver
) -> None:
    mine = http_register(live_server, stream=False, webhook=receiver.url)
    other = http_register(live_server, stream=False, webhook=receiver.url)
    assert mine["webhook_secret"] != other["webhook_secret"]
    game = http_table(live_server, mine["id"], RANDOM)
    record = wait_for(lambda: (r := service.head(game["id"])).scored is not None and r, timeout=60)
    assert record.started and record.outcome is not None
    kinds = [json.loads(raw)["type"] for _, raw in receiver.seen]
    assert kinds[0] == "challenge" and "turn" in kinds
    for headers, raw in receiver.seen:
        Webhook(mine["webhook_secret"]).verify(raw, headers)
        with pytest.raises(WebhookVerificationError):
            Webhook(other["webhook_secret"]).verify(raw, headers)
    accepted = [e for e in service.events(game["id"]) if e.type == "ChallengeAccepted"]
    assert len(accepted) == 1 and accepted[0].payload["bot"] == mine["id"]
