"""Homeworlds bot strength: the search's matches in the arena, and the rates behind them.

    python benchmarks/homeworlds_strength.py            # 100 games a match, 200 ms a move
    python benchmarks/homeworlds_strength.py -n 10 --think-ms 100
    python benchmarks/homeworlds_strength.py -n 20 --match search:search-alphabeta --no-rates
    python benchmarks/homeworlds_strength.py -n 0 --timing 10 --no-rates    # wall and CPU time per move

:func:`rows` plays ``search`` against the reference ``search-v1``, against
``greedy`` and against the reference ``search-alphabeta`` (first seat alternating,
games stopped at 200 turns and counted as draws at the cap) and returns one row a match; :func:`rates` measures the
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
from domain.arena import arena_bots, play_match
from domain.contract import seat_view
from domain.homeworlds import GAME, Position, Rules, count_turns
from domain.homeworlds.mcts import _Tree

MATCHES = (("search", "search-v1"), ("search", "greedy"), ("search", "search-alphabeta"))
"""The matches :func:`rows` plays: the search against the first reference, against greedy and against the
alpha-beta search it replaced."""
CAP = 200
"""Turns after which a game is stopped and counted as a draw at the cap."""


def rows(
    games: int, think_ms: int, matches: tuple[tuple[str, str], ...] = MATCHES, seed: str = "strength"
) -> list[dict[str, object]]:
    """One row a match (by default :data:`MATCHES`): games, wins/losses/draws of the first bot, draws at
    the cap, the first bot's mean and slowest think time per move and the slowest move of either bot, in ms."""
    found: list[dict[str, object]] = []
    for a, b in matches:
        result = play_match(GAME, a, b, games, think_ms=think_ms, seed=f"{seed}-{think_ms}", max_plies=CAP)
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
                "slowest_either_ms": round(max(result.a.slowest_ms, result.b.slowest_ms), 1),
            }
        )
    return found


def timing(games: int, think_ms: int, pair: tuple[str, str] = ("search", "greedy")) -> dict[str, dict[str, float]]:
    """Each bot of ``pair`` over ``games`` games against the other (first seat alternating, :data:`CAP` turns at
    most): moves, the slowest move by the clock and the CPU time it used, the most CPU time in one move, and
    how many moves took over 1.5 x ``think_ms`` by the clock and by the CPU. A slow move that used little CPU
    waited for the machine, not for the bot."""
    bots = arena_bots(GAME)
    found = {
        name: {"moves": 0, "wall_ms": 0.0, "wall_cpu_ms": 0.0, "cpu_ms": 0.0, "over_wall": 0, "over_cpu": 0}
        for name in pair
    }
    limit = 1.5 * think_ms
    for i in range(games):
        seated = pair if i % 2 == 0 else pair[::-1]
        state = GAME.initial(2, {})
        rng = random.Random(f"timing-{i}")
        while state.outcome is None and state.turn <= CAP:
            seat = state.position.to_move
            started, cpu = time.perf_counter(), time.thread_time()
            move = bots[seated[seat]](seat_view(GAME, state, seat), seat, rng, think_ms)
            wall_ms, cpu_ms = 1000 * (time.perf_counter() - started), 1000 * (time.thread_time() - cpu)
            tally = found[seated[seat]]
            tally["moves"] += 1
            if wall_ms > tally["wall_ms"]:
                tally["wall_ms"], tally["wall_cpu_ms"] = round(wall_ms, 1), round(cpu_ms, 1)
            tally["cpu_ms"] = max(tally["cpu_ms"], round(cpu_ms, 1))
            tally["over_wall"] += wall_ms > limit
            tally["over_cpu"] += cpu_ms > limit
            state = contract.fold(GAME, state, GAME.decide(state, seat, move))
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
        search = _Tree(position, rules, random.Random(i), think_ms, 30)
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
    avoid-loss position (the reference pack's 14 rows and those from the arena).
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
    parser.add_argument(
        "--match",
        action="append",
        metavar="A:B",
        help="play bot A against bot B instead of the default matches (repeatable)",
    )
    parser.add_argument("--no-rates", action="store_true", help="skip the rates and the tactical suite")
    parser.add_argument("--seed", default="strength", help="the matches' seed, for a fresh sample (default: strength)")
    parser.add_argument(
        "--timing", type=int, default=0, metavar="GAMES", help="also time search and greedy move by move"
    )
    args = parser.parse_args(argv)
    matches = tuple((a, b) for a, _, b in (m.partition(":") for m in args.match)) if args.match else MATCHES
    header = (
        "match",
        "games",
        "wins",
        "losses",
        "draws",
        "cap_draws",
        "mean_think_ms",
        "slowest_ms",
        "slowest_either_ms",
    )
    print(" | ".join(header))
    for match in matches if args.games else ():
        for row in rows(args.games, args.think_ms, (match,), args.seed):
            print(" | ".join(str(row[k]) for k in header), flush=True)
    if args.timing:
        for name, slowest in timing(args.timing, args.think_ms).items():
            print(
                f"{name}: {slowest['moves']} moves at {args.think_ms} ms, slowest {slowest['wall_ms']} ms "
                f"({slowest['wall_cpu_ms']} ms of it on the CPU), most CPU in a move {slowest['cpu_ms']} ms, "
                f"{slowest['over_wall']} moves over 1.5 x by the clock, {slowest['over_cpu']} by the CPU"
            )
    if args.no_rates:
        return 0
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
