"""Homeworlds on the service: a real SuperDuperGames game through HTTP alone,
rejections with the engine's reason, resignation, draws, timeouts and bots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests

from service.games import GameService, SeatSpec
from tests.conftest import Worker, shared_dir, wait_for


def turns_of(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def create(http: requests.Session, base: str, **body: Any) -> dict[str, Any]:
    payload = {"game": "homeworlds", "seats": [{"name": "North"}, {"name": "South"}]} | body
    response = http.post(f"{base}/v1/games", json=payload, timeout=10)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def move(http: requests.Session, base: str, game: dict[str, Any], seat: int, turn: Any) -> requests.Response:
    return http.post(
        f"{base}/v1/games/{game['id']}/moves",
        json={"move": turn},
        headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"},
        timeout=10,
    )


def test_a_real_sdg_game_over_http_reaches_its_recorded_result(live_server: str) -> None:
    shared = shared_dir()
    if shared is None:
        pytest.skip("../shared is not there, so the SuperDuperGames transcripts are not either")
    turns = turns_of(shared / "reference" / "homeworlds" / "games" / "sdg" / "sdg-00608.txt")
    http = requests.Session()
    game = create(http, live_server)
    for number, turn in enumerate(turns, start=1):
        state = http.get(f"{live_server}/v1/games/{game['id']}", timeout=10).json()
        assert state["status"] == "active", f"the game ended early, before line {number}"
        response = move(http, live_server, game, state["to_act"][0], turn)
        assert response.status_code == 201, f"line {number}: {response.text}"
    final = http.get(f"{live_server}/v1/games/{game['id']}", timeout=10).json()
    assert final["status"] == "finished"
    assert final["result"]["winners"] == [1] and final["result"]["reason"] == "elimination"
    assert final["state"]["last_turn"]
    assert http.get(f"{live_server}/v1/games/{game['id']}/verify", timeout=30).json()["verdict"] == "ok"


class TestOverTheAPI:
    def test_the_json_form_and_the_engines_reasons(self, live_server: str) -> None:
        http = requests.Session()
        game = create(http, live_server)
        json_setup = [{"action": "homeworld", "stars": ["r1", "b2"], "ship": "g3", "name": "North"}]
        assert move(http, live_server, game, 0, json_setup).status_code == 201
        assert move(http, live_server, game, 1, "homeworld y1 b3 g3 South").status_code == 201
        refused = move(http, live_server, game, 0, "build y1 North")
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "illegal_move"
        assert "y" in refused.json()["error"]["message"] and len(refused.json()["error"]["message"]) > 20
        garbled = move(http, live_server, game, 0, "blorp g1 North")
        assert garbled.status_code == 422 and garbled.json()["error"]["code"] == "invalid_move"
        wrong_turn = move(http, live_server, game, 1, "build g1 South")
        assert wrong_turn.status_code == 403
        view = http.get(f"{live_server}/v1/games/{game['id']}").json()
        assert view["to_act"] == [0]
        assert {"systems", "bank"} <= set(view["state"])
        legal = http.get(
            f"{live_server}/v1/games/{game['id']}/legal-moves",
            headers={"Authorization": f"Bearer {game['seats'][0]['token']}"},
        ).json()
        assert legal["moves"] and all(isinstance(m, str) for m in legal["moves"])
        assert move(http, live_server, game, 0, legal["moves"][0]).status_code == 201

    def test_resignation_at_any_time(self, live_server: str) -> None:
        http = requests.Session()
        game = create(http, live_server)
        assert move(http, live_server, game, 1, {"resign": True}).status_code == 201
        result = http.get(f"{live_server}/v1/games/{game['id']}").json()["result"]
        assert result["winners"] == [0] and result["reason"] == "resignation"

    def test_a_draw_by_agreement(self, live_server: str) -> None:
        http = requests.Session()
        game = create(http, live_server)
        assert move(http, live_server, game, 0, "homeworld r1 b2 g3 North").status_code == 201
        assert move(http, live_server, game, 1, "homeworld y1 b3 g3 South").status_code == 201
        assert move(http, live_server, game, 0, {"draw": "offer"}).status_code == 201
        assert move(http, live_server, game, 0, "build g1 North").status_code == 201
        assert move(http, live_server, game, 1, {"draw": "accept"}).status_code == 201
        result = http.get(f"{live_server}/v1/games/{game['id']}").json()["result"]
        assert result["winners"] == [] and result["draw"] is True and result["reason"] == "agreement"


class TestTimeouts:
    @pytest.mark.parametrize(("policy", "reason"), [("forfeit", "timeout"), ("pass", "timeout")])
    def test_a_silent_seat(
        self, live_server: str, service: GameService, worker: Worker, policy: str, reason: str
    ) -> None:
        http = requests.Session()
        game = create(http, live_server, options={"move_deadline_s": 1, "on_timeout": policy})
        record = wait_for(lambda: service.head(game["id"]) if service.head(game["id"]).over else None, timeout=30)
        assert record.outcome.reason == reason and record.outcome.winners == (1,)
        assert service.verify(game["id"]).ok

    def test_a_pass_after_setup(self, live_server: str, service: GameService, worker: Worker) -> None:
        http = requests.Session()
        game = create(http, live_server, options={"move_deadline_s": 1, "on_timeout": "pass"})
        assert move(http, live_server, game, 0, "homeworld r1 b2 g3 North").status_code == 201
        assert move(http, live_server, game, 1, "homeworld y1 b3 g3 South").status_code == 201
        wait_for(lambda: "TurnTimedOut" in [e.type for e in service.events(game["id"])] or None, timeout=30)
        envelopes = service.events(game["id"])
        timed_out = next(i for i, e in enumerate(envelopes) if e.type == "TurnTimedOut")
        assert envelopes[timed_out].payload == {"seat": 0, "policy": "pass"}
        assert envelopes[timed_out + 1].type == "TurnEnded" and envelopes[timed_out + 1].payload["notation"] == "pass"
        assert service.verify(game["id"]).ok


def test_two_builtin_bots_play_to_the_end(service: GameService, worker: Worker) -> None:
    seats = [SeatSpec("Greedy", {"builtin": "greedy", "think_ms": 50}), SeatSpec("Random", {"builtin": "random"})]
    game_id = service.create("homeworlds", seats, {}).record.game_id
    record = wait_for(
        lambda: service.head(game_id) if service.head(game_id).scored else None, timeout=180, interval=0.5
    )
    assert record.outcome is not None
    assert service.verify(game_id).ok
