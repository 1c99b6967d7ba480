"""Event envelopes: what the store keeps for every event, and the hash chain."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

GENESIS_HASH = "0" * 64
"""The ``previous hash`` of a game's first event."""


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, UTF-8 text kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclasses.dataclass(frozen=True, slots=True)
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
        """The stored form: canonical JSON of the body plus the hash."""
        return canonical({**self.body(), "hash": self.hash})

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


def chain_hash(previous_hash: str, body: dict[str, Any]) -> str:
    """``sha256(previous hash + canonical body)`` as hex."""
    return hashlib.sha256((previous_hash + canonical(body)).encode()).hexdigest()


def seal(previous_hash: str, **fields: Any) -> Envelope:
    """Build an envelope from its body fields and chain it to ``previous_hash``."""
    unsealed = Envelope(**fields, hash="")
    return dataclasses.replace(unsealed, hash=unsealed.expected_hash(previous_hash))


@dataclasses.dataclass(frozen=True, slots=True)
class ChainBreak:
    """The first envelope whose hash or version does not follow from the one before."""

    version: int
    reason: str


def verify_chain(
    envelopes: list[Envelope], previous_hash: str = GENESIS_HASH, first_version: int = 1
) -> ChainBreak | None:
    """Check versions are contiguous and every hash follows; None when intact."""
    expected_version = first_version
    for env in envelopes:
        if env.version != expected_version:
            return ChainBreak(env.version, f"expected version {expected_version}, found {env.version}")
        if env.hash != env.expected_hash(previous_hash):
            return ChainBreak(env.version, "hash does not match the event's content and the previous hash")
        previous_hash = env.hash
        expected_version += 1
    return None
