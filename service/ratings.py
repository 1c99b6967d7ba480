"""Ratings per game kind: OpenSkill's Plackett-Luce model, applied once per rated game.

A rated game (see :func:`domain.table.seats.is_rated`) ranks its seats when it is scored: by the totals
its ``GameScored`` gives (winners first, then the higher total, then the tie-breaker), or, for a
game without totals, winners first and everyone else second. Only seats with a player identity are
rated (registered bots and ``builtin-<name>``); a player that holds several seats of one game is not
rated by it, since a game against itself says nothing of its skill. Fewer than two rated players:
no change.

Ratings live in the store as integers in thousandths (no floats in events), so that the
``RatingsUpdated`` event in the game's log lets anyone recompute every change from ``before``.

Exactly once: :meth:`Ratings.settle` reads the players' ratings, computes the change, and applies it
with one script that refuses it if any player's record moved since the read (the scorer decides
again) and that returns the stored change when this game was applied already (a retry after a crash
appends the same event). The service appends ``GameScored`` and ``RatingsUpdated`` together; a
second scorer's append fails on the game's version, so nothing is applied twice.

Each player's record counts games, wins, draws and losses: a draw is a game where every seat shares
first place, a win a first place (shared or not) in a game someone lost, and anything else a loss.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce

from domain import contract
from domain.contract import Event
from domain.table import seats as seats_module
from domain.table.record import SERVICE_EVENTS, GameCreated, GameScored, RatingsUpdated, Record
from events.envelope import canonical
from events.store import EventStore, VersionConflict

MODEL = "openskill.PlackettLuce/6"
"""The model named in every ``RatingsUpdated``: Plackett-Luce, with OpenSkill 6's default parameters."""
SCALE = 1000
"""Ratings are stored and logged in thousandths."""
HISTORY_KEEP = 1000
"""How many rating changes each player's history keeps, newest first."""
TOTAL_FIELDS = ("total", "half_points")
"""The per-seat fields of a ``GameScored.scores`` that rank seats (Planet Unknown, Homeworlds), first found."""
TIE_BREAKER_FIELDS = ("aux",)
"""Per-seat fields that order seats with the same total (Planet Unknown's uncovered squares and meteorites)."""


class RatingsConflict(VersionConflict):
    """A player's rating changed between the read and the write (another game was rated); decide again."""


class NotRated(ValueError):
    """A ``RatingsUpdated`` that does not fit its game: the game is not rated, or other players were rated."""


class Result(enum.Enum):
    """What one game counts as in a player's record."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"

    @property
    def counter(self) -> str:
        """The field of :class:`PlayerRecord` that counts such games."""
        return {Result.WIN: "wins", Result.DRAW: "draws", Result.LOSS: "losses"}[self]


@dataclasses.dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill as OpenSkill sees it, in thousandths: ``mu`` the estimate, ``sigma`` its uncertainty."""

    mu: int
    sigma: int

    @property
    def ordinal(self) -> int:
        """The conservative estimate ``mu - 3 sigma`` that the leaderboard sorts by, in thousandths.

        >>> Rating(25000, 8333).ordinal
        1
        """
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, int]:
        return {"mu": self.mu, "sigma": self.sigma}

    @classmethod
    def from_json(cls, raw: Any) -> Rating:
        """The rating of ``{"mu": ..., "sigma": ...}``; :class:`ValueError` unless both are whole numbers, sigma > 0."""
        if not isinstance(raw, Mapping):
            raise ValueError("a rating is {'mu': ..., 'sigma': ...}")
        mu, sigma = raw.get("mu"), raw.get("sigma")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (mu, sigma)):
            raise ValueError("a rating's mu and sigma are whole numbers of thousandths")
        assert isinstance(mu, int) and isinstance(sigma, int)
        if sigma <= 0:
            raise ValueError("a rating's sigma is positive")
        return cls(mu, sigma)


DEFAULT = Rating(round(25.0 * SCALE), round(25.0 / 3.0 * SCALE))
"""A new player's rating: OpenSkill's default, mu 25 and sigma 25/3."""


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player's current rating in one game kind, and how its rated games went."""

    rating: Rating = DEFAULT
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def after(self, rating: Rating, result: Result) -> PlayerRecord:
        """This record after one more game, which ended as ``result`` and left the player at ``rating``."""
        counts = {result.counter: getattr(self, result.counter) + 1}
        return dataclasses.replace(self, rating=rating, games=self.games + 1, **counts)

    def to_json(self) -> str:
        fields = {"games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses}
        return canonical(self.rating.to_json() | fields)

    @classmethod
    def from_json(cls, raw: str | None) -> PlayerRecord:
        if raw is None:
            return cls()
        data = json.loads(raw)
        counts = {name: int(data[name]) for name in ("games", "wins", "draws", "losses")}
        return cls(Rating.from_json(data), **counts)


@dataclasses.dataclass(frozen=True, slots=True)
class Standing:
    """Where a rated player finished: its seat, its rank (1 is first) and what the game counts as."""

    seat: int
    rank: int
    result: Result


# --- ranks and the model, as pure functions ------------------------------------------


def seat_ranks(scored: GameScored, seat_count: int) -> list[int]:
    """Each seat's rank, 1 being first; seats that compare equal share a rank, and the next rank follows.

    Winners come first, then the higher total, then the higher tie-breaker, where ``scores`` gives
    them per seat (see :data:`TOTAL_FIELDS`); without totals, winners are 1 and the rest 2.

    >>> seat_ranks(GameScored(winners=(1,), reason="line", scores={}), 3)
    [2, 1, 2]
    >>> seat_ranks(GameScored(winners=(), reason="draw", scores={}), 2)
    [1, 1]
    """
    totals = _totals(scored.scores, seat_count)
    keys = [(seat in scored.winners, *(totals[seat] if totals else ())) for seat in range(seat_count)]
    distinct = sorted(set(keys), reverse=True)
    return [distinct.index(key) + 1 for key in keys]


def _totals(scores: Mapping[str, Any], seat_count: int) -> list[tuple[int, ...]] | None:
    """Per seat, its total and tie-breakers, from ``scores["seats"]`` (a list with ``seat``) or
    ``scores["per_seat"]`` (by seat number as text); None unless every seat has a whole-number total."""
    entries: dict[int, Any] = {}
    listed, by_seat = scores.get("seats"), scores.get("per_seat")
    if isinstance(listed, list):
        entries = {e["seat"]: e for e in listed if isinstance(e, Mapping) and _whole(e.get("seat"))}
    elif isinstance(by_seat, Mapping):
        entries = {int(k): v for k, v in by_seat.items() if isinstance(k, str) and k.isdigit()}
    if sorted(entries) != list(range(seat_count)) or not all(isinstance(e, Mapping) for e in entries.values()):
        return None
    field = next((f for f in TOTAL_FIELDS if all(_whole(e.get(f)) for e in entries.values())), None)
    if field is None:
        return None
    breakers = [f for f in TIE_BREAKER_FIELDS if all(_whole(e.get(f)) for e in entries.values())]
    return [(entries[seat][field], *(entries[seat][f] for f in breakers)) for seat in range(seat_count)]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def standings(created: GameCreated, scored: GameScored) -> dict[str, Standing]:
    """The rated players of a scored game and where they finished; empty when the game changes no rating."""
    if not seats_module.is_rated(created.options, created.seats):
        return {}
    players = seats_module.players(created.seats)
    ranks = seat_ranks(scored, len(players))
    everyone_first = all(rank == 1 for rank in ranks)
    found: dict[str, Standing] = {}
    for seat, (player, rank) in enumerate(zip(players, ranks, strict=True)):
        if player is None or players.count(player) > 1:
            continue
        result = Result.DRAW if everyone_first else Result.WIN if rank == 1 else Result.LOSS
        found[player] = Standing(seat, rank, result)
    return found if len(found) >= 2 else {}


def model() -> PlackettLuce:
    """The rating model, its parameters named so that a change of the library's defaults cannot change it."""
    return PlackettLuce(mu=25.0, sigma=25.0 / 3.0, beta=25.0 / 6.0, kappa=0.0001, tau=25.0 / 300.0)


def rate(before: Mapping[str, Rating], ranks: Mapping[str, int]) -> dict[str, Rating]:
    """Every player's rating after one game where each finished at ``ranks[player]`` (1 is first, ties share).

    Each player is a team of one; players are taken in sorted order, so the result depends on nothing else.
    """
    order = sorted(before)
    rating_model = model()
    teams = [[rating_model.rating(mu=before[p].mu / SCALE, sigma=before[p].sigma / SCALE)] for p in order]
    rated = rating_model.rate(teams, ranks=[float(ranks[p]) for p in order])
    return {
        p: Rating(round(team[0].mu * SCALE), round(team[0].sigma * SCALE)) for p, team in zip(order, rated, strict=True)
    }


def change(table: Mapping[str, Standing], before: Mapping[str, Rating]) -> RatingsUpdated:
    """The ``RatingsUpdated`` of a game whose rated players finished as ``table``, rated from ``before``."""
    after = rate(before, {p: s.rank for p, s in table.items()})
    players = {
        p: {"seat": s.seat, "rank": s.rank, "before": before[p].to_json(), "after": after[p].to_json()}
        for p, s in sorted(table.items())
    }
    return RatingsUpdated(model=MODEL, players=players)


def replay(created: GameCreated, scored: GameScored, logged: RatingsUpdated) -> RatingsUpdated:
    """The change the model gives for this game from the ``before`` ratings that ``logged`` records.

    An auditor compares it with ``logged``: seats, ranks and every ``after`` must be the same.
    Raises :class:`NotRated` if the game is not rated, or other players were rated, or ``before`` is malformed.
    """
    table = standings(created, scored)
    if not table:
        raise NotRated("this game changes no rating")
    if logged.model != MODEL:
        raise NotRated(f"the ratings were computed by {logged.model!r}, not {MODEL!r}")
    if not isinstance(logged.players, Mapping) or set(logged.players) != set(table):
        raise NotRated(f"the rated players are {', '.join(sorted(table))}")
    try:
        before = {p: Rating.from_json(logged.players[p].get("before")) for p in table}
    except (ValueError, AttributeError) as error:
        raise NotRated(f"a 'before' rating cannot be read: {error}") from None
    return change(table, before)


# --- the ratings store -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Ranked:
    """One line of a leaderboard."""

    position: int
    player: str
    name: str
    record: PlayerRecord


class Ratings:
    """Ratings per game kind in the store, applied exactly once per game."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def settle(self, record: Record, scoring: Sequence[Event]) -> list[RatingsUpdated]:
        """The ``RatingsUpdated`` to append with ``scoring`` (the game's ``GameScored``), already applied to the
        store; none for a game that changes no rating. Raises :class:`RatingsConflict` when another game changed
        one of these players' ratings meanwhile: the caller reads the game again and decides again."""
        scored = next(e for e in scoring if isinstance(e, GameScored))
        table = standings(record.created, scored)
        if not table:
            return []
        game, players = record.game.name, sorted(table)
        current = {p: raw for p, raw in zip(players, self.store.rating_records(game, players), strict=True)}
        records = {p: PlayerRecord.from_json(raw) for p, raw in current.items()}
        event = change(table, {p: r.rating for p, r in records.items()})
        _, payload = contract.encode_event(event)
        now = time.time_ns() // 1_000_000
        writes = []
        for p in players:
            after = Rating.from_json(event.players[p]["after"])
            entry = {"game_id": record.game_id, "at": now, "result": table[p].result.value} | event.players[p]
            new = records[p].after(after, table[p].result)
            writes.append((p, current[p] or "", new.to_json(), after.ordinal, canonical(entry)))
        status, stored = self.store.apply_ratings(game, record.game_id, canonical(payload), writes, keep=HISTORY_KEEP)
        if status == "conflict":
            raise RatingsConflict(record.version)
        applied = contract.decode_event(SERVICE_EVENTS, "RatingsUpdated", json.loads(stored))
        assert isinstance(applied, RatingsUpdated)
        return [applied]

    def record(self, game: str, player: str) -> PlayerRecord | None:
        """A player's record in ``game``, or None if it never played a rated game of it."""
        raw = self.store.rating_records(game, [player])[0]
        return None if raw is None else PlayerRecord.from_json(raw)

    def history(self, game: str, player: str, limit: int = 100) -> list[dict[str, Any]]:
        """A player's latest rating changes in ``game``, newest first: ``game_id``, ``at`` (ms), ``seat``,
        ``rank``, ``result``, and ``before`` and ``after`` in thousandths."""
        return [json.loads(raw) for raw in self.store.rating_history(game, player, limit)]

    def leaderboard(self, game: str, *, offset: int = 0, limit: int = 50) -> tuple[int, list[Ranked]]:
        """How many players ``game`` rates, and ``limit`` of them from ``offset``, best ordinal first."""
        total, players = self.store.rating_board(game, offset, limit)
        raws = self.store.rating_records(game, players)
        lines = [
            Ranked(offset + i + 1, p, self.name(p), PlayerRecord.from_json(raw))
            for i, (p, raw) in enumerate(zip(players, raws, strict=True))
        ]
        return total, lines

    def name(self, player: str) -> str:
        """A rated player's name from the bot registry (a built-in bot's own name if it was never registered)."""
        fields = self.store.bot(player)
        if fields is not None and fields.get("name"):
            return fields["name"]
        if player.startswith(seats_module.BUILTIN_PLAYER_PREFIX):
            return f"{player.removeprefix(seats_module.BUILTIN_PLAYER_PREFIX)} (built-in)"
        return player
