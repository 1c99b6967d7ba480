"""Every bot-strength match in one table: Homeworlds' ``search`` against the earlier search and ``greedy``,
Planet Unknown's ``search`` in solo and against three ``greedy`` bots.

For each match it prints the games, the wins, losses and draws of the first-named bot (for solo: games at
or above the target count as wins), the draws at Homeworlds' 200-turn cap, that bot's mean think time per
move and its slowest move; for solo also the mean score minus the target and the result bands. Then the
Homeworlds successor-generation rate beside the search's nodes per second, and its tactical suite at the
same budget (with the reference pack).

    python benchmarks/bot_strength.py                 # 100 games a match, each game's default budget
    python benchmarks/bot_strength.py -n 20 --only homeworlds
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import homeworlds_strength, planet_unknown_strength

GAMES = ("homeworlds", "planet-unknown")
COLUMNS = ("game", "match", "games", "wins", "losses", "draws", "cap_draws", "mean_think_ms", "slowest_ms")


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as an aligned text table, with the solo extras after it."""
    header = ["game", "match", "games", "W", "L", "D", "cap D", "think ms", "slowest ms"]
    cells = [[str(row.get(c, "-")) for c in COLUMNS] for row in rows]
    widths = [max(len(h), *(len(line[i]) for line in cells)) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) for line in cells]
    for row in rows:
        if "mean_score_minus_target" in row:
            bands = ", ".join(f"band {band}: {count}" for band, count in row["bands"].items())
            lines.append(f"{row['match']}: mean score minus target {row['mean_score_minus_target']:+}; {bands}")
            if "mean_parts" in row:
                means = ", ".join(f"{part} {value}" for part, value in row["mean_parts"].items())
                lines.append(f"{row['match']}: means {means}; private objectives met {row['private_objectives_met']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--games", type=int, default=100, help="games per match (default: 100)")
    parser.add_argument("--hw-think-ms", type=int, default=200, help="Homeworlds budget per move (the arena's default)")
    parser.add_argument("--pu-think-ms", type=int, default=0, help="Planet Unknown search budget (0: its default)")
    parser.add_argument("--only", choices=GAMES, help="one game's matches only")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    if args.only in (None, "homeworlds"):
        rows += [{"game": "homeworlds", **row} for row in homeworlds_strength.rows(args.games, args.hw_think_ms)]
    if args.only in (None, "planet-unknown"):
        found = planet_unknown_strength.rows(args.games, args.pu_think_ms)
        rows += [{"game": "planet-unknown", **row} for row in found]
    print(table(rows))
    if args.only in (None, "homeworlds"):
        rates = homeworlds_strength.rates(args.hw_think_ms)
        print(
            f"homeworlds: {rates['successors_per_s']} successors generated per second; "
            f"search looks at {rates['search_nodes_per_s']} positions per second of thinking "
            f"({rates['positions']} positions)"
        )
        for suite, (solved, total) in homeworlds_strength.tactics(args.hw_think_ms).items():
            print(f"homeworlds tactics at {args.hw_think_ms} ms, {suite}: {solved} of {total} solved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
