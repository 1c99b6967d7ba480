"""A stream that no longer matches its game's metadata is reported as damaged, never wedged.

Damage is made here the way a split store or a failed AOF replay makes it: an
entry lost from the end of the stream, or an entry the metadata never counted.
A fresh process (no in-process cache, as after a restart) must see it.
"""

from __future__ import annotations

from typing import Any

import pytest

from app import Settings, create_app
from events.envelope import seal
from service.games import GameDamaged, GameService
from tests.support.seeds import strong_seed


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def fresh_client() -> Any:
    """A client of a new API process: nothing cached."""
    app = create_app(Settings.from_env())
    app.config["TESTING"] = True
    return app.test_client()


def started(client: Any) -> dict[str, Any]:
    seed = strong_seed("damage").decode()
    game = client.post("/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "seed": seed})
    body: dict[str, Any] = game.json
    token = body["seats"][body["to_act"][0]]["token"]
    moved = client.post(f"/v1/games/{body['id']}/moves", json={"move": "a1"}, headers=auth(token))
    assert moved.status_code == 201
    return body


def lose_the_last_entry(service: GameService, game_id: str) -> None:
    key = service.store.keys.game(game_id).events
    newest = service.store.redis.xrevrange(key, count=1)[0][0]
    service.store.redis.xdel(key, newest)


def add_an_uncounted_entry(service: GameService, game_id: str) -> None:
    tail = service.store.tail(game_id)
    assert tail is not None
    extra = seal(tail.hash, **(tail.body() | {"version": tail.version + 1, "event_id": "uncounted"}))
    service.store.redis.xadd(service.store.keys.game(game_id).events, {"e": extra.to_json()}, id=f"{extra.version}-0")


@pytest.mark.parametrize("damage", [lose_the_last_entry, add_an_uncounted_entry])
class TestDamagedStreams:
    def test_reads_and_moves_say_damaged(self, client: Any, service: GameService, damage: Any) -> None:
        game = started(client)
        damage(service, game["id"])
        fresh = fresh_client()
        for response in (
            fresh.get(f"/v1/games/{game['id']}"),
            fresh.post(f"/v1/games/{game['id']}/moves", json={"move": "b2"}, headers=auth(game["seats"][0]["token"])),
            fresh.post(f"/v1/games/{game['id']}/moves", json={"move": "b2"}, headers=auth(game["seats"][1]["token"])),
        ):
            assert response.status_code == 409, response.json
            assert response.json["error"]["code"] == "game_damaged"
            assert "damaged" in response.json["error"]["message"]

    def test_verify_reports_the_mismatch(self, client: Any, service: GameService, damage: Any) -> None:
        game = started(client)
        damage(service, game["id"])
        verdict = fresh_client().get(f"/v1/games/{game['id']}/verify", headers=auth(game["creator_token"]))
        assert verdict.status_code == 200
        assert verdict.json["verdict"] == "failed"
        assert "metadata" in verdict.json["first_failure"]["reason"]

    def test_the_service_raises_a_typed_error(self, client: Any, service: GameService, damage: Any) -> None:
        game = started(client)
        damage(service, game["id"])
        with pytest.raises(GameDamaged):
            GameService(service.store).head(game["id"])
