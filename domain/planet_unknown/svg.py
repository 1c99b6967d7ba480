"""The table as an SVG picture, drawn from one viewer's view (:meth:`PlanetUnknown.view`) and nothing else.

:func:`render` draws the round, the S.U.S.A.N. station with its face-up tiles, the event card,
objectives and civ piles, then one panel per seat (in a grid): its planet with terrain, tiles,
lifepods, meteorites and rovers, its corporation board's five tracks with the printed milestones and
its trackers, the tiles it may take, and what the view shows of its cards. Only the view is read,
besides the printed components (tile shapes, track spaces, printed names) from :mod:`.data`.
Seats are named by their 0-based index, as the API names them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from .data import civ_cards, corporations, planets
from .svg_parts import (
    FONT,
    GROUND_COLOURS,
    GROUND_NAMES,
    INK,
    MUTED,
    SEAT_COLOURS,
    TERRAIN_COLOURS,
    TERRAIN_NAMES,
    Canvas,
    escape,
    num,
    planet,
    swatches,
    tile,
    tile_size,
    track_board,
)

WIDTH = 1200
MARGIN = 10
GAP = 10
CELL = 19
TRACK_W = 17
TRACK_H = 22
TRACK_LABEL = 44
STATION_CELL = 13
STACK_W = 104
STACK_H = 88
OFFER_CELL = 12
LINE = 15
CHAR_W = 6.1
ALERT_COLOURS = {"green": "#3c9a3c", "orange": "#e07b00", "red": "#c62828"}


def render(view: Mapping[str, Any]) -> str:
    """The SVG text of the table as ``view`` shows it (a seat's, a spectator's or the auditor's view)."""
    canvas = Canvas()
    seats: Sequence[Mapping[str, Any]] = view.get("seats") or []
    columns = 1 if len(seats) <= 1 else 2
    panel_w = (WIDTH - 2 * MARGIN - GAP * (columns - 1)) / columns
    body = Canvas()
    y = _header(body, view)
    y = max(_station(body, view, MARGIN, y), _table(body, view, 720, y, WIDTH - MARGIN - 720)) + GAP
    for start in range(0, len(seats), columns):
        heights = [
            _seat_panel(body, view, entry, MARGIN + k * (panel_w + GAP), y, panel_w)
            for k, entry in enumerate(seats[start : start + columns])
        ]
        y += max(heights) + GAP
    y = _legend(body, y) + MARGIN
    summary = _summary(view)
    canvas.raw('<?xml version="1.0" encoding="UTF-8"?>\n')
    canvas.open(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {WIDTH} {num(y)}",
        width=str(WIDTH),
        height=num(y),
        role="img",
        aria_labelledby="pu-title pu-desc",
        style=FONT,
    )
    canvas.element("title", "Planet Unknown: " + summary[0], id="pu-title")
    canvas.element("desc", " ".join(summary[1:]), id="pu-desc")
    canvas.rect(0, 0, WIDTH, y, fill="#fbfaf6")
    canvas.parts.extend(body.parts)
    canvas.close("svg")
    return canvas.svg() + "\n"


def seat_label(index: Any) -> str:
    """How a seat is named in the picture: ``seat 0`` (0-based, as in the API)."""
    return f"seat {index}"


def _planet_name(slug: Any) -> str:
    found = planets().get(str(slug))
    return found.name if found is not None else str(slug)


def _corporation_name(slug: Any) -> str:
    return str(corporations().get(str(slug), {}).get("name", slug))


def _summary(view: Mapping[str, Any]) -> list[str]:
    seats = view.get("seats") or []
    lines = [f"round {view.get('round')}, {view.get('phase')}, {len(seats)} seat(s)."]
    for entry in seats:
        lines.append(
            f"{seat_label(entry.get('seat'))}: planet {_planet_name(entry.get('planet'))}, "
            f"corporation {_corporation_name(entry.get('corporation'))}."
        )
    return lines


def _header(canvas: Canvas, view: Mapping[str, Any]) -> float:
    parts = [f"Round {view.get('round')}", str(view.get("phase"))]
    if view.get("commander") is not None:
        parts.append(f"commander {seat_label(view['commander'])}")
    if view.get("last_round"):
        parts.append("last round")
    acting = view.get("to_act") or []
    if acting:
        parts.append("to act: " + ", ".join(seat_label(i) for i in acting))
    canvas.text(MARGIN, 28, "Planet Unknown", 22, fill=INK, font_weight="bold")
    canvas.text(MARGIN + 215, 28, " · ".join(parts), 15, fill=INK)
    return 44


def _station(canvas: Canvas, view: Mapping[str, Any], x: float, y: float) -> float:
    """The 12 stacks, outer ring above inner: top tile (or a face-down back), stack size, the seats drawing there."""
    canvas.open("g", aria_label="S.U.S.A.N. station")
    canvas.text(x, y + 14, "S.U.S.A.N. station", 14, fill=INK, font_weight="bold")
    canvas.text(
        x + 170, y + 14, f"rotation {view.get('rotation')} · ring offset {view.get('ring_offset')}", 11, fill=MUTED
    )
    depots: dict[int, list[int]] = {}
    for entry in view.get("seats") or []:
        for stack in entry.get("depot") or []:
            depots.setdefault(int(stack), []).append(int(entry.get("seat") or 0))
    rings = {"outer": 0, "inner": 1}
    for stack in view.get("station") or []:
        k = int(stack.get("stack") or 0)
        row = rings.get(str(stack.get("ring")), 0)
        top = stack.get("top")
        box = _stack_box(k, stack.get("size"), top if isinstance(top, int) else None, tuple(depots.get(k, [])))
        canvas.place(box, x + 44 + (k % 6) * (STACK_W + 4), y + 24 + row * (STACK_H + 6))
    for name, row in rings.items():
        canvas.text(x + 38, y + 24 + row * (STACK_H + 6) + STACK_H / 2 + 4, name, 11, fill=MUTED, text_anchor="end")
    canvas.close("g")
    return y + 24 + 2 * (STACK_H + 6)


@functools.cache
def _stack_box(k: int, size: Any, top: int | None, seats: tuple[int, ...]) -> str:
    """One stack of the station at the origin: its top tile face up (or a back), how many tiles, whose depot."""
    canvas = Canvas()
    canvas.rect(0, 0, STACK_W, STACK_H, fill="#ffffff", stroke="#c9c2b2", rx="4")
    canvas.text(5, 13, f"stack {k}", 10, fill=INK, font_weight="bold")
    canvas.text(STACK_W - 5, STACK_H - 7, f"{size} left", 9, fill=MUTED, text_anchor="end")
    if top is not None:
        cols, rows = tile_size(top)
        tile(canvas, top, (STACK_W - cols * STATION_CELL) / 2, 20 + (42 - rows * STATION_CELL) / 2, STATION_CELL)
        canvas.text(STACK_W - 5, 13, f"#{top}", 10, fill=MUTED, text_anchor="end")
    elif size:
        canvas.rect(28, 22, 48, 38, fill="#5b6475", stroke="#2f3440", rx="3")
        canvas.text(52, 46, "face down", 8, fill="#ffffff", text_anchor="middle")
    else:
        canvas.text(STACK_W / 2, 46, "empty", 10, fill=MUTED, text_anchor="middle")
    for n, seat in enumerate(seats):
        canvas.rect(6 + n * 34, STACK_H - 17, 31, 13, fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)], rx="3")
        canvas.text(6 + n * 34 + 15.5, STACK_H - 7, seat_label(seat), 8, fill="#ffffff", text_anchor="middle")
    return canvas.svg()


def _wrap(text: str, width: float, size: float = 11) -> list[str]:
    limit = max(10, int(width / (CHAR_W * size / 11)))
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > limit:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def _lines(canvas: Canvas, x: float, y: float, width: float, items: Sequence[tuple[str, str]]) -> float:
    """Labelled paragraphs (``label: text``), wrapped to ``width``; returns the y below them."""
    for label, text in items:
        wrapped = _wrap(f"{label}: {text}" if label else text, width)
        for n, line in enumerate(wrapped):
            if n == 0 and label:
                canvas.open("text", x=num(x), y=num(y), font_size="11", fill=INK)
                canvas.element("tspan", label + ":", font_weight="bold")
                canvas.raw(escape(" " + line[len(label) + 2 :]))
                canvas.close("text")
            else:
                canvas.text(x, y, line, 11, fill=INK)
            y += LINE
    return y


def _event_text(card: Mapping[str, Any]) -> str:
    details = ", ".join(f"{k} {v}" for k, v in card.items() if k not in ("id", "alert", "effect"))
    text = f"#{card.get('id')} {str(card.get('effect')).replace('_', ' ')}"
    return f"{text} ({details})" if details else text


def _table(canvas: Canvas, view: Mapping[str, Any], x: float, y: float, width: float) -> float:
    """The event card, objectives, civ piles, solo target and scores."""
    canvas.open("g", aria_label="event, objectives and civ cards")
    canvas.rect(x, y, width, 210, fill="#ffffff", stroke="#c9c2b2", rx="4")
    ty = y + 18
    events = view.get("events")
    items: list[tuple[str, str]] = []
    if events:
        card = events.get("card")
        if card:
            alert = str(card.get("alert"))
            canvas.rect(x + 8, ty - 10, 10, 10, fill=ALERT_COLOURS.get(alert, MUTED), rx="2")
            ty = _lines(canvas, x + 22, ty, width - 30, [("Event", f"{alert}: {_event_text(card)}")])
        mix = ", ".join(f"{k} {v}" for k, v in (events.get("mix") or {}).items())
        items.append(("Event deck", f"{events.get('left')} left, {events.get('drawn')} drawn ({mix})"))
    else:
        items.append(("Event deck", "off"))
    for objective in view.get("objectives") or []:
        between = [seat_label(s) for s in objective.get("seats") or [] if s is not None]
        items.append(("Objective", f"{objective.get('name')}" + (f" ({' & '.join(between)})" if between else "")))
    for objective in view.get("shared_objectives") or []:
        items.append(("Objective", f"{objective.get('name')} (everyone)"))
    piles = []
    for pile in view.get("civ_piles") or []:
        text = f"rank {pile.get('rank')}: {pile.get('size')}"
        if pile.get("cards"):
            text += " (" + ", ".join(str(c.get("name")) for c in pile["cards"]) + ")"
        piles.append(text)
    if piles:
        items.append(("Civ piles", "; ".join(piles)))
    solo = view.get("solo")
    if solo:
        items.append(("Solo", ", ".join(f"{k} {v}" for k, v in solo.items())))
    scores = view.get("scores") or []
    if scores:
        items.append(("Scores", ", ".join(f"{seat_label(s.get('seat'))} {s.get('total')}" for s in scores)))
    _lines(canvas, x + 8, ty, width - 16, items)
    canvas.close("g")
    return y + 210


def _seat_items(view: Mapping[str, Any], entry: Mapping[str, Any]) -> list[tuple[str, str]]:
    rovers = entry.get("rovers") or []
    placed = [r for r in rovers if r not in ("garage", "destroyed")]
    garage = sum(1 for r in rovers if r == "garage")
    rover_text = ", ".join(placed) if placed else "none on the planet"
    if garage:
        rover_text += f"; {garage} in the garage"
    items = [
        ("Rovers", rover_text),
        (
            "Collected",
            f"{entry.get('lifepods_collected', 0)} lifepods, {entry.get('meteorites_collected', 0)} meteorites"
            + (f", {entry.get('stored_patches')} stored patches" if entry.get("stored_patches") else ""),
        ),
    ]
    hand = entry.get("hand")
    if isinstance(hand, list):
        names = [civ_cards()[c].name if c in civ_cards() else str(c) for c in hand]
        items.append(("Civ cards", ", ".join(names) if names else "none"))
    else:
        items.append(("Civ cards", f"{entry.get('civ_cards', 0)} (face down)"))
    private = entry.get("private_objectives")
    if isinstance(private, list):
        items.append(("Private objectives", ", ".join(str(p.get("name")) for p in private) or "none"))
    elif private:
        items.append(("Private objectives", f"{private} (hidden)"))
    for pending in entry.get("pending") or []:
        items.append(("To do", str(pending)))
    for score in view.get("scores") or []:
        if score.get("seat") == entry.get("seat"):
            parts = ", ".join(
                f"{k} {score[k]}"
                for k in ("planet", "tracks", "lifepods", "meteorites", "civ_cards", "objectives")
                if k in score
            )
            items.append(("Score", f"{score.get('total')} ({parts})"))
    return items


def _seat_panel(
    canvas: Canvas, view: Mapping[str, Any], entry: Mapping[str, Any], x: float, y: float, width: float
) -> float:
    """One seat: title, planet, tracks, offered tiles and cards; returns the panel's height."""
    index = entry.get("seat")
    colour = SEAT_COLOURS[int(index or 0) % len(SEAT_COLOURS)]
    planet_name, corporation = _planet_name(entry.get("planet")), _corporation_name(entry.get("corporation"))
    canvas.open("g", aria_label=f"{seat_label(index)}: {planet_name}, {corporation}")
    inner = Canvas()
    inner.rect(x + 8, y + 8, 14, 14, fill=colour, rx="3")
    inner.text(
        x + 28,
        y + 20,
        f"{seat_label(index).capitalize()} · {planet_name} · {corporation}",
        14,
        fill=INK,
        font_weight="bold",
    )
    flags = [str(entry.get("stage"))]
    if index in (view.get("to_act") or []):
        flags.append("to act")
    if index == view.get("commander"):
        flags.append("commander")
    inner.text(x + width - 8, y + 20, " · ".join(flags), 11, fill=MUTED, text_anchor="end")
    px, py = x + 24, y + 44
    planet(inner, entry, px, py, CELL)
    tx = px + 12 * CELL + 8
    inner.text(tx, y + 42, f"Tracks · tech level {entry.get('tech_level')}", 11, fill=INK, font_weight="bold")
    track_board(inner, entry, tx, y + 48, TRACK_W, TRACK_H, TRACK_LABEL)
    oy = y + 48 + 5 * TRACK_H + 16
    offered = [t for t in entry.get("offered") or [] if isinstance(t, int)]
    if offered:
        inner.text(tx, oy, "May take", 11, fill=INK, font_weight="bold")
        ox = tx + 66
        for tile_id in offered:
            cols, rws = tile_size(tile_id)
            tile(inner, tile_id, ox, oy - 10, OFFER_CELL)
            inner.text(ox, oy + rws * OFFER_CELL + 1, f"#{tile_id}", 9, fill=MUTED)
            ox += cols * OFFER_CELL + 14
    bottom = _lines(inner, x + 10, py + 12 * CELL + 18, width - 20, _seat_items(view, entry))
    height = bottom - y
    canvas.rect(x, y, width, height, fill="#ffffff", stroke=colour, stroke_width="1.5", rx="5")
    canvas.parts.extend(inner.parts)
    canvas.close("g")
    return height


def _legend(canvas: Canvas, y: float) -> float:
    canvas.open("g", aria_label="legend")
    canvas.text(MARGIN, y + 11, "Tiles:", 11, fill=INK, font_weight="bold")
    swatches(canvas, MARGIN + 40, y + 1, [(TERRAIN_NAMES[k], TERRAIN_COLOURS[k]) for k in TERRAIN_NAMES])
    y += 18
    canvas.text(MARGIN, y + 11, "Planet:", 11, fill=INK, font_weight="bold")
    swatches(canvas, MARGIN + 48, y + 1, [(GROUND_NAMES[k], GROUND_COLOURS[k]) for k in GROUND_NAMES])
    y += 18
    canvas.text(
        MARGIN,
        y + 11,
        "white dot: resource icon · dashed ring: meteor symbol · white capsule: lifepod · brown disc: meteorite · "
        "triangle: rover · dashed orange: last tile · tracks: C civ card, T tech level, P patch, R rover, v rover "
        "moves, S synergy, gold: medals, *: flux track",
        9.5,
        fill=MUTED,
    )
    canvas.close("g")
    return y + 16
