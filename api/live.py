"""Live reads: a game's events as Server-Sent Events, and a bot seat's turn requests as NDJSON."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Generator, Iterator
from typing import Any

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api import docs, schemas
from api.fanout import Hub, hub_for
from api.games import BEARER, bearer_token, service
from api.limits import STREAM_TOO_MANY, stream_response
from domain.contract import Viewer
from events.envelope import canonical
from events.service import GameService, InvalidRequest, token_hash
from events.turns import PULL_OWNER_TTL_S, turn_request

blp = Blueprint("live", __name__, url_prefix="/v1", description="Live streams for clients and bots.")

STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
LAST_EVENT_ID = {
    "in": "header",
    "name": "Last-Event-ID",
    "schema": {"type": "integer", "minimum": 0},
    "required": False,
    "description": "Resume after this version, with no gap and no duplicate.",
}


def game_events(
    svc: GameService, game_id: str, viewer: Viewer, after: int, heartbeat_s: int, hub: Hub | None = None
) -> Generator[str, None, None]:
    """SSE frames: each event once, in order, as ``viewer`` may see it; a comment when idle.

    The stream follows the game through this process's :class:`~api.fanout.Hub` (``hub``, or the one
    for ``svc``): one blocking read per game and process, whatever the number of streams.
    """
    yield "retry: 2000\n\n"
    with (hub or hub_for(svc)).follow(game_id) as feed:
        last_output = time.monotonic()
        while True:
            head = feed.head
            limit = feed.limit(head, viewer)
            if limit > after:
                for version, frame in feed.frames(head, viewer, after, limit):
                    yield frame
                    after = version
                last_output = time.monotonic()
            if head.over and head.scored is not None and after >= head.version:
                yield f"event: end\ndata: {canonical({'version': head.version})}\n\n"
                return
            feed.wait(head.version, timeout=max(0.001, heartbeat_s - (time.monotonic() - last_output)))
            if time.monotonic() - last_output >= heartbeat_s:
                yield ": heartbeat\n\n"
                last_output = time.monotonic()


def bot_turns(svc: GameService, token: str, heartbeat_s: int) -> Iterator[str]:
    """NDJSON lines: the seat's turn requests (the current one first), heartbeats, and why the stream ends."""
    game_id, seat = svc.bot_seat(token)
    store, hashed, me = svc.store, token_hash(token), uuid.uuid4().hex
    owner, pull = store.keys.pull_owner(hashed), store.keys.pull(hashed)
    store.redis.set(owner, me, ex=PULL_OWNER_TTL_S)
    newest = store.redis.xrevrange(pull, count=1)
    cursor = newest[0][0] if newest else "0-0"
    sent: set[str] = set()
    record = svc.head(game_id)
    if not record.over and seat in record.game.to_act(record.state):
        body = turn_request(svc, record, seat)
        sent.add(body["id"])
        yield json.dumps(body) + "\n"
    while True:
        if store.redis.get(owner) != me.encode():
            yield json.dumps({"type": "closed", "reason": "another stream opened with this token"}) + "\n"
            return
        store.redis.expire(owner, PULL_OWNER_TTL_S)
        reply = store.redis.xread({pull: cursor}, block=heartbeat_s * 1000, count=10)
        for _, entries in reply or []:
            for entry_id, fields in entries:
                cursor = entry_id
                body = json.loads(fields[b"body"])
                if body["id"] not in sent:
                    sent.add(body["id"])
                    yield json.dumps(body) + "\n"
        if not reply:
            yield json.dumps({"type": "heartbeat"}) + "\n"
        record = svc.head(game_id)
        if record.over:
            yield json.dumps({"type": "game_over", "game_id": game_id, "version": record.version}) + "\n"
            store.redis.delete(owner)
            return


def last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
        raise InvalidRequest("Last-Event-ID must be an event's version, as sent in the stream's id: lines")
    return int(raw)


@blp.route("/games/<game_id>/stream", parameters=[LAST_EVENT_ID])
class GameStream(MethodView):
    @blp.arguments(schemas.StreamQuery(), location="query", error_status_code=400)
    @blp.doc(**docs.operation("streamGame", 400, 401, 404, 409, 429, security=docs.OPTIONAL_BEARER))
    @blp.doc(
        responses={
            "200": {
                "description": "Server-Sent Events: `id:` is the event's version, `event:` its type, "
                "`data:` the event as the requester may see it; a comment line at least every "
                "`heartbeat` seconds; an `end` event once the game is over and scored.",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            },
            "429": {"description": docs.ERROR_STATUSES[429] + " " + STREAM_TOO_MANY["description"]},
        },
    )
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Follow a game live."""
        viewer = service().viewer_for(game_id, bearer_token())
        resume = last_event_id()
        after = resume if resume is not None else query["after"]
        frames = game_events(service(), game_id, viewer, after, query["heartbeat"])
        return stream_response(game_id, frames, "text/event-stream", STREAM_HEADERS)


@blp.route("/bots/stream")
class BotStream(MethodView):
    @blp.arguments(schemas.BotStreamQuery(), location="query", error_status_code=400)
    @blp.doc(**docs.operation("streamBotTurns", 400, 401, 404, 429, security=BEARER))
    @blp.doc(
        responses={
            "200": {
                "description": "NDJSON: the seat's turn requests, the same bodies and ids as its "
                "webhooks (the current one first), heartbeat lines, and a last line saying why "
                "the stream ended. A new stream with the same token closes this one.",
                "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            },
            "429": {"description": docs.ERROR_STATUSES[429] + " " + STREAM_TOO_MANY["description"]},
        },
    )
    def get(self, query: dict[str, Any]) -> Response:
        """Pull a bot seat's turn requests instead of receiving webhooks (with the token from a turn request)."""
        token = bearer_token()
        game_id, _ = service().bot_seat(token)
        assert token is not None
        lines = bot_turns(service(), token, query["heartbeat"])
        return stream_response(game_id, lines, "application/x-ndjson", STREAM_HEADERS)
