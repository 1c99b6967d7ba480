"""The transcribed data files, checked for consistency and against the shared reference."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from domain.planet_unknown.board import square_name
from domain.planet_unknown.data import (
    TRACKS,
    Terrain,
    civ_cards,
    corporations,
    objective_sides,
    objectives,
    planet_lines,
    planets,
    tiles,
    tracks,
)

from .helpers import shared_reference


def reference(name: str) -> dict[str, Any]:
    folder = shared_reference()
    if folder is None:
        pytest.skip("the shared reference folder (ORRERY_SHARED or ../shared) is absent; nothing to cross-check")
    return json.loads((Path(folder) / name).read_text())


class TestTiles:
    def test_144_tiles_12_per_shape(self) -> None:
        assert len(tiles()) == 144
        assert set(Counter(t.shape for t in tiles()).values()) == {12}

    def test_every_tile_has_two_terrains_two_icons(self) -> None:
        for tile in tiles():
            assert len({s.terrain for s in tile.squares}) == 2
            assert sorted(tile.resources) == sorted({s.terrain for s in tile.squares})

    def test_half_the_tiles_carry_a_meteor_symbol(self) -> None:
        assert sum(t.has_meteor for t in tiles()) == 72

    def test_matches_reference(self) -> None:
        ref = reference("tiles.json")
        for raw, tile in zip(ref["tiles"], tiles(), strict=True):
            assert raw["shape"] == tile.shape
            got = {(s.row, s.col): (s.terrain.value, s.icon, s.meteor) for s in tile.squares}
            want = {tuple(c["rc"]): (c["terrain"], c["resource_icon"], c["meteor_symbol"]) for c in raw["cells"]}
            assert got == want, raw["id"]


class TestPlanets:
    def test_all_thirteen_planets(self) -> None:
        assert len(planets()) == 13

    def test_ksb_4156(self) -> None:
        ksb = planets()["ksb-4156"]
        assert (len(ksb.squares), len(ksb.ice), len(ksb.lifepods), len(ksb.edge)) == (96, 21, 6, 28)
        assert ksb.row_medals == ksb.column_medals == (1, 1, 1, 2, 2, 3, 3, 2, 2, 1, 1, 1)

    def test_lines_are_rows_then_columns_of_grid_squares(self) -> None:
        lines = planet_lines("ksb-4156")
        lengths = (2, 6, 8, 10, 10, 12, 12, 10, 10, 8, 6, 2)
        assert tuple(len(line) for line in lines) == lengths + lengths
        assert lines[0] == (5, 6)
        assert lines[12 + 5] == tuple(r * 12 + 5 for r in range(12))
        for slug, planet in planets().items():
            assert all(set(line) <= planet.squares for line in planet_lines(slug))
            assert sum(len(line) for line in planet_lines(slug)) == 2 * len(planet.squares)

    def test_matches_reference(self) -> None:
        ref = reference("planets.json")
        for raw in ref["planets"]:
            planet = planets()[raw["slug"]]
            assert list(planet.grid) == raw["grid"]
            assert list(planet.row_medals) == raw["row_medals"]
            assert list(planet.column_medals) == raw["column_medals"]
            assert {square_name(r * 12 + c) for r, c in raw["lifepods"]} == {square_name(s) for s in planet.lifepods}
            assert {r * 12 + c for r, c in raw["edge_cells"]} == planet.edge
            assert len(planet.squares) == raw["grid_square_count"]


class TestTracks:
    def test_five_tracks_of_sixteen_spaces(self) -> None:
        assert set(tracks()) == set(TRACKS)
        assert all(len(spaces) == 16 for spaces in tracks().values())

    def test_matches_reference(self) -> None:
        ref = reference("tracks.json")["tracks"]
        for name, raw in ref.items():
            spaces = tracks()[Terrain(name)]
            assert [s.medal for s in spaces] == [x.get("medal", 0) for x in raw["spaces"]]
            assert [s.synergy for s in spaces] == [x.get("synergy", 0) for x in raw["spaces"]]
            assert [s.rover_moves for s in spaces] == [x.get("rover_moves", 0) for x in raw["spaces"]]
            assert [s.civ_rank for s in spaces] == [x.get("civ_rank", 0) for x in raw["spaces"]]
            assert [s.tech_level for s in spaces] == [x.get("tech_level", 0) for x in raw["spaces"]]
            assert [s.patch for s in spaces] == [x.get("milestone") == "biomass_patch" for x in raw["spaces"]]
            assert [s.rover for s in spaces] == [x.get("milestone") == "rover" for x in raw["spaces"]]
            best = [max(s.medal for s in spaces[: k + 1]) for k in range(16)]
            assert best == raw["medal_if_final_position"]


class TestCards:
    def test_36_civ_cards_9_per_rank(self) -> None:
        assert Counter(c.rank for c in civ_cards().values()) == {1: 9, 2: 9, 3: 9, 4: 9}

    def test_28_objectives(self) -> None:
        assert len(objectives()) == 28
        assert all({"neighbour", "private"} <= set(card) for card in objective_sides().values())

    def test_matches_reference(self) -> None:
        ref = reference("cards.json")
        for raw in ref["civ_cards"]["cards"]:
            card = civ_cards()[raw["bga_card_id"]]
            assert (card.name, card.rank, card.end_game) == (raw["name"], raw["rank"], raw["timing"] == "end_game")
            assert card.effect["kind"] == raw["effect"]["kind"]
        for raw in ref["objective_cards"]["cards"]:
            goal = objectives()[raw["bga_card_id"]]
            side = raw["neighbour_side"]
            assert (goal.name, goal.metric.value, goal.most) == (
                side["name"],
                side["metric"],
                side["compare"] == "most",
            )
            assert (goal.terrain.value if goal.terrain else None) == side.get("terrain")


class TestCorporations:
    def test_nine_corporations_transcribed(self) -> None:
        assert len(corporations()) == 9
        assert corporations()["universal-coalition"]["rovers"] == 2

    def test_matches_reference(self) -> None:
        ref = reference("corporations.json")
        for raw in ref["corporations"]:
            corp = corporations()[raw["slug"]]
            assert (corp["name"], corp["rovers"], corp["complexity"]) == (raw["name"], raw["rovers"], raw["complexity"])
            assert set(corp["tracks"]) == set(raw["tracks"])
