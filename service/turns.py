"""Turn requests: what a bot seat is sent when it must act, by webhook or by its pull stream.

Both transports carry the same body under the same id, so a bot can move from
push to pull (or back) without missing a turn.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from domain.table.record import Record

if TYPE_CHECKING:
    from service.games import GameService

LEGAL_MOVES_LIMIT = 500
"""Turn requests carry the legal moves when there are at most this many."""
DELIVERY_WINDOW_MS = 15 * 60 * 1000
"""Without a turn deadline, a turn request stands (and webhooks are retried) this long after the turn began."""
LEGAL_MOVES_URL_LIMIT = 100_000
"""The ``limit`` that ``legal_moves_url`` asks for: the most the legal-moves endpoint gives at once."""
DEFAULT_PUBLIC_URL = "http://127.0.0.1:8000"
"""Where turn requests point bots when ``ORRERY_PUBLIC_URL`` is unset: ``orrery up``'s default address."""
READER_TTL_S = 30
"""How long a stream's claim to read an account lasts without being renewed (a reader renews it as it reads)."""


def turn_id(game_id: str, seat: int, version: int) -> str:
    """The id of one turn request, the same on every retry and on every transport."""
    return f"msg_{game_id}_{version}_{seat}"


def turn_deadline(service: GameService, record: Record) -> int:
    """When the turn times out (ms since the epoch), or when deliveries stop without a deadline."""
    return service.deadline(record) or record.updated_ms + DELIVERY_WINDOW_MS


def api_base(service: GameService) -> str:
    """The API's absolute base URL as bots reach it: ``ORRERY_PUBLIC_URL``, else ``orrery up``'s default address."""
    return (service.public_url or DEFAULT_PUBLIC_URL).rstrip("/")


def turn_request(service: GameService, record: Record, seat: int) -> dict[str, Any]:
    """The body of a turn request: everything a bot needs, and only its own seat's view.

    Above :data:`LEGAL_MOVES_LIMIT` moves, ``legal_moves`` is null and ``legal_moves_truncated`` is true:
    the bot then reads them from ``legal_moves_url`` with its token. The URLs are absolute.
    """
    moves = list(itertools.islice(record.game.legal_moves(record.state, seat), LEGAL_MOVES_LIMIT + 1))
    truncated = len(moves) > LEGAL_MOVES_LIMIT
    base = api_base(service)
    game_url = f"{base}/v1/games/{record.game_id}"
    return {
        "type": "turn",
        "id": turn_id(record.game_id, seat, record.version),
        "game_id": record.game_id,
        "game": record.game.name,
        "seat": seat,
        "version": record.version,
        "deadline": turn_deadline(service, record),
        "view": service.view(record, seat),
        "legal_moves": None if truncated else moves,
        "legal_moves_truncated": truncated,
        "token": service.store.secret(record.game_id, f"token:{seat}"),
        "api_url": base,
        "moves_url": f"{game_url}/moves",
        "legal_moves_url": f"{game_url}/legal-moves?limit={LEGAL_MOVES_URL_LIMIT}",
        "reply": 'answer 200 with {"move": ...}, or 202 and POST {"move": ..., "expected_version": version} '
        "to moves_url with 'Authorization: Bearer <token>'; when legal_moves_truncated, GET legal_moves_url "
        "with that token",
    }
