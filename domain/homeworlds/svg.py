"""The table as an SVG picture, drawn from a viewer's view (:meth:`Homeworlds.view`).

Seat 1's homeworld is at the top and seat 0's at the bottom. Each system is a card: its name,
seat 1's ships above its stars pointing up (home), seat 0's ships below pointing down (home).
Stars are pyramids seen from above; ships are pyramids lying down; each piece shows its size in pips.
The bank is below the table, and the last turn is written out with the systems and ships it touched
outlined in amber.

>>> from domain.homeworlds.game import GAME
>>> render(GAME.view(GAME.initial(2, {}), 0)).startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .notation import Build, Capture, Catastrophe, Discover, Homeworld, Move, Sacrifice, Trade, Turn

WIDTH = 960
MARGIN = 16
CARD_WIDTH = 220
CARD_GAP = 16
PER_ROW = 4
NAME_HEIGHT = 28
SHIP_ROW = 48
ZONE_PAD = 6
STAR_BAND = 64
SHIP_GAP = 6
SHIP_SIZE = {1: (20, 26), 2: (26, 34), 3: (32, 42)}
"""A ship's base and height by size, in pixels."""
STAR_SIDE = {1: 26, 2: 36, 3: 46}
"""A star's side seen from above, by size."""
PIECE_FILL = {"r": "#d64541", "y": "#f2b824", "g": "#3e9e4f", "b": "#3b6fd4"}
PIECE_DARK = {"r": "#8e2621", "y": "#a8780a", "g": "#22662f", "b": "#1f4391"}
PIECE_LIGHT = {"r": "#ee8a86", "y": "#f9dc85", "g": "#86c990", "b": "#8eaef0"}
COLOUR_WORD = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
SIZE_WORD = {1: "small", 2: "medium", 3: "large"}
SEAT_COLOUR = ("#1c6e8c", "#8a3b8f")
"""Seat 0's and seat 1's colour: homeworld borders and the tint of their ships' side of a system."""
SEAT_TINT = ("#eaf4f7", "#f6edf6")
HIGHLIGHT = "#f08c00"
INK = "#1f2933"
MUTED = "#62707d"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
NAME_CHARS = 20
"""The longest system name drawn whole on a card; longer ones are cut with an ellipsis."""
NOTATION_CHARS = 110
NOTATION_LINES = 4


def player(seat: int) -> str:
    """How the API names a seat: 0-based, ``seat 0``."""
    return f"seat {seat}"


def piece_words(piece: str) -> str:
    """``large green`` for ``g3``."""
    return f"{SIZE_WORD[int(piece[1])]} {COLOUR_WORD[piece[0]]}"


def _num(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _el(parent: ET.Element, tag: str, text: str | None = None, **attrs: float | str) -> ET.Element:
    element = ET.SubElement(
        parent,
        tag,
        {k.rstrip("_").replace("_", "-"): _num(v) if isinstance(v, int | float) else v for k, v in attrs.items()},
    )
    if text is not None:
        element.text = text
    return element


def _points(*xy: tuple[float, float]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in xy)


class _Touched:
    """What the last turn touched: system names (case-folded) and ships per (system, seat, piece)."""

    def __init__(self, notation: str | None, mover: int | None) -> None:
        self.systems: set[str] = set()
        self.ships: Counter[tuple[str, int, str]] = Counter()
        if not notation or mover is None:
            return
        try:
            turn = Turn.parse(notation)
        except ValueError:
            return
        for action in turn.actions:
            match action:
                case Homeworld(_, _, ship, name) if name is not None:
                    self._mark(name, mover, str(ship))
                case Build(ship, system) | Capture(ship, system):
                    self._mark(system, mover, str(ship))
                case Trade(_, new_ship, system):
                    self._mark(system, mover, str(new_ship))
                case Move(ship, origin, destination):
                    self.systems.add(origin.casefold())
                    self._mark(destination, mover, str(ship))
                case Discover(ship, origin, _, name):
                    self.systems.add(origin.casefold())
                    self._mark(name, mover, str(ship))
                case Sacrifice(_, system) | Catastrophe(system, _):
                    self.systems.add(system.casefold())

    def _mark(self, system: str, seat: int, ship: str) -> None:
        self.systems.add(system.casefold())
        self.ships[(system.casefold(), seat, ship)] += 1


def _ship_rows(ships: Sequence[str]) -> list[list[str]]:
    rows: list[list[str]] = [[]]
    width = 0
    room = CARD_WIDTH - 2 * ZONE_PAD - 8
    for ship in ships:
        w = SHIP_SIZE[int(ship[1])][0] + SHIP_GAP
        if rows[-1] and width + w > room:
            rows.append([])
            width = 0
        rows[-1].append(ship)
        width += w
    return rows


def _pips(parent: ET.Element, size: int, cx: float, cy: float) -> None:
    for i in range(size):
        _el(parent, "circle", cx=cx + (i - (size - 1) / 2) * 6, cy=cy, r=2, fill="#ffffff", fill_opacity=0.9)


def _ship(parent: ET.Element, piece: str, seat: int, cx: float, base: float, lit: bool) -> None:
    """A ship with its base at ``base``, pointing down for seat 0 and up for seat 1."""
    colour, size = piece[0], int(piece[1])
    w, h = SHIP_SIZE[size]
    tip = base + h if seat == 0 else base - h
    group = _el(parent, "g", class_="ship")
    _el(group, "title", f"{player(seat)}'s {piece_words(piece)} ship ({piece})")
    outline = _points((cx - w / 2, base), (cx + w / 2, base), (cx, tip))
    if lit:
        _el(group, "polygon", points=outline, fill="none", stroke=HIGHLIGHT, stroke_width=6, stroke_linejoin="round")
    _el(
        group,
        "polygon",
        points=outline,
        fill=PIECE_FILL[colour],
        stroke=PIECE_DARK[colour],
        stroke_width=1.5,
        stroke_linejoin="round",
    )
    shade = _points((cx, base), (cx + w / 2, base), (cx, tip))
    _el(group, "polygon", points=shade, fill=PIECE_DARK[colour], fill_opacity=0.25)
    _pips(group, size, cx, base + (5 if seat == 0 else -5))


def _star(parent: ET.Element, piece: str, cx: float, cy: float) -> None:
    """A star: a pyramid seen from above, four faces meeting at its tip."""
    colour, size = piece[0], int(piece[1])
    half = STAR_SIDE[size] / 2
    group = _el(parent, "g", class_="star")
    _el(group, "title", f"{piece_words(piece)} star ({piece})")
    nw, ne, se, sw = (cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)
    centre = (cx, cy)
    for a, b, fill in (
        (nw, ne, PIECE_LIGHT[colour]),
        (ne, se, PIECE_FILL[colour]),
        (se, sw, PIECE_DARK[colour]),
        (sw, nw, PIECE_FILL[colour]),
    ):
        _el(group, "polygon", points=_points(a, b, centre), fill=fill)
    _el(
        group,
        "rect",
        x=cx - half,
        y=cy - half,
        width=2 * half,
        height=2 * half,
        rx=2,
        fill="none",
        stroke=PIECE_DARK[colour],
        stroke_width=1.5,
    )
    _pips(group, size, cx, cy + half / 2 + 1)


def _truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _describe(system: Mapping[str, Any]) -> str:
    ships = system.get("ships") or {}
    home = system.get("homeworld_of")
    parts = [system["name"] + ("" if home is None else f", homeworld of {player(home)}")]
    parts.append("stars " + (", ".join(piece_words(s) for s in system.get("stars") or []) or "none"))
    for seat in (0, 1):
        mine = ships.get(str(seat)) or []
        parts.append(f"{player(seat)}'s ships " + (", ".join(piece_words(s) for s in mine) or "none"))
    return "; ".join(parts)


class _Board:
    def __init__(self, view: Mapping[str, Any], highlight_last: bool) -> None:
        self.view = view
        turn = view.get("turn")
        mover = (turn - 2) % 2 if isinstance(turn, int) and turn >= 2 else None
        self.touched = _Touched(view.get("last_turn"), mover if highlight_last else None)
        self.root = ET.Element(
            "svg",
            {
                "xmlns": "http://www.w3.org/2000/svg",
                "role": "img",
                "aria-labelledby": "board-title board-desc",
                "font-family": FONT,
            },
        )
        self.y = 0.0

    def headline(self) -> str:
        parts = [f"Homeworlds, turn {self.view.get('turn', '?')}"]
        result = self.view.get("result")
        if result is not None:
            winners = result.get("winners") or []
            verdict = "a draw" if not winners else " and ".join(player(w) for w in winners) + " won"
            parts.append(f"game over: {verdict} ({result.get('reason')})")
        elif self.view.get("to_move") is not None:
            parts.append(f"{player(self.view['to_move'])} to move")
        if self.view.get("draw_offer") is not None:
            parts.append(f"draw offered by {player(self.view['draw_offer'])}")
        return " · ".join(parts)

    def draw(self) -> str:
        _el(self.root, "title", self.headline(), id="board-title")
        desc = "Seat 1's homeworld is at the top and seat 0's at the bottom. "
        desc += " ".join(_describe(s) + "." for s in self.view.get("systems") or [])
        if self.view.get("last_turn"):
            desc += f" Last turn: {self.view['last_turn']}."
        _el(self.root, "desc", desc.strip(), id="board-desc")
        _el(self.root, "rect", x=0, y=0, width=WIDTH, height="100%", fill="#fbfaf7")
        self.header()
        self.table()
        self.bank()
        height = self.y + MARGIN
        self.root.set("width", str(WIDTH))
        self.root.set("height", _num(height))
        self.root.set("viewBox", f"0 0 {WIDTH} {_num(height)}")
        ET.indent(self.root, space=" ")
        return ET.tostring(self.root, encoding="unicode") + "\n"

    def header(self) -> None:
        _el(self.root, "text", self.headline(), x=MARGIN, y=34, font_size=21, font_weight=700, fill=INK)
        self.y = 58
        last = self.view.get("last_turn")
        if last:
            turn = self.view.get("turn")
            who = f" ({player((turn - 2) % 2)})" if isinstance(turn, int) and turn >= 2 else ""
            lines = textwrap.wrap(f"Last turn{who}: {last}", NOTATION_CHARS) or [""]
            if len(lines) > NOTATION_LINES:
                lines = [*lines[: NOTATION_LINES - 1], _truncate(lines[NOTATION_LINES - 1], NOTATION_CHARS - 1) + "…"]
            for line in lines:
                _el(self.root, "text", line, x=MARGIN, y=self.y, font_size=14, fill=INK, class_="last-turn")
                self.y += 19
        self.legend()

    def legend(self) -> None:
        group = _el(self.root, "g", class_="legend", font_size=12, fill=MUTED)
        x = float(MARGIN)
        y = self.y + 2
        for seat, text in (
            (1, "Seat 1's ships point up, to their home at the top"),
            (0, "Seat 0's ships point down, to their home at the bottom"),
        ):
            tip, base = (y - 7, y + 3) if seat == 1 else (y + 3, y - 7)
            _el(
                group,
                "polygon",
                points=_points((x, base), (x + 10, base), (x + 5, tip)),
                fill=SEAT_COLOUR[seat],
            )
            _el(group, "text", text, x=x + 16, y=y + 2)
            x += 16 + 6.2 * len(text) + 18
        if self.touched.systems:
            _el(group, "rect", x=x, y=y - 8, width=12, height=12, rx=3, fill="none", stroke=HIGHLIGHT, stroke_width=2.5)
            _el(group, "text", "touched by the last turn", x=x + 18, y=y + 2)
        self.y += 20

    def table(self) -> None:
        systems = list(self.view.get("systems") or [])
        homes = {s.get("homeworld_of"): s for s in systems if s.get("homeworld_of") is not None}
        others = [s for s in systems if s.get("homeworld_of") is None]
        set_up = list(self.view.get("set_up") or [False, False])
        if not systems:
            self.y += 12
            _el(
                self.root,
                "text",
                "No systems yet: each player's first turn sets up a homeworld.",
                x=WIDTH / 2,
                y=self.y + 30,
                font_size=16,
                fill=MUTED,
                text_anchor="middle",
            )
            self.y += 60
            return
        middle = [others[i : i + PER_ROW] for i in range(0, len(others), PER_ROW)]
        self.y += 8
        bands: list[tuple[int | None, list[list[Mapping[str, Any]]]]] = [
            (1, [[homes[1]]] if 1 in homes else []),
            (None, middle),
            (0, [[homes[0]]] if 0 in homes else []),
        ]
        for seat, rows in bands:
            if seat is not None and not rows and len(set_up) > seat and set_up[seat]:
                self.missing_home(seat)
            for row in rows:
                self.card_row(row)

    def missing_home(self, seat: int) -> None:
        _el(
            self.root,
            "text",
            f"{player(seat)}'s homeworld is gone",
            x=WIDTH / 2,
            y=self.y + 22,
            font_size=15,
            font_style="italic",
            fill=SEAT_COLOUR[seat],
            text_anchor="middle",
        )
        self.y += 36

    def card_row(self, row: Sequence[Mapping[str, Any]]) -> None:
        ship_rows = [[_ship_rows((s.get("ships") or {}).get(str(seat)) or []) for seat in (0, 1)] for s in row]
        rows0 = max(len(r[0]) for r in ship_rows)
        rows1 = max(len(r[1]) for r in ship_rows)
        zone1 = rows1 * SHIP_ROW + 2 * ZONE_PAD
        zone0 = rows0 * SHIP_ROW + 2 * ZONE_PAD
        height = NAME_HEIGHT + zone1 + STAR_BAND + zone0
        left = (WIDTH - (len(row) * CARD_WIDTH + (len(row) - 1) * CARD_GAP)) / 2
        for i, system in enumerate(row):
            x = left + i * (CARD_WIDTH + CARD_GAP)
            self.card(system, x, self.y, zone1, zone0, height, ship_rows[i])
        self.y += height + CARD_GAP

    def card(
        self,
        system: Mapping[str, Any],
        x: float,
        y: float,
        zone1: float,
        zone0: float,
        height: float,
        ship_rows: list[list[list[str]]],
    ) -> None:
        name = str(system["name"])
        key = name.casefold()
        home = system.get("homeworld_of")
        lit = key in self.touched.systems
        group = _el(self.root, "g", class_="system", role="group", aria_label=_describe(system))
        _el(group, "title", _describe(system))
        if lit:
            _el(
                group,
                "rect",
                x=x - 4,
                y=y - 4,
                width=CARD_WIDTH + 8,
                height=height + 8,
                rx=14,
                fill="none",
                stroke=HIGHLIGHT,
                stroke_width=3,
                class_="last-turn",
            )
        border = SEAT_COLOUR[home] if home is not None else "#c9ced4"
        _el(
            group,
            "rect",
            x=x,
            y=y,
            width=CARD_WIDTH,
            height=height,
            rx=10,
            fill="#ffffff",
            stroke=border,
            stroke_width=3 if home is not None else 1.2,
        )
        top = y + NAME_HEIGHT
        for seat, zy, zh in ((1, top, zone1), (0, top + zone1 + STAR_BAND, zone0)):
            _el(group, "rect", x=x + 4, y=zy, width=CARD_WIDTH - 8, height=zh, rx=6, fill=SEAT_TINT[seat])
        _el(group, "text", _truncate(name, NAME_CHARS), x=x + 10, y=y + 20, font_size=15, font_weight=700, fill=INK)
        if home is not None:
            label = f"HOME · seat {home}"
            _el(group, "rect", x=x + CARD_WIDTH - 104, y=y + 6, width=96, height=18, rx=9, fill=SEAT_COLOUR[home])
            _el(
                group,
                "text",
                label,
                x=x + CARD_WIDTH - 56,
                y=y + 19,
                font_size=11,
                font_weight=700,
                fill="#ffffff",
                text_anchor="middle",
                letter_spacing=0.5,
            )
        stars = list(system.get("stars") or [])
        widths = [STAR_SIDE[int(s[1])] for s in stars]
        sx = x + (CARD_WIDTH - (sum(widths) + 12 * (len(stars) - 1))) / 2
        cy = top + zone1 + STAR_BAND / 2
        for star, w in zip(stars, widths, strict=True):
            _star(group, star, sx + w / 2, cy)
            sx += w + 12
        marks = Counter({k: v for k, v in self.touched.ships.items() if k[0] == key})
        for seat in (0, 1):
            rows = ship_rows[seat]
            for r, ships in enumerate(rows):
                widths = [SHIP_SIZE[int(s[1])][0] for s in ships]
                px = x + (CARD_WIDTH - (sum(widths) + SHIP_GAP * (len(ships) - 1))) / 2
                if seat == 1:
                    base = top + zone1 - ZONE_PAD - r * SHIP_ROW - 3
                else:
                    base = top + zone1 + STAR_BAND + ZONE_PAD + r * SHIP_ROW + 3
                for ship, w in zip(ships, widths, strict=True):
                    mark = (key, seat, ship)
                    on = marks[mark] > 0
                    if on:
                        marks[mark] -= 1
                    _ship(group, ship, seat, px + w / 2, base, on)
                    px += w + SHIP_GAP

    def bank(self) -> None:
        bank = self.view.get("bank") or {}
        group = _el(self.root, "g", class_="bank", role="group", aria_label=self.bank_text(bank))
        _el(group, "title", self.bank_text(bank))
        y = self.y
        height = 92
        _el(
            group,
            "rect",
            x=MARGIN,
            y=y,
            width=WIDTH - 2 * MARGIN,
            height=height,
            rx=10,
            fill="#f1efe9",
            stroke="#d9d5cb",
        )
        _el(group, "text", "Bank", x=MARGIN + 12, y=y + 22, font_size=15, font_weight=700, fill=INK)
        column = (WIDTH - 2 * MARGIN - 80) / 4
        for c, letter in enumerate("rygb"):
            cx0 = MARGIN + 80 + c * column
            for s in (1, 2, 3):
                n = int((bank.get(letter) or {}).get(str(s), 0))
                px = cx0 + column / 2 + (s - 2) * column * 0.27
                w, h = SHIP_SIZE[s]
                base = y + 62
                outline = _points((px - w / 2, base), (px + w / 2, base), (px, base - h))
                if n:
                    _el(
                        group,
                        "polygon",
                        points=outline,
                        fill=PIECE_FILL[letter],
                        stroke=PIECE_DARK[letter],
                        stroke_width=1.5,
                        stroke_linejoin="round",
                    )
                    _pips(group, s, px, base - 5)
                else:
                    _el(
                        group,
                        "polygon",
                        points=outline,
                        fill="none",
                        stroke=PIECE_DARK[letter],
                        stroke_width=1.2,
                        stroke_dasharray="3 3",
                        stroke_opacity=0.5,
                    )
                _el(
                    group,
                    "text",
                    f"×{n}",
                    x=px,
                    y=base + 20,
                    font_size=13,
                    font_weight=700 if n else 400,
                    fill=INK if n else MUTED,
                    text_anchor="middle",
                )
        self.y = y + height

    @staticmethod
    def bank_text(bank: Mapping[str, Any]) -> str:
        parts = []
        for letter in "rygb":
            counts = bank.get(letter) or {}
            parts.append(f"{COLOUR_WORD[letter]} " + "/".join(str(counts.get(str(s), 0)) for s in (1, 2, 3)))
        return "Bank (small/medium/large): " + ", ".join(parts)


def render(view: Mapping[str, Any], *, highlight_last: bool = True) -> str:
    """The table of ``view`` (a :meth:`Homeworlds.view`) as a standalone SVG document.

    With ``highlight_last`` the systems and ships the last turn touched are outlined; its notation is
    written above the table either way.
    """
    return _Board(view, highlight_last).draw()
