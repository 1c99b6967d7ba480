"""The web client: the lobby at ``/``, a game's page at ``/games/<id>`` and their static assets.

Plain HTML, CSS and JavaScript modules with no build step. It is a Flask blueprint registered on
the app directly (not through flask-smorest), so none of its pages are in the OpenAPI document.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, send_from_directory

STATIC = Path(__file__).resolve().parent / "static"
"""The folder of the client's files: pages, style sheet and JavaScript modules."""

CACHE_SECONDS = 60
"""How long a browser may keep an asset before it revalidates it (by its ETag)."""

blp = Blueprint("web", __name__)


def _page(name: str) -> Response:
    response = send_from_directory(STATIC, name, mimetype="text/html", max_age=0)
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    )
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@blp.get("/")
def lobby() -> Response:
    """The lobby: the games list with filters, and the form that creates a game against bots."""
    return _page("lobby.html")


@blp.get("/games/<game_id>")
def game_page(game_id: str) -> Response:
    """A game's page: board, turn, moves, replay and play as a seat (the script reads the id from the path)."""
    return _page("game.html")


def init_web(app: Flask) -> None:
    """Serve the web client from ``app``: its pages, and its assets at ``/static/...`` (as the app's own static
    folder, whose route Flask registers first), with JavaScript modules as ``text/javascript``."""
    import mimetypes

    mimetypes.add_type("text/javascript", ".js")
    mimetypes.add_type("text/css", ".css")
    mimetypes.add_type("image/svg+xml", ".svg")
    app.config.setdefault("SEND_FILE_MAX_AGE_DEFAULT", CACHE_SECONDS)
    app.static_folder = str(STATIC)
    app.register_blueprint(blp)
