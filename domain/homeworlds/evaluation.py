"""A static evaluation of Homeworlds positions, used by the ``greedy`` and ``search`` bots.

:func:`evaluate` scores a table from one player's point of view (higher is better
for that player) as the difference of the two players' :func:`side_terms`, each
a sum of a few hand-weighted terms:

* **material**: every ship counts, large ships more than their pips (they defend
  and capture), so building and capturing are progress and a side that can gain
  material presses on instead of shuffling;
* **access** to the four powers anywhere on the table (a star or an own ship of
  the colour where one has a ship); green and yellow matter most, since a side
  that can neither build nor move is stuck;
* **home defence**: fewer than two ships at home, no large ship at home, enemy
  ships at home at least as large as one's largest there (a capture threat,
  worse when the enemy has red access);
* **catastrophe risk at home**: three pieces of one colour invite a fourth, and
  four can be triggered at once; worse when a home star has that colour;
* **pressure**: one's ships at the enemy homeworld (more if one outguns the
  defenders there) and in systems connected to it; scaled up by
  :func:`pressure_at` when a game drags on past 100 turns, so that neither side
  shuffles forever.

Winning and losing are not the evaluation's business: the bots check the
outcome and search for immediate wins separately. :data:`WIN` is the value they
use for a won position.
"""

from __future__ import annotations

from .pieces import PILE_MASK, SIZE_OF, facts
from .position import HOME_SHIFT, Position

WIN = 1_000_000.0
"""The value of a won position (a lost one is ``-WIN``)."""

SHIP_VALUE = (0.0, 1.0, 2.2, 3.6)
"""Material value of a ship by size (index 1..3)."""
ACCESS_VALUE = (2.5, 4.0, 5.0, 3.0)
"""Value of having each power (red, yellow, green, blue) somewhere."""

PileStats = tuple[int, float, tuple[int, int, int, int], int, int, int, tuple[float, float, float, float]]
"""What :func:`pile_stats` returns."""
_STATS: dict[int, PileStats] = {}


def pile_stats(pile: int) -> PileStats:
    """A side's ships in one system, summed up (cached):
    (pieces, material, pieces per colour, colour bits, largest size, size bits, material per colour)."""
    found = _STATS.get(pile)
    if found is None:
        if len(_STATS) > 1 << 16:
            _STATS.clear()
        n = 0
        material = 0.0
        per_colour = [0, 0, 0, 0]
        by_colour = [0.0, 0.0, 0.0, 0.0]
        for k in range(12):
            c = (pile >> (2 * k)) & 3
            if c:
                n += c
                material += c * SHIP_VALUE[SIZE_OF[k]]
                per_colour[k // 3] += c
                by_colour[k // 3] += c * SHIP_VALUE[SIZE_OF[k]]
        f = facts(pile)
        found = _STATS[pile] = (
            n,
            material,
            (per_colour[0], per_colour[1], per_colour[2], per_colour[3]),
            f.colours,
            f.largest,
            f.sizes,
            (by_colour[0], by_colour[1], by_colour[2], by_colour[3]),
        )
    return found


def material_at(mine: int, theirs: int, stars: int, material: float = 0.0) -> float:
    """``material`` plus the material of the ships ``mine`` in one system, less its share at risk of a
    catastrophe there."""
    st = pile_stats(mine)
    crowd = pile_stats(stars + mine + theirs)[2]
    material += st[1]
    for c in range(4):
        if st[6][c]:
            if crowd[c] >= 4:
                material -= st[6][c]
            elif crowd[c] == 3:
                material -= 0.25 * st[6][c]
    return material


def home_terms(
    stars: int, mine: int, theirs: int, score: float = 0.0, enemy_red: bool | None = None
) -> tuple[float, bool]:
    """``score`` with the home-defence and catastrophe terms at a homeworld added (``mine`` its owner's ships),
    and whether an enemy ship there is at least as large as the owner's largest. That threat costs 12 with
    enemy red access and 5 without; with ``enemy_red`` None it is left to the caller."""
    st_mine = pile_stats(mine)
    st_stars = pile_stats(stars)
    if st_mine[0] < 2:
        score -= 4.0
    if st_mine[4] < 3:
        score -= 3.0
    if st_stars[0] < 2:
        score -= 5.0
    threatened = False
    if theirs:
        st_theirs = pile_stats(theirs)
        score -= 1.5 * st_theirs[1]
        threatened = st_theirs[4] >= st_mine[4]
        if threatened and enemy_red is not None:
            score -= 12.0 if enemy_red else 5.0
    all_colours = pile_stats(stars + mine + theirs)[2]
    for c in range(4):
        n = all_colours[c]
        if n >= 3:
            on_star = st_stars[3] >> c & 1
            if n == 3:
                score -= 5.0 if on_star else 2.0
            else:
                score -= 14.0 if on_star else 6.0
    return score, threatened


def side_terms(systems: tuple[int, ...], player: int, pressure: float = 1.0) -> float:
    """The sum of ``player``'s terms (material, access, home defence, catastrophe risk, pressure).

    ``pressure`` scales the pressure terms (the bots raise it as a game drags on).
    """
    mask = PILE_MASK
    my_shift = 24 if player == 0 else 48
    op_shift = 48 if player == 0 else 24
    my_code = player + 1
    op_code = 2 - player
    material = 0.0
    access = 0
    enemy_red = False
    home = enemy_home = -1
    for i, s in enumerate(systems):
        code = s >> HOME_SHIFT
        if code == my_code:
            home = i
        elif code == op_code:
            enemy_home = i
        mine = (s >> my_shift) & mask
        theirs = (s >> op_shift) & mask
        star_colours = facts(s & mask).colours
        if mine:
            material = material_at(mine, theirs, s & mask, material)
            access |= star_colours | pile_stats(mine)[3]
        if theirs and (star_colours | facts(theirs).colours) & 1:
            enemy_red = True
    score = material * 10.0
    for c in range(4):
        if access >> c & 1:
            score += ACCESS_VALUE[c]
    if home >= 0:
        s = systems[home]
        score = home_terms(s & mask, (s >> my_shift) & mask, (s >> op_shift) & mask, score, enemy_red)[0]
    if enemy_home >= 0:
        s = systems[enemy_home]
        mine = (s >> my_shift) & mask
        theirs = (s >> op_shift) & mask
        if mine:
            st_mine = pile_stats(mine)
            score += 1.5 * pressure * st_mine[1]
            if st_mine[4] > pile_stats(theirs)[4]:
                score += 4.0 * pressure
        home_sizes = facts(s & mask).sizes
        for i, t in enumerate(systems):
            if i != enemy_home and not facts(t & mask).sizes & home_sizes:
                near = (t >> my_shift) & mask
                if near:
                    score += 0.5 * pressure * pile_stats(near)[1]
    return score


def evaluate(position: Position, player: int, pressure: float = 1.0) -> float:
    """How good ``position`` is for ``player``: ``+-WIN`` when decided, else the terms' difference."""
    return evaluate_systems(position.systems, player, position.losers(), pressure)


def evaluate_systems(
    systems: tuple[int, ...], player: int, losers: frozenset[int] = frozenset(), pressure: float = 1.0
) -> float:
    """:func:`evaluate` on a bare tuple of systems, given the players who have lost there."""
    if losers:
        if player in losers:
            return 0.0 if len(losers) == 2 else -WIN
        return WIN
    return side_terms(systems, player, pressure) - side_terms(systems, 1 - player, pressure)


def pressure_at(turn: int) -> float:
    """The pressure factor at game turn ``turn``: 1 for the first 100 turns, then rising by 1 every 50.

    A long game means neither side is making progress; raising the reward for ships
    at and near the enemy homeworld makes the bots attack instead of shuffling.
    """
    return 1.0 + max(0, turn - 100) / 50


def setup_score(position: Position, player: int) -> float:
    """How much ``player`` likes the homeworld just set up in ``position`` (larger is better).

    Two stars of different sizes (so more systems connect to home), a large ship, a
    green ship (to build), yellow and blue among the stars and at most one red;
    against an existing enemy homeworld, sharing a star size with it (so the two
    homeworlds are not directly connected).
    """
    mask = PILE_MASK
    code = player + 1
    home = next(s for s in position.systems if s >> HOME_SHIFT == code)
    stars = home & mask
    ship = (home >> (24 if player == 0 else 48)) & mask
    st_stars = pile_stats(stars)
    st_ship = pile_stats(ship)
    score = 0.0
    if bin(st_stars[5]).count("1") == 2:
        score += 4.0
    score += 3.0 * st_ship[4]
    if st_ship[3] & 4:
        score += 4.0
    colours = st_stars[3] | st_ship[3]
    for c, value in enumerate((0.5, 2.0, 2.0, 2.0)):
        if colours >> c & 1:
            score += value
    if st_stars[3] & 4:
        score -= 1.0
    for s in position.systems:
        if s >> HOME_SHIFT == 2 - player and facts(s & mask).sizes & st_stars[5]:
            score += 3.0
    return score


def capture_threat(systems: tuple[int, ...], player: int) -> float:
    """What ``player``, on move, could gain by captures this turn, in evaluation units (a rough estimate).

    A capture takes an enemy ship no larger than one's largest ship in its system: with
    red there (a star or one's own ship), one capture; with a red ship of size ``n``
    sacrificed anywhere, ``n`` captures anywhere, less the sacrificed ship. A captured
    ship changes sides, so it counts twice. The search adds a share of this to the
    evaluation of the side on move, which sees threats one turn beyond its horizon.
    """
    mask = PILE_MASK
    my_shift = 24 if player == 0 else 48
    op_shift = 48 if player == 0 else 24
    targets: list[float] = []
    single = 0.0
    red = 0
    for s in systems:
        mine = (s >> my_shift) & mask
        if not mine:
            continue
        st = pile_stats(mine)
        if st[3] & 1:
            red = max(red, largest_red(mine))
        theirs = (s >> op_shift) & mask
        if not theirs:
            continue
        reach = st[4]
        here: list[float] = []
        for k in range(12):
            n = (theirs >> (2 * k)) & 3
            if n and SIZE_OF[k] <= reach:
                here += [SHIP_VALUE[SIZE_OF[k]]] * n
        if not here:
            continue
        targets += here
        if (facts(s & mask).colours | st[3]) & 1:
            single = max(single, max(here))
    best = single
    if red and targets:
        targets.sort(reverse=True)
        best = max(best, sum(targets[:red]) - SHIP_VALUE[red] / 2)
    return 20.0 * best


def largest_red(pile: int) -> int:
    """The size of the largest red ship in ``pile`` (a side's ships in one system), 0 with none."""
    for size in (3, 2, 1):
        if (pile >> (2 * (size - 1))) & 3:
            return size
    return 0


__all__ = [
    "WIN",
    "capture_threat",
    "evaluate",
    "evaluate_systems",
    "largest_red",
    "pile_stats",
    "pressure_at",
    "setup_score",
    "side_terms",
]
