"""Speed of the Homeworlds engine. Run from the repository root: ``python benchmarks/homeworlds.py``.

Prints (1) distinct successor positions per second on the two move-count
benchmark positions of puzzles.md section 3, (2) the median rate over a sample
of real mid-game positions, and (3) the time to check the whole game corpus.
Parts 2 and 3 read the reference pack (``$ORRERY_SHARED`` or ``../shared``).

``--every-position [K/N]`` instead checks that in every position of the real games
the turn actually played is among the generated turns (about an hour on one core;
``K/N`` takes every N-th file from the K-th, to split the work between processes).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain.homeworlds import SDG, Position, Turn, count_turns, play, successors, turn_to  # noqa: E402
from domain.homeworlds.transcripts import check_file  # noqa: E402

BENCHMARKS = {
    "quux benchmark 1 (27,635 under Quuxplusone's rules)": (
        "<0>; Player1(0,b3y1)r1-; Alpha(b1)r1-; Beta(b1)g1-; Gamma(b2)r1-; Delta(b2)g1-; Player2(1,b3)b3y3y2g1-r2g2"
    ),
    "quux benchmark 2 (33,332 under Quuxplusone's rules)": (
        "<0>; Sam(0,y1b3)r1g3-; Dave(1,r2y1)-g1b3; Delos(b3)r1-; Lebling(g2)r1y1b2-; Kotok(g3)r3-; Minsky(g2)r2-; "
        "Licklider(g2)r2-; Frotz(r3)-g1b1; Shrdlu(r3)-b1; Fritz(b2)y3g1-"
    ),
}
SHARED = Path(os.environ.get("ORRERY_SHARED") or ROOT.parent / "shared")
GAMES = SHARED / "reference" / "homeworlds" / "games"


def rate(position: Position, repeat: int = 3) -> tuple[int, int, float, float]:
    """(successors, those the mover survives, best seconds counting, best seconds listing turn and position)."""
    counting = listing = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        count_turns(position)
        counting = min(counting, time.perf_counter() - start)
        start = time.perf_counter()
        found = list(successors(position))
        listing = min(listing, time.perf_counter() - start)
    safe = sum(1 for _, reached in found if position.to_move not in reached.losers())
    return len(found), safe, counting, listing


def mid_game_positions(every: int = 50, plies: range = range(20, 41, 5)) -> list[Position]:
    """Positions before plies 20, 25 ... 40 of every ``every``-th SDG game."""
    found = []
    for path in sorted((GAMES / "sdg").glob("*.txt"))[::every]:
        lines = [x for x in path.read_text(errors="replace").splitlines() if x.strip() and not x.startswith("#")]
        position = Position.initial()
        for n, line in enumerate(lines, 1):
            if n in plies and position.outcome() is None:
                found.append(position)
            try:
                position = play(position, Turn.parse(line), SDG)
            except ValueError:
                break
    return found


def every_position(part: int, parts: int) -> None:
    """Check that each turn played in the corpus is found by the generator."""
    start = time.perf_counter()
    checked = missing = 0
    for path in sorted(GAMES.glob("*/*.txt"))[part::parts]:
        text = path.read_text(errors="replace")
        position = Position.initial()
        for line in text.splitlines():
            if line.startswith("# start-position") and ":" in line:
                position = Position.from_text(line.split(":", 1)[1])
            if not line.strip() or line.startswith("#"):
                continue
            try:
                reached = play(position, Turn.parse(line), SDG)
            except ValueError:
                break
            checked += 1
            if turn_to(position, reached, SDG) is None:
                missing += 1
                print(f"   not generated: {path.name}: {line}", flush=True)
            position = reached
    print(f"checked {checked:,} positions, {missing} played turns not generated, {time.perf_counter() - start:.0f} s")


def main() -> None:
    print("1. distinct successor positions per second (official rules)")
    for name, text in BENCHMARKS.items():
        total, safe, counting, listing = rate(Position.from_text(text))
        print(
            f"   {name}: {total:,} successors ({safe:,} not losing for the mover); "
            f"counted in {counting:.3f} s = {total / counting:,.0f}/s, "
            f"listed with turn and position in {listing:.3f} s = {total / listing:,.0f}/s"
        )
    if not GAMES.exists():
        print(f"2-3. skipped: no game corpus at {GAMES}")
        return
    sample = mid_game_positions()
    rates, counts = [], []
    for position in sample:
        start = time.perf_counter()
        total = count_turns(position)
        counts.append(total)
        rates.append(total / (time.perf_counter() - start))
    print(
        f"2. {len(sample)} real mid-game positions (plies 20-40 of every 50th SDG game): "
        f"median {statistics.median(counts):,.0f} successors, median rate {statistics.median(rates):,.0f}/s counted, "
        f"total {sum(counts):,} successors"
    )
    files = sorted(GAMES.glob("*/*.txt"))
    start = time.perf_counter()
    verdicts = [check_file(path) for path in files]
    seconds = time.perf_counter() - start
    legal = sum(v.ok for v in verdicts)
    turns = sum(v.turns for v in verdicts)
    print(f"3. checked {len(files):,} transcripts ({turns:,} turns, {legal:,} legal) in {seconds:.2f} s")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--every-position"]:
        k, n = (sys.argv[2] if len(sys.argv) > 2 else "0/1").split("/")
        every_position(int(k), int(n))
    else:
        main()
