"""Colours, sizes and pieces, and the compact integer form of a pile of pieces.

There are 12 kinds of piece (4 colours x 3 sizes) and 3 copies of each. A *pile*
(a bank, the stars of a system, one player's ships there) is an ``int`` with two
bits per kind: the count of kind ``k`` sits at bits ``2k`` and ``2k + 1``. As only
three copies of a kind exist, piles that hold different pieces can be added
without carries.

>>> pile = pile_of([Piece.parse("g3"), Piece.parse("g1"), Piece.parse("g1")])
>>> pile_text(pile)
'g1g1g3'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import NamedTuple


class Colour(enum.IntEnum):
    """The four colours, each a power: red captures, yellow moves, green builds, blue trades."""

    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3

    @property
    def letter(self) -> str:
        """``r``, ``y``, ``g`` or ``b``."""
        return "rygb"[self]

    @property
    def power(self) -> str:
        """The action this colour empowers."""
        return ("capture", "move", "build", "trade")[self]

    @classmethod
    def parse(cls, text: str) -> Colour:
        """Read a colour letter or word, in any case (``b``, ``Blue``).

        >>> Colour.parse("Blue")
        <Colour.BLUE: 3>
        """
        colour = _COLOUR_WORDS.get(text.lower())
        if colour is None:
            raise ValueError(f"{text!r} is not a colour (r, y, g, b or red, yellow, green, blue)")
        return colour


_COLOUR_WORDS = {
    **{c.letter: c for c in Colour},
    **{c.name.lower(): c for c in Colour},
}

SIZES = (1, 2, 3)
SIZE_WORDS = {1: "small", 2: "medium", 3: "large"}


class Piece(NamedTuple):
    """One pyramid: a colour and a size (1 = small, 2 = medium, 3 = large).

    >>> Piece.parse("G3")
    Piece(colour=<Colour.GREEN: 2>, size=3)
    >>> str(Piece(Colour.RED, 1))
    'r1'
    """

    colour: Colour
    size: int

    @property
    def kind(self) -> int:
        """The piece's index 0..11 (colour-major)."""
        return self.colour * 3 + self.size - 1

    @classmethod
    def from_kind(cls, kind: int) -> Piece:
        """The piece whose :attr:`kind` is ``kind``."""
        return PIECES[kind]

    @classmethod
    def parse(cls, text: str) -> Piece:
        """Read ``r1`` .. ``b3`` in any case."""
        piece = _PIECE_WORDS.get(text.lower())
        if piece is None:
            raise ValueError(f"{text!r} is not a piece (a colour letter and a size, e.g. g3)")
        return piece

    def __str__(self) -> str:
        return f"{self.colour.letter}{self.size}"


PIECES: tuple[Piece, ...] = tuple(Piece(c, s) for c in Colour for s in SIZES)
_PIECE_WORDS = {str(p): p for p in PIECES}
KINDS = range(12)
COLOUR_OF: tuple[int, ...] = tuple(k // 3 for k in KINDS)
SIZE_OF: tuple[int, ...] = tuple(k % 3 + 1 for k in KINDS)
UNIT: tuple[int, ...] = tuple(1 << (2 * k) for k in KINDS)
COPIES = 3
FULL_BANK = sum(COPIES * u for u in UNIT)
"""The pile of all 36 pieces."""
PILE_BITS = 24
PILE_MASK = (1 << PILE_BITS) - 1


def count(pile: int, kind: int) -> int:
    """How many pieces of ``kind`` the pile holds."""
    return (pile >> (2 * kind)) & 3


def pile_of(pieces: Iterable[Piece]) -> int:
    """The pile holding ``pieces``."""
    return sum(UNIT[p.kind] for p in pieces)


def kinds(pile: int) -> Iterator[int]:
    """Each kind in the pile, once per copy, smallest first within colour order."""
    for kind in KINDS:
        for _ in range((pile >> (2 * kind)) & 3):
            yield kind


def pile_text(pile: int) -> str:
    """The pile as concatenated pieces in canonical order, e.g. ``r1g3g3``."""
    return "".join(str(PIECES[k]) for k in kinds(pile))


def parse_pile(text: str) -> int:
    """Read concatenated pieces such as ``r1g3 g3`` (whitespace ignored)."""
    letters = "".join(text.split()).lower()
    if len(letters) % 2:
        raise ValueError(f"{text!r} is not a list of pieces")
    return pile_of(Piece.parse(letters[i : i + 2]) for i in range(0, len(letters), 2))


class PileFacts(NamedTuple):
    """What the move generator keeps asking about a pile, computed once per distinct pile."""

    distinct: tuple[int, ...]
    colours: int
    """Bit ``c`` set when the pile holds colour ``c``."""
    sizes: int
    """Bit ``s - 1`` set when the pile holds size ``s``."""
    largest: int
    overpopulated: int
    """Bit ``c`` set when the pile holds four or more pieces of colour ``c``."""


_FACTS: dict[int, PileFacts] = {}


def facts(pile: int) -> PileFacts:
    """The :class:`PileFacts` of ``pile`` (cached)."""
    found = _FACTS.get(pile)
    if found is None:
        if len(_FACTS) > 1 << 17:
            _FACTS.clear()
        distinct = tuple(k for k in KINDS if (pile >> (2 * k)) & 3)
        colours = sizes = overpopulated = 0
        for k in distinct:
            colours |= 1 << COLOUR_OF[k]
            sizes |= 1 << (SIZE_OF[k] - 1)
        for c in Colour:
            if sum(count(pile, 3 * c + i) for i in range(3)) >= 4:
                overpopulated |= 1 << c
        largest = max((SIZE_OF[k] for k in distinct), default=0)
        found = _FACTS[pile] = PileFacts(distinct, colours, sizes, largest, overpopulated)
    return found


def smallest_of(pile: int, colour: int) -> int | None:
    """The kind of the smallest piece of ``colour`` in the pile, or None."""
    for kind in range(3 * colour, 3 * colour + 3):
        if (pile >> (2 * kind)) & 3:
            return kind
    return None


SMALLEST: tuple[tuple[int, ...], ...] = tuple(
    tuple(next((3 * c + i for i in range(3) if (chunk >> (2 * i)) & 3), -1) for chunk in range(64)) for c in Colour
)
"""``SMALLEST[c][chunk]``: the smallest kind of colour ``c`` in a 6-bit colour chunk, or -1."""
