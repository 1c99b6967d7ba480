"""Where the reference pack lives: ``$ORRERY_SHARED`` or the repository's sibling ``shared``."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("ORRERY_SHARED") or Path(__file__).resolve().parents[3] / "shared")
REFERENCE = SHARED / "reference" / "homeworlds"
GAMES = REFERENCE / "games"


def reference(path: str) -> Path:
    """A file of the reference pack, or skip the test when the pack is absent."""
    found = REFERENCE / path
    if not found.exists():
        pytest.skip(f"the Homeworlds reference pack is not at {REFERENCE} (set ORRERY_SHARED to its parent)")
    return found


def puzzle_positions() -> list[tuple[str, str, bool, str | None]]:
    """The 60 win-in-one tests of puzzles.md section 1: name, position, official verdict, sample win."""
    text = reference("puzzles.md").read_text()
    section = text.split("\n## 1.")[1].split("\n## 2.")[0]
    found = []
    for chunk in section.split("\n### ")[1:]:
        name = chunk.split()[0]
        position = chunk.split("```\n")[1]
        verdict = re.search(r"Official rules: \*\*(no win|win)\*\*(?:; e\.g\. `([^`]*)`)?", chunk)
        assert verdict is not None, name
        found.append((name, position, verdict.group(1) == "win", verdict.group(2)))
    return found
