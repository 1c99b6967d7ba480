"""Audit and replay: verification, exports checked offline, forgeries caught,
time travel for every viewer, and forks."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from domain import contract
from domain.contract import Role, Viewer
from domain.table.record import SERVICE_EVENTS
from domain.table.verify import verify
from events.envelope import GENESIS_HASH, Envelope, seal
from service.games import GameService, SeatSpec
from tests.conftest import ROOT, on_memory
from tests.support.seeds import strong_seed

app, service = on_memory()
"""Neither Redis nor a worker is needed here: the app and its service run over an in-memory store."""

SEATS = [SeatSpec("Ada"), SeatSpec("Bob")]


def played(
    service: GameService, seed: bytes, squares: tuple[str, ...] = ("a1", "a2", "b1", "b2", "c1"), **options: Any
) -> str:
    game_id = service.create("tictactoe", SEATS, options, seed).record.game_id
    for square in squares:
        record = service.head(game_id)
        if record.over:
            break
        service.submit(game_id, next(iter(record.game.to_act(record.state))), square)
    return game_id


def finished(service: GameService, seed: bytes = strong_seed("audit")) -> str:
    game_id = played(service, seed)
    service.score(game_id)
    return game_id


def reseal(envelopes: list[Envelope]) -> list[Envelope]:
    """What a forger does after editing: recompute every hash so the chain holds again."""
    previous, out = GENESIS_HASH, []
    for e in envelopes:
        fields = {f.name: getattr(e, f.name) for f in dataclasses.fields(e) if f.name != "hash"}
        sealed = seal(previous, **fields)
        out.append(sealed)
        previous = sealed.hash
    return out


def edit(envelopes: list[Envelope], type_name: str, **payload: Any) -> list[Envelope]:
    index = next(i for i, e in enumerate(envelopes) if e.type == type_name)
    changed = dataclasses.replace(envelopes[index], payload=envelopes[index].payload | payload)
    return [*envelopes[:index], changed, *envelopes[index + 1 :]]


class TestVerify:
    def test_a_finished_game_verifies(self, service: GameService) -> None:
        game_id = finished(service)
        verdict = service.verify(game_id)
        assert verdict.ok and verdict.seed == "verified"
        assert verdict.events == service.head(game_id).version
        assert len(verdict.state_hash or "") == 64

    def test_a_running_game_verifies_without_its_seed(self, service: GameService) -> None:
        game_id = played(service, strong_seed("running"), ("a1",))
        verdict = service.verify(game_id)
        assert verdict.ok and verdict.seed == "not revealed"

    def test_over_http(self, client: Any, service: GameService) -> None:
        body = client.get(f"/v1/games/{finished(service)}/verify").json
        assert body["verdict"] == "ok" and body["first_failure"] is None and body["seed"] == "verified"


class TestForgeries:
    """Each layer of verification catches what the layer before cannot."""

    def log(self, service: GameService) -> list[Envelope]:
        return service.store.read(finished(service, strong_seed("forgeries")))

    def test_an_altered_payload_breaks_the_chain(self, service: GameService) -> None:
        log = edit(self.log(service), "MarkPlaced", square=8)
        verdict = verify(log)
        assert not verdict.ok and "hash chain" in (verdict.failure or "")
        assert verdict.failure_version == next(e.version for e in log if e.type == "MarkPlaced")

    def test_a_dropped_event(self, service: GameService) -> None:
        log = self.log(service)
        verdict = verify(log[:5] + log[6:])
        assert not verdict.ok and verdict.failure_version == 7

    def test_two_events_reordered(self, service: GameService) -> None:
        log = self.log(service)
        verdict = verify([*log[:5], log[6], log[5], *log[7:]])
        assert not verdict.ok and verdict.failure_version in (6, 7)

    def test_a_swapped_seed(self, service: GameService) -> None:
        log = edit(self.log(service), "SeedRevealed", seed=b"another seed".hex())
        assert not verify(log).ok
        verdict = verify(reseal(log))
        assert not verdict.ok and "commitment" in (verdict.failure or "")

    def test_a_forged_move_with_a_resealed_chain(self, service: GameService) -> None:
        log = self.log(service)
        first_mark = next(e for e in log if e.type == "MarkPlaced")
        forged = reseal(edit(log, "MarkPlaced", square=(first_mark.payload["square"] + 4) % 9))
        verdict = verify(forged)
        assert not verdict.ok and verdict.failure_version == first_mark.version
        assert "differs from what the rules produce" in (verdict.failure or "")

    def test_a_forged_deal_with_a_resealed_chain(self, service: GameService) -> None:
        log = self.log(service)
        dealt = next(e for e in log if e.type == "SecretSquareDealt")
        forged = reseal(edit(log, "SecretSquareDealt", square=(dealt.payload["square"] + 1) % 9))
        verdict = verify(forged)
        assert not verdict.ok and verdict.failure_version == dealt.version and "the deal" in (verdict.failure or "")

    def test_an_illegal_move_with_a_resealed_chain(self, service: GameService) -> None:
        log = self.log(service)
        moves = [i for i, e in enumerate(log) if e.type == "MoveMade"]
        second = log[moves[1]]
        first_square = log[moves[0]].payload["move"]
        forged = reseal(
            [
                *log[: moves[1]],
                dataclasses.replace(second, payload=second.payload | {"move": first_square}),
                *log[moves[1] + 1 :],
            ]
        )
        verdict = verify(forged)
        assert not verdict.ok and verdict.failure_version == second.version and "illegal" in (verdict.failure or "")


class TestExport:
    def export(self, client: Any, game_id: str, token: str | None) -> list[str]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = client.get(f"/v1/games/{game_id}/export", headers=headers)
        assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
        return response.get_data(as_text=True).splitlines()

    def run_verify(self, tmp_path: Path, lines: list[str]) -> subprocess.CompletedProcess[str]:
        path = tmp_path / "game.ndjson"
        path.write_text("\n".join(lines) + "\n")
        return subprocess.run(
            [sys.executable, "-m", "app", "verify", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=60
        )

    def test_the_creators_export_verifies_offline(self, client: Any, tmp_path: Path) -> None:
        game = http_game(client)
        game_id = game["id"]
        lines = self.export(client, game_id, game["creator_token"])
        header = json.loads(lines[0])
        assert header["complete"] is True and header["viewer"] == "auditor" and header["status"] == "finished"
        assert len(lines) == 1 + header["version"]
        result = self.run_verify(tmp_path, lines)
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout.startswith("OK:")
        for broken in (
            lines[:4] + lines[5:],
            [*lines[:4], lines[5], lines[4], *lines[6:]],
            [line.replace('"square":', '"square":1') if '"MarkPlaced"' in line else line for line in lines],
            [
                json.dumps(json.loads(line) | {"payload": {"seed": "00"}}) if '"SeedRevealed"' in line else line
                for line in lines
            ],
        ):
            result = self.run_verify(tmp_path, broken)
            assert result.returncode == 1 and result.stdout.startswith("FAILED"), result.stdout

    def test_a_spectators_export_is_redacted_and_not_verifiable(self, client: Any, tmp_path: Path) -> None:
        game = client.post("/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]}).json
        lines = self.export(client, game["id"], None)
        header = json.loads(lines[0])
        assert header["complete"] is False and header["viewer"] == "spectator"
        assert any(json.loads(line).get("redacted") for line in lines[1:])
        result = self.run_verify(tmp_path, lines)
        assert result.returncode == 2 and "redacted" in result.stderr

    def test_a_public_game_exports_whole_to_anyone(self, client: Any) -> None:
        game = client.post(
            "/v1/games",
            json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": {"secret_squares": False}},
        ).json
        header = json.loads(self.export(client, game["id"], None)[0])
        assert header["complete"] is True


def http_game(client: Any, squares: tuple[str, ...] = ("a1", "a2", "b1", "b2", "c1"), **options: Any) -> dict[str, Any]:
    """A game created and played over HTTP; its creation response."""
    game = client.post(
        "/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": options}
    ).json
    tokens = {s["index"]: s["token"] for s in game["seats"]}
    for square in squares:
        seat = client.get(f"/v1/games/{game['id']}").json["to_act"][0]
        response = client.post(
            f"/v1/games/{game['id']}/moves", json={"move": square}, headers={"Authorization": f"Bearer {tokens[seat]}"}
        )
        assert response.status_code == 201
    return game


class TestTimeTravel:
    def test_every_viewer_sees_the_fold_of_each_prefix(self, client: Any, service: GameService) -> None:
        game = http_game(client)
        envelopes = service.store.read(game["id"])
        rules = contract.get("tictactoe")
        state = rules.initial(2, {"secret_squares": True})
        viewers: dict[Viewer, str | None] = {
            0: game["seats"][0]["token"],
            1: game["seats"][1]["token"],
            Role.SPECTATOR: None,
            Role.AUDITOR: game["creator_token"],
        }
        for n, envelope in enumerate(envelopes, start=1):
            if n > 1 and envelope.type not in SERVICE_EVENTS:
                state = rules.evolve(state, contract.decode_event(rules.events, envelope.type, envelope.payload))
            assert service.at(game["id"], n).state == state
            for viewer, token in viewers.items():
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                response = client.get(f"/v1/games/{game['id']}/state?at={n}", headers=headers)
                if n <= service.head(game["id"]).created.setup_events:
                    assert response.status_code == 422, "a state inside the deal was never a position"
                    continue
                assert response.status_code == 200 and response.json["version"] == n
                assert response.json["state"] == rules.view(state, viewer)


class TestFork:
    def test_a_finished_game_forks_at_any_version(self, client: Any, service: GameService) -> None:
        game = http_game(client)
        tokens = [s["token"] for s in game["seats"]]
        auth = {"Authorization": f"Bearer {game['creator_token']}"}
        fork = client.post(f"/v1/games/{game['id']}/fork", json={"at": 8}, headers=auth)
        assert fork.status_code == 201, fork.json
        forked = fork.json
        assert forked["id"] != game["id"] and forked["version"] == 8 and forked["forked_from"] == f"{game['id']}@8"
        assert all(s["token"] and s["token"] not in tokens for s in forked["seats"])
        original = service.store.read(game["id"], upto=8)
        copy = service.store.read(forked["id"])
        assert [(e.type, e.payload, e.seat) for e in original] == [(e.type, e.payload, e.seat) for e in copy]
        assert service.verify(forked["id"]).ok
        seat = forked["to_act"][0]
        token = next(s["token"] for s in forked["seats"] if s["index"] == seat)
        move = client.post(
            f"/v1/games/{forked['id']}/moves", json={"move": "c3"}, headers={"Authorization": f"Bearer {token}"}
        )
        assert move.status_code == 201

    def test_forks_need_the_creator_and_wait_for_hidden_information(self, client: Any) -> None:
        game = client.post("/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}]}).json
        seat_auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        creator = {"Authorization": f"Bearer {game['creator_token']}"}
        assert client.post(f"/v1/games/{game['id']}/fork", json={"at": 4}, headers=seat_auth).status_code == 403
        refused = client.post(f"/v1/games/{game['id']}/fork", json={"at": 4}, headers=creator)
        assert refused.status_code == 409 and refused.json["error"]["code"] == "fork_unavailable"
        assert client.post(f"/v1/games/{game['id']}/fork", json={"at": 2}, headers=creator).status_code == 422
        public = client.post(
            "/v1/games",
            json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": {"secret_squares": False}},
        ).json
        forked = client.post(
            f"/v1/games/{public['id']}/fork",
            json={"at": 2},
            headers={"Authorization": f"Bearer {public['creator_token']}"},
        )
        assert forked.status_code == 201


class TestFairRandomness:
    def test_no_output_reveals_the_seed_or_the_deck_before_the_end(self, client: Any, service: GameService) -> None:
        seed = strong_seed("tournament-7-table-3-secret").decode()
        seats = [{"name": f"P{i}"} for i in range(3)] + [{"name": "Hook", "bot": {"webhook": "http://127.0.0.1:9/x"}}]
        game = client.post("/v1/games", json={"game": "planet-unknown", "seats": seats, "seed": seed}).json
        game_id = game["id"]
        outputs = [json.dumps(game)]
        record = service.head(game_id)
        for _ in range(6):
            seat = min(record.game.to_act(record.state))
            token = game["seats"][seat]["token"]
            if token is None:
                break
            move = next(iter(record.game.legal_moves(record.state, seat)))
            response = client.post(
                f"/v1/games/{game_id}/moves", json={"move": move}, headers={"Authorization": f"Bearer {token}"}
            )
            outputs.append(response.get_data(as_text=True))
            record = service.head(game_id)
        tokens = [s["token"] for s in game["seats"] if s["token"]] + [None, game["creator_token"]]
        for token in tokens:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            for path in ("", "/events?limit=1000", "/export", "/state?at=3", "/legal-moves"):
                outputs.append(client.get(f"/v1/games/{game_id}{path}", headers=headers).get_data(as_text=True))
        from service.turns import turn_request

        outputs.append(json.dumps(turn_request(service, record, 3)))
        text = "".join(outputs).replace(" ", "")
        assert seed not in text and seed.encode().hex() not in text
        for stack in record.state.stacks:
            assert json.dumps(list(stack[1:4])).replace(" ", "") not in text
