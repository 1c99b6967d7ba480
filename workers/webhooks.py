"""Turn requests to webhook bots, signed as the Standard Webhooks spec says.

The worker POSTs the seat's view, its legal moves (when there are not too
many), the turn's deadline and the seat's token. The bot answers 200 with
``{"move": ...}``, or 202 and moves later through the API with that token.
A connection error, a 5xx or a 429 is retried with exponential backoff and
jitter until the deadline; a 410 disables the endpoint. Redirects are not
followed (a 3xx is a failed attempt). An address the webhook policy refuses
(see :mod:`service.webhook_policy`) is never connected to: the attempt is
logged as ``refused`` and not retried. Every attempt is logged for the game's
creator. The ``webhook-id`` of a turn is the same on every retry, so a bot can
drop duplicates.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import random
import time
from typing import Any

import requests
from standardwebhooks.webhooks import Webhook

from domain.contract import RuleError
from domain.table.record import Record
from domain.table.seats import BotSeat, registered
from service import json_guard
from service.accounts import publish
from service.games import GameService, ServiceError, StaleVersion
from service.turns import turn_deadline, turn_id, turn_request
from service.webhook_policy import UnsafeWebhookURL
from workers import guarded_http

BACKOFF_BASE_S = 0.5
BACKOFF_CAP_S = 60.0
CONNECT_TIMEOUT_S = 2.0
"""A bot that does not accept a connection in this long is not there; the attempt is retried later."""
READ_TIMEOUT_S = 10.0
"""The longest wait for an answer (also capped by the turn's deadline)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Delivery:
    """What became of one attempt: a status word, and when to try again, if ever."""

    status: str
    retry_in: float | None = None


def backoff(attempt: int) -> float:
    """Exponential backoff with full jitter."""
    return random.uniform(0, min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2 ** (attempt - 1))) + 0.1


def deliver(service: GameService, game_id: str, seat: int, version: int, attempt: int) -> Delivery:
    """Make one delivery attempt of ``seat``'s turn at ``version`` and log it."""
    record = service.head(game_id)
    if record.version != version or seat not in record.to_act():
        return Delivery("stale")
    store = service.store
    endpoint = _endpoint(service, record, seat)
    if endpoint is None:
        return Delivery("not_a_webhook")
    url, secret = endpoint
    if secret is None:
        return Delivery("disabled")
    deadline_ms = turn_deadline(service, record)
    body = json.dumps(turn_request(service, record, seat))
    msg_id = turn_id(game_id, seat, version)
    if publish(service, record, seat, body):
        store.log_delivery(game_id, _attempt(msg_id, attempt, seat, version, url, None, 0, None, "streamed"))
        return Delivery("streamed")
    status_code, latency_ms, error, response = _post(service, url, secret, msg_id, body, deadline_ms)
    if error is not None and error.startswith("refused "):
        store.log_delivery(game_id, _attempt(msg_id, attempt, seat, version, url, None, 0, error, "refused"))
        return Delivery("refused")

    outcome, retry_after = _judge(service, game_id, seat, version, response)
    if outcome.startswith("error:"):
        error, outcome = outcome[len("error: ") :], "retry"
    if outcome == "retry" and error is None and status_code is not None:
        error = f"HTTP {status_code}" + (": redirects are not followed" if 300 <= status_code < 400 else "")
    if outcome == "disabled" and store.endpoint_secret(url) == secret:
        store.disable_endpoint(url, f"410 Gone from game {game_id} at version {version}")
    retry_in = None
    if outcome == "retry":
        retry_in = retry_after if retry_after is not None else backoff(attempt)
        if time.time() * 1000 + retry_in * 1000 > deadline_ms:
            outcome, retry_in = "gave_up", None
    store.log_delivery(game_id, _attempt(msg_id, attempt, seat, version, url, status_code, latency_ms, error, outcome))
    return Delivery(outcome, retry_in)


def deliver_challenge(service: GameService, game_id: str, seat: int, attempt: int) -> Delivery:
    """Make one attempt to POST a challenge to a registered webhook bot, signed with its own secret.

    The bot may answer 200 with ``{"accept": true}`` or ``{"accept": false}``; any other 2xx leaves it to
    answer through the API before the challenge expires. Failures are retried with backoff until then.
    """
    from service.accounts import challenge_event
    from service.games import ServiceError, challenge_id

    record = service.head(game_id)
    if seat not in record.challenged or record.cancelled is not None:
        return Delivery("answered")
    url, secret = _endpoint(service, record, seat) or ("", None)
    if secret is None:
        return Delivery("not_a_webhook")
    expires = service.challenge_expiry(record)
    msg_id = challenge_id(game_id, seat)
    body = json.dumps(challenge_event(service, record, seat))
    status_code, latency_ms, error, response = _post(service, url, secret, msg_id, body, expires)
    outcome = "refused" if error is not None and error.startswith("refused ") else "delivered"
    if outcome == "delivered":
        if response is None or response.status_code >= 300:
            outcome = "retry"
            error = error or f"HTTP {status_code}"
        elif response.status_code == 200 and response.content:
            try:
                answer = json_guard.loads(response.content).get("accept")
                if isinstance(answer, bool):
                    bot_id = registered(record.created.seats)[seat]
                    service.answer_challenge(msg_id, bot_id, accept=answer)
                    outcome = "accepted" if answer else "declined"
            except (ServiceError, AttributeError) as refused:
                error = f"the answer was not taken: {refused}"
    retry_in = None
    if outcome == "retry":
        retry_in = backoff(attempt)
        if time.time() * 1000 + retry_in * 1000 > expires:
            outcome, retry_in = "gave_up", None
    version = record.version
    store = service.store
    store.log_delivery(game_id, _attempt(msg_id, attempt, seat, version, url, status_code, latency_ms, error, outcome))
    return Delivery(outcome, retry_in)


def _endpoint(service: GameService, record: Record, seat: int) -> tuple[str, str | None] | None:
    """Where a webhook seat's requests go and the secret that signs them (None once disabled); None for a seat
    that takes no webhooks. A registered bot signs with its registration's own secret."""
    bot = BotSeat.from_public(record.created.seats[seat]["bot"])
    if bot is not None and bot.bot_id is not None:
        fields = service.store.bot(bot.bot_id) or {}
        if not fields.get("webhook"):
            return None
        return fields["webhook"], fields.get("webhook_secret") or None
    if bot is None or bot.webhook is None:
        return None
    secret = service.store.endpoint_secret(bot.webhook)
    if secret is None or service.store.endpoint_disabled(bot.webhook):
        return bot.webhook, None
    return bot.webhook, secret


def _post(
    service: GameService, url: str, secret: str, msg_id: str, body: str, deadline_ms: int
) -> tuple[int | None, int, str | None, requests.Response | None]:
    """POST one signed request: ``(status, latency_ms, error, response)``; an error starting ``refused `` means
    the webhook policy refused the address and nothing was connected to."""
    now = datetime.datetime.now(tz=datetime.UTC)
    headers = {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": Webhook(secret).sign(msg_id, now, body),
        "content-type": "application/json",
        "user-agent": "Orrery-Webhooks/1",
    }
    remaining_s = max(0.5, (deadline_ms - time.time() * 1000) / 1000)
    started = time.perf_counter()
    try:
        service.webhook_policy.check_url(url, resolve=False)
        with guarded_http.session(service.webhook_policy) as http:
            response = http.post(
                url,
                data=body,
                headers=headers,
                timeout=(CONNECT_TIMEOUT_S, min(READ_TIMEOUT_S, remaining_s)),
                allow_redirects=False,
            )
    except UnsafeWebhookURL as refused:
        return None, 0, f"refused by the server's webhook policy, not connected: {refused}", None
    except requests.RequestException as failure:
        return None, round((time.perf_counter() - started) * 1000), f"{type(failure).__name__}: {failure}", None
    return response.status_code, round((time.perf_counter() - started) * 1000), None, response


def _attempt(
    msg_id: str,
    attempt: int,
    seat: int,
    version: int,
    url: str,
    status: int | None,
    latency_ms: int,
    error: str | None,
    outcome: str,
) -> dict[str, Any]:
    return {
        "webhook_id": msg_id,
        "attempt": attempt,
        "seat": seat,
        "version": version,
        "at": time.time_ns() // 1_000_000,
        "url": url,
        "status": status,
        "latency_ms": latency_ms,
        "error": error,
        "outcome": outcome,
    }


def _judge(
    service: GameService, game_id: str, seat: int, version: int, response: requests.Response | None
) -> tuple[str, float | None]:
    """``(outcome, retry_after_s)`` for a response; outcomes: moved, accepted, disabled, retry, stale, error: <why>."""
    if response is None:
        return "retry", None
    code = response.status_code
    if code == 410:
        return "disabled", None
    if code == 202:
        return "accepted", None
    if code == 429:
        return "retry", _retry_after(response)
    if code != 200:
        return "retry", None
    try:
        move = json_guard.loads(response.content)["move"]
    except ServiceError as refused:
        return f"error: the 200 response's body was refused: {refused}", None
    except (KeyError, TypeError):
        return "error: the 200 response had no JSON body with a 'move'", None
    try:
        service.submit_for_server(game_id, seat, move, command=f"webhook:{seat}:{version}", expected_version=version)
    except StaleVersion:
        return "stale", None
    except RuleError as rejected:
        return f"error: the bot's move was rejected ({rejected.code}): {rejected}", None
    return "moved", None


def _retry_after(response: requests.Response) -> float | None:
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        return min(BACKOFF_CAP_S, max(0.0, float(value)))
    except ValueError:
        return None
