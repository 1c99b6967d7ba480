"""Locust users that play Orrery over HTTP: the load that ``benchmarks/load_test.py`` runs.

Each user picks one API server from ``ORRERY_LOAD_HOSTS`` (comma-separated URLs, handed out
round-robin; Locust's ``--host`` when unset) and plays whole games, one after another, with no
think time: tic-tac-toe and Homeworlds between two human seats it holds both tokens of, and
against a built-in random bot, whose turns the Celery workers play. Every turn reads the legal
moves, posts one of them and reads the game back.

The stats name each request by what it does, not by its URL:

* ``create``: ``POST /v1/games``;
* ``move``: ``POST /v1/games/{id}/moves``;
* ``legal-moves``: ``GET /v1/games/{id}/legal-moves``;
* ``read``: ``GET /v1/games/{id}`` (a poll while a bot thinks sends ``If-None-Match`` and may get 304);
* ``bot-turn`` (type ``BOT``): from a human's move to the human's turn again, across a bot's reply.

A 409 (the game moved on since the version the client read) is an expected outcome and counts as
a success; any other 4xx, any 5xx and any transport error is a failure. The server must host the
test game (``ORRERY_GAMES=tests.support.tictactoe:GAME``) and lift the rate limits, which one
client address would reach at once::

    locust -f benchmarks/locustfile.py --headless -u 10 -r 5 --run-time 30s --host http://127.0.0.1:8000
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import random
import time
import uuid
from typing import Any

from locust import FastHttpUser, constant, task

MAX_TURNS = 200
"""Turns a user plays in one game before it leaves the game and starts another."""

BOT_TIMEOUT_S = 30.0
"""How long a user waits for a bot's reply before it counts a failure and starts another game."""

POLL_S = 0.02
"""The pause between two reads while a bot thinks."""

LEGAL_MOVES_LIMIT = 200
"""How many legal moves a user asks for; Homeworlds' set-up turn alone has more than 900."""

CALM_VERBS = ("homeworld", "build", "trade", "move", "pass", "attack")
"""Homeworlds moves a user prefers, so that random play lasts a few dozen turns instead of three."""

RANDOM_BOT = {"builtin": "random", "think_ms": 1}

_hosts_handed_out = itertools.count()


def hosts(default: str | None) -> list[str]:
    """The API servers to spread users over: ``ORRERY_LOAD_HOSTS``, else ``default`` (``--host``)."""
    listed = [h.strip().rstrip("/") for h in os.environ.get("ORRERY_LOAD_HOSTS", "").split(",") if h.strip()]
    return listed or ([default.rstrip("/")] if default else [])


@dataclasses.dataclass(slots=True)
class Table:
    """What a user knows of the game it plays: its seats' tokens and the game as last read."""

    game_id: str
    tokens: dict[int, str]
    version: int
    to_act: list[int]
    status: str = "active"

    @property
    def over(self) -> bool:
        return self.status == "finished" or not self.to_act

    def seat_to_play(self) -> int | None:
        """One of this user's seats that must act now, if any."""
        return next((seat for seat in self.to_act if seat in self.tokens), None)

    def update(self, game: dict[str, Any]) -> None:
        self.version = game["version"]
        self.to_act = list(game["to_act"])
        self.status = game["status"]


def choose(game: str, moves: list[Any]) -> Any:
    """A random legal move; in Homeworlds one that does not throw the game away at once, when there is one."""
    if game == "homeworlds":
        calm = [m for m in moves if isinstance(m, str) and m.split(" ", 1)[0] in CALM_VERBS]
        moves = calm or moves
    return random.choice(moves)


class Conflict(Exception):
    """A 409: the game moved on since the version the client read."""


class Player(FastHttpUser):
    """One client playing games back to back, as fast as the server answers (a closed loop)."""

    wait_time = constant(0)
    base: str = ""

    def on_start(self) -> None:
        chosen = hosts(self.host)
        self.base = chosen[next(_hosts_handed_out) % len(chosen)]

    @task(3)
    def tictactoe_between_humans(self) -> None:
        self.play("tictactoe", against_bot=False)

    @task(3)
    def homeworlds_between_humans(self) -> None:
        self.play("homeworlds", against_bot=False)

    @task(2)
    def tictactoe_against_a_bot(self) -> None:
        self.play("tictactoe", against_bot=True)

    @task(1)
    def homeworlds_against_a_bot(self) -> None:
        self.play("homeworlds", against_bot=True)

    def play(self, game: str, *, against_bot: bool) -> None:
        """Create a game of ``game`` and play this user's seats until it ends or :data:`MAX_TURNS` pass."""
        rival: dict[str, Any] = {"name": "bot", "bot": RANDOM_BOT} if against_bot else {"name": "bob"}
        seats = [{"name": "ada"}, rival]
        try:
            created = self.call("POST", "/v1/games", "create", {201}, body={"game": game, "seats": seats})
        except Conflict:
            return
        if created is None:
            return
        table = Table(
            game_id=created["id"],
            tokens={s["index"]: s["token"] for s in created["seats"] if s.get("token")},
            version=created["version"],
            to_act=list(created["to_act"]),
        )
        stale = False
        for _ in range(MAX_TURNS):
            try:
                if stale and not self.read(table):
                    return
                stale = False
                if table.over:
                    return
                seat = table.seat_to_play()
                if seat is None:
                    if not self.await_turn(table, time.perf_counter()):
                        return
                    continue
                moved = self.take_turn(game, table, seat)
                if moved is None or not self.read(table):
                    return
                if against_bot and not table.over and not self.await_turn(table, moved):
                    return
            except Conflict:
                stale = True

    def take_turn(self, game: str, table: Table, seat: int) -> float | None:
        """Read ``seat``'s legal moves and post one; the ``perf_counter`` reading when the move was
        answered, or None when the game cannot go on."""
        token = table.tokens[seat]
        path = f"/v1/games/{table.game_id}"
        legal = self.call("GET", f"{path}/legal-moves?limit={LEGAL_MOVES_LIMIT}", "legal-moves", {200}, token=token)
        if legal is None or not legal["moves"]:
            return None
        body = {"move": choose(game, legal["moves"]), "expected_version": legal["version"]}
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        result = self.call("POST", f"{path}/moves", "move", {201}, token=token, body=body, headers=headers)
        if result is None:
            return None
        return time.perf_counter()

    def read(self, table: Table, etag: str | None = None) -> bool:
        """Read the game into ``table``; False when the read failed."""
        headers = {"If-None-Match": etag} if etag else None
        game = self.call("GET", f"/v1/games/{table.game_id}", "read", {200, 304}, headers=headers)
        if game is None:
            return False
        if game:
            table.update(game)
        return True

    def await_turn(self, table: Table, since: float) -> bool:
        """Poll the game until one of this user's seats must act or it ends, and report the wait as ``bot-turn``."""
        deadline = since + BOT_TIMEOUT_S
        while table.seat_to_play() is None and not table.over:
            if time.perf_counter() > deadline:
                self.report_bot_turn(since, TimeoutError(f"no bot reply within {BOT_TIMEOUT_S:.0f} s"))
                return False
            time.sleep(POLL_S)
            if not self.read(table, etag=f'"{table.version}"'):
                return False
        self.report_bot_turn(since, None)
        return True

    def report_bot_turn(self, since: float, error: Exception | None) -> None:
        self.environment.events.request.fire(
            request_type="BOT",
            name="bot-turn",
            response_time=(time.perf_counter() - since) * 1000,
            response_length=0,
            exception=error,
            context={},
        )

    def call(
        self,
        method: str,
        path: str,
        name: str,
        ok: set[int],
        *,
        token: str | None = None,
        body: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any] | None:
        """Send one request named ``name`` in the stats; its JSON body on a status in ``ok`` (``{}`` for a 304).

        A 409 is a success in the stats and raises :class:`Conflict`: the caller reads the game again.
        Any other status is a failure and returns None.
        """
        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        with self.client.request(
            method, f"{self.base}{path}", name=name, json=body, headers=sent, catch_response=True
        ) as response:
            status = response.status_code
            if status in ok:
                response.success()
                return {} if status == 304 else response.json()
            if status == 409:
                response.success()
                raise Conflict(path)
            response.failure(f"{status}: {(response.text or '')[:200]}")
            return None
