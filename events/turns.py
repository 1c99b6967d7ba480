"""Turn requests: what a bot seat is sent when it must act, by webhook or by its pull stream.

Both transports carry the same body under the same id, so a bot can move from
push to pull (or back) without missing a turn.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from events.record import Record

if TYPE_CHECKING:
    from events.service import GameService

LEGAL_MOVES_LIMIT = 500
"""Turn requests carry the legal moves when there are at most this many."""
DELIVERY_WINDOW_MS = 15 * 60 * 1000
"""Without a turn deadline, a turn request stands (and webhooks are retried) this long after the turn began."""
PULL_BACKLOG = 100
PULL_OWNER_TTL_S = 30


def turn_id(game_id: str, seat: int, version: int) -> str:
    """The id of one turn request, the same on every retry and on every transport."""
    return f"msg_{game_id}_{version}_{seat}"


def turn_deadline(service: GameService, record: Record) -> int:
    """When the turn times out (ms since the epoch), or when deliveries stop without a deadline."""
    return service.deadline(record) or record.updated_ms + DELIVERY_WINDOW_MS


def turn_request(service: GameService, record: Record, seat: int) -> dict[str, Any]:
    """The body of a turn request: everything a bot needs, and only its own seat's view."""
    moves = list(itertools.islice(record.game.legal_moves(record.state, seat), LEGAL_MOVES_LIMIT + 1))
    public_url = service.public_url
    return {
        "type": "turn",
        "id": turn_id(record.game_id, seat, record.version),
        "game_id": record.game_id,
        "game": record.game.name,
        "seat": seat,
        "version": record.version,
        "deadline": turn_deadline(service, record),
        "view": service.view(record, seat),
        "legal_moves": moves if len(moves) <= LEGAL_MOVES_LIMIT else None,
        "token": service.store.secret(record.game_id, f"token:{seat}"),
        "moves_url": f"{public_url.rstrip('/')}/v1/games/{record.game_id}/moves" if public_url else None,
        "reply": 'answer 200 with {"move": ...}, or 202 and POST the move to moves_url with the token',
    }


def publish(service: GameService, game_id: str, seat: int, body: str) -> bool:
    """Put a turn request on the seat's pull stream; True if a pull stream is reading it now."""
    from events.service import token_hash

    token = service.store.secret(game_id, f"token:{seat}")
    if token is None:
        return False
    keys, redis = service.store.keys, service.store.redis
    hashed = token_hash(token)
    redis.xadd(keys.pull(hashed), {"body": body}, maxlen=PULL_BACKLOG, approximate=True)
    return bool(redis.exists(keys.pull_owner(hashed)))
