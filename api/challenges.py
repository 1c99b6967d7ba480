"""Challenges: a registered bot accepts or declines a game it was named in, with its API key."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from api import docs, schemas
from api.bots import registry
from api.games import BEARER, bearer_token, service
from domain.table.record import Record

blp = Blueprint(
    "challenges", __name__, url_prefix="/v1/challenges", description="A registered bot's consent to play a game."
)


def answered(record: Record, challenge: str) -> dict[str, Any]:
    """The challenge's game after an answer: its status and every challenge's."""
    return {"challenge": challenge, "game_id": record.game_id, "status": record.status, "started": record.started}


@blp.route("/<challenge_id>/accept")
class Accept(MethodView):
    @blp.response(200, schemas.ChallengeAnswered)
    @blp.doc(**docs.operation("acceptChallenge", 401, 403, 404, 409, 429, security=BEARER))
    def post(self, challenge_id: str) -> dict[str, Any]:
        """Accept a challenge: the game starts once every challenged bot has accepted. A repeat changes nothing."""
        bot = registry().authenticate(bearer_token())
        return answered(service().answer_challenge(challenge_id, bot["id"], accept=True), challenge_id)


@blp.route("/<challenge_id>/decline")
class Decline(MethodView):
    @blp.response(200, schemas.ChallengeAnswered)
    @blp.doc(**docs.operation("declineChallenge", 401, 403, 404, 409, 429, security=BEARER))
    def post(self, challenge_id: str) -> dict[str, Any]:
        """Decline a challenge: the game is cancelled and never scored or rated. A repeat changes nothing."""
        bot = registry().authenticate(bearer_token())
        return answered(service().answer_challenge(challenge_id, bot["id"], accept=False), challenge_id)
