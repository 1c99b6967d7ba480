"""Marshmallow schemas of the API's requests and responses, built once."""

from __future__ import annotations

import json

from marshmallow import Schema, ValidationError, fields, validate

NAME = validate.Length(min=1, max=64)
MAX_OFFSET = 1_000_000_000
"""The largest position a query may start from: far beyond any log, and within Redis's 64-bit indexes."""
MAX_MOVE_CHARS = 4096
"""The longest move, as compact JSON: a whole Homeworlds turn or a Planet Unknown action is far shorter."""


class SeatRequest(Schema):
    name = fields.String(required=True, validate=NAME, metadata={"description": "The seat's display name."})
    bot = fields.Dict(
        load_default=None,
        allow_none=True,
        metadata={"description": 'Makes the seat a bot, e.g. `{"builtin": "random"}`. Omit for a human seat.'},
    )


class CreateGameRequest(Schema):
    game = fields.String(required=True, metadata={"description": "The game's name, e.g. `homeworlds`."})
    seats = fields.List(fields.Nested(SeatRequest), required=True, validate=validate.Length(min=1, max=16))
    options = fields.Dict(
        load_default=dict, metadata={"description": "The game's options; see each game's option list."}
    )
    seed = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=256),
        metadata={
            "description": "A seed for the game's randomness (for tests and tournaments). "
            "Only its sha256 is public until the game ends. Omit it and the server draws one."
        },
    )


class Seat(Schema):
    index = fields.Integer(required=True)
    name = fields.String(required=True)
    bot = fields.Dict(allow_none=True)


class SeatWithToken(Seat):
    token = fields.String(allow_none=True, metadata={"description": "The seat's secret; shown only in this response."})
    webhook_secret = fields.String(
        allow_none=True,
        metadata={"description": "A webhook bot's signing secret (whsec_...); shown only in this response."},
    )


class Result(Schema):
    winners = fields.List(fields.Integer(), required=True)
    draw = fields.Boolean(required=True)
    reason = fields.String(
        required=True, metadata={"description": "e.g. elimination, resignation, agreement, timeout, score"}
    )
    scored = fields.Boolean(required=True, metadata={"description": "Whether GameScored has been appended yet."})
    scores = fields.Dict(allow_none=True)


class GameSummary(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    version = fields.Integer(required=True)
    created_at = fields.Integer(required=True, metadata={"description": "Milliseconds since the epoch."})
    seats = fields.List(fields.Nested(Seat), required=True)
    to_act = fields.List(fields.Integer(), required=True, metadata={"description": "The seats that must act now."})
    result = fields.Nested(Result, allow_none=True)


class Game(GameSummary):
    state = fields.Raw(required=True, metadata={"description": "The game's state as the requester may see it."})
    seed_sha256 = fields.String(required=True, metadata={"description": "The commitment to the game's seed."})


class CreatedGame(Game):
    seats = fields.List(fields.Nested(SeatWithToken), required=True)
    creator_token = fields.String(
        required=True, metadata={"description": "The owner's and auditor's secret; shown only in this response."}
    )


class GameList(Schema):
    games = fields.List(fields.Nested(GameSummary), required=True)
    next_cursor = fields.String(allow_none=True)


class ListQuery(Schema):
    game = fields.String(load_default=None)
    status = fields.String(load_default=None, validate=validate.OneOf(["active", "finished"]))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    cursor = fields.String(load_default=None)


def _move_size(move: object) -> None:
    if len(json.dumps(move, ensure_ascii=False, separators=(",", ":"))) > MAX_MOVE_CHARS:
        raise ValidationError(f"A move is at most {MAX_MOVE_CHARS} characters as JSON.")


class MoveRequest(Schema):
    move = fields.Raw(
        required=True,
        allow_none=False,
        validate=_move_size,
        metadata={
            "description": (
                "The move: a string in the game's notation, or its JSON form. Homeworlds takes one whole turn "
                'in SDG notation ("sacrifice y3 Alpha; move g1 Alpha Beta") or the same turn as a list of '
                'actions ([{"action": "sacrifice", "ship": "y3", "system": "Alpha"}, ...]), or '
                '{"resign": true} / {"draw": "offer" | "accept" | "decline"}. Planet Unknown takes one '
                'action as an object ({"action": "place", "tile": 57, "anchor": [4, 0], "rotation": 90, '
                '"flip": false}) or its text form ("place 57 e4 90").'
            ),
            "oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "object"}}, {"type": "object"}],
            "example": "sacrifice y3 Alpha; move g1 Alpha Beta",
        },
    )
    expected_version = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        metadata={
            "description": "The version the move was decided at; a mismatch is a 409. "
            "Omit it to let the server retry on concurrent moves."
        },
    )


class Event(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    seat = fields.Integer(allow_none=True)
    recorded_at = fields.Integer(required=True)
    payload = fields.Dict(required=True)
    redacted = fields.Boolean(
        required=True, metadata={"description": "True when this viewer sees only a redacted payload."}
    )
    event_id = fields.String()
    hash = fields.String(metadata={"description": "sha256 of the previous hash and this event's canonical body."})


class MoveResult(Schema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(Event), required=True)
    duplicate = fields.Boolean(
        required=True, metadata={"description": "True when an Idempotency-Key replayed the first result."}
    )


class EventsQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class EventPage(Schema):
    version = fields.Integer(required=True, metadata={"description": "The game's current version."})
    events = fields.List(fields.Nested(Event), required=True)


class StateQuery(Schema):
    at = fields.Integer(load_default=None, validate=validate.Range(min=1))


class StateAt(Schema):
    version = fields.Integer(required=True)
    state = fields.Raw(required=True)


class LegalMovesQuery(Schema):
    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=100_000))


class LegalMoves(Schema):
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    moves = fields.List(fields.Raw(), required=True)
    truncated = fields.Boolean(required=True, metadata={"description": "True when more moves exist than `limit`."})


class DeliveriesQuery(Schema):
    start = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_OFFSET))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class DeliveryAttempt(Schema):
    webhook_id = fields.String(required=True)
    attempt = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    at = fields.Integer(required=True, metadata={"description": "Milliseconds since the epoch."})
    url = fields.String(required=True)
    status = fields.Integer(allow_none=True, metadata={"description": "The HTTP status, or null if none came back."})
    latency_ms = fields.Integer(required=True)
    error = fields.String(allow_none=True)
    outcome = fields.String(
        required=True,
        metadata={
            "description": "moved, accepted, retry, disabled, gave_up, stale, streamed (sent on the seat's pull "
            "stream instead), or refused: the server's webhook policy refused the address (not public, or not "
            "allowed by ORRERY_WEBHOOK_ALLOW), so no connection was made and the turn is not retried"
        },
    )


class Deliveries(Schema):
    deliveries = fields.List(fields.Nested(DeliveryAttempt), required=True)


class VerifyResult(Schema):
    verdict = fields.String(required=True, validate=validate.OneOf(["ok", "failed"]))
    events = fields.Integer(required=True)
    state_hash = fields.String(
        allow_none=True, metadata={"description": "sha256 of the auditor's view of the final state."}
    )
    seed = fields.String(required=True, metadata={"description": "verified, or not revealed while the game runs"})
    first_failure = fields.Dict(allow_none=True, metadata={"description": "The first event that fails, and why."})


class ForkRequest(Schema):
    at = fields.Integer(
        load_default=None,
        strict=True,
        metadata={
            "description": "How many of the game's events to keep: a turn boundary (the end of the deal, or the end "
            "of a whole move or timeout while the game runs). Give exactly one of `at` and `at_turn`."
        },
    )
    at_turn = fields.Integer(
        load_default=None,
        strict=True,
        validate=validate.Range(min=0, max=MAX_OFFSET),
        metadata={"description": "How many turns after the deal to fork at: 0 is right after the deal."},
    )
    seats = fields.List(
        fields.Nested(SeatRequest),
        load_default=None,
        validate=validate.Length(min=1, max=16),
        metadata={"description": "New seats for the fork, as at creation (one per seat): say, a bot for a human."},
    )


class Forked(CreatedGame):
    forked_from = fields.String(required=True, metadata={"description": "<game id>@<version>"})


class StreamQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0))
    heartbeat = fields.Integer(load_default=10, validate=validate.Range(min=1, max=15))


class BotStreamQuery(Schema):
    heartbeat = fields.Integer(load_default=10, validate=validate.Range(min=1, max=15))


class Health(Schema):
    redis = fields.String(required=True)
    worker = fields.String(required=True)
    games = fields.List(fields.String(), required=True)


class Liveness(Schema):
    status = fields.String(required=True, metadata={"description": "`ok` whenever the process answers."})
    games = fields.List(fields.String(), required=True)
