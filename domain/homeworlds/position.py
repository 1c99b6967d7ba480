"""Positions: the systems on the table, the bank, and who is to move.

A system is packed into one ``int``: its stars in bits 0-23, player 0's ships
in bits 24-47, player 1's ships in bits 48-71 (each a pile, see
:mod:`~domain.homeworlds.pieces`) and its homeworld owner plus one in bits 72-73.
Positions are immutable; every change makes a new tuple of system ints, which
is cheap, and :meth:`Position.key` (the sorted system ints) identifies a position
regardless of system names.

A position reads and prints in one line (Baker's format)::

    <0>; Alpha(0,r3b2)g3y2-; Beta(1,r2)-g3g2g2y2; Reach(g3)-y3

``<0>`` is the player to move; ``(k,stars)`` marks player k's homeworld; ships
before ``-`` are player 0's, after it player 1's. :meth:`Position.from_text` also
reads the multi-line Quuxplusone form (``Alpha (0, r3b2) g3y2-``, one system a
line, player 0 to move unless told otherwise).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import NamedTuple

from .pieces import COPIES, FULL_BANK, PILE_MASK, UNIT, Piece, facts, kinds, parse_pile, pile_text

SHIP_SHIFT = (24, 48)
HOME_SHIFT = 72
PLAYERS = (0, 1)
ALL_SHIPS = (PILE_MASK << 24) | (PILE_MASK << 48)


def make_system(stars: int, ships0: int = 0, ships1: int = 0, home: int | None = None) -> int:
    """Pack a system into an int; ``home`` is the owning player of a homeworld."""
    code = 0 if home is None else home + 1
    return stars | (ships0 << 24) | (ships1 << 48) | (code << HOME_SHIFT)


def stars_of(system: int) -> int:
    """The system's stars as a pile."""
    return system & PILE_MASK


def ships_of(system: int, player: int) -> int:
    """``player``'s ships in the system as a pile."""
    return (system >> SHIP_SHIFT[player]) & PILE_MASK


def home_of(system: int) -> int | None:
    """The player whose homeworld this is, or None."""
    code = system >> HOME_SHIFT
    return None if code == 0 else code - 1


def all_pieces(system: int) -> int:
    """Stars and ships of the system as one pile."""
    return (system & PILE_MASK) + ((system >> 24) & PILE_MASK) + ((system >> 48) & PILE_MASK)


def connected(a: int, b: int) -> bool:
    """Whether two systems share no star size."""
    return not facts(a & PILE_MASK).sizes & facts(b & PILE_MASK).sizes


class Outcome(NamedTuple):
    """The end of a game: ``winner`` is a player index, or None for a draw."""

    winner: int | None

    def __str__(self) -> str:
        return "draw" if self.winner is None else f"winner:{self.winner + 1}"


class System(NamedTuple):
    """A readable view of one system (see :meth:`Position.system`)."""

    name: str
    home: int | None
    stars: tuple[Piece, ...]
    ships: tuple[tuple[Piece, ...], tuple[Piece, ...]]


_NAME = r"[^\s;(),]+"
NAME_RE = re.compile(_NAME)
MAX_NAME_LENGTH = 64
"""The longest system name, in characters (the longest in the SDG corpus of 3,691 games has 37)."""
_SYSTEM_RE = re.compile(
    rf"^\s*(?P<name>{_NAME})\s*\(\s*(?:(?P<home>[01])\s*,\s*)?(?P<stars>[^)]*)\)"
    r"\s*(?P<ships0>[A-Za-z0-9\s]*?)\s*-\s*(?P<ships1>[A-Za-z0-9\s]*?)\s*$"
)
_TO_MOVE_RE = re.compile(r"^\s*<\s*([01])\s*>\s*;?")


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Position:
    """An immutable Homeworlds position between turns (or, inside the engine, mid-turn).

    ``systems`` and ``names`` are parallel tuples; ``bank`` is the pile of unused
    pieces; ``established`` has bit ``k`` set once player ``k`` has set up a homeworld.
    Two positions are equal when they have the same systems under the same names
    (case-insensitive), the same player to move and the same setup state.
    """

    systems: tuple[int, ...]
    names: tuple[str, ...]
    bank: int
    to_move: int
    established: int

    @classmethod
    def initial(cls) -> Position:
        """The empty table before anyone has set up: all 36 pieces in the bank."""
        return cls((), (), FULL_BANK, 0, 0)

    @classmethod
    def from_systems(
        cls, systems: tuple[int, ...], names: tuple[str, ...], to_move: int, established: int | None = None
    ) -> Position:
        """A position from packed systems; the bank is what is left of the 36 pieces."""
        used = [0] * 12
        for s in systems:
            for pile in (stars_of(s), ships_of(s, 0), ships_of(s, 1)):
                for k in kinds(pile):
                    used[k] += 1
        if max(used, default=0) > COPIES:
            raise ValueError(f"the position uses more than three {Piece.from_kind(used.index(max(used)))} pieces")
        bank = FULL_BANK - sum(n * UNIT[k] for k, n in enumerate(used))
        if established is None:
            established = _infer_established(systems)
        return cls(systems, names, bank, to_move, established)

    @classmethod
    def from_text(cls, text: str, to_move: int | None = None, established: int | None = None) -> Position:
        """Read a position in Baker's one-line form or Quuxplusone's multi-line form.

        >>> Position.from_text("<1>; Alpha(0,r1b2)g3-; Beta(1,y3)-g3").to_move
        1
        """
        body = text.strip()
        match = _TO_MOVE_RE.match(body)
        if match:
            if to_move is None:
                to_move = int(match.group(1))
            body = body[match.end() :]
        systems: list[int] = []
        names: list[str] = []
        for chunk in re.split(r"[;\n]", body):
            if not chunk.strip() or chunk.lstrip().startswith("#"):
                continue
            m = _SYSTEM_RE.match(chunk)
            if m is None:
                raise ValueError(f"cannot read the system {chunk.strip()!r} (expected e.g. 'Alpha (0, r1b2) g3-')")
            stars = m.group("stars").replace(",", " ")
            home = None if m.group("home") is None else int(m.group("home"))
            name = m.group("name")
            if any(n.casefold() == name.casefold() for n in names):
                raise ValueError(f"two systems are named {name}")
            star_pile = parse_pile(stars)
            if not star_pile:
                raise ValueError(f"system {name} has no star")
            if home is not None and any(home_of(s) == home for s in systems):
                raise ValueError(f"player {home} has two homeworlds")
            systems.append(make_system(star_pile, parse_pile(m.group("ships0")), parse_pile(m.group("ships1")), home))
            names.append(name)
        return cls.from_systems(tuple(systems), tuple(names), to_move or 0, established)

    def text(self) -> str:
        """The one-line form, e.g. ``<0>; Alpha(0,r3b2)g3y2-; Beta(1,r2)-g3``."""
        parts = [f"<{self.to_move}>"]
        for system, name in zip(self.systems, self.names, strict=True):
            home = home_of(system)
            owner = "" if home is None else f"{home},"
            parts.append(
                f"{name}({owner}{pile_text(stars_of(system))})"
                f"{pile_text(ships_of(system, 0))}-{pile_text(ships_of(system, 1))}"
            )
        return "; ".join(parts)

    def diagram(self) -> str:
        """The multi-line Quuxplusone form used in puzzles.md (player to move not shown)."""
        lines = []
        for system, name in zip(self.systems, self.names, strict=True):
            home = home_of(system)
            owner = "" if home is None else f"{home}, "
            lines.append(
                f"{name} ({owner}{pile_text(stars_of(system))}) "
                f"{pile_text(ships_of(system, 0))}-{pile_text(ships_of(system, 1))}"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        extra = ""
        if _infer_established(self.systems) != self.established:
            extra = f", established={self.established}"
        return f"Position.from_text({self.text()!r}{extra})"

    def _identity(self) -> tuple[object, ...]:
        named = sorted(zip((n.casefold() for n in self.names), self.systems, strict=True))
        return (self.to_move, self.established, tuple(named))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def key(self) -> tuple[int, ...]:
        """A hashable identity that ignores system names and the player to move."""
        return tuple(sorted(self.systems))

    def index(self, name: str) -> int | None:
        """The index of the system called ``name`` (case-insensitive), or None."""
        folded = name.casefold()
        for i, n in enumerate(self.names):
            if n.casefold() == folded:
                return i
        return None

    def home_index(self, player: int) -> int | None:
        """The index of ``player``'s homeworld, or None."""
        code = player + 1
        for i, s in enumerate(self.systems):
            if s >> HOME_SHIFT == code:
                return i
        return None

    def has_set_up(self, player: int) -> bool:
        """Whether ``player`` has taken their homeworld turn."""
        return bool(self.established >> player & 1)

    def losers(self) -> frozenset[int]:
        """The players who have set up but control no ship at their own homeworld."""
        lost = set()
        for player in PLAYERS:
            if self.has_set_up(player):
                i = self.home_index(player)
                if i is None or not ships_of(self.systems[i], player):
                    lost.add(player)
        return frozenset(lost)

    def outcome(self) -> Outcome | None:
        """The result if the game is over at this turn boundary, else None."""
        lost = self.losers()
        if not lost:
            return None
        if len(lost) == 2:
            return Outcome(None)
        return Outcome(1 - next(iter(lost)))

    def system(self, name: str) -> System:
        """A readable view of the system called ``name``; KeyError if there is none."""
        i = self.index(name)
        if i is None:
            raise KeyError(name)
        return self._view(i)

    def _view(self, i: int) -> System:
        s = self.systems[i]
        ships = tuple(tuple(Piece.from_kind(k) for k in kinds(ships_of(s, p))) for p in PLAYERS)
        return System(
            self.names[i], home_of(s), tuple(Piece.from_kind(k) for k in kinds(stars_of(s))), (ships[0], ships[1])
        )

    def views(self) -> Iterator[System]:
        """Every system, in table order."""
        return (self._view(i) for i in range(len(self.systems)))


def _infer_established(systems: tuple[int, ...]) -> int:
    established = 0
    for player in PLAYERS:
        if any(home_of(s) == player for s in systems):
            established |= 1 << player
            continue
        other_home_only = all(home_of(s) == 1 - player and not ships_of(s, player) for s in systems)
        if systems and not other_home_only:
            established |= 1 << player
    return established
