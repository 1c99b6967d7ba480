"""The JSON API over the test game: creation, reads, moves, and every error row."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from service.games import GameService
from tests.conftest import on_memory
from tests.support.seeds import strong_seed

app, service = on_memory()
"""Neither Redis nor a worker is needed here: the app and its service run over an in-memory store."""

FIXED_SEED = strong_seed("fixed-seed").decode()


def create(client: Any, **extra: Any) -> dict[str, Any]:
    body = {"game": "tictactoe", "seats": [{"name": "Ada"}, {"name": "Bob"}], "seed": FIXED_SEED} | extra
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.json
    return response.json


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def token_of(game: dict[str, Any], seat: int) -> str:
    return game["seats"][seat]["token"]


def mover(game: dict[str, Any]) -> int:
    return game["to_act"][0]


def play(client: Any, game: dict[str, Any], square: str, seat: int | None = None, **kw: Any) -> Any:
    seat = mover(game) if seat is None else seat
    return client.post(f"/v1/games/{game['id']}/moves", json={"move": square, **kw}, headers=auth(token_of(game, seat)))


def stored(service: GameService, game_id: str) -> tuple[int, int]:
    """The version in the metadata and the number of stored events."""
    return service.store.meta(game_id).version, len(service.store.read(game_id))


def error_of(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.json
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and len(body["error"]["message"]) > 10
    return body["error"]


class TestCreate:
    def test_created_game(self, client: Any) -> None:
        game = create(client)
        assert game["status"] == "active"
        assert game["version"] == 4
        assert game["to_act"] in ([0], [1])
        assert all(seat["token"] for seat in game["seats"])
        assert game["creator_token"]
        assert len(game["seed_sha256"]) == 64
        assert game["seed_sha256"] != hashlib.sha256(FIXED_SEED.encode()).hexdigest(), "the commitment is salted"

    def test_tokens_are_shown_only_once(self, client: Any) -> None:
        game = create(client)
        again = client.get(f"/v1/games/{game['id']}", headers=auth(token_of(game, 0))).json
        assert "token" not in json.dumps(again["seats"])
        assert game["creator_token"] not in json.dumps(again)

    def test_invalid_option(self, client: Any) -> None:
        response = client.post(
            "/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": {"x": 1}}
        )
        assert "secret_squares" in error_of(response, 422, "invalid_option")["message"]
        response = client.post(
            "/v1/games",
            json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": {"secret_squares": 3}},
        )
        error_of(response, 422, "invalid_option")

    def test_unknown_game_type_and_seat_count(self, client: Any) -> None:
        error_of(client.post("/v1/games", json={"game": "chess", "seats": [{"name": "a"}]}), 422, "invalid_request")
        error = error_of(
            client.post("/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}]}), 422, "invalid_request"
        )
        assert "2 to 2 seats" in error["message"]

    def test_malformed_create(self, client: Any) -> None:
        error_of(client.post("/v1/games", data="{", content_type="application/json"), 400, "malformed_json")
        error_of(client.post("/v1/games", json={"game": "tictactoe"}), 400, "invalid_body")
        error_of(client.post("/v1/games", json=["tictactoe"]), 400, "invalid_body")


class TestReads:
    def test_etag_and_not_modified(self, client: Any) -> None:
        game = create(client)
        first = client.get(f"/v1/games/{game['id']}")
        assert first.headers["ETag"] == '"4"'
        assert client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": '"4"'}).status_code == 304
        play(client, game, "a1")
        assert client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": '"4"'}).status_code == 200

    def test_events_after_and_state_at(self, client: Any) -> None:
        game = create(client)
        game = client.get(f"/v1/games/{game['id']}").json | {"seats": game["seats"]}
        for square in ("a1", "b2", "c3"):
            assert play(client, game, square).status_code == 201
            game = client.get(f"/v1/games/{game['id']}").json | {"seats": game["seats"]}
        events = client.get(f"/v1/games/{game['id']}/events?after=4").json
        assert [e["version"] for e in events["events"]] == [5, 6, 7, 8, 9, 10]
        assert [e["type"] for e in events["events"]] == ["MoveMade", "MarkPlaced"] * 3
        assert [e["payload"]["move"] for e in events["events"][::2]] == ["a1", "b2", "c3"]
        assert [e["payload"]["square"] for e in events["events"][1::2]] == [0, 4, 8]
        limited = client.get(f"/v1/games/{game['id']}/events?after=1&limit=2").json
        assert [e["version"] for e in limited["events"]] == [2, 3]
        at6 = client.get(f"/v1/games/{game['id']}/state?at=6").json
        assert at6["version"] == 6
        assert at6["state"]["board"] in (["X..", "...", "..."], ["O..", "...", "..."])
        error_of(client.get(f"/v1/games/{game['id']}/state?at=99"), 422, "invalid_request")

    def test_list_filters_and_pages(self, client: Any) -> None:
        ids = [create(client)["id"] for _ in range(3)]
        page = client.get("/v1/games?game=tictactoe&status=active&limit=2").json
        assert len(page["games"]) == 2 and page["next_cursor"]
        seen = [g["id"] for g in page["games"]]
        while page["next_cursor"]:
            page = client.get(f"/v1/games?game=tictactoe&status=active&limit=2&cursor={page['next_cursor']}").json
            seen += [g["id"] for g in page["games"]]
        assert len(seen) == len(set(seen))
        assert set(ids) <= set(seen)
        assert not set(ids) & {g["id"] for g in client.get("/v1/games?status=finished&limit=100").json["games"]}
        error_of(client.get("/v1/games?status=paused"), 400, "invalid_body")
        error_of(client.get("/v1/games?cursor=zzz"), 422, "invalid_request")

    def test_legal_moves(self, client: Any) -> None:
        game = create(client)
        seat = mover(game)
        moves = client.get(f"/v1/games/{game['id']}/legal-moves", headers=auth(token_of(game, seat))).json
        assert moves["moves"] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
        other = client.get(f"/v1/games/{game['id']}/legal-moves", headers=auth(token_of(game, 1 - seat))).json
        assert other["moves"] == []
        limited = client.get(f"/v1/games/{game['id']}/legal-moves?limit=3", headers=auth(token_of(game, seat))).json
        assert limited["moves"] == ["a1", "b1", "c1"] and limited["truncated"] is True
        error_of(client.get(f"/v1/games/{game['id']}/legal-moves"), 401, "unauthorized")


class TestMoveErrors:
    """Every error row of the moves endpoint: the status, the shape, and nothing appended."""

    def test_created_move(self, client: Any, service: GameService) -> None:
        game = create(client)
        response = play(client, game, "b2")
        assert response.status_code == 201
        assert response.json["version"] == 6
        assert [e["type"] for e in response.json["events"]] == ["MoveMade", "MarkPlaced"]
        assert stored(service, game["id"]) == (6, 6)

    def test_400_malformed_json(self, client: Any, service: GameService) -> None:
        game = create(client)
        response = client.post(
            f"/v1/games/{game['id']}/moves",
            data='{"move": ',
            content_type="application/json",
            headers=auth(token_of(game, mover(game))),
        )
        error_of(response, 400, "malformed_json")
        assert stored(service, game["id"]) == (4, 4)

    @pytest.mark.parametrize("body", [{}, {"mov": "a1"}, {"move": "a1", "expected_version": "4"}, {"move": None}])
    def test_400_invalid_body(self, client: Any, service: GameService, body: dict[str, Any]) -> None:
        game = create(client)
        response = client.post(f"/v1/games/{game['id']}/moves", json=body, headers=auth(token_of(game, mover(game))))
        error_of(response, 400, "invalid_body")
        assert stored(service, game["id"]) == (4, 4)

    def test_422_bad_idempotency_key(self, client: Any, service: GameService) -> None:
        game = create(client)
        response = client.post(
            f"/v1/games/{game['id']}/moves",
            json={"move": "a1"},
            headers=auth(token_of(game, mover(game))) | {"Idempotency-Key": "has spaces"},
        )
        error_of(response, 422, "invalid_request")
        assert stored(service, game["id"]) == (4, 4)

    @pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}])
    def test_401_missing_or_unknown_token(self, client: Any, service: GameService, headers: dict[str, str]) -> None:
        game = create(client)
        error_of(
            client.post(f"/v1/games/{game['id']}/moves", json={"move": "a1"}, headers=headers), 401, "unauthorized"
        )
        assert stored(service, game["id"]) == (4, 4)

    def test_401_token_of_another_game(self, client: Any, service: GameService) -> None:
        game, other = create(client), create(client)
        response = client.post(f"/v1/games/{game['id']}/moves", json={"move": "a1"}, headers=auth(token_of(other, 0)))
        error_of(response, 401, "unauthorized")
        assert stored(service, game["id"]) == (4, 4)

    def test_403_not_this_seats_turn(self, client: Any, service: GameService) -> None:
        game = create(client)
        error_of(play(client, game, "a1", seat=1 - mover(game)), 403, "not_your_turn")
        assert stored(service, game["id"]) == (4, 4)

    def test_403_creator_cannot_move(self, client: Any, service: GameService) -> None:
        game = create(client)
        response = client.post(
            f"/v1/games/{game['id']}/moves", json={"move": "a1"}, headers=auth(game["creator_token"])
        )
        error_of(response, 403, "forbidden")
        assert stored(service, game["id"]) == (4, 4)

    def test_404_unknown_game(self, client: Any) -> None:
        error_of(client.post("/v1/games/0000000000000000/moves", json={"move": "a1"}), 404, "unknown_game")
        error_of(client.get("/v1/games/0000000000000000"), 404, "unknown_game")
        error_of(client.get("/v1/games/0000000000000000/events"), 404, "unknown_game")

    def test_409_stale_version(self, client: Any, service: GameService) -> None:
        game = create(client)
        assert play(client, game, "a1", expected_version=4).status_code == 201
        game = client.get(f"/v1/games/{game['id']}").json | {"seats": game["seats"]}
        error = error_of(play(client, game, "b1", expected_version=4), 409, "stale_version")
        assert error["current_version"] == 6
        assert stored(service, game["id"]) == (6, 6)

    def test_409_idempotency_conflict_and_replay(self, client: Any, service: GameService) -> None:
        game = create(client)
        seat = mover(game)
        headers = auth(token_of(game, seat)) | {"Idempotency-Key": "turn-1"}
        url = f"/v1/games/{game['id']}/moves"
        first = client.post(url, json={"move": "a1"}, headers=headers)
        replay = client.post(url, json={"move": "a1"}, headers=headers)
        assert first.status_code == replay.status_code == 201
        assert replay.json["duplicate"] is True and replay.headers["Idempotent-Replayed"] == "true"
        assert replay.json["events"] == first.json["events"] and replay.json["version"] == 6
        assert stored(service, game["id"]) == (6, 6)
        error_of(client.post(url, json={"move": "b1"}, headers=headers), 409, "idempotency_conflict")
        assert stored(service, game["id"]) == (6, 6)

    def test_a_move_answer_is_what_its_schema_documents(self, client: Any) -> None:
        """The move view sends its answer without dumping it through ``MoveResult``: it must match it exactly."""
        from api.schemas import MoveResult

        game = create(client)
        headers = auth(token_of(game, mover(game))) | {"Idempotency-Key": "schema-1"}
        url = f"/v1/games/{game['id']}/moves"
        first = client.post(url, json={"move": "a1"}, headers=headers)
        replay = client.post(url, json={"move": "a1"}, headers=headers)
        assert replay.json["duplicate"] is True
        for response in (first, replay):
            assert response.status_code == 201 and response.mimetype == "application/json"
            assert MoveResult().validate(response.json) == {}
            assert MoveResult().dump(response.json) == response.json

    def test_a_finishing_move_reveals_the_seed_its_own_read_brought(
        self, client: Any, service: GameService, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A move reads the sealed seed with the game, so the move that finishes it needs no read of its own."""
        game = create(client)
        seed, salt = service.store.sealed_seed(game["id"])

        def no_second_read(game_id: str) -> tuple[bytes, bytes]:
            raise AssertionError("the finishing move read the seed again")

        monkeypatch.setattr(service.store, "sealed_seed", no_second_read)
        for square in ("a1", "a2", "b1", "b2"):
            assert play(client, game, square).status_code == 201
            game = client.get(f"/v1/games/{game['id']}").json | {"seats": game["seats"]}
        finished = play(client, game, "c1")
        assert finished.status_code == 201, finished.json
        reveal = [e for e in finished.json["events"] if e["type"] == "SeedRevealed"]
        assert [e["payload"] for e in reveal] == [{"seed": seed.hex(), "salt": salt.hex()}]

    def test_413_body_too_large(self, client: Any, service: GameService) -> None:
        game = create(client)
        response = play(client, game, "a" * 100_000)
        error_of(response, 413, "body_too_large")
        assert stored(service, game["id"]) == (4, 4)

    def test_422_illegal_move_gives_the_reason(self, client: Any, service: GameService) -> None:
        game = create(client)
        assert play(client, game, "b2").status_code == 201
        game = client.get(f"/v1/games/{game['id']}").json | {"seats": game["seats"]}
        error = error_of(play(client, game, "b2"), 422, "illegal_move")
        assert error["message"] == "square b2 is already taken"
        error_of(play(client, game, "z9"), 422, "invalid_move")
        assert stored(service, game["id"]) == (6, 6)

    def test_423_game_over(self, client: Any, service: GameService) -> None:
        game = create(client)
        loser = mover(game)
        assert play(client, game, "resign", seat=loser).status_code == 201
        version = stored(service, game["id"])
        error_of(play(client, game, "a1", seat=1 - loser), 423, "game_over")
        assert stored(service, game["id"]) == version


class TestDocs:
    def test_openapi_document(self, client: Any) -> None:
        spec = client.get("/openapi.json").json
        assert spec["openapi"].startswith("3.")
        for path in (
            "/v1/games",
            "/v1/games/{game_id}",
            "/v1/games/{game_id}/moves",
            "/v1/games/{game_id}/events",
            "/v1/games/{game_id}/state",
            "/v1/games/{game_id}/legal-moves",
            "/healthz",
            "/readyz",
        ):
            assert path in spec["paths"], path
        assert "MoveRequest" in spec["components"]["schemas"]

    def test_docs_page_is_served_without_the_network(self, client: Any) -> None:
        page = client.get("/docs").get_data(as_text=True)
        assert "/openapi.json" in page and "/docs/assets/swagger-ui-bundle.js" in page
        assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200

    def test_unknown_path_has_the_error_shape(self, client: Any) -> None:
        error_of(client.get("/v2/nothing"), 404, "not_found")
        error_of(client.delete("/v1/games"), 405, "method_not_allowed")
