"""Homeworlds bot strength: the search's matches in the arena, and the rates behind them.

    python benchmarks/homeworlds_strength.py            # 100 games a match, 200 ms a move
    python benchmarks/homeworlds_strength.py -n 10 --think-ms 100

:func:`rows` plays ``search`` against the reference ``search-v1`` and against
``greedy`` (first seat alternating, games stopped at 200 turns and counted as
draws at the cap) and returns one row a match; :func:`rates` measures the
successor generation and the search's positions per second on mid-game positions.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import contract
from domain.arena import play_match
from domain.contract import seat_view
from domain.homeworlds import GAME, Position, Rules, count_turns
from domain.homeworlds.search import _Search

MATCHES = (("search", "search-v1"), ("search", "greedy"))
"""The matches :func:`rows` plays: the new search against the reference and against greedy."""
CAP = 200
"""Turns after which a game is stopped and counted as a draw at the cap."""


def rows(games: int, think_ms: int) -> list[dict[str, object]]:
    """One row a match of :data:`MATCHES`: games, wins/losses/draws of the first bot, draws at the cap,
    and the first bot's mean and slowest think time per move, in ms."""
    found: list[dict[str, object]] = []
    for a, b in MATCHES:
        result = play_match(GAME, a, b, games, think_ms=think_ms, seed=f"strength-{think_ms}", max_plies=CAP)
        wins = sum(1 for g in result.games if g.outcome is not None and _winner(g.first, g.outcome, a, b) == a)
        losses = sum(1 for g in result.games if g.outcome is not None and _winner(g.first, g.outcome, a, b) == b)
        found.append(
            {
                "match": f"{a} vs {b}",
                "games": games,
                "wins": wins,
                "losses": losses,
                "draws": games - wins - losses,
                "cap_draws": result.unfinished,
                "mean_think_ms": round(result.a.mean_think_ms, 1),
                "slowest_ms": round(result.a.slowest_ms, 1),
            }
        )
    return found


def _winner(first: str, outcome: contract.Outcome, a: str, b: str) -> str | None:
    if len(outcome.winners) != 1:
        return None
    second = b if first == a else a
    return first if outcome.winners[0] == 0 else second


def _positions(count: int = 12, seed: int = 5) -> list[Position]:
    """Mid-game positions (turns 20-40) of ``greedy`` self-play games."""
    found: list[Position] = []
    rng = random.Random(seed)
    game = 0
    while len(found) < count and game < 4 * count:
        game += 1
        state = GAME.initial(2, {})
        while state.outcome is None and state.turn <= 40:
            seat = state.position.to_move
            move = GAME.bots["greedy"](seat_view(GAME, state, seat), seat, rng, 50)
            state = contract.fold(GAME, state, GAME.decide(state, seat, move))
            if state.outcome is None and state.turn in (20, 30, 40):
                found.append(state.position)
    return found[:count]


def rates(think_ms: int = 200) -> dict[str, float]:
    """Successors generated per second, and positions the search looks at per second of thinking."""
    positions = _positions()
    rules = Rules()
    started = time.perf_counter()
    successors = sum(count_turns(p, rules) for p in positions)
    generation_s = time.perf_counter() - started
    looked = 0
    started = time.perf_counter()
    for i, position in enumerate(positions):
        search = _Search(position, rules, random.Random(i), think_ms, 30)
        search.choose()
        looked += search.looked
    search_s = time.perf_counter() - started
    return {
        "positions": len(positions),
        "successors_per_s": round(successors / generation_s),
        "search_nodes_per_s": round(looked / search_s),
    }


def tactics(think_ms: int = 200) -> dict[str, tuple[int, int]]:
    """The tactical suite at ``think_ms``: (solved, positions) for the official wins in one, and for every
    avoid-loss position (the reference pack's 14 rows, the hard ones included, and those from the arena).
    Needs the reference pack (``ORRERY_SHARED`` or ``../shared``); empty without it."""
    from domain.homeworlds import Outcome, Turn, play, winning_turn
    from tests.homeworlds import test_tactics as suite
    from tests.homeworlds.shared import GAMES

    if not GAMES.exists():
        return {}

    def turn(position: Position) -> Position:
        seat = position.to_move
        state = suite.state_of(position)
        move = GAME.bots["search"](seat_view(GAME, state, seat), seat, random.Random(1), think_ms)
        return play(position, Turn.parse(str(move)))

    wins = [Position.from_text(text) for _, text, _, _ in suite.WINNING_PUZZLES]
    won = sum(1 for p in wins if turn(p).outcome() == Outcome(0))
    rows = suite.avoid_loss_rows()
    cases = [(r["position"], r["losing_turn_played"]) for r in rows] + list(suite.FROM_ARENA)
    safe = 0
    for text, _ in cases:
        reached = turn(Position.from_text(text))
        safe += reached.outcome() is None and winning_turn(reached) is None
    return {"win in one": (won, len(wins)), "avoid loss in one": (safe, len(cases))}


def main(argv: list[str] | None = None) -> int:
    """Print the match table and the rates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=100, help="games per match (default: 100)")
    parser.add_argument("--think-ms", type=int, default=200, help="each bot's budget per move (default: 200)")
    args = parser.parse_args(argv)
    header = ("match", "games", "wins", "losses", "draws", "cap_draws", "mean_think_ms", "slowest_ms")
    print(" | ".join(header))
    for row in rows(args.games, args.think_ms):
        print(" | ".join(str(row[k]) for k in header), flush=True)
    measured = rates(args.think_ms)
    print(
        f"Homeworlds: {measured['successors_per_s']} successors/s generated, "
        f"search {measured['search_nodes_per_s']} positions/s (over {measured['positions']} mid-game positions)"
    )
    for suite, (solved, total) in tactics(args.think_ms).items():
        print(f"tactics at {args.think_ms} ms, {suite}: {solved} of {total} solved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
