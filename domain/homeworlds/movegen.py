"""Legal whole turns, one per distinct resulting position.

The generator walks the turn action by action from the position to move:
catastrophes at any point, then one basic action, or a sacrifice followed by up
to N actions of its colour, or nothing. Every intermediate table is identified
by its phase and :meth:`~domain.homeworlds.position.Position.key` (which ignores
system names), so each is expanded once however it was reached; every table
where the turn may end yields a turn the first time its end-of-turn position is
seen. Listing walks breadth-first, so shorter turns come first; the search
for a win walks depth-first, which reaches a win sooner.

>>> from domain.homeworlds.position import Position
>>> position = Position.from_text("<0>; Player1(0,y3g2)y1-; Player2(1,r3b2)r1-r1b1b1b1")
>>> str(winning_turn(position))
'catastrophe Player2 b; attack r1 Player2'
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator

from .notation import (
    Action,
    Build,
    Capture,
    Catastrophe,
    Discover,
    Homeworld,
    Move,
    Sacrifice,
    Trade,
    Turn,
)
from .pieces import COLOUR_OF, KINDS, PIECES, PILE_MASK, SIZE_OF, SMALLEST, UNIT, Colour, PileFacts, facts
from .position import ALL_SHIPS, HOME_SHIFT, SHIP_SHIFT, Position, all_pieces
from .rules import COLOUR_MASK, HOME_MASK, OFFICIAL, Rules, default_home_name, end_turn

MAIN = -1
DONE = 0
RED, YELLOW, GREEN, BLUE = Colour

_Path = tuple[tuple[object, ...], "_Path"] | None
_Found = tuple[_Path, tuple[int, ...], tuple[str, ...], int]
_Child = tuple[tuple[int, ...], tuple[str, ...], int, int, tuple[object, ...]]


def legal_turns(position: Position, rules: Rules = OFFICIAL) -> Iterator[Turn]:
    """Every legal turn of the player to move, one per distinct resulting position, lazily."""
    for path, *_ in _turns(position, rules):
        yield _turn(path)


def successors(position: Position, rules: Rules = OFFICIAL) -> Iterator[tuple[Turn, Position]]:
    """Each legal turn with the position it leads to (see :func:`legal_turns`)."""
    established = position.established
    for path, systems, names, bank in _turns(position, rules):
        turn = _turn(path)
        if not position.has_set_up(position.to_move) and not turn.is_pass:
            established |= 1 << position.to_move
        yield turn, Position(systems, names, bank, 1 - position.to_move, established)


def count_turns(position: Position, rules: Rules = OFFICIAL) -> int:
    """The number of distinct positions the player to move can reach in one turn."""
    return sum(1 for _ in _turns(position, rules))


def winning_turn(position: Position, rules: Rules = OFFICIAL) -> Turn | None:
    """A turn after which the opponent has lost and the mover has not, or None."""
    if position.outcome() is not None or not position.has_set_up(position.to_move):
        return None
    for path, *_ in _search(position, True):
        return _turn(path)
    return None


class OutOfTime(Exception):
    """A search passed its deadline before it was done."""


def winning_turn_by(
    position: Position, deadline: float, rules: Rules = OFFICIAL, colours: int = 15
) -> tuple[Turn | None, bool]:
    """:func:`winning_turn` that gives up at ``deadline`` (a :func:`time.monotonic` value).

    Returns the winning turn or None, and whether the search finished (so that None means no win).
    ``colours`` (bit ``c`` for colour ``c``) limits the basic actions and sacrifices tried to those
    colours, for a caller that knows no turn of the other colours can win.
    """
    if position.outcome() is not None or not position.has_set_up(position.to_move):
        return None, True
    try:
        for path, *_ in _search(position, True, deadline, colours=colours):
            return _turn(path), True
    except OutOfTime:
        return None, False
    return None, True


def turn_to(position: Position, target: Position, rules: Rules = OFFICIAL) -> Turn | None:
    """A legal turn that leads to ``target`` (compared by :meth:`Position.key`), or None; stops when found."""
    wanted = target.key()
    for path, systems, *_ in _turns(position, rules):
        if tuple(sorted(systems)) == wanted:
            return _turn(path)
    return None


def _turns(position: Position, rules: Rules) -> Iterator[_Found]:
    if position.outcome() is not None:
        return iter(())
    if not position.has_set_up(position.to_move):
        return _setups(position, rules)
    return _search(position, False)


def _turn(path: _Path) -> Turn:
    actions: list[Action] = []
    while path is not None:
        step, path = path
        actions.append(_action(step))
    actions.reverse()
    return Turn(tuple(actions))


def _action(step: tuple[object, ...]) -> Action:
    match step:
        case ("c", str(name), int(c)):
            return Catastrophe(name, Colour(c))
        case ("s", int(k), str(name)):
            return Sacrifice(PIECES[k], name)
        case ("b", int(k), str(name)):
            return Build(PIECES[k], name)
        case ("t", int(k), int(new), str(name)):
            return Trade(PIECES[k], PIECES[new], name)
        case ("m", int(k), str(origin), str(destination)):
            return Move(PIECES[k], origin, destination)
        case ("d", int(k), str(origin), int(star), str(name)):
            return Discover(PIECES[k], origin, PIECES[star], name)
        case ("a", int(k), str(name)):
            return Capture(PIECES[k], name)
        case ("h", int(a), int(b), int(k), str(name)):
            return Homeworld(PIECES[a], None if b < 0 else PIECES[b], PIECES[k], name)
    raise AssertionError(step)


def _next_name(names: tuple[str, ...]) -> str:
    taken = {n.casefold() for n in names}
    n = 1
    while f"new{n}" in taken:
        n += 1
    return f"New{n}"


def _search(
    position: Position,
    stop_at_win: bool,
    deadline: float | None = None,
    depth_first: bool = False,
    colours: int = 15,
) -> Iterator[_Found]:
    me = position.to_move
    opp = 1 - me
    my_shift = SHIP_SHIFT[me]
    op_shift = SHIP_SHIFT[opp]
    my_home = (me + 1) << HOME_SHIFT
    op_home = (opp + 1) << HOME_SHIFT
    mask = PILE_MASK
    seen: set[tuple[int, ...]] = set()
    finals: set[tuple[int, ...]] = set()
    start = position.systems
    stack: deque[tuple[tuple[int, ...], tuple[str, ...], int, int, _Path]] = deque(
        [(start, position.names, position.bank, MAIN, None)]
    )
    seen.add((*sorted(start), MAIN))
    take = stack.pop if stop_at_win or depth_first else stack.popleft

    while stack:
        systems, names, bank, phase, path = take()
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime

        final = systems
        fnames = names
        fbank = bank
        for s in systems:
            if s & HOME_MASK and not s & ALL_SHIPS:
                keep = [i for i, t in enumerate(systems) if t & ALL_SHIPS or not t & HOME_MASK]
                final = tuple(systems[i] for i in keep)
                fnames = tuple(names[i] for i in keep)
                fbank = bank + sum(t & mask for t in systems if not t & ALL_SHIPS and t & HOME_MASK)
                break
        fkey = tuple(sorted(final))
        if fkey not in finals:
            finals.add(fkey)
            if stop_at_win:
                mine = theirs = False
                for s in final:
                    home = s & HOME_MASK
                    if home == my_home:
                        mine = bool((s >> my_shift) & mask)
                    elif home == op_home:
                        theirs = bool((s >> op_shift) & mask)
                if mine and not theirs:
                    yield path, final, fnames, fbank
                    return
            else:
                yield path, final, fnames, fbank

        children: list[_Child] = []
        add = children.append
        n = len(systems)

        for i in range(n):
            s = systems[i]
            over = facts(all_pieces(s)).overpopulated
            if over:
                for c in range(4):
                    if over >> c & 1:
                        removed = s & COLOUR_MASK[c]
                        t = s ^ removed
                        b = bank + all_pieces(removed)
                        if not t & mask:
                            b += all_pieces(t)
                            add(
                                (
                                    (*systems[:i], *systems[i + 1 :]),
                                    (*names[:i], *names[i + 1 :]),
                                    b,
                                    phase,
                                    ("c", names[i], c),
                                )
                            )
                        elif not t & ALL_SHIPS and not t & HOME_MASK:
                            b += t & mask
                            add(
                                (
                                    (*systems[:i], *systems[i + 1 :]),
                                    (*names[:i], *names[i + 1 :]),
                                    b,
                                    phase,
                                    ("c", names[i], c),
                                )
                            )
                        else:
                            add(((*systems[:i], t, *systems[i + 1 :]), names, b, phase, ("c", names[i], c)))

        if phase != DONE:
            star_sizes = [facts(s & mask).sizes for s in systems]
            for i in range(n):
                s = systems[i]
                own = (s >> my_shift) & mask
                if not own:
                    continue
                own_facts = facts(own)
                if phase == MAIN:
                    available = facts(s & mask).colours | own_facts.colours
                    for c in range(4):
                        if (available & colours) >> c & 1:
                            _actions(c, i, systems, names, bank, own_facts, star_sizes, my_shift, op_shift, DONE, add)
                    for k in own_facts.distinct:
                        if not colours >> COLOUR_OF[k] & 1:
                            continue
                        unit = UNIT[k] << my_shift
                        t = s - unit
                        after = SIZE_OF[k] * 4 + COLOUR_OF[k]
                        if not t & ALL_SHIPS and not t & HOME_MASK:
                            add(
                                (
                                    (*systems[:i], *systems[i + 1 :]),
                                    (*names[:i], *names[i + 1 :]),
                                    bank + UNIT[k] + (t & mask),
                                    after,
                                    ("s", k, names[i]),
                                )
                            )
                        else:
                            add(
                                ((*systems[:i], t, *systems[i + 1 :]), names, bank + UNIT[k], after, ("s", k, names[i]))
                            )
                else:
                    left = phase >> 2
                    after = DONE if left == 1 else phase - 4
                    _actions(phase & 3, i, systems, names, bank, own_facts, star_sizes, my_shift, op_shift, after, add)

        if stop_at_win:
            children.reverse()
            children.sort(key=_win_order, reverse=True)
        for child in children:
            csystems, cnames, cbank, cphase, step = child
            key = (*sorted(csystems), cphase)
            if key not in seen:
                seen.add(key)
                stack.append((csystems, cnames, cbank, cphase, (step, path)))


_SACRIFICE_ORDER = (1, 4, 3, 2)
"""The order in which the search for a win tries sacrifices, by colour: red (few captures to
try), then blue, green, and yellow last (moves reach the most positions)."""


def _win_order(child: _Child) -> int:
    step = child[4]
    return _SACRIFICE_ORDER[COLOUR_OF[step[1]]] if step[0] == "s" and isinstance(step[1], int) else 0


def _actions(
    colour: int,
    i: int,
    systems: tuple[int, ...],
    names: tuple[str, ...],
    bank: int,
    own_facts: PileFacts,
    star_sizes: list[int],
    my_shift: int,
    op_shift: int,
    after: int,
    add: Callable[[_Child], None],
) -> None:
    s = systems[i]
    here = names[i]
    if colour == RED:
        enemy = (s >> op_shift) & PILE_MASK
        if enemy:
            largest = own_facts.largest
            for k in facts(enemy).distinct:
                if SIZE_OF[k] <= largest:
                    t = s - (UNIT[k] << op_shift) + (UNIT[k] << my_shift)
                    add(((*systems[:i], t, *systems[i + 1 :]), names, bank, after, ("a", k, here)))
    elif colour == GREEN:
        for c in range(4):
            if own_facts.colours >> c & 1:
                k = SMALLEST[c][(bank >> (6 * c)) & 63]
                if k >= 0:
                    t = s + (UNIT[k] << my_shift)
                    add(((*systems[:i], t, *systems[i + 1 :]), names, bank - UNIT[k], after, ("b", k, here)))
    elif colour == BLUE:
        for k in own_facts.distinct:
            size = k % 3
            base = s - (UNIT[k] << my_shift)
            for c in range(4):
                new = 3 * c + size
                if new != k and (bank >> (2 * new)) & 3:
                    t = base + (UNIT[new] << my_shift)
                    add(
                        (
                            (*systems[:i], t, *systems[i + 1 :]),
                            names,
                            bank + UNIT[k] - UNIT[new],
                            after,
                            ("t", k, new, here),
                        )
                    )
    else:
        n = len(systems)
        sizes_here = star_sizes[i]
        new_name = ""
        for k in own_facts.distinct:
            unit = UNIT[k] << my_shift
            t = s - unit
            fades = not t & ALL_SHIPS and not t & HOME_MASK
            for j in range(n):
                if j != i and not sizes_here & star_sizes[j]:
                    moved = list(systems)
                    moved[j] += unit
                    if fades:
                        del moved[i]
                        add(
                            (
                                tuple(moved),
                                (*names[:i], *names[i + 1 :]),
                                bank + (t & PILE_MASK),
                                after,
                                ("m", k, here, names[j]),
                            )
                        )
                    else:
                        moved[i] = t
                        add((tuple(moved), names, bank, after, ("m", k, here, names[j])))
            for q in facts(bank).distinct:
                if not sizes_here >> (SIZE_OF[q] - 1) & 1:
                    new_name = new_name or _next_name(names)
                    star = UNIT[q] | unit
                    if fades:
                        add(
                            (
                                (*systems[:i], *systems[i + 1 :], star),
                                (*names[:i], *names[i + 1 :], new_name),
                                bank - UNIT[q] + (t & PILE_MASK),
                                after,
                                ("d", k, here, q, new_name),
                            )
                        )
                    else:
                        add(
                            (
                                (*systems[:i], t, *systems[i + 1 :], star),
                                (*names, new_name),
                                bank - UNIT[q],
                                after,
                                ("d", k, here, q, new_name),
                            )
                        )


def _setups(position: Position, rules: Rules) -> Iterator[_Found]:
    me = position.to_move
    name = default_home_name(position, me)
    seen: set[tuple[int, ...]] = set()
    if rules.allow_pass_before_setup:
        final = end_turn(position)
        seen.add(final.key())
        yield None, final.systems, final.names, final.bank
    bank = position.bank
    ships = [k for k in KINDS if not rules.require_large_ship or SIZE_OF[k] == 3]
    stars = [(a, b) for a in KINDS for b in KINDS if a <= b]
    if rules.allow_single_star_homeworld:
        stars += [(a, -1) for a in KINDS]
    for a, b in stars:
        for k in ships:
            pile = UNIT[a] + (UNIT[b] if b >= 0 else 0)
            need = pile + UNIT[k]
            if any(((need >> (2 * q)) & 3) > ((bank >> (2 * q)) & 3) for q in {a, b, k} if q >= 0):
                continue
            home = pile | ((UNIT[k] << SHIP_SHIFT[me]) | ((me + 1) << HOME_SHIFT))
            systems = (*position.systems, home)
            key = tuple(sorted(systems))
            if key in seen:
                continue
            seen.add(key)
            step = ("h", a, b, k, name)
            yield (step, None), systems, (*position.names, name), bank - need


__all__ = ["OutOfTime", "count_turns", "legal_turns", "successors", "turn_to", "winning_turn", "winning_turn_by"]
