"""The order in which the search bot rates the moves of a turn's first step: when its share of the budget
runs out early, every offered tile has had its placements rated, not only the first tile listed."""

from __future__ import annotations

import math
import random
from typing import Any

from domain.planet_unknown import rules, search
from domain.planet_unknown.model import State
from domain.planet_unknown.moves import Place

from .test_search_bot import dealt, to_first_placement


def first_placement() -> State:
    state = to_first_placement(dealt(1, b"root order"))
    tiles = {m.tile for m in rules.legal_moves(state, 0) if isinstance(m, Place)}
    assert len(tiles) == 2
    return state


def test_the_order_is_the_same_moves_with_the_tiles_taking_turns() -> None:
    moves = list(rules.legal_moves(first_placement(), 0))
    ordered = search.root_order(list(moves), random.Random(3))
    assert sorted(map(repr, ordered)) == sorted(map(repr, moves))
    places = [m for m in ordered if isinstance(m, Place)]
    assert ordered[len(ordered) - len(places) :] == places
    sizes = {tile: sum(1 for m in places if m.tile == tile) for tile in {m.tile for m in places}}
    paired = 2 * min(sizes.values())
    assert [m.tile for m in places[:paired:2]] == [places[0].tile] * (paired // 2)
    assert [m.tile for m in places[1:paired:2]] == [places[1].tile] * (paired // 2)
    assert places[0].tile != places[1].tile


def test_a_first_step_cut_short_has_rated_both_tiles() -> None:
    state = first_placement()
    listed = [m for m in rules.legal_moves(state, 0) if isinstance(m, Place)]
    cut = 40
    assert len({m.tile for m in listed[:cut]}) == 1, "the rules' own order lists one tile's placements first"
    rated: list[int] = []

    def recording(after: State, seat: int, **_: Any) -> float:
        if after.seats[seat].placed and len(rated) < cut:
            rated.append(after.seats[seat].placed[-1])
        return search.evaluate(after, seat)

    search.plan_turn(state, 0, random.Random(1), deadline=math.inf, nodes=cut, evaluator=recording)
    assert len(rated) >= cut // 2
    assert {m.tile for m in listed} == set(rated)
