"""The tree search's faster evaluation gives the values of the evaluation it stands in for."""

from __future__ import annotations

import itertools
import random

import pytest

from domain.homeworlds import Position, Rules, evaluation, tally
from domain.homeworlds.movegen import successors

QUIET = "<0>; Alpha(0,y3b1)r2g1g3-; Beta(1,y3b2)-g1g2g3; Gamma(r1)-y1; Delta(b2)g2-"
CROWDED = "<1>; Player1(0,y2b3)r1r1r2g1g2g3-; Player2(1,y2b3)-r1r3y1g1g2g2; New1(b1)r2r3-; New2(y1)-g1g3; New3(b1)r2r3-"


def _tables() -> list[Position]:
    """Positions along a few random games from two openings, and every turn's result from some of them."""
    found: list[Position] = []
    rng = random.Random(5)
    for text in (QUIET, CROWDED):
        position = Position.from_text(text)
        for ply in range(40):
            options = list(itertools.islice(successors(position, Rules()), 300))
            if ply % 10 == 0:
                found += [reached for _, reached in options]
            playing = [(turn, reached) for turn, reached in options if reached.outcome() is None]
            if not playing:
                break
            position = rng.choice(playing)[1]
            found.append(position)
    return found


TABLES = _tables()


@pytest.mark.parametrize("pressure", [1.0, 3.4])
def test_evaluate_systems_gives_the_evaluations_values(pressure: float) -> None:
    assert len(TABLES) > 400
    for position in TABLES:
        losers = position.losers()
        for player in (0, 1):
            expected = evaluation.evaluate_systems(position.systems, player, losers, pressure)
            assert tally.evaluate_systems(position.systems, player, losers, pressure) == pytest.approx(expected)


def test_capture_threat_gives_the_evaluations_values() -> None:
    for position in TABLES:
        for player in (0, 1):
            expected = evaluation.capture_threat(position.systems, player)
            assert tally.capture_threat(position.systems, player) == pytest.approx(expected)
