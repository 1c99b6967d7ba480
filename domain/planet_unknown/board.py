"""Squares, tile orientations and the bit masks that make placement checks fast.

A square is ``row * 12 + col``; its name is the column letter and the row number,
``a1`` top left, ``l12`` bottom right.

>>> square_name(0), square_name(143), parse_square("e4")
('a1', 'l12', 40)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator

from .data import BY_LETTER, SIZE, SQUARES, Terrain, TileSquare, tiles

COLUMNS = "abcdefghijkl"
ROTATIONS = (0, 90, 180, 270)
FULL = (1 << SQUARES) - 1
_COL0 = sum(1 << (r * SIZE) for r in range(SIZE))
_COL11 = sum(1 << (r * SIZE + SIZE - 1) for r in range(SIZE))


def square_name(square: int) -> str:
    """The name of a square, e.g. ``e4``."""
    return f"{COLUMNS[square % SIZE]}{square // SIZE + 1}"


def parse_square(text: str) -> int:
    """The square named ``text``; raises ValueError for anything else."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit() or not 1 <= int(text[1:]) <= SIZE:
        raise ValueError(f"{text!r} is not a square (columns a-l, rows 1-12)")
    return (int(text[1:]) - 1) * SIZE + COLUMNS.index(text[0])


def neighbours(square: int) -> Iterator[int]:
    """The orthogonal neighbours of ``square`` inside the 12 x 12 frame."""
    r, c = divmod(square, SIZE)
    if r > 0:
        yield square - SIZE
    if r < SIZE - 1:
        yield square + SIZE
    if c > 0:
        yield square - 1
    if c < SIZE - 1:
        yield square + 1


def distance(a: int, b: int) -> int:
    """The orthogonal steps between squares ``a`` and ``b`` (the Manhattan distance)."""
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


def connected_areas(squares: Iterable[int]) -> list[set[int]]:
    """``squares`` split into their orthogonally connected areas."""
    todo = set(squares)
    found = []
    while todo:
        stack = [todo.pop()]
        area = set()
        while stack:
            square = stack.pop()
            area.add(square)
            for n in neighbours(square):
                if n in todo:
                    todo.remove(n)
                    stack.append(n)
        found.append(area)
    return found


def mask_of(squares: object) -> int:
    """The bit mask of an iterable of squares."""
    out = 0
    for s in squares:  # type: ignore[attr-defined]
        out |= 1 << s
    return out


def squares_of(mask: int) -> list[int]:
    """The squares set in ``mask``, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def grow(mask: int) -> int:
    """The squares orthogonally adjacent to ``mask`` (not including it)."""
    around = (mask >> 1) & ~_COL11 | (mask << 1) & ~_COL0 | (mask >> SIZE) | (mask << SIZE)
    return around & FULL & ~mask


Orientation = tuple[int, bool]
"""(rotation in degrees clockwise, flipped left-right before rotating)."""


def orient(squares: tuple[TileSquare, ...], rotation: int, flip: bool) -> tuple[TileSquare, ...]:
    """The tile squares flipped (mirror left-right), turned clockwise, and shifted to start at row 0, col 0."""
    cells = []
    for s in squares:
        r, c = s.row, (-s.col if flip else s.col)
        for _ in range(rotation // 90):
            r, c = c, -r
        cells.append((r, c, s))
    top = min(r for r, _, _ in cells)
    left = min(c for _, c, _ in cells)
    return tuple(
        sorted(
            (TileSquare(r - top, c - left, s.terrain, s.icon, s.meteor) for r, c, s in cells),
            key=lambda t: (t.row, t.col),
        )
    )


@functools.cache
def oriented(tile: int, rotation: int, flip: bool) -> tuple[TileSquare, ...]:
    """Tile ``tile`` in the given orientation, top-left of its bounding box at (0, 0)."""
    return orient(tiles()[tile].squares, rotation, flip)


@functools.cache
def orientations(tile: int) -> tuple[Orientation, ...]:
    """The distinct orientations of a tile (terrains, icons and meteor symbol all count).

    Two orientations that print the same picture are listed once, by the first of
    them in the order (0, False), (90, False), ..., (0, True), ..., (270, True).
    """
    seen: set[tuple[TileSquare, ...]] = set()
    out = []
    for flip in (False, True):
        for rotation in ROTATIONS:
            picture = oriented(tile, rotation, flip)
            if picture not in seen:
                seen.add(picture)
                out.append((rotation, flip))
    return tuple(out)


def footprint(tile: int, anchor: int, rotation: int, flip: bool) -> dict[int, TileSquare] | None:
    """The squares a placement covers, or None if it leaves the 12 x 12 frame.

    ``anchor`` is the square under the top-left corner of the oriented tile's bounding box.
    """
    ar, ac = divmod(anchor, SIZE)
    out = {}
    for s in oriented(tile, rotation, flip):
        r, c = ar + s.row, ac + s.col
        if r >= SIZE or c >= SIZE:
            return None
        out[r * SIZE + c] = s
    return out


@functools.cache
def placements(tile: int, planet_mask: int) -> tuple[tuple[int, int, bool, int], ...]:
    """Every (anchor, rotation, flip, mask) of a tile that lies wholly on the planet's grid squares."""
    out = []
    for rotation, flip in orientations(tile):
        cells = oriented(tile, rotation, flip)
        height = 1 + max(s.row for s in cells)
        width = 1 + max(s.col for s in cells)
        base = mask_of(s.row * SIZE + s.col for s in cells)
        for r in range(SIZE - height + 1):
            for c in range(SIZE - width + 1):
                anchor = r * SIZE + c
                mask = base << anchor
                if mask & ~planet_mask == 0:
                    out.append((anchor, rotation, flip, mask))
    return tuple(out)


def terrain_of(letter: str) -> Terrain:
    """The terrain of a covered-square letter (``p`` is a biomass patch)."""
    return Terrain.BIOMASS if letter == "p" else BY_LETTER[letter.lower()]
