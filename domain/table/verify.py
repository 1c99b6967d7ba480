"""Verification of a game's log, with or without a server.

:func:`verify` takes every envelope of a game and checks, in order:

* the hash chain, and that versions run 1, 2, 3... with no gap;
* the deal: once the seed is revealed, that it matches the commitment in
  ``GameCreated`` and that the setup events are exactly what the rules deal
  from it;
* every command: each ``MoveMade`` is decided again by the rules of the
  version the game was played under, and the same events must come out;
  timeouts and scoring are recomputed the same way (random timeout moves
  derive from the seed).

It names the first event that fails and why, without quoting hidden payloads.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain import contract
from domain.contract import Event, Role
from domain.table.log import Logged, canonical, verify_chain
from domain.table.record import (
    SERVICE_EVENTS,
    ChallengeAccepted,
    ChallengeDeclined,
    GameCreated,
    GameScored,
    MoveMade,
    RatingsUpdated,
    Record,
    SeedRevealed,
    TurnTimedOut,
    accept_command,
    decline_command,
    finishes,
    fold_envelope,
    move_command,
    score_command,
    timeout_command,
)
from domain.table.seats import rules_options

RatingModel = Callable[[GameCreated, GameScored, RatingsUpdated], RatingsUpdated]
"""How a server rates a scored game: the ``RatingsUpdated`` it would log from the ``before`` that the logged
one records (``service.ratings.replay``); it raises :class:`ValueError` for a game it would not rate."""

COMMANDS = frozenset({"MoveMade", "TurnTimedOut", "GameScored", "ChallengeAccepted", "ChallengeDeclined"})


@dataclasses.dataclass(frozen=True, slots=True)
class Verdict:
    """The result of a verification.

    ``seed`` is ``verified`` once the seed is revealed and every deal derives
    from it, ``not revealed`` while the game runs.
    """

    ok: bool
    events: int
    state_hash: str | None
    seed: str
    failure_version: int | None = None
    failure: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": "ok" if self.ok else "failed",
            "events": self.events,
            "state_hash": self.state_hash,
            "seed": self.seed,
            "first_failure": None if self.ok else {"version": self.failure_version, "reason": self.failure},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        """The verdict that :meth:`to_json` gave."""
        failure = data.get("first_failure") or {}
        return cls(
            ok=data["verdict"] == "ok",
            events=int(data["events"]),
            state_hash=data["state_hash"],
            seed=data["seed"],
            failure_version=failure.get("version"),
            failure=failure.get("reason"),
        )

    def __str__(self) -> str:
        if self.ok:
            return f"OK: {self.events} events, state {self.state_hash}, seed {self.seed}"
        return f"FAILED at version {self.failure_version}: {self.failure}"


class _Failure(Exception):
    def __init__(self, version: int, reason: str) -> None:
        super().__init__(reason)
        self.version = version
        self.reason = reason


def state_hash(record: Record) -> str:
    """sha256 of the canonical JSON of the auditor's view of the state."""
    return hashlib.sha256(canonical(record.game.view(record.state, Role.AUDITOR)).encode()).hexdigest()


def verify(envelopes: Sequence[Logged], rating: RatingModel | None = None) -> Verdict:
    """Check a whole game log; see the module's docstring. A rating change is recomputed by ``rating``; a log
    that holds one fails without a model to check it with."""
    seed_status = "not revealed"
    try:
        record, seed_status = _verify(list(envelopes), rating)
    except _Failure as failure:
        return Verdict(False, len(envelopes), None, seed_status, failure.version, failure.reason)
    return Verdict(True, len(envelopes), state_hash(record), seed_status)


def _verify(envelopes: list[Logged], rating: RatingModel | None) -> tuple[Record, str]:
    if not envelopes:
        raise _Failure(0, "the log is empty")
    broken = verify_chain(envelopes)
    if broken is not None:
        raise _Failure(broken.version, f"the hash chain is broken: {broken.reason}")
    game_id = envelopes[0].game_id
    for envelope in envelopes:
        if envelope.game_id != game_id:
            raise _Failure(envelope.version, f"this event belongs to game {envelope.game_id}, not {game_id}")
    try:
        record = fold_envelope(None, envelopes[0])
    except (ValueError, KeyError, TypeError) as error:
        raise _Failure(1, f"the game cannot be set up: {error}") from None
    for envelope in envelopes:
        if envelope.rules_version != record.created.rules_version:
            raise _Failure(
                envelope.version, f"recorded under rules {envelope.rules_version}, not {record.created.rules_version}"
            )
    seed, salt = _revealed_seed(envelopes, record)
    count = record.created.setup_events
    setup = envelopes[1 : 1 + count]
    if seed is not None:
        initial = record.game.initial(record.seat_count, rules_options(record.created.options))
        _compare(record.game.setup(initial, seed), setup, None, 2, "the deal", record.game.events)
    record = _fold(record, setup)
    i = 1 + count
    while i < len(envelopes):
        head = envelopes[i]
        expected, length = _command(record, head, envelopes, i, seed, salt, rating)
        group = envelopes[i : i + length]
        if expected is not None:
            seat = head.seat if head.type == "MoveMade" else None
            _compare(expected, group, seat, head.version, _describe(head), record.game.events)
        record = _fold(record, group)
        i += length
    return record, "verified" if seed is not None else "not revealed"


def turn_boundaries(envelopes: Sequence[Logged], seed: bytes | None = None, salt: bytes = b"") -> list[int]:
    """The versions between turns while the game runs: the end of the deal, then the end of each
    whole command (a move with its effects, a timeout with its moves, grouped as :func:`verify`
    groups them) that leaves the game running. A command that ends the game, the seed's reveal and
    the scoring end no such turn, and neither does a command cut short by the end of ``envelopes``.

    ``seed`` (with its ``salt``) lets random timeout moves be recomputed before the seed is
    revealed; without it they are grouped up to the next move, as :func:`verify` does.
    Raises :class:`ValueError` if the log does not verify.
    """
    envelopes = list(envelopes)
    try:
        record = fold_envelope(None, envelopes[0])
        if seed is None:
            seed, salt = _revealed_seed(envelopes, record)
        i = 1 + record.created.setup_events
        if i > len(envelopes):
            return []
        record = _fold(record, envelopes[1:i])
        found = [i]
        while i < len(envelopes) and not record.over:
            _, length = _command(record, envelopes[i], envelopes, i, seed, salt, _as_logged)
            if i + length > len(envelopes):
                break
            record = _fold(record, envelopes[i : i + length])
            i += length
            if not record.over:
                found.append(i)
    except _Failure as failure:
        raise ValueError(f"version {failure.version}: {failure.reason}") from None
    return found


def _command(
    record: Record,
    head: Logged,
    envelopes: list[Logged],
    i: int,
    seed: bytes | None,
    salt: bytes,
    rating: RatingModel | None,
) -> tuple[list[Event] | None, int]:
    """The events the command starting at ``head`` must have produced (None where they cannot be
    recomputed yet: random timeout moves before the seed is revealed), and how many envelopes it spans."""
    if head.type not in COMMANDS:
        raise _Failure(head.version, f"no command explains a {head.type} event here")
    if record.cancelled is not None:
        raise _Failure(head.version, "the game was already cancelled")
    if record.over and head.type != "GameScored":
        raise _Failure(head.version, "the game was already over")
    if head.type in ("ChallengeAccepted", "ChallengeDeclined"):
        return _answer(record, head), 1 if head.type == "ChallengeAccepted" else 2
    if not record.started:
        raise _Failure(head.version, f"a {head.type} event before every challenge was accepted")
    if head.type == "MoveMade":
        made = contract.decode_event(SERVICE_EVENTS, head.type, head.payload)
        assert isinstance(made, MoveMade)
        try:
            expected = move_command(record, made.seat, made.move)
        except contract.RuleError as error:
            raise _Failure(head.version, f"seat {made.seat}'s move was illegal when it was made: {error}") from None
    elif head.type == "TurnTimedOut":
        timed_out = contract.decode_event(SERVICE_EVENTS, head.type, head.payload)
        assert isinstance(timed_out, TurnTimedOut)
        if seed is None and timed_out.policy == "random":
            later = (j for j in range(i + 1, len(envelopes)) if envelopes[j].type in ("MoveMade", "GameScored"))
            return None, next(later, len(envelopes)) - i
        expected = timeout_command(record, seed or b"")
    else:
        expected = score_command(record)
        if not expected:
            raise _Failure(head.version, "the game was scored twice, or before it was over")
        expected += _ratings(record, expected, envelopes, i + len(expected), rating)
    if finishes(record, expected):
        if seed is None:
            raise _Failure(head.version, "the game ended here but its seed was not revealed")
        expected.append(revealed(seed, salt))
    return expected, len(expected)


def _ratings(
    record: Record, scoring: list[Event], envelopes: list[Logged], at: int, rating: RatingModel | None
) -> list[Event]:
    """The ``RatingsUpdated`` that must follow the scoring, if the log has one at ``at``: recomputed by the
    model from the ``before`` ratings it records, for the game's own rated players, seats and ranks."""
    if at >= len(envelopes) or envelopes[at].type != "RatingsUpdated":
        return []
    got = envelopes[at]
    if rating is None:
        raise _Failure(got.version, "the log changes ratings, and this verifier has no rating model to check it")
    scored = scoring[0]
    assert isinstance(scored, GameScored)
    try:
        logged = contract.decode_event(SERVICE_EVENTS, got.type, got.payload)
        assert isinstance(logged, RatingsUpdated)
        return [rating(record.created, scored, logged)]
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise _Failure(got.version, f"the rating change does not fit the game: {error}") from None


def _as_logged(created: GameCreated, scored: GameScored, logged: RatingsUpdated) -> RatingsUpdated:
    """A rating model that takes the logged change as it is: enough to tell where a command ends."""
    return logged


def _answer(record: Record, head: Logged) -> list[Event]:
    """The events of a challenge's answer, checked against the challenges still open."""
    answer = contract.decode_event(SERVICE_EVENTS, head.type, head.payload)
    try:
        if isinstance(answer, ChallengeAccepted):
            return accept_command(record, answer.seat, answer.bot, auto=answer.auto)
        assert isinstance(answer, ChallengeDeclined)
        return decline_command(record, answer.seat, answer.bot, answer.reason)
    except contract.RuleError as error:
        raise _Failure(head.version, f"this answer fits no open challenge: {error}") from None


def _compare(
    expected: Sequence[Event],
    actual: Sequence[Logged],
    seat: int | None,
    version: int,
    what: str,
    game_events: Mapping[str, type[Event]],
) -> None:
    for n, event in enumerate(expected):
        at = version + n
        if n >= len(actual):
            raise _Failure(at, f"{what}: the log ends before the {type(event).__name__} event the rules produce")
        type_name, payload = contract.encode_event(event)
        got = actual[n]
        if got.type != type_name:
            raise _Failure(got.version, f"{what}: the rules produce {type_name} here, the log has {got.type}")
        if got.payload != payload and not _same_event(event, got, game_events):
            raise _Failure(got.version, f"{what}: the {type_name} event's content differs from what the rules produce")
        if seat is not None and got.seat != seat:
            raise _Failure(got.version, f"{what}: the event is attributed to seat {got.seat}, not seat {seat}")
        visibility = event.visibility()
        visible_to = None if visibility.seats is None else tuple(sorted(visibility.seats))
        if got.visible_to != visible_to:
            raise _Failure(got.version, f"{what}: the {type_name} event's visibility differs from the rules'")


def _same_event(expected: Event, got: Logged, game_events: Mapping[str, type[Event]]) -> bool:
    """Whether a stored payload decodes to the expected event: a field added later with a default
    (such as ``SeedRevealed.salt``) is absent from the payloads of older games."""
    types = SERVICE_EVENTS if got.type in SERVICE_EVENTS else game_events
    try:
        return bool(contract.decode_event(types, got.type, got.payload) == expected)
    except (ValueError, KeyError, TypeError, AttributeError):
        return False


def commitment(seed: bytes, salt: bytes) -> str:
    """The public commitment to a seed: ``sha256(salt + seed)``, hex."""
    return hashlib.sha256(salt + seed).hexdigest()


def revealed(seed: bytes, salt: bytes) -> SeedRevealed:
    """The event that reveals a seed and its salt (no salt field for the unsalted commitments of old games)."""
    return SeedRevealed(seed=seed.hex(), salt=salt.hex()) if salt else SeedRevealed(seed=seed.hex())


def _revealed_seed(envelopes: list[Logged], record: Record) -> tuple[bytes | None, bytes]:
    for envelope in envelopes:
        if envelope.type == "SeedRevealed":
            try:
                seed = bytes.fromhex(envelope.payload["seed"])
                salt = bytes.fromhex(envelope.payload.get("salt", ""))
            except (KeyError, TypeError, ValueError, AttributeError):
                raise _Failure(envelope.version, "the SeedRevealed event does not hold a hexadecimal seed") from None
            if commitment(seed, salt) != record.created.seed_sha256:
                raise _Failure(envelope.version, "the revealed seed does not match the commitment in GameCreated")
            return seed, salt
    return None, b""


def _fold(record: Record, envelopes: Sequence[Logged]) -> Record:
    for envelope in envelopes:
        try:
            record = fold_envelope(record, envelope)
        except (ValueError, KeyError, TypeError) as error:
            raise _Failure(envelope.version, f"the event cannot be applied: {error}") from None
    return record


def _describe(head: Logged) -> str:
    if head.type == "MoveMade":
        return f"seat {head.seat}'s move at version {head.version}"
    if head.type == "TurnTimedOut":
        return f"the timeout at version {head.version}"
    return f"the scoring at version {head.version}"
