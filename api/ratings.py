"""Ratings: each game's leaderboard, and a bot's ratings for its public page."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from api import docs, schemas
from api.games import service
from domain import contract
from service.games import ServiceError
from service.ratings import MODEL, SCALE, PlayerRecord, Rating, Ratings

blp = Blueprint("ratings", __name__, url_prefix="/v1/ratings", description="Bot ratings per game (OpenSkill).")

HISTORY_SHOWN = 100
"""How many of a bot's latest rating changes per game its page shows."""


class UnknownGameKind(ServiceError):
    """This server hosts no game of that name."""

    code = "unknown_game_kind"


def ratings() -> Ratings:
    return Ratings(service().store)


def _value(rating: Rating) -> dict[str, float]:
    return {"mu": rating.mu / SCALE, "sigma": rating.sigma / SCALE}


def _record(record: PlayerRecord) -> dict[str, Any]:
    counts = {"games": record.games, "wins": record.wins, "draws": record.draws, "losses": record.losses}
    return {"rating": record.rating.ordinal / SCALE, **_value(record.rating), **counts}


def _change(entry: dict[str, Any]) -> dict[str, Any]:
    shown = {name: entry[name] for name in ("game_id", "at", "seat", "rank", "result")}
    return shown | {when: _value(Rating.from_json(entry[when])) for when in ("before", "after")}


def bot_ratings(bot_id: str) -> dict[str, Any]:
    """A player's rating, record and latest changes in each game it was rated in, by game."""
    found = ratings()
    out = {}
    for game in contract.names():
        record = found.record(game, bot_id)
        if record is not None:
            history = [_change(entry) for entry in found.history(game, bot_id, HISTORY_SHOWN)]
            out[game] = _record(record) | {"history": history}
    return out


@blp.route("/<game>")
class Leaderboard(MethodView):
    @blp.arguments(schemas.LeaderboardQuery(), location="query", error_status_code=400)
    @blp.response(200, schemas.Leaderboard)
    @blp.doc(**docs.operation("getLeaderboard", 400, 404, 429))
    def get(self, query: dict[str, Any], game: str) -> dict[str, Any]:
        """The game's rated players, best first by ordinal (`mu - 3 sigma`), `limit` of them from `offset`.

        Every rated game (the table option `rated`) changes its players' ratings once, with OpenSkill's
        Plackett-Luce model; the change is the game's `RatingsUpdated` event.
        """
        if game not in contract.names():
            raise UnknownGameKind(f"this server hosts no game {game!r}; it hosts: {', '.join(contract.names())}")
        total, lines = ratings().leaderboard(game, offset=query["offset"], limit=query["limit"])
        players = [
            {"rank": line.position, "player": line.player, "name": line.name} | _record(line.record) for line in lines
        ]
        return {"game": game, "model": MODEL, "total": total, "players": players}
