"""Registered bots: one API key and one signing secret per registration, rotation, and the URL policy."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import on_memory

app, service = on_memory()
"""Neither Redis nor a worker is needed here: the app and its service run over an in-memory store."""

URL = "http://127.0.0.1:9/bot"


def register(client: Any, **body: Any) -> Any:
    return client.post("/v1/bots", json={"name": "Ada's bot", "games": ["homeworlds"]} | body)


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_two_registrations_of_one_url_get_their_own_secret_and_key(client: Any) -> None:
    first, second = register(client, webhook=URL), register(client, webhook=URL)
    assert first.status_code == second.status_code == 201, (first.json, second.json)
    a, b = first.json, second.json
    assert a["id"] != b["id"] and a["api_key"] != b["api_key"]
    assert a["webhook_secret"] and b["webhook_secret"] and a["webhook_secret"] != b["webhook_secret"]
    assert a["transport"] == "webhook" and a["webhook"] == URL and a["games"] == ["homeworlds"]
    mine = client.get("/v1/bots/me", headers=bearer(a["api_key"]))
    assert mine.status_code == 200 and mine.json["id"] == a["id"] and "api_key" not in mine.json
    assert "webhook_secret" not in mine.json
    public = client.get(f"/v1/bots/{a['id']}").json
    assert public["name"] == "Ada's bot" and "webhook" not in public and public["transport"] == "webhook"


def test_a_stream_bot_has_no_secret(client: Any) -> None:
    made = register(client, stream=True, games=["homeworlds", "planet-unknown"])
    assert made.status_code == 201 and made.json["webhook_secret"] is None
    assert made.json["transport"] == "stream" and made.json["games"] == ["homeworlds", "planet-unknown"]
    refused = client.post("/v1/bots/me/rotate", json={"rotate": "secret"}, headers=bearer(made.json["api_key"]))
    assert refused.status_code == 422


def test_rotating_the_key_stops_the_old_one_at_once(client: Any) -> None:
    made = register(client, stream=True).json
    rotated = client.post("/v1/bots/me/rotate", json={"rotate": "key"}, headers=bearer(made["api_key"]))
    assert rotated.status_code == 200 and rotated.json["api_key"] not in (None, made["api_key"])
    assert client.get("/v1/bots/me", headers=bearer(made["api_key"])).status_code == 401
    assert client.get("/v1/bots/me", headers=bearer(rotated.json["api_key"])).json["id"] == made["id"]
    again = client.post("/v1/bots/me/rotate", json={"rotate": "key"}, headers=bearer(made["api_key"]))
    assert again.status_code == 401


def test_rotating_the_secret_gives_a_new_one(client: Any, service: Any) -> None:
    from service.bots import BotRegistry

    made = register(client, webhook=URL).json
    rotated = client.post("/v1/bots/me/rotate", json={"rotate": "secret"}, headers=bearer(made["api_key"]))
    assert rotated.status_code == 200
    secret = rotated.json["webhook_secret"]
    assert secret and secret != made["webhook_secret"] and rotated.json["api_key"] is None
    assert BotRegistry(service).signing_secret(made["id"]) == secret


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"webhook": "http://10.0.0.1/bot"}, "webhook"),
        ({"webhook": "http://user:pw@127.0.0.1/bot"}, "webhook"),
        ({}, "webhook"),
        ({"webhook": URL, "stream": True}, "webhook"),
        ({"stream": True, "games": ["chess"]}, "games"),
        ({"stream": True, "name": "   "}, "name"),
    ],
)
def test_a_bad_registration_is_refused_with_its_field(client: Any, body: dict[str, Any], field: str) -> None:
    response = register(client, **body)
    assert response.status_code in (400, 422), response.json
    if response.status_code == 422:
        assert response.json["error"]["field"] == field, response.json


def test_keys_and_ids_that_are_not_a_bot_s(client: Any) -> None:
    assert client.get("/v1/bots/me").status_code == 401
    assert client.get("/v1/bots/me", headers=bearer("not-a-key")).status_code == 401
    unknown = client.get("/v1/bots/bot_0000000000000000")
    assert unknown.status_code == 404 and unknown.json["error"]["code"] == "unknown_bot"
