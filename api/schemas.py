"""Marshmallow schemas of the API's requests and responses, built once."""

from __future__ import annotations

import json
from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from api.game_schemas import LEGAL_MOVE, MOVE, STATE

NAME = validate.Length(min=1, max=64)
MAX_OFFSET = 1_000_000_000
"""The largest position a query may start from: far beyond any log, and within Redis's 64-bit indexes."""
MAX_MOVE_CHARS = 4096
"""The longest move, as compact JSON: a whole Homeworlds turn or a Planet Unknown action is far shorter."""


class ErrorDetail(Schema):
    """The body of every error: a stable ``code``, a sentence, and details that depend on the code."""

    class Meta:
        unknown = INCLUDE

    code = fields.String(
        required=True,
        metadata={
            "description": "A stable, machine-readable code, e.g. `unknown_game`, `not_your_turn`, `illegal_move`, "
            "`stale_version`, `invalid_body`, `malformed_json`, `too_many_requests`."
        },
    )
    message = fields.String(required=True, metadata={"description": "A sentence for people; it may change."})
    field = fields.String(metadata={"description": "The request field at fault, e.g. `seats[0].name` or `cursor`."})
    fields_ = fields.Raw(
        data_key="fields",
        metadata={"description": "`invalid_body`: the problems by field, as the body's validation found them."},
    )
    current_version = fields.Integer(metadata={"description": "`stale_version`: the game's version now."})
    limit = fields.Integer(metadata={"description": "`too_many_streams`: the cap that was reached."})
    scope = fields.String(
        validate=validate.OneOf(["address", "game", "server"]),
        metadata={"description": "`too_many_streams`: what the cap counts."},
    )
    max_depth = fields.Integer(metadata={"description": "`malformed_json`: how deeply a body may nest."})
    below = fields.Integer(allow_none=True, metadata={"description": "A fork's `at`: the nearest boundary below."})
    above = fields.Integer(allow_none=True, metadata={"description": "A fork's `at`: the nearest boundary above."})
    stream_version = fields.Integer(metadata={"description": "`game_damaged`: the version of the stream."})
    meta_version = fields.Integer(metadata={"description": "`game_damaged`: the version of the metadata."})


class Error(Schema):
    """The one error shape: ``{"error": {"code": ..., "message": ..., <details>}}``."""

    error = fields.Nested(ErrorDetail, required=True)


class SeatRequest(Schema):
    name = fields.String(required=True, validate=NAME, metadata={"description": "The seat's display name."})
    bot = fields.Dict(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "Makes the seat a bot; omit it (or null) for a human seat. One of "
            '`{"builtin": "random" | "greedy" | "search", "think_ms": 1..}` (a built-in bot, run by the server), '
            '`{"webhook": "https://..."}` (turn requests are POSTed there), `{"stream": true}` '
            '(the bot pulls its turns from GET /v1/bots/stream) or `{"id": "bot_..."}` (a registered bot: it is '
            "challenged, and the game starts once every challenged bot accepts).",
            "example": {"builtin": "random", "think_ms": 50},
        },
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
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished", "cancelled"]))
    version = fields.Integer(required=True)
    created_at = fields.Integer(required=True, metadata={"description": "Milliseconds since the epoch."})
    seats = fields.List(fields.Nested(Seat), required=True)
    to_act = fields.List(fields.Integer(), required=True, metadata={"description": "The seats that must act now."})
    result = fields.Nested(Result, allow_none=True)


class Game(GameSummary):
    challenges = fields.List(
        fields.Nested("Challenge"),
        required=True,
        metadata={"description": "One per registered bot seat; the game starts once all are accepted."},
    )
    state = fields.Raw(required=True, metadata=STATE)
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
    status = fields.String(load_default=None, validate=validate.OneOf(["active", "finished", "cancelled"]))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    cursor = fields.String(load_default=None)


class WholeNumber(fields.Integer):
    """An integer, strictly (never text or a boolean); JSON's ``5.0`` is the integer 5, as JSON Schema reads it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _validated(self, value: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return super()._validated(value)


def _move_size(move: object) -> None:
    if len(json.dumps(move, ensure_ascii=False, separators=(",", ":"))) > MAX_MOVE_CHARS:
        raise ValidationError(f"A move is at most {MAX_MOVE_CHARS} characters as JSON.")


class MoveRequest(Schema):
    move = fields.Raw(
        required=True,
        allow_none=False,
        validate=_move_size,
        metadata=MOVE
        | {
            "description": "The move: a string in the game's notation, or its JSON form (see HomeworldsMove and "
            "PlanetUnknownMove). The legal-moves endpoint lists the legal ones in a form this takes."
        },
    )
    expected_version = WholeNumber(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The version the move was decided at; a mismatch is a 409. "
            "Omit it to let the server retry on concurrent moves."
        },
    )


class Event(Schema):
    version = fields.Integer(required=True)
    type = fields.String(
        required=True,
        metadata={
            "description": "The event's type, past tense: the service's own events (GameCreated, MoveMade, "
            "TurnTimedOut, SeedRevealed, GameScored) and each game's; the enum lists every type this server knows."
        },
    )
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
    state = fields.Raw(required=True, metadata=STATE)


class LegalMovesQuery(Schema):
    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=100_000))


class LegalMoves(Schema):
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    moves = fields.List(fields.Raw(metadata=LEGAL_MOVE), required=True)
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
    at = WholeNumber(
        load_default=None,
        metadata={
            "description": "How many of the game's events to keep: a turn boundary (the end of the deal, or the end "
            "of a whole move or timeout while the game runs). Give exactly one of `at` and `at_turn`."
        },
    )
    at_turn = WholeNumber(
        load_default=None,
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


class Rematched(CreatedGame):
    rematch_of = fields.String(required=True, metadata={"description": "The id of the finished game."})


class StreamQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0))
    heartbeat = fields.Integer(load_default=10, validate=validate.Range(min=1, max=15))


class BotStreamQuery(Schema):
    heartbeat = fields.Integer(load_default=10, validate=validate.Range(min=1, max=15))
    after = fields.String(
        load_default=None,
        validate=validate.Length(max=41),
        metadata={"description": "Resume right after this `cursor` (as `Last-Event-ID` does)."},
    )


class Health(Schema):
    redis = fields.String(required=True)
    worker = fields.String(required=True)
    games = fields.List(fields.String(), required=True)


class Liveness(Schema):
    status = fields.String(required=True, metadata={"description": "`ok` whenever the process answers."})
    games = fields.List(fields.String(), required=True)


class TurnRequest(Schema):
    """What a bot seat is sent when it must act: by webhook, or as a line of its pull stream."""

    type = fields.String(required=True, validate=validate.Equal("turn"))
    id = fields.String(
        required=True, metadata={"description": "The turn's id (also the `webhook-id`), the same on every retry."}
    )
    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "The game's name, e.g. `homeworlds`."})
    seat = fields.Integer(required=True)
    version = fields.Integer(
        required=True, metadata={"description": "The game's version; send it back as `expected_version`."}
    )
    deadline = fields.Integer(required=True, metadata={"description": "When the turn ends, in ms since the epoch."})
    view = fields.Raw(
        required=True, metadata=STATE | {"description": "The seat's own view of the state, as GET /state gives it."}
    )
    legal_moves = fields.List(
        fields.Raw(metadata=LEGAL_MOVE),
        required=True,
        allow_none=True,
        metadata={"description": "The legal moves, or null when there are too many to send (see `legal_moves_url`)."},
    )
    legal_moves_truncated = fields.Boolean(
        metadata={"description": "True when `legal_moves` is null for their number."}
    )
    token = fields.String(
        required=True, allow_none=True, metadata={"description": "The seat's token, for the API (Bearer)."}
    )
    api_url = fields.String(metadata={"format": "uri", "description": "The API's absolute base URL."})
    moves_url = fields.String(
        allow_none=True, metadata={"format": "uri", "description": "Where to POST the move (absolute)."}
    )
    legal_moves_url = fields.String(
        metadata={"format": "uri", "description": "Where to GET the legal moves with the token (absolute)."}
    )
    reply = fields.String(metadata={"description": "How to answer, in one sentence."})


class TurnReply(Schema):
    """A webhook bot's answer with status 200: its move, as the moves endpoint takes it."""

    move = fields.Raw(required=True, metadata=MOVE)
    expected_version = fields.Integer(allow_none=True)


class BotRequest(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    games = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        required=True,
        validate=validate.Length(min=1, max=16),
        metadata={"description": 'The games the bot plays, e.g. `["homeworlds"]`.'},
    )
    webhook = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=2048),
        metadata={"description": "The URL the bot's turn requests are POSTed to (give this or `stream`)."},
    )
    stream = fields.Boolean(
        load_default=False, metadata={"description": "`true`: the bot pulls its events instead of a webhook."}
    )
    auto_accept = fields.Nested(
        "AutoAccept",
        load_default=None,
        metadata={"description": "Accept every challenge for these games while playing fewer than `max_concurrent`."},
    )
    ladder = fields.Boolean(
        load_default=False, metadata={"description": "`true`: the ladder pairs this bot with others by rating."}
    )


class AutoAccept(Schema):
    games = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)), required=True, validate=validate.Length(min=1, max=16)
    )
    max_concurrent = fields.Integer(required=True, validate=validate.Range(min=1, max=1000))


class Bot(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    games = fields.List(fields.String(), required=True)
    transport = fields.String(
        required=True,
        validate=validate.OneOf(["webhook", "stream", "builtin"]),
        metadata={"description": "`builtin` for the server's own bots, registered as reference players."},
    )
    created_at = fields.Integer(required=True, metadata={"description": "Milliseconds since the epoch."})
    ladder = fields.Boolean(required=True, metadata={"description": "Whether the ladder pairs this bot."})
    webhook = fields.String(metadata={"description": "The webhook URL, shown to the bot's owner only."})
    auto_accept = fields.Nested(
        AutoAccept, allow_none=True, metadata={"description": "The auto-accept policy, shown to the bot's owner only."}
    )
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Nested("GameRating"),
        metadata={"description": "By game: the bot's rating, record and latest rating changes (its public page)."},
    )


class BotRegistered(Bot):
    api_key = fields.String(
        required=True, metadata={"description": "The bot's secret (`Authorization: Bearer`); shown only here."}
    )
    webhook_secret = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "This registration's own signing secret (webhook bots); shown only here."},
    )


class RotateRequest(Schema):
    rotate = fields.String(
        required=True,
        validate=validate.OneOf(["secret", "key"]),
        metadata={"description": "`secret`: a new signing secret; `key`: a new API key. The old one stops at once."},
    )


class Rotated(Schema):
    bot = fields.Nested(Bot, required=True)
    api_key = fields.String(required=True, allow_none=True)
    webhook_secret = fields.String(required=True, allow_none=True)


class ChallengeAnswered(Schema):
    challenge = fields.String(required=True, metadata={"description": "The challenge's id."})
    game_id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished", "cancelled"]))
    started = fields.Boolean(
        required=True, metadata={"description": "Whether every challenge was accepted and the game is under way."}
    )


class Challenge(Schema):
    id = fields.String(required=True, metadata={"description": "The challenge's id, `chl_<game id>_<seat>`."})
    seat = fields.Integer(required=True)
    bot = fields.String(required=True, metadata={"description": "The challenged bot's id."})
    status = fields.String(
        required=True,
        validate=validate.OneOf(["pending", "accepted", "declined", "timeout", "busy", "closed"]),
        metadata={
            "description": "`busy`: declined by the bot's auto-accept policy at its limit; `closed`: the game was "
            "cancelled by another seat's answer before this one came."
        },
    )
    expires_at = fields.Integer(required=True, metadata={"description": "When an open challenge times out (ms)."})


class RatingValue(Schema):
    """An OpenSkill rating: ``mu`` the estimate of a player's skill, ``sigma`` the uncertainty of it."""

    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)


class RatingChange(Schema):
    """One rated game in a player's history: where it finished and how its rating moved."""

    game_id = fields.String(required=True)
    at = fields.Integer(required=True, metadata={"description": "When the change was applied, in ms since the epoch."})
    seat = fields.Integer(required=True)
    rank = fields.Integer(required=True, metadata={"description": "The player's place in the game, 1 being first."})
    result = fields.String(required=True, validate=validate.OneOf(["win", "draw", "loss"]))
    before = fields.Nested(RatingValue, required=True)
    after = fields.Nested(RatingValue, required=True)


class PlayerRating(Schema):
    """A player's rating and record in one game."""

    rating = fields.Float(
        required=True, metadata={"description": "The ordinal `mu - 3 sigma` that the leaderboard sorts by."}
    )
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    losses = fields.Integer(required=True)


class GameRating(PlayerRating):
    """A player's rating and record in one game, with its latest rating changes."""

    history = fields.List(
        fields.Nested(RatingChange), required=True, metadata={"description": "The latest changes, newest first."}
    )


class LeaderboardQuery(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_OFFSET))


class LeaderboardEntry(PlayerRating):
    rank = fields.Integer(required=True, metadata={"description": "The place on the leaderboard, 1 being first."})
    player = fields.String(required=True, metadata={"description": "The bot's id (GET /v1/bots/{id})."})
    name = fields.String(required=True)


class Leaderboard(Schema):
    game = fields.String(required=True)
    model = fields.String(required=True, metadata={"description": "The rating model, e.g. `openskill.PlackettLuce/6`."})
    total = fields.Integer(required=True, metadata={"description": "How many players this game rates."})
    players = fields.List(fields.Nested(LeaderboardEntry), required=True)
