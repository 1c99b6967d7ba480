"""A complete Orrery bot that plays a random legal move, for any game the server hosts.

Copy it and replace ``choose`` with something clever. It runs in one of three ways:

1. **Webhook, answer at once** (the default). Create a game with a seat
   ``{"name": "Randy", "bot": {"webhook": "http://127.0.0.1:8765/turn"}}``; the response
   gives that endpoint's ``webhook_secret`` once. Start the bot with it::

       python examples/webhook_bot.py --port 8765 --secret whsec_...

   Each turn request is checked against its Standard Webhooks signature, and the bot
   answers ``200 {"move": ...}``.

2. **Webhook, answer later** (``--reply-later``). The bot answers ``202`` at once, then POSTs
   its move to the turn request's ``moves_url`` with the seat token the request carries, as a
   bot that thinks for a long time would.

3. **Pull** (``--pull API_URL --token TOKEN``). For a seat ``{"bot": {"stream": true}}``: no
   server of its own, no secret. The creator gets the seat's token in the creation response;
   the bot reads its turn requests from ``GET /v1/bots/stream`` and POSTs its moves, until the
   game is over::

       python examples/webhook_bot.py --pull http://127.0.0.1:8000 --token ...

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


def send_move(turn: dict[str, Any], move: Any) -> None:
    """POST a move to ``moves_url`` with the seat's token (after a 202, or when pulling).

    A 429 (too many moves: wait ``Retry-After`` seconds), a 5xx or a lost connection is tried
    again until the turn's deadline; the Idempotency-Key makes a repeat harmless.
    """
    delay = 0.5
    while time.time() * 1000 < turn["deadline"]:
        try:
            response = requests.post(
                turn["moves_url"],
                json={"move": move, "expected_version": turn["version"]},
                headers=bearer(turn) | {"Idempotency-Key": turn["id"]},
                timeout=30,
            )
        except requests.RequestException as error:
            log(f"could not reach the API ({error}); trying again")
        else:
            if response.status_code == 201:
                return
            if response.status_code == 409:
                log(f"the game moved on past version {turn['version']}; a new turn request follows")
                return
            if response.status_code != 429 and response.status_code < 500:
                log(f"move refused: {response.status_code} {response.text}")
                return
            delay = float(response.headers.get("Retry-After", delay))
            log(f"the API answered {response.status_code}; trying again in {delay:g} s")
        time.sleep(delay)
        delay = min(delay * 2, 30.0)


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
    parser.add_argument("--seed", type=int, default=None, help="seed the random choices")
    args = parser.parse_args()
    rng = random.Random(args.seed)
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
