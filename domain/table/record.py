"""The game record: the events the service itself records, the fold of a
game's envelopes, and every command the service runs, as pure functions.

The service appends what these functions return; the verifier runs them
again over a stored log and checks that the same events come out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from domain import contract
from domain.contract import JSON, Event, Game, Outcome, Visibility
from domain.table import seats as seats_module
from domain.table.log import Logged

ACTIVE = "active"
FINISHED = "finished"
CANCELLED = "cancelled"
STATUSES = (ACTIVE, FINISHED, CANCELLED)


# --- Events the service itself records ----------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class GameCreated(Event):
    """The first event of every game: what was created, and the seed's commitment.

    A game with a webhook seat records the webhook's URL here, for the worker;
    then the event is seen whole by no seat, and everyone else reads it with
    each webhook as ``{"webhook": true}`` (the creator reads it whole once the game is over).
    """

    game: str
    rules_version: str
    seats: tuple[dict[str, Any], ...]
    options: dict[str, Any]
    seed_sha256: str
    setup_events: int

    def visibility(self) -> Visibility:
        hidden = [{**seat, "bot": seats_module.BotSeat.hide_url(seat["bot"])} for seat in self.seats]
        if hidden == list(self.seats):
            return contract.PUBLIC
        _, payload = contract.encode_event(self)
        return Visibility(frozenset(), payload | {"seats": hidden})


@dataclasses.dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    """The game's seed, revealed when it ends so anyone can check every deal.

    ``salt`` is the secret random salt of the commitment in ``GameCreated``:
    ``seed_sha256 == sha256(salt + seed)``. Games committed before salts have none.
    """

    seed: str
    salt: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class GameScored(Event):
    """The final result and scoring, appended once by a worker."""

    winners: tuple[int, ...]
    reason: str
    scores: dict[str, Any]


@dataclasses.dataclass(frozen=True, slots=True)
class TurnTimedOut(Event):
    """A seat's turn deadline passed; the events that follow apply the game's ``on_timeout`` policy."""

    seat: int
    policy: str


@dataclasses.dataclass(frozen=True, slots=True)
class MoveMade(Event):
    """A seat's move as it was submitted; the rules' events for it follow.

    It is as private as the most private of those events: a move that drew a
    hidden card is seen only by its seat until the game ends.
    """

    seat: int
    move: JSON
    private: bool = False

    def visibility(self) -> Visibility:
        if self.private:
            return Visibility(frozenset({self.seat}), {"seat": self.seat})
        return contract.PUBLIC


@dataclasses.dataclass(frozen=True, slots=True)
class ChallengeAccepted(Event):
    """The registered bot challenged to ``seat`` accepted; ``auto`` when its auto-accept policy did."""

    seat: int
    bot: str
    auto: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class ChallengeDeclined(Event):
    """The registered bot challenged to ``seat`` declined (``reason``: declined, busy or timeout)."""

    seat: int
    bot: str
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class GameCancelled(Event):
    """The game never started: a challenge was declined or timed out. It is never scored or rated."""

    reason: str
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class RatingsUpdated(Event):
    """How a rated game changed its players' ratings, appended with ``GameScored``.

    ``players`` maps each rated player to its seat, its rank (1 is first) and its rating
    ``before`` and ``after`` as ``{"mu": ..., "sigma": ...}`` in thousandths (no floats in events).
    """

    model: str
    players: dict[str, Any]


SERVICE_EVENTS = contract.event_types(
    GameCreated,
    SeedRevealed,
    GameScored,
    TurnTimedOut,
    MoveMade,
    ChallengeAccepted,
    ChallengeDeclined,
    GameCancelled,
    RatingsUpdated,
)


# --- The folded aggregate ------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Record:
    """A game folded up to ``version``: its rules state plus what the service records."""

    game_id: str
    game: Game[Any]
    version: int
    hash: str
    created: GameCreated
    created_ms: int
    updated_ms: int
    state: Any
    outcome: Outcome | None
    seed: str | None = None
    scored: GameScored | None = None
    seat_versions: tuple[int, ...] = ()
    """Per seat, the version of the last event that seat's moves depend on (see :func:`relevant_to`)."""
    challenged: frozenset[int] = frozenset()
    """Seats whose registered bot has not yet accepted its challenge; nobody moves until none is left."""
    cancelled: GameCancelled | None = None
    ratings: RatingsUpdated | None = None

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def closed(self) -> bool:
        """Over or cancelled: the game takes no more moves."""
        return self.outcome is not None or self.cancelled is not None

    @property
    def started(self) -> bool:
        """Every challenge was accepted and the game was not cancelled: its seats may move."""
        return not self.challenged and self.cancelled is None

    def to_act(self) -> frozenset[int]:
        """The seats that must act now: none before the game starts or after it ends."""
        if not self.started or self.over:
            return frozenset()
        return self.game.to_act(self.state)

    def seat_version(self, seat: int) -> int:
        """The oldest version a move of ``seat`` may name as ``expected_version`` (see :func:`relevant_to`)."""
        return self.seat_versions[seat] if seat < len(self.seat_versions) else self.version

    @property
    def status(self) -> str:
        if self.cancelled is not None:
            return CANCELLED
        return FINISHED if self.over else ACTIVE

    @property
    def seat_count(self) -> int:
        return len(self.created.seats)


def fold_envelope(record: Record | None, envelope: Logged) -> Record:
    """Apply one stored event to a record: the service's ``evolve``.

    A game is folded under the rules version its ``GameCreated`` records, whatever the current
    version is; :class:`contract.UnknownRulesVersion` when this server does not have it.
    """
    return fold_envelopes(record, (envelope,))


def fold_envelopes(record: Record | None, envelopes: Sequence[Logged]) -> Record:
    """Apply stored events in order, as :func:`fold_envelope` one at a time would, building the record once.

    ``ValueError`` for no record and no events.
    """
    if not envelopes:
        if record is None:
            raise ValueError("a game must begin with GameCreated, and there is no event")
        return record
    rest: Sequence[Logged] = envelopes
    if record is None:
        record, rest = _created(envelopes[0]), envelopes[1:]
    changes: dict[str, Any] = {}
    for envelope in rest:
        _fold_into(record, changes, envelope)
    return dataclasses.replace(record, **changes) if changes else record


def _created(envelope: Logged) -> Record:
    """The record a game's first event, its ``GameCreated``, begins."""
    created = contract.decode_event(SERVICE_EVENTS, envelope.type, envelope.payload)
    if not isinstance(created, GameCreated):
        raise ValueError(f"a game must begin with GameCreated, not {envelope.type}")
    game = contract.get(created.game, created.rules_version)
    state = game.initial(len(created.seats), seats_module.rules_options(created.options))
    return Record(
        game_id=envelope.game_id,
        game=game,
        version=envelope.version,
        hash=envelope.hash,
        created=created,
        created_ms=envelope.recorded_at,
        updated_ms=envelope.recorded_at,
        state=state,
        outcome=game.outcome(state),
        seat_versions=(envelope.version,) * len(created.seats),
        challenged=frozenset(seats_module.registered(created.seats)),
    )


def _fold_into(record: Record, changes: dict[str, Any], envelope: Logged) -> None:
    """Add what one more event changes to ``changes``, the fields of ``record`` already changed."""
    game = record.game
    state = changes.get("state", record.state)
    before = game.to_act(state)
    changes |= {"version": envelope.version, "hash": envelope.hash, "updated_ms": envelope.recorded_at}
    if envelope.type in SERVICE_EVENTS:
        event = contract.decode_event(SERVICE_EVENTS, envelope.type, envelope.payload)
        if isinstance(event, SeedRevealed):
            changes["seed"] = event.seed
        elif isinstance(event, GameScored):
            changes["scored"] = event
        elif isinstance(event, ChallengeAccepted):
            changes["challenged"] = changes.get("challenged", record.challenged) - {event.seat}
        elif isinstance(event, GameCancelled):
            changes["cancelled"] = event
        elif isinstance(event, RatingsUpdated):
            changes["ratings"] = event
        after = before
    else:
        state = game.evolve(state, contract.decode_event(game.events, envelope.type, envelope.payload))
        changes["state"], changes["outcome"] = state, game.outcome(state)
        after = game.to_act(state)
    over = changes.get("outcome", record.outcome) is not None
    changes["seat_versions"] = tuple(
        envelope.version if relevant_to(seat, envelope.seat, before, after, over) else version
        for seat, version in enumerate(changes.get("seat_versions", record.seat_versions))
    )


def relevant_to(seat: int, actor: int | None, before: frozenset[int], after: frozenset[int], over: bool) -> bool:
    """Whether an event appended by ``actor``'s command (None: the server's) may change what ``seat``'s
    next move depends on, given the seats to act ``before`` and ``after`` it and whether the game is ``over``.

    Only another seat's event made while both seats were to act, after which ``seat`` still is, is not:
    seats that act at the same time (Planet Unknown's draft) play on their own boards. In a game where
    one seat acts at a time (Homeworlds) every event is relevant to every seat.
    """
    if actor is None or actor == seat or over:
        return True
    return not (seat in before and actor in before and seat in after)


# --- Commands, as pure functions of a record -------------------------------------


def move_command(record: Record, seat: int, move: JSON) -> list[Event]:
    """``MoveMade`` and the rules' events for ``seat``'s move; raises :class:`contract.RuleError`."""
    decided = record.game.decide(record.state, seat, move)
    private = any(not event.visibility().public for event in decided)
    return [MoveMade(seat=seat, move=move, private=private), *decided]


def timeout_command(record: Record, seed: bytes) -> list[Event]:
    """The ``on_timeout`` policy applied to every seat still to act; random moves derive from the seed.

    Where the policy's move is not legal (a pass before a Homeworlds setup), or
    there is no legal move at all, the seat forfeits.
    """
    game, policy = record.game, record.created.options["on_timeout"]
    state, events = record.state, list[Event]()
    for seat in sorted(game.to_act(state)):
        if seat not in game.to_act(state) or game.outcome(state) is not None:
            continue
        events.append(TurnTimedOut(seat=seat, policy=policy))
        rng = contract.rng(seed, f"timeout:{record.version}:{seat}")
        for _ in range(1000):
            if policy == "forfeit":
                moves: list[JSON] = []
            elif policy == "pass":
                moves = [game.pass_move]
            else:
                moves = list(game.legal_moves(state, seat))
            try:
                step = game.decide(state, seat, rng.choice(moves)) if moves else game.timed_out(state, seat)
            except contract.RuleError:
                moves = []
                step = game.timed_out(state, seat)
            state = contract.fold(game, state, step)
            events += step
            if not moves or seat not in game.to_act(state) or game.outcome(state) is not None:
                break
    return events


class ChallengeRefused(contract.RuleError):
    """A challenge answer that does not fit the game: no open challenge for that seat, or another bot's."""

    code = "no_open_challenge"


def _open_challenge(record: Record, seat: int, bot: str) -> None:
    if record.cancelled is not None:
        raise ChallengeRefused("the game was cancelled; its challenges are closed")
    if seat not in record.challenged:
        raise ChallengeRefused(f"seat {seat} has no open challenge: it was answered already, or was never one")
    if seats_module.registered(record.created.seats).get(seat) != bot:
        raise ChallengeRefused(f"seat {seat}'s challenge is for another bot")


def accept_command(record: Record, seat: int, bot: str, *, auto: bool = False) -> list[Event]:
    """``ChallengeAccepted`` for ``bot``'s open challenge to ``seat``; raises :class:`ChallengeRefused`."""
    _open_challenge(record, seat, bot)
    return [ChallengeAccepted(seat=seat, bot=bot, auto=auto)]


def decline_command(record: Record, seat: int, bot: str, reason: str) -> list[Event]:
    """The declined (or timed-out) challenge and the game's cancellation; raises :class:`ChallengeRefused`."""
    _open_challenge(record, seat, bot)
    return [ChallengeDeclined(seat=seat, bot=bot, reason=reason), GameCancelled(reason=reason, seat=seat)]


def score_command(record: Record) -> list[Event]:
    """``GameScored`` for a finished game that has none yet, else nothing (a cancelled game never is)."""
    if record.outcome is None or record.scored is not None or record.cancelled is not None:
        return []
    scores = record.game.scores(record.state)
    return [GameScored(winners=record.outcome.winners, reason=record.outcome.reason, scores=scores)]


def finishes(record: Record, events: Sequence[Event]) -> bool:
    """Whether ``events`` end the game."""
    if record.over:
        return False
    rules_events = [e for e in events if type(e).__name__ not in SERVICE_EVENTS]
    return record.game.outcome(contract.fold(record.game, record.state, rules_events)) is not None
