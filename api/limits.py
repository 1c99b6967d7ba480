"""Limits, so that no one client can exhaust the service.

* Rate limits (Flask-Limiter, counted in Redis so that every API process
  shares them): game creations per client address, moves per seat token and
  per address, and requests with a token that end in 401 per address. Beyond
  a limit the answer is a 429 in the API's error shape, with ``Retry-After``
  and the ``RateLimit-Limit``/``-Remaining``/``-Reset`` headers (and Flask-Limiter's ``X-RateLimit-*``).
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
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import redis
from flask import Flask, Response, current_app, request, stream_with_context
from flask_limiter import Limiter
from werkzeug.middleware.proxy_fix import ProxyFix

from events.service import ServiceError, token_hash
from events.store import EventStore, SlotScope

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


class TooManyStreams(ServiceError):
    """A cap on open live streams (per address, per game or per process) is reached."""

    code = "too_many_streams"


def client_address() -> str:
    """The address that limits count against (after ``ProxyFix`` when proxies are trusted)."""
    return request.remote_addr or "unknown"


def address_key() -> str:
    return f"addr:{client_address()}"


def token_key() -> str:
    """The hash of the request's bearer token (never the token), or its address when it has none."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return f"token:{token_hash(token.strip())}"
    return address_key()


def _carries_no_token() -> bool:
    return "Authorization" not in request.headers


def _unauthorized(response: Response) -> bool:
    return response.status_code == 401


def init_limits(app: Flask) -> Limiter:
    """Attach the rate limits and stream caps to ``app``, from ``app.extensions["orrery.settings"]``.

    Call it after the blueprints are registered: it wraps their view functions.
    """
    settings = app.extensions["orrery.settings"]
    store: EventStore = app.extensions["orrery.service"].store
    storage_uri, storage_options = store.limiter_storage(settings.require_redis())
    if settings.trust_proxy:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trust_proxy)  # type: ignore[method-assign]
    limiter = Limiter(
        key_func=address_key,
        application_limits=[settings.limit_bad_token],
        application_limits_deduct_when=_unauthorized,
        application_limits_exempt_when=_carries_no_token,
        headers_enabled=True,
        retry_after="delta-seconds",
        strategy="moving-window",
        storage_uri=storage_uri,
        storage_options=storage_options,
    )
    app.after_request(_retry_after_only_when_refused)
    limiter.init_app(app)
    limiter.request_filter(lambda: request.blueprint == "health")
    _limit(app, limiter, RATE_LIMITED_ENDPOINTS["create"], [(settings.limit_create, address_key)])
    _limit(app, limiter, RATE_LIMITED_ENDPOINTS["register"], [(settings.limit_create, address_key)])
    _limit(
        app,
        limiter,
        RATE_LIMITED_ENDPOINTS["moves"],
        [(settings.limit_moves, token_key), (settings.limit_moves_per_address, address_key)],
    )
    app.extensions["orrery.limiter"] = limiter
    app.extensions["orrery.streams"] = StreamLimits(
        store,
        per_address=settings.streams_per_address,
        per_game=settings.streams_per_game,
        per_process=settings.streams_per_worker,
    )
    return limiter


def _retry_after_only_when_refused(response: Response) -> Response:
    """Keep ``Retry-After`` for refusals only, and add the IETF draft ``RateLimit-*`` headers beside
    Flask-Limiter's ``X-RateLimit-*`` (``RateLimit-Reset`` counts seconds from now, not a timestamp)."""
    # Registered before the limiter's own hook, so it runs after it (Flask runs them in reverse).
    if response.status_code not in (429, 503):
        response.headers.pop("Retry-After", None)
    limit, remaining = response.headers.get("X-RateLimit-Limit"), response.headers.get("X-RateLimit-Remaining")
    reset = response.headers.get("X-RateLimit-Reset")
    if limit is not None and remaining is not None and reset is not None:
        response.headers["RateLimit-Limit"] = limit
        response.headers["RateLimit-Remaining"] = remaining
        with contextlib.suppress(ValueError):
            response.headers["RateLimit-Reset"] = str(max(0, int(float(reset) - time.time() + 0.999)))
    return response


def _limit(app: Flask, limiter: Limiter, endpoint: str, limits: list[tuple[str, Callable[[], str]]]) -> None:
    view: Any = app.view_functions[endpoint]
    for value, key in limits:
        view = limiter.limit(value, key_func=key, methods=["POST"])(view)
    app.view_functions[endpoint] = view


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
