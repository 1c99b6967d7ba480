"""The API fuzzed against its own OpenAPI document (schemathesis): no request ends in a server error.

Every operation gets valid and invalid requests, generated from ``/openapi.json``,
three times over for each game: anonymously, with a seat's token, and with
the creator's token, with ``game_id`` naming a real game. The check is
schemathesis's ``not_a_server_error`` and nothing more; the live streams are
left out (their answers never end, so they need a live server, and
tests/test_streams.py covers them). ``ORRERY_FUZZ_EXAMPLES`` sets how many
requests each operation gets per mode and identity.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import os
from collections.abc import Iterator
from typing import Any

import hypothesis
import pytest
import schemathesis
from schemathesis import GenerationMode

GAMES = ("homeworlds", "planet-unknown")
IDENTITIES = ("anonymous", "seat", "creator")
EXAMPLES = int(os.environ.get("ORRERY_FUZZ_EXAMPLES", "15"))
STREAMS = ("/v1/games/{game_id}/stream", "/v1/bots/stream")
SETTINGS = hypothesis.settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    phases=[hypothesis.Phase.generate],
    suppress_health_check=list(hypothesis.HealthCheck),
)


@dataclasses.dataclass
class Tally:
    """Requests sent and the server errors among them."""

    requests: int = 0
    statuses: collections.Counter[int] = dataclasses.field(default_factory=collections.Counter)
    failures: list[str] = dataclasses.field(default_factory=list)


@pytest.fixture(scope="module")
def api_schema(app: Any) -> Any:
    return schemathesis.openapi.from_wsgi("/openapi.json", app)


@pytest.fixture(scope="module")
def games(app: Any) -> dict[str, dict[str, Any]]:
    """One game of each kind, created through the API, with its tokens."""
    client = app.test_client()
    out = {}
    for name in GAMES:
        response = client.post("/v1/games", json={"game": name, "seats": [{"name": "Ada"}, {"name": "Bob"}]})
        assert response.status_code == 201, response.get_data(as_text=True)
        out[name] = response.json
    return out


@pytest.fixture(scope="module")
def tally() -> Iterator[Tally]:
    result = Tally()
    yield result
    statuses = ", ".join(f"{status}: {n}" for status, n in sorted(result.statuses.items()))
    print(f"\nschemathesis: {result.requests} requests ({statuses}), {len(result.failures)} server errors")


def operations(api_schema: Any, *, game_paths: bool) -> list[Any]:
    found = [result.ok() for result in api_schema.get_all_operations()]
    return [op for op in found if op.path not in STREAMS and ("{game_id}" in op.path) == game_paths]


def fuzz(operation: Any, tally: Tally, path_parameters: dict[str, str], headers: dict[str, str]) -> None:
    """Send ``EXAMPLES`` valid and ``EXAMPLES`` invalid requests to ``operation``; note every 5xx."""
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        strategy = operation.as_strategy(mode, path_parameters=path_parameters or None)

        @SETTINGS
        @hypothesis.given(case=strategy)
        def run(case: Any) -> None:
            response = case.call(headers=headers)
            tally.requests += 1
            tally.statuses[response.status_code] += 1
            if response.status_code >= 500:
                tally.failures.append(
                    f"{response.status_code} {case.method} {case.formatted_path} query={case.query!r} "
                    f"headers={dict(case.headers or {})!r} body={case.body!r}: {response.text[:300]}"
                )

        with contextlib.suppress(hypothesis.errors.Unsatisfiable):
            run()  # an operation that takes no input has no invalid request


@pytest.mark.timeout(120)
@pytest.mark.parametrize("identity", IDENTITIES)
@pytest.mark.parametrize("game", GAMES)
def test_no_server_error_on_a_game(
    api_schema: Any, games: dict[str, dict[str, Any]], tally: Tally, game: str, identity: str
) -> None:
    created = games[game]
    token = {"anonymous": None, "seat": created["seats"][0]["token"], "creator": created["creator_token"]}[identity]
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    before = len(tally.failures)
    for operation in operations(api_schema, game_paths=True):
        fuzz(operation, tally, {"game_id": created["id"]}, headers)
    assert tally.failures[before:] == []


@pytest.mark.timeout(60)
def test_no_server_error_elsewhere(api_schema: Any, tally: Tally) -> None:
    before = len(tally.failures)
    for operation in operations(api_schema, game_paths=False):
        fuzz(operation, tally, {}, {})
    assert tally.failures[before:] == []
