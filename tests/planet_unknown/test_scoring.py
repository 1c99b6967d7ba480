"""Scoring per category on hand-built planets (section 12) and the tie-breakers."""

from __future__ import annotations

import dataclasses

import pytest

from domain.planet_unknown import GAME, scoring
from domain.planet_unknown.data import Metric, Terrain, objectives
from domain.planet_unknown.model import Phase, State
from domain.planet_unknown.notation import parse_seat

from .helpers import EMPTY, start, with_seat
from .test_placement import full_except


def objective(name: str) -> int:
    return next(card.id for card in objectives().values() if card.name == name)


def seat(text: str):  # type: ignore[no-untyped-def]
    return parse_seat(text)


def game(*positions: str, cards: tuple[int, ...] = ()) -> State:
    state = start(len(positions))
    for i, text in enumerate(positions):
        state = with_seat(state, i, text)
    return dataclasses.replace(state, objectives=cards, phase=Phase.OVER)


class TestPlanet:
    def test_complete_row(self) -> None:
        assert scoring.planet_medals(seat("ksb-4156 5cc5/12/12/12/12/12/12/12/12/12/12/12")) == 1

    def test_complete_column(self) -> None:
        assert scoring.planet_medals(seat("ksb-4156 12/12/12/12/12/c11/c11/12/12/12/12/12")) == 1

    def test_meteorite_blocks_its_row_and_column(self) -> None:
        assert scoring.planet_medals(seat("ksb-4156 5cc5/12/12/12/12/12/12/12/12/12/12/12 met:f1")) == 0

    def test_patches_count_as_covered(self) -> None:
        assert scoring.planet_medals(seat("ksb-4156 5pc5/12/12/12/12/12/12/12/12/12/12/12")) == 1

    def test_full_planet(self) -> None:
        assert scoring.planet_medals(seat(full_except())) == 40


class TestTracks:
    def test_highest_medal_at_or_below(self) -> None:
        medals = scoring.track_medals(seat(EMPTY + " t:2.4.5.8.6"))
        assert medals == {"civ": 1, "water": 2, "biomass": 1, "rover": 1, "tech": 1}

    def test_tops(self) -> None:
        assert sum(scoring.track_medals(seat(EMPTY + " t:15.15.15.15.15")).values()) == 30


class TestLifepodsAndMeteorites:
    def test_lifepods(self) -> None:
        assert scoring.lifepod_medals(seat(EMPTY + " lc:3")) == 3

    def test_space_citizen_decree_doubles_lifepods(self) -> None:
        assert scoring.lifepod_medals(seat(EMPTY + " lc:3 hand:28")) == 6
        assert scoring.civ_medals(seat(EMPTY + " lc:3 hand:28")) == 0

    def test_meteorites_per_full_group_of_three(self) -> None:
        assert scoring.meteorite_medals(seat(EMPTY + " mc:8")) == 2

    def test_meteorite_repo_raises_each_group(self) -> None:
        assert scoring.meteorite_medals(seat(EMPTY + " mc:7 hand:29,30")) == 6


class TestCivCards:
    def test_fixed_medals(self) -> None:
        assert scoring.civ_medals(seat(EMPTY + " hand:6,7,20,27")) == 1 + 2 + 3 + 4

    def test_commerce_agreement_set(self) -> None:
        assert scoring.civ_medals(seat(EMPTY + " hand:33")) == 1
        assert scoring.civ_medals(seat(EMPTY + " hand:33,34,35")) == 6
        assert scoring.civ_medals(seat(EMPTY + " hand:33,34,35,36")) == 10

    def test_sustainable_living_per_patch(self) -> None:
        assert scoring.civ_medals(seat("ksb-4156 5pp5/12/12/12/12/12/12/12/12/12/12/12 hand:22")) == 2

    def test_gaming_commission_and_planet_lottery(self) -> None:
        assert scoring.civ_medals(seat(EMPTY + " hand:23,24")) == 5


class TestObjectives:
    def test_better_wins_5_worse_0(self) -> None:
        perimeter = objective("Project: Perimeter")
        state = game("ksb-4156 5CC5/12/12/12/12/12/12/12/12/12/12/12", EMPTY, cards=(perimeter,))
        assert scoring.objective_medals(state) == [{str(perimeter): 5}, {str(perimeter): 0}]

    def test_tie_gives_2_each(self) -> None:
        perimeter = objective("Project: Perimeter")
        state = game(EMPTY, EMPTY, cards=(perimeter,))
        assert scoring.objective_medals(state) == [{str(perimeter): 2}, {str(perimeter): 2}]

    def test_least_cards_reward_fewer(self) -> None:
        rural = objective("Project: Rural")
        state = game("ksb-4156 5CC5/12/12/12/12/12/12/12/12/12/12/12", EMPTY, cards=(rural,))
        assert scoring.objective_medals(state) == [{str(rural): 0}, {str(rural): 5}]

    def test_three_players_compare_neighbours_only(self) -> None:
        geode = objective("Project: Geode")
        rescue = objective("Project: Rescue")
        sprawl = objective("Project: Sprawl")
        state = game(EMPTY + " mc:1", EMPTY + " lc:1", EMPTY, cards=(geode, rescue, sprawl))
        medals = scoring.objective_medals(state)
        assert medals[0] == {str(geode): 5, str(sprawl): 2}
        assert medals[1] == {str(geode): 0, str(rescue): 5}
        assert medals[2] == {str(rescue): 0, str(sprawl): 2}

    @pytest.mark.parametrize(
        ("metric", "terrain", "text", "value"),
        [
            (Metric.ICONS_ON_EDGE, Terrain.CIV, "ksb-4156 5CC5/12/12/12/12/12/12/12/12/12/12/12", 2),
            (Metric.ICONS_ON_PLANET, Terrain.WATER, "ksb-4156 12/12/12/12/12/12/12/5W6/12/12/12/12", 1),
            (Metric.LARGEST_AREA, Terrain.BIOMASS, "ksb-4156 5bp5/12/12/12/12/12/12/6b5/6b5/12/12/12", 2),
            (Metric.AREAS, Terrain.BIOMASS, "ksb-4156 5bp5/12/12/12/12/12/12/6b5/6b5/12/12/12", 2),
            (Metric.TRACKS_AT_TOP, None, EMPTY + " t:15.3.15.15.0", 3),
            (Metric.METEORITES, None, EMPTY + " mc:4", 4),
            (Metric.LIFEPODS, None, EMPTY + " lc:2", 2),
        ],
    )
    def test_metrics(self, metric: Metric, terrain: Terrain | None, text: str, value: int) -> None:
        assert scoring.metric(seat(text), metric, terrain) == value


class TestWinner:
    def test_breakdown_sums_to_total(self) -> None:
        state = game(full_except() + " t:2.4.5.8.6 lc:2 mc:3 hand:6", EMPTY)
        row = GAME.scores(state)["seats"][0]
        parts = ("planet", "tracks", "lifepods", "meteorites", "civ_cards", "objectives")
        assert row["total"] == sum(row[p] for p in parts) == 40 + 6 + 2 + 1 + 1
        assert row["tie_breakers"] == {"uncovered_squares": 0, "meteorites_on_planet": 0}

    def test_highest_total_wins(self) -> None:
        state = game(EMPTY + " lc:3", EMPTY + " lc:1")
        assert GAME.outcome(state).winners == (0,)  # type: ignore[union-attr]

    def test_tie_broken_by_fewest_uncovered_squares(self) -> None:
        state = game(EMPTY + " lc:1", "ksb-4156 5CC5/12/12/12/12/12/12/12/12/12/12/12")
        assert scoring.score_all(state)[0]["total"] == scoring.score_all(state)[1]["total"]
        assert GAME.outcome(state).winners == (1,)  # type: ignore[union-attr]

    def test_then_by_fewest_meteorites_on_the_planet(self) -> None:
        state = game(
            "ksb-4156 5cc5/12/12/12/12/12/12/12/12/12/12/12 met:f1 lc:1",
            "ksb-4156 5cc5/12/12/12/12/12/12/12/12/12/12/12",
        )
        assert GAME.outcome(state).winners == (1,)  # type: ignore[union-attr]

    def test_full_tie_is_shared(self) -> None:
        assert GAME.outcome(game(EMPTY, EMPTY)).winners == (0, 1)  # type: ignore[union-attr]
