"""The game service: the one place where commands become events.

The API and the workers both call :class:`GameService`. It folds a game's
envelopes through the game's contract (with a snapshot and an in-process
cache as shortcuts), asks the rules to ``decide``, and appends the result
with the store's atomic script, retrying on a version conflict when the
caller did not name the version it expects.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import json
import logging
import random
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

import tenacity

from domain import contract
from domain.contract import JSON, Event, Game, Role, Viewer
from domain.table import seats as seats_module
from domain.table.record import (
    FINISHED,
    SERVICE_EVENTS,
    ChallengeRefused,
    GameCreated,
    Record,
    accept_command,
    decline_command,
    fold_envelopes,
    move_command,
    score_command,
    timeout_command,
)
from domain.table.verify import Verdict, commitment, revealed, turn_boundaries, verify
from events import codec
from events.envelope import GENESIS_HASH, Envelope, canonical, seal
from events.store import (
    EventStore,
    Glance,
    IdempotencyConflict,
    Meta,
    RateCount,
    RateRefused,
    RateWindow,
    SeatGuard,
    StreamDamaged,
    UnknownGame,
    VersionConflict,
)
from service import listing, snapshots
from service.ratings import Ratings, replay
from service.webhook_policy import UnsafeWebhookURL, WebhookPolicy

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 50
"""How many times a command is decided again when concurrent commands keep moving the game on."""
SCORE_ATTEMPTS = 20
EXPORT_FORMAT = "orrery-export/1"
MIN_SEED_HEX_DIGITS = 32
"""A chosen seed for a game with hidden information carries at least 128 bits: 32 hexadecimal digits."""
SALT_BYTES = 32
SNAPSHOT_TRIES = 3
"""How many unusable snapshots one read drops before it folds from the first event."""
SEAT_TOKEN_NEEDED = "this needs a seat's token: 'Authorization: Bearer <token>'"
ANSWER_ATTEMPTS = 20
"""How many times a challenge's answer is appended again when other answers or moves race it."""
NOT_THIS_GAMES_TOKEN = "this token does not belong to this game"


def client_key(seat: int, key: str) -> str:
    """Where a client's ``Idempotency-Key`` lives: a namespace per seat, apart from the server's commands."""
    return f"client:{seat}:{key}"


def server_key(name: str) -> str:
    """Where the server's own commands (bot turns, webhook answers) keep their idempotency keys."""
    return f"server:{name}"


def _backoff() -> Any:
    """Randomised exponential backoff between attempts of a contended command, from 2 ms up to 100 ms."""
    return tenacity.wait_random_exponential(multiplier=0.002, max=0.1)


def _retrying(attempts: int, retried: type[Exception]) -> tenacity.Retrying:
    """Up to ``attempts`` tries with :func:`_backoff` between them, again on ``retried`` only; the last one raises."""
    return tenacity.Retrying(
        stop=tenacity.stop_after_attempt(attempts),
        wait=_backoff(),
        retry=tenacity.retry_if_exception_type(retried),
        reraise=True,
    )


class _Contended(Exception):
    """The game moved on while a command was decided; decide it again."""


def challenge_id(game_id: str, seat: int) -> str:
    """The id of the challenge to the registered bot in ``seat``: ``chl_<game id>_<seat>``."""
    return f"chl_{game_id}_{seat}"


def parse_challenge_id(raw: str) -> tuple[str, int] | None:
    """The game and seat a challenge id names, or None if it is not one."""
    parts = raw.split("_")
    seat = parts[2] if len(parts) == 3 else ""
    if parts[0] != "chl" or not (seat.isascii() and seat.isdigit()) or len(seat) > 2 or len(parts[1]) > 64:
        return None
    return parts[1], int(parts[2])


def viewer_name(viewer: Viewer) -> str:
    """``seat:<n>``, ``spectator`` or ``auditor``."""
    return f"seat:{viewer}" if isinstance(viewer, int) else viewer.value


# --- Errors ----------------------------------------------------------------------


class ServiceError(Exception):
    """A refused request: a stable machine ``code``, a sentence for people and ``details`` (named values).

    The service knows no transport: ``api.errors.ERROR_STATUS`` maps each code to its HTTP status."""

    code = "bad_request"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.details = details


class GameNotFound(ServiceError):
    """No game has this id."""

    code = "unknown_game"


class Unauthorized(ServiceError):
    """The bearer token is missing, malformed, or not one this game (or bot) knows."""

    code = "unauthorized"


class Forbidden(ServiceError):
    """This token may not do that."""

    code = "forbidden"


class StaleVersion(ServiceError):
    """``expected_version`` is not the game's version."""

    code = "stale_version"


class DuplicateCommandConflict(ServiceError):
    """The idempotency key was used for a different command."""

    code = "idempotency_conflict"


class GameDamaged(ServiceError):
    """The game's stream and its metadata disagree; it takes no moves until an operator repairs it."""

    code = "game_damaged"


class ForkUnavailable(ServiceError):
    """The game cannot be forked at that version."""

    code = "fork_unavailable"


class InvalidRequest(ServiceError):
    """The request is well formed but names something this server refuses (a game, a seat, a cursor)."""

    code = "invalid_request"


class WeakSeed(InvalidRequest):
    """A seed too short to be unguessable."""

    code = "weak_seed"


class GameCancelledError(ServiceError):
    """The game was cancelled before it started (a challenge was declined or timed out)."""

    code = "game_cancelled"


class ChallengePending(ServiceError):
    """The game waits for a challenged registered bot to accept; nobody moves before then."""

    code = "challenge_pending"


class UnknownChallenge(ServiceError):
    """No challenge has this id."""

    code = "unknown_challenge"


class ChallengeClosed(ServiceError):
    """The challenge was answered already (the other way), or its game was cancelled."""

    code = "challenge_closed"


class RegisteredSeat(ServiceError):
    """A seat of a registered bot, used where only an unregistered bot's seat fits (its account has the stream)."""

    code = "registered_bot_seat"


class RulesVersionUnavailable(ServiceError):
    """The game was played under a rules version that this server does not have registered."""

    code = "unknown_rules_version"


@dataclasses.dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat asked for at creation."""

    name: str
    bot: dict[str, Any] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Created:
    """A new game, with the secrets shown only this once."""

    record: Record
    seat_tokens: dict[int, str]
    creator_token: str
    webhook_secrets: dict[int, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, slots=True)
class MoveResult:
    """The command's events, and whether this was a retry of an earlier one (with the seat that moved,
    from :meth:`GameService.submit_with_token`)."""

    record: Record
    events: list[Envelope]
    duplicate: bool
    seat: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class RateCheck:
    """Rate-limit windows to count a move in, read with its game in one round trip (see
    :meth:`~events.store.EventStore.take_rate_and_glance`). ``settle`` gets the answers before anything else
    happens, and refuses the move by raising."""

    windows: Sequence[RateWindow]
    member: str
    settle: Callable[[list[RateCount]], None]


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


StoreT = TypeVar("StoreT", bound=EventStore)
"""The kind of store a service runs on (Redis in production; tests of the service may use the in-memory one)."""


class GameService(Generic[StoreT]):
    """Commands and queries on games, shared by the API and the workers."""

    def __init__(
        self,
        store: StoreT,
        *,
        snapshot_every: int = 50,
        cache_size: int = 512,
        public_url: str | None = None,
        webhook_policy: WebhookPolicy | None = None,
    ) -> None:
        self.store = store
        self.public_url = public_url
        self.webhook_policy = WebhookPolicy() if webhook_policy is None else webhook_policy
        self.snapshot_every = snapshot_every
        self._cache: collections.OrderedDict[str, Record] = collections.OrderedDict()
        self._cache_size = cache_size
        self._roles: collections.OrderedDict[tuple[str, str], str] = collections.OrderedDict()
        self._missed: collections.OrderedDict[str, None] = collections.OrderedDict()
        self._seeds: collections.OrderedDict[str, tuple[bytes, bytes]] = collections.OrderedDict()
        self._lock = threading.Lock()

    # --- commands ------------------------------------------------------------

    def create(
        self, game_name: str, seats: Sequence[SeatSpec], options: Mapping[str, JSON], seed: bytes | None = None
    ) -> Created:
        """Create a game, deal it from the seed and return the one-time tokens.

        The seed is committed as ``sha256(salt + seed)`` with a secret random salt, and both are
        revealed when the game ends. A seed chosen by the creator for a game whose deal is hidden
        must carry at least 128 bits (see :data:`MIN_SEED_HEX_DIGITS`): a guessable seed would let
        anyone deal the hidden stacks offline.
        """
        chosen = seed is not None
        try:
            game = contract.get(game_name)
        except KeyError:
            known = ", ".join(contract.names())
            raise InvalidRequest(
                f"there is no game called {game_name!r}; this server hosts: {known}", field="game"
            ) from None
        if len(seats) not in game.seat_counts:
            counts = game.seat_counts
            raise InvalidRequest(
                f"{game_name} is played by {counts.start} to {counts.stop - 1} seats, not {len(seats)}", field="seats"
            )
        if any(o.name == "seat_names" for o in game.options) and "seat_names" not in options:
            options = {**options, "seat_names": [s.name for s in seats]}
        parsed = seats_module.split_options(game, options)
        try:
            bots = [seats_module.parse_bot(game, i, s.bot, self.webhook_policy) for i, s in enumerate(seats)]
        except seats_module.InvalidSeat as error:
            raise InvalidRequest(str(error), field="seats") from None
        self._check_registered(game, bots)
        if parsed.get("rated") is True:
            public_seats = [{"bot": None if b is None else b.public()} for b in bots]
            if len(seats_module.rated_players(public_seats)) < 2:
                raise InvalidRequest(
                    "a rated game needs at least two different rated players: registered bots ({'id': ...}) or "
                    "built-in bots",
                    field="rated",
                )
        seed = secrets.token_bytes(32) if seed is None else seed
        state = game.initial(len(seats), seats_module.rules_options(parsed))
        setup = game.setup(state, seed)
        if chosen and any(not event.visibility().public for event in setup):
            _require_strong_seed(seed)
        salt = secrets.token_bytes(SALT_BYTES)
        created = GameCreated(
            game=game.name,
            rules_version=game.rules_version,
            seats=tuple(
                {"name": s.name, "bot": None if b is None else b.public()} for s, b in zip(seats, bots, strict=True)
            ),
            options=parsed,
            seed_sha256=commitment(seed, salt),
            setup_events=len(setup),
        )
        game_id = secrets.token_hex(8)
        now = _now_ms()
        envelopes = self._seal(game_id, game, GENESIS_HASH, 0, [created, *setup], seat=None, now=now)
        return self._open(self._fold(None, envelopes), envelopes, seed, salt)

    def submit(
        self,
        game_id: str,
        seat: int,
        move: JSON,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> MoveResult:
        """Decide and append ``seat``'s move.

        With ``expected_version`` a concurrent change is a :class:`StaleVersion`;
        without it the service folds again and retries, a bounded number of
        times with randomised backoff. ``idempotency_key`` is the client's key,
        kept in a namespace of ``seat``'s own.
        """
        key = None if idempotency_key is None else client_key(seat, idempotency_key)
        return self._submit(game_id, seat, move, expected_version=expected_version, key=key)

    def submit_with_token(
        self,
        game_id: str,
        token: str | None,
        move: JSON,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        rate: RateCheck | None = None,
    ) -> MoveResult:
        """:meth:`submit` for the seat whose bearer ``token`` it is, refused as :meth:`seat_for` refuses.

        The token's role and the game's version (and the ``rate`` limits, if given) come from one read of
        the store, so that a move costs one round trip before its append (two with an ``idempotency_key``).
        """
        if token is None:
            self.head(game_id)
            raise Unauthorized(SEAT_TOKEN_NEEDED)
        hashed = token_hash(token)
        if rate is not None and idempotency_key is None:
            made = self._move_from_cache(game_id, hashed, move, expected_version, rate)
            if made is not None:
                return made
        glance, cached = self._glance(game_id, token_hash=hashed, rate=rate, with_seed=True)
        if glance.role is None:
            self._current(game_id, glance, cached)
            raise Unauthorized(NOT_THIS_GAMES_TOKEN)
        seat = _seat_only(_viewer_of_role(glance.role))
        self._remember_role(game_id, hashed, glance.role)
        if glance.sealed_seed is not None:
            self._remember_seed(game_id, glance.sealed_seed)
        record = self._current(game_id, glance, cached)
        key = None if idempotency_key is None else client_key(seat, idempotency_key)
        result = self._submit(
            game_id, seat, move, expected_version=expected_version, key=key, first=record, seed=glance.sealed_seed
        )
        return dataclasses.replace(result, seat=seat)

    def _move_from_cache(
        self, game_id: str, hashed: str, move: JSON, expected_version: int | None, rate: RateCheck
    ) -> MoveResult | None:
        """A seat's move decided on the record this process holds, with no read before its append: the append
        itself checks that the game is still at that record and the token still holds the seat, and counts
        the rate limits. None, with nothing written or counted, wherever the ordinary path must answer: no
        record or role held here, a move the rules refuse, or a game that moved on (after which this process
        stops trying it for that game). A move that finishes the game reveals the sealed seed held here
        (read from the store if not)."""
        if not self.store.appends_as_seat:
            return None
        with self._lock:
            record = self._cache.get(game_id)
            role = self._roles.get((game_id, hashed))
            seed = self._seeds.get(game_id)
            if record is None or role is None or game_id in self._missed:
                return None
        seat = _seat_only(_viewer_of_role(role))
        if record.cancelled is not None or record.challenged or record.over:
            return None
        if expected_version is not None and not record.seat_version(seat) <= expected_version <= record.version:
            return None
        try:
            events = move_command(record, seat, move)
        except contract.RuleError:
            return None
        guard = SeatGuard(hashed, role, rate.windows, rate.member)
        try:
            result = self._append(record, events, seat, None, "", seed, guard=guard, settle=rate.settle)
        except (VersionConflict, UnknownGame):
            with self._lock:
                self._missed[game_id] = None
                while len(self._missed) > self._cache_size:
                    self._missed.popitem(last=False)
            return None
        return MoveResult(result.record, result.events, result.duplicate, seat)

    def submit_for_server(
        self, game_id: str, seat: int, move: JSON, *, command: str, expected_version: int | None = None
    ) -> MoveResult:
        """Append a move that the server makes on ``seat``'s behalf (a bot's turn, a webhook's answer).

        ``command`` names it uniquely, such as ``bot:<seat>:<version>``; no client key can reach it.
        """
        return self._submit(game_id, seat, move, expected_version=expected_version, key=server_key(command))

    def _submit(
        self,
        game_id: str,
        seat: int,
        move: JSON,
        *,
        expected_version: int | None,
        key: str | None,
        first: Record | None = None,
        seed: tuple[bytes, bytes] | None = None,
    ) -> MoveResult:
        fingerprint = hashlib.sha256(canonical({"seat": seat, "move": move}).encode()).hexdigest()
        retrying = _retrying(MAX_ATTEMPTS, _Contended)
        try:
            for attempt in retrying:
                with attempt:
                    read, first = first, None
                    return self._submit_once(game_id, seat, move, expected_version, key, fingerprint, read, seed)
        except _Contended:
            pass
        raise StaleVersion(
            f"the game kept changing while this move was decided ({MAX_ATTEMPTS} tries); send it again",
            current_version=self.head(game_id).version,
        )

    def _submit_once(
        self,
        game_id: str,
        seat: int,
        move: JSON,
        expected_version: int | None,
        key: str | None,
        fingerprint: str,
        record: Record | None = None,
        seed: tuple[bytes, bytes] | None = None,
    ) -> MoveResult:
        """One try of a move: the game's record (``record`` if just read) and the key's prior result come
        from one read of the store, then the rules decide and the store appends (``seed``: the game's sealed
        seed, if that read brought it, for a move that finishes the game)."""
        if record is None:
            glance, cached = self._glance(game_id, key=key)
            record, prior = self._current(game_id, glance, cached), glance.prior
        else:
            prior = None if key is None else self.store.prior_result(game_id, key)
        if prior is not None:
            return self._prior_result(record, prior, fingerprint)
        if expected_version is not None:
            self._check_expected(record, seat, expected_version)
        if record.cancelled is not None:
            raise GameCancelledError(
                f"the game was cancelled before it started (seat {record.cancelled.seat}'s challenge: "
                f"{record.cancelled.reason}); it takes no moves"
            )
        if record.challenged:
            waiting = ", ".join(str(s) for s in sorted(record.challenged))
            raise ChallengePending(
                f"the game starts once every challenged bot accepts; still waiting on seat(s) {waiting}",
                seats=sorted(record.challenged),
            )
        if record.over:
            raise contract.GameOverError("the game is over; no more moves are taken")
        events = move_command(record, seat, move)
        try:
            return self._append(record, events, seat, key, fingerprint, seed)
        except (VersionConflict, IdempotencyConflict):
            raise _Contended from None

    @staticmethod
    def _check_expected(record: Record, seat: int, expected_version: int) -> None:
        """Raise :class:`StaleVersion` unless ``expected_version`` is still good for ``seat``'s move.

        It is good from the seat's ``seat_version`` (the last event its moves depend on, see
        :func:`domain.table.record.relevant_to`) up to the game's version: another seat's move made at the
        same time as this seat's (Planet Unknown's draft) does not make it stale; the seat's own
        moves, the server's events and every move of a game where one seat acts at a time do.
        """
        seat_version = record.seat_version(seat)
        if seat_version <= expected_version <= record.version:
            return
        if expected_version > record.version or seat_version == record.version:
            reason = f"the game is at version {record.version}, not {expected_version}"
        else:
            reason = (
                f"the game changed for seat {seat} at version {seat_version}, after {expected_version} "
                f"(it is at version {record.version})"
            )
        raise StaleVersion(
            f"{reason}; read it again and retry", current_version=record.version, seat_version=seat_version
        )

    def score(self, game_id: str) -> Record:
        """Append ``GameScored`` once for a finished game; a repeat changes nothing.

        A rated game's ``RatingsUpdated`` goes in the same append, right after it, once the ratings store
        has applied it (exactly once per game, see :mod:`service.ratings`). The append is guarded by the
        expected version alone, so no idempotency entry can block it. Concurrent scorers, and ratings that
        another game changed meanwhile, are retried a bounded number of times with backoff; past that it
        raises :class:`StaleVersion` and the caller (a task) tries again later.
        """
        retrying = _retrying(SCORE_ATTEMPTS, VersionConflict)
        try:
            for attempt in retrying:
                with attempt:
                    record = self.head(game_id)
                    events = score_command(record)
                    if not events:
                        return record
                    events += Ratings(self.store).settle(record, events)
                    return self._append(record, events, None, None, "").record
        except VersionConflict as conflict:
            raise StaleVersion(
                f"the game kept changing while it was scored ({SCORE_ATTEMPTS} tries)", current_version=conflict.current
            ) from None
        raise AssertionError("unreachable: tenacity either returns or raises")

    def _open(
        self,
        record: Record,
        envelopes: list[Envelope],
        seed: bytes,
        salt: bytes,
        forked_from: str = "",
    ) -> Created:
        """Store a new game's first events with its tokens, timers and seed; the tokens are shown only here.

        The auto-accept policies of its registered bots answer first, among those events
        (:meth:`_accepted_at_once`), so the workers never see a challenge open that a policy answers."""
        bots = [seats_module.BotSeat.from_public(s["bot"]) for s in record.created.seats]
        webhook_urls = {i: b.webhook for i, b in enumerate(bots) if b is not None and b.webhook is not None}
        pull_only = {i for i, b in enumerate(bots) if b is not None and b.stream}
        registered = seats_module.registered(record.created.seats)
        tokens = {
            i: secrets.token_urlsafe(24)
            for i, b in enumerate(bots)
            if b is None or i in webhook_urls or i in pull_only or i in registered
        }
        creator_token = secrets.token_urlsafe(24)
        roles = {token_hash(t): f"seat:{i}" for i, t in tokens.items()} | {token_hash(creator_token): "creator"}
        hidden = {f"token:{i}": tokens.pop(i) for i in sorted({*webhook_urls, *registered})}
        bot_seat_tokens = hidden | {f"token:{i}": tokens[i] for i in sorted(pull_only)}
        if bot_seat_tokens:
            bot_tokens = {token_hash(t): f"{record.game_id}:{k.split(':')[1]}" for k, t in bot_seat_tokens.items()}
            self.store.set_bot_tokens(bot_tokens)
        webhook_secrets = self._register_endpoints(webhook_urls)
        now = _now_ms()
        record, envelopes, claimed = self._accepted_at_once(record, envelopes, now)
        try:
            self.store.create(
                record.game_id,
                record.game.name,
                record.game.rules_version,
                envelopes,
                seed=seed,
                salt=salt,
                tokens=roles,
                created_ms=now,
                timers=self.timers(record, now),
                secrets=bot_seat_tokens,
                forked_from=forked_from,
                listed=listing.fields_of(record),
                listed_by_version=listing.held_entries(None, envelopes),
                cancelled=record.cancelled is not None,
            )
        except BaseException:
            for bot_id in claimed:
                self.store.release_bot_game(bot_id, record.game_id)
            raise
        self._remember(record)
        for hashed, role in roles.items():
            self._remember_role(record.game_id, hashed, role)
        self._remember_seed(record.game_id, (seed, salt))
        return Created(record, tokens, creator_token, webhook_secrets)

    def _register_endpoints(self, urls: dict[int, str]) -> dict[int, str]:
        """Secrets of the webhook endpoints seen here for the first time, by seat: shown only once."""
        shown: dict[str, str] = {}
        for url in set(urls.values()):
            secret = seats_module.webhook_secret()
            if self.store.register_endpoint(url, secret):
                shown[url] = secret
        return {seat: shown[url] for seat, url in urls.items() if url in shown}

    def time_out(self, game_id: str, version: int) -> MoveResult | None:
        """Apply the ``on_timeout`` policy to every seat still to act at ``version``.

        Nothing happens if the game has moved on since; a repeat is a no-op.
        """
        record = self.head(game_id)
        if record.version != version or record.closed or not record.started:
            return None
        events = timeout_command(record, self.store.seed(game_id))
        try:
            return self._append(record, events, None, None, "")
        except VersionConflict:
            return None

    def bot_move(self, game_id: str, seat: int, version: int) -> MoveResult | None:
        """Let a built-in bot play ``seat``'s turn at ``version``; None if that turn is no longer open."""
        record = self.head(game_id)
        if record.version != version or seat not in record.to_act():
            return None
        bot = seats_module.BotSeat.from_public(record.created.seats[seat]["bot"])
        if bot is None or bot.builtin is None:
            return None
        rng = random.Random(hashlib.sha256(f"{game_id}:{version}:{seat}".encode()).digest())
        view = contract.seat_view(record.game, record.state, seat)
        move = record.game.bots[bot.builtin](view, seat, rng, bot.think_ms)
        try:
            return self.submit_for_server(game_id, seat, move, command=f"bot:{seat}:{version}")
        except (StaleVersion, contract.RuleError):
            return None

    def timers(self, record: Record, now: int) -> list[tuple[str, int]]:
        """The deadline and bot watchdogs the game needs at its current version, and a scoring
        watchdog once it is over: scoring then happens at least once, even if its task is lost."""
        if record.cancelled is not None:
            return []
        if record.over:
            if record.scored is not None:
                return []
            member = seats_module.timer_member("score", record.game_id, record.version)
            return [(member, now + seats_module.SCORE_GRACE_MS)]
        if record.challenged:
            member = seats_module.timer_member("challenge", record.game_id, record.version)
            return [(member, self.challenge_expiry(record))]
        timers = []
        deadline_s = record.created.options.get("move_deadline_s")
        if deadline_s:
            timers.append(
                (seats_module.timer_member("deadline", record.game_id, record.version), now + deadline_s * 1000)
            )
        for seat in record.to_act():
            bot = seats_module.BotSeat.from_public(record.created.seats[seat]["bot"])
            if bot is not None and bot.builtin is not None:
                due = now + bot.think_ms + seats_module.BOT_GRACE_MS
                timers.append((seats_module.timer_member("bot", record.game_id, record.version, seat), due))
        return timers

    def deadline(self, record: Record) -> int | None:
        """When the current turn times out, in ms since the epoch; None without a deadline."""
        deadline_s = record.created.options.get("move_deadline_s")
        if not deadline_s or record.closed or not record.started:
            return None
        return int(record.updated_ms + deadline_s * 1000)

    def fork(
        self,
        game_id: str,
        at: int | None,
        viewer: Viewer,
        *,
        at_turn: int | None = None,
        seats: Sequence[SeatSpec] | None = None,
    ) -> Created:
        """A new game from this game's events up to a turn boundary, with new tokens.

        The boundary is named by exactly one of ``at`` (a version: the end of the deal, or the end
        of a whole command) or ``at_turn`` (how many commands after the deal); a version inside a
        turn never was a position, so it is refused with the nearest boundaries. A fork is a running
        game: it never includes the command that ended this game, the seed's reveal or the scoring.
        ``seats`` re-seats the fork (say, a bot in place of a human), validated as at creation; the
        fork's ``GameCreated`` records them.

        Only the creator may fork, up to the version the creator may read. A game with hidden
        information can be forked once it is over (its seed is public then); before that a fork
        would let its new owner play on to the end and read the seed.
        """
        if viewer is not Role.AUDITOR:
            raise Forbidden("only the game's creator may fork it")
        head = self.head(game_id)
        at = self._fork_boundary(game_id, viewer, at, at_turn)
        prefix = self.store.read(game_id, upto=at)
        if not head.over and any(e.visible_to is not None and e.type != "GameCreated" for e in prefix):
            raise ForkUnavailable("this game has hidden information; it can be forked once it is over")
        if any(e.type in ("ChallengeAccepted", "ChallengeDeclined") for e in prefix):
            raise ForkUnavailable(
                "a registered bot answered this game's challenge, and it agreed to this game only: fork it at the end "
                "of the deal (at_turn 0), where every registered bot is challenged again"
            )
        created = None if seats is None else self._reseated(head, seats)
        if created is None:
            for i, seat in enumerate(head.created.seats):
                bot = seats_module.BotSeat.from_public(seat["bot"])
                if bot is not None and bot.webhook is not None:
                    try:
                        self.webhook_policy.check_url(bot.webhook)
                    except UnsafeWebhookURL as refused:
                        raise InvalidRequest(f"seat {i}: webhook URL refused: {refused}", field="seats") from None
        new_id = secrets.token_hex(8)
        previous, envelopes = GENESIS_HASH, []
        for e in prefix:
            body = e.body() | {"game_id": new_id, "event_id": uuid.uuid4().hex}
            body["visible_to"] = e.visible_to
            if created is not None and e.type == "GameCreated":
                _, body["payload"] = contract.encode_event(created)
                visibility = created.visibility()
                body["visible_to"] = None if visibility.seats is None else tuple(sorted(visibility.seats))
                body["redacted"] = dict(visibility.redacted)
            envelope = seal(previous, **body)
            envelopes.append(envelope)
            previous = envelope.hash
        seed, salt = self.store.sealed_seed(game_id)
        return self._open(self._fold(None, envelopes), envelopes, seed, salt, f"{game_id}@{at}")

    def rematch(self, game_id: str, viewer: Viewer) -> Created:
        """The same table again as a new game: the same game, options and seats, every seat moved one place on
        (seat 0 plays as seat 1, and the last as seat 0), a new seed and new tokens.

        Only the creator may ask, once the game is over. Webhook seats are checked against the URL policy again.
        """
        if viewer is Role.SPECTATOR:
            raise Unauthorized("a rematch needs the creator's token: 'Authorization: Bearer <token>'")
        if viewer is not Role.AUDITOR:
            raise Forbidden("only the game's creator may ask for a rematch")
        head = self.head(game_id)
        if not head.over:
            raise InvalidRequest("a rematch starts once the game is over", field="game_id")
        seats = list(head.created.seats)
        rotated = [SeatSpec(str(seat["name"]), seat["bot"]) for seat in seats[-1:] + seats[:-1]]
        options = dict(head.created.options)
        names = options.get("seat_names")
        if isinstance(names, list | tuple) and len(names) == len(seats):
            options["seat_names"] = [names[-1], *names[:-1]]
        return self.create(head.game.name, rotated, options)

    # --- challenges ------------------------------------------------------------

    def challenge_expiry(self, record: Record) -> int:
        """When the game's open challenges time out (ms since the epoch)."""
        timeout_s = int(record.created.options.get("challenge_timeout_s") or seats_module.DEFAULT_CHALLENGE_TIMEOUT_S)
        return record.created_ms + timeout_s * 1000

    def challenge(self, raw_id: str) -> tuple[Record, int, str]:
        """The game, seat and challenged bot of a challenge id; :class:`UnknownChallenge` if there is none."""
        parsed = parse_challenge_id(raw_id)
        if parsed is None:
            raise UnknownChallenge(f"{raw_id!r} is not a challenge id; they look like chl_<game id>_<seat>")
        game_id, seat = parsed
        try:
            record = self.head(game_id)
        except GameNotFound:
            raise UnknownChallenge(f"there is no challenge {raw_id!r}") from None
        bot = seats_module.registered(record.created.seats).get(seat)
        if bot is None:
            raise UnknownChallenge(f"there is no challenge {raw_id!r}")
        return record, seat, bot

    def answer_challenge(self, raw_id: str, bot_id: str, *, accept: bool) -> Record:
        """``bot_id`` accepts or declines its challenge; a repeat of the same answer changes nothing.

        :class:`Forbidden` for another bot's challenge; :class:`ChallengeClosed` when it was answered the
        other way, timed out, or the game was cancelled by another seat's answer.
        """
        record, seat, bot = self.challenge(raw_id)
        if bot != bot_id:
            raise Forbidden("this challenge is for another bot")
        if not accept:
            return self._answer(record.game_id, seat, bot_id, "declined")
        self.store.claim_bot_game(bot_id, record.game_id)
        try:
            return self._answer(record.game_id, seat, bot_id, "accepted")
        except ServiceError:
            self.store.release_bot_game(bot_id, record.game_id)
            raise

    def expire_challenges(self, game_id: str) -> Record | None:
        """Cancel the game if a challenge is still open past its timeout; None if there was nothing to do."""
        record = self.head(game_id)
        if not record.challenged or record.cancelled is not None or _now_ms() < self.challenge_expiry(record):
            return None
        seat = min(record.challenged)
        bot = seats_module.registered(record.created.seats)[seat]
        return self._answer(game_id, seat, bot, "timeout")

    def _accepted_at_once(
        self, record: Record, envelopes: list[Envelope], now: int
    ) -> tuple[Record, list[Envelope], list[str]]:
        """A new game's record and events with the answers of the bots whose auto-accept policy covers it, before
        the game is stored: accepted while the bot plays fewer games than its limit, else declined as ``busy``,
        which cancels the game. Also the bots whose running games now count it (to release if the game is not
        stored; the workers release them when it is stored cancelled)."""
        claimed: list[str] = []
        events: list[Event] = []
        for seat, bot_id in sorted(seats_module.registered(record.created.seats).items()):
            if seat not in record.challenged:
                continue
            fields = self.store.bot(bot_id) or {}
            policy = json.loads(fields["auto_accept"]) if fields.get("auto_accept") else None
            if policy is None or record.game.name not in policy["games"]:
                continue
            if not self.store.claim_bot_game(bot_id, record.game_id, int(policy["max_concurrent"])):
                events += decline_command(record, seat, bot_id, "busy")
                break
            claimed.append(bot_id)
            events += accept_command(record, seat, bot_id, auto=True)
        if not events:
            return record, envelopes, claimed
        last = envelopes[-1]
        more = self._seal(record.game_id, record.game, last.hash, last.version, events, seat=None, now=now)
        return self._fold(record, more), [*envelopes, *more], claimed

    def _answer(self, game_id: str, seat: int, bot_id: str, how: str) -> Record:
        """Append one answer (``accepted``, or a reason to decline), retried when the game moves on."""
        retrying = _retrying(ANSWER_ATTEMPTS, VersionConflict)
        try:
            for attempt in retrying:
                with attempt:
                    record = self.head(game_id)
                    accepted = how == "accepted"
                    if accepted and seat not in record.challenged and record.cancelled is None:
                        return record
                    if not accepted and record.cancelled is not None and record.cancelled.seat == seat:
                        return record
                    try:
                        events = (
                            accept_command(record, seat, bot_id)
                            if accepted
                            else decline_command(record, seat, bot_id, how)
                        )
                    except ChallengeRefused as refused:
                        raise ChallengeClosed(str(refused)) from None
                    return self._append(record, events, None, None, "").record
        except VersionConflict as conflict:
            raise StaleVersion(
                f"the game kept changing while the challenge was answered ({ANSWER_ATTEMPTS} tries); answer again",
                current_version=conflict.current,
            ) from None
        raise AssertionError("unreachable: tenacity either returns or raises")

    def _check_registered(self, game: Game[Any], bots: Sequence[seats_module.BotSeat | None]) -> None:
        """Every registered bot named in a seat exists and plays ``game``; :class:`InvalidRequest` otherwise."""
        for i, bot in enumerate(bots):
            if bot is None or bot.bot_id is None:
                continue
            fields = self.store.bot(bot.bot_id)
            if fields is None or fields.get("builtin"):
                raise InvalidRequest(f"seat {i}: there is no registered bot with id {bot.bot_id!r}", field="seats")
            if game.name not in json.loads(fields["games"]):
                raise InvalidRequest(
                    f"seat {i}: bot {bot.bot_id} does not play {game.name} (its registration names its games)",
                    field="seats",
                )

    def _fork_boundary(self, game_id: str, viewer: Viewer, at: int | None, at_turn: int | None) -> int:
        """The version a fork starts from: ``at`` if it is a turn boundary the viewer may read, or the
        boundary ``at_turn`` turns after the deal; otherwise :class:`InvalidRequest`."""
        if (at is None) == (at_turn is None):
            raise InvalidRequest("a fork names exactly one of 'at' (a version) or 'at_turn' (a turn)", field="at")
        last = self.visible(game_id, viewer).version
        try:
            boundaries = turn_boundaries(self.store.read(game_id, upto=last), *self.store.sealed_seed(game_id))
        except ValueError as error:
            raise ForkUnavailable(f"this game's log does not verify ({error}); it cannot be forked") from None
        if at_turn is not None:
            if not 0 <= at_turn < len(boundaries):
                raise InvalidRequest(
                    f"at_turn must be from 0 (the end of the deal) to {len(boundaries) - 1}, not {at_turn}",
                    field="at_turn",
                )
            return boundaries[at_turn]
        assert at is not None
        if at in boundaries:
            return at
        below = max((b for b in boundaries if b < at), default=None)
        above = min((b for b in boundaries if b > at), default=None)
        nearest = " and ".join(str(b) for b in (below, above) if b is not None)
        raise InvalidRequest(
            f"a fork starts at a turn boundary (the end of the deal, or the end of a whole move or timeout while "
            f"the game runs, up to version {last} here); version {at} is not one: the nearest are {nearest}",
            field="at",
            below=below,
            above=above,
        )

    def _reseated(self, head: Record, seats: Sequence[SeatSpec]) -> GameCreated:
        """``GameCreated`` of a fork with new ``seats``, validated as at creation; everything else kept."""
        if len(seats) != head.seat_count:
            raise InvalidRequest(
                f"this game has {head.seat_count} seats; a fork re-seats all of them, not {len(seats)}", field="seats"
            )
        try:
            bots = [seats_module.parse_bot(head.game, i, s.bot, self.webhook_policy) for i, s in enumerate(seats)]
        except seats_module.InvalidSeat as error:
            raise InvalidRequest(str(error), field="seats") from None
        self._check_registered(head.game, bots)
        public = tuple(
            {"name": s.name, "bot": None if b is None else b.public()} for s, b in zip(seats, bots, strict=True)
        )
        return dataclasses.replace(head.created, seats=public)

    def verify(self, game_id: str, viewer: Viewer = Role.AUDITOR) -> Verdict:
        """Refold and recheck the game: hash chain, every command, the seed.

        Anyone may verify a finished game, whose verdict is computed once and cached. Only the
        creator may verify a running game, and only up to the version the creator may read
        (``spectator_delay`` holds it back), so no verdict leaks a hidden live state.
        """
        try:
            head = self.head(game_id)
        except GameDamaged as damaged:
            if viewer is not Role.AUDITOR and self.store.meta(game_id).status != FINISHED:
                raise Forbidden(
                    "only the game's creator may verify it while it runs; anyone may once it is over"
                ) from None
            return Verdict(
                False,
                len(self.store.read(game_id)),
                None,
                "not revealed",
                damaged.details["meta_version"],
                str(damaged),
            )
        if not head.over:
            if viewer is Role.SPECTATOR:
                raise Unauthorized("verifying a running game needs its creator's token; anyone may once it is over")
            if viewer is not Role.AUDITOR:
                raise Forbidden("only the game's creator may verify it while it runs; anyone may once it is over")
            upto = self.visible(game_id, viewer).version
            return verify(self.store.read(game_id, upto=upto), replay)
        cached = self.store.cached_verdict(game_id, head.version)
        if cached is not None:
            return Verdict.from_json(cached)
        verdict = verify(self.store.read(game_id, upto=head.version), replay)
        self.store.cache_verdict(game_id, head.version, verdict.to_json())
        return verdict

    def export(self, game_id: str, viewer: Viewer) -> Iterator[str]:
        """The game as NDJSON lines: a header, then one line per event as ``viewer`` may see it.

        When the viewer may see every event whole (the creator once the game
        is over, or anyone in a game with no hidden event) the lines are the
        stored envelopes, which ``orrery verify`` checks offline.
        """
        record = self.head(game_id)
        visible = self.visible(game_id, viewer)
        envelopes = self.store.read(game_id, upto=visible.version)
        complete = all(self.project(record, e, viewer)["redacted"] is False for e in envelopes)
        header = {
            "format": EXPORT_FORMAT,
            "game_id": game_id,
            "game": record.game.name,
            "rules_version": record.game.rules_version,
            "version": visible.version,
            "status": visible.status,
            "viewer": viewer_name(viewer),
            "complete": complete,
            "exported_at": _now_ms(),
        }
        yield canonical(header) + "\n"
        for envelope in envelopes:
            yield (envelope.to_json() if complete else canonical(self.project(record, envelope, viewer))) + "\n"

    # --- queries -----------------------------------------------------------------

    def head(self, game_id: str) -> Record:
        """The game folded up to its newest event."""
        return self._current(game_id, *self._glance(game_id))

    def _glance(
        self,
        game_id: str,
        *,
        token_hash: str | None = None,
        key: str | None = None,
        rate: RateCheck | None = None,
        with_seed: bool = False,
    ) -> tuple[Glance, Record | None]:
        """One read of the game's metadata, the events after the record this process holds (returned
        beside it), and if asked a token's role, an idempotency key's stored result, the ``rate`` limits or
        the sealed seed (which a move that finishes the game reveals)."""
        cached = self._cache.get(game_id)
        after = None if cached is None else cached.version
        if rate is not None and key is None:
            counts, found = self.store.take_rate_and_glance(
                rate.windows,
                now_ms=_now_ms(),
                member=rate.member,
                game_id=game_id,
                after=after,
                token_hash=token_hash,
                with_seed=with_seed,
            )
            rate.settle(counts)
            if found is None:
                raise GameNotFound(f"there is no game with id {game_id!r}")
            return found, cached
        try:
            glance = self.store.glance(
                game_id, after=after, token_hash=token_hash, idempotency_key=key, with_seed=with_seed
            )
            return glance, cached
        except UnknownGame:
            raise GameNotFound(f"there is no game with id {game_id!r}") from None

    def _current(self, game_id: str, glance: Glance, cached: Record | None) -> Record:
        """The record at ``glance``'s version: ``cached`` moved on by the events the glance read, or folded
        from the newest snapshot. :class:`GameDamaged` if the stream does not end where the metadata says."""
        meta = glance.meta
        base: Record | None
        if cached is not None and (
            cached.version < meta.version or (cached.version == meta.version and cached.hash == meta.hash)
        ):
            base, envelopes, atomic = cached, glance.events, True
        else:
            base = self._from_snapshot(game_id, meta)
            envelopes, atomic = self.store.read(game_id, after=base.version if base else 0), False
        record = self._fold(base, [e for e in envelopes if e.version <= meta.version])
        self._check_intact(game_id, record, meta, envelopes[-1].version if envelopes else None, atomic=atomic)
        if record is not cached:
            self._remember(record)
        return record

    def _check_intact(self, game_id: str, record: Record, meta: Meta, tail: int | None, *, atomic: bool) -> None:
        """Raise :class:`GameDamaged` when the stream does not end where the metadata says it does.

        ``tail`` is the last version the stream held when read; unless it was read with ``meta``
        (``atomic``) the metadata is read again before a longer stream counts as damage.
        """
        damage = None
        if record.version != meta.version or record.hash != meta.hash:
            damage = f"its events end at version {record.version}, but its metadata says {meta.version}"
        elif tail is not None and tail > meta.version:
            fresh = meta if atomic else self.store.meta(game_id)
            if tail > fresh.version:
                damage = f"its events run to version {tail}, but its metadata says {fresh.version}"
        if damage is not None:
            raise GameDamaged(
                f"game {game_id} is damaged: {damage}; it takes no moves until an operator repairs it",
                stream_version=record.version,
                meta_version=meta.version,
            )

    def at(self, game_id: str, version: int) -> Record:
        """The game folded up to ``version``, from the newest snapshot at or below it."""
        return self._at(self.head(game_id), version)

    def _at(self, head: Record, version: int) -> Record:
        if not 1 <= version <= head.version:
            raise InvalidRequest(f"version must be between 1 and {head.version}, not {version}", field="at")
        if version == head.version:
            return head
        return self._fold(*self._snapshot_below(head.game_id, version))

    def _snapshot_below(self, game_id: str, version: int) -> tuple[Record | None, list[Envelope]]:
        """The newest usable snapshot at or below ``version`` (None: there is none) and the events after it up
        to ``version``. A snapshot that is stale, undecodable or off the game's hash chain is dropped."""
        for _ in range(SNAPSHOT_TRIES):
            snap, envelopes = self.store.snapshot_at(game_id, version)
            if snap is None:
                return None, envelopes
            try:
                record = snapshots.decode(snap, game_id)
                if not envelopes or (envelopes[0].version, envelopes[0].hash) != (record.version, record.hash):
                    raise snapshots.SnapshotError("the snapshot is not on the game's hash chain")
            except snapshots.SnapshotError as error:
                logger.info("game %s: snapshot at version %s dropped: %s", game_id, snap.version, error)
                self.store.drop_snapshot(game_id, snap.state, snap.version or None)
                continue
            return record, envelopes[1:]
        return None, self.store.read(game_id, upto=version)

    def events(self, game_id: str, *, after: int = 0, limit: int | None = None) -> list[Envelope]:
        return self.store.read(game_id, after=after, limit=limit)

    def viewer_for(self, game_id: str, token: str | None) -> Viewer:
        """The viewer a bearer token stands for; a spectator without one. A token's viewer is found without
        folding the game, so that even a damaged game's creator is known (to verify it)."""
        if token is None:
            self.head(game_id)
            return Role.SPECTATOR
        role = self.store.role_of(game_id, token_hash(token))
        if role is None:
            self.head(game_id)
            raise Unauthorized(NOT_THIS_GAMES_TOKEN)
        return _viewer_of_role(role)

    def reading(self, game_id: str, token: str | None) -> tuple[Viewer, Record]:
        """The viewer a bearer token stands for (a spectator without one) and the game's head, in one read:
        :class:`GameNotFound` for an unknown game, then :class:`Unauthorized` for another game's token."""
        hashed = None if token is None else token_hash(token)
        glance, cached = self._glance(game_id, token_hash=hashed)
        head = self._current(game_id, glance, cached)
        if hashed is None:
            return Role.SPECTATOR, head
        if glance.role is None:
            raise Unauthorized(NOT_THIS_GAMES_TOKEN)
        return _viewer_of_role(glance.role), head

    def seat_for(self, game_id: str, token: str | None) -> int:
        """The seat whose ``token`` it is: :class:`Unauthorized` without one or with another game's,
        :class:`Forbidden` for the creator's, which reads and audits but does not move."""
        return _seat_only(self.viewer_for(game_id, token))

    def bot_seat(self, token: str | None) -> tuple[str, int]:
        """The game and seat of a bot seat's token (as sent in its turn requests)."""
        if token is None:
            raise Unauthorized("this needs a bot seat's token: 'Authorization: Bearer <token>'")
        found = self.store.bot_token(token_hash(token))
        if found is None:
            raise Unauthorized("this token is not a bot seat's token")
        game_id, seat = found.rsplit(":", 1)
        return game_id, int(seat)

    def visible(self, game_id: str, viewer: Viewer, *, head: Record | None = None) -> Record:
        """The newest record ``viewer`` may see: spectators (and the creator, who reads as one while
        the game runs) are held ``spectator_delay`` events behind a running game. ``head``: the game's
        head as this request already read it (see :meth:`reading`)."""
        return self._visible(head if head is not None else self.head(game_id), viewer)

    def _visible(self, head: Record, viewer: Viewer) -> Record:
        version = self.visible_version(head, viewer)
        return head if version == head.version else self._at(head, version)

    @staticmethod
    def visible_version(head: Record, viewer: Viewer) -> int:
        """The newest version ``viewer`` may see when the game is at ``head`` (see :meth:`visible`); no read."""
        delay = int(head.created.options.get("spectator_delay", 0))
        if not delay or head.over or isinstance(viewer, int):
            return head.version
        return max(1 + head.created.setup_events, head.version - delay)

    def advanced(self, record: Record, envelopes: Sequence[Envelope]) -> Record:
        """``record`` moved on by the events that follow it in its stream, as a live reader read them, with no
        further read; any other events (a gap, another game, an older version) give :meth:`head` instead."""
        fresh = [e for e in envelopes if e.version > record.version]
        contiguous = all(
            e.game_id == record.game_id and e.version == record.version + 1 + i for i, e in enumerate(fresh)
        )
        if not contiguous:
            return self.head(record.game_id)
        folded = self._fold(record, fresh)
        if folded is not record:
            self._remember(folded)
        return folded

    def events_for(
        self, game_id: str, viewer: Viewer, *, after: int = 0, limit: int | None = None, head: Record | None = None
    ) -> tuple[int, list[dict[str, Any]]]:
        """The version ``viewer`` sees, and the events after ``after`` up to it, as ``viewer`` may see them
        (``head`` as in :meth:`visible`)."""
        head = head if head is not None else self.head(game_id)
        version = self.visible_version(head, viewer)
        envelopes = self.store.read(game_id, after=after, upto=version, limit=limit)
        return version, [self.project(head, e, viewer) for e in envelopes]

    def state_at(self, game_id: str, viewer: Viewer, at: int | None, *, head: Record | None = None) -> tuple[int, JSON]:
        """``viewer``'s view of the state at version ``at`` (the newest it may see without one; ``head`` as in
        :meth:`visible`).

        Once the game is over the creator reads every past state whole. The states inside the deal
        (before version ``1 + setup_events``) were never a position of the game, as for :meth:`fork`.
        """
        head = head if head is not None else self.head(game_id)
        visible = self._visible(head, viewer)
        first = 1 + head.created.setup_events
        if at is not None and not first <= at <= visible.version:
            raise InvalidRequest(
                f"version must be between {first} (the end of the deal) and {visible.version}, not {at}", field="at"
            )
        record = visible if at is None or at == visible.version else self._at(head, at)
        effective = contract.effective_viewer(viewer, game_over=head.over)
        return record.version, record.game.view(record.state, effective)

    def view(self, record: Record, viewer: Viewer) -> JSON:
        """The rules state as ``viewer`` may see it."""
        return record.game.view(record.state, self._effective(record, viewer))

    def project(self, record: Record, envelope: Envelope, viewer: Viewer) -> dict[str, Any]:
        """An envelope as ``viewer`` may see it. Redacted events carry no hash or id.

        A ``GameCreated`` stored public before webhook URLs were hidden is hidden as a new one is.
        """
        visible_to, redacted = envelope.visible_to, envelope.redacted
        if envelope.type == "GameCreated" and visible_to is None and not record.created.visibility().public:
            visible_to, redacted = (), dict(record.created.visibility().redacted)
        shown = contract.project(
            contract.Visibility.stored(visible_to, redacted), envelope.payload, viewer, game_over=record.over
        )
        out: dict[str, Any] = {
            "version": envelope.version,
            "type": envelope.type,
            "seat": envelope.seat,
            "recorded_at": envelope.recorded_at,
        }
        if shown.redacted:
            out |= {"payload": dict(shown.payload), "redacted": True}
        else:
            out |= {
                "payload": dict(shown.payload),
                "event_id": envelope.event_id,
                "hash": envelope.hash,
                "redacted": False,
            }
        return out

    def games(
        self, *, game: str | None, status: str | None, limit: int, before: tuple[int, str] | None
    ) -> Iterator[listing.Listed]:
        """Games, newest first, each as a spectator may see it (``spectator_delay`` included).

        The entries come from the metadata that every append writes (see :mod:`service.listing`);
        no game is folded, except one stored before the metadata held them.
        """
        pairs = self.store.list_games(game=game, status=status, limit=limit, before=before)
        metas = self.store.listings([game_id for _, game_id in pairs])
        wanted = [
            (game_id, at)
            for (_, game_id), meta in zip(pairs, metas, strict=True)
            if meta is not None and (at := listing.held_version(meta)) is not None
        ]
        held = dict(zip(wanted, self.store.held_listings(wanted), strict=True))
        for (created_ms, game_id), meta in zip(pairs, metas, strict=True):
            if meta is None:
                continue
            at = listing.held_version(meta)
            entry = listing.from_meta(game_id, created_ms, meta, None if at is None else held.get((game_id, at)))
            yield entry if entry is not None else self._listed_by_fold(game_id, created_ms)

    def _listed_by_fold(self, game_id: str, created_ms: int) -> listing.Listed:
        """The entry of a game stored before the list kept its fields (the next append stores them)."""
        try:
            return listing.from_record(self.visible(game_id, Role.SPECTATOR), created_ms)
        except RulesVersionUnavailable:
            meta = self.store.meta(game_id)
            first = self.store.read(game_id, upto=1)[0]
            created = contract.decode_event(SERVICE_EVENTS, first.type, first.payload)
            assert isinstance(created, GameCreated)
            return listing.Listed(
                game_id=game_id,
                game=meta.game,
                status=meta.status,
                version=meta.version,
                created_ms=created_ms,
                created_at=first.recorded_at,
                seats=listing.public_seats(created),
                to_act=[],
                result=None,
            )

    # --- internals -------------------------------------------------------------

    def _effective(self, record: Record, viewer: Viewer) -> Viewer:
        return contract.effective_viewer(viewer, game_over=record.over)

    def _prior_result(self, record: Record, prior: str, fingerprint: str) -> MoveResult:
        """The first result of a command whose idempotency key was used (``prior``), if it was this command."""
        stored_fp, first, last = prior.split("|")
        if stored_fp != fingerprint:
            raise DuplicateCommandConflict(
                "this Idempotency-Key was already used for a different move", current_version=record.version
            )
        events = self.store.read(record.game_id, after=int(first) - 1, upto=int(last))
        return MoveResult(record, events, duplicate=True)

    def _append(
        self,
        record: Record,
        events: Sequence[Event],
        seat: int | None,
        key: str | None,
        fingerprint: str,
        seed: tuple[bytes, bytes] | None = None,
        *,
        guard: SeatGuard | None = None,
        settle: Callable[[list[RateCount]], None] | None = None,
    ) -> MoveResult:
        """Seal, fold and append ``events`` after ``record``; with a ``guard``, the append also checks the
        seat's token and counts its rate windows, whose answers go to ``settle`` (which refuses by raising)."""
        now = _now_ms()
        envelopes = self._seal(record.game_id, record.game, record.hash, record.version, events, seat=seat, now=now)
        new = self._fold(record, envelopes)
        finishing = new.over and not record.over
        if finishing:
            last = envelopes[-1]
            reveal = revealed(*(seed or self.store.sealed_seed(record.game_id)))
            envelopes += self._seal(record.game_id, record.game, last.hash, last.version, [reveal], seat=seat, now=now)
            new = self._fold(new, envelopes[-1:])
        try:
            appended = self.store.append(
                record.game_id,
                record.version,
                record.hash,
                envelopes,
                game=record.game.name,
                idempotency_key=key,
                fingerprint=fingerprint,
                finished=finishing,
                cancelled=new.cancelled is not None and record.cancelled is None,
                now_ms=now,
                timers=self.timers(new, now),
                listed=listing.fields_of(new),
                listed_by_version=listing.held_entries(record, envelopes),
                guard=guard,
            )
        except RateRefused as refused:
            if settle is not None:
                settle(refused.counts)
            raise
        except StreamDamaged as damaged:
            raise GameDamaged(
                f"game {record.game_id} is damaged ({damaged}); it takes no moves until an operator repairs it",
                stream_version=record.version + 1,
                meta_version=record.version,
            ) from None
        if settle is not None:
            settle(list(appended.rate))
        if appended.duplicate:
            return MoveResult(
                self.head(record.game_id),
                self.store.read(record.game_id, after=appended.first - 1, upto=appended.last),
                True,
            )
        self._remember(new)
        boundary = new.version - new.version % self.snapshot_every
        if boundary > record.version:
            self._save_snapshot(
                new if boundary == new.version else self._fold(record, envelopes[: boundary - record.version])
            )
        return MoveResult(new, envelopes, False)

    def _seal(
        self,
        game_id: str,
        game: Game[Any],
        previous: str,
        version: int,
        events: Sequence[Event],
        *,
        seat: int | None,
        now: int,
    ) -> list[Envelope]:
        sealed = []
        for event in events:
            type_name, payload = contract.encode_event(event)
            visibility = event.visibility()
            version += 1
            envelope = seal(
                previous,
                game_id=game_id,
                version=version,
                type=type_name,
                seat=seat,
                payload=payload,
                visible_to=None if visibility.seats is None else tuple(sorted(visibility.seats)),
                redacted=dict(visibility.redacted),
                recorded_at=now,
                event_id=uuid.uuid4().hex,
                rules_version=game.rules_version,
            )
            sealed.append(envelope)
            previous = envelope.hash
        return sealed

    def _save_snapshot(self, record: Record) -> None:
        """Cache ``record`` as a snapshot; a state the codec cannot encode is logged and not cached."""
        try:
            snapshot = snapshots.encode(record)
        except codec.CodecError as error:
            logger.warning("game %s: no snapshot at version %s: %s", record.game_id, record.version, error)
            return
        self.store.save_snapshot(record.game_id, snapshot)

    def _from_snapshot(self, game_id: str, meta: Meta) -> Record | None:
        """The record of the game's newest snapshot, or None: a snapshot that is stale (other rules, other schema,
        ahead of the game) or undecodable is dropped, and the game is folded from its events."""
        snap = self.store.snapshot(game_id)
        if snap is None:
            return None
        try:
            record = snapshots.decode(snap, game_id)
            if record.version > meta.version and self._written_since(game_id, record):
                return None
            if record.version > meta.version or (record.version == meta.version and record.hash != meta.hash):
                raise snapshots.SnapshotError("the snapshot does not match the game's metadata")
        except snapshots.SnapshotError as error:
            logger.info("game %s: snapshot dropped: %s", game_id, error)
            self.store.drop_snapshot(game_id, snap.state, snap.version or None)
            return None
        return record

    def _written_since(self, game_id: str, snapshot: Record) -> bool:
        """Whether a snapshot ahead of the metadata a read began with was saved after it, by a move that the game
        now holds (it is kept, for later reads), rather than being ahead of the game itself."""
        try:
            fresh = self.store.meta(game_id)
        except UnknownGame:
            return False
        return snapshot.version < fresh.version or (snapshot.version == fresh.version and snapshot.hash == fresh.hash)

    def _fold(self, record: Record | None, envelopes: Sequence[Envelope]) -> Record:
        if not envelopes:
            if record is None:
                raise GameNotFound("the game has no events")
            return record
        try:
            return fold_envelopes(record, envelopes)
        except contract.UnknownRulesVersion as unknown:
            raise RulesVersionUnavailable(
                f"game {envelopes[0].game_id} was played under rules {unknown.rules_version!r}, which this server "
                f"does not have: {unknown}",
                game=unknown.name,
                rules_version=unknown.rules_version,
                hosted=unknown.known,
            ) from None

    def _remember_role(self, game_id: str, hashed: str, role: str) -> None:
        """Hold what a seat's token (by its hash) stands for in a game, for :meth:`_move_from_cache`."""
        if not role.startswith("seat:"):
            return
        with self._lock:
            self._roles[(game_id, hashed)] = role
            self._roles.move_to_end((game_id, hashed))
            while len(self._roles) > 8 * self._cache_size:
                self._roles.popitem(last=False)

    def _remember_seed(self, game_id: str, sealed: tuple[bytes, bytes]) -> None:
        """Hold a game's sealed seed and salt, which the move that finishes it reveals."""
        with self._lock:
            self._seeds[game_id] = sealed
            self._seeds.move_to_end(game_id)
            while len(self._seeds) > self._cache_size:
                self._seeds.popitem(last=False)

    def _remember(self, record: Record) -> None:
        with self._lock:
            current = self._cache.get(record.game_id)
            if current is not None and current.version > record.version:
                return
            self._cache[record.game_id] = record
            self._cache.move_to_end(record.game_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)


def _viewer_of_role(role: str) -> Viewer:
    """The viewer a stored token role (``seat:<n>`` or ``creator``) stands for."""
    return Role.AUDITOR if role == "creator" else int(role.split(":")[1])


def _seat_only(viewer: Viewer) -> int:
    """``viewer`` if it is a seat; a spectator is :class:`Unauthorized` and the creator :class:`Forbidden`."""
    if viewer is Role.SPECTATOR:
        raise Unauthorized(SEAT_TOKEN_NEEDED)
    if not isinstance(viewer, int):
        raise Forbidden("the creator's token reads and audits; only a seat's token can do this")
    return viewer


def _require_strong_seed(seed: bytes) -> None:
    """Refuse a chosen seed that could be guessed: fewer than 32 hexadecimal digits, or too few distinct ones."""
    text = seed.decode("ascii", errors="replace")
    hex_digits = all(c in "0123456789abcdefABCDEF" for c in text)
    if not hex_digits or len(text) < MIN_SEED_HEX_DIGITS or len(set(text.lower())) < 8:
        raise WeakSeed(
            "this game deals hidden information, so a chosen seed must carry at least 128 bits: give "
            f"{MIN_SEED_HEX_DIGITS} or more random hexadecimal digits (such as secrets.token_hex(16)), "
            "or omit the seed and the server draws one",
            field="seed",
        )
