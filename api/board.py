"""``/v1/games/<id>/board.svg``: the position as a picture, drawn by the game's own renderer.

A renderer is a pure function from a view (what :meth:`GameService.state_at` returns) to SVG text, kept
beside each game's rules (``domain/<game>/svg.py``). :data:`RENDERERS` maps a game's name to its module;
a game without one (the tests' tic-tac-toe) answers ``404 no_board``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api import docs, schemas
from api.games import IF_NONE_MATCH, NOT_MODIFIED, bearer_token, service
from service.games import ServiceError

blp = Blueprint("board", __name__, url_prefix="/v1/games", description="Board pictures: a game's position as SVG.")

RENDERERS: dict[str, str] = {
    "homeworlds": "domain.homeworlds.svg",
    "planet-unknown": "domain.planet_unknown.svg",
}
"""The module whose ``render(view) -> str`` draws each game."""

SVG = "image/svg+xml"
SVG_ETAG = {
    "ETag": {
        "description": 'The game\'s version as `"svg-<version>"`; send it as If-None-Match.',
        "schema": {"type": "string"},
    }
}


class NoBoard(ServiceError):
    """The game has no renderer."""

    code = "no_board"


def renderer(game: str) -> Callable[[Any], str] | None:
    """The ``render`` function of ``game``, or None when it has none (or its module is not installed)."""
    module = RENDERERS.get(game)
    if module is None:
        return None
    try:
        found: Callable[[Any], str] = importlib.import_module(module).render
    except ModuleNotFoundError as error:
        if error.name != module:
            raise
        return None
    return found


@blp.route("/<game_id>/board.svg", parameters=[IF_NONE_MATCH])
class Board(MethodView):
    @blp.arguments(schemas.StateQuery(), location="query", error_status_code=400)
    @blp.doc(**docs.operation("getBoard", 400, 401, 404, 409, 422, 429, security=docs.OPTIONAL_BEARER))
    @blp.doc(
        responses={
            "200": {
                "description": "The position at version `at` (the newest the requester may see without it) as "
                "an SVG document, drawn as the requester may see it.",
                "headers": SVG_ETAG,
                "content": {SVG: {"schema": {"type": "string"}}},
            },
            **NOT_MODIFIED,
        }
    )
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """The requester's view of the position as a picture: the same tokens, versions and delays as the state.

        Homeworlds and Planet Unknown are drawn; a game without a drawing answers `404 no_board`.
        """
        viewer = service().viewer_for(game_id, bearer_token())
        game = service().head(game_id).game.name
        render = renderer(game)
        if render is None:
            raise NoBoard(f"there is no board picture for {game}; read its state as JSON at /v1/games/{game_id}/state")
        version, view = service().state_at(game_id, viewer, query["at"])
        etag = f'"svg-{version}"'
        headers = {"ETag": etag, "Vary": "Authorization"}
        if etag in request.headers.get("If-None-Match", ""):
            return Response(status=304, headers=headers)
        return Response(render(view), mimetype=SVG, headers=headers)
