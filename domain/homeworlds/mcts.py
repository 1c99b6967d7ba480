"""The ``search`` bot: a Monte Carlo tree search guided by the evaluation.

The issue asked for alpha-beta with a position table or for a tree search guided by the
evaluation, measured against each other, the stronger kept. This is the second, and it
won; the first is kept for the arena as ``search-alphabeta`` (:mod:`~domain.homeworlds.search`).

It is a PUCT search (the selection rule of AlphaZero) with no random playouts. A node's
children are the mover's :data:`WIDTH` best-evaluated turns among the first
:data:`GENERATED` (shortest first), their priors a softmax of those evaluations; a new
leaf is worth the evaluation of its best child for the side on move, squashed into
``0..1`` by :func:`squash`. A side that has a winning turn in a node (searched only where
:func:`~domain.homeworlds.threats.may_win` allows it) wins there, so the tree never counts
on a reply that loses at once; a node is lost when all its turns are children and each
of them loses.

At the root, the candidates are those of :mod:`~domain.homeworlds.search` (its win search
first, its ranking, its proof that a candidate allows no win in one, its last resorts when
none is proven safe). When the enemy could win at once were the bot to pass, up to
:data:`REINFORCEMENTS` of the sacrifice turns that bring force home
(:func:`~domain.homeworlds.search.reinforcements`) are proven safe first and join the
candidates: they are long turns, which the shortest-first ranking often does not reach in
time, and often the only defence. Only the :data:`ROOT_WIDTH` best candidates proven safe enter the
tree, those after which the bot threatens a win in one with
:data:`~domain.homeworlds.search.THREAT` added (inside the tree that bonus made the search
weaker in the arena, so nodes there get none). The turn played is the most visited one;
from turn :data:`~domain.homeworlds.search.LOOP_START` on, one picked at random among those
visited nearly as often (:data:`NEAR`) whose mean score is close to its (:data:`NEAR_VALUE`,
a margin that widens as the game drags on), so that a recapture loop breaks without playing
a turn the tree found worse, while the evaluation presses harder on the enemy homeworld
(:func:`~domain.homeworlds.search.stalemate_pressure`).

The state's position history (``seen``, the positions of the game so far counted by
:func:`~domain.homeworlds.state.repetition_key`) works the same way sooner: once the current
position has occurred before, the safe candidates that go back to a position already seen
(and always those that would make a third occurrence) stay out of the tree unless no other
candidate is safe (:func:`~domain.homeworlds.search.repeating`), the random pick among near
candidates starts whatever the turn, and the pressure factor rises by one for each earlier
occurrence (:func:`~domain.homeworlds.search.repetition_pressure`).

The evaluation is that of :mod:`~domain.homeworlds.evaluation`, computed from per-system
tables (:mod:`~domain.homeworlds.tally`), and the root makes a candidate's turn and position
only when it looks at it: on a loaded machine, where the clock and not the count stops the
search, that and the tree's later stop give it about twice as many simulations a move.

Like the other bots it is deterministic given the ``rng`` as long as the clock does not
cut it short. The work is counted in positions looked at (:data:`UNITS_PER_MS` per
millisecond; this project's 2-core machine manages 15 to 40 a millisecond when not
loaded), and the tree also stops once the most visited candidate cannot be overtaken with
the work left. The clock is the safety net: the win search stops by 25 % of ``think_ms``,
the reinforcements by 35 % (:data:`REINFORCE_STOP`), the candidates by 40 %, their proofs by
65 %, the tree by 75 % (:data:`TREE_STOP`), the last resorts by 80 %. The built-in bot
(:func:`~domain.homeworlds.bots.search`) pauses the cyclic garbage collector meanwhile.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping

from .evaluation import WIN
from .movegen import _Path, _turn
from .notation import Turn
from .position import Position
from .rules import Rules, play
from .search import (
    LOOP_START,
    QUICK,
    SHARE,
    THREAT,
    Ranked,
    _losers,
    _Search,
    _walk,
    choose_setup,
    find_win,
    greedy_turn,
    reinforcements,
    repeating,
    repetition_pressure,
)
from .state import repetition_key
from .tally import capture_threat, evaluate_systems
from .threats import may_win, may_win_systems

ROOT_WIDTH = 12
"""How many of the root's best-ranked candidates proven safe enter the tree."""
WIDTH = 8
"""How many of a node's best-evaluated turns become its children."""
GENERATED = 150
"""How many turns (the shortest first) are generated and evaluated to expand a node."""
SCALE = 40.0
"""Evaluation units per unit of the logistic :func:`squash`."""
EXPLORE = 1.5
"""The PUCT exploration constant."""
TEMPERATURE = 20.0
"""Evaluation units per unit of the softmax that turns evaluations into priors."""
THREAT_SEARCH = 0.01
"""The share of the budget one check for a threat of a win may take."""
THREAT_COST = 10
"""The work one check for a threat of a win counts for, in positions."""
PROOF_STOP = 0.65
"""The share of the budget by which the root's candidates are proven safe, by the clock (the last resorts,
when none is, have until 80 %)."""
TREE_STOP = 0.75
"""The share of the budget by which the tree stops, by the clock."""
REINFORCE_STOP = 0.35
"""The share of the budget by which the root's reinforcements (when the enemy threatens a win) are proven safe."""
REINFORCEMENTS = 4
"""How many reinforcements proven safe join the root's candidates when the enemy threatens a win."""
REINFORCE_PROOF = 0.1
"""The share of the budget one reinforcement's proof may take."""
UNITS_PER_MS = 20
"""Positions the search may look at per millisecond of its budget."""
NEAR = 0.75
"""From turn :data:`~domain.homeworlds.search.LOOP_START` on, the share of the most visits a root child
needs to be picked."""
NEAR_VALUE = 0.03
"""From turn :data:`~domain.homeworlds.search.LOOP_START` on, how far below the most visited root child's mean
score (``0..1``) another child's may be and still be picked, times the pressure factor (so the margin widens as
the game drags on)."""


def squash(value: float) -> float:
    """An evaluation (for the side it is computed for) as a score in ``0..1``.

    >>> squash(0.0), squash(WIN), squash(-WIN)
    (0.5, 1.0, 0.0)
    """
    if value >= WIN:
        return 1.0
    if value <= -WIN:
        return 0.0
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, value / SCALE))))


class _Node:
    """A position in the tree; ``total`` sums the scores for the side that moved into it."""

    __slots__ = ("children", "complete", "position", "prior", "solved", "total", "turn", "visits")

    def __init__(self, position: Position, prior: float, turn: Turn | None = None) -> None:
        self.position = position
        self.prior = prior
        self.turn = turn
        self.visits = 0
        self.total = 0.0
        self.children: list[_Node] | None = None
        self.solved: float | None = None
        self.complete = False


def _priors(values: list[float]) -> list[float]:
    top = max(values)
    weights = [math.exp((v - top) / TEMPERATURE) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


_Raw = tuple[float, int, _Path, tuple[int, ...], tuple[str, ...], int]


def _forcing(path: _Path) -> bool:
    """Whether the turn of ``path`` captures or triggers a catastrophe."""
    while path is not None:
        step, path = path
        if step[0] in ("a", "c"):
            return True
    return False


class _Root(_Search):
    """The root pieces of :mod:`~domain.homeworlds.search`, its ranking made with the faster evaluation of
    :mod:`~domain.homeworlds.tally` and its turns and positions made only for the candidates looked at."""

    def raw_candidates(self) -> list[_Raw]:
        """:meth:`~domain.homeworlds.search._Search.candidates`, each as its value, whether it is not forcing,
        its path and its table."""
        limit = max(300, self.units // 2)
        found: list[_Raw] = []
        player = self.player
        for n, (path, systems, names, bank) in enumerate(_walk(self.position, self.at(0.4)), 1):
            losers = _losers(systems)
            value = evaluate_systems(systems, player, losers, self.pressure)
            if not losers and SHARE:
                value -= SHARE * capture_threat(systems, 1 - player)
            found.append((value, 0 if _forcing(path) else 1, path, systems, names, bank))
            if n >= limit:
                break
        self.units -= len(found)
        self.looked += len(found)
        self.rng.shuffle(found)
        found.sort(key=lambda item: (-item[0], item[1]))
        return found

    def value(self, systems: tuple[int, ...]) -> float:
        """The ranking's value of the table ``systems`` reached by a turn of the searching player."""
        losers = _losers(systems)
        value = evaluate_systems(systems, self.player, losers, self.pressure)
        if not losers and SHARE:
            value -= SHARE * capture_threat(systems, 1 - self.player)
        return value

    def defended(self, deadline: float) -> Ranked:
        """If the enemy would win at once were the searching player to pass: up to :data:`REINFORCEMENTS` of the
        :func:`~domain.homeworlds.search.reinforcements` proven safe by ``deadline``, with their values."""
        position = self.position
        player = self.player
        passed = Position(position.systems, position.names, position.bank, 1 - player, position.established)
        quick = max(0.002, QUICK * self.budget_s)
        if self.enemy_wins(passed, min(deadline, time.monotonic() + quick)) is not True:
            return []
        found: Ranked = []
        tried: set[tuple[int, ...]] = set()
        proof = max(quick, REINFORCE_PROOF * self.budget_s)
        for turn in reinforcements(position):
            if len(found) >= REINFORCEMENTS or time.monotonic() > deadline:
                break
            try:
                reached = play(position, turn, self.rules)
            except ValueError:
                continue
            self.units -= 1
            key = tuple(sorted(reached.systems))
            if player in reached.losers() or key in tried:
                continue
            tried.add(key)
            if self.enemy_wins(reached, min(deadline, time.monotonic() + proof)) is False:
                found.append((self.value(reached.systems), turn, reached))
        return found

    def made(self, raw: _Raw) -> tuple[float, Turn, Position]:
        """A raw candidate as its value, its turn and the position it reaches."""
        value, _, path, systems, names, bank = raw
        return value, _turn(path), Position(systems, names, bank, 1 - self.player, self.position.established)


class _Tree:
    """One call of the search: the root's safe candidates, the clock and the work count."""

    def __init__(
        self,
        position: Position,
        rules: Rules,
        rng: random.Random,
        think_ms: int,
        turn: int,
        seen: Mapping[int, int] | None = None,
    ) -> None:
        self.root_search = _Root(position, rules, rng, think_ms, turn)
        self.seen: Mapping[int, int] = seen or {}
        self.repeats = max(1, self.seen.get(repetition_key(position), 0)) if self.seen else 1
        self.root_search.pressure = repetition_pressure(self.root_search.pressure, self.repeats)
        self.position = position
        self.rules = rules
        self.rng = rng
        self.started = self.root_search.started
        self.budget_s = self.root_search.budget_s
        self.stop = self.started + TREE_STOP * self.budget_s
        self.units = self.budget_units = UNITS_PER_MS * max(think_ms, 1)
        self.pressure = self.root_search.pressure
        self.loops = turn >= LOOP_START or self.repeats > 1
        self.threats: dict[tuple[int, ...], bool] = {}
        self.simulations = 0

    @property
    def looked(self) -> int:
        """How many positions the search has looked at."""
        return self.budget_units - self.units

    def out_of_time(self) -> bool:
        return self.units <= 0 or time.monotonic() > self.stop

    def expand(self, node: _Node) -> float:
        """Give ``node`` its children; the score of the best of them for the side on move (0..1)."""
        position = node.position
        mover = position.to_move
        losers = position.losers()
        if losers:
            node.children = []
            node.solved = 0.5 if len(losers) == 2 else (0.0 if mover in losers else 1.0)
            return node.solved
        if may_win(position):
            win, _ = find_win(position, self.rules, min(self.stop, time.monotonic() + 0.03 * self.budget_s))
            self.units -= 1
            if win is not None:
                node.children = []
                node.solved = 1.0
                return 1.0
        found: list[tuple[float, tuple[int, ...], tuple[str, ...], int, _Path]] = []
        n = 0
        for n, (path, systems, names, bank) in enumerate(_walk(position, self.stop), 1):
            losers = _losers(systems)
            value = evaluate_systems(systems, mover, losers, self.pressure)
            if not losers and SHARE:
                value -= SHARE * capture_threat(systems, 1 - mover)
            found.append((value, systems, names, bank, path))
            if n >= GENERATED:
                break
        self.units -= n
        if not found:
            node.children = []
            node.solved = 0.5
            return 0.5
        self.rng.shuffle(found)
        found.sort(key=lambda item: -item[0])
        kept = found[:WIDTH]
        node.complete = n < GENERATED and len(found) == len(kept) and time.monotonic() <= self.stop
        priors = _priors([item[0] for item in kept])
        node.children = [
            _Node(Position(systems, names, bank, 1 - mover, position.established), prior, _turn(path))
            for (_, systems, names, bank, path), prior in zip(kept, priors, strict=True)
        ]
        return squash(kept[0][0])

    def threatens(self, systems: tuple[int, ...], names: tuple[str, ...], bank: int, player: int) -> bool:
        """Whether ``player`` would have a winning turn on this table if it moved again (False if the win
        search does not finish in :data:`THREAT_SEARCH` of the budget)."""
        if not may_win_systems(systems, player):
            return False
        key = (player, *sorted(systems))
        found = self.threats.get(key)
        if found is None:
            table = Position(systems, names, bank, player, self.position.established)
            deadline = min(self.stop, time.monotonic() + THREAT_SEARCH * self.budget_s)
            win, _ = find_win(table, self.rules, deadline)
            self.units -= THREAT_COST
            found = self.threats[key] = win is not None
        return found

    def select(self, node: _Node) -> _Node:
        """The child of ``node`` with the best PUCT score for the side on move."""
        assert node.children
        root_visits = math.sqrt(node.visits + 1)
        best: _Node | None = None
        best_score = -math.inf
        for child in node.children:
            if child.solved is not None:
                q = 1.0 - child.solved
            elif child.visits:
                q = child.total / child.visits
            else:
                q = 0.5
            score = q + EXPLORE * child.prior * root_visits / (1 + child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def descend(self, node: _Node) -> float:
        """One simulation from ``node``: the score for the side that moved into ``node`` (0..1)."""
        if node.solved is not None:
            result = 1.0 - node.solved
        elif node.children is None:
            result = 1.0 - self.expand(node)
        else:
            result = 1.0 - self.descend(self.select(node))
            if any(c.solved == 0.0 for c in node.children):
                node.solved = 1.0
                result = 0.0
            elif node.complete and all(c.solved == 1.0 for c in node.children):
                node.solved = 0.0
                result = 1.0
        node.visits += 1
        node.total += result
        return result

    def settled(self, root: _Node, start: int) -> bool:
        """Whether the root's most visited child can no longer be overtaken with the work left (the work
        a simulation takes estimated from those so far; ``start`` is the count when the tree began)."""
        if self.simulations < WIDTH or not root.children:
            return False
        per = max(1.0, (start - self.units) / self.simulations)
        first, second = sorted([c.visits for c in root.children], reverse=True)[:2]
        return first - second > self.units / per

    def choose(self) -> Turn:
        """The search proper (see the module's docstring)."""
        search = self.root_search
        win, _ = find_win(self.position, self.rules, search.at(0.25))
        if win is not None:
            return win
        defended = search.defended(search.at(REINFORCE_STOP))
        raw = search.raw_candidates()
        if not raw:
            if defended:
                return max(defended, key=lambda item: item[0])[1]
            first = next(_walk(self.position, time.monotonic() + 0.1 * self.budget_s), None)
            return Turn(()) if first is None else _turn(first[0])
        ranked: Ranked = [search.made(raw[0])]
        safe: list[tuple[float, Turn, Position]] = []
        again: list[tuple[float, Turn, Position]] = []
        for value, candidate, reached in defended:
            (again if repeating(reached, self.seen, self.repeats) else safe).append((value, candidate, reached))
        known = {tuple(sorted(reached.systems)) for _, _, reached in defended}
        unsure: list[tuple[Turn, Position]] = []
        quick = max(0.002, 0.04 * self.budget_s)
        proofs = search.at(PROOF_STOP)
        for index, item in enumerate(raw):
            value, candidate, reached = ranked[0] if index == 0 else search.made(item)
            if value <= -WIN or len(safe) >= ROOT_WIDTH or time.monotonic() > proofs:
                break
            if reached.outcome() is not None:
                return candidate
            if known and tuple(sorted(reached.systems)) in known:
                continue
            loses = search.enemy_wins(reached, min(proofs, time.monotonic() + quick))
            if loses is False:
                (again if repeating(reached, self.seen, self.repeats) else safe).append((value, candidate, reached))
            elif loses is None:
                unsure.append((candidate, reached))
        safe = safe or again
        if not safe:
            return search.last_resort(ranked, unsure)
        if len(safe) == 1:
            return safe[0][1]
        safe = [
            (
                value + THREAT
                if self.threatens(reached.systems, reached.names, reached.bank, self.position.to_move)
                else value,
                candidate,
                reached,
            )
            for value, candidate, reached in safe
        ]
        priors = _priors([value for value, _, _ in safe])
        root = _Node(self.position, 1.0)
        root.children = [
            _Node(reached, prior, candidate) for (_, candidate, reached), prior in zip(safe, priors, strict=True)
        ]
        self.units -= search.looked
        start = self.units
        while not self.out_of_time() and root.solved is None and not self.settled(root, start):
            self.descend(root)
            self.simulations += 1
            self.units -= 1
        best = max(root.children, key=lambda c: (c.solved == 0.0, c.solved != 1.0, c.visits, c.total / (c.visits or 1)))
        if self.loops and best.solved is None:
            value = best.total / (best.visits or 1)
            near = [
                c
                for c in root.children
                if c.solved is None
                and c.visits
                and c.visits >= NEAR * best.visits
                and c.total / c.visits >= value - NEAR_VALUE * self.pressure
            ]
            best = self.rng.choice(near or [best])
        assert best.turn is not None
        return best.turn


def mcts_turn(
    position: Position,
    rules: Rules,
    rng: random.Random,
    think_ms: int,
    turn: int = 1,
    seen: Mapping[int, int] | None = None,
) -> Turn:
    """The tree search's turn within ``think_ms`` (see the module's docstring); ``seen`` counts the positions of
    the game so far by :func:`~domain.homeworlds.state.repetition_key` (the state's history)."""
    player = position.to_move
    if not position.has_set_up(player):
        return choose_setup(position, rules, rng)
    if not position.has_set_up(1 - player):
        return greedy_turn(position, rules, rng, think_ms, turn, seen)
    return _Tree(position, rules, rng, think_ms, turn, seen).choose()


__all__ = ["mcts_turn", "squash"]
