"""A game's log as the table reads it: what every logged event carries, canonical JSON, and the hash chain.

The store keeps events as :class:`events.envelope.Envelope`; everything here reads any object of the
:class:`Logged` shape, so the fold and the verifier need nothing but the standard library.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from typing import Any, Protocol

GENESIS_HASH = "0" * 64
"""The ``previous hash`` of a game's first event."""


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, UTF-8 text kept as is."""
    return _CANONICAL.encode(value)


def chain_hash(previous_hash: str, body: dict[str, Any]) -> str:
    """``sha256(previous hash + canonical body)`` as hex."""
    return hashlib.sha256((previous_hash + canonical(body)).encode()).hexdigest()


class Logged(Protocol):
    """One logged event: its place in the game, its content, and its link in the hash chain."""

    @property
    def game_id(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def payload(self) -> dict[str, Any]: ...
    @property
    def visible_to(self) -> tuple[int, ...] | None: ...
    @property
    def recorded_at(self) -> int: ...
    @property
    def rules_version(self) -> str: ...
    @property
    def hash(self) -> str: ...

    def body(self) -> dict[str, Any]:
        """Every field but the hash, as JSON: what the hash covers."""
        ...


@dataclasses.dataclass(frozen=True, slots=True)
class ChainBreak:
    """The first event whose hash or version does not follow from the one before."""

    version: int
    reason: str


def verify_chain(
    logged: Sequence[Logged], previous_hash: str = GENESIS_HASH, first_version: int = 1
) -> ChainBreak | None:
    """Check versions are contiguous and every hash follows; None when intact."""
    expected_version = first_version
    for event in logged:
        if event.version != expected_version:
            return ChainBreak(event.version, f"expected version {expected_version}, found {event.version}")
        if event.hash != chain_hash(previous_hash, event.body()):
            return ChainBreak(event.version, "hash does not match the event's content and the previous hash")
        previous_hash = event.hash
        expected_version += 1
    return None
