"""Registered bots: registration, the bot's own view, rotating its secrets, and its public page."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from api import docs, schemas
from api.games import BEARER, bearer_token, service
from api.ratings import bot_ratings
from service.bots import BotRegistry

blp = Blueprint("bots", __name__, url_prefix="/v1/bots", description="Bots with an identity of their own.")


def registry() -> BotRegistry:
    """This app's bot registry, over its game service."""
    found = current_app.extensions.get("orrery.bots")
    if found is None:
        found = current_app.extensions["orrery.bots"] = BotRegistry(service())
    return found


@blp.route("")
class Bots(MethodView):
    @blp.arguments(schemas.BotRequest(), error_status_code=400)
    @blp.response(201, schemas.BotRegistered)
    @blp.doc(**docs.operation("registerBot", 400, 413, 422, 429))
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Register a bot: its API key and, for a webhook bot, its own signing secret are shown only here.

        Name one transport: `"webhook": <url>` (checked like a webhook seat's URL) or `"stream": true`.
        Two registrations of the same URL get two different secrets.
        """
        made = registry().register(
            body["name"],
            body["games"],
            webhook=body["webhook"],
            stream=body["stream"],
            auto_accept=body["auto_accept"],
            ladder=body["ladder"],
        )
        return made.bot | {"api_key": made.api_key, "webhook_secret": made.webhook_secret}


@blp.route("/me")
class Me(MethodView):
    @blp.response(200, schemas.Bot)
    @blp.doc(**docs.operation("getMyBot", 401, 429, security=BEARER))
    def get(self) -> dict[str, Any]:
        """The registration this API key belongs to."""
        return registry().me(bearer_token())


@blp.route("/me/rotate")
class Rotate(MethodView):
    @blp.arguments(schemas.RotateRequest(), error_status_code=400)
    @blp.response(200, schemas.Rotated)
    @blp.doc(**docs.operation("rotateBotSecret", 400, 401, 413, 422, 429, security=BEARER))
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """A new signing secret or API key, shown only here; the old one stops working at once."""
        made = registry().rotate(bearer_token(), body["rotate"])
        return {"bot": made.bot, "api_key": made.api_key, "webhook_secret": made.webhook_secret}


@blp.route("/<bot_id>")
class PublicBot(MethodView):
    @blp.response(200, schemas.Bot)
    @blp.doc(**docs.operation("getBot", 404, 429))
    def get(self, bot_id: str) -> dict[str, Any]:
        """A registered bot as anyone sees it, with its rating, record and rating history in each game."""
        return registry().public(bot_id) | {"ratings": bot_ratings(bot_id)}
