"""CORS for the JSON API: off by default; on for the origins ``ORRERY_CORS_ORIGINS`` lists, and only for them."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from app import Settings, create_app

ALLOWED = "https://play.example.org"
OTHER = "https://evil.example.net"


@pytest.fixture(scope="module")
def cors_client(settings: Any) -> Any:
    app = create_app(dataclasses.replace(settings, cors_origins=(ALLOWED, "http://localhost:5173")))
    app.config["TESTING"] = True
    return app.test_client()


def preflight(client: Any, origin: str, path: str = "/v1/games") -> Any:
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
    )


class TestSetting:
    def test_parsed(self) -> None:
        env = {"ORRERY_CORS_ORIGINS": " https://a.example , http://localhost:5173/ ,"}
        assert Settings.from_env(env).cors_origins == ("https://a.example", "http://localhost:5173")

    def test_off_by_default(self) -> None:
        assert Settings.from_env({}).cors_origins == ()


class TestOffByDefault:
    def test_no_header(self, client: Any) -> None:
        response = client.get("/v1/games", headers={"Origin": ALLOWED})
        assert response.status_code == 200
        assert not [h for h, _ in response.headers.items() if h.lower().startswith("access-control-")]

    def test_preflight_gets_no_allowance(self, client: Any) -> None:
        response = preflight(client, ALLOWED)
        assert "Access-Control-Allow-Origin" not in response.headers


class TestOn:
    def test_listed_origin(self, cors_client: Any) -> None:
        response = cors_client.get("/v1/games", headers={"Origin": ALLOWED})
        assert response.status_code == 200
        assert response.headers["Access-Control-Allow-Origin"] == ALLOWED
        exposed = response.headers["Access-Control-Expose-Headers"]
        for name in ("ETag", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"):
            assert name in exposed
        assert "Origin" in response.headers["Vary"]

    def test_errors_too(self, cors_client: Any) -> None:
        response = cors_client.get("/v1/games/nope", headers={"Origin": ALLOWED})
        assert response.status_code == 404
        assert response.headers["Access-Control-Allow-Origin"] == ALLOWED

    def test_other_origin_refused(self, cors_client: Any) -> None:
        response = cors_client.get("/v1/games", headers={"Origin": OTHER})
        assert response.status_code == 200
        assert "Access-Control-Allow-Origin" not in response.headers

    def test_not_outside_the_api(self, cors_client: Any) -> None:
        for path in ("/", "/healthz", "/openapi.json"):
            assert "Access-Control-Allow-Origin" not in cors_client.get(path, headers={"Origin": ALLOWED}).headers

    def test_preflight(self, cors_client: Any) -> None:
        response = preflight(cors_client, ALLOWED, "/v1/games/abc/moves")
        assert response.status_code == 204
        assert response.headers["Access-Control-Allow-Origin"] == ALLOWED
        assert "POST" in response.headers["Access-Control-Allow-Methods"]
        allowed = {h.strip().lower() for h in response.headers["Access-Control-Allow-Headers"].split(",")}
        assert {"authorization", "content-type", "idempotency-key", "last-event-id"} <= allowed

    def test_preflight_for_another_origin(self, cors_client: Any) -> None:
        response = preflight(cors_client, OTHER)
        assert "Access-Control-Allow-Origin" not in response.headers
        assert "Access-Control-Allow-Methods" not in response.headers

    def test_cross_origin_create(self, cors_client: Any) -> None:
        body = {"game": "tictactoe", "seats": [{"name": "Ada"}, {"name": "Bob"}]}
        response = cors_client.post("/v1/games", json=body, headers={"Origin": ALLOWED})
        assert response.status_code == 201
        assert response.headers["Access-Control-Allow-Origin"] == ALLOWED
