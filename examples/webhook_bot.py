"""A complete Orrery bot that plays a random legal move, for any game the server hosts.

Copy it and replace ``choose`` (and ``wants``, to pick your games) with something clever. It runs in
one of four ways:

1. **Webhook, answer at once** (the default). Create a game with a seat
   ``{"name": "Randy", "bot": {"webhook": "http://127.0.0.1:8765/turn"}}``; the response
   gives that endpoint's ``webhook_secret`` once. Start the bot with it::

       python examples/webhook_bot.py --port 8765 --secret whsec_...

   Each request is checked against its Standard Webhooks signature. A turn request gets
   ``200 {"move": ...}``. A challenge (sent to a bot registered with a webhook, signed with its
   registration's own secret) gets ``200 {"accept": true}``.

2. **Webhook, answer later** (``--reply-later``). The bot answers ``202`` at once, then POSTs
   its move to the turn request's ``moves_url`` with the seat token the request carries, as a
   bot that thinks for a long time would.

3. **Pull** (``--pull API_URL --token TOKEN``). For a seat ``{"bot": {"stream": true}}``: no
   server of its own, no secret. The creator gets the seat's token in the creation response;
   the bot reads its turn requests from ``GET /v1/bots/stream`` and POSTs its moves, until the
   game is over::

       python examples/webhook_bot.py --pull http://127.0.0.1:8000 --token ...

4. **Account** (``--account API_URL --key API_KEY``, or the key in ``ORRERY_BOT_KEY``). For a bot
   registered with ``POST /v1/bots`` and ``"stream": true``: one stream, ``GET /v1/bots/me/events``,
   carries everything for all its games. The bot accepts each challenge ``wants`` likes (POST to its
   ``accept_url``), plays each turn through ``moves_url`` with the turn's token, and logs each game's
   start and finish. When the connection drops it connects again, with a growing pause, and resumes
   after the last event it handled (``?after=<cursor>``), so nothing is lost. It runs until Ctrl-C,
   or until ``--games N`` games have finished. It exits at once, with status 1, when another stream
   opens with the same key (the server then closes this one): two copies of one bot must not both play::

       python examples/webhook_bot.py --account http://127.0.0.1:8000 --key ...

A turn request is JSON with (among others) ``game_id``, ``game``, ``seat``, ``version``,
``view`` (the seat's own view of the state), ``token``, ``legal_moves`` (null when there are more
than 500, with ``legal_moves_truncated`` true: then read them from ``legal_moves_url``),
``moves_url``, ``legal_moves_url`` and ``api_url`` (absolute URLs of the API). Moves are sent
exactly as the server lists them.

Turn requests that were sent before the bot was listening are retried by the server, so a
game simply waits for its bot. The bot needs the standard library, ``standardwebhooks`` and
``requests``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import requests
from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def log(message: str) -> None:
    print(f"webhook_bot: {message}", file=sys.stderr, flush=True)


def bearer(turn: dict[str, Any]) -> dict[str, str]:
    """The seat's token as an Authorization header: the turn request carries it."""
    return {"Authorization": f"Bearer {turn['token']}"}


def legal_moves(turn: dict[str, Any]) -> list[Any]:
    """The seat's legal moves: in the turn request, or from ``legal_moves_url`` when there were too many."""
    if not turn["legal_moves_truncated"]:
        return list(turn["legal_moves"])
    response = requests.get(turn["legal_moves_url"], headers=bearer(turn), timeout=30)
    response.raise_for_status()
    return list(response.json()["moves"])


def choose(turn: dict[str, Any], rng: random.Random) -> Any:
    """This bot's brain: a random legal move. ``turn["view"]`` is the state as this seat sees it."""
    return rng.choice(legal_moves(turn))


def wants(challenge: dict[str, Any]) -> bool:
    """This bot's taste in challenges: it accepts every one. ``challenge`` names the ``game``, ``seats``,
    ``options`` and whether it is ``rated``; the server only challenges a bot to games it registered for."""
    return True


def post_until(url: str, deadline_ms: float, headers: dict[str, str], body: Any = None) -> requests.Response | None:
    """POST until the API gives an answer that is not a 429 or a 5xx; None if the deadline passes first.

    A 429 waits ``Retry-After`` seconds; a 5xx or a lost connection waits a little longer each time.
    """
    delay = 0.5
    while time.time() * 1000 < deadline_ms:
        try:
            response = requests.post(url, json=body, headers=headers, timeout=30)
        except requests.RequestException as error:
            log(f"could not reach the API ({error}); trying again")
        else:
            if response.status_code != 429 and response.status_code < 500:
                return response
            delay = float(response.headers.get("Retry-After", delay))
            log(f"the API answered {response.status_code}; trying again in {delay:g} s")
        time.sleep(delay)
        delay = min(delay * 2, 30.0)
    return None


def send_move(turn: dict[str, Any], move: Any) -> None:
    """POST a move to ``moves_url`` with the seat's token (after a 202, or when pulling).

    Failures that may pass are tried again until the turn's deadline (see :func:`post_until`); the
    Idempotency-Key makes a repeat harmless.
    """
    body = {"move": move, "expected_version": turn["version"]}
    headers = bearer(turn) | {"Idempotency-Key": turn["id"]}
    response = post_until(turn["moves_url"], turn["deadline"], headers, body)
    if response is None or response.status_code == 201:
        return
    if response.status_code == 409:
        log(f"the game moved on past version {turn['version']}; a new turn request follows")
    else:
        log(f"move refused: {response.status_code} {response.text}")


def play_later(turn: dict[str, Any], rng: random.Random) -> None:
    """Choose a move and send it through the API; a failure is logged."""
    try:
        send_move(turn, choose(turn, rng))
    except requests.RequestException as error:
        log(f"could not read the legal moves: {error}")


def make_handler(webhook: Webhook, rng: random.Random, later: bool) -> type[BaseHTTPRequestHandler]:
    """The HTTP handler of a webhook bot: verify the signature, then answer 200 with a move or 202."""
    seen: set[str] = set()
    lock = threading.Lock()

    class TurnHandler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                turn = webhook.verify(body, {k.lower(): v for k, v in self.headers.items()})
            except WebhookVerificationError as error:
                self.answer(401, {"error": f"bad signature: {error}"})
                return
            if turn.get("type") == "challenge":
                self.answer(200, {"accept": wants(turn["challenge"])})
                return
            if turn.get("type") != "turn":
                self.answer(204, None)
                return
            if later:
                with lock:
                    first_time = turn["id"] not in seen
                    seen.add(turn["id"])
                self.answer(202, {"accepted": True})
                if first_time:
                    threading.Thread(target=play_later, args=(turn, rng), daemon=True).start()
                return
            try:
                move = choose(turn, rng)
            except requests.RequestException as error:
                self.answer(503, {"error": f"could not read the legal moves: {error}"})
                return
            self.answer(200, {"move": move})

        def answer(self, status: int, body: dict[str, Any] | None) -> None:
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            log(format % args)

    return TurnHandler


def pull(api_url: str, token: str, rng: random.Random) -> int:
    """Play a stream seat's turns from ``GET /v1/bots/stream`` until the game is over; the exit status."""
    url = f"{api_url.rstrip('/')}/v1/bots/stream?heartbeat=2"
    while True:
        try:
            with requests.get(url, headers={"Authorization": f"Bearer {token}"}, stream=True, timeout=(5, 60)) as r:
                if r.status_code != 200:
                    log(f"the stream refused: {r.status_code} {r.text}")
                    return 1
                for line in r.iter_lines():
                    if not line:
                        continue
                    message = json.loads(line)
                    if message["type"] == "turn":
                        play_later(message, rng)
                    elif message["type"] == "game_over":
                        log(f"game {message['game_id']} is over")
                        return 0
                    elif message["type"] == "closed":
                        log(f"stream closed: {message['reason']}")
                        return 1
        except requests.RequestException as error:
            log(f"stream interrupted ({error}); reconnecting")
            time.sleep(1)


def answer_challenge(challenge: dict[str, Any], key: str) -> None:
    """Accept the challenge if :func:`wants` it, else decline it, through the API with the bot's key."""
    accept = wants(challenge)
    verb, done = ("accept", "accepted") if accept else ("decline", "declined")
    headers = {"Authorization": f"Bearer {key}"}
    response = post_until(challenge[f"{verb}_url"], challenge["expires_at"], headers)
    about = f"the {challenge['game']} challenge {challenge['id']}"
    if response is None:
        log(f"could not {verb} {about} before it expired")
    elif response.status_code == 200:
        log(f"{done} {about}")
    else:
        log(f"could not {verb} {about}: {response.status_code} {response.text}")


def outcome(game: dict[str, Any]) -> str:
    """How a ``gameFinish`` event's game ended for this bot, in a few words."""
    if game["status"] == "cancelled":
        return f"cancelled ({game['reason']}), not rated"
    result = game["result"] or {}
    said = "a draw" if result.get("draw") else "won" if game["seat"] in result.get("winners", []) else "lost"
    rating = game.get("rating")
    if rating is None:
        return said
    before, after = rating["before"]["mu"] / 1000, rating["after"]["mu"] / 1000
    return f"{said}; rated: mu {before:.2f} -> {after:.2f}, sigma {rating['after']['sigma'] / 1000:.2f}"


def account(api_url: str, key: str, rng: random.Random, games: int | None = None) -> int:
    """Play a registered bot's games from ``GET /v1/bots/me/events``: until interrupted, or until ``games``
    games have finished; the exit status. A dropped connection resumes after the last event handled."""
    base = f"{api_url.rstrip('/')}/v1/bots/me/events?heartbeat=10"
    headers = {"Authorization": f"Bearer {key}"}
    cursor: str | None = None
    finished: set[str] = set()
    delay = 1.0
    while True:
        url = base if cursor is None else f"{base}&after={cursor}"
        try:
            with requests.get(url, headers=headers, stream=True, timeout=(5, 30)) as r:
                if r.status_code == 429 or r.status_code >= 500:
                    delay = float(r.headers.get("Retry-After", delay))
                    log(f"the API answered {r.status_code}")
                elif r.status_code != 200:
                    log(f"the stream refused: {r.status_code} {r.text}")
                    return 1
                else:
                    log("connected" if cursor is None else f"connected again, after {cursor}")
                    delay = 1.0
                    for line in r.iter_lines():
                        if not line:
                            continue
                        message = json.loads(line)
                        kind = message["type"]
                        if kind == "challenge":
                            answer_challenge(message["challenge"], key)
                        elif kind == "turn":
                            play_later(message, rng)
                        elif kind == "gameStart":
                            game = message["game"]
                            log(f"{game['game']} game {game['id']} started; this bot has seat {game['seat']}")
                        elif kind == "gameFinish":
                            game = message["game"]
                            log(f"{game['game']} game {game['id']} is over: {outcome(game)}")
                            finished.add(game["id"])
                        elif kind == "resync":
                            log(f"resync: {message['reason']}; starting again from what is open now")
                        elif kind == "closed":
                            log(f"stream closed: {message['reason']}; is another copy of this bot running?")
                            return 1
                        cursor = message.get("cursor", cursor)
                        if games is not None and len(finished) >= games:
                            return 0
                    log("the stream ended")
        except requests.ConnectionError:
            log("cannot reach the API, or it went silent")
        except requests.RequestException as error:
            log(f"the stream broke: {error}")
        log(f"connecting again in {delay:g} s")
        time.sleep(delay)
        delay = min(delay * 2, 30.0)


def main() -> int:
    parser = argparse.ArgumentParser(description="A random-move bot for Orrery: webhook (push) or stream (pull).")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (webhook modes)")
    parser.add_argument("--port", type=int, default=8765, help="the port to listen on (webhook modes)")
    parser.add_argument(
        "--secret", default=os.environ.get("ORRERY_WEBHOOK_SECRET"), help="the endpoint's whsec_ secret"
    )
    parser.add_argument("--reply-later", action="store_true", help="answer 202 and move through the API")
    parser.add_argument("--pull", metavar="API_URL", help="pull turns from API_URL/v1/bots/stream instead")
    parser.add_argument("--token", default=os.environ.get("ORRERY_SEAT_TOKEN"), help="the seat's token, for --pull")
    parser.add_argument("--account", metavar="API_URL", help="play a registered bot's games from its event stream")
    parser.add_argument("--key", default=os.environ.get("ORRERY_BOT_KEY"), help="the bot's API key, for --account")
    parser.add_argument("--games", type=int, metavar="N", help="with --account: stop once N games have finished")
    parser.add_argument("--seed", type=int, default=None, help="seed the random choices")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.account:
        if not args.key:
            parser.error("--account needs the bot's API key: --key or ORRERY_BOT_KEY")
        with contextlib.suppress(KeyboardInterrupt):
            return account(args.account, args.key, rng, args.games)
        return 0
    if args.pull:
        if not args.token:
            parser.error("--pull needs the seat's token: --token or ORRERY_SEAT_TOKEN")
        with contextlib.suppress(KeyboardInterrupt):
            return pull(args.pull, args.token, rng)
        return 0
    if not args.secret:
        parser.error("give the endpoint's secret with --secret or ORRERY_WEBHOOK_SECRET")
    server = ThreadingHTTPServer((args.host, args.port), make_handler(Webhook(args.secret), rng, args.reply_later))
    log(f"listening on http://{args.host}:{args.port}/ ({'202, then the API' if args.reply_later else '200'})")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
