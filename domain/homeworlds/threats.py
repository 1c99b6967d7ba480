"""A quick test that rules out a win in one turn, and position hashes for the search's table.

Generating every turn of a position to prove that none of them wins can take seconds
(a large yellow sacrifice has tens of thousands of outcomes). :func:`may_win` answers
in microseconds with a necessary condition: when it says False, the player to move
has no winning turn; when it says True, only a real search can tell.

The condition follows from what a win needs. The defender's ships at their homeworld
leave it during the attacker's turn only by capture (red actions, by an attacker's
ship there at least as large: captured ships never make the attacker's largest ship
there larger) or by catastrophe there (all of one colour, or the home itself when
every star colour goes). A turn's actions all have one colour. Captures do not
change the colour counts; every yellow, green or blue action adds at most one piece
of one colour to the homeworld (a move in, a build, a trade), and builds and trades
need an attacker's ship there already. A ship moves in from outside: one move from a
system connected to the homeworld, at least two from any other. A basic action is one
action; a sacrifice of a ship of size ``n`` gives ``n``.
"""

from __future__ import annotations

from .pieces import PILE_MASK, facts
from .position import HOME_SHIFT, SHIP_SHIFT, Position

RED, YELLOW, GREEN, BLUE = range(4)


def _colour_counts(pile: int) -> list[int]:
    counts = [0, 0, 0, 0]
    for k in range(12):
        n = (pile >> (2 * k)) & 3
        if n:
            counts[k // 3] += n
    return counts


def _largest_of(pile: int, colour: int) -> int:
    """The size of the largest piece of ``colour`` in ``pile`` (0 if none)."""
    for size in (3, 2, 1):
        if (pile >> (2 * (3 * colour + size - 1))) & 3:
            return size
    return 0


def _colours_of(pile: int) -> int:
    return facts(pile).colours


def _sizes(pile: int) -> list[int]:
    """The sizes of the pieces of ``pile``, with repeats, by kind (colour-major)."""
    found = []
    for k in range(12):
        found += [k % 3 + 1] * ((pile >> (2 * k)) & 3)
    return found


def may_win(position: Position) -> bool:
    """False when the player to move certainly has no winning turn; True when they may have one."""
    attacker = position.to_move
    defender = 1 - attacker
    if not position.has_set_up(attacker) or not position.has_set_up(defender) or position.outcome() is not None:
        return False
    return may_win_systems(position.systems, attacker)


def may_win_systems(systems: tuple[int, ...], attacker: int) -> bool:
    """:func:`may_win` on bare systems (both players set up, game not over)."""
    return bool(winning_colours(systems, attacker))


ANY = 15
"""Every action colour (bit ``c`` for colour ``c``)."""


def winning_colours(systems: tuple[int, ...], attacker: int) -> int:
    """The action colours (bit ``c`` for colour ``c``) of the turns by ``attacker`` that may win; 0 when none can.

    A turn's actions all have one colour, so a win search may skip the others' basic actions and
    sacrifices (catastrophes are always allowed). :data:`ANY` when catastrophes alone may win.
    """
    defender = 1 - attacker
    a_shift = SHIP_SHIFT[attacker]
    d_shift = SHIP_SHIFT[defender]
    home_code = defender + 1
    home = -1
    for s in systems:
        if s >> HOME_SHIFT == home_code:
            home = s
            break
    if home < 0:
        return ANY
    stars = home & PILE_MASK
    ours = (home >> a_shift) & PILE_MASK
    theirs = (home >> d_shift) & PILE_MASK
    if not theirs:
        return ANY
    counts = _colour_counts(stars + ours + theirs)
    gone = {c for c in range(4) if counts[c] >= 4}
    their_colours = _colours_of(theirs)
    star_colours = _colours_of(stars)
    covers = [
        [c for c in range(4) if their_colours >> c & 1 and c not in gone],
        [c for c in range(4) if star_colours >> c & 1 and c not in gone],
    ]
    if not covers[0] or not covers[1]:
        return ANY
    largest = [0, 0, 0, 0]
    yellow_reach = False
    home_sizes = facts(stars).sizes
    distances: list[list[int]] = [[], [], [], []]
    for s in systems:
        mine = (s >> a_shift) & PILE_MASK
        if mine:
            if s != home:
                hops = 2 if facts(s & PILE_MASK).sizes & home_sizes else 1
                for k in range(12):
                    distances[k // 3] += [hops] * ((mine >> (2 * k)) & 3)
            for c in range(4):
                largest[c] = max(largest[c], _largest_of(mine, c))
            if (_colours_of(s & PILE_MASK) | _colours_of(mine)) >> YELLOW & 1:
                yellow_reach = True
    local = star_colours | _colours_of(ours)
    found = 0
    if ours:
        left = [size for c in range(4) if c not in gone for size in _sizes(theirs & (0o77 << (6 * c)))]
        reach = facts(ours).largest
        captures = max(1 if local >> RED & 1 else 0, largest[RED])
        if max(left, default=0) <= reach and len(left) <= captures:
            found |= 1 << RED
    moves = max(1 if yellow_reach else 0, largest[YELLOW])
    for cover in covers if moves else ():
        need = 0
        for c in cover:
            short = 4 - counts[c]
            if short > len(distances[c]):
                need = 99
                break
            need += sum(sorted(distances[c])[:short])
        if need <= moves:
            found |= 1 << YELLOW
    options = []
    if ours:
        options.append((GREEN, max(1 if local >> GREEN & 1 else 0, largest[GREEN]), _colours_of(ours)))
        options.append((BLUE, max(1 if local >> BLUE & 1 else 0, largest[BLUE]), 15))
    for power, actions, colours in options:
        if not actions:
            continue
        for cover in covers:
            need = 0
            for c in cover:
                short = 4 - counts[c]
                if not colours >> c & 1:
                    need = 99
                    break
                need += short
            if need <= actions:
                found |= 1 << power
    return found


def position_hash(position: Position) -> int:
    """A hash of the table and the player to move that ignores system names."""
    return hash((position.to_move, *sorted(position.systems)))


__all__ = ["ANY", "may_win", "may_win_systems", "position_hash", "winning_colours"]
