"""A complete webhook bot for Orrery: it verifies every turn request's signature
and plays a random legal move.

Run it, then create a game with a seat ``{"name": "Randy", "bot": {"webhook":
"http://127.0.0.1:8765/turn"}}``. The response gives that endpoint's secret
once; start (or restart) the bot with it:

    python examples/webhook_bot.py --port 8765 --secret whsec_...

Turn requests that were sent before the bot knew its secret are retried by
the server, so the game simply waits for it.

By default the bot answers each turn with ``200 {"move": ...}``. With
``--reply-later`` it answers ``202`` at once and then POSTs its move to the
API with the seat token that the turn request carries, as a bot that thinks
for a long time would.

It needs only the standard library, ``standardwebhooks`` and ``requests``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import requests
from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def choose(turn: dict[str, Any], rng: random.Random) -> Any:
    """A random legal move from the turn request."""
    moves = turn.get("legal_moves")
    if not moves:
        raise ValueError("this bot needs the legal moves in the turn request")
    return rng.choice(moves)


def reply_later(turn: dict[str, Any], api: str, rng: random.Random) -> None:
    """Move through the API with the seat's token, as after a 202."""
    url = turn.get("moves_url") or f"{api.rstrip('/')}/v1/games/{turn['game_id']}/moves"
    response = requests.post(
        url,
        json={"move": choose(turn, rng), "expected_version": turn["version"]},
        headers={"Authorization": f"Bearer {turn['token']}", "Idempotency-Key": f"turn-{turn['version']}"},
        timeout=10,
    )
    if response.status_code != 201:
        print(f"webhook_bot: move refused: {response.status_code} {response.text}", file=sys.stderr, flush=True)


def make_handler(webhook: Webhook, rng: random.Random, later: bool, api: str) -> type[BaseHTTPRequestHandler]:
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
            with lock:
                duplicate = self.headers["webhook-id"] in seen
                seen.add(self.headers["webhook-id"])
            if later:
                self.answer(202, {"accepted": True})
                if not duplicate:
                    threading.Thread(target=reply_later, args=(turn, api, rng), daemon=True).start()
                return
            self.answer(200, {"move": choose(turn, rng)})

        def answer(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            print(f"webhook_bot: {format % args}", file=sys.stderr, flush=True)

    return TurnHandler


def main() -> None:
    parser = argparse.ArgumentParser(description="A random-move webhook bot for Orrery.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--secret", default=os.environ.get("ORRERY_WEBHOOK_SECRET"), help="the endpoint's whsec_ secret"
    )
    parser.add_argument("--reply-later", action="store_true", help="answer 202 and move through the API")
    parser.add_argument("--api", default="http://127.0.0.1:8000", help="the API, for --reply-later")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    if not args.secret:
        parser.error("give the endpoint's secret with --secret or ORRERY_WEBHOOK_SECRET")
    handler = make_handler(Webhook(args.secret), random.Random(args.seed), args.reply_later, args.api)
    server = ThreadingHTTPServer((args.host, args.port), handler)
    print(f"webhook_bot: listening on http://{args.host}:{args.port}/", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


if __name__ == "__main__":
    main()
