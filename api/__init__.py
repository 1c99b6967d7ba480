"""The HTTP edge: marshmallow schemas, one blueprint per resource, one error shape."""

from __future__ import annotations

from flask import Flask, Response
from flask_smorest import Api

from api import docs, schemas
from api.board import blp as board_blueprint
from api.bots import blp as bots_blueprint
from api.catalog import blp as catalog_blueprint
from api.challenges import blp as challenges_blueprint
from api.errors import register_error_handlers
from api.games import blp as games_blueprint
from api.health import blp as health_blueprint
from api.json_guard import install as install_json_guard
from api.limits import init_limits
from api.live import blp as live_blueprint
from api.ratings import blp as ratings_blueprint


class OrreryApi(Api):
    """flask-smorest's Api with this server's error shape and no catch-all error response:
    every operation lists each status it can answer (see :mod:`api.docs`)."""

    ERROR_SCHEMA = schemas.Error
    DEFAULT_ERROR_RESPONSE_NAME = None


def init_api(app: Flask) -> Api:
    """Attach the API, its OpenAPI document (``/openapi.json``) and docs (``/docs``) to ``app``."""
    import swagger_ui_bundle

    app.config.update(
        API_TITLE="Orrery",
        API_VERSION="v1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",
        API_SPEC_OPTIONS={
            "info": {
                "description": (
                    "Orrery is an event-sourced game server. Every accepted move is an immutable event; "
                    "every read goes through the requester's view. Authenticate with "
                    "`Authorization: Bearer <token>` (a seat's token, or the creator's). "
                    'Every error has the shape `{"error": {"code": ..., "message": ...}}` (the Error schema); '
                    "each operation lists the statuses it can answer, with examples. A game's state is the "
                    "HomeworldsState or PlanetUnknownState schema; its moves are HomeworldsMove and "
                    "PlanetUnknownMove. Bots receive TurnRequest bodies: see the `turn` webhook."
                )
            },
            "components": {
                "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            },
        },
    )
    api = OrreryApi(app)
    docs.add_components(api.spec)
    for name, schema in (("TurnRequest", schemas.TurnRequest), ("TurnReply", schemas.TurnReply)):
        api.spec.components.schema(name, schema=schema)
    api.register_blueprint(games_blueprint)
    api.register_blueprint(board_blueprint)
    api.register_blueprint(live_blueprint)
    api.register_blueprint(bots_blueprint)
    api.register_blueprint(ratings_blueprint)
    api.register_blueprint(challenges_blueprint)
    api.register_blueprint(health_blueprint)
    api.register_blueprint(catalog_blueprint)
    docs.complete(api.spec)
    app.add_url_rule(
        "/docs/assets/<path:filename>",
        "swagger_ui_assets",
        lambda filename: _send_asset(swagger_ui_bundle.swagger_ui_path, filename),
    )
    register_error_handlers(app)
    init_limits(app)
    install_json_guard(app)
    return api


def _send_asset(folder: str, filename: str) -> Response:
    from flask import send_from_directory

    return send_from_directory(folder, filename)
