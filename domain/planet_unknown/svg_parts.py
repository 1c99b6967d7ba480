"""Drawing pieces for :mod:`.svg`: an SVG builder, colours, tiles, a planet grid and a corporation board's tracks.

Every function appends elements to a :class:`Canvas`; sizes are in SVG user units (pixels at scale 1).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .board import parse_square
from .data import SIZE, TRACKS, Space, corporation_tracks, corporations, tiles, tracks

TERRAIN_COLOURS: dict[str, str] = {
    "c": "#b07cc6",
    "w": "#3f8fd8",
    "b": "#5dae4f",
    "r": "#b98552",
    "t": "#e2616e",
    "e": "#f2c230",
    "p": "#2f6f2a",
}
"""Fill of a covered square by its letter (``p``: a biomass patch)."""

GROUND_COLOURS: dict[str, str] = {
    "L": "#ece4d2",
    "P": "#ece4d2",
    "I": "#d3eef8",
    "R": "#f1d49a",
    "W": "#9cc3e6",
    "C": "#b9b4ad",
    "T": "#c9d66a",
    "E": "#a7dcd3",
    "o": "#3b3b46",
}
"""Fill of an uncovered planet square by its grid letter (land, ice and the asymmetric planets' special squares)."""

GROUND_NAMES: dict[str, str] = {
    "L": "land",
    "I": "ice",
    "R": "ring",
    "W": "whirlpool",
    "C": "city",
    "T": "toxic",
    "E": "current",
    "o": "hole",
}
TERRAIN_NAMES: dict[str, str] = {
    "c": "civ",
    "w": "water",
    "b": "biomass",
    "r": "rover",
    "t": "tech",
    "e": "energy",
    "p": "patch",
}
SEAT_COLOURS = ("#d9482b", "#2b6cd9", "#e0a100", "#7a3fb8", "#1f9e78", "#d23f8f")
"""One colour per seat (0-5): rovers and seat labels."""

INK = "#222222"
MUTED = "#666666"
TILE_EDGE = "#1b1b1b"
FONT = "font-family:Helvetica,Arial,sans-serif"


def num(value: float) -> str:
    """A coordinate as short, stable text (``12``, ``12.5``)."""
    return f"{round(value, 2):g}"


class Canvas:
    """SVG text built element by element, with escaped text and attributes."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def raw(self, text: str) -> None:
        self.parts.append(text)

    def open(self, tag: str, **attrs: Any) -> None:
        self.parts.append(f"<{tag}{_attrs(attrs)}>")

    def close(self, tag: str) -> None:
        self.parts.append(f"</{tag}>")

    def element(self, tag: str, text: str | None = None, **attrs: Any) -> None:
        if text is None:
            self.parts.append(f"<{tag}{_attrs(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{_attrs(attrs)}>{escape(text)}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, **attrs: Any) -> None:
        self.element("rect", x=num(x), y=num(y), width=num(w), height=num(h), **attrs)

    def circle(self, x: float, y: float, r: float, **attrs: Any) -> None:
        self.element("circle", cx=num(x), cy=num(y), r=num(r), **attrs)

    def text(self, x: float, y: float, text: str, size: float = 12, **attrs: Any) -> None:
        self.element("text", text, x=num(x), y=num(y), font_size=num(size), **attrs)

    def title(self, text: str) -> None:
        self.element("title", text)

    def place(self, fragment: str, x: float, y: float) -> None:
        """A drawing made at the origin (often cached), moved to (x, y)."""
        self.parts.append(f'<g transform="translate({num(x)} {num(y)})">{fragment}</g>')

    def svg(self) -> str:
        return "".join(self.parts)


def escape(text: str) -> str:
    """Text made safe for XML character data and double-quoted attribute values."""
    if "&" in text or "<" in text or ">" in text or '"' in text:
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return text


@functools.cache
def _attr_name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _attrs(attrs: Mapping[str, Any]) -> str:
    return "".join(f' {_attr_name(k)}="{escape(str(v))}"' for k, v in attrs.items() if v is not None)


def square_xy(name: str) -> tuple[int, int] | None:
    """(row, column) of a square name, None for ``garage``/``destroyed`` or anything unreadable."""
    try:
        index = parse_square(name)
    except ValueError:
        return None
    return divmod(index, SIZE)


def outline(
    canvas: Canvas, x: float, y: float, cell: float, piece: Mapping[tuple[int, int], object], **attrs: Any
) -> None:
    """One path along every side where a square's piece differs from its neighbour's (off the map: no piece)."""
    d = [
        _segment(r, c, side, cell)
        for (r, c), mine in piece.items()
        for side, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1)))
        if piece.get((r + dr, c + dc)) != mine
    ]
    if d:
        transform = f"translate({num(x)} {num(y)})" if x or y else None
        canvas.element("path", d="".join(d), fill="none", stroke_linecap="square", transform=transform, **attrs)


@functools.cache
def _segment(r: int, c: int, side: int, cell: float) -> str:
    x1, y1, x2, y2 = ((0, 0, 1, 0), (0, 1, 1, 1), (0, 0, 0, 1), (1, 0, 1, 1))[side]
    return f"M{num((c + x1) * cell)} {num((r + y1) * cell)}L{num((c + x2) * cell)} {num((r + y2) * cell)}"


def resource_icon(canvas: Canvas, cx: float, cy: float, cell: float) -> None:
    canvas.circle(cx, cy, cell * 0.2, fill="#ffffff", fill_opacity="0.85", stroke=INK, stroke_width="0.6")


def meteor_symbol(canvas: Canvas, cx: float, cy: float, cell: float) -> None:
    canvas.circle(cx, cy, cell * 0.32, fill="none", stroke=INK, stroke_width="0.8", stroke_dasharray="1.5 1.5")


def tile(canvas: Canvas, tile_id: int, x: float, y: float, cell: float) -> None:
    """A tile as printed (before rotation): its squares in their terrains, resource icons and meteor symbol."""
    if not 0 <= tile_id < len(tiles()):
        canvas.text(x, y + cell, f"tile {tile_id}", 9, fill=MUTED)
        return
    canvas.place(_tile_at_origin(tile_id, cell), x, y)


@functools.cache
def _tile_at_origin(tile_id: int, cell: float) -> str:
    canvas, x, y = Canvas(), 0, 0
    shape = tiles()[tile_id]
    canvas.open("g", data_tile=tile_id)
    letters = "".join(s.terrain.letter for s in shape.squares)
    canvas.title(f"tile {tile_id}: " + ", ".join(TERRAIN_NAMES[ch] for ch in dict.fromkeys(letters)))
    for s in shape.squares:
        sx, sy = x + s.col * cell, y + s.row * cell
        canvas.rect(sx, sy, cell, cell, fill=TERRAIN_COLOURS[s.terrain.letter], stroke="#ffffff", stroke_width="0.5")
        if s.icon:
            resource_icon(canvas, sx + cell / 2, sy + cell / 2, cell)
        if s.meteor:
            meteor_symbol(canvas, sx + cell / 2, sy + cell / 2, cell)
    outline(canvas, x, y, cell, {(s.row, s.col): 0 for s in shape.squares}, stroke=TILE_EDGE, stroke_width="1.5")
    canvas.close("g")
    return canvas.svg()


def tile_size(tile_id: int) -> tuple[int, int]:
    """(columns, rows) a tile takes as printed."""
    if not 0 <= tile_id < len(tiles()):
        return 3, 2
    squares = tiles()[tile_id].squares
    return 1 + max(s.col for s in squares), 1 + max(s.row for s in squares)


def planet(canvas: Canvas, seat: Mapping[str, Any], x: float, y: float, cell: float) -> None:
    """A seat's planet: terrain, covered squares with tile outlines, the last tile placed, and the pieces on it."""
    grid: Sequence[str] = seat.get("grid") or ["L" * SIZE] * SIZE
    rows: Sequence[str] = seat.get("rows") or ["." * SIZE] * SIZE
    canvas.place(_ground(tuple(str(line) for line in grid), cell), x, y)
    piece: dict[tuple[int, int], object] = {}
    covered = []
    for r, line in enumerate(rows[:SIZE]):
        for c, cover in enumerate(line[:SIZE]):
            if cover != ".":
                covered.append(_covered_square(r, c, cover, cell))
                piece[(r, c)] = ("patch", r, c) if cover == "p" else "tiles"
    canvas.place("".join(covered), x, y)
    for number, placed in enumerate(seat.get("placed_tiles") or []):
        for name in placed.get("squares") or []:
            if (at := square_xy(name)) is not None:
                piece[at] = number
    outline(canvas, x, y, cell, piece, stroke=TILE_EDGE, stroke_width="2")
    last = {at: 0 for at in (square_xy(n) for n in _position_field(seat, "last")) if at is not None}
    outline(canvas, x, y, cell, last, stroke="#ff8c00", stroke_width="2", stroke_dasharray="4 2")
    for name in seat.get("meteor_symbols") or []:
        if (at := square_xy(name)) is not None:
            meteor_symbol(canvas, x + (at[1] + 0.5) * cell, y + (at[0] + 0.5) * cell, cell)
    pieces(canvas, seat, x, y, cell)


@functools.cache
def _covered_square(r: int, c: int, cover: str, cell: float) -> str:
    canvas = Canvas()
    canvas.rect(
        c * cell,
        r * cell,
        cell,
        cell,
        fill=TERRAIN_COLOURS.get(cover.lower(), "#999999"),
        stroke="#ffffff",
        stroke_width="0.5",
    )
    if cover.isupper():
        resource_icon(canvas, (c + 0.5) * cell, (r + 0.5) * cell, cell)
    return canvas.svg()


@functools.cache
def _ground(grid: tuple[str, ...], cell: float) -> str:
    """A planet's printed squares and the column and row names, at the origin."""
    canvas = Canvas()
    for i in range(SIZE):
        canvas.text(-4, i * cell + cell * 0.68, str(i + 1), 9, fill=MUTED, text_anchor="end")
        canvas.text(i * cell + cell / 2, -4, "abcdefghijkl"[i], 9, fill=MUTED, text_anchor="middle")
    for r, line in enumerate(grid[:SIZE]):
        for c, ground in enumerate(line[:SIZE]):
            if ground != ".":
                canvas.rect(
                    c * cell,
                    r * cell,
                    cell,
                    cell,
                    fill=GROUND_COLOURS.get(ground, "#dddddd"),
                    stroke="#b9b09c",
                    stroke_width="0.5",
                )
    return canvas.svg()


def pieces(canvas: Canvas, seat: Mapping[str, Any], x: float, y: float, cell: float) -> None:
    """Lifepods, meteorites and rovers on their squares."""
    for name in seat.get("lifepods") or []:
        if (at := square_xy(name)) is not None:
            cx, cy = x + (at[1] + 0.5) * cell, y + (at[0] + 0.5) * cell
            canvas.element(
                "ellipse",
                cx=num(cx),
                cy=num(cy),
                rx=num(cell * 0.3),
                ry=num(cell * 0.2),
                fill="#ffffff",
                stroke="#0e7c86",
                stroke_width="1.4",
            )
    for name in seat.get("meteorites") or []:
        if (at := square_xy(name)) is not None:
            cx, cy = x + (at[1] + 0.5) * cell, y + (at[0] + 0.5) * cell
            canvas.circle(cx, cy, cell * 0.28, fill="#4a3b30", stroke="#ffffff", stroke_width="1")
    colour = SEAT_COLOURS[int(seat.get("seat") or 0) % len(SEAT_COLOURS)]
    for name in seat.get("rovers") or []:
        if (at := square_xy(name)) is not None:
            cx, cy, h = x + (at[1] + 0.5) * cell, y + (at[0] + 0.5) * cell, cell * 0.36
            points = f"{num(cx)},{num(cy - h)} {num(cx + h)},{num(cy + h * 0.8)} {num(cx - h)},{num(cy + h * 0.8)}"
            canvas.element("polygon", points=points, fill=colour, stroke=INK, stroke_width="1.2")


def _position_field(seat: Mapping[str, Any], key: str) -> list[str]:
    """A ``key:a,b`` field of the seat's one-line ``position`` (e.g. ``last``: the last tile's squares)."""
    for word in str(seat.get("position") or "").split()[2:]:
        if word.startswith(key + ":"):
            return [w for w in word[len(key) + 1 :].split(",") if w]
    return []


def _space_labels(space: Space) -> tuple[str, str]:
    """(top label, bottom label) of a track space; the bottom one is a medal."""
    top = []
    if space.rover_moves:
        top.append(f"v{space.rover_moves}")
    if space.civ_rank:
        top.append(f"C{space.civ_rank}")
    if space.tech_level:
        top.append(f"T{space.tech_level}")
    if space.patch:
        top.append("P")
    if space.rover:
        top.append("R")
    if space.synergy:
        top.append("S" * space.synergy)
    if space.advance is not None:
        top.append(">" + space.advance.letter)
    return " ".join(top), (str(space.medal) if space.medal else "")


def board_tracks(slug: str) -> dict[str, tuple[Space, ...]]:
    """A corporation's five tracks by terrain name (the symmetric board's for an unknown corporation)."""
    spaces = corporation_tracks(slug) if slug in corporations() else tracks()
    return {str(t): s for t, s in spaces.items()}


def track_board(canvas: Canvas, seat: Mapping[str, Any], x: float, y: float, w: float, h: float, label: float) -> None:
    """The five tracks of the seat's corporation board: milestones printed on the spaces and the seat's trackers."""
    canvas.place(_board_at_origin(str(seat.get("corporation") or ""), str(seat.get("flux_track")), w, h, label), x, y)
    positions: Mapping[str, Any] = seat.get("tracks") or {}
    lanes: Mapping[str, str] = seat.get("lanes") or {}
    names = [str(t) for t in TRACKS]
    for terrain in names:
        position = positions.get(terrain)
        if not isinstance(position, int):
            continue
        lane = lanes.get(terrain, terrain)
        row = names.index(lane) if lane in names else 0
        cx, cy = x + label + position * w + (w - 1) / 2, y + row * h + h / 2
        canvas.open("g")
        canvas.title(f"{terrain} tracker on space {position}")
        canvas.circle(cx, cy, min(w, h) * 0.36, fill=TERRAIN_COLOURS[terrain[0]], stroke=INK, stroke_width="1.6")
        canvas.close("g")


@functools.cache
def _board_at_origin(slug: str, flux: str, w: float, h: float, label: float) -> str:
    """A corporation board's five tracks with their printed milestones, at the origin."""
    canvas, x, y = Canvas(), 0, 0
    spaces = board_tracks(slug)
    for row, terrain in enumerate(str(t) for t in TRACKS):
        ty = y + row * h
        name = terrain + ("*" if terrain == flux else "")
        canvas.text(x + label - 4, ty + h * 0.65, name, 10, fill=INK, text_anchor="end")
        colour = TERRAIN_COLOURS[terrain[0]]
        for k, space in enumerate(spaces[terrain]):
            sx = x + label + k * w
            canvas.rect(
                sx,
                ty + 1,
                w - 1,
                h - 2,
                fill=colour,
                fill_opacity="0.22",
                stroke=colour,
                stroke_width="0.6",
                stroke_dasharray="2 1" if space.skip else None,
            )
            top, medal = _space_labels(space)
            if medal:
                canvas.circle(
                    sx + (w - 1) / 2, ty + h * 0.66, 4.6, fill="#f4c542", stroke="#9a7510", stroke_width="0.6"
                )
                canvas.text(
                    sx + (w - 1) / 2, ty + h * 0.66 + 2.6, medal, 7, fill=INK, text_anchor="middle", font_weight="bold"
                )
            if top:
                canvas.text(
                    sx + (w - 1) / 2,
                    ty + (h * 0.38 if medal else h * 0.62),
                    top,
                    6.5 if len(top) < 4 else 5,
                    fill=INK,
                    text_anchor="middle",
                )
    return canvas.svg()


def swatches(canvas: Canvas, x: float, y: float, entries: Iterable[tuple[str, str]], size: float = 12) -> float:
    """A row of colour swatches with names; returns the x after the last one."""
    for name, colour in entries:
        canvas.rect(x, y, size, size, fill=colour, stroke="#888888", stroke_width="0.5")
        canvas.text(x + size + 4, y + size - 2, name, 11, fill=INK)
        x += size + 12 + 6.2 * len(name)
    return x
