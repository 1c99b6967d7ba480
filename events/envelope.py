"""Event envelopes: what the store keeps for every event, chained by :mod:`domain.table.log`."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

from domain.table.log import GENESIS_HASH, ChainBreak, canonical, chain_hash, verify_chain

__all__ = ["GENESIS_HASH", "ChainBreak", "Envelope", "canonical", "chain_hash", "seal", "verify_chain"]


_STORED = "_stored"
"""The attribute, outside the dataclass's fields, where :func:`seal` keeps the stored form it encoded."""


@dataclasses.dataclass(frozen=True)
class Envelope:
    """One stored event.

    ``hash`` is ``sha256(previous hash + canonical body)``, where the body is
    every other field. ``visible_to`` is None for a public event, otherwise
    the seats that may read ``payload``; everyone else reads ``redacted``.
    """

    game_id: str
    version: int
    type: str
    seat: int | None
    payload: dict[str, Any]
    visible_to: tuple[int, ...] | None
    redacted: dict[str, Any]
    recorded_at: int
    event_id: str
    rules_version: str
    hash: str

    def body(self) -> dict[str, Any]:
        """Every field but the hash, as JSON."""
        return {
            "game_id": self.game_id,
            "version": self.version,
            "type": self.type,
            "seat": self.seat,
            "payload": self.payload,
            "visible_to": None if self.visible_to is None else list(self.visible_to),
            "redacted": self.redacted,
            "recorded_at": self.recorded_at,
            "event_id": self.event_id,
            "rules_version": self.rules_version,
        }

    def to_json(self) -> str:
        """The stored form: canonical JSON of the body plus the hash (made once by :func:`seal`)."""
        stored: str | None = self.__dict__.get(_STORED)
        return stored if stored is not None else canonical({**self.body(), "hash": self.hash})

    @classmethod
    def from_json(cls, text: str | bytes) -> Envelope:
        """Read the stored form back."""
        d = json.loads(text)
        visible = d["visible_to"]
        return cls(
            game_id=d["game_id"],
            version=d["version"],
            type=d["type"],
            seat=d["seat"],
            payload=d["payload"],
            visible_to=None if visible is None else tuple(visible),
            redacted=d["redacted"],
            recorded_at=d["recorded_at"],
            event_id=d["event_id"],
            rules_version=d["rules_version"],
            hash=d["hash"],
        )

    def expected_hash(self, previous_hash: str) -> str:
        """The hash this envelope must carry if it follows ``previous_hash``."""
        return chain_hash(previous_hash, self.body())


def seal(previous_hash: str, **fields: Any) -> Envelope:
    """Build an envelope from its body fields and chain it to ``previous_hash``.

    The canonical body is encoded once, in two parts split where ``hash`` sorts among the keys (after
    ``event_id`` and ``game_id``), so that the hash and the stored form both come from it.
    """
    envelope = Envelope(**fields, hash="")
    body = envelope.body()
    head = canonical({"event_id": body.pop("event_id"), "game_id": body.pop("game_id")})[:-1]
    tail = canonical(body)[1:]
    digest = hashlib.sha256(f"{previous_hash}{head},{tail}".encode()).hexdigest()
    object.__setattr__(envelope, "hash", digest)
    object.__setattr__(envelope, _STORED, f'{head},"hash":"{digest}",{tail}')
    return envelope
