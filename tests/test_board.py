"""``GET /v1/games/{id}/board.svg``: the same tokens, versions, delays and ETags as the JSON state."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from domain.homeworlds.svg import render

SVG_NS = "{http://www.w3.org/2000/svg}"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: Any, game: str = "homeworlds", **options: Any) -> dict[str, Any]:
    body = {"game": game, "seats": [{"name": "Ada"}, {"name": "Bob"}], "options": options}
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    created: dict[str, Any] = response.json
    return created


def play(client: Any, game: dict[str, Any], turns: int) -> None:
    """``turns`` turns, each the first legal move of the seat to act (read live with a seat's token)."""
    for _ in range(turns):
        live = client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][0]["token"])).json
        token = game["seats"][live["to_act"][0]]["token"]
        legal = client.get(f"/v1/games/{game['id']}/legal-moves?limit=1", headers=auth(token)).json
        moved = client.post(f"/v1/games/{game['id']}/moves", json={"move": legal["moves"][0]}, headers=auth(token))
        assert moved.status_code == 201, moved.json


def board(client: Any, game_id: str, query: str = "", headers: dict[str, str] | None = None) -> Any:
    return client.get(f"/v1/games/{game_id}/board.svg{query}", headers=headers or {})


def svg_of(response: Any) -> ET.Element:
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "image/svg+xml"
    root = ET.fromstring(response.get_data(as_text=True))
    assert root.tag == f"{SVG_NS}svg"
    return root


@pytest.fixture(scope="module")
def game(app: Any) -> dict[str, Any]:
    client = app.test_client()
    created = create(client)
    play(client, created, 4)
    return created


class TestBoard:
    def test_the_board_is_the_state_drawn(self, client: Any, game: dict[str, Any]) -> None:
        state = client.get(f"/v1/games/{game['id']}/state").json
        response = board(client, game["id"])
        svg_of(response)
        assert response.get_data(as_text=True) == render(state["state"])
        assert response.headers["ETag"] == f'"svg-{state["version"]}"'
        assert response.headers["Vary"] == "Authorization"

    def test_the_etag_differs_from_the_json_state_and_answers_304(self, client: Any, game: dict[str, Any]) -> None:
        state = client.get(f"/v1/games/{game['id']}/state")
        response = board(client, game["id"])
        assert response.headers["ETag"] != state.headers["ETag"]
        cached = board(client, game["id"], headers={"If-None-Match": response.headers["ETag"]})
        assert cached.status_code == 304 and cached.get_data() == b""
        assert cached.headers["ETag"] == response.headers["ETag"]
        json_etag = board(client, game["id"], headers={"If-None-Match": state.headers["ETag"]})
        assert json_etag.status_code == 200

    def test_at_draws_a_past_position(self, client: Any, game: dict[str, Any]) -> None:
        head = client.get(f"/v1/games/{game['id']}/state").json["version"]
        past = client.get(f"/v1/games/{game['id']}/state?at=2").json
        response = board(client, game["id"], "?at=2")
        assert response.get_data(as_text=True) == render(past["state"])
        assert response.headers["ETag"] == '"svg-2"'
        assert past["version"] == 2 < head
        for query in (f"?at={head + 1}", "?at=0", "?at=x"):
            json_answer = client.get(f"/v1/games/{game['id']}/state{query}")
            svg_answer = board(client, game["id"], query)
            assert svg_answer.status_code == json_answer.status_code in (400, 422)
            assert svg_answer.json == json_answer.json

    def test_tokens_are_those_of_the_json_reads(self, client: Any, game: dict[str, Any]) -> None:
        for token in (game["seats"][0]["token"], game["seats"][1]["token"], game["creator_token"]):
            svg_of(board(client, game["id"], headers=auth(token)))
        for headers in (auth("not-a-token"), {"Authorization": "Basic abc"}):
            json_answer = client.get(f"/v1/games/{game['id']}/state", headers=headers)
            svg_answer = board(client, game["id"], headers=headers)
            assert svg_answer.status_code == json_answer.status_code == 401
            assert svg_answer.json == json_answer.json

    def test_an_unknown_game_is_404(self, client: Any) -> None:
        response = board(client, "no-such-game")
        assert response.status_code == 404
        assert response.json["error"]["code"] == "unknown_game"

    def test_a_game_without_a_drawing_is_404_no_board(self, client: Any) -> None:
        created = create(client, "tictactoe")
        response = board(client, created["id"])
        assert response.status_code == 404
        assert response.json["error"]["code"] == "no_board"
        assert f"/v1/games/{created['id']}/state" in response.json["error"]["message"]

    @pytest.mark.skipif(
        importlib.util.find_spec("domain.planet_unknown.svg") is None, reason="no Planet Unknown renderer yet"
    )
    def test_planet_unknown_is_drawn(self, client: Any) -> None:
        created = create(client, "planet-unknown")
        svg_of(board(client, created["id"]))
        svg_of(board(client, created["id"], headers=auth(created["seats"][0]["token"])))


class TestSpectatorDelay:
    def test_spectators_see_the_delayed_board_and_cannot_ask_for_the_live_one(self, client: Any) -> None:
        created = create(client, spectator_delay=2)
        play(client, created, 3)
        seat = auth(created["seats"][0]["token"])
        live = client.get(f"/v1/games/{created['id']}/state", headers=seat).json["version"]
        held = client.get(f"/v1/games/{created['id']}/state").json
        assert held["version"] == live - 2
        spectator = board(client, created["id"])
        assert spectator.headers["ETag"] == f'"svg-{live - 2}"'
        assert spectator.get_data(as_text=True) == render(held["state"])
        for headers in ({}, auth(created["creator_token"])):
            refused = board(client, created["id"], f"?at={live}", headers=headers)
            json_refused = client.get(f"/v1/games/{created['id']}/state?at={live}", headers=headers)
            assert refused.status_code == json_refused.status_code == 422
            assert refused.json == json_refused.json
        assert board(client, created["id"], headers=seat).headers["ETag"] == f'"svg-{live}"'
        assert board(client, created["id"], f"?at={live}", headers=seat).status_code == 200


def test_the_operation_is_documented(client: Any) -> None:
    operation = client.get("/openapi.json").json["paths"]["/v1/games/{game_id}/board.svg"]["get"]
    assert operation["operationId"] == "getBoard"
    assert set(operation["responses"]) == {"200", "304", "400", "401", "404", "409", "422", "429", "503"}
    assert "image/svg+xml" in operation["responses"]["200"]["content"]
    assert "no_board" in operation["responses"]["404"]["description"]
