"""Write the OpenAPI document's examples (``api/examples/*.json``) from a real server's answers.

Run ``REDIS_URL=redis://... python -m api.examples.generate`` (the embedded Redis serves without
``REDIS_URL``). It plays short Homeworlds and Planet Unknown games through the API in a namespace of
its own, records each request and answer, and deletes its keys afterwards. Long lists are cut to a few
items so the examples stay readable; every value is still one the server sent.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

FOLDER = Path(__file__).resolve().parent
LIST_ITEMS = 5
"""How many items of a long list an example keeps."""

Examples = dict[str, Any]


def example(summary: str, value: Any) -> dict[str, Any]:
    """One named example's body."""
    return {"summary": summary, "value": value}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Recorder:
    """Collects request and response examples by operation id and status."""

    def __init__(self) -> None:
        self.requests: dict[str, dict[str, Any]] = {}
        self.responses: dict[str, dict[str, dict[str, Any]]] = {}

    def request(self, operation: str, name: str, summary: str, body: Any) -> None:
        self.requests.setdefault(operation, {})[name] = example(summary, body)

    def response(self, operation: str, status: int, name: str, summary: str, body: Any) -> None:
        self.responses.setdefault(operation, {}).setdefault(str(status), {})[name] = example(summary, body)

    def error(self, operations: list[str], name: str, summary: str, answer: Any, status: int) -> None:
        """Record an error answer (checking its status) for each of ``operations``."""
        assert answer.status_code == status, (status, answer.status_code, answer.get_data(as_text=True))
        for operation in operations:
            self.response(operation, status, name, summary, answer.json)

    def dump(self) -> Examples:
        return {"requests": self.requests, "responses": self.responses}


def shorten(value: Any) -> Any:
    """``value`` with its lists of moves cut to :data:`LIST_ITEMS` items."""
    if isinstance(value, dict):
        return {
            k: shorten(v)[:LIST_ITEMS] if k in ("moves", "legal_moves") and isinstance(v, list) else v
            for k, v in value.items()
        }
    return value


def homeworlds(client: FlaskClient, rec: Recorder) -> None:
    """Create a game, read it, list legal moves, and play moves in text and JSON."""
    body = {"game": "homeworlds", "seats": [{"name": "Ada"}, {"name": "Bob"}]}
    rec.request("createGame", "homeworlds", "A Homeworlds game between two people", body)
    created = client.post("/v1/games", json=body)
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.json
    assert game is not None
    rec.response("createGame", 201, "homeworlds", "A new Homeworlds game, with every token (shown once)", game)
    bot_body = {"game": "homeworlds", "seats": [{"name": "Ada"}, {"name": "Random", "bot": {"builtin": "random"}}]}
    rec.request("createGame", "homeworlds-bot", "Homeworlds against the built-in random bot", bot_body)
    url = f"/v1/games/{game['id']}"
    ada, bob = (auth(s["token"]) for s in game["seats"])
    legal = client.get(f"{url}/legal-moves?limit={LIST_ITEMS}", headers=ada).json
    rec.response("listLegalMoves", 200, "homeworlds", "Homeworlds: whole turns in SDG notation", legal)
    text = "homeworld r1 b2 g3 Home1"
    rec.request("makeMove", "homeworlds-text", "Homeworlds: a whole turn in SDG notation", {"move": text})
    moved = client.post(f"{url}/moves", json={"move": text}, headers=ada)
    assert moved.status_code == 201, moved.get_data(as_text=True)
    rec.response("makeMove", 201, "homeworlds", "Homeworlds: the events of one turn", moved.json)
    turn = [{"action": "homeworld", "stars": ["r1", "b3"], "ship": "g3", "name": "Home2"}]
    rec.request("makeMove", "homeworlds-json", "Homeworlds: the same kind of turn as a list of actions", {"move": turn})
    version = (moved.json or {})["version"]
    moved = client.post(f"{url}/moves", json={"move": turn, "expected_version": version}, headers=bob)
    assert moved.status_code == 201, moved.get_data(as_text=True)
    build = [{"action": "build", "ship": "g1", "system": "Home1"}]
    rec.request("makeMove", "homeworlds-build", "Homeworlds: build a green ship (JSON)", {"move": build})
    rec.request(
        "makeMove",
        "homeworlds-sacrifice",
        "Homeworlds: a sacrifice and its actions (SDG)",
        {"move": "sacrifice y3 Home1; move g1 Home1 Home2"},
    )
    rec.request("makeMove", "homeworlds-resign", "Homeworlds: resign", {"move": {"resign": True}})
    rec.request(
        "makeMove", "homeworlds-draw", "Homeworlds: offer a draw (or accept, decline)", {"move": {"draw": "offer"}}
    )
    read = client.get(url, headers=ada).json
    rec.response("getGame", 200, "homeworlds", "A Homeworlds game as a seat sees it", read)
    state = client.get(f"{url}/state", headers=ada).json
    rec.response("getState", 200, "homeworlds", "The Homeworlds table after both homeworlds", state)
    events = client.get(f"{url}/events?after=0&limit=3").json
    rec.response("listEvents", 200, "homeworlds", "The first events of a Homeworlds game", events)
    errors(client, rec, url, ada, bob, auth(game["creator_token"]))


def errors(
    client: FlaskClient, rec: Recorder, url: str, ada: dict[str, str], bob: dict[str, str], creator: dict[str, str]
) -> None:
    """Real answers for each error status, on a Homeworlds game where Ada (seat 0) is on move."""
    rec.error(
        ["createGame", "*"],
        "malformed_json",
        "The body is not JSON",
        client.post("/v1/games", data="{", content_type="application/json"),
        400,
    )
    rec.error(
        ["createGame"],
        "invalid_body",
        "A required field is missing",
        client.post("/v1/games", json={"game": "homeworlds"}),
        400,
    )
    rec.error(
        ["makeMove"], "invalid_body", "The move is missing", client.post(f"{url}/moves", json={}, headers=ada), 400
    )
    rec.error(
        ["*"],
        "invalid_body",
        "A query parameter is out of range",
        client.get(f"{url}/legal-moves?limit=0", headers=ada),
        400,
    )
    bad = {"Authorization": "Bearer not-a-token"}
    rec.error(
        ["*", "makeMove"], "unauthorized", "The token is not one of this game's", client.get(url, headers=bad), 401
    )
    rec.error(
        ["makeMove"],
        "not_your_turn",
        "Bob moves while Ada is on move",
        client.post(f"{url}/moves", json={"move": "pass"}, headers=bob),
        403,
    )
    rec.error(
        ["makeMove", "*"],
        "forbidden",
        "The creator's token reads and audits; it does not move",
        client.post(f"{url}/moves", json={"move": "pass"}, headers=creator),
        403,
    )
    rec.error(["*"], "unknown_game", "No game has this id", client.get("/v1/games/0000000000000000"), 404)
    rec.error(
        ["makeMove", "*"],
        "stale_version",
        "expected_version is behind the game",
        client.post(f"{url}/moves", json={"move": "pass", "expected_version": 1}, headers=ada),
        409,
    )
    keyed = {**ada, "Idempotency-Key": f"example-{uuid.uuid4().hex[:8]}"}
    first = client.post(f"{url}/moves", json={"move": "build g1 Home1"}, headers=keyed)
    assert first.status_code == 201, first.get_data(as_text=True)
    rec.error(
        ["makeMove"],
        "idempotency_conflict",
        "The Idempotency-Key was used for another move",
        client.post(f"{url}/moves", json={"move": "build y1 Home1"}, headers=keyed),
        409,
    )
    limit = client.application.config["MAX_CONTENT_LENGTH"]
    rec.error(
        ["makeMove", "createGame", "*"],
        "body_too_large",
        "The body is larger than the server accepts",
        client.post(f"{url}/moves", data=b" " * (limit + 1), content_type="application/json", headers=bob),
        413,
    )
    rec.error(
        ["createGame", "*"],
        "invalid_request",
        "No such game",
        client.post("/v1/games", json={"game": "chess", "seats": [{"name": "Ada"}]}),
        422,
    )
    rec.error(
        ["makeMove"],
        "illegal_move",
        "The rules forbid it",
        client.post(f"{url}/moves", json={"move": "build g1 Home1"}, headers=bob),
        422,
    )
    rec.error(
        ["makeMove"],
        "invalid_move",
        "The move cannot be read",
        client.post(f"{url}/moves", json={"move": "fly to the moon"}, headers=bob),
        422,
    )
    resigned = client.post(f"{url}/moves", json={"move": {"resign": True}}, headers=bob)
    assert resigned.status_code == 201, resigned.get_data(as_text=True)
    rec.error(
        ["makeMove"],
        "game_over",
        "The game is over",
        client.post(f"{url}/moves", json={"move": "pass"}, headers=ada),
        423,
    )


def planet_unknown(client: FlaskClient, rec: Recorder) -> None:
    """Create a game, read it, list legal moves, and play a move in JSON and one in text."""
    from domain.planet_unknown.moves import parse_move

    body = {
        "game": "planet-unknown",
        "seats": [{"name": "Ada"}, {"name": "Bob"}],
        "seed": "5f0c9a1e2b3d4c6a8e7f9012ab34cd56",
    }
    rec.request("createGame", "planet-unknown", "A Planet Unknown game for two, with a fixed seed", body)
    created = client.post("/v1/games", json=body)
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.json
    assert game is not None
    rec.response("createGame", 201, "planet-unknown", "A new Planet Unknown game, dealt", game)
    url = f"/v1/games/{game['id']}"
    ada, bob = (auth(s["token"]) for s in game["seats"])
    legal = client.get(f"{url}/legal-moves?limit={LIST_ITEMS}", headers=ada).json
    assert legal is not None
    rec.response("listLegalMoves", 200, "planet-unknown", "Planet Unknown: one action each, as JSON objects", legal)
    move = legal["moves"][0]
    rec.request("makeMove", "planet-unknown-json", "Planet Unknown: one action as a JSON object", {"move": move})
    moved = client.post(f"{url}/moves", json={"move": move}, headers=ada)
    assert moved.status_code == 201, moved.get_data(as_text=True)
    rec.response("makeMove", 201, "planet-unknown", "Planet Unknown: the events of one action", moved.json)
    other = client.get(f"{url}/legal-moves?limit=1", headers=bob).json
    assert other is not None
    text = str(parse_move(other["moves"][0]))
    rec.request(
        "makeMove", "planet-unknown-text", "Planet Unknown: the same kind of action in text form", {"move": text}
    )
    moved = client.post(f"{url}/moves", json={"move": text}, headers=bob)
    assert moved.status_code == 201, moved.get_data(as_text=True)
    read = client.get(url, headers=ada).json
    rec.response("getGame", 200, "planet-unknown", "A Planet Unknown game as seat 0 sees it", read)
    state = client.get(f"{url}/state").json
    rec.response("getState", 200, "planet-unknown", "A Planet Unknown table as a spectator sees it", state)


def turn_request(app: Flask, client: FlaskClient, rec: Recorder) -> None:
    """A turn request as a webhook bot gets it."""
    from service.turns import turn_request as build

    service = app.extensions["orrery.service"]
    created = client.post("/v1/games", json={"game": "homeworlds", "seats": [{"name": "Ada"}, {"name": "Bob"}]}).json
    assert created is not None
    body = build(service, service.head(created["id"]), 0)
    rec.request("receiveTurn", "homeworlds", "Homeworlds: seat 0 must set up its homeworld", shorten(body))


def stream_caps(env: Mapping[str, str], rec: Recorder) -> None:
    """The 429s of the rate limits and stream caps, from an app with low limits."""
    from app import Settings, create_app

    low = {**env, "ORRERY_LIMIT_CREATE": "1/minute", "ORRERY_STREAMS_PER_GAME": "0"}
    app = create_app(Settings.from_env(low))
    client = app.test_client()
    body = {"game": "homeworlds", "seats": [{"name": "Ada"}, {"name": "Bob"}]}
    game = client.post("/v1/games", json=body).json
    assert game is not None
    rec.error(
        ["createGame", "*"], "too_many_requests", "A rate limit is reached", client.post("/v1/games", json=body), 429
    )
    rec.error(
        ["streamGame"],
        "too_many_streams",
        "A cap on open streams is reached",
        client.get(f"/v1/games/{game['id']}/stream"),
        429,
    )


def main() -> None:
    """Write ``errors.json``, ``homeworlds.json`` and ``planet-unknown.json`` beside this file."""
    from app import Settings, create_app

    namespace = f"orrery-examples-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "ORRERY_NAMESPACE": namespace, "ORRERY_QUEUE": namespace}
    for name in ("ORRERY_LIMIT_CREATE", "ORRERY_LIMIT_MOVES", "ORRERY_LIMIT_MOVES_PER_ADDRESS"):
        env[name] = "100000/minute"
    app = create_app(Settings.from_env(env))
    client = app.test_client()
    try:
        files = {}
        for name, play in (("homeworlds", homeworlds), ("planet-unknown", planet_unknown)):
            rec = Recorder()
            play(client, rec)
            files[name] = rec
        turn_request(app, client, files["homeworlds"])
        stream_caps(env, files["homeworlds"])
        errors_only = Recorder()
        for rec in files.values():
            for operation, by_status in list(rec.responses.items()):
                for status in [s for s in by_status if int(s) >= 400]:
                    errors_only.responses.setdefault(operation, {})[status] = by_status.pop(status)
        files["errors"] = errors_only
        for name, rec in files.items():
            text = json.dumps(rec.dump(), indent=2, sort_keys=True, ensure_ascii=False)
            (FOLDER / f"{name}.json").write_text(text + "\n", encoding="utf-8")
    finally:
        app.extensions["orrery.service"].store.clear()


if __name__ == "__main__":
    main()
