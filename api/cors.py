"""Cross-origin access to the JSON API (``/v1/...``) for the origins ``ORRERY_CORS_ORIGINS`` lists; off by default."""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask, Response, request

PREFIX = "/v1/"
"""Only the JSON API is shared with other origins; pages, docs and health checks are not."""

ALLOW_HEADERS = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID"
ALLOW_METHODS = "GET, POST, OPTIONS"
EXPOSE_HEADERS = "ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Location"
MAX_AGE_S = 600
"""How long a browser may cache a preflight answer."""


def install(app: Flask, origins: Iterable[str]) -> None:
    """Answer preflight requests to ``/v1/...`` and add CORS headers to its responses for ``origins``.

    Does nothing when ``origins`` is empty: no request then gets any ``Access-Control-*`` header.
    """
    allowed = frozenset(origins)
    if not allowed:
        return

    def allowed_origin() -> str | None:
        origin = request.headers.get("Origin")
        if origin is None or not request.path.startswith(PREFIX):
            return None
        return origin if origin in allowed else None

    def preflight() -> Response | None:
        if request.method != "OPTIONS" or not request.path.startswith(PREFIX):
            return None
        if "Access-Control-Request-Method" not in request.headers:
            return None
        response = Response(status=204)
        if allowed_origin() is not None:
            response.headers["Access-Control-Allow-Methods"] = ALLOW_METHODS
            response.headers["Access-Control-Allow-Headers"] = ALLOW_HEADERS
            response.headers["Access-Control-Max-Age"] = str(MAX_AGE_S)
        return response

    def add_headers(response: Response) -> Response:
        if request.path.startswith(PREFIX):
            response.vary.add("Origin")
        origin = allowed_origin()
        if origin is not None:
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
        return response

    app.before_request_funcs.setdefault(None, []).insert(0, preflight)
    app.after_request(add_headers)
