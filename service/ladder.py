"""The ladder: rated two-seat games between the bots that opted in, paired by rating.

Who plays: every bot registered with ``"ladder": true`` that plays the game kind, and the built-in
bots, registered at start-up as reference players (``builtin-<name>``) so that a new bot always has
someone to play. A registered bot whose auto-accept policy covers the game kind and who plays as many
games as its ``max_concurrent`` sits the round out. Every ladder game has two seats, Planet Unknown's
too (it is played by one to six).

The pairing rule (:func:`pairings`), one round at a time:

1. Players choose in order: fewest rated games of the kind first (a brand-new bot chooses first), then
   the higher rating (the ordinal, ``mu - 3 sigma``; an unrated player has the default's), then the id.
2. A chooser takes the nearest-rated opponent it may play (ties: fewer games, then the id), where it
   may play any other player unless the two have a running game already, the opponent is a registered
   bot that has a new game this round already, or both are reference players (they meet only when the
   round says ``references_meet``, as ``orrery ladder`` does).
3. A registered bot gets at most one new game per round; a reference player has no such limit, so
   however busy its registered neighbours are, a new bot is paired with the nearest reference player
   it has no running game with.

At most one running game per pair and game kind: a round claims the pair in the store
(:meth:`events.store.RedisStore.swap_ladder_pair`, compare-and-set, ``pending:<ms>``) before it creates
the game and records the game's id after, so two rounds that overlap never start the same pair twice.
An entry whose game is closed (over or cancelled), or a claim older than :data:`PENDING_TTL_MS` left by a
round that died, is free again. Each pair alternates its first seat from one game to the next; its first
game's order is a seeded choice from the pair's names.

In production Celery beat runs :func:`workers.tasks.ladder_round` every ``ORRERY_LADDER_INTERVAL_S``
when ``ORRERY_LADDER=on``; the workers then play and score the games like any other. :func:`run` plays
a ladder of built-in bots in this process instead (``orrery ladder``), through the same rounds and the
same scoring, and so the same ratings.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from domain import contract
from domain.table import seats as seats_module
from domain.table.record import ACTIVE, Record
from domain.table.seats import BUILTIN_PLAYER_PREFIX
from service.games import GameNotFound, GameService, SeatSpec, ServiceError
from service.ratings import PlayerRecord, Ratings, Result

log = logging.getLogger(__name__)

LADDER_THINK_MS = 200
"""A reference player's time budget per move in ladder games, unless ``ORRERY_LADDER_THINK_MS`` says otherwise."""
LADDER_CHALLENGE_TIMEOUT_S = 60
"""How long a registered bot has to accept a ladder challenge before the game is cancelled."""
LADDER_MOVE_DEADLINE_S = 300
"""How long each turn of a ladder game may take before its seat forfeits: a silent bot cannot hold a pair."""
PENDING = "pending:"
"""The prefix of a pair's entry while a round creates its game: ``pending:<ms since the epoch>``."""
PENDING_TTL_MS = 60_000
"""How long a pending claim holds its pair; an older one was left by a round that died."""
MAX_MOVES = 1000
"""The most moves :func:`play_out` plays before it leaves a game unfinished (Homeworlds has no move limit, and
two bots can go round in circles for ever)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Entrant:
    """A ladder player in one game kind, as the pairing sees it."""

    player: str
    """A registered bot's id, or ``builtin-<name>`` for a reference player."""
    ordinal: int
    """The rating the ladder pairs by: ``mu - 3 sigma``, in thousandths."""
    games: int = 0
    """How many rated games of the kind it played."""

    @property
    def reference(self) -> bool:
        """Whether this is a built-in reference player."""
        return self.player.startswith(BUILTIN_PLAYER_PREFIX)


def pair_key(a: str, b: str) -> str:
    """The name of a pair of players, the same whichever comes first.

    >>> pair_key("builtin-search", "builtin-random")
    'builtin-random|builtin-search'
    """
    return "|".join(sorted((a, b)))


def pairings(
    entrants: Sequence[Entrant], running: Collection[str], *, references_meet: bool = False
) -> list[tuple[str, str]]:
    """This round's pairs (chooser first), by the rule in this module's docstring; ``running`` holds the
    :func:`pair_key` of every pair that has a running game.

    >>> new = Entrant("bot_1", 0)
    >>> search, rnd = Entrant("builtin-search", 9000, 40), Entrant("builtin-random", -3000, 40)
    >>> pairings([search, rnd, new], running=())
    [('bot_1', 'builtin-random')]
    >>> pairings([search, rnd, new], running=(), references_meet=True)
    [('bot_1', 'builtin-random'), ('builtin-search', 'builtin-random')]
    """
    order = sorted(entrants, key=lambda e: (e.games, -e.ordinal, e.player))
    taken: set[str] = set()
    used = set(running)
    chosen: list[tuple[str, str]] = []
    for chooser in order:
        if chooser.player in taken or (chooser.reference and not references_meet):
            continue
        candidates = [
            other
            for other in order
            if other.player != chooser.player
            and other.player not in taken
            and pair_key(chooser.player, other.player) not in used
            and (references_meet or not (chooser.reference and other.reference))
        ]
        if not candidates:
            continue
        opponent = min(candidates, key=lambda o: (abs(o.ordinal - chooser.ordinal), o.games, o.player))
        chosen.append((chooser.player, opponent.player))
        used.add(pair_key(chooser.player, opponent.player))
        taken.update(p.player for p in (chooser, opponent) if not p.reference)
    return chosen


@dataclasses.dataclass(frozen=True, slots=True)
class Match:
    """A ladder game a round started: its kind, its players in seat order, and its id."""

    game: str
    players: tuple[str, str]
    game_id: str


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class Ladder:
    """The ladder over a game service: who plays each game kind, and the rounds that pair them.

    ``players`` limits it to those players (all ladder bots by default); ``references_meet`` lets two
    reference players be paired (see :func:`pairings`).
    """

    def __init__(
        self,
        service: GameService,
        *,
        think_ms: int = LADDER_THINK_MS,
        players: Collection[str] | None = None,
        references_meet: bool = False,
    ) -> None:
        self.service = service
        self.store = service.store
        self.think_ms = think_ms
        self.players = None if players is None else frozenset(players)
        self.references_meet = references_meet

    def entrants(self, game: str) -> list[Entrant]:
        """The players the ladder may pair in ``game`` now, with their ratings."""
        ids = []
        for bot_id in self.store.ladder_bots():
            if self.players is not None and bot_id not in self.players:
                continue
            fields = self.store.bot(bot_id)
            if fields is None or game not in json.loads(fields.get("games") or "[]"):
                continue
            if not fields.get("builtin") and self._at_limit(bot_id, game, fields):
                continue
            ids.append(bot_id)
        records = [PlayerRecord.from_json(raw) for raw in self.store.rating_records(game, ids)]
        return [Entrant(p, r.rating.ordinal, r.games) for p, r in zip(ids, records, strict=True)]

    def _at_limit(self, bot_id: str, game: str, fields: Mapping[str, str]) -> bool:
        """Whether a registered bot's auto-accept policy covers ``game`` and it plays its most games already."""
        policy = json.loads(fields["auto_accept"]) if fields.get("auto_accept") else None
        if policy is None or game not in policy["games"]:
            return False
        return len(self.store.bot_games(bot_id)) >= int(policy["max_concurrent"])

    def running(self, entries: Mapping[str, str], now_ms: int) -> set[str]:
        """The pairs whose entry (see :meth:`RedisStore.ladder_pairs`) still holds them: a game that is neither
        over nor cancelled, or a pending claim younger than :data:`PENDING_TTL_MS`."""
        claims = {pair: entry for pair, entry in entries.items() if entry.startswith(PENDING)}
        games = {pair: entry for pair, entry in entries.items() if pair not in claims}
        statuses = [None if m is None else m.get("status") for m in self.store.listings(list(games.values()))]
        held = {pair for pair, status in zip(games, statuses, strict=True) if status == ACTIVE}
        fresh = {p for p, claim in claims.items() if now_ms - int(claim.removeprefix(PENDING)) < PENDING_TTL_MS}
        return held | fresh

    def round(self, games: Sequence[str] | None = None, *, limit: int | None = None) -> list[Match]:
        """Pair the ladder's players in each game kind (all hosted kinds by default) and start their games;
        at most ``limit`` games in all. The matches it started."""
        started: list[Match] = []
        for game in contract.names() if games is None else games:
            if limit is not None and len(started) >= limit:
                break
            now = _now_ms()
            entries = self.store.ladder_pairs(game)
            running = self.running(entries, now)
            for chooser, opponent in pairings(self.entrants(game), running, references_meet=self.references_meet):
                if limit is not None and len(started) >= limit:
                    break
                try:
                    match = self.start(game, chooser, opponent, entries.get(pair_key(chooser, opponent), ""))
                except ServiceError as refused:
                    log.warning("the ladder could not start %s: %s against %s: %s", game, chooser, opponent, refused)
                    continue
                if match is not None:
                    started.append(match)
        return started

    def start(self, game: str, a: str, b: str, previous: str = "") -> Match | None:
        """Start a rated game of ``a`` against ``b`` unless another round took the pair since its entry was
        ``previous``; the match, or None."""
        pair = pair_key(a, b)
        claim = f"{PENDING}{_now_ms()}"
        if not self.store.swap_ladder_pair(game, pair, previous, claim):
            return None
        try:
            players = self._seat_order(game, a, b, previous)
            seats = [SeatSpec(self._name(p), self._seat(p)) for p in players]
            options = {
                "rated": True,
                "challenge_timeout_s": LADDER_CHALLENGE_TIMEOUT_S,
                "move_deadline_s": LADDER_MOVE_DEADLINE_S,
            }
            created = self.service.create(game, seats, options)
        except BaseException:
            self.store.swap_ladder_pair(game, pair, claim, previous)
            raise
        self.store.swap_ladder_pair(game, pair, claim, created.record.game_id)
        return Match(game, players, created.record.game_id)

    def _seat_order(self, game: str, a: str, b: str, previous: str) -> tuple[str, str]:
        """The pair's players in seat order: the other way round from their last game, else a seeded choice."""
        last = self._players_of(previous)
        if last is not None and len(last) == 2 and set(last) == {a, b}:
            return (b, a) if last[0] == a else (a, b)
        first, second = sorted((a, b))
        flip = hashlib.sha256(f"{game}|{first}|{second}".encode()).digest()[0] & 1
        return (second, first) if flip else (first, second)

    def _players_of(self, game_id: str) -> tuple[str | None, ...] | None:
        if not game_id or game_id.startswith(PENDING):
            return None
        try:
            return tuple(seats_module.players(self.service.head(game_id).created.seats))
        except GameNotFound:
            return None

    def _seat(self, player: str) -> dict[str, Any]:
        if player.startswith(BUILTIN_PLAYER_PREFIX):
            return {"builtin": player.removeprefix(BUILTIN_PLAYER_PREFIX), "think_ms": self.think_ms}
        return {"id": player}

    def _name(self, player: str) -> str:
        return Ratings(self.store).name(player)


# --- a ladder of built-in bots in this process -------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Played:
    """What :func:`run` played: the matches that ended, each scored and rated, and those it left unfinished
    (past :data:`MAX_MOVES`; they change no rating)."""

    finished: list[Match]
    unfinished: list[Match]


def play_out(service: GameService, game_id: str, *, max_moves: int = MAX_MOVES) -> Record:
    """Play a game whose seats are all built-in bots to its end in this process, one move at a time through
    :meth:`GameService.bot_move` as a worker would, then score it (``GameScored`` and ``RatingsUpdated``).

    A game still going after ``max_moves`` moves is returned unfinished and unscored.
    """
    for _ in range(max_moves):
        record = service.head(game_id)
        if record.closed:
            break
        seat = min(record.to_act())
        if service.bot_move(game_id, seat, record.version) is None:
            raise RuntimeError(f"seat {seat} of game {game_id} is no built-in bot, or its turn was taken")
    record = service.head(game_id)
    return service.score(game_id) if record.over else record


def run(
    ladder: Ladder,
    game: str,
    games: int,
    *,
    max_moves: int = MAX_MOVES,
    progress: Callable[[int, int], None] | None = None,
) -> Played:
    """Play ladder games of ``game`` between built-in bots in this process until ``games`` of them ended: round
    after round, each game played out and scored before the next round pairs by the new ratings.

    A game still going after ``max_moves`` moves is left unfinished, unrated, and its pair is freed for the
    next round (nothing in this process would ever move it again). More unfinished games than ``games``
    stop the run with :class:`RuntimeError`.
    """
    finished: list[Match] = []
    unfinished: list[Match] = []
    while len(finished) < games:
        started = ladder.round([game], limit=games - len(finished))
        if not started:
            raise ValueError(f"the ladder has nobody to pair in {game}: it needs two players that may meet")
        for match in started:
            if play_out(ladder.service, match.game_id, max_moves=max_moves).over:
                finished.append(match)
            else:
                unfinished.append(match)
                ladder.store.swap_ladder_pair(game, pair_key(*match.players), match.game_id, "")
            if progress is not None:
                progress(len(finished), games)
        if len(unfinished) > games:
            raise RuntimeError(f"{len(unfinished)} ladder games of {game} went past {max_moves} moves unfinished")
    return Played(finished, unfinished)


def leaderboard(ratings: Ratings, game: str, *, limit: int = 50) -> str:
    """The leaderboard of ``game`` as a plain-text table: rank, player, name, rating (the ordinal), mu, sigma,
    games and W/D/L."""
    total, lines = ratings.leaderboard(game, limit=limit)
    header = ("#", "player", "name", "rating", "mu", "sigma", "games", "W/D/L")
    rows = [
        (
            str(line.position),
            line.player,
            line.name,
            f"{line.record.rating.ordinal / 1000:.2f}",
            f"{line.record.rating.mu / 1000:.2f}",
            f"{line.record.rating.sigma / 1000:.2f}",
            str(line.record.games),
            "/".join(str(getattr(line.record, r.counter)) for r in (Result.WIN, Result.DRAW, Result.LOSS)),
        )
        for line in lines
    ]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    numeric = {0, 3, 4, 5, 6}
    text = [
        "  ".join(
            cell.rjust(w) if i in numeric else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in (header, *rows)
    ]
    more = [f"({total - len(lines)} more)"] if total > len(lines) else []
    return "\n".join([f"{game}: {total} rated players", *(t.rstrip() for t in text), *more])
