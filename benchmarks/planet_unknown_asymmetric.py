"""Planet Unknown: N greedy games over every planet x corporation combination.

Seats get the combinations in turn (game g, seat s takes combination g * players + s), so
every combination is played about equally often. Prints the mean score per planet and per
corporation (a broken one stands out) and the time taken. Asymmetric corporations without
rules on this server are left out and listed. Run from the repository root:

    python benchmarks/planet_unknown_asymmetric.py -n 200 --players 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.arena import BotTally, play_game, progress_bar
from domain.planet_unknown import GAME
from domain.planet_unknown.data import corporations, planets
from domain.planet_unknown.setup_choice import missing, playable_corporation, playable_planet


def combinations() -> list[tuple[str, str]]:
    """Every playable (planet, corporation) pair, planets varying fastest."""
    planet_slugs = [p for p in planets() if playable_planet(p)]
    corp_slugs = [c for c in corporations() if playable_corporation(c)]
    return [(p, c) for c in corp_slugs for p in planet_slugs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=3, choices=range(1, 7))
    parser.add_argument("--bot", default="greedy", choices=sorted(GAME.bots))
    args = parser.parse_args()
    pairs = combinations()
    by_planet: dict[str, list[int]] = defaultdict(list)
    by_corp: dict[str, list[int]] = defaultdict(list)
    tally = BotTally(args.bot)
    draw = progress_bar(f"{args.players}p {args.bot}")
    started = time.perf_counter()
    for g in range(args.games):
        seats = [pairs[(g * args.players + s) % len(pairs)] for s in range(args.players)]
        options = {"seat_setup": [{"planet": p, "corporation": c} for p, c in seats]}
        bots = {s: (GAME.bots[args.bot], tally) for s in range(args.players)}
        state, outcome, _ = play_game(GAME, bots, seed=f"pu-asym-{g}".encode(), think_ms=0, options=options)
        if outcome is None:
            raise SystemExit(f"game {g} did not finish")
        for (planet, corp), row in zip(seats, GAME.scores(state)["seats"], strict=True):
            by_planet[planet].append(int(row["total"]))
            by_corp[corp].append(int(row["total"]))
        draw(g + 1, args.games)
    elapsed = time.perf_counter() - started
    print(f"\n{args.games} games, {args.players} players, bot {args.bot}, {elapsed:.0f} s")
    for title, table, names in (
        ("planet", by_planet, {s: p.name for s, p in planets().items()}),
        ("corporation", by_corp, {s: str(c["name"]) for s, c in corporations().items()}),
    ):
        print(f"\nmean score per {title} (seats, mean, min, max):")
        for slug, totals in sorted(table.items(), key=lambda kv: -statistics.mean(kv[1])):
            print(
                f"  {names[slug]:<22} {len(totals):>4} {statistics.mean(totals):6.1f} {min(totals):4} {max(totals):4}"
            )
    planets_missing, corps_missing = missing()
    if planets_missing or corps_missing:
        print("\nnot played (no rules yet): " + ", ".join(planets_missing + corps_missing))


if __name__ == "__main__":
    main()
