"""A whole game of the test game through HTTP alone: created, played, scored."""

from __future__ import annotations

import hashlib
from typing import Any

import requests

from tests.conftest import Worker, wait_for
from tests.support.seeds import strong_seed


def test_a_game_is_created_played_and_scored_over_http(live_server: str, worker: Worker) -> None:
    play_and_score_over_http(live_server)


def play_and_score_over_http(live_server: str) -> None:
    """Create, play, score, audit and list one game through HTTP alone (the cluster tests run it too)."""
    http = requests.Session()
    created = http.post(
        f"{live_server}/v1/games",
        json={"game": "tictactoe", "seats": [{"name": "Ada"}, {"name": "Bob"}], "seed": strong_seed("e2e").decode()},
        timeout=10,
    )
    assert created.status_code == 201
    game = created.json()
    url = f"{live_server}/v1/games/{game['id']}"
    tokens = {s["index"]: s["token"] for s in game["seats"]}
    version = game["version"]
    first = game["to_act"][0]
    for square in ("a1", "a2", "b1", "b2", "c1"):
        state = http.get(url, timeout=10).json()
        seat = state["to_act"][0]
        response = http.post(
            f"{url}/moves",
            json={"move": square, "expected_version": version},
            headers={"Authorization": f"Bearer {tokens[seat]}", "Idempotency-Key": f"move-{version}"},
            timeout=10,
        )
        assert response.status_code == 201, response.text
        version = response.json()["version"]

    def scored() -> Any:
        body = http.get(url, timeout=10).json()
        return body if body["result"] and body["result"]["scored"] else None

    final = wait_for(scored, timeout=30)
    assert final["status"] == "finished"
    assert final["result"]["winners"] == [first] and final["result"]["reason"] == "line"
    assert final["result"]["scores"][str(first)]["win"] == 1
    audit = http.get(f"{url}/events", headers={"Authorization": f"Bearer {game['creator_token']}"}, timeout=10).json()
    types = [e["type"] for e in audit["events"]]
    assert types.count("GameScored") == 1 and types.count("SeedRevealed") == 1
    revealed = next(e for e in audit["events"] if e["type"] == "SeedRevealed")["payload"]
    salted = bytes.fromhex(revealed["salt"]) + bytes.fromhex(revealed["seed"])
    assert hashlib.sha256(salted).hexdigest() == game["seed_sha256"]
    assert all(not e["redacted"] for e in audit["events"])
    listed = http.get(f"{live_server}/v1/games?status=finished&game=tictactoe&limit=100", timeout=10).json()
    assert game["id"] in [g["id"] for g in listed["games"]]
