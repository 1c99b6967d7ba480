"""Bot against bot, with no service: games played by folding the rules directly.

>>> from domain.arena import play_match  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import random
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from domain import contract
from domain.contract import JSON, Game, Outcome

MAX_PLIES = 2000
"""The default length at which a game is stopped unfinished (counted as a draw)."""

_REFERENCE_BOTS: dict[str, Mapping[str, contract.Bot]] = {}


def register_reference_bots(game_name: str, bots: Mapping[str, contract.Bot]) -> None:
    """Bots a game keeps for the arena only (earlier versions, to measure new ones against).

    The service does not offer them; :func:`arena_bots` adds them to the game's own.
    """
    _REFERENCE_BOTS[game_name] = bots


def arena_bots(game: Game[Any]) -> Mapping[str, contract.Bot]:
    """The bots the arena can seat for ``game``: its built-in bots and its reference bots."""
    return {**game.bots, **_REFERENCE_BOTS.get(game.name, {})}


@dataclasses.dataclass(slots=True)
class BotTally:
    """One bot's record over a match."""

    name: str
    wins: float = 0.0
    moves: int = 0
    think_s: float = 0.0
    slowest_s: float = 0.0

    @property
    def mean_think_ms(self) -> float:
        return 1000 * self.think_s / self.moves if self.moves else 0.0

    @property
    def slowest_ms(self) -> float:
        """The longest time the bot took over one move."""
        return 1000 * self.slowest_s


@dataclasses.dataclass(frozen=True, slots=True)
class GameRecord:
    first: str
    outcome: Outcome | None
    plies: int


@dataclasses.dataclass(slots=True)
class MatchResult:
    """The score of a match: wins count 1, draws 1/2 each."""

    a: BotTally
    b: BotTally
    games: list[GameRecord]

    @property
    def score_a(self) -> float:
        return self.a.wins / len(self.games) if self.games else 0.0

    @property
    def unfinished(self) -> int:
        """How many games were stopped at the ply limit (each counted as a draw)."""
        return sum(1 for g in self.games if g.outcome is None)

    def summary(self) -> str:
        n = len(self.games)
        draws = sum(1 for g in self.games if g.outcome is None or g.outcome.draw)
        return (
            f"{self.a.name} vs {self.b.name}: {self.a.wins:g}-{self.b.wins:g} over {n} games "
            f"({100 * self.score_a:.1f}% for {self.a.name}, {draws} drawn or unfinished, "
            f"{self.unfinished} stopped at the ply limit)\n"
            f"  mean think time per move: {self.a.name} {self.a.mean_think_ms:.1f} ms, "
            f"{self.b.name} {self.b.mean_think_ms:.1f} ms\n"
            f"  slowest move: {self.a.name} {self.a.slowest_ms:.1f} ms, {self.b.name} {self.b.slowest_ms:.1f} ms"
        )


def play_game(
    game: Game[Any],
    bots: Mapping[int, tuple[contract.Bot, BotTally]],
    *,
    seed: bytes,
    think_ms: int,
    options: Mapping[str, JSON] | None = None,
    max_plies: int = MAX_PLIES,
) -> tuple[Any, Outcome | None, int]:
    """One game between seated bots: the final state, the outcome (None at ``max_plies``) and its length."""
    state = game.initial(len(bots), contract.parse_options(game.options, options or {}))
    state = contract.fold(game, state, game.setup(state, seed))
    rng = random.Random(seed)
    plies = 0
    while game.outcome(state) is None and plies < max_plies:
        for seat in sorted(game.to_act(state)):
            bot, tally = bots[seat]
            started = time.perf_counter()
            move = bot(contract.seat_view(game, state, seat), seat, rng, think_ms)
            elapsed = time.perf_counter() - started
            tally.think_s += elapsed
            tally.slowest_s = max(tally.slowest_s, elapsed)
            tally.moves += 1
            state = contract.fold(game, state, game.decide(state, seat, move))
            plies += 1
            if game.outcome(state) is not None:
                break
    return state, game.outcome(state), plies


def play_match(
    game: Game[Any],
    bot_a: str,
    bot_b: str,
    games: int,
    *,
    think_ms: int = 200,
    seed: str = "arena",
    progress: Callable[[int, int], None] | None = None,
    max_plies: int = MAX_PLIES,
) -> MatchResult:
    """``games`` two-seat games, the first seat alternating between the bots; each stops unfinished at
    ``max_plies``."""
    a, b = BotTally(bot_a), BotTally(bot_b)
    result = MatchResult(a, b, [])
    bots = arena_bots(game)
    for i in range(games):
        first, second = (a, b) if i % 2 == 0 else (b, a)
        seated = {0: (bots[first.name], first), 1: (bots[second.name], second)}
        _, outcome, plies = play_game(game, seated, seed=f"{seed}-{i}".encode(), think_ms=think_ms, max_plies=max_plies)
        if outcome is not None and outcome.winners:
            for seat in outcome.winners:
                seated[seat][1].wins += 1 / len(outcome.winners)
        else:
            a.wins += 0.5
            b.wins += 0.5
        result.games.append(GameRecord(first.name, outcome, plies))
        if progress is not None:
            progress(i + 1, games)
    return result


def progress_bar(label: str) -> Callable[[int, int], None]:
    """A progress bar on standard error, drawn only on a terminal."""

    def draw(done: int, total: int) -> None:
        if not sys.stderr.isatty():
            return
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return draw
