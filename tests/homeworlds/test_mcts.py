"""The tree search behind the ``search`` bot: scores, solved nodes, wins, safety, determinism and deadlines."""

from __future__ import annotations

import doctest
import random
import time

import pytest

from domain.homeworlds import Outcome, Position, Rules, Turn, mcts, play, winning_turn
from domain.homeworlds.evaluation import WIN
from domain.homeworlds.mcts import _Node, _Tree, mcts_turn, squash

from .test_tactics import FROM_ARENA

WIN_IN_ONE = "<0>; Player1(0,y3g2)y1-; Player2(1,r3b2)r1-r1b1b1b1"
"""Player 1 wins by a blue catastrophe at Player 2's homeworld, then a capture."""
THREATENED = "<0>; Alpha(0,b1y2)g1-r3; Beta(1,y3g3)-g1"
"""Player 2's r3 sits next to player 1's only ship at home, a g1: passing loses at once."""
QUIET = "<0>; Alpha(0,y3b1)r2g1g3-; Beta(1,y3b2)-g1g2g3; Gamma(r1)-y1; Delta(b2)g2-"


class TestSquash:
    def test_is_a_score_between_a_loss_and_a_win(self) -> None:
        assert squash(-WIN) == 0.0 < squash(-50) < squash(0) == 0.5 < squash(50) < squash(WIN) == 1.0

    def test_is_symmetric(self) -> None:
        assert squash(30) + squash(-30) == pytest.approx(1.0)

    def test_the_docstring_examples(self) -> None:
        assert doctest.testmod(mcts).failed == 0


class TestSolvedNodes:
    def tree(self, text: str) -> _Tree:
        return _Tree(Position.from_text(text), Rules(), random.Random(1), 1000, 1)

    def test_a_side_that_can_win_at_once_wins_the_node(self) -> None:
        tree = self.tree(WIN_IN_ONE)
        node = _Node(tree.position, 1.0)
        assert tree.expand(node) == 1.0
        assert node.solved == 1.0 and node.children == []

    def test_a_finished_game_is_solved_for_the_loser(self) -> None:
        lost = Position.from_text("<1>; Alpha(0,y3b1)r2-; Beta(1,y3b2)r3-")
        tree = self.tree(QUIET)
        node = _Node(lost, 1.0)
        assert tree.expand(node) == 0.0
        assert tree.descend(node) == 1.0  # for player 1, who moved into it

    def test_an_open_node_gets_its_best_evaluated_turns_as_children(self) -> None:
        tree = self.tree(QUIET)
        node = _Node(tree.position, 1.0)
        score = tree.expand(node)
        assert 0.0 < score < 1.0
        assert node.children is not None and len(node.children) == mcts.WIDTH
        assert sum(child.prior for child in node.children) == pytest.approx(1.0)
        assert all(child.position.to_move == 1 for child in node.children)


class TestTurns:
    def test_wins_at_once_when_it_can(self) -> None:
        position = Position.from_text(WIN_IN_ONE)
        turn = mcts_turn(position, Rules(), random.Random(1), 200)
        assert play(position, turn).outcome() == Outcome(0)

    def test_does_not_walk_into_a_loss_in_one(self) -> None:
        position = Position.from_text(THREATENED)
        assert winning_turn(play(position, Turn.parse("pass"))) is not None
        reached = play(position, mcts_turn(position, Rules(), random.Random(3), 300))
        assert reached.outcome() is None
        assert winning_turn(reached) is None

    def test_is_deterministic_given_the_rng_when_the_count_ends_the_search(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(mcts, "UNITS_PER_MS", 1)
        position = Position.from_text(QUIET)
        trees = [_Tree(position, Rules(), random.Random(7), 3000, 1) for _ in range(2)]
        turns = set()
        for tree in trees:
            turns.add(str(tree.choose()))
            assert time.monotonic() < tree.stop  # the count, not the clock, ended the search
        assert len(turns) == 1
        assert trees[0].simulations == trees[1].simulations > 10

    def test_stops_once_the_most_visited_candidate_cannot_be_overtaken(self) -> None:
        tree = _Tree(Position.from_text(QUIET), Rules(), random.Random(1), 1000, 1)
        root = _Node(tree.position, 1.0)
        root.children = [_Node(tree.position, 0.5), _Node(tree.position, 0.5)]
        tree.simulations = mcts.WIDTH
        root.children[0].visits, root.children[1].visits = 8, 0
        tree.units = 700  # 100 a simulation so far: 7 left, 8 behind
        assert tree.settled(root, 700 + 100 * mcts.WIDTH)
        tree.units = 900  # 9 left
        assert not tree.settled(root, 900 + 100 * mcts.WIDTH)

    def test_stops_at_its_deadline_where_a_win_search_takes_seconds(self) -> None:
        text, losing = FROM_ARENA[0]
        heavy = play(Position.from_text(text), Turn.parse(losing))
        started = time.monotonic()
        turn = mcts_turn(heavy, Rules(), random.Random(1), 50)
        assert time.monotonic() - started < 1.0  # uninterrupted, the enemy's win search takes over 2 s
        play(heavy, turn)
