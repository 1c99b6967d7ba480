"""Limits, so that no one client can exhaust the service.

* Rate limits, counted in the store so that every API process shares them: game creations and bot
  registrations per client address, moves per seat token and per address, and requests with a token that end
  in 401 per address. Each is a moving window (at most N requests in any period); a setting may name several,
  as ``"30/minute;300/hour"`` does (parsed by the ``limits`` library). Every window a request meets is checked
  and counted in one call to the store (:meth:`~events.store.EventStore.take_rate`): one round trip before the
  view runs, and one more only after a 401. Beyond a limit the answer is a 429 in the API's error shape, with
  ``Retry-After``; every limited answer carries ``RateLimit-Limit``/``-Remaining``/``-Reset`` (the IETF draft,
  ``-Reset`` in seconds from now) and ``X-RateLimit-*`` (``-Reset`` as a Unix time).
* Caps on open live streams per client address and per game, counted in the
  store (one slot per open stream, with an expiry that the stream pushes
  forward while it runs, freed when it closes; slots whose expiry has passed
  are pruned, so a killed process frees its slots: see
  ``EventStore.take_stream_slot``), and a cap per API process that keeps some of
  its connections for ordinary requests.

The client address is the socket's peer; ``X-Forwarded-For`` counts only when
``Settings.trust_proxy`` names how many proxies stand in front of the API.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import math
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence

import limits
import redis
from flask import Flask, Response, current_app, g, request, stream_with_context
from werkzeug.middleware.proxy_fix import ProxyFix

from api.errors import error_response
from events.store import EventStore, RateCount, RateWindow, SlotScope
from service.games import RateCheck, ServiceError, token_hash

STREAM_SLOT_TTL_MS = 45_000
"""How long an open stream's slot lives without a refresh: three of the longest heartbeats (15 s)."""

STREAM_REFRESH_S = 15.0
"""A running stream pushes its slots' expiry forward at most this often, on its next frame or heartbeat. A frame
comes at least every 15 s, so a slot is refreshed within 30 s, before its 45 s run out."""

STREAM_TOO_MANY = {
    "description": "Too many live streams are open for this client address, this game or this server "
    "(error code `too_many_streams`, with the cap as `limit` and `scope`).",
}
"""The OpenAPI response of a stream refused by a cap."""

RATE_LIMITED_ENDPOINTS = {"create": "games.Games", "moves": "games.Moves", "register": "bots.Bots"}
"""The view endpoints that carry rate limits of their own."""

BAD_TOKEN = "bad-token"
"""The name of the windows that count requests ending in 401."""


class TooManyStreams(ServiceError):
    """A cap on open live streams (per address, per game or per process) is reached."""

    code = "too_many_streams"


def client_address() -> str:
    """The address that limits count against (after ``ProxyFix`` when proxies are trusted)."""
    return request.remote_addr or "unknown"


def address_key() -> str:
    return f"addr:{client_address()}"


def token_key() -> str:
    """The hash of the request's bearer token (never the token), or its address when it has none; worked out
    once per request."""
    known: str | None = g.get("orrery_token_key")
    if known is None:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        known = f"token:{token_hash(token.strip())}" if scheme.lower() == "bearer" and token.strip() else address_key()
        g.orrery_token_key = known
    return known


@dataclasses.dataclass(frozen=True, slots=True)
class RateLimit:
    """One configured limit: ``amount`` requests in any ``period_s`` seconds, counted per ``key()``."""

    name: str
    amount: int
    period_s: int
    key: Callable[[], str]

    def window(self, *, take: bool = True) -> RateWindow:
        return RateWindow(self.key(), self.name, self.amount, self.period_s * 1000, take)


def rate_limits(scope: str, value: str, key: Callable[[], str]) -> list[RateLimit]:
    """The limits a setting such as ``"30/minute;300/hour"`` names, for one scope, counted per ``key()``."""
    return [
        RateLimit(f"{scope}/{item.amount}/{item.get_expiry()}", item.amount, item.get_expiry(), key)
        for item in limits.parse_many(value)
    ]


class RateLimited(ServiceError):
    """A rate limit is reached (``limit`` requests every ``period_s``); ``retry_after_s`` says when to try again."""

    code = "too_many_requests"


class RateLimits:
    """The rate limits of one app: per view endpoint (POST only), and the limit on requests ending in 401.

    A move's windows are counted in the same round trip as the read of its game (see
    :class:`~service.games.RateCheck`): :meth:`check` leaves them to the view, which passes :meth:`for_move`
    to the service; if the request ends before the service reads the game, :meth:`answered` counts them then.
    """

    def __init__(self, store: EventStore, bad_token: str) -> None:
        self.store = store
        self.bad_token = rate_limits(BAD_TOKEN, bad_token, address_key)
        self.views: dict[str, list[RateLimit]] = {}
        self.with_game: set[str] = set()

    def limit(self, endpoint: str, value: str, key: Callable[[], str], *, with_game: bool = False) -> None:
        """Limit POSTs to the view ``endpoint`` to ``value`` (a setting such as ``"600/minute"``) per ``key()``;
        ``with_game``: the view counts them with its read of the game, through :meth:`for_move`."""
        self.views.setdefault(endpoint, []).extend(rate_limits(endpoint, value, key))
        if with_game:
            self.with_game.add(endpoint)

    def check(self) -> None:
        """Before a view: count the request in its windows (or leave that to the view); 429 if one is full."""
        if request.blueprint == "health":
            return
        endpoint = request.endpoint or ""
        views = self.views.get(endpoint, []) if request.method == "POST" else []
        token = "Authorization" in request.headers
        windows = [lim.window() for lim in views] + [lim.window(take=False) for lim in self.bad_token if token]
        if not windows:
            return
        if endpoint in self.with_game and token_key().startswith("token:"):
            g.orrery_rate_pending = (windows, len(views))
            return
        self._settle(windows, len(views), self.store.take_rate(windows, now_ms=_now_ms(), member=_member()))

    def for_move(self) -> RateCheck | None:
        """The windows :meth:`check` left to the view, for :meth:`~service.games.GameService.submit_with_token`."""
        pending = g.get("orrery_rate_pending")
        if pending is None:
            return None
        windows, views = pending

        def settle(counts: list[RateCount]) -> None:
            g.pop("orrery_rate_pending", None)
            self._settle(windows, views, counts)

        return RateCheck(windows, _member(), settle)

    def answered(self, response: Response) -> Response:
        """After a view: count what the view did not, count a 401 against the address, and add the headers of
        the limit nearest to refusing."""
        pending = g.pop("orrery_rate_pending", None)
        if pending is not None:
            windows, views = pending
            try:
                self._settle(windows, views, self.store.take_rate(windows, now_ms=_now_ms(), member=_member()))
            except RateLimited as refused:
                response, _ = error_response(429, refused.code, str(refused), **refused.details)
                response.status_code = 429
            except redis.RedisError:
                pass  # the answer already says what failed; the store that cannot count it is down
        if response.status_code == 401 and "Authorization" in request.headers and request.blueprint != "health":
            with contextlib.suppress(redis.RedisError):
                self.store.take_rate([lim.window() for lim in self.bad_token], now_ms=_now_ms(), member=_member())
        shown: tuple[RateWindow, RateCount] | None = g.pop("orrery_rate", None)
        if shown is not None:
            window, count = shown
            reset_s = _seconds_until(count.reset_ms)
            response.headers["X-RateLimit-Limit"] = str(window.limit)
            response.headers["X-RateLimit-Remaining"] = str(count.remaining)
            response.headers["X-RateLimit-Reset"] = str(math.ceil(count.reset_ms / 1000))
            response.headers["RateLimit-Limit"] = str(window.limit)
            response.headers["RateLimit-Remaining"] = str(count.remaining)
            response.headers["RateLimit-Reset"] = str(reset_s)
            if response.status_code == 429 and not count.allowed:
                response.headers["Retry-After"] = str(reset_s)
        if response.status_code not in (429, 503):
            response.headers.pop("Retry-After", None)
        return response

    def _settle(self, windows: Sequence[RateWindow], views: int, counts: Sequence[RateCount]) -> None:
        """Remember the limit to show in the headers; raise :class:`RateLimited` if a window was full."""
        g.orrery_rate = _shown(windows[:views], counts[:views]) or _shown(windows, counts)
        refused = [(w, c) for w, c in zip(windows, counts, strict=True) if not c.allowed]
        if not refused:
            return
        window, count = max(refused, key=lambda pair: pair[1].reset_ms)
        g.orrery_rate = (window, count)
        retry = _seconds_until(count.reset_ms)
        raise RateLimited(
            f"Too many requests: at most {window.limit} every {_period(window.period_ms)}; retry in {retry} s.",
            limit=window.limit,
            period_s=window.period_ms // 1000,
            retry_after_s=retry,
        )


def _shown(windows: Sequence[RateWindow], counts: Sequence[RateCount]) -> tuple[RateWindow, RateCount] | None:
    """The window with the least room left (the first of equals), or None."""
    pairs = list(zip(windows, counts, strict=True))
    return min(pairs, key=lambda pair: pair[1].remaining) if pairs else None


_members = itertools.count()
_process = uuid.uuid4().hex[:12]


def _member() -> str:
    """A name for one request in the windows, unique across processes without a system call."""
    return f"{_process}:{next(_members)}"


def _seconds_until(ms: int) -> int:
    return max(0, math.ceil((ms - _now_ms()) / 1000))


def _period(ms: int) -> str:
    seconds = ms // 1000
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            n = seconds // size
            return unit if n == 1 else f"{n} {unit}s"
    return f"{seconds} s"


def init_limits(app: Flask) -> RateLimits:
    """Attach the rate limits and stream caps to ``app``, from ``app.extensions["orrery.settings"]``.

    Call it after the blueprints are registered.
    """
    settings = app.extensions["orrery.settings"]
    store: EventStore = app.extensions["orrery.service"].store
    if settings.trust_proxy:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trust_proxy)  # type: ignore[method-assign]
    rates = RateLimits(store, settings.limit_bad_token)
    rates.limit(RATE_LIMITED_ENDPOINTS["create"], settings.limit_create, address_key)
    rates.limit(RATE_LIMITED_ENDPOINTS["register"], settings.limit_create, address_key)
    rates.limit(RATE_LIMITED_ENDPOINTS["moves"], settings.limit_moves, token_key, with_game=True)
    rates.limit(RATE_LIMITED_ENDPOINTS["moves"], settings.limit_moves_per_address, address_key, with_game=True)
    app.before_request(rates.check)
    app.after_request(rates.answered)
    app.extensions["orrery.rate_limits"] = rates
    app.extensions["orrery.streams"] = StreamLimits(
        store,
        per_address=settings.streams_per_address,
        per_game=settings.streams_per_game,
        per_process=settings.streams_per_worker,
    )
    return rates


class StreamSlot:
    """One open stream's place in the caps: refreshed while it runs, released once when it closes."""

    def __init__(self, owner: StreamLimits, slots: list[tuple[SlotScope, str]], member: str) -> None:
        self.owner = owner
        self.slots = slots
        self.member = member
        self.released = False
        self.refreshed = time.monotonic()

    def refresh(self) -> None:
        """Push the slot's expiry forward (re-adding it if a prune took it)."""
        self.owner.store.refresh_stream_slots(self.slots, self.member, now_ms=_now_ms(), ttl_ms=STREAM_SLOT_TTL_MS)
        self.refreshed = time.monotonic()

    def release(self) -> None:
        """Free the slot; later calls do nothing."""
        if self.released:
            return
        self.released = True
        self.owner.closed()
        with contextlib.suppress(redis.RedisError):
            self.owner.store.release_stream_slots(self.slots, self.member)

    def hold(self, frames: Iterator[str]) -> Iterator[str]:
        """Pass ``frames`` through, refreshing the slot at most every ``STREAM_REFRESH_S`` seconds."""
        for frame in frames:
            if time.monotonic() - self.refreshed >= STREAM_REFRESH_S:
                self.refresh()
            yield frame


class StreamLimits:
    """The caps on open live streams: per client address and per game over all processes, and per process."""

    def __init__(self, store: EventStore, *, per_address: int, per_game: int, per_process: int) -> None:
        self.store = store
        self.per_address = per_address
        self.per_game = per_game
        self.per_process = per_process
        self.open_here = 0
        self._lock = threading.Lock()

    def open(self, address: str, game_id: str) -> StreamSlot:
        """A slot for a new stream on ``game_id`` from ``address``, or ``TooManyStreams``."""
        with self._lock:
            if self.open_here >= self.per_process:
                raise TooManyStreams(
                    "this server holds as many live streams as it may; try again later",
                    limit=self.per_process,
                    scope="server",
                )
            self.open_here += 1
        member = uuid.uuid4().hex
        taken: list[tuple[SlotScope, str]] = []
        try:
            caps: list[tuple[SlotScope, str, int]] = [
                ("address", address, self.per_address),
                ("game", game_id, self.per_game),
            ]
            for scope, owner, cap in caps:
                if not self._take(scope, owner, cap, member):
                    raise TooManyStreams(
                        f"at most {cap} live streams may be open per {scope}; close one first",
                        limit=cap,
                        scope=scope,
                    )
                taken.append((scope, owner))
        except BaseException:
            self.closed()
            with contextlib.suppress(redis.RedisError):
                self.store.release_stream_slots(taken, member)
            raise
        return StreamSlot(self, taken, member)

    def count(self, *, address: str | None = None, game_id: str | None = None) -> int:
        """How many unexpired streams are open for an address or a game."""
        if address is not None:
            return self.store.stream_slots("address", address, now_ms=_now_ms())
        return self.store.stream_slots("game", str(game_id), now_ms=_now_ms())

    def closed(self) -> None:
        with self._lock:
            self.open_here -= 1

    def _take(self, scope: SlotScope, owner: str, cap: int, member: str) -> bool:
        return self.store.take_stream_slot(scope, owner, member, cap, now_ms=_now_ms(), ttl_ms=STREAM_SLOT_TTL_MS)


def stream_response(game_id: str, frames: Iterator[str], mimetype: str, headers: dict[str, str]) -> Response:
    """A streamed response that holds a slot of the stream caps until it closes (429 when none is free)."""
    streams: StreamLimits = current_app.extensions["orrery.streams"]
    slot = streams.open(client_address(), game_id)
    try:
        response = Response(stream_with_context(slot.hold(frames)), mimetype=mimetype, headers=headers)
    except BaseException:
        slot.release()
        raise
    response.call_on_close(slot.release)
    return response


def _now_ms() -> int:
    return int(time.time() * 1000)
