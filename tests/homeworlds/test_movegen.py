"""Legal-turn generation: counts, agreement with the validator, wins, and real games."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from domain.homeworlds import (
    SDG,
    Position,
    Rules,
    Turn,
    count_turns,
    legal_turns,
    play,
    successors,
    turn_to,
    winning_turn,
)

from .shared import GAMES, puzzle_positions, reference

BENCHMARK_1 = (
    "<0>; Player1(0,b3y1)r1-; Alpha(b1)r1-; Beta(b1)g1-; Gamma(b2)r1-; Delta(b2)g1-; Player2(1,b3)b3y3y2g1-r2g2"
)
BENCHMARK_2 = (
    "<0>; Sam(0,y1b3)r1g3-; Dave(1,r2y1)-g1b3; Delos(b3)r1-; Lebling(g2)r1y1b2-; Kotok(g3)r3-; Minsky(g2)r2-; "
    "Licklider(g2)r2-; Frotz(r3)-g1b1; Shrdlu(r3)-b1; Fritz(b2)y3g1-"
)


def agrees_with_validator(position: Position, rules: Rules = SDG) -> int:
    """Play every generated turn through the validator; return how many there were."""
    keys = set()
    n = 0
    for turn, reached in successors(position, rules):
        played = play(position, turn, rules)
        assert played.key() == reached.key(), turn
        assert played.outcome() == reached.outcome(), turn
        keys.add(reached.key())
        n += 1
    assert len(keys) == n
    return n


class TestCounts:
    def test_benchmark_positions(self) -> None:
        assert count_turns(Position.from_text(BENCHMARK_1)) == 37378
        assert count_turns(Position.from_text(BENCHMARK_2)) == 34713

    def test_quuxplusone_counts_when_self_losing_turns_are_left_out(self) -> None:
        """Quuxplusone forbids turns that lose for the mover (and mid-turn catastrophes); without them we
        meet its counts, and exceed the first by the few turns that only the official rules allow."""
        for text, quux, ours in ((BENCHMARK_1, 27635, 27641), (BENCHMARK_2, 33332, 33332)):
            position = Position.from_text(text)
            safe = sum(1 for _, reached in successors(position) if 0 not in reached.losers())
            assert safe == ours and safe - quux in range(10)

    def test_setup_turns(self) -> None:
        first = list(legal_turns(Position.initial()))
        assert len(first) == 78 * 12
        assert all(t.actions[0].name == "Player1" for t in first)  # type: ignore[union-attr]
        assert len(list(legal_turns(Position.initial(), Rules(require_large_ship=True)))) == 78 * 4
        with_pass = list(legal_turns(Position.initial(), Rules(allow_pass_before_setup=True)))
        assert str(with_pass[0]) == "pass" and len(with_pass) == 78 * 12 + 1

    def test_the_game_over_has_no_turns(self) -> None:
        over = play(Position.from_text("<0>; Alpha(0,r2b1)g3-; Beta(1,b3y1)r1-g1"), Turn.parse("attack g1 Beta"))
        assert list(legal_turns(over)) == []

    def test_lazy(self) -> None:
        turns = legal_turns(Position.from_text(BENCHMARK_1))
        assert str(next(turns)) == "pass"


class TestValidatorAgreement:
    def test_every_generated_turn_is_accepted(self) -> None:
        assert agrees_with_validator(Position.from_text(BENCHMARK_1)) == 37378

    @pytest.mark.parametrize("name", [p[0] for p in puzzle_positions()] if GAMES.exists() else ["reference pack"])
    def test_on_puzzle_positions(self, name: str) -> None:
        reference("puzzles.md")
        text = next(p for p in puzzle_positions() if p[0] == name)[1]
        assert agrees_with_validator(Position.from_text(text)) > 0


class TestWinningTurn:
    @pytest.mark.parametrize(
        "puzzle", puzzle_positions() if GAMES.exists() else [("reference pack", "", False, None)], ids=lambda p: p[0]
    )
    def test_official_verdicts(self, puzzle: tuple[str, str, bool, str | None]) -> None:
        reference("puzzles.md")
        name, text, wins, example = puzzle
        position = Position.from_text(text)
        found = winning_turn(position)
        assert (found is not None) == wins, name
        for line in filter(None, (example, str(found) if found else None)):
            assert play(position, Turn.parse(line)).outcome() == (0,)

    def test_a_mutual_destruction_is_not_a_win(self) -> None:
        position = Position.from_text("<0>; Alpha(0,g1r2)b3-; Beta(1,y3r1)g1-b1b1b2")
        assert winning_turn(position) is None
        drawn = play(position, Turn.parse("sacrifice b3 Alpha; trade g1 b1 Beta; catastrophe Beta b"))
        assert drawn.outcome() == (None,)


def corpus_positions(every: int, limit: int) -> Iterator[tuple[str, int, Position, Turn]]:
    """Positions of real games (every ``every``-th SDG game) with the turn played there."""
    branching = json.loads(reference("games/quux-branching-factors.json").read_text())
    for path in sorted((GAMES / "sdg").glob("*.txt"))[::every]:
        counts = branching.get(str(int(path.stem.split("-")[1])), [])
        position = Position.initial()
        lines = [line for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
        for n, line in enumerate(lines, 1):
            turn = Turn.parse(line)
            small = n < 3 or (n - 3 < len(counts) and counts[n - 3] <= limit)
            if small and position.outcome() is None:
                yield path.name, n, position, turn
            try:
                position = play(position, turn, SDG)
            except ValueError:
                break


class TestRealGames:
    def test_the_turn_played_is_generated(self) -> None:
        checked = 0
        for name, n, position, turn in corpus_positions(every=23, limit=3000):
            assert turn_to(position, play(position, turn, SDG), SDG) is not None, f"{name} line {n}: {turn}"
            checked += 1
        assert checked > 2000
