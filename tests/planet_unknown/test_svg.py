"""The SVG board (:mod:`domain.planet_unknown.svg`): golden pictures of a few positions, well-formed XML for
every position of whole games, and nothing in a picture that its view does not hold.

``ORRERY_UPDATE_GOLDEN=1`` rewrites the golden files from the current renderer; look at them before
committing (``rsvg-convert tests/planet_unknown/golden/midgame-3-spectator.svg -o /tmp/midgame.png``).
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import xml.etree.ElementTree as ET
import xml.parsers.expat
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from domain import contract
from domain.contract import Role, Viewer
from domain.planet_unknown.data import civ_cards, private_objectives
from domain.planet_unknown.game import PlanetUnknown
from domain.planet_unknown.model import State
from domain.planet_unknown.svg import render

GAME = PlanetUnknown()
GOLDEN = Path(__file__).with_name("golden")
ASYMMETRIC = {"events": True, "asymmetric_planets": True, "asymmetric_corporations": True}
MIDGAME = {
    "events": True,
    "private_objectives": True,
    "seat_setup": [
        {"planet": "petra", "corporation": "oasis-ultd"},
        {"planet": "oblivion", "corporation": "flux-industries", "flux": "water"},
        {"planet": "arashi", "corporation": "makeshift"},
    ],
}


def states(
    seats: int, options: Mapping[str, Any], seed: bytes, bot: str = "random", plies: int = 10_000
) -> Iterator[State]:
    """Every state of a game played by a built-in bot with a fixed rng: after the deal, then after each event."""
    state = GAME.initial(seats, contract.parse_options(GAME.options, dict(options)))
    state = contract.fold(GAME, state, GAME.setup(state, seed))
    yield state
    rng = random.Random(seed)
    played = 0
    while GAME.outcome(state) is None and played < plies:
        for seat in sorted(GAME.to_act(state)):
            move = GAME.bots[bot](contract.seat_view(GAME, state, seat), seat, rng, 0)
            for event in GAME.decide(state, seat, move):
                state = GAME.evolve(state, event)
                yield state
            played += 1
            if GAME.outcome(state) is not None or played >= plies:
                break


def last(seats: int, options: Mapping[str, Any], seed: bytes, bot: str = "greedy", plies: int = 10_000) -> State:
    *_, state = states(seats, options, seed, bot, plies)
    return state


@functools.cache
def positions() -> dict[str, State]:
    return {
        "deal-2": last(2, {}, b"svg-deal", plies=0),
        "midgame-3": last(3, MIDGAME, b"svg-mid", plies=75),
        "solo-over": last(1, {}, b"svg-solo", bot="random"),
    }


GOLDENS: dict[str, tuple[str, Viewer]] = {
    "deal-2-spectator": ("deal-2", Role.SPECTATOR),
    "deal-2-seat0": ("deal-2", 0),
    "midgame-3-spectator": ("midgame-3", Role.SPECTATOR),
    "midgame-3-seat1": ("midgame-3", 1),
    "solo-over-spectator": ("solo-over", Role.SPECTATOR),
}


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_golden(name: str) -> None:
    position, viewer = GOLDENS[name]
    svg = render(GAME.view(positions()[position], viewer))
    ET.fromstring(svg)
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("ORRERY_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.exists(), f"no golden file {path}: run with ORRERY_UPDATE_GOLDEN=1"
    assert svg == path.read_text(encoding="utf-8"), f"{name}.svg changed: run with ORRERY_UPDATE_GOLDEN=1 and look"


def test_positions_are_what_the_goldens_say() -> None:
    assert positions()["deal-2"].round <= 1
    mid = GAME.view(positions()["midgame-3"], Role.SPECTATOR)
    assert mid["events"]["card"] is not None
    assert any(s["planet"] != "ksb-4156" for s in mid["seats"])
    assert any(s["corporation"] != "universal-coalition" for s in mid["seats"])
    assert GAME.outcome(positions()["solo-over"]) is not None


def _well_formed(svg: str) -> None:
    parser = xml.parsers.expat.ParserCreate()
    parser.Parse(svg, True)


@pytest.mark.parametrize(("seats", "options"), [(1, {}), (2, ASYMMETRIC), (4, ASYMMETRIC)])
def test_every_position_is_well_formed(seats: int, options: Mapping[str, Any]) -> None:
    """Every version of a whole game as a spectator, and as each seat in turn (solo: as the seat every time)."""
    count = 0
    for version, state in enumerate(states(seats, options, f"svg-{seats}".encode())):
        viewers: list[Viewer] = [Role.SPECTATOR, version % seats]
        for viewer in viewers:
            _well_formed(render(GAME.view(state, viewer)))
        count += 1
    assert GAME.outcome(state) is not None
    assert count > 100


def test_the_root_is_an_accessible_svg_with_a_view_box() -> None:
    root = ET.fromstring(render(GAME.view(positions()["midgame-3"], Role.SPECTATOR)))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox", "").startswith("0 0 1200 ")
    assert root.get("role") == "img"
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text and title.text.startswith("Planet Unknown")


def test_a_picture_is_a_function_of_the_view_alone() -> None:
    for state in positions().values():
        for viewer in (Role.SPECTATOR, 0):
            view = GAME.view(state, viewer)
            assert render(json.loads(json.dumps(view))) == render(view)


def _tiles_drawn(svg: str) -> set[int]:
    return {int(n) for n in re.findall(r'data-tile="(\d+)"', svg)}


def test_a_spectator_sees_no_hidden_tile_or_card() -> None:
    state = positions()["midgame-3"]
    view = GAME.view(state, Role.SPECTATOR)
    svg = render(view)
    shown = {s["top"] for s in view["station"] if s["top"] is not None}
    shown |= {t for seat in view["seats"] for t in seat["offered"]}
    assert _tiles_drawn(svg) <= shown
    hidden_below = {t for stack in state.stacks for t in stack[1:]}
    assert not _tiles_drawn(svg) & hidden_below
    text = json.dumps(view)
    secrets = [private_objectives()[c].name for seat in state.seats for c in seat.private_objectives]
    secrets += [civ_cards()[c].name for seat in state.seats for c in seat.hand]
    assert secrets
    for name in secrets:
        if name not in text:
            assert name not in svg, name


def test_a_seat_sees_its_own_secrets_only() -> None:
    state = positions()["midgame-3"]
    view = GAME.view(state, 1)
    svg = render(view)
    for name in (private_objectives()[c].name for c in state.seats[1].private_objectives):
        assert name in svg
    text = json.dumps(view)
    for k in (0, 2):
        for name in (private_objectives()[c].name for c in state.seats[k].private_objectives):
            if name not in text:
                assert name not in svg, name


def test_tile_outlines_follow_the_placed_tiles_when_the_view_names_them() -> None:
    view = GAME.view(positions()["deal-2"], Role.SPECTATOR)
    seat = view["seats"][0]
    seat["rows"] = ["cc" + "." * 10, "ww" + "." * 10, *["." * 12] * 10]
    merged = render(view)
    seat["placed_tiles"] = [{"tile": 1, "squares": ["a1", "b1"]}, {"tile": 2, "squares": ["a2", "b2"]}]
    split = render(view)
    assert merged != split
    assert "M0 19L19 19" in split and "M0 19L19 19" not in merged
