"""The evaluation of :mod:`~domain.homeworlds.evaluation`, faster, for the tree search (:mod:`.mcts`).

:func:`evaluate_systems` and :func:`capture_threat` give the values of their namesakes in
:mod:`~domain.homeworlds.evaluation` (up to the order of floating-point additions), but a
system's share of them is computed once and kept in a table keyed by the system's
integer: a turn changes one to three systems of a table, so evaluating the tables the
search reaches costs a few look-ups a system instead of a recount of its piles. The
evaluation itself is unchanged (the other bots use it as it is); only the tree search, whose
work is counted in positions but which the clock stops on a loaded machine, gains from the
speed.
"""

from __future__ import annotations

from .evaluation import ACCESS_VALUE, SHIP_VALUE, WIN, home_terms, largest_red, material_at, pile_stats
from .pieces import PILE_MASK, SIZE_OF, facts
from .position import HOME_SHIFT

_LIMIT = 1 << 17
"""How many entries a table holds before it is cleared."""

_System = tuple[int, int, float, float, int, int, bool, bool, float, float, int, int]
_SYSTEMS: dict[int, _System] = {}
_HOMES: dict[tuple[int, int], tuple[float, bool]] = {}
_CAPTURES: dict[tuple[int, int], tuple[int, tuple[float, ...], float]] = {}
_ACCESS: tuple[float, ...] = tuple(sum(ACCESS_VALUE[c] for c in range(4) if bits >> c & 1) for bits in range(16))


def _system(s: int) -> _System:
    """(home code, star sizes, material 0 and 1, access 0 and 1, red access 0 and 1, raw material 0 and 1,
    largest ship 0 and 1) of one system."""
    found = _SYSTEMS.get(s)
    if found is None:
        if len(_SYSTEMS) > _LIMIT:
            _SYSTEMS.clear()
        mask = PILE_MASK
        stars = s & mask
        ships = ((s >> 24) & mask, (s >> 48) & mask)
        star_facts = facts(stars)
        mat = [0.0, 0.0]
        acc = [0, 0]
        red = [False, False]
        raw = [0.0, 0.0]
        largest = [0, 0]
        for p in (0, 1):
            mine, theirs = ships[p], ships[1 - p]
            if mine:
                st = pile_stats(mine)
                mat[p] = material_at(mine, theirs, stars)
                acc[p] = star_facts.colours | st[3]
                red[p] = bool((star_facts.colours | st[3]) & 1)
                raw[p] = st[1]
                largest[p] = st[4]
        found = _SYSTEMS[s] = (
            s >> HOME_SHIFT,
            star_facts.sizes,
            mat[0],
            mat[1],
            acc[0],
            acc[1],
            red[0],
            red[1],
            raw[0],
            raw[1],
            largest[0],
            largest[1],
        )
    return found


def _home(s: int, player: int) -> tuple[float, bool]:
    """``player``'s home-defence and catastrophe terms at its homeworld ``s``, and whether an enemy ship
    there is at least as large as its largest (worth more with enemy red access)."""
    key = (s, player)
    found = _HOMES.get(key)
    if found is None:
        if len(_HOMES) > _LIMIT:
            _HOMES.clear()
        mask = PILE_MASK
        stars = s & mask
        mine = (s >> (24 if player == 0 else 48)) & mask
        theirs = (s >> (48 if player == 0 else 24)) & mask
        found = _HOMES[key] = home_terms(stars, mine, theirs)
    return found


def _sides(systems: tuple[int, ...], pressure: float) -> tuple[float, float]:
    """:func:`~domain.homeworlds.evaluation.side_terms` of both players."""
    mat0 = mat1 = 0.0
    acc0 = acc1 = 0
    red0 = red1 = False
    home0 = home1 = -1
    rows = [_system(s) for s in systems]
    for i, row in enumerate(rows):
        code = row[0]
        if code == 1:
            home0 = i
        elif code == 2:
            home1 = i
        mat0 += row[2]
        mat1 += row[3]
        acc0 |= row[4]
        acc1 |= row[5]
        red0 = red0 or row[6]
        red1 = red1 or row[7]
    score0 = mat0 * 10.0 + _ACCESS[acc0]
    score1 = mat1 * 10.0 + _ACCESS[acc1]
    if home0 >= 0:
        base, threatened = _home(systems[home0], 0)
        score0 += base
        if threatened:
            score0 -= 12.0 if red1 else 5.0
        score1 += _pressure(rows, home0, 1, pressure)
    if home1 >= 0:
        base, threatened = _home(systems[home1], 1)
        score1 += base
        if threatened:
            score1 -= 12.0 if red0 else 5.0
        score0 += _pressure(rows, home1, 0, pressure)
    return score0, score1


def _pressure(rows: list[_System], enemy_home: int, player: int, pressure: float) -> float:
    """``player``'s pressure terms on the enemy homeworld at index ``enemy_home``."""
    score = 0.0
    row = rows[enemy_home]
    raw = row[8 + player]
    if raw:
        score += 1.5 * pressure * raw
        if row[10 + player] > row[11 - player]:
            score += 4.0 * pressure
    home_sizes = row[1]
    near = 0.0
    for i, other in enumerate(rows):
        if i != enemy_home and not other[1] & home_sizes:
            near += other[8 + player]
    return score + 0.5 * pressure * near


def evaluate_systems(
    systems: tuple[int, ...], player: int, losers: frozenset[int] = frozenset(), pressure: float = 1.0
) -> float:
    """:func:`~domain.homeworlds.evaluation.evaluate_systems`, from per-system tables."""
    if losers:
        if player in losers:
            return 0.0 if len(losers) == 2 else -WIN
        return WIN
    score0, score1 = _sides(systems, pressure)
    return score0 - score1 if player == 0 else score1 - score0


def _captures(s: int, player: int) -> tuple[int, tuple[float, ...], float]:
    """``player``'s largest red ship in ``s``, the enemy ships it could capture there, and the best of them
    if it has red access there."""
    key = (s, player)
    found = _CAPTURES.get(key)
    if found is None:
        if len(_CAPTURES) > _LIMIT:
            _CAPTURES.clear()
        mask = PILE_MASK
        mine = (s >> (24 if player == 0 else 48)) & mask
        theirs = (s >> (48 if player == 0 else 24)) & mask
        red = 0
        here: list[float] = []
        single = 0.0
        if mine:
            st = pile_stats(mine)
            if st[3] & 1:
                red = largest_red(mine)
            if theirs:
                reach = st[4]
                for k in range(12):
                    n = (theirs >> (2 * k)) & 3
                    if n and SIZE_OF[k] <= reach:
                        here += [SHIP_VALUE[SIZE_OF[k]]] * n
                if here and (facts(s & mask).colours | st[3]) & 1:
                    single = max(here)
        found = _CAPTURES[key] = (red, tuple(here), single)
    return found


def capture_threat(systems: tuple[int, ...], player: int) -> float:
    """:func:`~domain.homeworlds.evaluation.capture_threat`, from per-system tables."""
    targets: list[float] = []
    single = 0.0
    red = 0
    for s in systems:
        r, here, best = _captures(s, player)
        if r > red:
            red = r
        if here:
            targets += here
            if best > single:
                single = best
    if red and targets:
        targets.sort(reverse=True)
        single = max(single, sum(targets[:red]) - SHIP_VALUE[red] / 2)
    return 20.0 * single


__all__ = ["capture_threat", "evaluate_systems"]
