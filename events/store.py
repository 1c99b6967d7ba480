"""The event store: one Redis stream per game, appended by atomic scripts.

Every command's events are appended by one server-side script that checks the
expected version and the idempotency key, writes the entries with explicit ids
``<version>-0``, writes the outbox entry and updates the game's metadata. The
version lives in the metadata; it is never derived from the stream's length.
"""

from __future__ import annotations

import abc
import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import redis

from domain.table.record import ACTIVE, CANCELLED, FINISHED
from events.envelope import Envelope, canonical
from events.keys import BUCKETS, GameKeys, Keyspace

SlotScope = Literal["address", "game"]
"""What a live stream's slot counts against: its client's address or its game."""

MAX_LIST_INDEX = 2**63 - 1
"""The largest index a Redis list command takes."""

_CREATE = """
if redis.call('EXISTS', KEYS[2]) == 1 then return {'exists'} end
local n = tonumber(ARGV[8])
for i = 1, n do
  redis.call('XADD', KEYS[1], i .. '-0', 'e', ARGV[8 + i])
end
redis.call('HSET', KEYS[2], 'game', ARGV[3], 'version', n, 'hash', ARGV[6], 'status', 'active',
  'created_ms', ARGV[2], 'updated_ms', ARGV[2], 'rules_version', ARGV[4])
redis.call('SET', KEYS[4], ARGV[5])
local t = 9 + n
local ntok = tonumber(ARGV[t])
for i = 1, ntok do
  redis.call('HSET', KEYS[3], ARGV[t + 2 * i - 1], ARGV[t + 2 * i])
end
for k = 6, 9 do redis.call('ZADD', KEYS[k], ARGV[2], ARGV[1]) end
t = t + 2 * ntok + 1
local ntimers = tonumber(ARGV[t])
for i = 1, ntimers do
  redis.call('ZADD', KEYS[10], ARGV[t + 2 * i], ARGV[t + 2 * i - 1])
end
t = t + 2 * ntimers + 1
local nsecrets = tonumber(ARGV[t])
for i = 1, nsecrets do
  redis.call('HSET', KEYS[11], ARGV[t + 2 * i - 1], ARGV[t + 2 * i])
end
local forked = ARGV[t + 2 * nsecrets + 1]
if forked ~= '' then redis.call('HSET', KEYS[2], 'forked_from', forked) end
t = t + 2 * nsecrets + 2
local nlisted = tonumber(ARGV[t]) or 0
for i = 1, nlisted do redis.call('HSET', KEYS[2], ARGV[t + 2 * i - 1], ARGV[t + 2 * i]) end
t = t + 2 * nlisted + 1
local nheld = tonumber(ARGV[t]) or 0
for i = 1, nheld do redis.call('HSET', KEYS[12], ARGV[t + 2 * i - 1], ARGV[t + 2 * i]) end
local status = ARGV[t + 2 * nheld + 1] or 'active'
local closed = '0'
if status ~= 'active' then
  redis.call('HSET', KEYS[2], 'status', status)
  closed = status
end
redis.call('XADD', KEYS[5], '*', 'game_id', ARGV[1], 'version', n, 'finished', closed, 'event', ARGV[7])
return {'ok', 1, n}
"""

_APPEND_FUNCTION = """
local function append(KEYS, ARGV)
local meta = redis.call('HMGET', KEYS[2], 'version', 'hash', 'created_ms')
if not meta[1] then return {'missing'} end
local idem = ARGV[2]
if idem ~= '' then
  local prior = redis.call('HGET', KEYS[3], idem)
  if prior then
    local fp, first, last = string.match(prior, '^(%x+)|(%d+)|(%d+)$')
    if fp == ARGV[3] then return {'duplicate', tonumber(first), tonumber(last)} end
    return {'idempotency_conflict', tonumber(meta[1])}
  end
end
local current = tonumber(meta[1])
if current ~= tonumber(ARGV[1]) or meta[2] ~= ARGV[4] then return {'conflict', current} end
local n = tonumber(ARGV[10])
for i = 1, n do
  redis.call('XADD', KEYS[1], (current + i) .. '-0', 'e', ARGV[10 + i])
end
local last = current + n
local written = {'version', last, 'hash', ARGV[5], 'updated_ms', ARGV[7]}
if idem ~= '' then
  redis.call('HSET', KEYS[3], idem, ARGV[3] .. '|' .. (current + 1) .. '|' .. last)
end
if ARGV[6] ~= '0' then
  redis.call('HSET', KEYS[2], 'status', ARGV[6] == '1' and 'finished' or ARGV[6])
  redis.call('ZREM', KEYS[5], ARGV[9])
  redis.call('ZREM', KEYS[6], ARGV[9])
  redis.call('ZADD', KEYS[7], meta[3], ARGV[9])
  redis.call('ZADD', KEYS[8], meta[3], ARGV[9])
end
local t = 11 + n
local ntimers = tonumber(ARGV[t])
for i = 1, ntimers do
  redis.call('ZADD', KEYS[9], ARGV[t + 2 * i], ARGV[t + 2 * i - 1])
end
t = t + 2 * ntimers + 1
local nlisted = tonumber(ARGV[t]) or 0
for i = 1, 2 * nlisted do written[6 + i] = ARGV[t + i] end
redis.call('HSET', KEYS[2], unpack(written))
t = t + 2 * nlisted + 1
local nheld = tonumber(ARGV[t]) or 0
for i = 1, nheld do redis.call('HSET', KEYS[10], ARGV[t + 2 * i - 1], ARGV[t + 2 * i]) end
redis.call('XADD', KEYS[4], '*', 'game_id', ARGV[9], 'version', last, 'finished', ARGV[6], 'event', ARGV[8])
return {'ok', current + 1, last}
end
"""

_APPEND = _APPEND_FUNCTION + "return append(KEYS, ARGV)\n"


_CLAIM_TIMER = """
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not due or tonumber(due) > tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
"""

_FINISH_TIMER = """
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if due and tonumber(due) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""

_DROP_SNAPSHOT = """
if redis.call('HGET', KEYS[1], 'state') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
local versions = {ARGV[2]}
if ARGV[2] == '' then versions = redis.call('ZRANGE', KEYS[2], 0, -1) end
for _, v in ipairs(versions) do
  local held = redis.call('HGET', KEYS[3], v .. ':state')
  if held == ARGV[1] or (not held and ARGV[1] == '' and redis.call('ZSCORE', KEYS[2], v)) then
    redis.call('HDEL', KEYS[3], v .. ':rules_version', v .. ':schema', v .. ':state')
    return redis.call('ZREM', KEYS[2], v)
  end
end
return 0
"""

_SAVE_SNAPSHOT = """
local legacy = redis.call('HMGET', KEYS[3], 'version', 'rules_version', 'schema', 'state')
local lv = tonumber(legacy[1])
if lv and lv == math.floor(lv) and legacy[4] and lv ~= tonumber(ARGV[1]) then
  lv = string.format('%d', lv)
  redis.call('HSET', KEYS[2], lv .. ':rules_version', legacy[2] or '', lv .. ':schema', legacy[3] or '',
    lv .. ':state', legacy[4])
  redis.call('ZADD', KEYS[1], lv, lv)
end
redis.call('DEL', KEYS[3])
redis.call('HSET', KEYS[3], 'version', ARGV[1], 'rules_version', ARGV[2], 'schema', ARGV[3], 'state', ARGV[4])
return 1
"""

_SNAPSHOT_AT = """
local top = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[1], '-inf', 'LIMIT', 0, 1)[1]
local legacy = redis.call('HMGET', KEYS[3], 'version', 'rules_version', 'schema', 'state')
local snap = {'', '', '', '', ''}
if top then
  local f = redis.call('HMGET', KEYS[2], top .. ':rules_version', top .. ':schema', top .. ':state')
  snap = {'v', top, f[1] or '', f[2] or '', f[3] or ''}
end
if legacy[4] then
  local lv = tonumber(legacy[1])
  local usable = lv and lv == math.floor(lv) and lv <= tonumber(ARGV[1])
  if usable and (not top or lv >= tonumber(top)) then
    snap = {'l', legacy[1] or '', legacy[2] or '', legacy[3] or '', legacy[4] or ''}
  end
end
local from = tonumber(snap[2]) or 0
if from < 1 then from = 1 end
return {snap, redis.call('XRANGE', KEYS[4], from .. '-0', ARGV[1] .. '-0')}
"""

_GLANCE_FUNCTION = """
local function glance(KEYS, ARGV)
  local meta = redis.call('HGETALL', KEYS[1])
  if #meta == 0 then return {meta} end
  local role = false
  if ARGV[2] ~= '' then role = redis.call('HGET', KEYS[3], ARGV[2]) end
  local prior = false
  if ARGV[3] ~= '' then prior = redis.call('HGET', KEYS[4], ARGV[3]) end
  local events = {}
  if ARGV[1] ~= '' then events = redis.call('XRANGE', KEYS[2], (tonumber(ARGV[1]) + 1) .. '-0', '+') end
  local seed = false
  if ARGV[4] == '1' then seed = redis.call('GET', KEYS[5]) end
  return {meta, role, prior, events, seed}
end
"""

_GLANCE = _GLANCE_FUNCTION + "return glance(KEYS, ARGV)\n"

_REGISTER_BOT = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('HSET', KEYS[1], 'api_key_hash', ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if redis.call('HGET', KEYS[1], 'ladder') == '1' then redis.call('SADD', KEYS[3], ARGV[2]) end
return 1
"""

_POST_INBOX = """
if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[3]) then return false end
return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'body', ARGV[1])
"""

_CLAIM_SEAT = """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
return redis.call('SADD', KEYS[1], ARGV[1])
"""

_ROTATE_BOT_KEY = """
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[3] then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[1], 'api_key_hash', ARGV[2])
return 1
"""

_APPLY_RATINGS = """
local prior = redis.call('HGET', KEYS[2], ARGV[1])
if prior then return {'applied', prior} end
local n = tonumber(ARGV[4])
for i = 1, n do
  local at = 4 + 5 * (i - 1)
  local current = redis.call('HGET', KEYS[1], ARGV[at + 1]) or ''
  if current ~= ARGV[at + 2] then return {'conflict', ''} end
end
for i = 1, n do
  local at = 4 + 5 * (i - 1)
  redis.call('HSET', KEYS[1], ARGV[at + 1], ARGV[at + 3])
  redis.call('ZADD', KEYS[3], ARGV[at + 4], ARGV[at + 1])
  redis.call('LPUSH', KEYS[3 + i], ARGV[at + 5])
  redis.call('LTRIM', KEYS[3 + i], 0, tonumber(ARGV[3]) - 1)
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return {'ok', ARGV[2]}
"""


_SWAP_LADDER_PAIR = """
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return 0 end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return 1
"""


_RELEASE_IF_HELD = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

_TAKE_STREAM_SLOT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""

_TAKE_RATE_FUNCTION = """
local function take_rate(KEYS, ARGV)
  local now, member, n = tonumber(ARGV[1]), ARGV[2], #KEYS
  local counts, allowed = {}, true
  for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - tonumber(ARGV[3 * i + 1]))
    counts[i] = redis.call('ZCARD', KEYS[i])
    if counts[i] >= tonumber(ARGV[3 * i]) then allowed = false end
  end
  local out = {}
  for i = 1, n do
    local limit, period, count = tonumber(ARGV[3 * i]), tonumber(ARGV[3 * i + 1]), counts[i]
    local room = count < limit and 1 or 0
    if allowed and ARGV[3 * i + 2] == '1' then
      redis.call('ZADD', KEYS[i], now, member)
      redis.call('PEXPIRE', KEYS[i], period)
      count = count + 1
    end
    local reset = now + period
    if count > 0 then
      local frees = redis.call('ZRANGE', KEYS[i], math.max(0, count - limit), math.max(0, count - limit), 'WITHSCORES')
      if frees[2] then reset = tonumber(frees[2]) + period end
    end
    out[i] = {room, math.max(0, limit - count), reset}
  end
  return out
end
"""

_TAKE_RATE = _TAKE_RATE_FUNCTION + "return take_rate(KEYS, ARGV)\n"

_TAKE_RATE_AND_GLANCE = (
    _TAKE_RATE_FUNCTION
    + _GLANCE_FUNCTION
    + """
local windows, rate_args = tonumber(ARGV[1]), tonumber(ARGV[2])
local rate_keys, glance_keys = {unpack(KEYS, 1, windows)}, {unpack(KEYS, windows + 1)}
local rate_argv, glance_argv = {unpack(ARGV, 3, 2 + rate_args)}, {unpack(ARGV, 3 + rate_args)}
return {take_rate(rate_keys, rate_argv), glance(glance_keys, glance_argv)}
"""
)
"""A move's rate windows and the read of its game, in one script call (one node only)."""

_APPEND_AS_SEAT = (
    _TAKE_RATE_FUNCTION
    + _APPEND_FUNCTION
    + """
local windows, rate_args = tonumber(ARGV[1]), tonumber(ARGV[2])
local rate_keys, append_keys = {unpack(KEYS, 1, windows)}, {unpack(KEYS, windows + 1, windows + 10)}
local rate_argv, append_argv = {unpack(ARGV, 5, 4 + rate_args)}, {unpack(ARGV, 5 + rate_args)}
local meta = redis.call('HMGET', append_keys[2], 'version', 'hash')
if not meta[1] then return {'missing'} end
if tonumber(meta[1]) ~= tonumber(append_argv[1]) or meta[2] ~= append_argv[4]
    or redis.call('HGET', KEYS[windows + 11], ARGV[3]) ~= ARGV[4] then
  return {'conflict', tonumber(meta[1])}
end
local counts = take_rate(rate_keys, rate_argv)
for i = 1, #counts do
  if counts[i][1] == 0 then return {'refused', counts} end
end
local appended = append(append_keys, append_argv)
appended[#appended + 1] = counts
return appended
"""
)
"""A seat's append that first checks that the game and the token's role are as the caller last saw them, then
counts the request in its rate windows, and appends only if every window had room (one node only)."""


@dataclasses.dataclass(frozen=True, slots=True)
class RateWindow:
    """One moving window of a rate limit: at most ``limit`` requests of ``owner`` in any ``period_ms``.

    ``owner`` is whom it counts (``addr:<address>``, ``token:<hash>``), ``name`` which limit it is; a
    window with ``take`` False is only checked, never counted in.
    """

    owner: str
    name: str
    limit: int
    period_ms: int
    take: bool = True


@dataclasses.dataclass(frozen=True, slots=True)
class SeatGuard:
    """What an append made for a seat's bearer token checks, in the same atomic step: the token (by its
    hash) still holds ``role``, and the request ``member`` fits in every rate window, where it is counted."""

    token_hash: str
    role: str
    windows: Sequence[RateWindow]
    member: str


@dataclasses.dataclass(frozen=True, slots=True)
class RateCount:
    """A window's answer: whether it had room, what room is left after this request, and when (ms since the
    epoch) one more place frees up."""

    allowed: bool
    remaining: int
    reset_ms: int


class StoreError(Exception):
    """Base of the store's errors."""


class UnknownGame(StoreError):
    """No game has this id."""


class GameExists(StoreError):
    """A game with this id exists already."""


class StreamDamaged(StoreError):
    """A game's stream and its metadata disagree: the store was damaged outside the append script."""


class UnknownOutboxGroup(StoreError, redis.ResponseError):
    """No consumer group of that name reads the outbox (call :meth:`EventStore.ensure_outbox_groups` first).

    It is also a ``redis.ResponseError`` whose text starts with ``NOGROUP``, as Redis's own answer is.
    """


class RateRefused(StoreError):
    """A rate window of a :class:`SeatGuard` was full: nothing was appended or counted."""

    def __init__(self, counts: Sequence[RateCount]) -> None:
        super().__init__("a rate window is full")
        self.counts = list(counts)


class VersionConflict(StoreError):
    """The game's version is not the expected one."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the game is at version {current}")
        self.current = current


class IdempotencyConflict(StoreError):
    """The idempotency key was used for a different command."""

    def __init__(self, current: int) -> None:
        super().__init__("this idempotency key was already used for a different command")
        self.current = current


@dataclasses.dataclass(frozen=True, slots=True)
class Appended:
    """Versions ``first..last`` hold the command's events. ``duplicate`` is True
    when a retry under the same idempotency key returned the first result."""

    first: int
    last: int
    duplicate: bool = False
    rate: tuple[RateCount, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Meta:
    """What the store knows of a game without reading its stream."""

    game_id: str
    game: str
    version: int
    hash: str
    status: str
    created_ms: int
    updated_ms: int
    rules_version: str

    @classmethod
    def from_fields(cls, game_id: str, fields: Mapping[str, str]) -> Meta:
        """The metadata from its stored fields (all text); fields it does not name are ignored."""
        return cls(
            game_id=game_id,
            game=fields["game"],
            version=int(fields["version"]),
            hash=fields["hash"],
            status=fields["status"],
            created_ms=int(fields["created_ms"]),
            updated_ms=int(fields["updated_ms"]),
            rules_version=fields["rules_version"],
        )


@dataclasses.dataclass(frozen=True, slots=True)
class Snapshot:
    """A folded state cached at ``version`` under ``rules_version``, as canonical JSON of schema ``schema``."""

    version: int
    rules_version: str
    state: bytes
    schema: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Glance:
    """What one round trip reads of a game: its metadata, a token's role, an idempotency key's
    stored result (``fingerprint|first|last``), the events after a version, to the stream's end, and if
    asked its sealed seed, as :meth:`EventStore.sealed_seed` gives it (for a move that may finish the game)."""

    meta: Meta
    role: str | None = None
    prior: str | None = None
    events: list[Envelope] = dataclasses.field(default_factory=list)
    sealed_seed: tuple[bytes, bytes] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class OutboxEntry:
    """Something happened to a game that workers may need to act on."""

    entry_id: str
    bucket: int
    game_id: str
    version: int
    finished: bool
    event: str


class EventStore(abc.ABC):
    """The event store's one interface: game streams appended atomically, and everything else the server keeps.

    :class:`RedisStore` keeps it in Redis (the truth in production); :class:`events.memory.MemoryStore` keeps it
    in this process's memory, for tests of the service. Both pass ``tests/test_store_contract.py``. No caller
    reaches past it to a database client.
    """

    keys: Keyspace
    """The key names under this store's namespace; they also name buckets (``keys.game(id).bucket``)."""

    @abc.abstractmethod
    def create(
        self,
        game_id: str,
        game: str,
        rules_version: str,
        envelopes: Sequence[Envelope],
        *,
        seed: bytes,
        tokens: dict[str, str],
        created_ms: int,
        salt: bytes = b"",
        timers: Sequence[tuple[str, int]] = (),
        secrets: dict[str, str] | None = None,
        forked_from: str = "",
        outbox_event: str = "created",
        listed: Mapping[str, str] | None = None,
        listed_by_version: Mapping[int, str] | None = None,
        cancelled: bool = False,
    ) -> Appended:
        """Create a game with its first events, token hashes, timers, bot secrets and seed, atomically.

        ``salt`` is the secret that the seed's public commitment is salted with; it is revealed with the seed.
        ``listed`` are the fields the game list shows, kept in the metadata, and ``listed_by_version`` the entries
        by version that a game held back from spectators shows (see :meth:`listings`). ``cancelled``: the first
        events cancel the game (a registered bot at its limit declined it), so it is stored as cancelled.
        """

    @abc.abstractmethod
    def append(
        self,
        game_id: str,
        expected_version: int,
        previous_hash: str,
        envelopes: Sequence[Envelope],
        *,
        game: str,
        idempotency_key: str | None = None,
        fingerprint: str = "",
        finished: bool = False,
        cancelled: bool = False,
        now_ms: int = 0,
        timers: Sequence[tuple[str, int]] = (),
        outbox_event: str = "appended",
        listed: Mapping[str, str] | None = None,
        listed_by_version: Mapping[int, str] | None = None,
        guard: SeatGuard | None = None,
    ) -> Appended:
        """Append ``envelopes`` after ``expected_version``, or raise.

        A retry under a used ``idempotency_key`` with the same ``fingerprint``
        returns the first result and appends nothing; with another fingerprint
        it raises :class:`IdempotencyConflict`. ``listed`` and ``listed_by_version`` update the
        game list's fields with the events, as for :meth:`create`.

        With a ``guard`` (only where :attr:`appends_as_seat`), the same atomic step first raises
        :class:`VersionConflict` if the game moved on or the guard's token no longer holds its role, then
        counts the request in the guard's rate windows, raising :class:`RateRefused` if one was full;
        ``Appended.rate`` holds the windows' answers.
        """

    @property
    def appends_as_seat(self) -> bool:
        """Whether :meth:`append` takes a :class:`SeatGuard`: a seat's move then needs no read before its
        append when the caller holds the game's current state."""
        return False

    @abc.abstractmethod
    def save_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        """Cache a folded state as the game's newest snapshot. Snapshots are never the truth.

        The snapshot it replaces is kept by version for :meth:`snapshot_at`.
        """

    @abc.abstractmethod
    def drop_snapshot(self, game_id: str, state: bytes, version: int | None = None) -> bool:
        """Delete the snapshot (the one at ``version`` if given) if it still holds ``state``; True if it did."""

    @abc.abstractmethod
    def meta(self, game_id: str) -> Meta:
        """The game's metadata, or :class:`UnknownGame`."""

    @abc.abstractmethod
    def glance(
        self,
        game_id: str,
        *,
        after: int | None = None,
        token_hash: str | None = None,
        idempotency_key: str | None = None,
        with_seed: bool = False,
    ) -> Glance:
        """The game's metadata, the role of ``token_hash``, the stored result of ``idempotency_key``, the
        events after version ``after`` to the stream's end (none without ``after``) and, ``with_seed``, its
        sealed seed, read atomically in one round trip; :class:`UnknownGame` if there is no such game."""

    @abc.abstractmethod
    def prior_result(self, game_id: str, idempotency_key: str) -> str | None:
        """What an idempotency key's first command appended, as ``fingerprint|first|last``, or None."""

    @abc.abstractmethod
    def snapshot_at(self, game_id: str, upto: int) -> tuple[Snapshot | None, list[Envelope]]:
        """The newest snapshot at or below version ``upto``, and the events from its version (included,
        so that its hash can be checked) up to ``upto``; every event up to ``upto`` without one. One round trip."""

    @abc.abstractmethod
    def read(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Envelope]:
        """Events with ``after < version <= upto``, oldest first, at most ``limit`` of them."""

    @abc.abstractmethod
    def tail(self, game_id: str) -> Envelope | None:
        """The newest entry of a game's stream, if any."""

    @abc.abstractmethod
    def wait(self, game_id: str, *, after: int, block_ms: int) -> list[Envelope]:
        """Events after version ``after``, waiting up to ``block_ms`` for the first one to arrive."""

    @abc.abstractmethod
    def wait_many(
        self, bucket: int, after: Mapping[str, int], *, reader: str, woken: str, block_ms: int
    ) -> tuple[dict[str, list[Envelope]], str]:
        """Events of several games of one bucket, each after its version in ``after``, waiting up to ``block_ms``.

        A process follows all its games of a bucket with one wait; :meth:`wake` interrupts it, for instance
        to add a game. ``woken`` is the last wake entry seen (``"0-0"`` at first); the newest one read is
        returned beside the events, by game.
        """

    @abc.abstractmethod
    def wake(self, bucket: int, reader: str) -> None:
        """Interrupt :meth:`wait_many` of ``reader`` on ``bucket`` (now, or the next one within about a minute)."""

    @abc.abstractmethod
    def snapshot(self, game_id: str) -> Snapshot | None:
        """The newest cached snapshot, if any."""

    @abc.abstractmethod
    def role_of(self, game_id: str, token_hash: str) -> str | None:
        """``seat:<n>`` or ``creator`` for a token's hash, or None."""

    def seed(self, game_id: str) -> bytes:
        """The game's secret seed. Only the service reads it."""
        return self.sealed_seed(game_id)[0]

    @abc.abstractmethod
    def sealed_seed(self, game_id: str) -> tuple[bytes, bytes]:
        """The game's secret seed and the salt of its commitment (empty for games created before salts)."""

    @abc.abstractmethod
    def cached_verdict(self, game_id: str, version: int) -> dict[str, Any] | None:
        """A verification verdict cached for the game at ``version``, if any."""

    @abc.abstractmethod
    def cache_verdict(self, game_id: str, version: int, verdict: dict[str, Any]) -> None:
        """Keep the verdict of a finished game's log up to ``version``: that log never changes."""

    @abc.abstractmethod
    def listings(self, game_ids: Sequence[str]) -> list[dict[str, str] | None]:
        """The metadata of each game (None for a game that is gone), in one round trip."""

    @abc.abstractmethod
    def held_listings(self, wanted: Sequence[tuple[str, int]]) -> list[str | None]:
        """The list entries stored for ``(game_id, version)`` pairs (games held back from spectators)."""

    @abc.abstractmethod
    def list_games(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        limit: int = 20,
        before: tuple[int, str] | None = None,
    ) -> list[tuple[int, str]]:
        """Game ids, newest first, as ``(created_ms, game_id)``; ``before`` is the last pair of the previous page."""

    @abc.abstractmethod
    def ensure_outbox_groups(self, group: str) -> None:
        """Create the consumer group on every bucket's outbox."""

    @abc.abstractmethod
    def claim_outbox(
        self, bucket: int, group: str, consumer: str, *, count: int = 100, min_idle_ms: int = 30_000
    ) -> list[OutboxEntry]:
        """New entries of a bucket's outbox, and entries another consumer left unacknowledged."""

    @abc.abstractmethod
    def follow_outbox(
        self, bucket: int, group: str, consumer: str, *, block_ms: int, count: int = 100
    ) -> list[OutboxEntry]:
        """New entries of a bucket's outbox, as :meth:`claim_outbox` takes them, waiting up to ``block_ms`` for
        the first (none when it times out; 0 waits not at all); entries left unacknowledged are not taken back
        here."""

    @abc.abstractmethod
    def ack_outbox(self, entry: OutboxEntry, group: str) -> None:
        """Mark an outbox entry done and drop it."""

    @abc.abstractmethod
    def due_timers(self, bucket: int, now_ms: int, limit: int = 100) -> list[str]:
        """Timer members of a bucket that are due."""

    @abc.abstractmethod
    def claim_timer(self, bucket: int, member: str, now_ms: int, lease_ms: int) -> int | None:
        """Lease a due timer: it stays in place, due again at ``now_ms + lease_ms``.

        Only one of several concurrent sweeps gets the lease. Returns the lease (the new due
        time) for :meth:`finish_timer`, or None. A sweeper that dies before finishing leaves
        the timer to fire again when its lease runs out, so a timer is handled at least once.
        """

    @abc.abstractmethod
    def finish_timer(self, bucket: int, member: str, lease: int) -> bool:
        """Remove a handled timer, unless it was set again since it was leased."""

    @abc.abstractmethod
    def set_timer(self, bucket: int, member: str, due_ms: int) -> None:
        """Set a timer of a bucket to fire at ``due_ms`` (moving it if it is set)."""

    @abc.abstractmethod
    def timers(self, bucket: int) -> dict[str, int]:
        """Every timer of a bucket with its due time."""

    @abc.abstractmethod
    def secret(self, game_id: str, field: str) -> str | None:
        """A bot seat's secret value (its webhook secret or token), or a flag."""

    @abc.abstractmethod
    def register_bot(self, bot_id: str, key_hash: str, fields: Mapping[str, str]) -> bool:
        """Store a bot registration and index its API key's hash, atomically; False if either exists already."""

    @abc.abstractmethod
    def bot(self, bot_id: str) -> dict[str, str] | None:
        """A registration's fields, or None."""

    @abc.abstractmethod
    def bot_of_key(self, key_hash: str) -> str | None:
        """The id of the bot whose API key hashes to ``key_hash``, or None."""

    @abc.abstractmethod
    def rotate_bot_key(self, bot_id: str, old_hash: str, new_hash: str) -> bool:
        """Replace a bot's API key (by hash) if ``old_hash`` is still its key; the old key stops at once."""

    @abc.abstractmethod
    def put_reference_bot(self, bot_id: str, fields: Mapping[str, str]) -> None:
        """Store (or refresh) a built-in reference player's registration; it has no API key. It plays the ladder."""

    @abc.abstractmethod
    def ladder_bots(self) -> list[str]:
        """The ids of every bot that plays the ladder, sorted."""

    @abc.abstractmethod
    def claim_bot_game(self, bot_id: str, game_id: str, limit: int | None = None) -> bool:
        """Count ``game_id`` among the bot's running games, if it plays fewer than ``limit`` (None: no limit)."""

    @abc.abstractmethod
    def release_bot_game(self, bot_id: str, game_id: str) -> None:
        """The game no longer counts among the bot's running games (it ended, or was cancelled)."""

    @abc.abstractmethod
    def bot_games(self, bot_id: str) -> list[str]:
        """The games the bot accepted that have not ended."""

    @abc.abstractmethod
    def rating_records(self, game: str, players: Sequence[str]) -> list[str | None]:
        """Each player's record in ``game`` as stored (JSON), None for a player never rated in it."""

    @abc.abstractmethod
    def apply_ratings(
        self, game: str, game_id: str, payload: str, writes: Sequence[tuple[str, str, str, int, str]], *, keep: int
    ) -> tuple[str, str]:
        """Apply one game's rating change once: ``("ok", payload)``, ``("applied", first payload)`` when this
        game was applied already, or ``("conflict", "")`` when a player's record is no longer what was read.

        ``writes`` holds, per player: its id, its record as read (``""`` for none), its new record, its new
        ordinal for the leaderboard, and the entry for its history (kept to the newest ``keep``). Every record
        is checked, then all of them and the payload are written, atomically.
        """

    @abc.abstractmethod
    def rating_board(self, game: str, offset: int, limit: int) -> tuple[int, list[str]]:
        """How many players ``game`` rates, and ``limit`` of them from ``offset``, highest ordinal first."""

    @abc.abstractmethod
    def rating_history(self, game: str, player: str, limit: int) -> list[str]:
        """A player's newest ``limit`` rating changes in ``game`` (JSON), newest first."""

    @abc.abstractmethod
    def ladder_pairs(self, game: str) -> dict[str, str]:
        """Each ladder pair's latest game of kind ``game`` (or its pending claim), by pair."""

    @abc.abstractmethod
    def swap_ladder_pair(self, game: str, pair: str, expected: str, value: str) -> bool:
        """Set a ladder pair's entry to ``value`` if it is still ``expected`` (``""``: none; a ``value`` of ``""``
        removes it); False, changing nothing, when another round changed it first."""

    @abc.abstractmethod
    def post_inbox(self, owner: str, key: str, body: str, *, keep: int = 1000, remember_s: int = 7 * 86400) -> bool:
        """Put ``body`` on ``owner``'s stream once per ``key`` (a repeat within ``remember_s`` is dropped).

        The stream keeps about the newest ``keep`` events. True if this call added it.
        """

    @abc.abstractmethod
    def inbox_events(
        self, owner: str, *, after: str = "0-0", block_ms: int | None = None, count: int = 100
    ) -> list[tuple[str, str]]:
        """``(cursor, body)`` of the events after ``after`` on ``owner``'s stream, waiting up to ``block_ms``."""

    @abc.abstractmethod
    def inbox_bounds(self, owner: str) -> tuple[str | None, str | None]:
        """The cursors of the oldest and the newest event ``owner``'s stream still holds."""

    @abc.abstractmethod
    def claim_inbox_reader(self, owner: str, reader: str, ttl_s: int) -> None:
        """Make ``reader`` the one connection reading ``owner``'s stream (any other one stops)."""

    @abc.abstractmethod
    def inbox_reader(self, owner: str, reader: str, ttl_s: int) -> bool:
        """Whether ``reader`` still reads ``owner``'s stream; extends its claim if so."""

    @abc.abstractmethod
    def release_inbox_reader(self, owner: str, reader: str) -> None:
        """End ``reader``'s claim on ``owner``'s stream, if it still holds it."""

    @abc.abstractmethod
    def inbox_read_now(self, owner: str) -> bool:
        """Whether a connection reads ``owner``'s stream now."""

    @abc.abstractmethod
    def set_bot_field(self, bot_id: str, field: str, value: str) -> None:
        """Change one field of an existing registration (its signing secret, say)."""

    @abc.abstractmethod
    def register_endpoint(self, url: str, secret: str) -> bool:
        """Give a webhook URL its signing secret unless it has one; True if this call gave it."""

    @abc.abstractmethod
    def endpoint_secret(self, url: str) -> str | None:
        """The signing secret of a webhook URL, or None."""

    @abc.abstractmethod
    def endpoint_disabled(self, url: str) -> bool:
        """Whether a webhook URL was disabled (it answered 410 Gone)."""

    @abc.abstractmethod
    def disable_endpoint(self, url: str, reason: str) -> None:
        """Disable a webhook URL, with the reason."""

    @abc.abstractmethod
    def log_delivery(self, game_id: str, attempt: dict[str, Any], keep: int = 10_000) -> None:
        """Record one webhook delivery attempt."""

    @abc.abstractmethod
    def deliveries(self, game_id: str, *, start: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        """A game's logged webhook delivery attempts, oldest first, ``limit`` of them from ``start``."""

    @abc.abstractmethod
    def set_bot_tokens(self, tokens: Mapping[str, str]) -> None:
        """Remember which game and seat (``<game id>:<seat>``) each bot seat's token belongs to, by the token's hash."""

    @abc.abstractmethod
    def bot_token(self, token_hash: str) -> str | None:
        """The ``<game id>:<seat>`` of the bot seat whose token hashes to ``token_hash``, or None."""

    @abc.abstractmethod
    def take_stream_slot(
        self, scope: SlotScope, owner: str, member: str, cap: int, *, now_ms: int, ttl_ms: int
    ) -> bool:
        """Count the open live stream ``member`` against ``owner`` (a client address or a game id, as ``scope``
        says) unless ``cap`` unexpired ones are open already; True if it counts now. It expires ``ttl_ms`` after
        ``now_ms`` unless :meth:`refresh_stream_slots` pushes it on; expired slots are pruned first."""

    @abc.abstractmethod
    def refresh_stream_slots(
        self, slots: Sequence[tuple[SlotScope, str]], member: str, *, now_ms: int, ttl_ms: int
    ) -> None:
        """Push the expiry of ``member``'s slots (``(scope, owner)`` pairs) to ``now_ms + ttl_ms``, re-adding any that
        a prune took."""

    @abc.abstractmethod
    def release_stream_slots(self, slots: Sequence[tuple[SlotScope, str]], member: str) -> None:
        """Free ``member``'s slots (``(scope, owner)`` pairs)."""

    @abc.abstractmethod
    def stream_slots(self, scope: SlotScope, owner: str, *, now_ms: int) -> int:
        """How many unexpired live streams count against ``owner``."""

    @abc.abstractmethod
    def take_rate(self, windows: Sequence[RateWindow], *, now_ms: int, member: str) -> list[RateCount]:
        """Check every window and, if every one has room, count the request ``member`` in those that ``take``.

        One answer per window, in order. Atomic in one round trip on one Redis. On a cluster, where each owner's
        windows live in its own slot, every owner's windows are checked first and then counted: two round trips
        per owner, and only a request that races another between the two may count in one owner's windows
        while another's refuses it.
        """

    def take_rate_and_glance(
        self,
        windows: Sequence[RateWindow],
        *,
        now_ms: int,
        member: str,
        game_id: str,
        after: int | None = None,
        token_hash: str | None = None,
        with_seed: bool = False,
    ) -> tuple[list[RateCount], Glance | None]:
        """:meth:`take_rate`, then :meth:`glance` (None for an unknown game): a move's rate limits and its
        game, read together. One round trip on one Redis."""
        counts = self.take_rate(windows, now_ms=now_ms, member=member)
        try:
            return counts, self.glance(game_id, after=after, token_hash=token_hash, with_seed=with_seed)
        except UnknownGame:
            return counts, None

    @abc.abstractmethod
    def ping(self) -> bool:
        """Whether the store answers now."""

    @abc.abstractmethod
    def clear(self) -> None:
        """Forget everything under this store's namespace (and, in Redis, every key that names it: the rate
        limits and the task queues named after it). For throw-away namespaces (example runs, tests)."""


class RedisStore(EventStore):
    """The store in one Redis database (or a Redis Cluster): appended by atomic scripts, one slot per game.

    ``redis`` is its client. Nothing outside this class uses it, but tests that read or damage what Redis
    holds.
    """

    def __init__(self, client: redis.Redis, keyspace: Keyspace) -> None:
        self.redis: Any = client
        self.keys = keyspace
        self._create = client.register_script(_CREATE)
        self._append = client.register_script(_APPEND)
        self._append_as_seat = client.register_script(_APPEND_AS_SEAT)
        self._claim_timer = client.register_script(_CLAIM_TIMER)
        self._finish_timer = client.register_script(_FINISH_TIMER)
        self._drop_snapshot = client.register_script(_DROP_SNAPSHOT)
        self._save_snapshot = client.register_script(_SAVE_SNAPSHOT)
        self._snapshot_at = client.register_script(_SNAPSHOT_AT)
        self._glance = client.register_script(_GLANCE)
        self._register_bot = client.register_script(_REGISTER_BOT)
        self._rotate_bot_key = client.register_script(_ROTATE_BOT_KEY)
        self._post_inbox = client.register_script(_POST_INBOX)
        self._claim_seat = client.register_script(_CLAIM_SEAT)
        self._apply_ratings = client.register_script(_APPLY_RATINGS)
        self._swap_ladder_pair = client.register_script(_SWAP_LADDER_PAIR)
        self._take_stream_slot = client.register_script(_TAKE_STREAM_SLOT)
        self._release_if_held = client.register_script(_RELEASE_IF_HELD)
        self._take_rate = client.register_script(_TAKE_RATE)
        self._take_rate_and_glance = client.register_script(_TAKE_RATE_AND_GLANCE)

    # --- writing ---------------------------------------------------------

    def create(
        self,
        game_id: str,
        game: str,
        rules_version: str,
        envelopes: Sequence[Envelope],
        *,
        seed: bytes,
        tokens: dict[str, str],
        created_ms: int,
        salt: bytes = b"",
        timers: Sequence[tuple[str, int]] = (),
        secrets: dict[str, str] | None = None,
        forked_from: str = "",
        outbox_event: str = "created",
        listed: Mapping[str, str] | None = None,
        listed_by_version: Mapping[int, str] | None = None,
        cancelled: bool = False,
    ) -> Appended:
        k = self.keys.game(game_id)
        status = CANCELLED if cancelled else ACTIVE
        keys = [k.events, k.meta, k.tokens, k.seed, k.outbox, *self._index_keys(k, game, status)]
        keys += [self.keys.timers(k.bucket), k.secrets, k.listing]
        sealed_seed = f"{salt.hex()}:{seed.hex()}" if salt else seed.hex()
        argv: list[Any] = [game_id, created_ms, game, rules_version, sealed_seed, envelopes[-1].hash, outbox_event]
        argv += [len(envelopes), *(e.to_json() for e in envelopes), len(tokens)]
        for token_hash, role in tokens.items():
            argv += [token_hash, role]
        argv += _pairs(timers)
        argv += _pairs(list((secrets or {}).items()))
        argv.append(forked_from)
        argv += _pairs(list((listed or {}).items()))
        argv += _pairs([(str(v), e) for v, e in (listed_by_version or {}).items()])
        argv.append(status)
        reply = self._create(keys=keys, args=argv)
        if reply[0] == b"exists":
            raise GameExists(game_id)
        return Appended(int(reply[1]), int(reply[2]))

    def append(
        self,
        game_id: str,
        expected_version: int,
        previous_hash: str,
        envelopes: Sequence[Envelope],
        *,
        game: str,
        idempotency_key: str | None = None,
        fingerprint: str = "",
        finished: bool = False,
        cancelled: bool = False,
        now_ms: int = 0,
        timers: Sequence[tuple[str, int]] = (),
        outbox_event: str = "appended",
        listed: Mapping[str, str] | None = None,
        listed_by_version: Mapping[int, str] | None = None,
        guard: SeatGuard | None = None,
    ) -> Appended:
        k = self.keys.game(game_id)
        keys = [k.events, k.meta, k.idempotency, k.outbox]
        keys += [self.keys.index(k.bucket, name, ACTIVE) for name in ("*", game)]
        closed = CANCELLED if cancelled else FINISHED
        keys += [self.keys.index(k.bucket, name, closed) for name in ("*", game)]
        keys += [self.keys.timers(k.bucket), k.listing]
        argv: list[Any] = [
            expected_version,
            idempotency_key or "",
            fingerprint,
            previous_hash,
            envelopes[-1].hash if envelopes else previous_hash,
            CANCELLED if cancelled else "1" if finished else "0",
            now_ms,
            outbox_event,
            game_id,
            len(envelopes),
            *(e.to_json() for e in envelopes),
            *_pairs(timers),
            *_pairs(list((listed or {}).items())),
            *_pairs([(str(v), e) for v, e in (listed_by_version or {}).items()]),
        ]
        if guard is not None:
            if not self.appends_as_seat:
                raise ValueError("a guarded append needs one node: the rate windows live in other slots")
            rate_keys, rate_args = self._rate_call(guard.windows, now_ms, guard.member)
            keys = [*rate_keys, *keys, k.tokens]
            argv = [len(rate_keys), len(rate_args), guard.token_hash, guard.role, *rate_args, *argv]
        try:
            reply = (self._append if guard is None else self._append_as_seat)(keys=keys, args=argv)
        except redis.ResponseError as error:
            if "equal or smaller" in str(error):
                held = expected_version + 1
                raise StreamDamaged(f"game {game_id}: the stream already holds version {held}") from None
            raise
        status = reply[0].decode()
        if status == "refused":
            raise RateRefused(_rate_counts(reply[1]))
        rate = tuple(_rate_counts(reply[3])) if guard is not None and len(reply) > 3 else ()
        if status == "ok":
            return Appended(int(reply[1]), int(reply[2]), rate=rate)
        if status == "duplicate":
            return Appended(int(reply[1]), int(reply[2]), duplicate=True, rate=rate)
        if status == "conflict":
            raise VersionConflict(int(reply[1]))
        if status == "idempotency_conflict":
            raise IdempotencyConflict(int(reply[1]))
        raise UnknownGame(game_id)

    def save_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        """Kept by version: a sorted set of the versions and a hash of ``<version>:state`` (with
        ``:rules_version`` and ``:schema``); an older single snapshot moves there on the next save."""
        k = self.keys.game(game_id)
        args: list[Any] = [snapshot.version, snapshot.rules_version, snapshot.schema, snapshot.state]
        self._save_snapshot(keys=[k.snapshots, k.snapshot_states, k.snapshot], args=args)

    def drop_snapshot(self, game_id: str, state: bytes, version: int | None = None) -> bool:
        k = self.keys.game(game_id)
        keys = [k.snapshot, k.snapshots, k.snapshot_states]
        return bool(self._drop_snapshot(keys=keys, args=[state, "" if version is None else version]))

    # --- reading -----------------------------------------------------------

    def meta(self, game_id: str) -> Meta:
        raw = self.redis.hgetall(self.keys.game(game_id).meta)
        if not raw:
            raise UnknownGame(game_id)
        return Meta.from_fields(game_id, {key.decode(): value.decode() for key, value in raw.items()})

    def glance(
        self,
        game_id: str,
        *,
        after: int | None = None,
        token_hash: str | None = None,
        idempotency_key: str | None = None,
        with_seed: bool = False,
    ) -> Glance:
        k = self.keys.game(game_id)
        argv = ["" if after is None else after, token_hash or "", idempotency_key or "", int(with_seed)]
        found = _glance_of(game_id, self._glance(keys=[k.meta, k.events, k.tokens, k.idempotency, k.seed], args=argv))
        if found is None:
            raise UnknownGame(game_id)
        return found

    def prior_result(self, game_id: str, idempotency_key: str) -> str | None:
        raw = self.redis.hget(self.keys.game(game_id).idempotency, idempotency_key)
        return None if raw is None else raw.decode()

    def snapshot_at(self, game_id: str, upto: int) -> tuple[Snapshot | None, list[Envelope]]:
        k = self.keys.game(game_id)
        keys = [k.snapshots, k.snapshot_states, k.snapshot, k.events]
        snap, entries = self._snapshot_at(keys=keys, args=[upto])
        return _snapshot(snap), _envelopes(entries)

    def read(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Envelope]:
        if upto is not None and upto <= after:
            return []
        high = "+" if upto is None else f"{upto}-0"
        entries = self.redis.xrange(self.keys.game(game_id).events, f"{after + 1}-0", high, count=limit)
        return [Envelope.from_json(fields[b"e"]) for _, fields in entries]

    def tail(self, game_id: str) -> Envelope | None:
        entries = self.redis.xrevrange(self.keys.game(game_id).events, count=1)
        return Envelope.from_json(entries[0][1][b"e"]) if entries else None

    def wait(self, game_id: str, *, after: int, block_ms: int) -> list[Envelope]:
        reply = self.redis.xread({self.keys.game(game_id).events: f"{after}-0"}, block=block_ms, count=500)
        return [Envelope.from_json(fields[b"e"]) for _, entries in reply or [] for _, fields in entries]

    def wait_many(
        self, bucket: int, after: Mapping[str, int], *, reader: str, woken: str, block_ms: int
    ) -> tuple[dict[str, list[Envelope]], str]:
        """One blocking XREAD names every game's stream and the reader's wake stream, all on the bucket's slot."""
        wake = self.keys.wake(bucket, reader)
        streams = {self.keys.game(game_id).events: f"{version}-0" for game_id, version in after.items()}
        by_key = {self.keys.game(game_id).events: game_id for game_id in after}
        reply = self.redis.xread(streams | {wake: woken}, block=block_ms, count=500)
        found: dict[str, list[Envelope]] = {}
        for key, entries in reply or []:
            name = key.decode() if isinstance(key, bytes) else str(key)
            if name == wake:
                woken = entries[-1][0].decode() if entries else woken
                continue
            found[by_key[name]] = [Envelope.from_json(fields[b"e"]) for _, fields in entries]
        return found, woken

    def wake(self, bucket: int, reader: str) -> None:
        """The wake stream keeps a few entries for a minute."""
        key = self.keys.wake(bucket, reader)
        pipe = self.redis.pipeline(transaction=False)
        pipe.xadd(key, {"w": "1"}, maxlen=8, approximate=False)
        pipe.pexpire(key, 60_000)
        pipe.execute()

    def snapshot(self, game_id: str) -> Snapshot | None:
        raw = self.redis.hgetall(self.keys.game(game_id).snapshot)
        if not raw:
            return None
        try:
            version, rules_version = int(raw[b"version"]), raw[b"rules_version"].decode()
        except (KeyError, ValueError):
            return Snapshot(0, "", raw.get(b"state", b""), "")
        schema = raw.get(b"schema", b"").decode(errors="replace")
        return Snapshot(version, rules_version, raw.get(b"state", b""), schema)

    def role_of(self, game_id: str, token_hash: str) -> str | None:
        role = self.redis.hget(self.keys.game(game_id).tokens, token_hash)
        return None if role is None else role.decode()

    def sealed_seed(self, game_id: str) -> tuple[bytes, bytes]:
        raw = self.redis.get(self.keys.game(game_id).seed)
        if raw is None:
            raise UnknownGame(game_id)
        return unseal(raw)

    def cached_verdict(self, game_id: str, version: int) -> dict[str, Any] | None:
        raw = self.redis.hget(self.keys.game(game_id).verdicts, str(version))
        return None if raw is None else dict(json.loads(raw))

    def cache_verdict(self, game_id: str, version: int, verdict: dict[str, Any]) -> None:
        self.redis.hset(self.keys.game(game_id).verdicts, str(version), canonical(verdict))

    def listings(self, game_ids: Sequence[str]) -> list[dict[str, str] | None]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(self.keys.game(game_id).meta)
        return [{key.decode(): value.decode() for key, value in raw.items()} if raw else None for raw in pipe.execute()]

    def held_listings(self, wanted: Sequence[tuple[str, int]]) -> list[str | None]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id, version in wanted:
            pipe.hget(self.keys.game(game_id).listing, str(version))
        return [None if raw is None else raw.decode() for raw in pipe.execute()]

    def list_games(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        limit: int = 20,
        before: tuple[int, str] | None = None,
    ) -> list[tuple[int, str]]:
        found: list[tuple[int, str]] = []
        for bucket in range(BUCKETS):
            key = self.keys.index(bucket, game or "*", status or "*")
            high: str | int = "+inf" if before is None else before[0]
            rows = self.redis.zrevrangebyscore(key, high, "-inf", start=0, num=limit + 64, withscores=True)
            for member, score in rows:
                pair = (int(score), member.decode())
                if before is None or pair < before:
                    found.append(pair)
        found.sort(reverse=True)
        return found[:limit]

    # --- outbox --------------------------------------------------------------

    def ensure_outbox_groups(self, group: str) -> None:
        for bucket in range(BUCKETS):
            try:
                self.redis.xgroup_create(self.keys.outbox(bucket), group, id="0", mkstream=True)
            except redis.ResponseError as error:
                if "BUSYGROUP" not in str(error):
                    raise

    def claim_outbox(
        self, bucket: int, group: str, consumer: str, *, count: int = 100, min_idle_ms: int = 30_000
    ) -> list[OutboxEntry]:
        key = self.keys.outbox(bucket)
        try:
            stale = self.redis.xautoclaim(key, group, consumer, min_idle_ms, "0-0", count=count)[1]
            fresh = self.redis.xreadgroup(group, consumer, {key: ">"}, count=count)
        except redis.ResponseError as error:
            if "NOGROUP" in str(error):
                raise UnknownOutboxGroup(str(error)) from None
            raise
        return _outbox_entries(bucket, [*stale, *(e for _, batch in fresh for e in batch)])

    def follow_outbox(
        self, bucket: int, group: str, consumer: str, *, block_ms: int, count: int = 100
    ) -> list[OutboxEntry]:
        key = self.keys.outbox(bucket)
        try:
            fresh = self.redis.xreadgroup(group, consumer, {key: ">"}, count=count, block=block_ms or None)
        except redis.ResponseError as error:
            if "NOGROUP" in str(error):
                raise UnknownOutboxGroup(str(error)) from None
            raise
        return _outbox_entries(bucket, [e for _, batch in fresh or [] for e in batch])

    def ack_outbox(self, entry: OutboxEntry, group: str) -> None:
        key = self.keys.outbox(entry.bucket)
        pipe = self.redis.pipeline()
        pipe.xack(key, group, entry.entry_id)
        pipe.xdel(key, entry.entry_id)
        pipe.execute()

    # --- timers ----------------------------------------------------------------

    def due_timers(self, bucket: int, now_ms: int, limit: int = 100) -> list[str]:
        rows = self.redis.zrangebyscore(self.keys.timers(bucket), "-inf", now_ms, start=0, num=limit)
        return [row.decode() for row in rows]

    def claim_timer(self, bucket: int, member: str, now_ms: int, lease_ms: int) -> int | None:
        lease = now_ms + lease_ms
        claimed = self._claim_timer(keys=[self.keys.timers(bucket)], args=[member, now_ms, lease])
        return lease if claimed else None

    def finish_timer(self, bucket: int, member: str, lease: int) -> bool:
        return bool(self._finish_timer(keys=[self.keys.timers(bucket)], args=[member, lease]))

    def set_timer(self, bucket: int, member: str, due_ms: int) -> None:
        self.redis.zadd(self.keys.timers(bucket), {member: due_ms})

    def timers(self, bucket: int) -> dict[str, int]:
        return {m.decode(): int(s) for m, s in self.redis.zrange(self.keys.timers(bucket), 0, -1, withscores=True)}

    # --- bot seats ---------------------------------------------------------------

    def secret(self, game_id: str, field: str) -> str | None:
        value = self.redis.hget(self.keys.game(game_id).secrets, field)
        return None if value is None else str(value.decode())

    def register_bot(self, bot_id: str, key_hash: str, fields: Mapping[str, str]) -> bool:
        argv: list[str] = [key_hash, bot_id]
        for name, value in fields.items():
            argv += [name, value]
        keys = [self.keys.bot(bot_id), self.keys.bot_keys(), self.keys.ladder()]
        return bool(self._register_bot(keys=keys, args=argv))

    def bot(self, bot_id: str) -> dict[str, str] | None:
        raw = self.redis.hgetall(self.keys.bot(bot_id))
        return {k.decode(): v.decode() for k, v in raw.items()} if raw else None

    def bot_of_key(self, key_hash: str) -> str | None:
        raw = self.redis.hget(self.keys.bot_keys(), key_hash)
        return None if raw is None else raw.decode()

    def rotate_bot_key(self, bot_id: str, old_hash: str, new_hash: str) -> bool:
        keys = [self.keys.bot(bot_id), self.keys.bot_keys()]
        return bool(self._rotate_bot_key(keys=keys, args=[old_hash, new_hash, bot_id]))

    def put_reference_bot(self, bot_id: str, fields: Mapping[str, str]) -> None:
        self.redis.hset(self.keys.bot(bot_id), mapping=dict(fields))
        self.redis.sadd(self.keys.ladder(), bot_id)

    def ladder_bots(self) -> list[str]:
        return sorted(m.decode() for m in self.redis.smembers(self.keys.ladder()))

    def claim_bot_game(self, bot_id: str, game_id: str, limit: int | None = None) -> bool:
        if limit is None:
            self.redis.sadd(self.keys.bot_games(bot_id), game_id)
            return True
        return bool(self._claim_seat(keys=[self.keys.bot_games(bot_id)], args=[game_id, limit]))

    def release_bot_game(self, bot_id: str, game_id: str) -> None:
        self.redis.srem(self.keys.bot_games(bot_id), game_id)

    def bot_games(self, bot_id: str) -> list[str]:
        return sorted(m.decode() for m in self.redis.smembers(self.keys.bot_games(bot_id)))

    # --- ratings -------------------------------------------------------------------

    def rating_records(self, game: str, players: Sequence[str]) -> list[str | None]:
        if not players:
            return []
        raw = self.redis.hmget(self.keys.rating_players(game), list(players))
        return [None if value is None else value.decode() for value in raw]

    def apply_ratings(
        self, game: str, game_id: str, payload: str, writes: Sequence[tuple[str, str, str, int, str]], *, keep: int
    ) -> tuple[str, str]:
        keys = [self.keys.rating_players(game), self.keys.rating_applied(game), self.keys.rating_board(game)]
        # One script on the slot of ``game``'s ratings.
        keys += [self.keys.rating_history(game, player) for player, *_ in writes]
        argv: list[Any] = [game_id, payload, keep, len(writes)]
        for write in writes:
            argv += list(write)
        status, stored = self._apply_ratings(keys=keys, args=argv)
        return status.decode(), stored.decode()

    def rating_board(self, game: str, offset: int, limit: int) -> tuple[int, list[str]]:
        key = self.keys.rating_board(game)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zcard(key)
        pipe.zrevrange(key, min(offset, MAX_LIST_INDEX), min(offset + limit - 1, MAX_LIST_INDEX))
        total, players = pipe.execute()
        return int(total), [p.decode() for p in players]

    def rating_history(self, game: str, player: str, limit: int) -> list[str]:
        return [raw.decode() for raw in self.redis.lrange(self.keys.rating_history(game, player), 0, limit - 1)]

    # --- ladder --------------------------------------------------------------------

    def ladder_pairs(self, game: str) -> dict[str, str]:
        raw = self.redis.hgetall(self.keys.ladder_pairs(game))
        return {k.decode(): v.decode() for k, v in raw.items()}

    def swap_ladder_pair(self, game: str, pair: str, expected: str, value: str) -> bool:
        keys = [self.keys.ladder_pairs(game)]
        return bool(self._swap_ladder_pair(keys=keys, args=[pair, expected, value]))

    # --- account streams -----------------------------------------------------------

    def post_inbox(self, owner: str, key: str, body: str, *, keep: int = 1000, remember_s: int = 7 * 86400) -> bool:
        keys = [self.keys.inbox(owner), self.keys.inbox_seen(owner, key)]
        return bool(self._post_inbox(keys=keys, args=[body, keep, remember_s]))

    def inbox_events(
        self, owner: str, *, after: str = "0-0", block_ms: int | None = None, count: int = 100
    ) -> list[tuple[str, str]]:
        key = self.keys.inbox(owner)
        if block_ms is None:
            entries = self.redis.xrange(key, min=f"({after}" if after != "0-0" else "-", count=count)
        else:
            reply = self.redis.xread({key: after}, block=block_ms, count=count)
            entries = reply[0][1] if reply else []
        return [(entry_id.decode(), fields[b"body"].decode()) for entry_id, fields in entries]

    def inbox_bounds(self, owner: str) -> tuple[str | None, str | None]:
        key = self.keys.inbox(owner)
        first, last = self.redis.xrange(key, count=1), self.redis.xrevrange(key, count=1)
        return (first[0][0].decode() if first else None, last[0][0].decode() if last else None)

    def claim_inbox_reader(self, owner: str, reader: str, ttl_s: int) -> None:
        self.redis.set(self.keys.inbox_reader(owner), reader, ex=ttl_s)

    def inbox_reader(self, owner: str, reader: str, ttl_s: int) -> bool:
        key = self.keys.inbox_reader(owner)
        if self.redis.get(key) != reader.encode():
            return False
        self.redis.expire(key, ttl_s)
        return True

    def release_inbox_reader(self, owner: str, reader: str) -> None:
        self._release_if_held(keys=[self.keys.inbox_reader(owner)], args=[reader])

    def inbox_read_now(self, owner: str) -> bool:
        return bool(self.redis.exists(self.keys.inbox_reader(owner)))

    def set_bot_field(self, bot_id: str, field: str, value: str) -> None:
        self.redis.hset(self.keys.bot(bot_id), field, value)

    def register_endpoint(self, url: str, secret: str) -> bool:
        return bool(self.redis.hsetnx(self.keys.webhooks(), f"secret:{url}", secret))

    def endpoint_secret(self, url: str) -> str | None:
        value = self.redis.hget(self.keys.webhooks(), f"secret:{url}")
        return None if value is None else str(value.decode())

    def endpoint_disabled(self, url: str) -> bool:
        return bool(self.redis.hexists(self.keys.webhooks(), f"disabled:{url}"))

    def disable_endpoint(self, url: str, reason: str) -> None:
        self.redis.hset(self.keys.webhooks(), f"disabled:{url}", reason)

    def log_delivery(self, game_id: str, attempt: dict[str, Any], keep: int = 10_000) -> None:
        key = self.keys.game(game_id).deliveries
        pipe = self.redis.pipeline()
        pipe.rpush(key, canonical(attempt))
        pipe.ltrim(key, -keep, -1)
        pipe.execute()

    def deliveries(self, game_id: str, *, start: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        stop = min(start + limit - 1, MAX_LIST_INDEX)
        rows = self.redis.lrange(self.keys.game(game_id).deliveries, min(start, MAX_LIST_INDEX), stop)
        return [json.loads(row) for row in rows]

    # --- bot seats' tokens -------------------------------------------------------

    def set_bot_tokens(self, tokens: Mapping[str, str]) -> None:
        if tokens:
            self.redis.hset(self.keys.bot_tokens(), mapping=dict(tokens))

    def bot_token(self, token_hash: str) -> str | None:
        raw = self.redis.hget(self.keys.bot_tokens(), token_hash)
        return None if raw is None else raw.decode()

    # --- live stream slots ------------------------------------------------------

    def take_stream_slot(
        self, scope: SlotScope, owner: str, member: str, cap: int, *, now_ms: int, ttl_ms: int
    ) -> bool:
        key = self._slot_key(scope, owner)
        return bool(self._take_stream_slot(keys=[key], args=[now_ms, cap, now_ms + ttl_ms, member, ttl_ms]))

    def refresh_stream_slots(
        self, slots: Sequence[tuple[SlotScope, str]], member: str, *, now_ms: int, ttl_ms: int
    ) -> None:
        with self.redis.pipeline(transaction=False) as pipe:
            for scope, owner in slots:
                key = self._slot_key(scope, owner)
                pipe.zadd(key, {member: now_ms + ttl_ms})
                pipe.pexpire(key, ttl_ms)
            pipe.execute()

    def release_stream_slots(self, slots: Sequence[tuple[SlotScope, str]], member: str) -> None:
        with self.redis.pipeline(transaction=False) as pipe:
            for scope, owner in slots:
                pipe.zrem(self._slot_key(scope, owner), member)
            pipe.execute()

    def stream_slots(self, scope: SlotScope, owner: str, *, now_ms: int) -> int:
        return int(self.redis.zcount(self._slot_key(scope, owner), now_ms, "+inf"))

    def _slot_key(self, scope: SlotScope, owner: str) -> str:
        return self.keys.address_streams(owner) if scope == "address" else self.keys.game_streams(owner)

    # --- the store itself -------------------------------------------------------

    def ping(self) -> bool:
        try:
            return bool(self.redis.ping())
        except (redis.RedisError, OSError):
            return False

    def take_rate(self, windows: Sequence[RateWindow], *, now_ms: int, member: str) -> list[RateCount]:
        if not isinstance(self.redis, redis.RedisCluster):
            return _rate_counts(self._take_rate(*self._rate_call(windows, now_ms, member)))
        groups: dict[str, list[int]] = {}
        for i, window in enumerate(windows):
            groups.setdefault(window.owner, []).append(i)
        answers: dict[int, RateCount] = {}
        checks = [dataclasses.replace(w, take=False) for w in windows]
        for phase in (checks, windows):
            for members in groups.values():
                reply = self._take_rate(*self._rate_call([phase[i] for i in members], now_ms, member))
                answers.update(zip(members, _rate_counts(reply), strict=True))
            if not all(a.allowed for a in answers.values()):
                break
        return [answers[i] for i in range(len(windows))]

    def take_rate_and_glance(
        self,
        windows: Sequence[RateWindow],
        *,
        now_ms: int,
        member: str,
        game_id: str,
        after: int | None = None,
        token_hash: str | None = None,
        with_seed: bool = False,
    ) -> tuple[list[RateCount], Glance | None]:
        if isinstance(self.redis, redis.RedisCluster) or not windows:
            return super().take_rate_and_glance(
                windows,
                now_ms=now_ms,
                member=member,
                game_id=game_id,
                after=after,
                token_hash=token_hash,
                with_seed=with_seed,
            )
        k = self.keys.game(game_id)
        glance_keys = [k.meta, k.events, k.tokens, k.idempotency, k.seed]
        glance_args = ["" if after is None else after, token_hash or "", "", int(with_seed)]
        rate_keys, rate_args = self._rate_call(windows, now_ms, member)
        rate, reply = self._take_rate_and_glance(
            keys=[*rate_keys, *glance_keys], args=[len(rate_keys), len(rate_args), *rate_args, *glance_args]
        )
        return _rate_counts(rate), _glance_of(game_id, reply)

    @property
    def appends_as_seat(self) -> bool:
        return not isinstance(self.redis, redis.RedisCluster)

    def _rate_call(self, windows: Sequence[RateWindow], now_ms: int, member: str) -> tuple[list[str], list[Any]]:
        args: list[Any] = [now_ms, member]
        for w in windows:
            args += [w.limit, w.period_ms, int(w.take)]
        return [self.keys.rate_window(w.owner, w.name) for w in windows], args

    def clear(self) -> None:
        found = list(self.redis.scan_iter(f"*{self.keys.namespace}*", count=1000))
        for i in range(0, len(found), 500):
            self.redis.unlink(*found[i : i + 500])

    def _index_keys(self, k: GameKeys, game: str, status: str) -> list[str]:
        return [
            self.keys.index(k.bucket, "*", "*"),
            self.keys.index(k.bucket, game, "*"),
            self.keys.index(k.bucket, "*", status),
            self.keys.index(k.bucket, game, status),
        ]


def _rate_counts(reply: Sequence[Sequence[int]]) -> list[RateCount]:
    return [RateCount(bool(room), int(remaining), int(reset)) for room, remaining, reset in reply]


def _glance_of(game_id: str, reply: Sequence[Any]) -> Glance | None:
    """The glance script's reply as a :class:`Glance`, or None if the game does not exist."""
    flat = reply[0]
    if not flat:
        return None
    meta = Meta.from_fields(game_id, {flat[i].decode(): flat[i + 1].decode() for i in range(0, len(flat), 2)})
    role, prior = (None if raw is None else raw.decode() for raw in reply[1:3])
    seed = reply[4] if len(reply) > 4 else None
    return Glance(meta, role, prior, _envelopes(reply[3]), None if seed is None else unseal(seed))


def unseal(raw: bytes | str) -> tuple[bytes, bytes]:
    """The (seed, salt) of a game's stored ``salt:seed`` (hex; ``seed`` alone when it has no salt)."""
    salt, _, seed = (raw.decode() if isinstance(raw, bytes) else raw).rpartition(":")
    return bytes.fromhex(seed), bytes.fromhex(salt)


def _envelopes(entries: Sequence[tuple[bytes, Any]]) -> list[Envelope]:
    """Stream entries read inside a script (their fields as a flat list) or by XRANGE (as a dict)."""
    out = []
    for _, fields in entries:
        value = fields[b"e"] if isinstance(fields, dict) else fields[1]
        out.append(Envelope.from_json(value))
    return out


def _snapshot(fields: Sequence[bytes]) -> Snapshot | None:
    """A snapshot from a script's ``[kind, version, rules_version, schema, state]``, or None if ``kind`` is empty."""
    kind, version, rules_version, schema, state = (bytes(f) for f in fields)
    if not kind:
        return None
    try:
        number = int(version)
    except ValueError:
        return Snapshot(0, "", state, "")
    if not rules_version:
        return Snapshot(0, "", state, "")
    return Snapshot(number, rules_version.decode(errors="replace"), state, schema.decode(errors="replace"))


def _pairs(items: Sequence[tuple[str, Any]]) -> list[Any]:
    """``[count, key1, value1, key2, value2, ...]`` for a script's arguments."""
    out: list[Any] = [len(items)]
    for key, value in items:
        out += [key, value]
    return out


def _outbox_entries(bucket: int, entries: Iterable[tuple[bytes, dict[bytes, bytes]]]) -> list[OutboxEntry]:
    """Outbox entries as Redis returns them (an entry deleted since it was delivered has no fields)."""
    return [
        OutboxEntry(
            entry_id=entry_id.decode(),
            bucket=bucket,
            game_id=fields[b"game_id"].decode(),
            version=int(fields[b"version"]),
            finished=fields[b"finished"] == b"1",
            event=fields[b"event"].decode(),
        )
        for entry_id, fields in entries
        if fields
    ]
