"""The table as text for a terminal, drawn from a viewer's view (:meth:`Homeworlds.view`).

>>> from domain.homeworlds.game import GAME
>>> print(render(GAME.view(GAME.initial(2, {}), 0), 0).splitlines()[0])
Turn 1 · seat 0 (you) to move
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

COLOURS = "rygb"
"""The bank's colours in the order the view's ``bank`` is printed (its keys are colour letters)."""


def move_text(move: Any) -> str:
    """A move as typed: a turn in SDG notation as it is, a special move (resign, draw) as its JSON."""
    return move if isinstance(move, str) else json.dumps(move)


def player(seat: int) -> str:
    """How a seat is shown: 0-based, as the API numbers seats (``seat 0``)."""
    return f"seat {seat}"


def render(view: Mapping[str, Any], seat: int | None = None) -> str:
    """The systems, each player's ships, the bank and whose turn it is; ``seat`` is marked ``(you)``."""

    def who(index: int) -> str:
        return player(index) + (" (you)" if index == seat else "")

    lines = [_headline(view, who)]
    systems = view.get("systems") or []
    if not systems:
        lines.append("  (no systems yet: each player's first turn sets up a homeworld)")
    rows = [_system_row(system) for system in systems]
    widths = [max((len(row[i]) for row in rows), default=0) for i in range(4)]
    for row in rows:
        lines.append("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    bank = view.get("bank") or {}
    stock = [f"{c} {'/'.join(str(bank[c][size]) for size in ('1', '2', '3'))}" for c in COLOURS if c in bank]
    lines.append("Bank (small/medium/large): " + "   ".join(stock))
    if view.get("draw_offer") is not None:
        lines.append(f"Draw offered by {who(view['draw_offer'])}")
    if view.get("position"):
        lines.append(f"Position: {view['position']}")
    return "\n".join(lines)


def _headline(view: Mapping[str, Any], who: Any) -> str:
    parts = [f"Turn {view.get('turn', '?')}"]
    result = view.get("result")
    if result is not None:
        winners = result.get("winners") or []
        verdict = "draw" if not winners else " and ".join(who(w) for w in winners) + " won"
        parts.append(f"game over: {verdict} ({result.get('reason')})")
    elif view.get("to_move") is not None:
        parts.append(f"{who(view['to_move'])} to move")
    if view.get("last_turn"):
        parts.append(f"last turn: {view['last_turn']}")
    return " · ".join(parts)


def _system_row(system: Mapping[str, Any]) -> tuple[str, str, str, str]:
    home = system.get("homeworld_of")
    name = system["name"] + ("" if home is None else f" [home of {player(home)}]")
    ships = system.get("ships") or {}
    return (
        name,
        "stars " + " ".join(system.get("stars") or []),
        "P1: " + (" ".join(ships.get("0") or []) or "-"),
        "P2: " + (" ".join(ships.get("1") or []) or "-"),
    )
