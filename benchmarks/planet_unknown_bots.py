"""Planet Unknown bots at the table: N games of P seats of one built-in bot.

Prints the mean, lowest and highest final score, the mean winning score, and
the mean think time per move (a move is one action: a placement, a choice, a
confirmation). Run from the repository root:

    python benchmarks/planet_unknown_bots.py --bot greedy --players 4 -n 10
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.arena import BotTally, play_game, progress_bar
from domain.planet_unknown import GAME


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="greedy", choices=sorted(GAME.bots))
    parser.add_argument("--players", type=int, default=4, choices=range(1, 7))
    parser.add_argument("-n", "--games", type=int, default=10)
    args = parser.parse_args()
    totals: list[int] = []
    winners: list[int] = []
    tally = BotTally(args.bot)
    draw = progress_bar(f"{args.players}x {args.bot}")
    started = time.perf_counter()
    for i in range(args.games):
        seated = {seat: (GAME.bots[args.bot], tally) for seat in range(args.players)}
        state, outcome, _ = play_game(GAME, seated, seed=f"pu-bench-{i}".encode(), think_ms=0)
        final = [int(s["total"]) for s in GAME.scores(state)["seats"]]
        totals += final
        if outcome is not None and outcome.winners:
            winners.append(max(final))
        draw(i + 1, args.games)
    elapsed = time.perf_counter() - started
    print(f"Planet Unknown, {args.games} games of {args.players} '{args.bot}' bots ({elapsed:.0f} s)")
    print(f"  final score: mean {statistics.mean(totals):.1f}, min {min(totals)}, max {max(totals)}")
    print(f"  winning score: mean {statistics.mean(winners):.1f}")
    print(f"  think time per move: {tally.mean_think_ms:.1f} ms over {tally.moves} moves")


if __name__ == "__main__":
    main()
