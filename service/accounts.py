"""Account event streams: one stream per registered bot for all its games, and one per pull-only seat.

A registered bot's stream (owner ``bot:<id>``) carries ``challenge``, ``gameStart``, ``turn`` and
``gameFinish`` events for every game it is challenged to or plays. A pull-only seat (an unregistered
bot that reads its turns with its seat token) has a stream of its own (owner ``seat:<token hash>``)
that carries only its ``turn`` events: the same stream, for an account of one seat.

Every event is posted once (under a deduplication key), so the worker that posts it may run twice.
Each event on a stream has a cursor, and a reader that comes back with its last cursor misses nothing
the stream still holds.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from domain.table import seats as seats_module
from domain.table.record import Record
from service import listing
from service.turns import api_base, turn_id

if TYPE_CHECKING:
    from service.games import GameService


def bot_owner(bot_id: str) -> str:
    """The stream owner of a registered bot."""
    return f"bot:{bot_id}"


def seat_owner(token_hash: str) -> str:
    """The stream owner of a pull-only or webhook seat, by the hash of its seat token."""
    return f"seat:{token_hash}"


def owner_of(service: GameService, record: Record, seat: int) -> str | None:
    """Whose stream a seat's turns go to: its registered bot's, or the seat token's own; None for other seats."""
    from service.games import token_hash

    bot_id = seats_module.registered(record.created.seats).get(seat)
    if bot_id is not None:
        return bot_owner(bot_id)
    token = service.store.secret(record.game_id, f"token:{seat}")
    return None if token is None else seat_owner(token_hash(token))


TURN_MEMORY_S = 86400
"""How long an account stream remembers that it carries a turn, so that a repeated delivery adds it once."""


def publish(service: GameService, record: Record, seat: int, body: str) -> bool:
    """Put a turn request on the stream of the seat's account, once per turn; True if a connection reads that
    stream now (a webhook then need not be called)."""
    owner = owner_of(service, record, seat)
    if owner is None:
        return False
    service.store.post_inbox(owner, turn_id(record.game_id, seat, record.version), body, remember_s=TURN_MEMORY_S)
    return service.store.inbox_read_now(owner)


def challenge_event(service: GameService, record: Record, seat: int) -> dict[str, Any]:
    """The ``challenge`` event sent to the bot challenged to ``seat``."""
    from service.games import challenge_id

    base = api_base(service)
    cid = challenge_id(record.game_id, seat)
    return {
        "type": "challenge",
        "challenge": {
            "id": cid,
            "game_id": record.game_id,
            "game": record.game.name,
            "seat": seat,
            "seats": listing.public_seats(record.created),
            "options": dict(record.created.options),
            "rated": seats_module.is_rated(record.created.options, record.created.seats),
            "expires_at": service.challenge_expiry(record),
            "accept_url": f"{base}/v1/challenges/{cid}/accept",
            "decline_url": f"{base}/v1/challenges/{cid}/decline",
        },
    }


def game_start_event(service: GameService, record: Record, seat: int) -> dict[str, Any]:
    """The ``gameStart`` event: the game began, and this is the seat's token for its moves."""
    base = api_base(service)
    return {
        "type": "gameStart",
        "game": {
            "id": record.game_id,
            "game": record.game.name,
            "seat": seat,
            "token": service.store.secret(record.game_id, f"token:{seat}"),
            "seats": listing.public_seats(record.created),
            "rated": seats_module.is_rated(record.created.options, record.created.seats),
            "url": f"{base}/v1/games/{record.game_id}",
            "moves_url": f"{base}/v1/games/{record.game_id}/moves",
        },
    }


def game_finish_event(record: Record, seat: int, player: str | None) -> dict[str, Any]:
    """The ``gameFinish`` event: how the game ended for this seat (or that it was cancelled)."""
    out: dict[str, Any] = {"id": record.game_id, "game": record.game.name, "seat": seat, "status": record.status}
    if record.cancelled is not None:
        out |= {"reason": record.cancelled.reason, "cancelled_by_seat": record.cancelled.seat}
    else:
        out |= {"result": listing.result_of(record)}
        if record.ratings is not None and player is not None:
            out["rating"] = record.ratings.players.get(player)
    return {"type": "gameFinish", "game": out}


def post_updates(service: GameService, record: Record) -> list[int]:
    """Post what the game's registered bots have not been told yet; the seats whose challenge was new.

    Open challenges go out while the game waits for them; ``gameStart`` once it starts; ``gameFinish``
    once it is cancelled, or over and scored (when the bot's running games no longer count it).
    """
    store = service.store
    new_challenges = []
    for seat, bot_id in sorted(seats_module.registered(record.created.seats).items()):
        owner = bot_owner(bot_id)
        if seat in record.challenged and record.cancelled is None:
            event = challenge_event(service, record, seat)
            if store.post_inbox(owner, f"challenge:{record.game_id}:{seat}", _dumps(event)):
                new_challenges.append(seat)
            continue
        if record.cancelled is None and not record.challenged:
            store.post_inbox(owner, f"start:{record.game_id}:{seat}", _dumps(game_start_event(service, record, seat)))
        finished = record.cancelled is not None or (record.over and record.scored is not None)
        if finished:
            store.release_bot_game(bot_id, record.game_id)
            body = _dumps(game_finish_event(record, seat, bot_id))
            store.post_inbox(owner, f"finish:{record.game_id}:{seat}", body)
    return new_challenges


def _dumps(event: dict[str, Any]) -> str:
    return json.dumps(event, separators=(",", ":"))
