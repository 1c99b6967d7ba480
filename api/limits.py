"""Limits, so that no one client can exhaust the service.

* Rate limits (Flask-Limiter, counted in Redis so that every API process
  shares them): game creations per client address, moves per seat token and
  per address, and requests with a token that end in 401 per address. Beyond
  a limit the answer is a 429 in the API's error shape, with ``Retry-After``
  and the ``RateLimit-Limit``/``-Remaining``/``-Reset`` headers (and Flask-Limiter's ``X-RateLimit-*``).
* Caps on open live streams per client address and per game, counted in
  Redis sorted sets (one member per open stream, scored by an expiry that the
  stream pushes forward while it runs, removed when it closes; members whose
  expiry has passed are pruned, so a killed process frees its slots), and a
  cap per API process that keeps some of its connections for ordinary requests.

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

from events.keys import Keyspace
from events.service import ServiceError, token_hash

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

_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""


class TooManyStreams(ServiceError):
    """A stream cap is reached: 429."""

    status = 429
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
    store = app.extensions["orrery.service"].store
    keys: Keyspace = store.keys
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
        storage_uri=_storage_uri(settings.require_redis(), settings.redis_cluster),
        storage_options=_storage_options(store.redis, keys.rate_limits(), settings.redis_cluster),
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
        store.redis,
        keys,
        per_address=settings.streams_per_address,
        per_game=settings.streams_per_game,
        per_process=settings.streams_per_worker,
    )
    return limiter


def _storage_uri(redis_url: str, cluster: bool = False) -> str:
    """The limits library's name for the Redis (a single one is reached through the service's own pool)."""
    if cluster:
        location = redis_url.split("://", 1)[-1].split("/", 1)[0]
        return f"redis+cluster://{location}"
    return "redis+unix://" + redis_url.removeprefix("unix://") if redis_url.startswith("unix://") else redis_url


def _storage_options(client: Any, key_prefix: str, cluster: bool) -> dict[str, Any]:
    """Share the service's pool with a single Redis; a cluster client of the limits library keeps its own."""
    if cluster:
        return {"key_prefix": key_prefix}
    return {"connection_pool": client.connection_pool, "key_prefix": key_prefix}


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

    def __init__(self, owner: StreamLimits, keys: list[str], member: str) -> None:
        self.owner = owner
        self.keys = keys
        self.member = member
        self.released = False
        self.refreshed = time.monotonic()

    def refresh(self) -> None:
        """Push the slot's expiry forward (re-adding it if a prune took it)."""
        expiry = _now_ms() + STREAM_SLOT_TTL_MS
        with self.owner.redis.pipeline(transaction=False) as pipe:
            for key in self.keys:
                pipe.zadd(key, {self.member: expiry})
                pipe.pexpire(key, STREAM_SLOT_TTL_MS)
            pipe.execute()
        self.refreshed = time.monotonic()

    def release(self) -> None:
        """Free the slot; later calls do nothing."""
        if self.released:
            return
        self.released = True
        self.owner.closed()
        with contextlib.suppress(redis.RedisError), self.owner.redis.pipeline(transaction=False) as pipe:
            for key in self.keys:
                pipe.zrem(key, self.member)
            pipe.execute()

    def hold(self, frames: Iterator[str]) -> Iterator[str]:
        """Pass ``frames`` through, refreshing the slot at most every ``STREAM_REFRESH_S`` seconds."""
        for frame in frames:
            if time.monotonic() - self.refreshed >= STREAM_REFRESH_S:
                self.refresh()
            yield frame


class StreamLimits:
    """The caps on open live streams: per client address and per game over all processes, and per process."""

    def __init__(
        self, client: redis.Redis, keys: Keyspace, *, per_address: int, per_game: int, per_process: int
    ) -> None:
        self.redis = client
        self.keys = keys
        self.per_address = per_address
        self.per_game = per_game
        self.per_process = per_process
        self.open_here = 0
        self._lock = threading.Lock()
        self._acquire = client.register_script(_ACQUIRE)

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
        taken: list[str] = []
        try:
            for key, cap, scope in (
                (self.keys.address_streams(address), self.per_address, "address"),
                (self.keys.game_streams(game_id), self.per_game, "game"),
            ):
                if not self._take(key, cap, member):
                    raise TooManyStreams(
                        f"at most {cap} live streams may be open per {scope}; close one first",
                        limit=cap,
                        scope=scope,
                    )
                taken.append(key)
        except BaseException:
            self.closed()
            with contextlib.suppress(redis.RedisError):
                for key in taken:
                    self.redis.zrem(key, member)
            raise
        return StreamSlot(self, taken, member)

    def count(self, *, address: str | None = None, game_id: str | None = None) -> int:
        """How many unexpired streams are open for an address or a game."""
        key = self.keys.address_streams(address) if address is not None else self.keys.game_streams(str(game_id))
        return int(self.redis.zcount(key, _now_ms(), "+inf"))

    def closed(self) -> None:
        with self._lock:
            self.open_here -= 1

    def _take(self, key: str, cap: int, member: str) -> bool:
        now = _now_ms()
        return bool(self._acquire(keys=[key], args=[now, cap, now + STREAM_SLOT_TTL_MS, member, STREAM_SLOT_TTL_MS]))


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
