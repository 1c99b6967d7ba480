"""The rules: what each action does to the table, and the validator of whole turns.

The primitives (``build``, ``trade`` ...) take and return a :data:`Board`, the
triple ``(systems, names, bank)`` of a :class:`~domain.homeworlds.position.Position`;
they change the table without checking anything and apply the immediate
consequences: a non-home system without ships fades at once, a system that loses
its last star goes to the bank with all its ships (supernova). Homeworlds stay,
even without ships, until :func:`end_turn`.

:func:`play` checks a whole turn, action by action, and raises a
:class:`~domain.homeworlds.errors.HomeworldsRuleError` subclass whose message
says which rule was broken.
"""

from __future__ import annotations

import dataclasses

from .errors import (
    BankError,
    CaptureError,
    CatastropheError,
    GameOverError,
    HomeworldsRuleError,
    MovementError,
    NoPowerError,
    NoSuchShipError,
    SetupError,
    SystemNameError,
    TradeError,
    TurnStructureError,
    UnknownSystemError,
)
from .notation import (
    Action,
    Build,
    Capture,
    Catastrophe,
    Discover,
    Homeworld,
    Move,
    PowerAction,
    Sacrifice,
    Trade,
    Turn,
)
from .pieces import PIECES, PILE_MASK, SIZE_WORDS, UNIT, Piece, facts, smallest_of
from .position import (
    ALL_SHIPS,
    HOME_SHIFT,
    MAX_NAME_LENGTH,
    NAME_RE,
    SHIP_SHIFT,
    Position,
    all_pieces,
    connected,
    make_system,
    ships_of,
    stars_of,
)

Board = tuple[tuple[int, ...], tuple[str, ...], int]
PLAYER_NAMES = ("seat 0", "seat 1")
"""How messages name the players: as the API numbers seats, from 0."""
HOME_MASK = 3 << HOME_SHIFT
COLOUR_MASK = tuple((63 << (6 * c)) * (1 | 1 << 24 | 1 << 48) for c in range(4))


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """Table options. The defaults are the official rules (RULES-NOTES section 13)."""

    require_large_ship: bool = False
    """A homeworld's first ship must be large."""
    allow_pass_before_setup: bool = False
    """A player may pass instead of setting up (SuperDuperGames allowed it)."""
    allow_single_star_homeworld: bool = False
    """A homeworld may have one star (the handicap variant, written ``homeworld b2 - g3``)."""
    allow_same_colour_trade: bool = False
    """A trade for the same piece is accepted as an action that changes nothing (SDG allowed it once)."""


OFFICIAL = Rules()
SDG = Rules(allow_pass_before_setup=True, allow_single_star_homeworld=True, allow_same_colour_trade=True)
"""What SuperDuperGames accepted; used to check its transcripts."""


def _replace(systems: tuple[int, ...], i: int, system: int) -> tuple[int, ...]:
    return (*systems[:i], system, *systems[i + 1 :])


def settle(board: Board, i: int) -> Board:
    """Apply the immediate consequences at system ``i``: supernova, or fade of an empty non-home system."""
    systems, names, bank = board
    s = systems[i]
    if not s & PILE_MASK:
        bank += all_pieces(s)
    elif not s & ALL_SHIPS and not s & HOME_MASK:
        bank += s & PILE_MASK
    else:
        return board
    return (*systems[:i], *systems[i + 1 :]), (*names[:i], *names[i + 1 :]), bank


def build(board: Board, i: int, player: int, kind: int) -> Board:
    """Put the bank piece ``kind`` into system ``i`` as ``player``'s ship."""
    systems, names, bank = board
    return _replace(systems, i, systems[i] + (UNIT[kind] << SHIP_SHIFT[player])), names, bank - UNIT[kind]


def trade(board: Board, i: int, player: int, kind: int, new_kind: int) -> Board:
    """Exchange ``player``'s ship ``kind`` at ``i`` for the bank piece ``new_kind``."""
    systems, names, bank = board
    shift = SHIP_SHIFT[player]
    s = systems[i] - (UNIT[kind] << shift) + (UNIT[new_kind] << shift)
    return _replace(systems, i, s), names, bank + UNIT[kind] - UNIT[new_kind]


def move(board: Board, player: int, kind: int, i: int, j: int) -> Board:
    """Move ``player``'s ship ``kind`` from system ``i`` to system ``j``."""
    systems, names, bank = board
    unit = UNIT[kind] << SHIP_SHIFT[player]
    moved = list(systems)
    moved[i] -= unit
    moved[j] += unit
    return settle((tuple(moved), names, bank), i)


def discover(board: Board, player: int, kind: int, i: int, star: int, name: str) -> Board:
    """Move ``player``'s ship ``kind`` from ``i`` to a new system ``name`` with the bank piece ``star``."""
    systems, names, bank = board
    unit = UNIT[kind] << SHIP_SHIFT[player]
    systems = (*_replace(systems, i, systems[i] - unit), UNIT[star] | unit)
    return settle((systems, (*names, name), bank - UNIT[star]), i)


def capture(board: Board, i: int, player: int, kind: int) -> Board:
    """Make the enemy ship ``kind`` at ``i`` ``player``'s."""
    systems, names, bank = board
    s = systems[i] - (UNIT[kind] << SHIP_SHIFT[1 - player]) + (UNIT[kind] << SHIP_SHIFT[player])
    return _replace(systems, i, s), names, bank


def sacrifice(board: Board, i: int, player: int, kind: int) -> Board:
    """Return ``player``'s ship ``kind`` at ``i`` to the bank."""
    systems, names, bank = board
    s = systems[i] - (UNIT[kind] << SHIP_SHIFT[player])
    return settle((_replace(systems, i, s), names, bank + UNIT[kind]), i)


def catastrophe(board: Board, i: int, colour: int) -> Board:
    """Return every piece of ``colour`` at system ``i`` to the bank."""
    systems, names, bank = board
    s = systems[i]
    removed = s & COLOUR_MASK[colour]
    return settle((_replace(systems, i, s ^ removed), names, bank + all_pieces(removed)), i)


def establish(board: Board, player: int, stars: int, ship: int, name: str) -> Board:
    """Add ``player``'s homeworld with the star pile ``stars`` and the ship ``ship``."""
    systems, names, bank = board
    home = make_system(stars, home=player) + (UNIT[ship] << SHIP_SHIFT[player])
    return (*systems, home), (*names, name), bank - stars - UNIT[ship]


def end_turn(position: Position) -> Position:
    """Close the turn: homeworlds without ships leave the table and the other player is to move."""
    systems = position.systems
    keep = [i for i, s in enumerate(systems) if s & ALL_SHIPS or not s & HOME_MASK]
    if len(keep) == len(systems):
        return Position(systems, position.names, position.bank, 1 - position.to_move, position.established)
    bank = position.bank + sum(s & PILE_MASK for s in systems if not s & ALL_SHIPS and s & HOME_MASK)
    names = position.names
    return Position(
        tuple(systems[i] for i in keep),
        tuple(names[i] for i in keep),
        bank,
        1 - position.to_move,
        position.established,
    )


def default_home_name(position: Position, player: int) -> str:
    """``Player1`` / ``Player2``, or with a suffix if that name is taken."""
    base = f"Player{player + 1}"
    name, n = base, 1
    while position.index(name) is not None:
        n += 1
        name = f"{base}_{n}"
    return name


# --- the validator ------------------------------------------------------------


def play(position: Position, turn: Turn, rules: Rules = OFFICIAL) -> Position:
    """The position after ``turn`` by the player to move, or raise the rule it breaks."""
    if position.outcome() is not None:
        raise GameOverError("the game is over")
    player = position.to_move
    if not position.has_set_up(player):
        return _play_setup(position, turn, rules)
    board: Board = (position.systems, position.names, position.bank)
    sacrificed: Piece | None = None
    left = 0
    acted = False
    for action in turn.actions:
        if isinstance(action, Catastrophe):
            board = _catastrophe(board, action)
        elif isinstance(action, Sacrifice):
            if acted or sacrificed is not None:
                raise TurnStructureError(
                    f"{action}: a sacrifice replaces the turn's action, and this turn has already "
                    + ("sacrificed" if sacrificed else "used its action")
                )
            board = _sacrifice(board, player, action)
            sacrificed, left = action.ship, action.ship.size
        elif isinstance(action, Homeworld):
            raise SetupError(f"{action}: {PLAYER_NAMES[player]} already has a homeworld")
        else:
            if sacrificed is not None:
                if action.colour != sacrificed.colour:
                    raise TurnStructureError(
                        f"{action}: after sacrificing {sacrificed} only {sacrificed.colour.power} actions "
                        f"({sacrificed.colour.name.lower()}) may follow"
                    )
                if not left:
                    raise TurnStructureError(
                        f"{action}: sacrificing {sacrificed} gives {sacrificed.size} action"
                        f"{'s' if sacrificed.size > 1 else ''}, all used"
                    )
                left -= 1
            elif acted:
                raise TurnStructureError(f"{action}: a turn has only one action unless you sacrifice")
            board = _power_action(board, player, action, sacrificed is not None, rules)
            acted = True
    systems, names, bank = board
    return end_turn(Position(systems, names, bank, player, position.established))


def is_legal(position: Position, turn: Turn, rules: Rules = OFFICIAL) -> bool:
    """Whether ``turn`` is legal for the player to move (see :func:`play` for the reason when not)."""
    try:
        play(position, turn, rules)
    except HomeworldsRuleError:
        return False
    return True


def _play_setup(position: Position, turn: Turn, rules: Rules) -> Position:
    player = position.to_move
    who = PLAYER_NAMES[player]
    if turn.is_pass:
        if rules.allow_pass_before_setup:
            return end_turn(position)
        raise SetupError(f"{who} must set up a homeworld before anything else; passing is not allowed")
    first = turn.actions[0]
    if not isinstance(first, Homeworld):
        raise SetupError(f"{first}: {who}'s first turn must set up a homeworld")
    if len(turn.actions) > 1:
        raise SetupError(f"{turn.actions[1]}: setting up a homeworld is the whole turn")
    stars = UNIT[first.star1.kind] + (0 if first.star2 is None else UNIT[first.star2.kind])
    if first.star2 is None and not rules.allow_single_star_homeworld:
        raise SetupError(f"{first}: a homeworld needs two stars")
    if rules.require_large_ship and first.ship.size != 3:
        raise SetupError(f"{first}: this table requires a large first ship, not {first.ship}")
    need = stars + UNIT[first.ship.kind]
    for piece in {first.star1, first.ship} | ({first.star2} if first.star2 else set()):
        wanted = (need >> (2 * piece.kind)) & 3
        have = (position.bank >> (2 * piece.kind)) & 3
        if wanted > have:
            raise BankError(f"{first}: needs {wanted} {piece} but the bank has {have}")
    name = first.name or default_home_name(position, player)
    _check_new_name(position.names, name, first)
    board = establish((position.systems, position.names, position.bank), player, stars, first.ship.kind, name)
    return end_turn(Position(*board, player, position.established | 1 << player))


def _check_new_name(names: tuple[str, ...], name: str, action: Action) -> None:
    if not NAME_RE.fullmatch(name) or len(name) > MAX_NAME_LENGTH:
        raise SystemNameError(f"{action}: {name!r} cannot be a system name (at most {MAX_NAME_LENGTH} characters)")
    folded = name.casefold()
    if any(n.casefold() == folded for n in names):
        raise SystemNameError(f"{action}: there is already a system called {name}")


def _find(board: Board, name: str, action: Action) -> int:
    folded = name.casefold()
    for i, n in enumerate(board[1]):
        if n.casefold() == folded:
            return i
    raise UnknownSystemError(f"{action}: there is no system called {name}")


def _own_ship(board: Board, i: int, player: int, piece: Piece, action: Action) -> None:
    if not (ships_of(board[0][i], player) >> (2 * piece.kind)) & 3:
        raise NoSuchShipError(f"{action}: you have no {piece} ship at {board[1][i]}")


def _catastrophe(board: Board, action: Catastrophe) -> Board:
    i = _find(board, action.system, action)
    pile = all_pieces(board[0][i])
    n = sum((pile >> (2 * (3 * action.colour + k))) & 3 for k in range(3))
    if n < 4:
        raise CatastropheError(
            f"{action}: a catastrophe needs four or more {action.colour.name.lower()} pieces at "
            f"{board[1][i]}, which has {n}"
        )
    return catastrophe(board, i, action.colour)


def _sacrifice(board: Board, player: int, action: Sacrifice) -> Board:
    i = _find(board, action.system, action)
    _own_ship(board, i, player, action.ship, action)
    return sacrifice(board, i, player, action.ship.kind)


def _power_action(board: Board, player: int, action: PowerAction, empowered: bool, rules: Rules = OFFICIAL) -> Board:
    origin = action.origin if isinstance(action, (Move, Discover)) else action.system
    i = _find(board, origin, action)
    s = board[0][i]
    own = ships_of(s, player)
    if not own:
        raise NoSuchShipError(f"{action}: you have no ship at {board[1][i]} to act there")
    colour = action.colour
    if not empowered and not (facts(stars_of(s)).colours | facts(own).colours) >> colour & 1:
        raise NoPowerError(
            f"{action}: to {colour.power} you need a {colour.name.lower()} star or a "
            f"{colour.name.lower()} ship of yours at {board[1][i]}, or a {colour.name.lower()} sacrifice"
        )
    match action:
        case Build(ship):
            if not facts(own).colours >> ship.colour & 1:
                raise NoSuchShipError(
                    f"{action}: to build {ship.colour.name.lower()} you need a {ship.colour.name.lower()} ship "
                    f"of yours at {board[1][i]}"
                )
            smallest = smallest_of(board[2], ship.colour)
            if smallest is None:
                raise BankError(f"{action}: the bank has no {ship.colour.name.lower()} piece left")
            if smallest != ship.kind:
                raise BankError(
                    f"{action}: a build takes the smallest {ship.colour.name.lower()} piece in the bank, "
                    f"which is {PIECES[smallest]}"
                )
            return build(board, i, player, ship.kind)
        case Trade(ship, new_ship):
            _own_ship(board, i, player, ship, action)
            if new_ship.size != ship.size:
                raise TradeError(f"{action}: a trade keeps the size; {ship} can become only another {ship.size}")
            if new_ship.colour == ship.colour:
                if rules.allow_same_colour_trade:
                    return board
                raise TradeError(f"{action}: a trade changes the colour")
            if not (board[2] >> (2 * new_ship.kind)) & 3:
                raise BankError(f"{action}: the bank has no {new_ship} left")
            return trade(board, i, player, ship.kind, new_ship.kind)
        case Move(ship, _, destination):
            _own_ship(board, i, player, ship, action)
            j = _find(board, destination, action)
            if j == i:
                raise MovementError(f"{action}: a ship must move to another system")
            if not connected(s, board[0][j]):
                raise MovementError(
                    f"{action}: {board[1][i]} and {board[1][j]} share a star size, so they are not connected"
                )
            return move(board, player, ship.kind, i, j)
        case Discover(ship, _, star, name):
            _own_ship(board, i, player, ship, action)
            if not (board[2] >> (2 * star.kind)) & 3:
                raise BankError(f"{action}: the bank has no {star} left")
            if facts(stars_of(s)).sizes >> (star.size - 1) & 1:
                raise MovementError(
                    f"{action}: {board[1][i]} has a {SIZE_WORDS[star.size]} star, so a new {star} system "
                    "would not be connected to it"
                )
            _check_new_name(board[1], name, action)
            return discover(board, player, ship.kind, i, star.kind, name)
        case Capture(ship):
            enemy = ships_of(s, 1 - player)
            if not (enemy >> (2 * ship.kind)) & 3:
                mine = " (it is yours)" if (own >> (2 * ship.kind)) & 3 else ""
                raise CaptureError(f"{action}: there is no enemy {ship} at {board[1][i]}{mine}")
            largest = facts(own).largest
            if largest < ship.size:
                best = max((PIECES[k] for k in facts(own).distinct), key=lambda p: (p.size, -p.colour))
                raise CaptureError(
                    f"{action}: capture needs a ship at least as large as {ship}; "
                    f"your largest ship at {board[1][i]} is {best}"
                )
            return capture(board, i, player, ship.kind)
    raise TypeError(action)


def apply_action(position: Position, action: Action) -> Position:
    """Apply one action of the player to move without checking it (for replaying events)."""
    board: Board = (position.systems, position.names, position.bank)
    player = position.to_move
    established = position.established
    match action:
        case Homeworld(star1, star2, ship, name):
            stars = UNIT[star1.kind] + (0 if star2 is None else UNIT[star2.kind])
            board = establish(board, player, stars, ship.kind, name or default_home_name(position, player))
            established |= 1 << player
        case Catastrophe(system, colour):
            board = catastrophe(board, _find(board, system, action), colour)
        case Sacrifice(ship, system):
            board = sacrifice(board, _find(board, system, action), player, ship.kind)
        case _:
            board = _power_action(board, player, action, True, SDG)
    return Position(*board, player, established)


__all__ = [
    "OFFICIAL",
    "SDG",
    "Board",
    "Rules",
    "apply_action",
    "build",
    "capture",
    "catastrophe",
    "default_home_name",
    "discover",
    "end_turn",
    "establish",
    "is_legal",
    "move",
    "play",
    "sacrifice",
    "settle",
    "trade",
]
