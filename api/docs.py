"""The OpenAPI document's parts that marshmallow does not give: operation ids, every error response with
examples, the game schemas (:mod:`api.game_schemas`), the list of event types, and the turn-request webhook.

Examples are data: ``api/examples/*.json``, written from a real server's answers by
``python -m api.examples.generate``. Each file maps ``requests`` (operation id, then example name) and
``responses`` (operation id, then status, then example name) to ``{"summary": ..., "value": ...}``;
the operation id ``*`` holds the examples of a status for operations that have none of their own.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from apispec import APISpec

from api import game_schemas
from domain import contract
from domain.table.record import SERVICE_EVENTS
from service.json_guard import MAX_INT, MAX_STRING_CHARS

REQUEST_SCHEMAS = ("CreateGameRequest", "MoveRequest", "ForkRequest", "BotRequest", "RotateRequest", "AutoAccept")
"""The request bodies; the JSON guard's limits (:mod:`service.json_guard`) are added to every schema they use."""
TEXT_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
"""Text the JSON guard accepts: no control character (C0, DEL or C1)."""
_NOT_SCHEMAS = frozenset({"enum", "const", "example", "examples", "default", "description", "required"})

EXAMPLES = Path(__file__).with_name("examples")
"""The folder of example files."""

ERROR_STATUSES: dict[int, str] = {
    400: "The request cannot be read: `malformed_json` (not JSON, nested too deep, a number out of range) or "
    "`invalid_body` (a field, body or query parameter that is not valid; `fields` names each problem).",
    401: "`unauthorized`: the bearer token (or a bot's API key) is missing where one is needed, malformed, or not "
    "one of this game's (or of a registered bot).",
    403: "`forbidden` (this token may not do that) or `not_your_turn` (the seat may not act now).",
    404: "`unknown_game`: there is no game with this id; `unknown_bot`: there is no registered bot with this id; "
    "`unknown_challenge`: there is no challenge with this id; `unknown_game_kind`: this server hosts no such game; "
    "`no_board` (board pictures only): this game has no drawing.",
    409: "`stale_version` (`expected_version` is not the game's version; `current_version` is), "
    "`idempotency_conflict` (the Idempotency-Key was used for another move), `fork_unavailable`, "
    "`game_damaged`, `unknown_rules_version`, `challenge_pending` (a challenged bot has not accepted yet; "
    "`seats` names them), `game_cancelled` (a challenge was declined or timed out), `challenge_closed` (the "
    "challenge was answered the other way, or its game cancelled) or `registered_bot_seat` (a registered bot "
    "reads its turns on its account stream).",
    413: "`body_too_large`: the body is larger than the server accepts; the connection closes.",
    422: "The request is well formed but refused: `invalid_request` (e.g. an unknown game, a bad seat or cursor; "
    "`field` names it), `invalid_option`, `weak_seed`, or a rule: `invalid_move` (the move cannot be read) or "
    "`illegal_move` (the rules forbid it), with the reason in `message`.",
    423: "`game_over`: the game is over and takes no more moves.",
    429: "`too_many_requests` (a rate limit; see `Retry-After`) or `too_many_streams` (a cap on open streams).",
    503: "`store_unavailable`: the game store did not answer in time (a Redis Cluster slot moving, a node "
    "failing over); nothing was written; retry after `Retry-After` seconds.",
}
"""What each error status means, for every operation that lists it."""

RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before trying again (on a rate limit, or while the store is unavailable).",
        "schema": {"type": "integer"},
    }
}

OPTIONAL_BEARER: list[dict[str, list[str]]] = [{"bearer": []}, {}]
"""Security of reads that anyone may make: a token shows more (a seat's view, the auditor's)."""
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
"""Security of operations that need a token."""


@functools.cache
def examples() -> dict[str, dict[str, Any]]:
    """Every example file merged: ``{"requests": {...}, "responses": {...}}``."""
    merged: dict[str, dict[str, Any]] = {"requests": {}, "responses": {}}
    for path in sorted(EXAMPLES.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for operation, named in data.get("requests", {}).items():
            merged["requests"].setdefault(operation, {}).update(named)
        for operation, by_status in data.get("responses", {}).items():
            for status, named in by_status.items():
                merged["responses"].setdefault(operation, {}).setdefault(status, {}).update(named)
    return merged


def _response_examples(operation_id: str, status: int) -> dict[str, Any]:
    responses = examples()["responses"]
    own = responses.get(operation_id, {}).get(str(status))
    return dict(own) if own else dict(responses.get("*", {}).get(str(status), {}))


def error_response(operation_id: str, status: int) -> dict[str, Any]:
    """The response object of error ``status`` for ``operation_id``: the Error schema and real examples."""
    media: dict[str, Any] = {"schema": game_schemas.ref("Error")}
    found = _response_examples(operation_id, status)
    if found:
        media["examples"] = found
    out: dict[str, Any] = {"description": ERROR_STATUSES[status], "content": {"application/json": media}}
    if status in (429, 503):
        out["headers"] = RETRY_AFTER
    return out


def operation(
    operation_id: str,
    *errors: int,
    success: Iterable[int] = (),
    security: list[dict[str, list[str]]] | None = None,
) -> dict[str, Any]:
    """Keyword arguments for ``@blp.doc``: the operation id, its error responses and its examples.

    ``success`` names the statuses documented by ``@blp.response`` that get examples from the data. Statuses
    are ints, as flask-smorest keys its own responses, so that the examples merge into them.
    """
    responses: dict[int, Any] = {status: error_response(operation_id, status) for status in (*errors, 503)}
    for status in success:
        found = _response_examples(operation_id, status)
        if found:
            responses[status] = {"content": {"application/json": {"examples": found}}}
    out: dict[str, Any] = {"operationId": operation_id, "responses": responses}
    requests = examples()["requests"].get(operation_id)
    if requests:
        out["requestBody"] = {"content": {"application/json": {"examples": requests}}}
    if security is not None:
        out["security"] = security
    return out


def event_types() -> list[str]:
    """Every event type name: the service's own and those of every registered game and rules version."""
    names = set(SERVICE_EVENTS)
    for game in contract.names():
        for version in contract.versions(game):
            names.update(contract.get(game, version).events)
    return sorted(names)


def guard_limits(schemas: dict[str, Any], names: Iterable[str]) -> None:
    """Add the JSON guard's limits to the schemas ``names`` and every schema they refer to: strings and keys
    without control characters and at most ``MAX_STRING_CHARS`` long, integers within 64 bits."""
    seen: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item)
            return
        if not isinstance(node, dict):
            return
        reference = node.get("$ref")
        if isinstance(reference, str):
            name = reference.rsplit("/", 1)[1]
            if name not in seen and name in schemas:
                seen.add(name)
                visit(schemas[name])
            return
        kinds = node.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "string" in kinds:
            node.setdefault("maxLength", MAX_STRING_CHARS)
            if node.setdefault("pattern", TEXT_PATTERN) != TEXT_PATTERN:
                node.setdefault("allOf", []).append({"pattern": TEXT_PATTERN})
        if "integer" in kinds:
            node.setdefault("minimum", -MAX_INT - 1)
            node.setdefault("maximum", MAX_INT)
        if "object" in kinds and node.get("additionalProperties") is not False:
            node.setdefault("propertyNames", {}).update(pattern=TEXT_PATTERN, maxLength=MAX_STRING_CHARS)
            if node.get("additionalProperties", True) in (True, {}):
                node["additionalProperties"] = game_schemas.ref("JSONValue")
        for key, value in list(node.items()):
            if key not in _NOT_SCHEMAS:
                visit(value)

    for name in names:
        visit({"$ref": f"#/components/schemas/{name}"})


JSON_VALUE: dict[str, Any] = {
    "description": "Any JSON value the JSON guard accepts: text without control characters, integers within "
    "64 bits, and arrays and objects of such values.",
    "pattern": TEXT_PATTERN,
    "maxLength": MAX_STRING_CHARS,
    "minimum": -MAX_INT - 1,
    "maximum": MAX_INT,
    "items": game_schemas.ref("JSONValue"),
    "propertyNames": {"pattern": TEXT_PATTERN, "maxLength": MAX_STRING_CHARS},
    "additionalProperties": game_schemas.ref("JSONValue"),
}
"""Each keyword constrains only values of its own type, so the schema takes any JSON value."""


def add_components(spec: APISpec) -> None:
    """Register the game schemas; call before the blueprints, whose schemas refer to them."""
    spec.components.schema("JSONValue", copy.deepcopy(JSON_VALUE))
    for name, schema in game_schemas.COMPONENTS.items():
        spec.components.schema(name, copy.deepcopy(schema))


def complete(spec: APISpec) -> None:
    """Finish the document once the blueprints are in: event types, game names and the turn webhook."""
    schemas = spec.components.schemas
    event_type = schemas["Event"]["properties"]["type"]
    event_type["enum"] = event_types()
    games = contract.names()
    schemas["CreateGameRequest"]["properties"]["game"]["enum"] = games
    schemas["BotRequest"]["properties"]["games"]["items"]["enum"] = games
    guard_limits(schemas, REQUEST_SCHEMAS)
    spec.options["webhooks"] = {
        "turn": {
            "post": {
                "operationId": "receiveTurn",
                "summary": "A turn request, POSTed to a webhook bot's URL when its seat must act.",
                "description": "Signed as Standard Webhooks says: `webhook-signature: v1,<base64 HMAC-SHA256>` "
                "over `<webhook-id>.<webhook-timestamp>.<body>` with the seat's `webhook_secret`. The same "
                "bodies, with the same ids, are the lines of `GET /v1/bots/stream` for a bot that pulls. "
                "Deliveries are retried with backoff until the turn's deadline.",
                "parameters": [
                    {"in": "header", "name": name, "required": True, "schema": {"type": "string"}}
                    for name in ("webhook-id", "webhook-timestamp", "webhook-signature")
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": game_schemas.ref("TurnRequest"),
                            "examples": examples()["requests"].get("receiveTurn", {}),
                        }
                    },
                },
                "responses": {
                    "200": {
                        "description": "The bot's move, decided at once.",
                        "content": {"application/json": {"schema": game_schemas.ref("TurnReply")}},
                    },
                    "202": {
                        "description": "The bot will POST its move to `moves_url` with its `token` before the deadline."
                    },
                },
            }
        }
    }
