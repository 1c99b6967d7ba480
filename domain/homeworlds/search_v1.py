"""The first two-turn search, kept as the arena's reference bot ``search-v1``.

This is the ``search`` bot as it was before :mod:`~domain.homeworlds.search` was
rebuilt, unchanged so that matches against it measure the new search. It reads
the whole table (everything is public) and is deterministic given the ``rng`` it
is handed: ties are broken by an ``rng`` shuffle before a stable sort, and limits
are counted in turns looked at; the clock only cuts a search short as a safety
net when the machine is slower than the counts assume.
"""

from __future__ import annotations

import itertools
import random
import time

from .evaluation import WIN, evaluate, evaluate_systems, pressure_at, setup_score
from .movegen import _turn, _turns, successors, winning_turn
from .notation import Turn
from .pieces import PILE_MASK
from .position import HOME_SHIFT, Position
from .rules import Rules

SAMPLE = 2000
"""How many of a position's turns (the shortest first) the bots rank."""
SAFETY_CHECKS = 40
"""How many of the best-ranked turns ``greedy`` checks for an immediate enemy win."""
REPLIES = 400
"""How many enemy replies (the shortest first) the search looks at per candidate turn."""
UNITS_PER_MS = 20
"""Positions the search may look at per millisecond of its budget."""

Ranked = list[tuple[float, Turn, Position]]
_Scan = tuple[Turn | None, Ranked, bool]


def _losers(systems: tuple[int, ...]) -> frozenset[int]:
    """The players without a ship at their homeworld in an end-of-turn table (both set up)."""
    alive = 0
    for s in systems:
        code = s >> HOME_SHIFT
        if code and (s >> (24 * code)) & PILE_MASK:
            alive |= code
    return frozenset(p for p in (0, 1) if not alive >> p & 1)


def choose_setup(position: Position, rules: Rules, rng: random.Random) -> Turn:
    """The homeworld turn with the best :func:`~domain.homeworlds.evaluation.setup_score`."""
    player = position.to_move
    options = [(turn, reached) for turn, reached in successors(position, rules) if not turn.is_pass]
    if not options:
        return Turn(())
    rng.shuffle(options)
    return max(options, key=lambda option: setup_score(option[1], player))[0]


def ranked_turns(
    position: Position, rules: Rules, rng: random.Random, limit: int = SAMPLE, pressure: float = 1.0
) -> Ranked:
    """Up to ``limit`` turns (shortest first) with their results, best evaluated first.

    Turns after which the mover has lost come last (they stay, in case nothing else is legal).
    """
    player = position.to_move
    found = [
        (evaluate(reached, player, pressure), turn, reached)
        for turn, reached in itertools.islice(successors(position, rules), limit)
    ]
    rng.shuffle(found)
    found.sort(key=lambda item: -item[0])
    return found


def safe_turn(ranked: Ranked, rules: Rules, deadline: float, checks: int = SAFETY_CHECKS) -> Turn:
    """The best-ranked turn after which the opponent has no immediate win (else the best-ranked)."""
    for value, turn, reached in ranked[:checks]:
        if value <= -WIN:
            break
        if reached.outcome() is not None or winning_turn(reached, rules) is None:
            return turn
        if time.monotonic() > deadline:
            break
    return ranked[0][1]


def greedy_turn(position: Position, rules: Rules, rng: random.Random, think_ms: int, turn: int = 1) -> Turn:
    """One turn of lookahead: win now, else the best-evaluated turn that allows no immediate loss."""
    deadline = time.monotonic() + think_ms / 1000
    if not position.has_set_up(position.to_move):
        return choose_setup(position, rules, rng)
    win = winning_turn(position, rules)
    if win is not None:
        return win
    return safe_turn(ranked_turns(position, rules, rng, pressure=pressure_at(turn)), rules, deadline)


def _reply_value(
    reached: Position, rules: Rules, player: int, alpha: float, limit: int, pressure: float, deadline: float
) -> tuple[float, int, bool]:
    """The worst evaluation for ``player`` over the enemy's first ``limit`` replies (shortest first).

    Returns the value, the number of replies looked at, and whether they were all of
    them (then an enemy win would have been seen). Stops early once the value cannot
    beat ``alpha``, or at the deadline.
    """
    worst = WIN
    n = 0
    for n, (_, systems, _, _) in enumerate(_turns(reached, rules), 1):
        value = evaluate_systems(systems, player, _losers(systems), pressure)
        if value < worst:
            worst = value
            if worst <= alpha:
                return worst, n, False
        if n >= limit or (n & 31 == 0 and time.monotonic() > deadline):
            return worst, n, False
    return worst, n, True


def _scan(
    position: Position, rules: Rules, rng: random.Random, limit: int, rank: int, deadline: float, pressure: float
) -> _Scan:
    """Walk up to ``limit`` turns (shortest first), stopping at a win; rank the first ``rank`` of them.

    Returns a winning turn or None, the ranked turns (best first, as :func:`ranked_turns`)
    and whether every turn was walked (so that "no win" is certain).
    """
    player = position.to_move
    enemy_lost = frozenset({1 - player})
    found: Ranked = []
    n = 0
    for n, (path, systems, names, bank) in enumerate(_turns(position, rules), 1):
        losers = _losers(systems)
        if losers == enemy_lost:
            return _turn(path), [], True
        if n <= rank:
            reached = Position(systems, names, bank, 1 - player, position.established)
            found.append((evaluate_systems(systems, player, losers, pressure), _turn(path), reached))
        if n >= limit or (n & 31 == 0 and time.monotonic() > deadline):
            break
    else:
        return None, _sorted(found, rng), True
    return None, _sorted(found, rng), False


def _sorted(found: Ranked, rng: random.Random) -> Ranked:
    rng.shuffle(found)
    found.sort(key=lambda item: -item[0])
    return found


def _enemy_wins(reached: Position, rules: Rules, limit: int, deadline: float) -> bool | None:
    """Whether the enemy has a winning turn among its first ``limit`` turns; None if not all were seen."""
    enemy = reached.to_move
    player_lost = frozenset({1 - enemy})
    for n, (_, systems, _, _) in enumerate(_turns(reached, rules), 1):
        if _losers(systems) == player_lost:
            return True
        if n >= limit or (n & 31 == 0 and time.monotonic() > deadline):
            return None
    return False


def search_turn(position: Position, rules: Rules, rng: random.Random, think_ms: int, turn: int = 1) -> Turn:
    """Two turns deep: each candidate turn, best-evaluated first, is scored by the enemy's best reply.

    The work is counted in turns looked at, :data:`UNITS_PER_MS` per millisecond of
    ``think_ms``, so that on a normal machine the choice does not depend on its speed;
    the clock (``think_ms`` less a margin) cuts each phase short when the count
    underestimates the time (huge positions, slow machine). Phases: walk our turns
    looking for a win and rank the first ones by evaluation; score candidates, best
    first, by the enemy's first :data:`REPLIES` replies (shortest first, which includes
    every capture, catastrophe and single action), with alpha-beta cut-offs; play the
    best-scored candidate after which the enemy has no winning turn.
    """
    started = time.monotonic()
    budget_s = think_ms / 1000 - min(0.25 * think_ms, 150.0) / 1000
    deadline = started + budget_s
    player = position.to_move
    if not position.has_set_up(player):
        return choose_setup(position, rules, rng)
    if not position.has_set_up(1 - player):
        # The enemy passed instead of setting up (an SDG option): nothing to search yet.
        return greedy_turn(position, rules, rng, think_ms, turn)
    budget = UNITS_PER_MS * max(think_ms, 1)
    pressure = pressure_at(turn)
    win, ranked, _ = _scan(
        position,
        rules,
        rng,
        max(200, budget // 2),
        min(SAMPLE, max(50, budget // 4)),
        started + 0.4 * budget_s,
        pressure,
    )
    if win is not None:
        return win
    if not ranked:
        return Turn(())
    budget -= budget // 2
    reply_deadline = started + 0.75 * budget_s
    scored: list[tuple[float, int, Turn, Position, bool]] = []
    best_value = -WIN
    for index, (value, candidate, reached) in enumerate(ranked):
        if value <= -WIN:
            break
        if reached.outcome() is not None:
            return candidate
        if scored and (budget <= 0 or time.monotonic() > reply_deadline):
            break
        reply, n, complete = _reply_value(reached, rules, player, best_value, REPLIES, pressure, deadline)
        budget -= n
        scored.append((reply, index, candidate, reached, complete))
        best_value = max(best_value, reply)
    scored.sort(key=lambda item: (-item[0], item[1]))
    fallback: Turn | None = None
    for reply, _, candidate, reached, complete in scored:
        if reply <= -WIN:
            break
        if complete:
            return candidate
        wins = _enemy_wins(reached, rules, max(200, budget // 2), deadline)
        if wins is False:
            return candidate
        if wins is None:
            # Not all enemy turns were seen in time: the best unrefuted candidate.
            fallback = fallback or candidate
            break
    return fallback or ranked[0][1]


__all__ = ["choose_setup", "greedy_turn", "ranked_turns", "safe_turn", "search_turn"]
