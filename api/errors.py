"""One JSON error shape for every failure: ``{"error": {"code": ..., "message": ...}}``."""

from __future__ import annotations

import contextlib
from typing import Any

import redis
from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from domain.contract import RuleError
from service.games import ServiceError

ERROR_STATUS: dict[str, int] = {
    "bad_request": 400,
    "malformed_json": 400,
    "invalid_body": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_your_turn": 403,
    "unknown_game": 404,
    "unknown_bot": 404,
    "unknown_challenge": 404,
    "unknown_game_kind": 404,
    "no_board": 404,
    "stale_version": 409,
    "idempotency_conflict": 409,
    "game_damaged": 409,
    "fork_unavailable": 409,
    "game_cancelled": 409,
    "challenge_pending": 409,
    "challenge_closed": 409,
    "registered_bot_seat": 409,
    "unknown_rules_version": 409,
    "invalid_request": 422,
    "weak_seed": 422,
    "invalid_option": 422,
    "invalid_move": 422,
    "illegal_move": 422,
    "no_open_challenge": 422,
    "game_over": 423,
    "too_many_streams": 429,
    "too_many_requests": 429,
}
"""The HTTP status of every service error (:class:`service.games.ServiceError`) and rule error
(:class:`domain.contract.RuleError`), by its code: the one place where an error meets HTTP."""

RULE_ERROR_STATUS = 422
"""The status of a rule error whose code :data:`ERROR_STATUS` does not list (a game may add codes of its own)."""

SERVICE_ERROR_STATUS = 400
"""The status of a service error whose code :data:`ERROR_STATUS` does not list."""

DISCARD_FACTOR = 16
"""A 413 reads and drops a body of up to this many times the limit before the connection closes."""

HTTP_CODES = {
    400: ("bad_request", "The request could not be read."),
    401: ("unauthorized", "A valid bearer token is required."),
    403: ("forbidden", "This token may not do that."),
    404: ("not_found", "There is nothing at this address."),
    405: ("method_not_allowed", "This address does not take that method."),
    413: ("body_too_large", "The request body is larger than this server accepts."),
    415: ("unsupported_media_type", "Send the body as application/json."),
    422: ("invalid_body", "The request body is not valid."),
    429: ("too_many_requests", "Too many requests; slow down."),
    500: ("internal_error", "The server failed to handle this request."),
}


def error_response(status: int, code: str, message: str, **details: Any) -> tuple[Response, int]:
    """The one error shape."""
    return jsonify({"error": {"code": code, "message": message, **details}}), status


def register_error_handlers(app: Flask) -> None:
    """Map domain, service and HTTP errors to the error shape."""

    @app.errorhandler(RuleError)
    def rule_error(error: RuleError) -> tuple[Response, int]:
        return error_response(ERROR_STATUS.get(error.code, RULE_ERROR_STATUS), error.code, str(error))

    @app.errorhandler(ServiceError)
    def service_error(error: ServiceError) -> tuple[Response, int]:
        status = ERROR_STATUS.get(error.code, SERVICE_ERROR_STATUS)
        return error_response(status, error.code, str(error), **error.details)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Response, int]:
        status = error.code or 500
        code, message = HTTP_CODES.get(status, ("http_error", error.description or "HTTP error"))
        messages = (getattr(error, "data", None) or {}).get("messages")
        if status == 413:
            limit = app.config.get("MAX_CONTENT_LENGTH")
            message = f"The request body is larger than the {limit} bytes this server accepts."
            _discard_body(limit)
            response, status = error_response(status, code, message)
            response.headers["Connection"] = "close"
            return response, status
        if messages is not None:
            if "Invalid JSON body." in str(messages):
                return error_response(400, "malformed_json", "The request body is not valid JSON.")
            fields = messages.get("json", messages) if isinstance(messages, dict) else messages
            return error_response(
                400, "invalid_body", f"The request body is not valid: {_describe(fields)}", fields=fields
            )
        return error_response(status, code, message)

    @app.errorhandler(redis.RedisError)
    def store_unavailable(error: redis.RedisError) -> tuple[Response, int]:
        app.logger.warning("the store did not answer: %s: %s", type(error).__name__, error)
        response, status = error_response(
            503, "store_unavailable", "The game store is briefly unavailable; retry the request in a second."
        )
        response.headers["Retry-After"] = "1"
        return response, status

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> tuple[Response, int]:
        app.logger.exception("unhandled error")
        return error_response(500, "internal_error", "The server failed to handle this request.")


def _discard_body(limit: int | None) -> None:
    """Read and drop the body a 413 leaves unread (up to :data:`DISCARD_FACTOR` times the limit), so that
    the connection closes after the 413 with a clean end of stream, not a reset that hides the answer."""
    length = request.content_length
    if length is None or limit is None or length > DISCARD_FACTOR * limit:
        return
    stream = request.environ["wsgi.input"]
    with contextlib.suppress(Exception):
        while length > 0:
            chunk = stream.read(min(length, 64 * 1024))
            if not chunk:
                break
            length -= len(chunk)


def _describe(fields: Any) -> str:
    if isinstance(fields, dict):
        parts = []
        for name, problem in fields.items():
            text = _describe(problem)
            parts.append(text if name == "_schema" else f"{name}: {text}")
        return "; ".join(parts)
    if isinstance(fields, list):
        return " ".join(str(p) for p in fields)
    return str(fields)
