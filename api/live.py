"""Live reads: a game's events as Server-Sent Events, and a bot seat's turn requests as NDJSON."""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable, Generator, Iterator
from typing import Any

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api import docs, schemas
from api.bots import registry
from api.fanout import Hub, hub_for
from api.games import BEARER, bearer_token, service
from api.limits import STREAM_TOO_MANY, stream_response
from domain.contract import Viewer
from domain.table.seats import registered
from events.envelope import canonical
from service.accounts import bot_owner, challenge_event, game_start_event, seat_owner
from service.games import GameService, InvalidRequest, RegisteredSeat, ServiceError, token_hash
from service.turns import READER_TTL_S, turn_request

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
    """SSE frames: each event once, in order, as ``viewer`` may see it (those ready together in one chunk); a
    comment when idle.

    The stream follows the game through this process's :class:`~api.fanout.Hub` (``hub``, or the one
    for ``svc``): one blocking read per game and process, whatever the number of streams.
    """
    yield "retry: 2000\n\n"
    with (hub or hub_for(svc)).follow(game_id) as feed:
        last_output = time.monotonic()
        while True:
            head = feed.head
            limit = svc.visible_version(head, viewer)
            if limit > after:
                frames = list(feed.frames(head, viewer, after, limit))
                if frames:
                    yield "".join(frame for _, frame in frames)
                    after = frames[-1][0]
                    last_output = time.monotonic()
            if (head.cancelled is not None or (head.over and head.scored is not None)) and after >= head.version:
                yield f"event: end\ndata: {canonical({'version': head.version})}\n\n"
                return
            feed.wait(head.version, timeout=max(0.001, heartbeat_s - (time.monotonic() - last_output)))
            if time.monotonic() - last_output >= heartbeat_s:
                yield ": heartbeat\n\n"
                last_output = time.monotonic()


CURSOR = re.compile(r"[0-9]{1,20}-[0-9]{1,20}")


def _cursor_key(cursor: str) -> tuple[int, int]:
    ms, seq = cursor.split("-")
    return int(ms), int(seq)


def account_lines(
    svc: GameService,
    owner: str,
    *,
    after: str | None,
    heartbeat_s: int,
    opening: Callable[[], list[dict[str, Any]]],
    ended: Callable[[], dict[str, Any] | None] = lambda: None,
) -> Iterator[str]:
    """NDJSON lines of an account's stream (see :mod:`service.accounts`): each event once, with its ``cursor``.

    Without ``after``, the stream opens with ``opening()`` (what is open now: the current turn, pending
    challenges, running games) and goes on live. With ``after`` (a cursor it sent) it resumes right after
    it, with no loss; if the stream no longer holds that far back it says ``resync`` and opens afresh.
    A heartbeat line comes when nothing else has for ``heartbeat_s``. A new connection to the same account
    closes this one; ``ended()`` names a last line when the stream has nothing more to carry. The first
    chunk is empty, so that the response's headers go out at once, before any event.
    """
    yield ""
    store, reader = svc.store, uuid.uuid4().hex
    store.claim_inbox_reader(owner, reader, READER_TTL_S)
    oldest, newest = store.inbox_bounds(owner)
    sent: set[str] = set()
    cursor = after
    if after is not None and oldest is not None and _cursor_key(after) < _cursor_key(oldest):
        yield json.dumps({"type": "resync", "reason": "the stream no longer holds events that far back"}) + "\n"
        cursor = None
    if cursor is None:
        cursor = newest or "0-0"
        for event in opening():
            sent.add(_identity(event))
            yield json.dumps(event) + "\n"
    try:
        while True:
            if not store.inbox_reader(owner, reader, READER_TTL_S):
                yield json.dumps({"type": "closed", "reason": "another stream opened for this account"}) + "\n"
                return
            entries = store.inbox_events(owner, after=cursor, block_ms=heartbeat_s * 1000)
            for entry_id, body in entries:
                cursor = entry_id
                event = json.loads(body)
                if _identity(event) in sent:
                    continue
                yield json.dumps(event | {"cursor": entry_id}) + "\n"
            if not entries:
                yield json.dumps({"type": "heartbeat"}) + "\n"
            last = ended()
            if last is not None:
                yield json.dumps(last) + "\n"
                return
    finally:
        store.release_inbox_reader(owner, reader)


def _identity(event: dict[str, Any]) -> str:
    """What makes an event the same one when the opening of a stream and its live part both carry it."""
    kind = event.get("type")
    if kind == "turn":
        return str(event["id"])
    if kind == "challenge":
        return f"challenge:{event['challenge']['id']}"
    if kind == "gameStart":
        return f"start:{event['game']['id']}:{event['game']['seat']}"
    return ""


def seat_turns(svc: GameService, token: str, after: str | None, heartbeat_s: int) -> Iterator[str]:
    """A pull-only (or webhook) seat's account stream: its turn requests, until the game ends."""
    game_id, seat = svc.bot_seat(token)

    def opening() -> list[dict[str, Any]]:
        record = svc.head(game_id)
        return [turn_request(svc, record, seat)] if seat in record.to_act() else []

    def ended() -> dict[str, Any] | None:
        record = svc.head(game_id)
        if record.closed:
            return {"type": "game_over", "game_id": game_id, "version": record.version, "status": record.status}
        return None

    owner = seat_owner(token_hash(token))
    return account_lines(svc, owner, after=after, heartbeat_s=heartbeat_s, opening=opening, ended=ended)


def bot_events(svc: GameService, bot_id: str, after: str | None, heartbeat_s: int) -> Iterator[str]:
    """A registered bot's account stream: challenges, game starts, turns and game ends for all its games."""
    owner = bot_owner(bot_id)

    def opening() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for game_id, seat in _open_challenges(svc, owner, bot_id):
            out.append(challenge_event(svc, svc.head(game_id), seat))
        for game_id in svc.store.bot_games(bot_id):
            record = svc.head(game_id)
            if not record.started or record.closed:
                continue
            for seat, bot in sorted(registered(record.created.seats).items()):
                if bot == bot_id:
                    out.append(game_start_event(svc, record, seat))
                    if seat in record.to_act():
                        out.append(turn_request(svc, record, seat))
        return out

    return account_lines(svc, owner, after=after, heartbeat_s=heartbeat_s, opening=opening)


def _open_challenges(svc: GameService, owner: str, bot_id: str) -> list[tuple[str, int]]:
    """The challenges on the account's stream that are still open, oldest first."""
    found: list[tuple[str, int]] = []
    cursor = "0-0"
    while True:
        entries = svc.store.inbox_events(owner, after=cursor, count=500)
        for entry_id, body in entries:
            cursor = entry_id
            event = json.loads(body)
            if event.get("type") == "challenge":
                found.append((event["challenge"]["game_id"], event["challenge"]["seat"]))
        if len(entries) < 500:
            break
    still = []
    for game_id, seat in found:
        try:
            record = svc.head(game_id)
        except ServiceError:
            continue
        if seat in record.challenged and record.cancelled is None and registered(record.created.seats)[seat] == bot_id:
            still.append((game_id, seat))
    return still


def stream_cursor(query: dict[str, Any]) -> str | None:
    """Where an account stream resumes: the ``Last-Event-ID`` header or the ``after`` query, a cursor it sent."""
    raw = request.headers.get("Last-Event-ID") or query.get("after")
    if raw is None:
        return None
    if not CURSOR.fullmatch(raw):
        raise InvalidRequest("a stream resumes after a cursor it sent, such as 1764518400000-0", field="after")
    return str(raw)


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
                "`heartbeat` seconds; an `end` event once the game is over and scored, or cancelled.",
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
    @blp.doc(**docs.operation("streamBotTurns", 400, 401, 404, 409, 422, 429, security=BEARER))
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
        """Pull a bot seat's turn requests instead of receiving webhooks (with the token from a turn request).

        This is the account stream of one seat: each line but heartbeats carries a `cursor`, and a stream
        opened with `Last-Event-ID: <cursor>` (or `?after=<cursor>`) resumes right after it. A registered
        bot reads all its games on `GET /v1/bots/me/events` instead.
        """
        token = bearer_token()
        game_id, seat = service().bot_seat(token)
        assert token is not None
        if seat in registered(service().head(game_id).created.seats):
            raise RegisteredSeat(
                "this seat belongs to a registered bot: read its turns on GET /v1/bots/me/events with its API key"
            )
        lines = seat_turns(service(), token, stream_cursor(query), query["heartbeat"])
        return stream_response(game_id, lines, "application/x-ndjson", STREAM_HEADERS)


@blp.route("/bots/me/events")
class AccountStream(MethodView):
    @blp.arguments(schemas.BotStreamQuery(), location="query", error_status_code=400)
    @blp.doc(**docs.operation("streamBotEvents", 400, 401, 422, 429, security=BEARER))
    @blp.doc(
        responses={
            "200": {
                "description": "NDJSON, one event per line, for all the bot's games: `challenge`, `gameStart`, "
                "`turn` (a TurnRequest) and `gameFinish`; each carries a `cursor`. Without a cursor the stream "
                "opens with what is open now (pending challenges, running games with their current turns). "
                "With `Last-Event-ID: <cursor>` or `?after=<cursor>` it resumes right after that event; a "
                "`resync` line says the stream no longer held that far back and it opened afresh. A `heartbeat` "
                "line comes when nothing else has; a new stream for the same bot closes this one with `closed`.",
                "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            },
            "429": {"description": docs.ERROR_STATUSES[429] + " " + STREAM_TOO_MANY["description"]},
        },
    )
    def get(self, query: dict[str, Any]) -> Response:
        """A registered bot's one event stream for all its games (authenticate with its API key)."""
        bot = registry().authenticate(bearer_token())
        lines = bot_events(service(), bot["id"], stream_cursor(query), query["heartbeat"])
        return stream_response(bot_owner(bot["id"]), lines, "application/x-ndjson", STREAM_HEADERS)
