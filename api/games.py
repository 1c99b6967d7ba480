"""``/v1/games``: create, list, read, move, and read events and past states."""

from __future__ import annotations

import itertools
import re
from typing import Any

from flask import Response, current_app, jsonify, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint

from api import docs, schemas
from domain.contract import Role, Viewer
from domain.table.record import Record
from domain.table.seats import BotSeat, registered
from service import listing
from service.games import Created, Forbidden, GameService, InvalidRequest, SeatSpec, Unauthorized, challenge_id

blp = Blueprint("games", __name__, url_prefix="/v1/games", description="Games: create them, play them, read them.")

IDEMPOTENCY_KEY = re.compile(r"^[A-Za-z0-9._:\-]{1,200}$")
BEARER = docs.BEARER
ETAG = {"ETag": {"description": "The game's version, quoted; send it as If-None-Match.", "schema": {"type": "string"}}}
NOT_MODIFIED = {"304": {"description": "Not Modified: If-None-Match names the current version.", "headers": ETAG}}
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "schema": {"type": "string"},
    "required": False,
    "description": "An ETag from an earlier answer: a 304 while the game is still at that version.",
}


def service() -> GameService:
    svc: GameService = current_app.extensions["orrery.service"]
    return svc


def bearer_token() -> str | None:
    """The bearer token of the request, if any."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send the token as 'Authorization: Bearer <token>'")
    return token.strip()


def seat_of(game_id: str) -> int:
    """The seat whose token the request carries, or a 401/403."""
    return service().seat_for(game_id, bearer_token())


def summary(record: Record, *, creator: bool = False) -> dict[str, Any]:
    """The game's public facts; a webhook seat's URL only for its ``creator`` (``{"webhook": true}`` otherwise)."""
    return {
        "id": record.game_id,
        "game": record.game.name,
        "status": record.status,
        "version": record.version,
        "created_at": record.created_ms,
        "seats": [
            {"index": i, "name": s["name"], "bot": s["bot"] if creator else BotSeat.hide_url(s["bot"])}
            for i, s in enumerate(record.created.seats)
        ],
        "to_act": listing.to_act_of(record),
        "result": listing.result_of(record),
    }


def challenges(record: Record) -> list[dict[str, Any]]:
    """Each registered bot seat's challenge and how it stands."""
    out = []
    expires = service().challenge_expiry(record)
    for seat, bot in sorted(registered(record.created.seats).items()):
        if record.cancelled is not None and record.cancelled.seat == seat:
            status = "declined" if record.cancelled.reason == "declined" else record.cancelled.reason
        elif seat in record.challenged:
            status = "closed" if record.cancelled is not None else "pending"
        else:
            status = "accepted"
        out.append(
            {
                "id": challenge_id(record.game_id, seat),
                "seat": seat,
                "bot": bot,
                "status": status,
                "expires_at": expires,
            }
        )
    return out


def detail(record: Record, viewer: Viewer, *, creator: bool = False) -> dict[str, Any]:
    return summary(record, creator=creator or viewer is Role.AUDITOR) | {
        "challenges": challenges(record),
        "state": service().view(record, viewer),
        "seed_sha256": record.created.seed_sha256,
    }


def created_body(created: Created) -> dict[str, Any]:
    """A new game as its creator sees it once: with every seat's token and new webhook secrets."""
    out = detail(created.record, Role.SPECTATOR, creator=True)
    for seat in out["seats"]:
        seat["token"] = created.seat_tokens.get(seat["index"])
        seat["webhook_secret"] = created.webhook_secrets.get(seat["index"])
    return out | {"creator_token": created.creator_token}


def etagged(body: dict[str, Any], version: int) -> Any:
    """A 200 with the version as ETag, or a 304 when the client has it already."""
    etag = f'"{version}"'
    if etag in request.headers.get("If-None-Match", ""):
        return "", 304, {"ETag": etag, "Vary": "Authorization"}
    return body, 200, {"ETag": etag, "Vary": "Authorization"}


@blp.route("")
class Games(MethodView):
    @blp.arguments(schemas.CreateGameRequest(), error_status_code=400)
    @blp.response(201, schemas.CreatedGame)
    @blp.doc(**docs.operation("createGame", 400, 413, 422, 429, success=[201]))
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a game.

        Human seats get a secret token, shown only in this response; so does the
        creator, whose token can read the full log once the game is over.
        """
        seats = [SeatSpec(s["name"], s["bot"]) for s in body["seats"]]
        seed = None if body["seed"] is None else body["seed"].encode()
        return created_body(service().create(body["game"], seats, body["options"], seed))

    @blp.arguments(schemas.ListQuery(), location="query", error_status_code=400)
    @blp.response(200, schemas.GameList)
    @blp.doc(**docs.operation("listGames", 400, 422, 429, success=[200]))
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """List games, newest first, filtered by game and status. Pass `next_cursor` back as `cursor`."""
        before = None
        if query["cursor"] is not None:
            match = re.fullmatch(r"([0-9]{1,18})\.([0-9a-f]{1,64})", query["cursor"])
            if match is None:
                raise InvalidRequest("cursor must be a next_cursor value from a previous page", field="cursor")
            before = (int(match[1]), match[2])
        entries = list(service().games(game=query["game"], status=query["status"], limit=query["limit"], before=before))
        next_cursor = None
        if len(entries) == query["limit"]:
            last = entries[-1]
            next_cursor = f"{last.created_ms}.{last.game_id}"
        return {"games": [e.to_json() for e in entries], "next_cursor": next_cursor}


@blp.route("/<game_id>", parameters=[IF_NONE_MATCH])
class Game(MethodView):
    @blp.response(200, schemas.Game, headers=ETAG)
    @blp.doc(**docs.operation("getGame", 401, 404, 409, 429, success=[200], security=docs.OPTIONAL_BEARER))
    @blp.doc(responses=NOT_MODIFIED)
    def get(self, game_id: str) -> Any:
        """Read a game as the requester sees it: a seat with its token, a spectator without one."""
        viewer, head = service().reading(game_id, bearer_token())
        record = service().visible(game_id, viewer, head=head)
        return etagged(detail(record, viewer), record.version)


@blp.route("/<game_id>/moves")
class Moves(MethodView):
    @blp.arguments(schemas.MoveRequest(), error_status_code=400)
    @blp.response(201, schemas.MoveResult)
    @blp.doc(
        **docs.operation("makeMove", 400, 401, 403, 404, 409, 413, 422, 423, 429, success=[201], security=BEARER),
        parameters=[
            {
                "in": "header",
                "name": "Idempotency-Key",
                "schema": {"type": "string"},
                "required": False,
                "description": "Retrying with the same key returns the first result and appends nothing.",
            }
        ],
    )
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Make a move with a seat's token. An error appends nothing."""
        key = request.headers.get("Idempotency-Key")
        if key is not None and not IDEMPOTENCY_KEY.match(key):
            raise InvalidRequest("Idempotency-Key must be 1 to 200 letters, digits or . _ : -", field="Idempotency-Key")
        result = service().submit_with_token(
            game_id,
            bearer_token(),
            body["move"],
            expected_version=body["expected_version"],
            idempotency_key=key,
            rate=current_app.extensions["orrery.rate_limits"].for_move(),
        )
        seat = result.seat
        assert seat is not None
        events = [service().project(result.record, e, seat) for e in result.events]
        version = events[-1]["version"] if result.duplicate and events else result.record.version
        headers = {"Idempotent-Replayed": "true"} if result.duplicate else {}
        # Already in the shape of MoveResult (projected events): sent as is, with no dump by the schema.
        return jsonify({"version": version, "events": events, "duplicate": result.duplicate}), 201, headers


@blp.route("/<game_id>/legal-moves")
class LegalMoves(MethodView):
    @blp.arguments(schemas.LegalMovesQuery(), location="query", error_status_code=400)
    @blp.response(200, schemas.LegalMoves)
    @blp.doc(**docs.operation("listLegalMoves", 400, 401, 403, 404, 409, 429, success=[200], security=BEARER))
    def get(self, query: dict[str, Any], game_id: str) -> dict[str, Any]:
        """The legal moves of the token's seat, in the form the moves endpoint takes."""
        seat = seat_of(game_id)
        record = service().head(game_id)
        moves = (
            []
            if record.over
            else list(itertools.islice(record.game.legal_moves(record.state, seat), query["limit"] + 1))
        )
        return {
            "seat": seat,
            "version": record.version,
            "moves": moves[: query["limit"]],
            "truncated": len(moves) > query["limit"],
        }


@blp.route("/<game_id>/events")
class Events(MethodView):
    @blp.arguments(schemas.EventsQuery(), location="query", error_status_code=400)
    @blp.response(200, schemas.EventPage)
    @blp.doc(**docs.operation("listEvents", 400, 401, 404, 409, 429, success=[200], security=docs.OPTIONAL_BEARER))
    def get(self, query: dict[str, Any], game_id: str) -> dict[str, Any]:
        """The events after version `after`, as the requester may see them."""
        viewer, head = service().reading(game_id, bearer_token())
        version, events = service().events_for(game_id, viewer, after=query["after"], limit=query["limit"], head=head)
        return {"version": version, "events": events}


@blp.route("/<game_id>/state", parameters=[IF_NONE_MATCH])
class State(MethodView):
    @blp.arguments(schemas.StateQuery(), location="query", error_status_code=400)
    @blp.response(200, schemas.StateAt, headers=ETAG)
    @blp.doc(**docs.operation("getState", 400, 401, 404, 409, 422, 429, success=[200], security=docs.OPTIONAL_BEARER))
    @blp.doc(responses=NOT_MODIFIED)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The requester's view of the state at version `at` (the newest without it)."""
        viewer, head = service().reading(game_id, bearer_token())
        version, state = service().state_at(game_id, viewer, query["at"], head=head)
        return etagged({"version": version, "state": state}, version)


@blp.route("/<game_id>/deliveries")
class DeliveryLog(MethodView):
    @blp.arguments(schemas.DeliveriesQuery(), location="query", error_status_code=400)
    @blp.response(200, schemas.Deliveries)
    @blp.doc(**docs.operation("getDeliveries", 400, 401, 403, 404, 409, 429, security=BEARER))
    def get(self, query: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Every webhook delivery attempt of the game, oldest first: for the creator's token only."""
        if service().viewer_for(game_id, bearer_token()) is not Role.AUDITOR:
            raise Forbidden("only the game's creator may read its delivery log")
        return {"deliveries": service().store.deliveries(game_id, start=query["start"], limit=query["limit"])}


@blp.route("/<game_id>/verify")
class Verify(MethodView):
    @blp.response(200, schemas.VerifyResult)
    @blp.doc(**docs.operation("verifyGame", 401, 403, 404, 409, 429, success=[200], security=docs.OPTIONAL_BEARER))
    def get(self, game_id: str) -> dict[str, Any]:
        """Refold every event: the hash chain, every move decided again, and the committed seed.

        Anyone may verify a finished game; a running game needs its creator's token.
        """
        return service().verify(game_id, service().viewer_for(game_id, bearer_token())).to_json()


@blp.route("/<game_id>/export")
class Export(MethodView):
    @blp.doc(**docs.operation("exportGame", 401, 404, 409, 429, security=docs.OPTIONAL_BEARER))
    @blp.doc(
        responses={
            "200": {
                "description": "NDJSON: a header line, then one line per event as the requester may "
                "see it (the stored envelopes when every event is visible to the requester).",
                "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            }
        },
    )
    def get(self, game_id: str) -> Response:
        """The game as NDJSON, for the offline verifier (`orrery verify FILE`)."""
        viewer = service().viewer_for(game_id, bearer_token())
        lines = service().export(game_id, viewer)
        headers = {"Content-Disposition": f'attachment; filename="{game_id}.ndjson"'}
        return Response(stream_with_context(lines), mimetype="application/x-ndjson", headers=headers)


@blp.route("/<game_id>/fork")
class Fork(MethodView):
    @blp.arguments(schemas.ForkRequest(), error_status_code=400)
    @blp.response(201, schemas.Forked)
    @blp.doc(**docs.operation("forkGame", 400, 401, 403, 404, 409, 413, 422, 429, security=BEARER))
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """A new game from this one up to a turn boundary, with new tokens (creator only).

        Name the boundary by version (`at`) or by turn (`at_turn`); a version inside a turn is refused
        with the nearest boundaries. `seats` re-seats the fork. Games with hidden information can be
        forked once they are over; a fork never includes their end.
        """
        seats = None if body["seats"] is None else [SeatSpec(s["name"], s["bot"]) for s in body["seats"]]
        viewer = service().viewer_for(game_id, bearer_token())
        created = service().fork(game_id, body["at"], viewer, at_turn=body["at_turn"], seats=seats)
        return created_body(created) | {"forked_from": f"{game_id}@{created.record.version}"}


@blp.route("/<game_id>/rematch")
class Rematch(MethodView):
    @blp.response(201, schemas.Rematched)
    @blp.doc(**docs.operation("rematchGame", 401, 403, 404, 409, 422, 429, security=BEARER))
    def post(self, game_id: str) -> dict[str, Any]:
        """The same table again, once the game is over, with every seat moved one place on (creator only).

        Seat 0 of the finished game plays as seat 1, and so on, the last seat as seat 0: the same game, options
        and bots, a new seed and new tokens, shown only in this response.
        """
        viewer = service().viewer_for(game_id, bearer_token())
        created = service().rematch(game_id, viewer)
        return created_body(created) | {"rematch_of": game_id}
