"""Spectators cannot read ahead of ``spectator_delay``, verification is not a free oracle, and a
chosen seed cannot deal a game away."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from domain.table.verify import state_hash
from service.games import GameService
from tests.conftest import on_memory
from tests.support.seeds import strong_seed

app, service = on_memory()
"""Neither Redis nor a worker is needed here: the app and its service run over an in-memory store."""

SQUARES = ("a1", "a2", "b1", "b2")


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def delayed_game(client: Any, delay: int = 2) -> dict[str, Any]:
    """A running tic-tac-toe game, ``delay`` events ahead of its spectators, with three marks placed."""
    game = client.post(
        "/v1/games",
        json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": {"spectator_delay": delay}},
    ).json
    for square in SQUARES[:3]:
        play(client, game, square)
    return game


def play(client: Any, game: dict[str, Any], move: Any) -> None:
    """``move`` by the seat to act, read live through a seat's token."""
    live = client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][0]["token"])).json
    token = game["seats"][live["to_act"][0]]["token"]
    moved = client.post(f"/v1/games/{game['id']}/moves", json={"move": move}, headers=auth(token))
    assert moved.status_code == 201, moved.json


def listed(client: Any, game_id: str) -> dict[str, Any]:
    page = client.get("/v1/games?game=tictactoe&limit=100").json
    return next(g for g in page["games"] if g["id"] == game_id)


class TestSpectatorsCannotReadAhead:
    def test_the_game_list_is_held_back(self, client: Any, service: GameService) -> None:
        game = delayed_game(client)
        head = service.head(game["id"])
        entry = listed(client, game["id"])
        assert entry["version"] == head.version - 2
        held = service.at(game["id"], head.version - 2)
        assert entry["to_act"] == sorted(held.game.to_act(held.state))

    def test_the_export_header_is_held_back(self, client: Any, service: GameService) -> None:
        game = delayed_game(client)
        head = service.head(game["id"])
        for headers in ({}, auth(game["creator_token"])):
            lines = client.get(f"/v1/games/{game['id']}/export", headers=headers).get_data(as_text=True).splitlines()
            header = json.loads(lines[0])
            assert header["version"] == head.version - 2
            assert json.loads(lines[-1])["version"] == head.version - 2

    def test_verify_is_for_the_creator_while_running_and_stays_behind(self, client: Any, service: GameService) -> None:
        game = delayed_game(client)
        url = f"/v1/games/{game['id']}/verify"
        anonymous = client.get(url)
        assert anonymous.status_code == 401 and anonymous.json["error"]["code"] == "unauthorized"
        seat = client.get(url, headers=auth(game["seats"][0]["token"]))
        assert seat.status_code == 403 and seat.json["error"]["code"] == "forbidden"
        creator = client.get(url, headers=auth(game["creator_token"]))
        assert creator.status_code == 200 and creator.json["verdict"] == "ok"
        head = service.head(game["id"])
        held = service.at(game["id"], head.version - 2)
        assert creator.json["events"] == head.version - 2
        assert creator.json["state_hash"] == state_hash(held)
        assert creator.json["state_hash"] != state_hash(head)

    def test_anyone_verifies_a_finished_game_and_the_verdict_is_cached(self, client: Any, service: GameService) -> None:
        game = delayed_game(client)
        play(client, game, "resign")
        head = service.score(game["id"])
        assert head.over and head.scored is not None, "scored here, so a worker cannot move the version meanwhile"
        assert service.store.cached_verdict(game["id"], head.version) is None
        first = client.get(f"/v1/games/{game['id']}/verify")
        assert first.status_code == 200 and first.json["verdict"] == "ok" and first.json["seed"] == "verified"
        assert service.store.cached_verdict(game["id"], head.version) == first.json
        assert client.get(f"/v1/games/{game['id']}/verify").json == first.json


class TestSeeds:
    @pytest.mark.parametrize("game", ["tictactoe", "planet-unknown"])
    @pytest.mark.parametrize("seed", ["48213", "tournament-7-table-3", "0" * 64, "g" * 40])
    def test_a_guessable_seed_is_refused_where_the_deal_is_hidden(self, client: Any, game: str, seed: str) -> None:
        seats = [{"name": "a"}, {"name": "b"}]
        before = [g["id"] for g in client.get(f"/v1/games?game={game}&limit=100").json["games"]]
        response = client.post("/v1/games", json={"game": game, "seats": seats, "seed": seed})
        assert response.status_code == 422
        assert response.json["error"]["code"] == "weak_seed" and response.json["error"]["field"] == "seed"
        assert "128 bits" in response.json["error"]["message"]
        assert [g["id"] for g in client.get(f"/v1/games?game={game}&limit=100").json["games"]] == before

    def test_a_strong_chosen_seed_deals_the_same_game_twice(self, client: Any, service: GameService) -> None:
        seed = strong_seed("duplicate-tournament").decode()
        seats = [{"name": "a"}, {"name": "b"}]
        one = client.post("/v1/games", json={"game": "planet-unknown", "seats": seats, "seed": seed}).json
        two = client.post("/v1/games", json={"game": "planet-unknown", "seats": seats, "seed": seed}).json
        assert one["seed_sha256"] != two["seed_sha256"], "each commitment has its own salt"
        deal = [e.payload for e in service.events(one["id"])[1:]]
        assert deal == [e.payload for e in service.events(two["id"])[1:]]

    def test_brute_forcing_a_short_seed_from_its_commitment_fails(self, client: Any, service: GameService) -> None:
        """Homeworlds deals nothing hidden, so it takes any seed; its commitment still resists guessing."""
        seats = [{"name": "a"}, {"name": "b"}]
        game = client.post("/v1/games", json={"game": "homeworlds", "seats": seats, "seed": "48213"}).json
        assert game["seed_sha256"] != hashlib.sha256(b"48213").hexdigest()
        commitment = game["seed_sha256"]
        found = [n for n in range(100_000) if hashlib.sha256(str(n).encode()).hexdigest() == commitment]
        assert found == []
        play(client, game, {"resign": True})
        revealed = next(e for e in service.events(game["id"]) if e.type == "SeedRevealed").payload
        assert bytes.fromhex(revealed["seed"]) == b"48213"
        salted = bytes.fromhex(revealed["salt"]) + b"48213"
        assert hashlib.sha256(salted).hexdigest() == commitment
        assert service.verify(game["id"]).ok


class TestForksCannotReadAhead:
    def test_the_creator_cannot_fork_past_the_delay_of_a_running_game(self, client: Any, service: GameService) -> None:
        game = delayed_game(client)
        head = service.head(game["id"])
        url, headers = f"/v1/games/{game['id']}/fork", auth(game["creator_token"])
        ahead = client.post(url, json={"at": head.version}, headers=headers)
        assert ahead.status_code == 422 and ahead.json["error"]["field"] == "at"
        assert str(head.version - 2) in ahead.json["error"]["message"]
