"""Planet Unknown solo: N games of one built-in bot against the solo target.

Each game uses the solo defaults (event deck with BGA's random mix, 4 objectives keep 3)
unless --mix fixes the colours. Prints the mean final score, the mean target, the mean
of (score - target) with its lowest and highest, the result bands reached and the think
time per move. Run from the repository root:

    python benchmarks/planet_unknown_solo.py --bot greedy -n 50
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.arena import BotTally, play_game, progress_bar
from domain.contract import JSON
from domain.planet_unknown import GAME


def parse_mix(text: str | None) -> dict[str, JSON]:
    """``8,6,6`` as the green, orange and red counts of the event deck; None: BGA's random mix."""
    if text is None:
        return {}
    green, orange, red = (int(n) for n in text.split(","))
    return {"event_mix": {"green": green, "orange": orange, "red": red}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="greedy", choices=sorted(GAME.bots))
    parser.add_argument("-n", "--games", type=int, default=50)
    parser.add_argument("--mix", help="green,orange,red counts of the event deck, e.g. 8,6,6 (default: random)")
    args = parser.parse_args()
    options = parse_mix(args.mix)
    scores: list[int] = []
    targets: list[int] = []
    bands: Counter[int] = Counter()
    tally = BotTally(args.bot)
    draw = progress_bar(f"solo {args.bot}")
    started = time.perf_counter()
    for i in range(args.games):
        state, outcome, _ = play_game(
            GAME, {0: (GAME.bots[args.bot], tally)}, seed=f"pu-solo-{i}".encode(), think_ms=0, options=options
        )
        if outcome is None:
            raise SystemExit(f"game {i} did not finish")
        solo = GAME.scores(state)["solo"]
        assert isinstance(solo, dict)
        scores.append(int(solo["score"]))
        targets.append(int(solo["target"]))
        bands[int(solo["band"])] += 1
        draw(i + 1, args.games)
    elapsed = time.perf_counter() - started
    differences = [s - t for s, t in zip(scores, targets, strict=True)]
    print(f"Planet Unknown solo, {args.games} games of '{args.bot}' ({elapsed:.0f} s)")
    print(f"  final score: mean {statistics.mean(scores):.1f}, min {min(scores)}, max {max(scores)}")
    print(f"  target: mean {statistics.mean(targets):.1f}, min {min(targets)}, max {max(targets)}")
    print(
        f"  score - target: mean {statistics.mean(differences):+.1f}, "
        f"min {min(differences):+d}, max {max(differences):+d}"
    )
    print("  bands: " + ", ".join(f"{band:+d}: {count}" for band, count in sorted(bands.items())))
    print(f"  think time per move: {tally.mean_think_ms:.1f} ms over {tally.moves} moves")


if __name__ == "__main__":
    main()
