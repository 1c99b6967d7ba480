"""``/v1/catalog``: the games, their options and bots, and every component a client needs to draw them.

Everything comes from the rules' own data (``domain/``); the catalog changes only with a deploy,
so it is served with an ``ETag`` (a hash of the body) and a ``Cache-Control`` that lets clients keep it.
Planet Unknown squares are named as its moves name them (``"e4"``, ``a1`` top left).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from typing import Any

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from domain import contract
from domain.contract import Option
from domain.homeworlds.pieces import PIECES, SIZE_WORDS, count
from domain.homeworlds.position import Position
from domain.planet_unknown import data as pu
from domain.planet_unknown.board import square_name
from domain.planet_unknown.setup_choice import playable_corporation, playable_planet
from domain.table.seats import TABLE_OPTIONS

blp = Blueprint(
    "catalog", __name__, url_prefix="/v1/catalog", description="The games, their options, bots and components."
)

CACHE_CONTROL = "public, max-age=3600"
"""The catalog changes only with a deploy: clients may keep it an hour, then revalidate with the ETag."""

JSON_TYPES = {bool: "boolean", int: "integer", str: "string", list: "array", dict: "object"}


# --- schemas --------------------------------------------------------------------------


class OptionEntry(Schema):
    """One option a game is created with (``options`` of ``POST /v1/games``)."""

    name = fields.String(required=True)
    type = fields.String(
        required=True, metadata={"enum": sorted(JSON_TYPES.values()), "description": "The option's JSON type."}
    )
    default = fields.Raw(
        required=True, allow_none=True, metadata={"description": "The value when it is not given; null: unset."}
    )
    description = fields.String(required=True)
    choices = fields.List(
        fields.Raw(), required=True, allow_none=True, metadata={"description": "The only values allowed, if limited."}
    )
    minimum = fields.Integer(required=True, allow_none=True)
    maximum = fields.Integer(required=True, allow_none=True)
    table = fields.Boolean(
        required=True,
        metadata={"description": "A table option of the server (deadlines, spectators), not of the rules."},
    )


class GameEntry(Schema):
    """A game this server hosts."""

    name = fields.String(required=True, metadata={"description": 'The `game` of `POST /v1/games`, e.g. "homeworlds".'})
    rules_version = fields.String(required=True, metadata={"description": "The rules version new games get."})
    min_seats = fields.Integer(required=True)
    max_seats = fields.Integer(required=True)
    options = fields.List(fields.Nested(OptionEntry), required=True)
    bots = fields.List(
        fields.String(),
        required=True,
        metadata={"description": 'The built-in bots, for a seat\'s `{"builtin": name}`.'},
    )


class HomeworldsPiece(Schema):
    """One kind of pyramid and how many of it the set holds."""

    piece = fields.String(required=True, metadata={"description": 'As moves write it: colour letter and size, "g3".'})
    colour = fields.String(required=True, metadata={"enum": ["red", "yellow", "green", "blue"]})
    letter = fields.String(required=True, metadata={"enum": ["r", "y", "g", "b"]})
    power = fields.String(
        required=True,
        metadata={"enum": ["capture", "move", "build", "trade"], "description": "The action the colour empowers."},
    )
    size = fields.Integer(required=True, metadata={"minimum": 1, "maximum": 3})
    size_name = fields.String(required=True, metadata={"enum": ["small", "medium", "large"]})
    count = fields.Integer(required=True, metadata={"description": "How many of this piece the set holds."})


class HomeworldsCatalog(Schema):
    """Homeworlds' components: the piece set (all in the bank before the first turn)."""

    pieces = fields.List(fields.Nested(HomeworldsPiece), required=True)
    total = fields.Integer(required=True, metadata={"description": "Every pyramid of the set."})


class TileSquare(Schema):
    """One square of a tile as it lies with its anchor on ``a1``, unturned and unflipped."""

    square = fields.String(required=True, metadata={"description": 'The square\'s name, "a1" for the anchor.'})
    terrain = fields.String(required=True, metadata={"enum": [str(t) for t in pu.Terrain]})
    icon = fields.Boolean(required=True, metadata={"description": "The terrain's resource icon is printed here."})
    meteor = fields.Boolean(required=True, metadata={"description": "The tile's meteor symbol is printed here."})


class Tile(Schema):
    """One of the 144 tiles."""

    id = fields.Integer(required=True)
    shape = fields.String(required=True, metadata={"description": 'The shape\'s name, e.g. "T4" (letter, squares).'})
    squares = fields.List(fields.Nested(TileSquare), required=True)


class TrackSpace(Schema):
    """One space of a track: what a tracker arriving there gives, and the medal printed on it."""

    position = fields.Integer(required=True)
    medal = fields.Integer(required=True)
    synergy = fields.Integer(required=True, metadata={"description": "How many synergy symbols it carries."})
    rover_moves = fields.Integer(required=True)
    civ_rank = fields.Integer(
        required=True, metadata={"description": "The rank of civ card it lets you take; 0: none."}
    )
    patch = fields.Boolean(required=True, metadata={"description": "It gives a biomass patch."})
    rover = fields.Boolean(required=True, metadata={"description": "It gives a rover."})
    tech_level = fields.Integer(required=True, metadata={"description": "The tech power it unlocks; 0: none."})
    skip = fields.Boolean(required=True, metadata={"description": "A marker no tracker stops on."})
    advance = fields.String(
        required=True, allow_none=True, metadata={"description": "The track this space advances, if any."}
    )


class Tracks(Schema):
    """The five tracks of a corporation board, positions 0-15."""

    civ = fields.List(fields.Nested(TrackSpace), required=True)
    water = fields.List(fields.Nested(TrackSpace), required=True)
    biomass = fields.List(fields.Nested(TrackSpace), required=True)
    rover = fields.List(fields.Nested(TrackSpace), required=True)
    tech = fields.List(fields.Nested(TrackSpace), required=True)


class Planet(Schema):
    """A planet board. ``grid`` rows print each square: ``.``/``o`` off the grid, ``I`` ice, other letters land."""

    slug = fields.String(required=True, metadata={"description": "As moves and options name it."})
    name = fields.String(required=True)
    side = fields.String(required=True, metadata={"enum": ["symmetric", "asymmetric"]})
    playable = fields.Boolean(required=True, metadata={"description": "Whether this server has its rules."})
    grid = fields.List(fields.String(), required=True)
    row_medals = fields.List(fields.Integer(), required=True)
    column_medals = fields.List(fields.Integer(), required=True)
    squares = fields.List(fields.String(), required=True, metadata={"description": "The grid squares, by name."})
    ice = fields.List(fields.String(), required=True)
    edge = fields.List(fields.String(), required=True)
    lifepods = fields.List(fields.String(), required=True, metadata={"description": "The printed lifepods."})
    mechanics = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        required=True,
        metadata={"description": "An asymmetric planet's own facts, as transcribed from the board."},
    )


class TechPower(Schema):
    """A tech power of a corporation board."""

    level = fields.Integer(required=True)
    letter = fields.String(required=True, allow_none=True)
    frequency = fields.String(required=True)


class Corporation(Schema):
    """A corporation board."""

    slug = fields.String(required=True, metadata={"description": "As moves and options name it."})
    name = fields.String(required=True)
    side = fields.String(required=True, metadata={"enum": ["symmetric", "asymmetric"]})
    playable = fields.Boolean(required=True, metadata={"description": "Whether this server has its rules."})
    complexity = fields.Integer(required=True)
    rovers = fields.Integer(required=True)
    techs = fields.List(fields.Nested(TechPower), required=True)
    tracks = fields.Nested(Tracks, required=True)
    mechanics = fields.Dict(
        keys=fields.String(), values=fields.Raw(), required=True, metadata={"description": "Its other facts."}
    )


class CivCard(Schema):
    """A civilization card; ``effect`` is its structured effect (``kind`` and its parameters)."""

    id = fields.Integer(required=True)
    name = fields.String(required=True)
    rank = fields.Integer(required=True)
    end_game = fields.Boolean(required=True, metadata={"description": "It scores at the end, not when taken."})
    effect = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True)


class NeighbourObjective(Schema):
    """The neighbour side of an objective card: a comparison between two neighbours."""

    name = fields.String(required=True)
    metric = fields.String(required=True, metadata={"enum": [str(m) for m in pu.Metric]})
    terrain = fields.String(required=True, allow_none=True)
    most = fields.Boolean(required=True, metadata={"description": "The most wins (else the fewest)."})


class PrivateObjective(Schema):
    """The private side of an objective card: a condition worth medals when met at the end."""

    name = fields.String(required=True)
    condition = fields.String(required=True)
    terrain = fields.String(required=True, allow_none=True)
    params = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True)
    medals = fields.Integer(required=True)


class Objective(Schema):
    """An objective card, both sides."""

    id = fields.Integer(required=True)
    neighbour = fields.Nested(NeighbourObjective, required=True)
    private = fields.Nested(PrivateObjective, required=True)


class EventCard(Schema):
    """An event card: its alert colour, whether it is solo-only, its effect and that effect's data."""

    id = fields.Integer(required=True)
    alert = fields.String(required=True, metadata={"enum": list(pu.ALERTS)})
    solo = fields.Boolean(required=True)
    effect = fields.String(required=True)
    params = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True)


class PlanetUnknownCatalog(Schema):
    """Planet Unknown's components. A tile's squares are as it lies with its anchor on ``a1``: a placement
    ``place <tile> <anchor> <rotation> [flip]`` flips it left-right, turns it clockwise, and puts the top-left
    corner of the result's bounding box on the anchor."""

    square_form = fields.String(required=True, metadata={"description": "How moves and views name a square."})
    planets = fields.List(fields.Nested(Planet), required=True)
    corporations = fields.List(fields.Nested(Corporation), required=True)
    tiles = fields.List(fields.Nested(Tile), required=True)
    tracks = fields.Nested(Tracks, required=True, metadata={"description": "Universal Coalition's tracks."})
    civ_cards = fields.List(fields.Nested(CivCard), required=True)
    objectives = fields.List(fields.Nested(Objective), required=True)
    event_cards = fields.List(fields.Nested(EventCard), required=True)


class Catalog(Schema):
    """Every game this server hosts, and the components of Homeworlds and Planet Unknown."""

    games = fields.List(fields.Nested(GameEntry), required=True)
    homeworlds = fields.Nested(HomeworldsCatalog, required=True)
    planet_unknown = fields.Nested(PlanetUnknownCatalog, required=True)


# --- the catalog ----------------------------------------------------------------------


def _option(option: Option, *, table: bool) -> dict[str, Any]:
    return {
        "name": option.name,
        "type": JSON_TYPES[option.kind],
        "default": option.default,
        "description": option.description,
        "choices": None if option.choices is None else list(option.choices),
        "minimum": option.minimum,
        "maximum": option.maximum,
        "table": table,
    }


def games() -> list[dict[str, Any]]:
    """Every hosted game (its current rules), with its options, the table options and its bots."""
    out = []
    for name in contract.names():
        game = contract.get(name)
        out.append(
            {
                "name": game.name,
                "rules_version": game.rules_version,
                "min_seats": game.seat_counts.start,
                "max_seats": game.seat_counts.stop - 1,
                "options": [_option(o, table=False) for o in game.options]
                + [_option(o, table=True) for o in TABLE_OPTIONS],
                "bots": sorted(game.bots),
            }
        )
    return out


def homeworlds() -> dict[str, Any]:
    """The 12 kinds of pyramid and how many of each the bank holds before the first turn."""
    bank = Position.initial().bank
    pieces = [
        {
            "piece": str(p),
            "colour": p.colour.name.lower(),
            "letter": p.colour.letter,
            "power": p.colour.power,
            "size": p.size,
            "size_name": SIZE_WORDS[p.size],
            "count": count(bank, p.kind),
        }
        for p in PIECES
    ]
    return {"pieces": pieces, "total": sum(p["count"] for p in pieces)}


def _names(squares: frozenset[int]) -> list[str]:
    return [square_name(s) for s in sorted(squares)]


def _tracks(tracks: dict[pu.Terrain, tuple[pu.Space, ...]]) -> dict[str, Any]:
    return {
        str(terrain): [
            {
                "position": n,
                **{f.name: getattr(space, f.name) for f in dataclasses.fields(space) if f.name != "advance"},
                "advance": None if space.advance is None else str(space.advance),
            }
            for n, space in enumerate(spaces)
        ]
        for terrain, spaces in tracks.items()
    }


def _planet(planet: pu.Planet) -> dict[str, Any]:
    return {
        "slug": planet.slug,
        "name": planet.name,
        "side": planet.side,
        "playable": playable_planet(planet.slug),
        "grid": list(planet.grid),
        "row_medals": list(planet.row_medals),
        "column_medals": list(planet.column_medals),
        "squares": _names(planet.squares),
        "ice": _names(planet.ice),
        "edge": _names(planet.edge),
        "lifepods": _names(planet.lifepods),
        "mechanics": dict(planet.mechanics),
    }


CORPORATION_FIELDS = ("slug", "name", "side", "complexity", "rovers", "techs", "tracks")


def _corporation(raw: dict[str, Any]) -> dict[str, Any]:
    slug = raw["slug"]
    return {
        "slug": slug,
        "name": raw["name"],
        "side": raw["side"],
        "playable": playable_corporation(slug),
        "complexity": raw["complexity"],
        "rovers": raw["rovers"],
        "techs": [dict(t) for t in raw["techs"]],
        "tracks": _tracks(pu.corporation_tracks(slug)),
        "mechanics": {k: v for k, v in raw.items() if k not in CORPORATION_FIELDS},
    }


def _tile(tile: pu.Tile) -> dict[str, Any]:
    return {
        "id": tile.id,
        "shape": tile.shape,
        "squares": [
            {
                "square": square_name(s.row * pu.SIZE + s.col),
                "terrain": str(s.terrain),
                "icon": s.icon,
                "meteor": s.meteor,
            }
            for s in tile.squares
        ],
    }


def _objective(card: int) -> dict[str, Any]:
    neighbour, private = pu.objectives()[card], pu.private_objectives()[card]
    return {
        "id": card,
        "neighbour": {
            "name": neighbour.name,
            "metric": str(neighbour.metric),
            "terrain": None if neighbour.terrain is None else str(neighbour.terrain),
            "most": neighbour.most,
        },
        "private": {
            "name": private.name,
            "condition": private.condition,
            "terrain": None if private.terrain is None else str(private.terrain),
            "params": dict(private.params),
            "medals": pu.PRIVATE_OBJECTIVE_MEDALS,
        },
    }


def planet_unknown() -> dict[str, Any]:
    """Every planet, corporation, tile, track, civ card, objective and event card, from ``facts/``."""
    return {
        "square_form": 'a square is named by its column letter a-l and row number 1-12, e.g. "e4"; "a1" is top left',
        "planets": [_planet(p) for p in pu.planets().values()],
        "corporations": [_corporation(c) for c in pu.corporations().values()],
        "tiles": [_tile(t) for t in pu.tiles()],
        "tracks": _tracks(pu.tracks()),
        "civ_cards": [
            {"id": c.id, "name": c.name, "rank": c.rank, "end_game": c.end_game, "effect": dict(c.effect)}
            for c in pu.civ_cards().values()
        ],
        "objectives": [_objective(card) for card in sorted(pu.objectives())],
        "event_cards": [
            {"id": e.id, "alert": e.alert, "solo": e.solo, "effect": e.effect, "params": dict(e.params)}
            for e in pu.event_cards().values()
        ],
    }


def catalog() -> tuple[dict[str, Any], str]:
    """The catalog and its ETag; built once per set of hosted games and rules versions."""
    return _built(tuple((name, contract.get(name).rules_version) for name in contract.names()))


@functools.lru_cache(maxsize=8)
def _built(hosted: tuple[tuple[str, str], ...]) -> tuple[dict[str, Any], str]:
    body = {"games": games(), "homeworlds": homeworlds(), "planet_unknown": planet_unknown()}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return body, f'"{digest[:32]}"'


@blp.route("")
class CatalogView(MethodView):
    @blp.response(
        200,
        Catalog,
        headers={"ETag": {"schema": {"type": "string"}}, "Cache-Control": {"schema": {"type": "string"}}},
    )
    @blp.alt_response(304, description="The client's copy (`If-None-Match`) is current.")
    @blp.doc(operationId="getCatalog")
    def get(self) -> Any:
        """The games this server hosts (options, bots) and every component of Homeworlds and Planet Unknown.

        It changes only with a deploy: it carries an `ETag` and `Cache-Control`; send `If-None-Match`
        to get a 304 when your copy is current.
        """
        body, etag = catalog()
        headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL}
        if etag in request.headers.get("If-None-Match", "") or request.headers.get("If-None-Match") == "*":
            return "", 304, headers
        return body, 200, headers
