"""The printed components of Planet Unknown, loaded from the JSON files in ``facts/``.

Squares are numbered ``row * 12 + column`` on the 12 x 12 frame shared by every
planet; :mod:`.board` names them (``a1`` is the top-left square).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "facts"
SIZE = 12
SQUARES = SIZE * SIZE


class Terrain(enum.StrEnum):
    """The six tile terrains; every one but energy has a track."""

    CIV = "civ"
    WATER = "water"
    BIOMASS = "biomass"
    ROVER = "rover"
    TECH = "tech"
    ENERGY = "energy"

    @property
    def letter(self) -> str:
        return LETTERS[self]


TRACKS: tuple[Terrain, ...] = (Terrain.CIV, Terrain.WATER, Terrain.BIOMASS, Terrain.ROVER, Terrain.TECH)
"""The five resource tracks in board order; a tracker index is a position in this tuple."""

LETTERS: dict[Terrain, str] = {
    Terrain.CIV: "c",
    Terrain.WATER: "w",
    Terrain.BIOMASS: "b",
    Terrain.ROVER: "r",
    Terrain.TECH: "t",
    Terrain.ENERGY: "e",
}
BY_LETTER: dict[str, Terrain] = {v: k for k, v in LETTERS.items()}


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@dataclasses.dataclass(frozen=True, slots=True)
class TileSquare:
    """One square of a tile in its printed orientation."""

    row: int
    col: int
    terrain: Terrain
    icon: bool
    meteor: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Tile:
    """One of the 144 tiles: a shape with two terrains, two resource icons and maybe a meteor symbol."""

    id: int
    shape: str
    squares: tuple[TileSquare, ...]

    @property
    def resources(self) -> tuple[Terrain, ...]:
        return tuple(s.terrain for s in self.squares if s.icon)

    @property
    def has_meteor(self) -> bool:
        return any(s.meteor for s in self.squares)


@dataclasses.dataclass(frozen=True, slots=True)
class Space:
    """One space of a track: what arriving there gives, and the medal printed on it.

    ``skip``: a marker no tracker stops on (Wormhole's medals between boxes); ``advance``: the
    track a Wormhole box advances."""

    medal: int = 0
    synergy: int = 0
    rover_moves: int = 0
    civ_rank: int = 0
    patch: bool = False
    rover: bool = False
    tech_level: int = 0
    skip: bool = False
    advance: Terrain | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Planet:
    """A planet board: its grid squares, ice, edge, starting lifepods and row/column medals.

    ``mechanics`` holds an asymmetric planet's own facts (cities, sub-planets, sides,
    quadrants...) as transcribed; the rules that read them live in :mod:`.planets`.
    """

    slug: str
    name: str
    grid: tuple[str, ...]
    row_medals: tuple[int, ...]
    column_medals: tuple[int, ...]
    squares: frozenset[int]
    ice: frozenset[int]
    edge: frozenset[int]
    lifepods: frozenset[int]
    mask: int
    edge_mask: int
    side: str = "symmetric"
    mechanics: dict[str, Any] = dataclasses.field(default_factory=dict, hash=False, compare=False)

    def line_medal(self, line: int) -> int:
        """The medal of row ``line`` (0-11), or of column ``line - 12`` (lines 12-23)."""
        return self.row_medals[line] if line < SIZE else self.column_medals[line - SIZE]

    def squares_lettered(self, letters: str) -> frozenset[int]:
        """The squares whose printed grid letter is one of ``letters`` (e.g. ``"E"``: Petra's currents)."""
        return frozenset(r * SIZE + c for r, line in enumerate(self.grid) for c, ch in enumerate(line) if ch in letters)


@dataclasses.dataclass(frozen=True, slots=True)
class CivCard:
    """A civilization card; ``effect`` is the structured effect from ``cards.json``."""

    id: int
    name: str
    rank: int
    end_game: bool
    effect: dict[str, Any] = dataclasses.field(hash=False, compare=False)

    @property
    def kind(self) -> str:
        return str(self.effect["kind"])


class Metric(enum.StrEnum):
    """What a neighbour objective compares."""

    ICONS_ON_EDGE = "resource_icons_on_edge"
    LARGEST_AREA = "largest_area_size"
    AREAS = "number_of_areas"
    ICONS_ON_PLANET = "resource_icons_on_planet"
    TRACKS_AT_TOP = "tracks_at_maximum"
    METEORITES = "meteorites_collected"
    LIFEPODS = "lifepods_collected"


@dataclasses.dataclass(frozen=True, slots=True)
class Objective:
    """The neighbour side of an objective card (the private side is kept in the data for later)."""

    id: int
    name: str
    metric: Metric
    terrain: Terrain | None
    most: bool


def _square(name: str) -> int:
    return (int(name[1:]) - 1) * SIZE + "abcdefghijkl".index(name[0])


@functools.cache
def tiles() -> tuple[Tile, ...]:
    """All 144 tiles, indexed by id."""
    out = []
    for raw in _load("tiles.json")["tiles"]:
        meteor = tuple(int(x) for x in raw["meteor"].split(",")) if raw["meteor"] else None
        squares = tuple(
            TileSquare(r, c, BY_LETTER[ch.lower()], ch.isupper(), (r, c) == meteor)
            for r, line in enumerate(raw["picture"].split("/"))
            for c, ch in enumerate(line)
            if ch != "."
        )
        out.append(Tile(raw["id"], raw["shape"], squares))
    assert [t.id for t in out] == list(range(len(out)))
    return tuple(out)


@functools.cache
def station() -> tuple[tuple[str, ...], tuple[str, ...], dict[int, tuple[int, ...]]]:
    """(inner ring shapes, outer ring shapes, station positions of the seats by player count)."""
    raw = _load("tiles.json")["station"]
    seats = {int(k): tuple(v) for k, v in raw["seats"].items()}
    return tuple(raw["inner"]), tuple(raw["outer"]), seats


def _space(code: str) -> Space:
    fields: dict[str, Any] = {}
    for token in code.split():
        if "=" in token:
            key, value = token.split("=", 1)
            if key == "skip_marker":
                fields["skip"] = bool(json.loads(value))
            elif key == "advance_specific":
                fields["advance"] = Terrain(json.loads(value))
            else:
                raise ValueError(f"unknown track code {token!r}")
            continue
        head, rest = token[0], token[1:]
        if head == "m":
            fields["medal"] = int(rest)
        elif head == "s":
            fields["synergy"] = fields.get("synergy", 0) + 1
        elif head == "v":
            fields["rover_moves"] = int(rest)
        elif head == "C":
            fields["civ_rank"] = int(rest)
        elif head == "P":
            fields["patch"] = True
        elif head == "R":
            fields["rover"] = True
        elif head == "T":
            fields["tech_level"] = int(rest)
        else:
            raise ValueError(f"unknown track code {token!r}")
    return Space(**fields)


@functools.cache
def tracks() -> dict[Terrain, tuple[Space, ...]]:
    """The five tracks of the symmetric corporation board (positions 0..15)."""
    raw = _load("tracks.json")["tracks"]
    return {Terrain(name): tuple(_space(code) for code in spaces) for name, spaces in raw.items()}


TOP = 15
"""The last position of every standard track."""


@functools.cache
def planets() -> dict[str, Planet]:
    """Every planet board by slug."""
    out = {}
    for raw in _load("planets.json")["planets"]:
        grid = tuple(raw["grid"])
        cells = {(r * SIZE + c): ch for r, line in enumerate(grid) for c, ch in enumerate(line)}
        squares = frozenset(s for s, ch in cells.items() if ch not in ".o")
        edge = frozenset(_square(n) for n in raw["edge"])
        out[raw["slug"]] = Planet(
            slug=raw["slug"],
            name=raw["name"],
            grid=grid,
            row_medals=tuple(raw["row_medals"]),
            column_medals=tuple(raw["column_medals"]),
            squares=squares,
            ice=frozenset(s for s, ch in cells.items() if ch == "I"),
            edge=edge,
            lifepods=frozenset(_square(n) for n in raw["lifepods"]),
            mask=sum(1 << s for s in squares),
            edge_mask=sum(1 << s for s in edge),
            side=raw["side"],
            mechanics={**raw["mechanics"], **{k: raw[k] for k in ("holes", "sides") if k in raw}},
        )
    return out


@functools.cache
def planet_lines(slug: str) -> tuple[tuple[int, ...], ...]:
    """The planet's grid squares in each line: rows 0-11, then columns 0-11 (as :meth:`Planet.line_medal`)."""
    squares = planets()[slug].squares
    rows = [[r * SIZE + c for c in range(SIZE)] for r in range(SIZE)]
    columns = [[r * SIZE + c for r in range(SIZE)] for c in range(SIZE)]
    return tuple(tuple(q for q in cells if q in squares) for cells in rows + columns)


@functools.cache
def corporation_tracks(slug: str) -> dict[Terrain, tuple[Space, ...]]:
    """The five tracks of a corporation board (positions 0..15), from ``corporations.json``."""
    raw = corporations()[slug]["tracks"]
    return {Terrain(name): tuple(_space(code) for code in spaces) for name, spaces in raw.items()}


@functools.cache
def corporations() -> dict[str, dict[str, Any]]:
    """Every corporation board by slug, as transcribed (rules exist only for the symmetric one)."""
    return {c["slug"]: c for c in _load("corporations.json")["corporations"]}


@functools.cache
def civ_cards() -> dict[int, CivCard]:
    """The 36 civilization cards by id."""
    return {
        c["id"]: CivCard(c["id"], c["name"], c["rank"], c["timing"] == "end_game", c["effect"])
        for c in _load("cards.json")["civ_cards"]
    }


@functools.cache
def objectives() -> dict[int, Objective]:
    """The 28 objective cards by id (neighbour side)."""
    out = {}
    for c in _load("cards.json")["objective_cards"]:
        n = c["neighbour"]
        terrain = Terrain(n["terrain"]) if "terrain" in n else None
        out[c["id"]] = Objective(c["id"], n["name"], Metric(n["metric"]), terrain, n["compare"] == "most")
    return out


@functools.cache
def objective_sides() -> dict[int, dict[str, Any]]:
    """Both sides of every objective card, as transcribed."""
    return {c["id"]: c for c in _load("cards.json")["objective_cards"]}


ALERTS = ("green", "orange", "red")
"""The three event alert colours, from mildest to harshest."""


@dataclasses.dataclass(frozen=True, slots=True)
class EventCard:
    """One of the 60 event cards: its alert colour, whether it is solo-only, and its effect.

    ``effect`` names the rule (``advance``, ``regress``, ``restriction``, ``destroy``...)
    and ``params`` holds its data (``tracks``, ``steps``, ``rule``, ``terrain``, ``what``...).
    """

    id: int
    alert: str
    solo: bool
    effect: str
    params: dict[str, Any] = dataclasses.field(hash=False, compare=False)

    @property
    def tracks(self) -> tuple[Terrain, ...]:
        """The tracks an ``advance`` or ``regress`` card lets the player choose from."""
        return tuple(Terrain(t) for t in str(self.params.get("tracks", "")).split())


@functools.cache
def event_cards() -> dict[int, EventCard]:
    """The 60 event cards by id (65-124)."""
    out = {}
    for raw in _load("events.json")["event_cards"]:
        params = {k: v for k, v in raw.items() if k not in ("id", "alert", "solo", "do")}
        out[raw["id"]] = EventCard(raw["id"], raw["alert"], bool(raw.get("solo", False)), raw["do"], params)
    return out


@functools.cache
def event_tables() -> dict[str, Any]:
    """The solo target table, the solo result bands and BGA's random mix bounds."""
    return {k: v for k, v in _load("events.json").items() if k != "event_cards"}


@dataclasses.dataclass(frozen=True, slots=True)
class PrivateObjective:
    """The private side of an objective card: a condition worth 5 medals when met at the end.

    ``condition`` is one of ``rectangle_of_terrain`` (``size``, ``either_orientation``),
    ``one_area_with_resource_icons`` (``min_icons``), ``tracker_at_maximum`` (``track``),
    ``resource_icons_on_planet_at_most`` (``max``), ``meteorites_collected_at_least``
    (``min``), ``lifepods_collected_more_than_meteorites_collected``, ``no_uncovered_ice``
    and ``no_uncovered_land``.
    """

    id: int
    name: str
    condition: str
    terrain: Terrain | None
    params: dict[str, Any] = dataclasses.field(hash=False, compare=False)


PRIVATE_OBJECTIVE_MEDALS = 5


@functools.cache
def private_objectives() -> dict[int, PrivateObjective]:
    """The private sides of the 28 objective cards by id."""
    out = {}
    for c in _load("cards.json")["objective_cards"]:
        p = c["private"]
        terrain = Terrain(p["terrain"]) if "terrain" in p else None
        params = {k: v for k, v in p.items() if k not in ("name", "condition", "terrain")}
        out[c["id"]] = PrivateObjective(c["id"], p["name"], p["condition"], terrain, params)
    return out
