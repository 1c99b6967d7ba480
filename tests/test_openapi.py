"""The OpenAPI document tells the truth, and can be learned from.

* Its shape: an operation id on every operation, every error status with the Error schema and an example,
  the game schemas, the event types, and the turn-request webhook.
* The game schemas hold for real views and moves: random games of both games, every viewer.
* schemathesis with every check finds no violation: valid and invalid requests for both games, anonymous
  and with a seat's and the creator's token (the live streams are left out: their answers never end).
* A typed client generated from ``/openapi.json`` by openapi-python-client plays Homeworlds against a
  built-in bot over real HTTP.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis
import jsonschema_rs
import pytest
import schemathesis
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.core.failures import FailureGroup

from domain import contract
from domain.contract import Role

GAMES = ("homeworlds", "planet-unknown")
IDENTITIES = ("anonymous", "seat", "creator")
STREAMS = ("/v1/games/{game_id}/stream", "/v1/bots/stream")
EXAMPLES = 10
SETTINGS = hypothesis.settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    phases=[hypothesis.Phase.generate],
    suppress_health_check=list(hypothesis.HealthCheck),
)
POSITIVE_STATUSES = ["2xx", "3xx", "401", "403", "404", "409", "422", "423", "429"]
"""What a schema-valid request may get: the defaults, and 422/423 for what only the rules or the registry
refuse (an illegal move, an unknown bot, a game that is over): the schema says what is well formed."""


@pytest.fixture(scope="module")
def spec(app: Any) -> dict[str, Any]:
    document: dict[str, Any] = app.test_client().get("/openapi.json").json
    return document


def validator(spec: dict[str, Any], name: str) -> jsonschema_rs.Draft202012Validator:
    """A validator of the component schema ``name`` (its references resolved in the document)."""
    root = {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
    return jsonschema_rs.Draft202012Validator(root, validate_formats=True)


def operations_of(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield path, method, operation


# --- the document's shape -----------------------------------------------------------------


def test_every_operation_has_a_unique_camel_case_id(spec: dict[str, Any]) -> None:
    ids = [op["operationId"] for _, _, op in operations_of(spec)]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z][A-Za-z]+", i) for i in ids), ids
    assert {"createGame", "listGames", "getGame", "makeMove", "listLegalMoves", "streamBotTurns"} <= set(ids)


def test_every_error_response_has_the_error_shape_and_an_example(spec: dict[str, Any]) -> None:
    error = validator(spec, "Error")
    for path, method, operation in operations_of(spec):
        assert "default" not in operation["responses"], (method, path)
        for status, response in operation["responses"].items():
            if int(status) < 400 or "text/event-stream" in str(response) or "x-ndjson" in str(response):
                continue
            media = response["content"]["application/json"]
            if status == "503":
                continue
            assert media["schema"] == {"$ref": "#/components/schemas/Error"}, (method, path, status)
            assert media.get("examples"), (method, path, status)
            for named in media["examples"].values():
                error.validate(named["value"])


def test_the_error_schema_is_the_one_the_server_sends(spec: dict[str, Any], client: Any) -> None:
    detail = spec["components"]["schemas"]["ErrorDetail"]
    assert detail["required"] == ["code", "message"]
    assert detail["properties"]["code"]["type"] == "string"
    answer = client.get("/v1/games/nothing-here")
    validator(spec, "Error").validate(answer.json)
    assert answer.json["error"]["code"] == "unknown_game"


def test_event_types_come_from_the_registries(spec: dict[str, Any]) -> None:
    from domain.table.record import SERVICE_EVENTS

    listed = set(spec["components"]["schemas"]["Event"]["properties"]["type"]["enum"])
    assert set(SERVICE_EVENTS) <= listed
    for name in GAMES:
        assert set(contract.get(name).events) <= listed


def test_the_turn_request_is_a_webhook(spec: dict[str, Any]) -> None:
    assert spec["openapi"] == "3.1.0"
    turn = spec["webhooks"]["turn"]["post"]
    assert turn["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/TurnRequest"}
    properties = spec["components"]["schemas"]["TurnRequest"]["properties"]
    for url in ("api_url", "moves_url", "legal_moves_url"):
        assert properties[url]["format"] == "uri"
    for named in turn["requestBody"]["content"]["application/json"]["examples"].values():
        validator(spec, "TurnRequest").validate(named["value"])


def test_request_examples_are_valid_requests(spec: dict[str, Any]) -> None:
    for path, method, operation in operations_of(spec):
        body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        schema_ref = body.get("schema", {}).get("$ref")
        for named in body.get("examples", {}).values():
            assert schema_ref is not None, (method, path)
            validator(spec, schema_ref.rsplit("/", 1)[1]).validate(named["value"])


def test_success_examples_are_valid_answers(spec: dict[str, Any]) -> None:
    for path, method, operation in operations_of(spec):
        for status, response in operation["responses"].items():
            media = response.get("content", {}).get("application/json", {})
            ref = media.get("schema", {}).get("$ref")
            for named in media.get("examples", {}).values() if ref else ():
                assert ref is not None, (method, path, status)
                validator(spec, ref.rsplit("/", 1)[1]).validate(named["value"])


def test_each_game_has_move_and_state_examples(spec: dict[str, Any]) -> None:
    moves = spec["paths"]["/v1/games/{game_id}/moves"]["post"]["requestBody"]["content"]["application/json"]
    names = set(moves["examples"])
    assert {"homeworlds-text", "homeworlds-json", "planet-unknown-json", "planet-unknown-text"} <= names
    state = spec["paths"]["/v1/games/{game_id}/state"]["get"]["responses"]["200"]["content"]["application/json"]
    assert {"homeworlds", "planet-unknown"} <= set(state["examples"])


# --- the game schemas hold for real games ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "seats", "options"),
    [
        ("homeworlds", 2, {}),
        ("planet-unknown", 2, {}),
        ("planet-unknown", 1, {}),
        ("planet-unknown", 3, {"private_objectives": True, "events": True}),
    ],
)
def test_views_and_legal_moves_of_random_games_match_the_schemas(
    spec: dict[str, Any], name: str, seats: int, options: dict[str, Any]
) -> None:
    game = contract.get(name)
    state_schema = validator(spec, "HomeworldsState" if name == "homeworlds" else "PlanetUnknownState")
    move_schema = validator(spec, "HomeworldsMove" if name == "homeworlds" else "PlanetUnknownMove")
    legal_schema = validator(spec, "HomeworldsTurnText" if name == "homeworlds" else "PlanetUnknownAction")
    state = game.initial(seats, contract.parse_options(game.options, options))
    state = contract.fold(game, state, game.setup(state, b"openapi-views-" + name.encode()))
    rng = random.Random(7)
    viewers = [Role.SPECTATOR, Role.AUDITOR, *range(seats)]
    plies = 0
    while game.outcome(state) is None and plies < 1500:
        if plies % 4 == 0:
            for viewer in viewers:
                state_schema.validate(game.view(state, viewer))
        for seat in sorted(game.to_act(state)):
            for move in list(game.legal_moves(state, seat))[:20]:
                legal_schema.validate(move)
                move_schema.validate(move)
            move = game.bots["random"](contract.seat_view(game, state, seat), seat, rng, 1)
            state = contract.fold(game, state, game.decide(state, seat, move))
            plies += 1
            if game.outcome(state) is not None:
                break
    assert game.outcome(state) is not None
    for viewer in viewers:
        state_schema.validate(game.view(state, viewer))


def test_a_real_turn_request_matches_its_schema(spec: dict[str, Any], client: Any, service: Any) -> None:
    from service.turns import turn_request

    for name in GAMES:
        created = client.post("/v1/games", json={"game": name, "seats": [{"name": "A"}, {"name": "B"}]}).json
        record = service.head(created["id"])
        seat = min(record.game.to_act(record.state))
        validator(spec, "TurnRequest").validate(turn_request(service, record, seat))


# --- schemathesis, every check ------------------------------------------------------------


@pytest.fixture(scope="module")
def api_schema(app: Any) -> Any:
    loaded = schemathesis.openapi.from_wsgi("/openapi.json", app)
    loaded.config.checks.positive_data_acceptance.expected_statuses = POSITIVE_STATUSES
    return loaded


@pytest.fixture(scope="module")
def fuzzed_games(app: Any) -> dict[str, dict[str, Any]]:
    client = app.test_client()
    out = {}
    for name in GAMES:
        response = client.post("/v1/games", json={"game": name, "seats": [{"name": "Ada"}, {"name": "Bob"}]})
        assert response.status_code == 201, response.get_data(as_text=True)
        out[name] = response.json
    return out


def all_checks() -> list[Any]:
    load_all_checks()
    return CHECKS.get_all()


def check_operations(
    api_schema: Any, game_paths: bool, path_parameters: dict[str, str], headers: dict[str, str]
) -> list[str]:
    """Run every check on ``EXAMPLES`` valid and invalid requests per operation; the failures, as text."""
    failures: list[str] = []
    checks = all_checks()
    for result in api_schema.get_all_operations():
        operation = result.ok()
        if operation.path in STREAMS or ("{game_id}" in operation.path) != game_paths:
            continue
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategy = operation.as_strategy(mode, path_parameters=path_parameters or None, headers=headers or None)

            @SETTINGS
            @hypothesis.given(case=strategy)
            def run(case: Any) -> None:
                try:
                    case.call_and_validate(checks=checks)
                except FailureGroup as error:
                    failures.append(f"{case.operation.label} {case.meta.generation.mode.name}: {str(error)[:1500]}")

            with contextlib.suppress(hypothesis.errors.Unsatisfiable):
                run()
    return failures


@pytest.mark.timeout(120)
@pytest.mark.parametrize("identity", IDENTITIES)
@pytest.mark.parametrize("game", GAMES)
def test_schemathesis_finds_no_violation_on_a_game(
    api_schema: Any, fuzzed_games: dict[str, dict[str, Any]], game: str, identity: str
) -> None:
    created = fuzzed_games[game]
    token = {"anonymous": None, "seat": created["seats"][0]["token"], "creator": created["creator_token"]}[identity]
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    failures = check_operations(api_schema, True, {"game_id": created["id"]}, headers)
    assert failures == [], "\n\n".join(failures)


@pytest.mark.timeout(120)
def test_schemathesis_finds_no_violation_elsewhere(api_schema: Any) -> None:
    failures = check_operations(api_schema, False, {}, {})
    assert failures == [], "\n\n".join(failures)


# --- a generated client plays a game --------------------------------------------------------


@pytest.fixture(scope="module")
def generated_client(spec: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The package openapi-python-client generates from /openapi.json, imported from a tmp folder."""
    import json

    cli = shutil.which("openapi-python-client") or str(Path(sys.executable).with_name("openapi-python-client"))
    if not Path(cli).exists():
        pytest.skip("openapi-python-client is not installed (pip install -e '.[test]' installs it)")
    folder = tmp_path_factory.mktemp("client")
    document = folder / "openapi.json"
    document.write_text(json.dumps(spec))
    output = folder / "orrery_client"
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    run = subprocess.run(
        [cli, "generate", "--path", str(document), "--output-path", str(output), "--meta", "none"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PATH": path},
    )
    assert run.returncode == 0 and (output / "__init__.py").exists(), run.stdout + run.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("orrery_client")
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == "orrery_client" or m.startswith("orrery_client.")]:
            del sys.modules[name]


@pytest.mark.timeout(240)
def test_a_generated_client_plays_homeworlds_against_a_bot(
    generated_client: Any, live_server: str, worker: Any
) -> None:
    from orrery_client import AuthenticatedClient, Client
    from orrery_client.api.games import create_game, get_game, list_legal_moves, make_move
    from orrery_client.models import CreatedGame, CreateGameRequest, Game, LegalMoves, MoveRequest, MoveResult

    anonymous = Client(base_url=live_server, raise_on_unexpected_status=True)
    body = CreateGameRequest.from_dict(
        {
            "game": "homeworlds",
            "seats": [{"name": "Ada"}, {"name": "Random", "bot": {"builtin": "random", "think_ms": 1}}],
        }
    )
    created = create_game.sync(client=anonymous, body=body)
    assert isinstance(created, CreatedGame) and created.status == "active"
    token = created.seats[0].token
    assert isinstance(token, str)
    me = AuthenticatedClient(base_url=live_server, token=token, raise_on_unexpected_status=True)
    rng = random.Random(13)
    deadline = time.monotonic() + 200
    moves = 0
    while time.monotonic() < deadline:
        game = get_game.sync(client=me, game_id=created.id)
        assert isinstance(game, Game)
        if game.status == "finished":
            break
        if 0 not in game.to_act:
            time.sleep(0.05)
            continue
        legal = list_legal_moves.sync(client=me, game_id=created.id, limit=200)
        assert isinstance(legal, LegalMoves) and legal.seat == 0 and legal.moves
        choice = rng.choice(legal.moves) if moves < 60 else {"resign": True}
        result = make_move.sync(
            client=me,
            game_id=created.id,
            body=MoveRequest.from_dict({"move": choice, "expected_version": legal.version}),
        )
        assert isinstance(result, MoveResult) and result.events
        moves += 1
    final = get_game.sync(client=me, game_id=created.id)
    assert isinstance(final, Game) and final.status == "finished", "the game did not end in time"
    assert moves > 0
