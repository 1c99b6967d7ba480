"""The position notation: a one-line text form of a player's planet and corporation board
(:func:`print_seat`), and of a whole game (:func:`print_state`).

``<planet> <rows> [t:civ.water.biomass.rover.tech] [pods:squares] [met:squares]
[sym:squares] [rov:squares] [mc:n] [lc:n] [st:n] [last:squares] [hand:cards] [corp:slug]
[corporation board fields]``

``rows`` are the 12 rows, top first, joined by ``/``. In a row a number is a run
of uncovered squares (on or off the grid), a letter is a covered square: ``c w b r
t e`` the tile terrain (upper case where the resource icon is), ``p`` a biomass
patch. ``pods`` are the lifepods still on the planet (default: the printed ones not
covered), ``met`` the meteorites on it, ``sym`` the meteor symbols of its tiles
(default: the squares of ``met``), ``rov`` each rover's square, ``g`` in the
garage or ``x`` destroyed, ``mc``/``lc`` meteorites/lifepods collected, ``st``
stored patches, ``last`` the squares of the last tile placed, ``hand`` civ cards,
``corp`` the corporation when it is not Universal Coalition, then the fields of its board
(:meth:`.powers.Corporation.board_fields`): ``once`` the once-per-game tech powers used, and
the corporation's own state: ``flux`` Flux Industries' flux track when it is not civ, ``tp``
Cosmos Inc.'s lifepods on track spaces (``tech7``), ``slots`` Jump Drive's tech slots holding a
lifepod, ``lanes`` the track each Makeshift tracker stands on (by colour, board order).
Fields at their default are left out.

>>> text = "ksb-4156 12/12/12/12/12/5cCe4/5t6/12/12/12/12/12 t:3.0.2.1.5 met:g6 rov:f7,g"
>>> print_seat(parse_seat(text)) == text
True

A whole game is its shared state on the first line, as the code :func:`repr` writes with no seats,
then each seat's line, each followed by an indented line with the seat's turn (pending benefits,
stage, hand of objectives...) as code, when it is not at its defaults. ``repr(state)`` is the same
state as one expression; :func:`parse_state` reads either form.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .board import mask_of, parse_square, square_name
from .corporation_state import STATE_TYPES
from .data import SIZE, TRACKS, Terrain, planets
from .literal import read, render
from .model import DESTROYED, GARAGE, Benefit, Kind, Phase, Rulings, Seat, Stage, State
from .powers import CORPORATIONS, STANDARD
from .setup import new_seat

_LETTERS = set("cwbrtepCWBRTE")


def print_seat(seat: Seat) -> str:
    """The one-line text form of a seat's planet and board."""
    rows = []
    for r in range(SIZE):
        out, run = "", 0
        for c in range(SIZE):
            letter = seat.cover[r * SIZE + c]
            if letter:
                out += (str(run) if run else "") + letter
                run = 0
            else:
                run += 1
        rows.append(out + (str(run) if run else ""))
    parts = [seat.planet, "/".join(rows)]
    if any(seat.tracks):
        parts.append("t:" + ".".join(str(p) for p in seat.tracks))
    default_pods = planets()[seat.planet].lifepods - {s for s in range(SIZE * SIZE) if seat.cover[s]}
    if seat.lifepods != default_pods:
        parts.append("pods:" + ",".join(square_name(s) for s in sorted(seat.lifepods)))
    if seat.meteorites:
        parts.append("met:" + ",".join(square_name(s) for s in sorted(seat.meteorites)))
    if seat.meteor_symbols != seat.meteorites:
        parts.append("sym:" + ",".join(square_name(s) for s in sorted(seat.meteor_symbols)))
    if any(r != GARAGE for r in seat.rovers):
        parts.append(
            "rov:" + ",".join("g" if r == GARAGE else "x" if r == DESTROYED else square_name(r) for r in seat.rovers)
        )
    for key, value in (("mc", seat.meteorites_collected), ("lc", seat.lifepods_collected), ("st", seat.stored_patches)):
        if value:
            parts.append(f"{key}:{value}")
    if seat.last_tile:
        parts.append("last:" + ",".join(square_name(s) for s in seat.last_tile))
    if seat.hand:
        parts.append("hand:" + ",".join(str(c) for c in seat.hand))
    if seat.corporation != STANDARD:
        parts.append(f"corp:{seat.corporation}")
    parts.extend(CORPORATIONS[seat.corporation].board_fields(seat))
    return " ".join(parts)


def _squares(text: str) -> list[int]:
    return [parse_square(s) for s in text.split(",") if s]


def parse_seat(text: str) -> Seat:
    """Read a seat from its text form; raises ValueError with the reason."""
    words = text.split()
    if len(words) < 2:
        raise ValueError("a position is '<planet> <rows> [fields]'")
    slug, rows_text, *fields = words
    if slug not in planets():
        raise ValueError(f"unknown planet {slug!r}")
    planet = planets()[slug]
    rows = rows_text.split("/")
    if len(rows) != SIZE:
        raise ValueError(f"expected {SIZE} rows, got {len(rows)}")
    cover = []
    for r, row in enumerate(rows):
        line: list[str] = []
        number = ""
        for ch in row + " ":
            if ch.isdigit():
                number += ch
                continue
            if number:
                line.extend([""] * int(number))
                number = ""
            if ch in _LETTERS:
                line.append(ch)
            elif ch != " ":
                raise ValueError(f"row {r + 1}: unexpected {ch!r}")
        if len(line) != SIZE:
            raise ValueError(f"row {r + 1} has {len(line)} squares, not {SIZE}")
        cover.extend(line)
    covered = {s for s, letter in enumerate(cover) if letter}
    off_grid = covered - planet.squares
    if off_grid:
        raise ValueError(f"{square_name(min(off_grid))} is covered but is not a grid square")
    corp_slug = next((f[5:] for f in fields if f.startswith("corp:")), STANDARD)
    if corp_slug not in CORPORATIONS:
        raise ValueError(f"unknown corporation {corp_slug!r}")
    corp = CORPORATIONS[corp_slug]
    seat = dataclasses.replace(
        new_seat(slug, corp_slug), cover=tuple(cover), covered=mask_of(covered), lifepods=planet.lifepods - covered
    )
    changes: dict[str, object] = {}
    for field in fields:
        key, _, value = field.partition(":")
        if key == "t":
            positions = tuple(int(p) for p in value.split("."))
            if len(positions) != len(TRACKS) or not all(p >= 0 for p in positions):
                raise ValueError("t: needs five positions from 0")
            changes["tracks"] = positions
        elif key == "pods":
            changes["lifepods"] = frozenset(_squares(value))
        elif key == "met":
            changes["meteorites"] = frozenset(_squares(value))
            changes.setdefault("meteor_symbols", changes["meteorites"])
        elif key == "sym":
            changes["meteor_symbols"] = frozenset(_squares(value))
        elif key == "rov":
            changes["rovers"] = tuple(
                GARAGE if v == "g" else DESTROYED if v == "x" else parse_square(v) for v in value.split(",")
            )
        elif key in ("mc", "lc", "st"):
            name = {"mc": "meteorites_collected", "lc": "lifepods_collected", "st": "stored_patches"}[key]
            changes[name] = int(value)
        elif key == "last":
            changes["last_tile"] = tuple(_squares(value))
        elif key == "hand":
            changes["hand"] = tuple(int(c) for c in value.split(",") if c)
        elif key != "corp":
            read = corp.read_board_field(seat, key, value)
            if read is None:
                raise ValueError(f"unknown field {key!r}")
            seat = read
    seat = dataclasses.replace(seat, **changes)  # type: ignore[arg-type]
    if any(p > corp.top(t) for t, p in zip(TRACKS, seat.tracks, strict=True)):
        raise ValueError("t: a position beyond the top of its track")
    return seat


NAMES: dict[str, Any] = {
    **{c.__name__: c for c in (State, Seat, Benefit, Rulings, Phase, Stage, Kind, Terrain)},
    **STATE_TYPES,
}
"""The names the code of a state uses."""
_BOARD = frozenset(
    {"planet", "corporation", "cover", "covered", "lifepods", "meteorites", "rovers", "tracks", "lifepods_collected"}
    | {"meteorites_collected", "last_tile", "stored_patches", "hand", "meteor_symbols", "once_used"}
)
"""The seat fields :func:`print_seat` writes (and the corporation's state, as far as its board shows it)."""


def _turn(seat: Seat) -> dict[str, Any]:
    """The seat's fields that :func:`print_seat` leaves out, where they differ from their defaults (the
    corporation's state whole, when its board fields leave part of it out)."""
    out = {}
    for field in dataclasses.fields(Seat):
        value = getattr(seat, field.name)
        if field.name == "corporation_state":
            if value != parse_seat(print_seat(seat)).corporation_state:
                out[field.name] = value
        elif field.name not in _BOARD and value != field.default:
            out[field.name] = value
    return out


def print_state(state: State) -> str:
    """The text form of the whole game (see the module's docstring)."""
    lines = [render(dataclasses.replace(state, seats=()))]
    for seat in state.seats:
        lines.append(print_seat(seat))
        if turn := _turn(seat):
            lines.append("  " + render(turn))
    return "\n".join(lines)


def parse_state(text: str) -> State:
    """Read a game from :func:`print_state`'s form or from ``repr(state)``; raises ValueError."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ValueError("an empty position")
    shared = read(lines[0], NAMES)
    if not isinstance(shared, State):
        raise ValueError("the first line is the shared state: State(...)")
    if len(lines) == 1:
        return shared
    seats: list[Seat] = []
    for line in lines[1:]:
        if line.startswith(" "):
            if not seats:
                raise ValueError("a seat's turn comes after its seat")
            turn = read(line, NAMES)
            if not isinstance(turn, dict) or not set(turn) <= {f.name for f in dataclasses.fields(Seat)} - _BOARD:
                raise ValueError(f"not a seat's turn: {line.strip()!r}")
            seats[-1] = dataclasses.replace(seats[-1], **turn)
        else:
            seats.append(parse_seat(line))
    return dataclasses.replace(shared, seats=tuple(seats))
