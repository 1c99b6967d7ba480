"""Sealing an envelope: the hash and the stored form both come from one canonical encoding of its body."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from events.envelope import GENESIS_HASH, Envelope, seal

TEXT = st.text(max_size=12)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
FIELDS = st.fixed_dictionaries(
    {
        "game_id": TEXT,
        "version": st.integers(1, 10**9),
        "type": TEXT,
        "seat": st.none() | st.integers(0, 5),
        "payload": st.dictionaries(TEXT, JSON_VALUES, max_size=4),
        "visible_to": st.none() | st.tuples(st.integers(0, 5)),
        "redacted": st.dictionaries(TEXT, JSON_VALUES, max_size=2),
        "recorded_at": st.integers(0, 2**42),
        "event_id": TEXT,
        "rules_version": TEXT,
    }
)

EXAMPLE: dict[str, Any] = {
    "game_id": "g1",
    "version": 2,
    "type": "MarkPlaced",
    "seat": 0,
    "payload": {"square": 4},
    "visible_to": None,
    "redacted": {},
    "recorded_at": 1,
    "event_id": "e1",
    "rules_version": "tictactoe-1",
}


def plain_canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=300, deadline=None)
@given(FIELDS, st.sampled_from([GENESIS_HASH, "ab" * 32]))
def test_the_hash_and_the_stored_form_are_those_of_the_whole_body(fields: dict[str, Any], previous: str) -> None:
    sealed = seal(previous, **fields)
    body = Envelope(**fields, hash="").body()
    assert sealed.hash == hashlib.sha256((previous + plain_canonical(body)).encode()).hexdigest()
    assert sealed.to_json() == plain_canonical({**body, "hash": sealed.hash})
    assert Envelope.from_json(sealed.to_json()) == sealed
    assert sealed.expected_hash(previous) == sealed.hash


@settings(max_examples=20, deadline=None)
@given(FIELDS)
def test_a_changed_copy_is_stored_as_changed(fields: dict[str, Any]) -> None:
    sealed = seal(GENESIS_HASH, **fields)
    changed = dataclasses.replace(sealed, payload={"changed": True})
    assert json.loads(changed.to_json())["payload"] == {"changed": True}
    assert json.loads(sealed.to_json())["payload"] == sealed.payload


def test_the_stored_form_is_no_field_of_the_envelope() -> None:
    sealed = seal(GENESIS_HASH, **EXAMPLE)
    fields = {f.name: getattr(sealed, f.name) for f in dataclasses.fields(sealed) if f.name != "hash"}
    assert fields == EXAMPLE
    assert seal(GENESIS_HASH, **fields) == sealed
    assert dataclasses.asdict(sealed) == {**EXAMPLE, "hash": sealed.hash}
