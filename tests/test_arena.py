"""The arena: bots play whole games against each other, first seat alternating."""

from __future__ import annotations

import subprocess
import sys

from domain.arena import play_match
from tests.conftest import ROOT
from tests.support.tictactoe import GAME


def test_a_match_alternates_the_first_seat_and_counts_every_game() -> None:
    result = play_match(GAME, "random", "slow", 6, think_ms=1, seed="t")
    assert [g.first for g in result.games] == ["random", "slow"] * 3
    assert result.a.wins + result.b.wins == 6
    assert all(g.outcome is not None for g in result.games)
    assert result.a.moves > 0 and result.b.moves > 0
    assert result.b.mean_think_ms >= 1.0
    assert "over 6 games" in result.summary()


def test_the_same_seed_plays_the_same_match() -> None:
    one = play_match(GAME, "random", "random", 4, think_ms=1, seed="same")
    two = play_match(GAME, "random", "random", 4, think_ms=1, seed="same")
    assert [(g.outcome, g.plies) for g in one.games] == [(g.outcome, g.plies) for g in two.games]


def test_the_arena_command() -> None:
    command = [
        sys.executable,
        str(ROOT / "benchmarks" / "bot_arena.py"),
        "--game",
        "tictactoe",
        "random",
        "random",
        "-n",
        "4",
        "--think-ms",
        "1",
    ]
    out = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "random vs random" in out.stdout and "over 4 games" in out.stdout
    bad = subprocess.run([*command[:4], "nobody", "random"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "no bot 'nobody'" in bad.stderr
