"""The table as text for a terminal, drawn from a viewer's view (:meth:`PlanetUnknown.view`).

A planet is a 12 x 12 grid of two-character cells: the first character is the square (a tile's
terrain letter, upper case where its resource icon is, ``p`` a biomass patch; uncovered: ``.`` land,
``~`` ice, ``#`` a special square of an asymmetric planet, blank off the planet), the second a
piece on it (``@`` rover, ``*`` meteorite, ``+`` lifepod). Square names come from the rules'
own :func:`~domain.planet_unknown.board.square_name`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .board import parse_square, square_name
from .data import SIZE, tiles
from .moves import parse_move

LEGEND = (
    "squares: terrain letter (upper case: resource icon), p patch, . land, ~ ice, # special, blank: off the planet; "
    "pieces: @ rover, * meteorite, + lifepod"
)
_UNCOVERED = {".": " ", "o": " ", "L": ".", "P": ".", "I": "~"}


def move_text(move: Any) -> str:
    """A move (as :meth:`PlanetUnknown.legal_moves` gives it) in its one-line text form, e.g. ``place 57 e4 90``."""
    return str(parse_move(move))


def seat_name(seat: int) -> str:
    """How a seat is shown: 0-based, as the API numbers seats (``seat 0``)."""
    return f"seat {seat}"


def render(view: Mapping[str, Any], seat: int | None = None) -> str:
    """The round, the station, the objectives and every seat: ``seat``'s planet in full with its
    offered tiles, the others as summaries; a spectator (``seat`` None) sees every planet in full."""
    lines = [_headline(view, seat), _station(view.get("station") or [])]
    events = view.get("events")
    if events:
        card = events.get("card")
        drawn = f" · this round: {card.get('effect')} ({card.get('alert')})" if card else ""
        lines.append(f"Event deck: {events.get('left')} left{drawn}")
    objectives = view.get("objectives") or []
    if objectives:
        lines.append("Objectives: " + "; ".join(_objective(o) for o in objectives))
    solo = view.get("solo")
    if solo:
        lines.append("Solo: " + ", ".join(f"{k} {v}" for k, v in solo.items()))
    scores = {s["seat"]: s for s in view.get("scores") or []}
    for entry in view.get("seats") or []:
        index = entry["seat"]
        full = seat is None or index == seat
        lines.append("")
        lines.extend(_seat(entry, index == seat, full, scores.get(index)))
    lines.append("")
    lines.append(LEGEND)
    return "\n".join(lines)


def _headline(view: Mapping[str, Any], seat: int | None) -> str:
    def who(index: int) -> str:
        return seat_name(index) + (" (you)" if index == seat else "")

    parts = [f"Round {view.get('round')}", str(view.get("phase"))]
    if view.get("commander") is not None:
        parts.append(f"commander {who(view['commander'])}")
    if view.get("last_round"):
        parts.append("last round")
    acting = view.get("to_act") or []
    if acting:
        parts.append("to act: " + ", ".join(who(i) for i in acting))
    return " · ".join(parts)


def _station(stacks: Sequence[Mapping[str, Any]]) -> str:
    rings: dict[str, list[str]] = {}
    for stack in stacks:
        top = "?" if stack.get("top") is None else str(stack["top"])
        rings.setdefault(str(stack.get("ring")), []).append(f"{stack['stack']}:{top}/{stack['size']}")
    shown = " | ".join(f"{ring} {' '.join(parts)}" for ring, parts in rings.items())
    return f"Station (stack:top tile/size): {shown}"


def _objective(objective: Mapping[str, Any]) -> str:
    seats = objective.get("seats") or []
    between = " & ".join(str(s) for s in seats if s is not None)
    return f"{objective.get('name')} ({'seats ' + between if between else 'all'})"


def _seat(entry: Mapping[str, Any], own: bool, full: bool, score: Mapping[str, Any] | None) -> list[str]:
    title = seat_name(entry["seat"]) + (" (you)" if own else "")
    lines = [f"{title} · {entry.get('planet')} · {entry.get('corporation')} · {entry.get('stage')}"]
    tracks = " · ".join(f"{name} {value}" for name, value in (entry.get("tracks") or {}).items())
    lines.append(f"  tracks: {tracks} (tech level {entry.get('tech_level')})")
    rovers = ", ".join(entry.get("rovers") or []) or "-"
    lines.append(
        f"  rovers: {rovers} · lifepods collected {entry.get('lifepods_collected')}"
        f" · meteorites collected {entry.get('meteorites_collected')} · civ cards {entry.get('civ_cards')}"
    )
    if score is not None:
        lines.append(f"  score: {score.get('total')}")
    if own:
        if entry.get("hand"):
            lines.append("  hand: " + ", ".join(str(card) for card in entry["hand"]))
        for pending in entry.get("pending") or []:
            lines.append(f"  to do: {pending}")
    if not full:
        lines.append(f"  planet: {entry.get('position')}")
        return lines
    lines.extend("  " + row for row in planet_grid(entry))
    offered = entry.get("offered") or []
    if own and offered:
        lines.append("  tiles you may take (as printed, before rotation):")
        lines.extend("    " + row for row in tile_pictures(offered))
    return lines


def planet_grid(entry: Mapping[str, Any]) -> list[str]:
    """A seat's planet as text rows, with column and row names (see the module's legend)."""
    grid: Sequence[str] = entry.get("grid") or ["." * SIZE] * SIZE
    covered: Sequence[str] = entry.get("rows") or ["." * SIZE] * SIZE
    marks: dict[int, str] = {}
    for key, mark in (("lifepods", "+"), ("meteorites", "*"), ("rovers", "@")):
        for name in entry.get(key) or []:
            try:
                marks[parse_square(name)] = mark
            except ValueError:
                continue
    columns = [_column(square_name(c)) for c in range(SIZE)]
    labels = [_row(square_name(r * SIZE)) for r in range(SIZE)]
    width = max(len(label) for label in labels)
    out = [" " * width + " " + " ".join(name.ljust(2) for name in columns).rstrip()]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            letter = covered[r][c] if covered[r][c] != "." else _UNCOVERED.get(grid[r][c], "#")
            cells.append(letter + marks.get(r * SIZE + c, " "))
        out.append(labels[r].rjust(width) + " " + " ".join(cells).rstrip())
    return out


def tile_pictures(tile_ids: Sequence[int]) -> list[str]:
    """Tiles side by side as printed (terrain letters, upper case where the resource icon is), ids above."""
    pictures = []
    for tile_id in tile_ids:
        tile = tiles()[tile_id]
        height = 1 + max(s.row for s in tile.squares)
        width = 1 + max(s.col for s in tile.squares)
        rows = [[" "] * width for _ in range(height)]
        for square in tile.squares:
            letter = square.terrain.letter
            rows[square.row][square.col] = letter.upper() if square.icon else letter
        lines = ["".join(row) for row in rows]
        meteor = " *" if tile.has_meteor else ""
        pictures.append([f"{tile_id}{meteor}", *lines])
    height = max((len(p) for p in pictures), default=0)
    widths = [max(len(line) for line in p) for p in pictures]
    return [
        "   ".join((p[i] if i < len(p) else "").ljust(w) for p, w in zip(pictures, widths, strict=True)).rstrip()
        for i in range(height)
    ]


def _column(name: str) -> str:
    return name.rstrip("0123456789") or name


def _row(name: str) -> str:
    return name.lstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") or name
