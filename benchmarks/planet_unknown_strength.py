"""Planet Unknown bot strength: the ``search`` bot in solo and against three ``greedy`` bots.

Two matches, one row each:

* ``solo search``: N solo games (the solo defaults: event deck with BGA's random mix, 4 objectives
  keep 3); a win is a score at or above the target. The row adds the mean of (score - target),
  how many games ended in each result band, the mean medals of each part of the score with the
  tie-breakers (uncovered squares, meteorites left on the planet), and the private objectives met;
* ``search vs 3 greedy``: N games of 4 seats, ``search`` in seat ``i % 4`` of game ``i``; a win is
  being the only winner, a draw sharing the win.

``wins``/``losses``/``draws`` are the search bot's; ``mean_think_ms`` and ``slowest_ms`` its think
time per move. Run from the repository root:

    python benchmarks/planet_unknown_strength.py -n 100 --think-ms 1000 [--match solo|four]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.arena import BotTally, play_game, progress_bar
from domain.contract import JSON, Bot, SeatView
from domain.planet_unknown import GAME
from domain.planet_unknown.bots import BOTS

MATCHES = ("solo", "four")
SOLO_PARTS = ("total", "planet", "tracks", "lifepods", "meteorites", "civ_cards", "objectives")
"""The parts of a solo score whose means the solo row reports, beside the tie-breakers (uncovered squares,
meteorites left on the planet)."""
LOG = False
"""Whether each game's result is written to standard error as it ends (``--log``)."""


def _log(line: str) -> None:
    if LOG:
        print(line, file=sys.stderr, flush=True)


class _Timed:
    """A bot that records its slowest move."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.slowest = 0.0

    def __call__(self, view: SeatView[Any], seat: int, rng: random.Random, think_ms: int) -> JSON:
        started = time.perf_counter()
        move = self.bot(view, seat, rng, think_ms)
        self.slowest = max(self.slowest, time.perf_counter() - started)
        return move


def solo_row(games: int, think_ms: int, first: int = 0) -> dict[str, Any]:
    """``games`` solo games of ``search`` (seeds ``pu-solo-<i>``, as benchmarks/planet_unknown_solo.py)."""
    timed = _Timed(BOTS["search"])
    tally = BotTally("search")
    differences: list[int] = []
    bands: Counter[int] = Counter()
    parts: dict[str, list[int]] = {}
    objectives = [0, 0]
    draw = progress_bar("solo search")
    for i in range(first, first + games):
        state, outcome, _ = play_game(GAME, {0: (timed, tally)}, seed=f"pu-solo-{i}".encode(), think_ms=think_ms)
        if outcome is None:
            raise SystemExit(f"solo game {i} did not finish")
        scores = GAME.scores(state)
        solo = scores["solo"]
        differences.append(int(solo["difference"]))
        bands[int(solo["band"])] += 1
        seat = scores["seats"][0]
        for part in SOLO_PARTS:
            parts.setdefault(part, []).append(int(seat[part]))
        for part, value in seat["tie_breakers"].items():
            parts.setdefault(part, []).append(int(value))
        kept = [v for k, v in seat["by_objective"].items() if k.startswith("private")]
        objectives[0] += sum(1 for v in kept if v)
        objectives[1] += len(kept)
        _log(f"solo {i}: score {solo['score']} target {solo['target']} difference {solo['difference']:+d}")
        draw(i - first + 1, games)
    wins = sum(1 for d in differences if d >= 0)
    return {
        "match": "solo search",
        "games": games,
        "wins": wins,
        "losses": games - wins,
        "draws": 0,
        "mean_think_ms": round(tally.mean_think_ms, 1),
        "slowest_ms": round(1000 * timed.slowest, 1),
        "mean_score_minus_target": round(statistics.mean(differences), 2),
        "bands": {f"{band:+d}": bands[band] for band in sorted(bands)},
        "mean_parts": {part: round(statistics.mean(values), 2) for part, values in parts.items()},
        "private_objectives_met": f"{objectives[0]} of {objectives[1]}",
    }


def four_row(games: int, think_ms: int, first: int = 0) -> dict[str, Any]:
    """``games`` 4-seat games of ``search`` against three ``greedy`` bots (seeds ``pu-strength-<i>``)."""
    timed = _Timed(BOTS["search"])
    tally = BotTally("search")
    others = BotTally("greedy")
    wins = losses = draws = 0
    draw = progress_bar("search vs 3 greedy")
    for i in range(first, first + games):
        seat = i % 4
        seated = {k: ((timed, tally) if k == seat else (BOTS["greedy"], others)) for k in range(4)}
        _, outcome, _ = play_game(GAME, seated, seed=f"pu-strength-{i}".encode(), think_ms=think_ms)
        if outcome is None:
            raise SystemExit(f"4-seat game {i} did not finish")
        if outcome.winners == (seat,):
            wins += 1
        elif seat in outcome.winners:
            draws += 1
        else:
            losses += 1
        _log(f"four {i}: search seat {seat}, winners {list(outcome.winners)}")
        draw(i - first + 1, games)
    return {
        "match": "search vs 3 greedy",
        "games": games,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "mean_think_ms": round(tally.mean_think_ms, 1),
        "slowest_ms": round(1000 * timed.slowest, 1),
    }


def rows(games: int, think_ms: int, matches: tuple[str, ...] = MATCHES, first: int = 0) -> list[dict[str, Any]]:
    """One dict per match (see the module's docstring)."""
    out = []
    if "solo" in matches:
        out.append(solo_row(games, think_ms, first))
    if "four" in matches:
        out.append(four_row(games, think_ms, first))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--games", type=int, default=100)
    parser.add_argument("--think-ms", type=int, default=0, help="the search bot's budget per move (0: its default)")
    parser.add_argument("--match", choices=MATCHES, action="append", help="one match only (repeatable)")
    parser.add_argument("--first", type=int, default=0, help="the first game's number (its seed)")
    parser.add_argument("--log", action="store_true", help="write each game's result to standard error")
    args = parser.parse_args()
    global LOG
    LOG = args.log
    started = time.perf_counter()
    found = rows(args.games, args.think_ms, tuple(args.match or MATCHES), args.first)
    print(f"Planet Unknown bot strength, think_ms {args.think_ms or 'default'} ({time.perf_counter() - started:.0f} s)")
    header = ("match", "games", "wins", "losses", "draws", "mean_think_ms", "slowest_ms")
    print("  ".join(f"{h:>18}" for h in header))
    for row in found:
        print("  ".join(f"{row[h]!s:>18}" for h in header))
        if "mean_score_minus_target" in row:
            print(f"  mean score - target: {row['mean_score_minus_target']:+}; bands: {row['bands']}")
            print(f"  mean medals and tie-breakers: {row['mean_parts']}")
            print(f"  private objectives met: {row['private_objectives_met']}")


if __name__ == "__main__":
    main()
