"""The game list's entries, kept beside each game so that listing never folds a game.

The service computes the fields below from the record it has just folded and hands them to the
store, whose append script writes them into the game's metadata with the events, atomically:
``seats`` (webhook URLs hidden), ``created_at``, ``delay`` (the ``spectator_delay`` option),
``first`` (the first version after the deal), ``to_act`` and ``result``.

A running game with a ``spectator_delay`` is listed as spectators see it, ``delay`` events
behind (never before the end of the deal). For those games only, each append also stores the
entry of every new version in a hash keyed by version (a few bytes an event, kept for the
game's life like its events), and the list reads the one at ``max(first, version - delay)``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from domain.table.record import ACTIVE, GameCreated, Record, fold_envelope
from domain.table.seats import BotSeat
from events.envelope import Envelope, canonical

FIELDS = ("seats", "created_at", "delay", "first", "to_act", "result")
"""The metadata fields that the game list reads."""


@dataclasses.dataclass(frozen=True, slots=True)
class Listed:
    """One entry of the game list. ``created_ms`` orders the list (and makes its cursor);
    ``created_at`` is the time of the game's first event, as its detail shows it."""

    game_id: str
    game: str
    status: str
    version: int
    created_ms: int
    created_at: int
    seats: list[dict[str, Any]]
    to_act: list[int]
    result: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        """The entry as the API shows it."""
        return {
            "id": self.game_id,
            "game": self.game,
            "status": self.status,
            "version": self.version,
            "created_at": self.created_at,
            "seats": self.seats,
            "to_act": self.to_act,
            "result": self.result,
        }


def public_seats(created: GameCreated) -> list[dict[str, Any]]:
    """The seats as anyone but the creator sees them: a webhook bot as ``{"webhook": true}``."""
    return [{"index": i, "name": s["name"], "bot": BotSeat.hide_url(s["bot"])} for i, s in enumerate(created.seats)]


def to_act_of(record: Record) -> list[int]:
    """The seats that must act now, sorted; none once the game is over."""
    return sorted(record.to_act())


def result_of(record: Record) -> dict[str, Any] | None:
    """The result of a finished game (with its scores once scored), else None."""
    if record.outcome is None:
        return None
    scored = record.scored
    return {
        "winners": list(record.outcome.winners),
        "draw": record.outcome.draw,
        "reason": record.outcome.reason,
        "scored": scored is not None,
        "scores": None if scored is None else scored.scores,
    }


def delay_of(created: GameCreated) -> int:
    """The game's ``spectator_delay``, in events."""
    return int(created.options.get("spectator_delay") or 0)


def fields_of(record: Record) -> dict[str, str]:
    """The metadata fields of the game list, for ``record`` (the game's newest version)."""
    return _fixed_fields(record) | {"to_act": canonical(to_act_of(record)), "result": canonical(result_of(record))}


_FIXED: dict[str, tuple[GameCreated, dict[str, str]]] = {}
"""The fields that never change in a game's life, encoded, by game id (with the ``GameCreated`` they came from)."""

_FIXED_HELD = 10_000
"""How many games' fixed fields are kept; the whole table is dropped when it grows past that."""


def _fixed_fields(record: Record) -> dict[str, str]:
    held = _FIXED.get(record.game_id)
    if held is not None and held[0] is record.created:
        return held[1]
    fields = {
        "seats": canonical(public_seats(record.created)),
        "created_at": canonical(record.created_ms),
        "delay": canonical(delay_of(record.created)),
        "first": canonical(1 + record.created.setup_events),
    }
    if len(_FIXED) >= _FIXED_HELD:
        _FIXED.clear()
    _FIXED[record.game_id] = (record.created, fields)
    return fields


def held_entries(record: Record | None, envelopes: Sequence[Envelope]) -> dict[int, str]:
    """The list entries by version that ``envelopes`` add to a game with a spectator delay (none without one).

    ``record`` is the game before them (None for a new game).
    """
    out: dict[int, str] = {}
    for envelope in envelopes:
        if record is not None and not delay_of(record.created):
            return out
        record = fold_envelope(record, envelope)
        if delay_of(record.created) and record.version >= 1 + record.created.setup_events:
            out[record.version] = canonical({"to_act": to_act_of(record)})
    return out


def held_version(meta: Mapping[str, str]) -> int | None:
    """The version a spectator sees of a running game with a delay; None for any other game."""
    if meta.get("status") != ACTIVE or "delay" not in meta or "first" not in meta:
        return None
    delay = int(meta["delay"])
    if not delay:
        return None
    return max(int(meta["first"]), int(meta["version"]) - delay)


def from_meta(game_id: str, created_ms: int, meta: Mapping[str, str], held: str | None) -> Listed | None:
    """The entry stored for a game; None when it is missing (a game stored before the list kept its fields)."""
    if any(name not in meta for name in FIELDS):
        return None
    at = held_version(meta)
    if at is not None and held is None:
        return None
    to_act = json.loads(meta["to_act"]) if held is None or at is None else json.loads(held)["to_act"]
    return Listed(
        game_id=game_id,
        game=meta["game"],
        status=meta["status"],
        version=int(meta["version"]) if at is None else at,
        created_ms=created_ms,
        created_at=json.loads(meta["created_at"]),
        seats=json.loads(meta["seats"]),
        to_act=to_act,
        result=None if at is not None else json.loads(meta["result"]),
    )


def from_record(record: Record, created_ms: int) -> Listed:
    """The entry of a folded record (for games stored before the list kept its fields)."""
    return Listed(
        game_id=record.game_id,
        game=record.game.name,
        status=record.status,
        version=record.version,
        created_ms=created_ms,
        created_at=record.created_ms,
        seats=public_seats(record.created),
        to_act=to_act_of(record),
        result=result_of(record),
    )
