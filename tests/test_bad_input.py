"""Bad input never produces a 500: each attack gets a 4xx in the error shape and appends nothing.

Every test here replays an attack that once ended in a server error (or a
garbled connection), and checks the status, the error shape with its code,
and that no game was created and no event appended.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from api.schemas import MAX_MOVE_CHARS
from domain.homeworlds.position import MAX_NAME_LENGTH
from service.games import GameService
from service.json_guard import MAX_DEPTH, MAX_STRING_CHARS, loads, nesting_depth
from tests.conftest import on_memory, served_api

app, service = on_memory()
"""Neither Redis nor a worker is needed here: the app and its service run over an in-memory store."""

DEEP = 20_000
HUGE_INT = "9" * 5000


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: Any, game: str = "homeworlds", **extra: Any) -> dict[str, Any]:
    body = {"game": game, "seats": [{"name": "Ada"}, {"name": "Bob"}]} | extra
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.json


def mover_token(game: dict[str, Any]) -> str:
    return game["seats"][game["to_act"][0]]["token"]


def error_of(response: Any, status: int, code: str) -> dict[str, Any]:
    """The error of ``response``, which must be ``status`` with ``code`` in the one error shape."""
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    body = response.json
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and len(body["error"]["message"]) > 10
    return body["error"]


def newest_games(service: GameService) -> list[tuple[int, str]]:
    return service.store.list_games(limit=3)


def stored(service: GameService, game_id: str) -> tuple[int, int]:
    """The version in the metadata and the number of stored events."""
    return service.store.meta(game_id).version, len(service.store.read(game_id))


def post_raw(client: Any, url: str, text: str, headers: dict[str, str] | None = None) -> Any:
    return client.post(url, data=text.encode(), content_type="application/json", headers=headers or {})


def create_raw(client: Any, service: GameService, text: str, status: int, code: str) -> dict[str, Any]:
    """POST ``text`` as a new game's body: it must fail with ``status`` and ``code`` and create nothing."""
    before = newest_games(service)
    error = error_of(post_raw(client, "/v1/games", text), status, code)
    assert newest_games(service) == before
    return error


def move_raw(client: Any, service: GameService, game: dict[str, Any], text: str, status: int, code: str) -> Any:
    """POST ``text`` as a move's body: it must fail with ``status`` and ``code`` and append nothing."""
    before = stored(service, game["id"])
    response = post_raw(client, f"/v1/games/{game['id']}/moves", text, auth(mover_token(game)))
    error = error_of(response, status, code)
    assert stored(service, game["id"]) == before
    return error


SEATS = '[{"name": "Ada"}, {"name": "Bob"}]'


def new_game_text(seats: str = SEATS, **fields: str) -> str:
    """A new game's body as JSON text, with ``fields`` (also JSON text) inserted as they are."""
    return '{"game": "homeworlds", "seats": ' + seats + "".join(f', "{k}": {v}' for k, v in fields.items()) + "}"


def move_text(move: str, **fields: str) -> str:
    """A move's body as JSON text, with the move and ``fields`` (JSON text) inserted as they are."""
    return '{"move": ' + move + "".join(f', "{k}": {v}' for k, v in fields.items()) + "}"


class TestLoneSurrogates:
    @pytest.mark.parametrize(
        ("text", "field"),
        [
            (new_game_text(seed='"\\udfff"'), "seed"),
            (new_game_text('[{"name": "\\udfff"}, {"name": "Bob"}]'), "seats[0].name"),
            (new_game_text('[{"name": "Ada"}, {"name": "B\\ud800b"}]'), "seats[1].name"),
        ],
    )
    def test_in_a_new_game(self, client: Any, service: GameService, text: str, field: str) -> None:
        error = create_raw(client, service, text, 400, "malformed_json")
        assert error["field"] == field and "surrogate" in error["message"]

    @pytest.mark.parametrize(
        "move", ['"\\udfff"', '[{"action": "pass", "x": "\\udfff"}]', '{"\\udfff": true}', '"sac \\ud83d"']
    )
    def test_in_a_move(self, client: Any, service: GameService, move: str) -> None:
        error = move_raw(client, service, create(client), move_text(move), 400, "malformed_json")
        assert error["field"].startswith("move")

    def test_a_surrogate_pair_is_a_character(self, client: Any, service: GameService) -> None:
        response = post_raw(client, "/v1/games", new_game_text('[{"name": "\\ud83d\\ude80"}, {"name": "B"}]'))
        assert response.status_code == 201 and response.json["seats"][0]["name"] == "\U0001f680"


class TestDeepNesting:
    @pytest.mark.parametrize("where", ["options", "bot"])
    def test_in_a_new_game(self, client: Any, service: GameService, where: str) -> None:
        deep = "[" * DEEP + "]" * DEEP
        seats = SEATS if where == "options" else '[{"name": "Ada"}, {"name": "Bob", "bot": {"builtin": ' + deep + "}}]"
        options = '{"x": ' + deep + "}" if where == "options" else "{}"
        text = new_game_text(seats, options=options)
        error = create_raw(client, service, text, 400, "malformed_json")
        assert error["message"] == f"The request body nests deeper than {MAX_DEPTH} levels."

    @pytest.mark.parametrize(("opening", "closing", "levels"), [("[", "]", DEEP), ('{"":', "}", DEEP // 2)])
    def test_in_a_move(self, client: Any, service: GameService, opening: str, closing: str, levels: int) -> None:
        text = move_text(opening * levels + "1" + closing * levels)
        move_raw(client, service, create(client), text, 400, "malformed_json")

    def test_the_limit_itself_is_fine(self) -> None:
        assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
        assert nesting_depth('{"a": "[[[[{{{{\\"[[[", "b": [[1]]}') == 3


class TestHugeNumbers:
    def test_a_5000_digit_option(self, client: Any, service: GameService) -> None:
        text = new_game_text(options='{"require_large_ship": ' + HUGE_INT + "}")
        error = create_raw(client, service, text, 400, "malformed_json")
        assert error["field"] == "options.require_large_ship" and "5000 digits" in error["message"]

    @pytest.mark.parametrize("number", [HUGE_INT, "-" + HUGE_INT, str(2**63), "NaN", "-Infinity", "1e999"])
    def test_in_a_move(self, client: Any, service: GameService, number: str) -> None:
        move_raw(client, service, create(client), move_text(f"[{number}]"), 400, "malformed_json")

    def test_a_huge_expected_version(self, client: Any, service: GameService) -> None:
        text = move_text('"pass"', expected_version=HUGE_INT)
        move_raw(client, service, create(client), text, 400, "malformed_json")


class TestBuiltinBotOfTheWrongType:
    @pytest.mark.parametrize("builtin", [["random"], {"name": "random"}, 7, None])
    def test_is_refused(self, client: Any, service: GameService, builtin: Any) -> None:
        body = {"game": "homeworlds", "seats": [{"name": "Ada"}, {"name": "Bob", "bot": {"builtin": builtin}}]}
        error = create_raw(client, service, json.dumps(body), 422, "invalid_request")
        assert error["field"] == "seats" and "seat 1" in error["message"]


class TestDeliveriesStart:
    @pytest.mark.parametrize("start", ["9223372036854775807", "1000000001", "99999999999999999999999"])
    def test_out_of_range(self, client: Any, start: str) -> None:
        game = create(client)
        response = client.get(f"/v1/games/{game['id']}/deliveries?start={start}", headers=auth(game["creator_token"]))
        error_of(response, 400, "invalid_body")

    def test_the_largest_start_reads_nothing(self, client: Any) -> None:
        game = create(client)
        response = client.get(
            f"/v1/games/{game['id']}/deliveries?start=1000000000&limit=1000", headers=auth(game["creator_token"])
        )
        assert response.status_code == 200 and response.json == {"deliveries": []}


class TestNumbersInQueriesAndHeaders:
    def test_a_list_cursor_of_5000_digits(self, client: Any) -> None:
        error = error_of(client.get(f"/v1/games?cursor={HUGE_INT}.ab"), 422, "invalid_request")
        assert error["field"] == "cursor"

    @pytest.mark.parametrize("last", ["\u00b2", HUGE_INT, "-1", "1" * 19])
    def test_a_last_event_id_that_is_no_version(self, client: Any, last: str) -> None:
        game = create(client)
        response = client.get(f"/v1/games/{game['id']}/stream", headers={"Last-Event-ID": last}, buffered=False)
        try:
            assert "Last-Event-ID" in error_of(response, 422, "invalid_request")["message"]
        finally:
            response.close()


class TestStateInsideTheDeal:
    """A state inside the deal was never a position of the game: 422 naming the range, as ``fork`` does."""

    @pytest.mark.parametrize("game_name", ["planet-unknown", "tictactoe"])
    def test_is_refused_with_the_valid_range(self, client: Any, service: GameService, game_name: str) -> None:
        game = create(client, game_name)
        first = 1 + service.head(game["id"]).created.setup_events
        assert first > 1
        for at in (1, first - 1):
            for headers in ({}, auth(game["seats"][0]["token"]), auth(game["creator_token"])):
                response = client.get(f"/v1/games/{game['id']}/state?at={at}", headers=headers)
                error = error_of(response, 422, "invalid_request")
                assert error["field"] == "at" and f"between {first} (the end of the deal) and" in error["message"]
        assert client.get(f"/v1/games/{game['id']}/state?at={first}").json["version"] == first

    def test_homeworlds_deals_nothing(self, client: Any, service: GameService) -> None:
        game = create(client)
        assert service.head(game["id"]).created.setup_events == 0
        assert client.get(f"/v1/games/{game['id']}/state?at=1").json["version"] == 1
        error_of(client.get(f"/v1/games/{game['id']}/state?at=2"), 422, "invalid_request")


class TestControlCharacters:
    @pytest.mark.parametrize("char", ["\x00", "\x07", "\x1f", "\x7f", "\x85", "\x9f", "\n", "\t"])
    def test_in_a_seat_name(self, client: Any, service: GameService, char: str) -> None:
        body = {"game": "homeworlds", "seats": [{"name": "Ada"}, {"name": f"B{char}b"}]}
        error = create_raw(client, service, json.dumps(body), 400, "invalid_body")
        assert error["field"] == "seats[1].name"
        assert error["message"] == f"seats[1].name contains a control character U+{ord(char):04X}."

    @pytest.mark.parametrize(
        ("move", "field"),
        [
            ("pass\x00", "move"),
            ([{"action": "homeworld", "stars": ["r1", "b2"], "ship": "g3", "name": "Ho\x00me"}], "move[0].name"),
            ({"resign": True, "note\x01": 1}, "move.note\\x01"),
            ([{"action": "pass", "x": ["ok", "b\x7fad"]}], "move[0].x[1]"),
        ],
    )
    def test_in_a_move(self, client: Any, service: GameService, move: Any, field: str) -> None:
        error = move_raw(client, service, create(client), json.dumps({"move": move}), 400, "invalid_body")
        assert error["field"] == field and "control character" in error["message"]


class TestOversizedValues:
    def test_seat_name(self, client: Any, service: GameService) -> None:
        body = {"game": "homeworlds", "seats": [{"name": "A" * 65}, {"name": "Bob"}]}
        error = create_raw(client, service, json.dumps(body), 400, "invalid_body")
        assert "seats" in error["fields"]

    def test_seed(self, client: Any, service: GameService) -> None:
        body = {"game": "homeworlds", "seats": [{"name": "Ada"}, {"name": "Bob"}], "seed": "s" * 257}
        error = create_raw(client, service, json.dumps(body), 400, "invalid_body")
        assert "seed" in error["fields"]

    def test_option_string(self, client: Any, service: GameService) -> None:
        body = {
            "game": "homeworlds",
            "seats": [{"name": "Ada"}, {"name": "Bob"}],
            "options": {"on_timeout": "x" * 3000},
        }
        error = create_raw(client, service, json.dumps(body), 400, "invalid_body")
        assert error["field"] == "options.on_timeout" and f"{MAX_STRING_CHARS}" in error["message"]

    def test_option_key(self, client: Any, service: GameService) -> None:
        body = {"game": "homeworlds", "seats": [{"name": "Ada"}, {"name": "Bob"}], "options": {"k" * 3000: 1}}
        error = create_raw(client, service, json.dumps(body), 400, "invalid_body")
        assert error["message"].startswith("the key options.")

    def test_webhook_url(self, client: Any, service: GameService) -> None:
        url = "https://bots.example.com/" + "p" * 3000
        body = {"game": "homeworlds", "seats": [{"name": "Ada"}, {"name": "Bob", "bot": {"webhook": url}}]}
        error = create_raw(client, service, json.dumps(body), 400, "invalid_body")
        assert error["field"] == "seats[1].bot.webhook"

    def test_move_text(self, client: Any, service: GameService) -> None:
        move_raw(client, service, create(client), json.dumps({"move": "pass " * 600}), 400, "invalid_body")

    def test_move_body(self, client: Any, service: GameService) -> None:
        move = [{"action": "pass"}] * (MAX_MOVE_CHARS // 10)
        error = move_raw(client, service, create(client), json.dumps({"move": move}), 400, "invalid_body")
        assert str(MAX_MOVE_CHARS) in error["message"]

    def test_idempotency_key(self, client: Any, service: GameService) -> None:
        game = create(client)
        before = stored(service, game["id"])
        headers = auth(mover_token(game)) | {"Idempotency-Key": "k" * 201}
        response = client.post(f"/v1/games/{game['id']}/moves", json={"move": "pass"}, headers=headers)
        assert error_of(response, 422, "invalid_request")["field"] == "Idempotency-Key"
        assert stored(service, game["id"]) == before

    @pytest.mark.parametrize("form", ["text", "json"])
    def test_homeworlds_system_name(self, client: Any, service: GameService, form: str) -> None:
        name = "N" * (MAX_NAME_LENGTH + 1)
        move: Any = f"homeworld r1 b2 g3 {name}"
        if form == "json":
            move = [{"action": "homeworld", "stars": ["r1", "b2"], "ship": "g3", "name": name}]
        error = move_raw(client, service, create(client), json.dumps({"move": move}), 422, "invalid_move")
        assert f"at most {MAX_NAME_LENGTH}" in error["message"]

    def test_homeworlds_system_name_at_the_limit(self, client: Any) -> None:
        game = create(client)
        move = f"homeworld r1 b2 g3 {'N' * MAX_NAME_LENGTH}"
        response = client.post(f"/v1/games/{game['id']}/moves", json={"move": move}, headers=auth(mover_token(game)))
        assert response.status_code == 201, response.json


# --- The API under gunicorn, as `orrery up` runs it ----------------------------------


@pytest.fixture(scope="module")
def gunicorn_api() -> Iterator[tuple[str, int]]:
    """``gunicorn_command()`` on a free port, with the test run's settings."""
    with served_api(dict(os.environ), workers=1) as served:
        yield served


def read_response(sock: socket.socket) -> tuple[bytes, dict[str, str], bytes]:
    """One HTTP/1.1 response with a Content-Length, read from a bare socket: status line, headers, body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed before a whole response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status, *lines = head.split(b"\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.decode().partition(":") for line in lines)}
    while len(body) < int(headers["content-length"]):
        chunk = sock.recv(65536)
        assert chunk, "the connection closed inside the body"
        body += chunk
    return status, headers, body


class TestUnderGunicorn:
    def test_a_10_kb_idempotency_key_gets_the_json_error(self, gunicorn_api: tuple[str, int]) -> None:
        url, _ = gunicorn_api
        game = requests.post(
            f"{url}/v1/games", json={"game": "homeworlds", "seats": [{"name": "A"}, {"name": "B"}]}, timeout=10
        ).json()
        headers = auth(mover_token(game)) | {"Idempotency-Key": "k" * 10_000}
        response = requests.post(
            f"{url}/v1/games/{game['id']}/moves", json={"move": "pass"}, headers=headers, timeout=10
        )
        assert response.status_code == 422 and response.json()["error"]["field"] == "Idempotency-Key"
        assert requests.get(f"{url}/v1/games/{game['id']}", timeout=10).json()["version"] == game["version"]

    @pytest.mark.parametrize("size", [70_000, 300_000, 1_000_000])
    def test_a_413_closes_the_connection_cleanly(self, gunicorn_api: tuple[str, int], size: int) -> None:
        _, port = gunicorn_api
        body = json.dumps({"game": "homeworlds", "seats": [{"name": "x" * size}, {"name": "B"}]}).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(
                b"POST /v1/games HTTP/1.1\r\nHost: api\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % len(body) + body
            )
            status, headers, answer = read_response(sock)
            assert status.startswith(b"HTTP/1.1 413 ")
            assert headers["connection"].lower() == "close"
            assert json.loads(answer)["error"]["code"] == "body_too_large"
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: api\r\n\r\n")
            assert sock.recv(65536) == b"", "after the 413 the server closes; it never answers on that socket"

    def test_a_session_goes_on_after_a_413(self, gunicorn_api: tuple[str, int]) -> None:
        url, _ = gunicorn_api
        with requests.Session() as session:
            assert session.get(f"{url}/healthz", timeout=10).status_code == 200
            big = {"game": "homeworlds", "seats": [{"name": "x" * 200_000}, {"name": "B"}]}
            response = session.post(f"{url}/v1/games", json=big, timeout=10)
            assert response.status_code == 413 and response.json()["error"]["code"] == "body_too_large"
            assert response.headers["Connection"].lower() == "close"
            for _ in range(3):
                assert session.get(f"{url}/healthz", timeout=10).status_code == 200
            small = {"game": "homeworlds", "seats": [{"name": "A"}, {"name": "B"}]}
            assert session.post(f"{url}/v1/games", json=small, timeout=10).status_code == 201


class TestWebhookBotAnswers:
    """A webhook bot's 200 answer is input too: it passes the same guard before its move is decided."""

    @pytest.mark.parametrize(
        "body",
        [
            b'{"move": "\\udfff"}',
            b'{"move": ' + b"[" * 20_000 + b"]" * 20_000 + b"}",
            b'{"move": ' + b"9" * 5000 + b"}",
            b'{"move": "a1\\u0000"}',
            b"not json",
        ],
        ids=["surrogate", "deep", "huge-int", "control", "not-json"],
    )
    def test_a_bad_answer_is_logged_as_an_error_and_appends_nothing(self, service: GameService, body: bytes) -> None:
        from service.games import SeatSpec
        from tests.support.seeds import strong_seed
        from workers.webhooks import _judge

        seats = [SeatSpec("a"), SeatSpec("b")]
        game_id = service.create("tictactoe", seats, {}, strong_seed("bot-answer")).record.game_id
        record = service.head(game_id)
        seat = min(record.game.to_act(record.state))
        response = requests.Response()
        response.status_code = 200
        response._content = body
        outcome, retry_after = _judge(service, game_id, seat, record.version, response)
        assert outcome.startswith("error: ") and retry_after is None
        assert service.head(game_id).version == record.version
