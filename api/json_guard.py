"""The JSON guard in front of every request body, run before any view parses it (see :mod:`service.json_guard`)."""

from __future__ import annotations

from flask import Flask, request
from webargs.core import is_json

from service.json_guard import loads


def install(app: Flask) -> None:
    """Check every JSON request body of ``app`` before its view runs."""
    app.before_request(check_request_body)


def check_request_body() -> None:
    """The ``before_request`` hook: raise :class:`MalformedJSON` or :class:`InvalidBody` for a bad body."""
    if request.mimetype is None or not is_json(request.mimetype):
        return
    raw = request.get_data(cache=True)
    if raw:
        loads(raw)
