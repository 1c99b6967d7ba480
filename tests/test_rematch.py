"""A rematch: the same table as a new game, seats moved one place on, once the game is over."""

from __future__ import annotations

from typing import Any

from domain.contract import Role
from service.games import GameService, SeatSpec
from tests.conftest import on_memory

app, service = on_memory()
"""Neither Redis nor a worker is needed here: the app and its service run over an in-memory store."""

WIN = ("a1", "a2", "b1", "b2", "c1")


def finished_game(client: Any) -> dict[str, Any]:
    created = client.post(
        "/v1/games", json={"game": "tictactoe", "seats": [{"name": "Ada"}, {"name": "Bob"}], "options": {}}
    )
    assert created.status_code == 201, created.json
    game = dict(created.json)
    for square in WIN:
        seat = client.get(f"/v1/games/{game['id']}").json["to_act"][0]
        token = game["seats"][seat]["token"]
        moved = client.post(
            f"/v1/games/{game['id']}/moves", json={"move": square}, headers={"Authorization": f"Bearer {token}"}
        )
        assert moved.status_code == 201, moved.json
    return game


def test_the_creator_gets_the_same_table_with_the_seats_rotated(client: Any) -> None:
    game = finished_game(client)
    response = client.post(
        f"/v1/games/{game['id']}/rematch", headers={"Authorization": f"Bearer {game['creator_token']}"}
    )
    assert response.status_code == 201, response.json
    again = response.json
    assert again["rematch_of"] == game["id"] and again["id"] != game["id"]
    assert [s["name"] for s in again["seats"]] == ["Bob", "Ada"]
    assert again["game"] == "tictactoe" and again["status"] == "active"
    old_tokens = {s["token"] for s in game["seats"]} | {game["creator_token"]}
    new_tokens = {s["token"] for s in again["seats"]} | {again["creator_token"]}
    assert len(new_tokens) == 3 and not old_tokens & new_tokens
    assert again["seed_sha256"] != game["seed_sha256"]
    seat = again["to_act"][0]
    moved = client.post(
        f"/v1/games/{again['id']}/moves",
        json={"move": "b2"},
        headers={"Authorization": f"Bearer {again['seats'][seat]['token']}"},
    )
    assert moved.status_code == 201, moved.json


def test_only_the_creator_and_only_once_the_game_is_over(client: Any) -> None:
    game = finished_game(client)
    url = f"/v1/games/{game['id']}/rematch"
    anonymous = client.post(url)
    assert anonymous.status_code == 401 and anonymous.json["error"]["code"] == "unauthorized"
    seated = client.post(url, headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})
    assert seated.status_code == 403 and seated.json["error"]["code"] == "forbidden"
    assert client.post("/v1/games/nope/rematch").status_code == 404
    running = client.post("/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]}).json
    early = client.post(
        f"/v1/games/{running['id']}/rematch", headers={"Authorization": f"Bearer {running['creator_token']}"}
    )
    assert early.status_code == 422 and "over" in early.json["error"]["message"]


def test_bots_keep_their_seat_spec_in_the_rotated_seat(service: GameService) -> None:
    created = service.create("tictactoe", [SeatSpec("Ada"), SeatSpec("Robo", {"builtin": "random", "think_ms": 5})], {})
    game_id = created.record.game_id
    record = created.record
    while not record.over:
        seat = sorted(record.game.to_act(record.state))[0]
        if seat == 0:
            move = next(iter(record.game.legal_moves(record.state, 0)))
            record = service.submit(game_id, 0, move).record
        else:
            result = service.bot_move(game_id, 1, record.version)
            assert result is not None
            record = result.record
    again = service.rematch(game_id, Role.AUDITOR)
    seats = again.record.created.seats
    assert [s["name"] for s in seats] == ["Robo", "Ada"]
    assert seats[0]["bot"] == created.record.created.seats[1]["bot"] and seats[1]["bot"] is None
    assert set(again.seat_tokens) == {1}
