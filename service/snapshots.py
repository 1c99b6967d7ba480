"""Snapshots of a folded :class:`~domain.table.record.Record`: canonical JSON through :mod:`events.codec`.

A snapshot is a cache, never the truth. It is stored with the version, the rules version and the
hash of the record's schema (the service's fields plus the game's state type, recursively), and
:func:`decode` refuses one whose rules version or schema differs from what this server would
write today, or that does not decode: the caller drops it and folds the game from its events.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import typing
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from domain import contract
from domain.table.record import GameCreated, Record
from domain.table.seats import rules_options
from events import codec
from events.store import Snapshot

FORMAT = "orrery-snapshot/1"


class SnapshotError(ValueError):
    """A snapshot that is stale (other rules, other schema, another game) or does not decode."""


@functools.cache
def _record_hints(state_type: Any) -> Mapping[str, Any]:
    hints = typing.get_type_hints(Record)
    return MappingProxyType(
        {
            f.name: state_type if f.name == "state" else hints[f.name]
            for f in dataclasses.fields(Record)
            if f.name != "game"
        }
    )


def schema(state_type: type) -> str:
    """The schema hash of a record whose rules state is a ``state_type``."""
    return _schema(state_type)


@functools.cache
def _schema(state_type: Any) -> str:
    text = FORMAT + "|" + ",".join(f"{n}:{codec.describe(h)}" for n, h in _record_hints(state_type).items())
    return hashlib.sha256(text.encode()).hexdigest()


def encode(record: Record) -> Snapshot:
    """The snapshot of ``record``; raises :class:`codec.CodecError` if its state does not fit its type hints."""
    state_type: type = type(record.state)
    data = {n: codec.encode(getattr(record, n), h) for n, h in _record_hints(state_type).items()}
    raw = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return Snapshot(record.version, record.created.rules_version, raw, schema(state_type))


def decode(snapshot: Snapshot, game_id: str) -> Record:
    """The record a snapshot holds, under the rules version it was folded by; raises :class:`SnapshotError`."""
    try:
        data = json.loads(snapshot.state)
    except (ValueError, RecursionError) as error:
        raise SnapshotError(f"not JSON: {error}") from None
    if not isinstance(data, dict) or "created" not in data:
        raise SnapshotError("not a snapshot of a record")
    try:
        created = codec.decode(data["created"], GameCreated)
    except codec.CodecError as error:
        raise SnapshotError(str(error)) from None
    if created.rules_version != snapshot.rules_version:
        raise SnapshotError(f"taken under rules {snapshot.rules_version}, the game is {created.rules_version}")
    try:
        game = contract.get(created.game, created.rules_version)
        state_type: type = type(game.initial(len(created.seats), rules_options(created.options)))
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise SnapshotError(str(error)) from None
    if snapshot.schema != schema(state_type):
        raise SnapshotError("taken under another schema of the record or its state")
    hints = _record_hints(state_type)
    if data.keys() != hints.keys():
        raise SnapshotError("the record's fields differ")
    try:
        fields = {n: created if n == "created" else codec.decode(data[n], h) for n, h in hints.items()}
    except codec.CodecError as error:
        raise SnapshotError(str(error)) from None
    record = Record(game=game, **fields)
    if record.version != snapshot.version or record.game_id != game_id:
        raise SnapshotError(f"holds {record.game_id} at version {record.version}, not {game_id} at {snapshot.version}")
    return record
