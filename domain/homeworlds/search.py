"""Turn choice for the built-in bots: setup, one-turn lookahead (``greedy``), and the alpha-beta search.

The alpha-beta search was ``search`` until the tree search of :mod:`~domain.homeworlds.mcts`
beat it in the arena; it is kept there as ``search-alphabeta``, and the tree search still
uses its pieces at the root (win search, ranking, safety proof, last resorts).

The bots read the whole table (everything is public) and are deterministic given the
``rng`` they are handed: ties are broken by an ``rng`` shuffle before a stable sort,
and the search's work is counted in positions looked at. The clock is a safety net:
every phase has a deadline inside ``think_ms``, and the search for a winning turn
(:func:`~domain.homeworlds.movegen.winning_turn_by`) gives up at its deadline, so no
turn takes much longer than ``think_ms``. When the clock cuts a phase short, the
choice may depend on the machine's speed.

The search (:func:`search_turn`) is a two-turn alpha-beta search with a transposition
table keyed by :func:`~domain.homeworlds.threats.position_hash`, in passes:

1. a winning turn, if there is one, is played (the win search only tries the action
   colours :func:`~domain.homeworlds.threats.winning_colours` leaves open);
2. every turn (up to a count) is generated and ordered by the evaluation less half of
   what the enemy could capture next (:func:`~domain.homeworlds.evaluation.capture_threat`),
   turns that capture or trigger a catastrophe first among equals;
3. candidates, best first, are checked for an enemy win in one (ruled out in
   microseconds by :func:`~domain.homeworlds.threats.may_win` in most positions;
   else the enemy wins found against earlier candidates are tried, then a short
   search), then scored by the enemy's best reply (alpha-beta: a candidate is dropped
   as soon as one reply makes it no better than the best so far). A reply after which
   the mover wins at once does not count as a defence, and a candidate after which
   the mover threatens a win earns :data:`THREAT`;
4. the best candidate proven safe is played; failing that, a safe turn among the
   longest turns (defences that bring ships home); failing that, a candidate whose
   safety could not be decided in time; failing that (every turn loses), the best
   evaluated.

Against stalemates: from turn :data:`LOOP_START` the search picks at random among
the candidates within :data:`MARGIN` of the best (a recapture loop breaks), and
:func:`stalemate_pressure` raises the weight of the pressure terms so that it goes for
the enemy homeworld. The state's position history (:mod:`~domain.homeworlds.state`) is
used by ``greedy`` and by the tree search of :mod:`~domain.homeworlds.mcts`
(:func:`repeating`, :func:`repetition_pressure`); this alpha-beta search, kept as a
reference, does not read it.

When the enemy could win at once against a pass, the usual defence is to bring force
home with a sacrifice, a long turn that the shortest-first ranking may not reach in time;
:func:`reinforcements` lists those turns for the tree search to prove safe first.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator, Mapping

from .evaluation import WIN, capture_threat, evaluate, evaluate_systems, pressure_at, setup_score
from .movegen import OutOfTime, _Found, _search, _turn, successors, winning_turn_by
from .notation import Capture, Catastrophe, Turn
from .pieces import PILE_MASK, Colour, Piece, count
from .position import HOME_SHIFT, Position, System
from .rules import Rules, play
from .state import repetition_key
from .threats import may_win, may_win_systems, position_hash, winning_colours

SAMPLE = 2000
"""How many of a position's turns (the shortest first) ``greedy`` ranks."""
SAFETY_CHECKS = 40
"""How many of the best-ranked turns ``greedy`` checks for an immediate enemy win."""
REPLIES = 400
"""How many enemy replies (the shortest first) the search looks at per candidate turn."""
UNITS_PER_MS = 25
"""Positions the search may look at per millisecond of its budget."""
Ranked = list[tuple[float, Turn, Position]]


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
    position: Position,
    rules: Rules,
    rng: random.Random,
    limit: int = SAMPLE,
    pressure: float = 1.0,
    deadline: float | None = None,
) -> Ranked:
    """Up to ``limit`` turns (shortest first) with their results, best evaluated first.

    Turns after which the mover has lost come last (they stay, in case nothing else is
    legal). Generation stops at ``deadline`` (a :func:`time.monotonic` value) if given.
    """
    player = position.to_move
    found: Ranked = []
    source: Iterator[tuple[Turn, Position]] = successors(position, rules)
    if deadline is not None and position.has_set_up(player) and position.has_set_up(1 - player):
        source = (
            (_turn(path), Position(systems, names, bank, 1 - player, position.established))
            for path, systems, names, bank in _walk(position, deadline)
        )
    for turn, reached in itertools.islice(source, limit):
        found.append((evaluate(reached, player, pressure), turn, reached))
    rng.shuffle(found)
    found.sort(key=lambda item: -item[0])
    return found


def enemy_wins(reached: Position, rules: Rules, deadline: float) -> bool | None:
    """Whether the player to move in ``reached`` has a winning turn; None if that was not decided by ``deadline``."""
    win, done = find_win(reached, rules, deadline)
    if win is not None:
        return True
    return False if done else None


def find_win(position: Position, rules: Rules, deadline: float) -> tuple[Turn | None, bool]:
    """A winning turn of the player to move or None, and whether that was decided by ``deadline``.

    Only the action colours :func:`~domain.homeworlds.threats.winning_colours` leaves open are searched.
    """
    if position.outcome() is not None or not may_win(position):
        return None, True
    return winning_turn_by(position, deadline, rules, winning_colours(position.systems, position.to_move))


def repeating(reached: Position, seen: Mapping[int, int], repeats: int) -> bool:
    """Whether a turn that reaches ``reached`` should give way to a safe turn that does not repeat: it goes back
    to a position already seen (``seen`` counts positions by :func:`~domain.homeworlds.state.repetition_key`)
    while the current position has occurred before (``repeats`` > 1), or to one seen twice already."""
    if not seen:
        return False
    times = seen.get(repetition_key(reached), 0)
    return times >= 2 or (times >= 1 and repeats > 1)


def repetition_pressure(pressure: float, repeats: int) -> float:
    """The pressure factor raised by :data:`REPEAT_PRESSURE` for each earlier occurrence of the current position."""
    return pressure + REPEAT_PRESSURE * (repeats - 1)


def safe_turn(
    ranked: Ranked,
    rules: Rules,
    deadline: float,
    checks: int = SAFETY_CHECKS,
    seen: Mapping[int, int] | None = None,
    repeats: int = 1,
) -> Turn:
    """The best-ranked turn after which the opponent has no immediate win (else the best-ranked), preferring one
    that does not repeat a position (see :func:`repeating`).

    Each check stops at ``deadline``; a turn whose check did not finish is not taken as safe.
    """
    fallback: Turn | None = None
    for value, turn, reached in ranked[:checks]:
        if value <= -WIN or time.monotonic() > deadline:
            break
        if enemy_wins(reached, rules, deadline) is False:
            if not seen or not repeating(reached, seen, repeats):
                return turn
            fallback = fallback or turn
    return fallback or ranked[0][1]


def reinforcements(position: Position) -> Iterator[Turn]:
    """Sacrifice turns that bring force to the mover's homeworld, most ships first: a yellow ship sacrificed for
    moves of the mover's other ships home (one step, or two through a system connected to both), a green one for
    builds there, a red one for captures of enemy ships there. They are the usual defence against an enemy who
    can capture every ship at home, and they are long turns that the shortest-first ranking reaches late. The
    turns are not checked here: :func:`~domain.homeworlds.rules.play` says which are legal."""
    player = position.to_move
    systems = list(position.views())
    home = next((v for v in systems if v.home == player), None)
    if home is None:
        return
    home_sizes = {p.size for p in home.stars}
    mine = {(v.name, p): (v, p) for v in systems for p in v.ships[player]}
    for v, sacrificed in sorted(mine.values(), key=lambda item: -item[1].size):
        actions = sacrificed.size
        colour = sacrificed.colour.letter
        sacrifice = f"sacrifice {sacrificed} {v.name}"
        if colour == "y":
            yield from _moves_home(position, systems, home, home_sizes, v, sacrificed, sacrifice)
        elif colour == "g":
            at_home = [p for p in home.ships[player] if v is not home or p != sacrificed]
            colours = sorted({p.colour for p in at_home})
            bank = {(c, size): count(position.bank, 3 * c + size - 1) for c in Colour for size in (1, 2, 3)}
            for chosen in itertools.combinations_with_replacement(colours, min(actions, 3)):
                left = dict(bank)
                builds = []
                for c in chosen:
                    size = next((size for size in (1, 2, 3) if left[c, size]), None)
                    if size is None:
                        break
                    left[c, size] -= 1
                    builds.append(f"build {c.letter}{size} {home.name}")
                else:
                    yield Turn.parse("; ".join([sacrifice, *builds]))
        elif colour == "r":
            strongest = max((p.size for p in home.ships[player] if v is not home or p != sacrificed), default=0)
            targets = sorted((p for p in home.ships[1 - player] if p.size <= strongest), key=lambda p: -p.size)
            if targets:
                captures = [f"capture {p} {home.name}" for p in targets[:actions]]
                yield Turn.parse("; ".join([sacrifice, *captures]))


def _moves_home(
    position: Position,
    systems: list[System],
    home: System,
    home_sizes: set[int],
    origin: System,
    sacrificed: Piece,
    sacrifice: str,
) -> Iterator[Turn]:
    """The yellow sacrifices of :func:`reinforcements`: the sets of routes home within the sacrifice's moves, most
    ships first, made one at a time (a ship two steps away takes two moves, so at most one such route fits in a
    set of two or more)."""
    player = position.to_move
    near: list[tuple[str, ...]] = []
    far: list[tuple[str, ...]] = []
    for v in systems:
        if v is home:
            continue
        ships = list(v.ships[player])
        if v is origin:
            ships.remove(sacrificed)
        sizes = {p.size for p in v.stars}
        for p in ships:
            if not sizes & home_sizes:
                near.append((f"move {p} {v.name} {home.name}",))
                continue
            for w in systems:
                between = {q.size for q in w.stars}
                if w is not v and w is not home and not between & sizes and not between & home_sizes:
                    far.append((f"move {p} {v.name} {w.name}", f"move {p} {w.name} {home.name}"))
    budget = sacrificed.size
    for n in range(budget, 0, -1):
        for two_step in range(min(n, budget - n) + 1):
            for long in itertools.combinations(far, two_step):
                for short in itertools.combinations(near, n - two_step):
                    moves = [a for route in (*long, *short) for a in route]
                    yield Turn.parse("; ".join([sacrifice, *moves]))


def greedy_turn(
    position: Position,
    rules: Rules,
    rng: random.Random,
    think_ms: int,
    turn: int = 1,
    seen: Mapping[int, int] | None = None,
) -> Turn:
    """One turn of lookahead: win now, else the best-evaluated turn that allows no immediate loss.

    Every phase stops by ``think_ms``: the win search at 35 % of it, the ranking at
    60 %, the safety checks at 80 %. ``seen`` counts the positions of the game so far (by
    :func:`~domain.homeworlds.state.repetition_key`): once the current one has occurred before, a safe turn
    that goes back to a position already seen gives way to one that does not, and the pressure rises.
    """
    started = time.monotonic()
    budget_s = max(think_ms, 1) / 1000
    if not position.has_set_up(position.to_move):
        return choose_setup(position, rules, rng)
    win, _ = find_win(position, rules, started + 0.35 * budget_s)
    if win is not None:
        return win
    repeats = max(1, seen.get(repetition_key(position), 0)) if seen else 1
    pressure = repetition_pressure(pressure_at(turn), repeats)
    ranked = ranked_turns(position, rules, rng, SAMPLE, pressure, started + 0.6 * budget_s)
    if not ranked:
        return Turn(())
    return safe_turn(ranked, rules, started + 0.8 * budget_s, seen=seen, repeats=repeats)


THREAT = 40.0
"""The bonus for a candidate after which the mover threatens a win in one."""
REFINE = 6
"""How many of the enemy's strongest replies the search checks for a win in one by the mover."""
SHARE = 0.5
"""The share of :func:`~domain.homeworlds.evaluation.capture_threat` added for the side on move."""
QUICK = 0.04
"""The share of the budget the search gives one candidate's check for an enemy win, at first."""
KILLERS = 8
"""How many enemy wins found against earlier candidates the search tries first against the next ones."""
DEFENCES = 20
"""How many safe turns the search's last resort collects before it plays the best of them."""
LOOP_START = 60
"""From this game turn on, the search picks at random among candidates within :data:`MARGIN` of the best."""
MARGIN = 6.0
"""How far below the best score a candidate may be and still be picked, from :data:`LOOP_START` on."""
REPEAT_PRESSURE = 1.0
"""How much each earlier occurrence of the current position adds to the pressure factor."""


def stalemate_pressure(turn: int) -> float:
    """The search's pressure factor at game turn ``turn``: 1 for 60 turns, then rising by 1 every 15.

    The 200-turn mark is where a game counts as a stalemate; the factor is about 10 there.
    """
    return 1.0 + max(0, turn - 60) / 15


def _walk(position: Position, deadline: float, depth_first: bool = False) -> Iterator[_Found]:
    """The turns of a position where both players have set up (shortest first, or longest first), until
    ``deadline``."""
    if position.outcome() is not None:
        return
    try:
        yield from _search(position, False, deadline, depth_first)
    except OutOfTime:
        return


def _forcing(turn: Turn) -> bool:
    return any(isinstance(a, (Capture, Catastrophe)) for a in turn.actions)


class _Search:
    """One call of the search: its clock, its work count and its transposition table."""

    def __init__(self, position: Position, rules: Rules, rng: random.Random, think_ms: int, turn: int) -> None:
        self.position = position
        self.rules = rules
        self.rng = rng
        self.player = position.to_move
        self.started = time.monotonic()
        self.budget_s = max(think_ms, 1) / 1000
        self.stop = self.started + 0.65 * self.budget_s
        self.units = UNITS_PER_MS * max(think_ms, 1)
        self.looked = 0
        self.pressure = stalemate_pressure(turn)
        self.margin = MARGIN if turn >= LOOP_START else 0.0
        self.table: dict[int, tuple[bool | None, float]] = {}
        self.killers: list[Turn] = []
        self.win_table: dict[tuple[int, ...], bool | None] = {}

    def at(self, share: float) -> float:
        """The clock time ``share`` of the budget after the start."""
        return self.started + share * self.budget_s

    def out_of_time(self) -> bool:
        return self.units <= 0 or time.monotonic() > self.stop

    def mover_wins_after(self, systems: tuple[int, ...], names: tuple[str, ...], bank: int, deadline: float) -> bool:
        """Whether the searching player can win at once after an enemy reply that left ``systems``."""
        if not may_win_systems(systems, self.player):
            return False
        key = (self.player, *sorted(systems))
        if key in self.win_table:
            return bool(self.win_table[key])
        reached = Position(systems, names, bank, self.player, self.position.established)
        win, done = find_win(reached, self.rules, min(deadline, self.stop))
        found = True if win is not None else (False if done else None)
        self.win_table[key] = found
        return bool(found)

    def candidates(self) -> Ranked:
        """Our turns (up to the count and 40 % of the budget), best evaluated first, forcing ones first among
        equals."""
        limit = max(300, self.units // 2)
        found: list[tuple[float, int, Turn, Position]] = []
        player = self.player
        deadline = self.at(0.4)
        for n, (path, systems, names, bank) in enumerate(_walk(self.position, deadline), 1):
            turn = _turn(path)
            losers = _losers(systems)
            value = evaluate_systems(systems, player, losers, self.pressure)
            if not losers and SHARE:
                value -= SHARE * capture_threat(systems, 1 - player)
            reached = Position(systems, names, bank, 1 - player, self.position.established)
            found.append((value, 0 if _forcing(turn) else 1, turn, reached))
            if n >= limit:
                break
        self.units -= len(found)
        self.looked += len(found)
        self.rng.shuffle(found)
        found.sort(key=lambda item: (-item[0], item[1]))
        return [(value, turn, reached) for value, _, turn, reached in found]

    def reply_value(self, reached: Position, alpha: float) -> float:
        """The worst evaluation for us over the enemy's first :data:`REPLIES` replies, refined by our wins.

        Replies after which we win at once are no defence. Stops as soon as a reply
        that we cannot punish at once brings the value to ``alpha`` or below.
        """
        player = self.player
        strong: list[tuple[float, tuple[int, ...], tuple[str, ...], int]] = []
        n = 0
        deadline = self.stop
        for n, (_, systems, names, bank) in enumerate(_walk(reached, deadline), 1):
            losers = _losers(systems)
            value = evaluate_systems(systems, player, losers, self.pressure)
            if not losers and SHARE:
                value += SHARE * capture_threat(systems, player)
            if value <= alpha and not may_win_systems(systems, player):
                self.units -= n
                self.looked += n
                return value
            strong.append((value, systems, names, bank))
            if n >= REPLIES:
                break
        self.units -= n
        self.looked += n
        if not strong:
            return evaluate_systems(reached.systems, player, reached.losers(), self.pressure)
        strong.sort(key=lambda item: item[0])
        for value, systems, names, bank in strong[:REFINE]:
            if value >= WIN or not self.mover_wins_after(systems, names, bank, self.stop):
                return value
        return strong[REFINE][0] if len(strong) > REFINE else WIN / 2

    def choose(self) -> Turn:
        """The search proper (see the module's docstring)."""
        position, rules = self.position, self.rules
        win, _ = find_win(position, rules, self.at(0.25))
        if win is not None:
            return win
        ranked = self.candidates()
        if not ranked:
            first = next(_walk(position, time.monotonic() + 0.1 * self.budget_s), None)
            return Turn(()) if first is None else _turn(first[0])
        best: float | None = None
        scored: list[tuple[float, Turn]] = []
        unsure: list[tuple[Turn, Position]] = []
        quick = max(0.002, QUICK * self.budget_s)
        alpha = -WIN
        for value, candidate, reached in ranked:
            if value <= -WIN:
                break
            if reached.outcome() is not None:
                return candidate
            if time.monotonic() > self.stop or (best is not None and self.units <= 0):
                break
            key = position_hash(reached)
            known = self.table.get(key)
            if known is None:
                loses = self.enemy_wins(reached, min(self.stop, time.monotonic() + quick))
                score = -WIN
                if loses is False:
                    score = self.reply_value(reached, alpha)
                    if score > alpha and score < WIN / 2 and self.threatens(reached):
                        score += THREAT
                self.units -= 1
                known = self.table[key] = (loses, score)
            loses, score = known
            if loses is None:
                unsure.append((candidate, reached))
                continue
            if loses:
                continue
            scored.append((score, candidate))
            if best is None or score > best:
                best = score
                alpha = score - self.margin
        if best is not None:
            near = [candidate for score, candidate in scored if score >= best - self.margin]
            return self.rng.choice(near) if self.margin else near[0]
        return self.last_resort(ranked, unsure)

    def last_resort(self, ranked: Ranked, unsure: list[tuple[Turn, Position]]) -> Turn:
        """When no candidate was proven safe: a :meth:`defence`, else the first of ``unsure`` (candidates
        whose check did not finish) proven safe with more time, else the first of them, else the best ranked."""
        finish = self.at(0.8)
        defence = self.defence(finish)
        if defence is not None:
            return defence
        for candidate, reached in unsure:
            if time.monotonic() > finish:
                break
            if self.enemy_wins(reached, finish) is False:
                return candidate
        return unsure[0][0] if unsure else ranked[0][1]

    def defence(self, deadline: float) -> Turn | None:
        """When the turns ranked all lose or are undecided: the best-evaluated of the first turns, longest
        first, that :func:`~domain.homeworlds.threats.may_win` proves safe (long turns bring ships home)."""
        player = self.player
        found: list[tuple[float, Turn]] = []
        for path, systems, _, _ in _walk(self.position, deadline, depth_first=True):
            losers = _losers(systems)
            if player in losers or may_win_systems(systems, 1 - player):
                continue
            found.append((evaluate_systems(systems, player, losers, self.pressure), _turn(path)))
            if len(found) >= DEFENCES:
                break
        return max(found, key=lambda item: item[0])[1] if found else None

    def enemy_wins(self, reached: Position, deadline: float) -> bool | None:
        """:func:`enemy_wins`, trying first the enemy wins found against earlier candidates (killer turns)."""
        if reached.outcome() is not None or not may_win(reached):
            return False
        for killer in self.killers:
            try:
                after = play(reached, killer, self.rules)
            except ValueError:
                continue
            if after.losers() == {self.player}:
                return True
        win, done = find_win(reached, self.rules, deadline)
        if win is not None:
            self.killers.insert(0, win)
            del self.killers[KILLERS:]
            return True
        return False if done else None

    def threatens(self, reached: Position) -> bool:
        """Whether we would have a winning turn if we moved again in ``reached``."""
        return self.mover_wins_after(reached.systems, reached.names, reached.bank, self.stop)


def search_turn(position: Position, rules: Rules, rng: random.Random, think_ms: int, turn: int = 1) -> Turn:
    """The search's turn within ``think_ms`` (see the module's docstring).

    The work is counted (:data:`UNITS_PER_MS` positions per millisecond of budget); the
    clock stops the win search at 25 % of ``think_ms``, the ranking at 40 %, the scoring
    at 65 % and the last resorts at 80 %. On this project's 2-core machine the clock,
    not the count, is what stops the search (about 7,000 positions/s under load), so
    the choice there depends on the machine's speed.
    """
    player = position.to_move
    if not position.has_set_up(player):
        return choose_setup(position, rules, rng)
    if not position.has_set_up(1 - player):
        return greedy_turn(position, rules, rng, think_ms, turn)
    return _Search(position, rules, rng, think_ms, turn).choose()


__all__ = [
    "choose_setup",
    "enemy_wins",
    "find_win",
    "greedy_turn",
    "ranked_turns",
    "safe_turn",
    "search_turn",
    "stalemate_pressure",
]
