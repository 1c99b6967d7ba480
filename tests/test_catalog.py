"""``GET /v1/catalog``: the games, their options and bots, and every component, from the rules' own data."""

from __future__ import annotations

from typing import Any

import pytest

from api.catalog import Catalog
from domain import contract
from domain.planet_unknown import GAME as PU
from domain.planet_unknown import data
from domain.planet_unknown.board import square_name
from domain.planet_unknown.events import TilePlaced
from domain.planet_unknown.moves import Deploy, parse_move
from domain.table.seats import TABLE_OPTIONS


@pytest.fixture(scope="module")
def catalog(app: Any) -> dict[str, Any]:
    response = app.test_client().get("/v1/catalog")
    assert response.status_code == 200
    body: dict[str, Any] = response.get_json()
    return body


def test_it_is_cacheable(client: Any) -> None:
    first = client.get("/v1/catalog")
    etag = first.headers["ETag"]
    assert etag.startswith('"') and "max-age" in first.headers["Cache-Control"]
    again = client.get("/v1/catalog", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag and not again.data
    assert client.get("/v1/catalog", headers={"If-None-Match": '"other"'}).status_code == 200


def test_the_schema_describes_the_body_exactly(catalog: dict[str, Any]) -> None:
    assert Catalog().validate(catalog) == {}
    assert Catalog().dump(catalog) == catalog


def test_the_operation_is_documented(client: Any) -> None:
    spec = client.get("/openapi.json").get_json()
    operation = spec["paths"]["/v1/catalog"]["get"]
    assert operation["operationId"] == "getCatalog"
    assert "200" in operation["responses"]


def test_games_with_their_options_and_bots(catalog: dict[str, Any]) -> None:
    games = {g["name"]: g for g in catalog["games"]}
    assert set(games) == set(contract.names())
    for name, entry in games.items():
        game = contract.get(name)
        assert entry["rules_version"] == game.rules_version
        assert entry["bots"] == sorted(game.bots)
        assert (entry["min_seats"], entry["max_seats"]) == (game.seat_counts.start, game.seat_counts.stop - 1)
        rules = [o["name"] for o in entry["options"] if not o["table"]]
        table = [o["name"] for o in entry["options"] if o["table"]]
        assert rules == [o.name for o in game.options]
        assert table == [o.name for o in TABLE_OPTIONS]
    timeout = next(o for o in games["homeworlds"]["options"] if o["name"] == "on_timeout")
    assert timeout == {
        "name": "on_timeout",
        "type": "string",
        "default": "forfeit",
        "description": TABLE_OPTIONS[1].description,
        "choices": ["forfeit", "random", "pass"],
        "minimum": None,
        "maximum": None,
        "table": True,
    }
    assert games["homeworlds"]["bots"] == ["greedy", "random", "search"]
    assert games["planet-unknown"]["bots"] == ["greedy", "random", "search"]


def test_the_homeworlds_piece_set(catalog: dict[str, Any]) -> None:
    pieces = catalog["homeworlds"]["pieces"]
    assert len(pieces) == 12 and {p["count"] for p in pieces} == {3}
    assert {p["colour"] for p in pieces} == {"red", "yellow", "green", "blue"} and {p["size"] for p in pieces} == {
        1,
        2,
        3,
    }
    assert catalog["homeworlds"]["total"] == sum(p["count"] for p in pieces) == 36


def test_planet_unknown_counts(catalog: dict[str, Any]) -> None:
    pu = catalog["planet_unknown"]
    sides = [p["side"] for p in pu["planets"]]
    assert sides.count("asymmetric") == 12 and sides.count("symmetric") == 1
    assert next(p for p in pu["planets"] if p["side"] == "symmetric")["name"] == "KSB-4156"
    names = [c["name"] for c in pu["corporations"]]
    assert len(names) == 9 and "Universal Coalition" in names
    assert len(pu["tiles"]) == 144 and all(t["squares"] for t in pu["tiles"])
    assert len(pu["civ_cards"]) == 36
    assert len(pu["objectives"]) == 28
    assert len(pu["event_cards"]) == 60
    assert set(pu["tracks"]) == {"civ", "water", "biomass", "rover", "tech"}
    assert all(len(spaces) == data.TOP + 1 for spaces in pu["tracks"].values())


def test_planet_squares_are_named_as_moves_name_them(catalog: dict[str, Any]) -> None:
    for planet in catalog["planet_unknown"]["planets"]:
        printed = data.planets()[planet["slug"]]
        assert planet["squares"] == [square_name(s) for s in sorted(printed.squares)]
        assert all(
            parse_move(f"deploy {name}") == Deploy(s)
            for name, s in zip(planet["squares"], sorted(printed.squares), strict=True)
        )


def test_every_tile_is_what_the_rules_place(catalog: dict[str, Any]) -> None:
    """Each tile placed by the rules with its anchor on a1, unturned and unflipped, covers the catalog's squares."""
    state = PU.initial(1, {})
    for tile in catalog["planet_unknown"]["tiles"]:
        placed = PU.evolve(state, TilePlaced(seat=0, tile=tile["id"], anchor=0, rotation=0, flip=False))
        cover = placed.seats[0].cover
        covered = {square_name(s): letter for s, letter in enumerate(cover) if letter}
        expected = {
            s["square"]: data.LETTERS[data.Terrain(s["terrain"])].upper()
            if s["icon"]
            else data.LETTERS[data.Terrain(s["terrain"])]
            for s in tile["squares"]
        }
        assert covered == expected, tile["id"]
        meteors = {s["square"] for s in tile["squares"] if s["meteor"]}
        assert {square_name(s) for s in placed.seats[0].meteor_symbols} == meteors, tile["id"]
        assert tile["shape"] == data.tiles()[tile["id"]].shape
