"""Two built-in bots play N games, alternating the first seat; prints the score
and the mean think time per move (same as ``orrery arena``).

    python benchmarks/bot_arena.py --game homeworlds greedy random -n 100
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app import main

if __name__ == "__main__":
    sys.exit(main(["arena", *sys.argv[1:]]))
