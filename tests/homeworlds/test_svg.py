"""The SVG board (:mod:`domain.homeworlds.svg`): golden pictures of a few positions, and well-formed XML
for every position of whole games (real SDG games from the reference pack, and random-bot games).

``ORRERY_UPDATE_GOLDEN=1`` rewrites the golden files from the current renderer; look at them before
committing (``rsvg-convert tests/homeworlds/golden/midgame.svg -o /tmp/midgame.png``).
"""

from __future__ import annotations

import doctest
import os
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from domain import contract
from domain.contract import Outcome, Role
from domain.homeworlds import svg as svg_module
from domain.homeworlds.game import GAME, HomeworldsState
from domain.homeworlds.notation import Turn
from domain.homeworlds.position import Position
from domain.homeworlds.rules import SDG, Rules, play
from domain.homeworlds.svg import render
from domain.homeworlds.transcripts import read_text

from .shared import GAMES, reference

GOLDEN = Path(__file__).with_name("golden")
SVG_NS = "{http://www.w3.org/2000/svg}"

POSITIONS: dict[str, tuple[str, int, str | None, Outcome | None]] = {
    "empty": ("<0>", 1, None, None),
    "opening": ("<0>; Babamots(0,r1b2)g3-; Andy(1,y3b1)-g3", 3, "homeworld y3 b1 g3 Andy", None),
    "midgame": (
        "<0>; Babamots(0,r1b2)y3g1-; Andy(1,y3b1)-r1r3g3b1; A(g2)r2r2-; B(g3)r1r3y2b1-; C(b3)-y2; D(b3)y1-; "
        "E(y3)g1-r2r3; G(g3)-y1",
        39,
        "sacrifice g2 E; build r3 Andy; build r3 E",
        None,
    ),
    "finished": (
        "<1>; Babamots(0,r1b2)g1-g1g1; Andy(1,y3)y1y3g3-; A(g2)r2y1-; B(g3)-r3; G(g3)-y1y2; I(g2)-b1",
        60,
        "sacrifice r2 A; attack g3 Andy; attack y1 Andy",
        Outcome((0,), "elimination"),
    ),
}
"""Name: position, turn number, last turn and outcome. The last three are from Baker v Looney (2020)."""


def view_of(name: str) -> dict[str, Any]:
    text, turn, last, outcome = POSITIONS[name]
    state = HomeworldsState(Position.from_text(text), Rules(), turn=turn, last_turn=last, outcome=outcome)
    view: dict[str, Any] = GAME.view(state, Role.SPECTATOR)
    return view


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("viewBox", "").startswith("0 0 960 ")
    assert root.get("role") == "img"
    return root


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_golden(name: str) -> None:
    svg = render(view_of(name))
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("ORRERY_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.exists(), f"no golden file {path}: run with ORRERY_UPDATE_GOLDEN=1"
    assert svg == path.read_text(encoding="utf-8"), f"{name}.svg changed: run with ORRERY_UPDATE_GOLDEN=1 and look"


def test_docstring_example() -> None:
    assert doctest.testmod(svg_module).failed == 0


def test_the_picture_shows_every_system_ship_and_the_bank() -> None:
    view = view_of("midgame")
    root = parsed(render(view))
    titles = [t.text or "" for t in root.iter(f"{SVG_NS}title")]
    assert titles[0] == "Homeworlds, turn 39 · seat 0 to move"
    systems = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "system"]
    assert len(systems) == len(view["systems"]) == 8
    ships = sum(len(s["ships"]["0"]) + len(s["ships"]["1"]) for s in view["systems"])
    assert sum(" ship (" in t for t in titles) == ships
    assert sum(" star (" in t for t in titles) == sum(len(s["stars"]) for s in view["systems"])
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG_NS}text"))
    assert "Last turn (seat 1): sacrifice g2 E; build r3 Andy; build r3 E" in texts
    assert "HOME · seat 0" in texts and "HOME · seat 1" in texts
    bank = next(g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "bank")
    assert "red 0/0/0, yellow 1/1/0, green 1/2/0, blue 0/2/1" in (bank.get("aria-label") or "")


def test_the_last_turn_is_outlined_only_when_asked() -> None:
    view = view_of("midgame")
    lit = parsed(render(view))
    outlined = [g for g in lit.iter(f"{SVG_NS}g") if any(r.get("class") == "last-turn" for r in g)]
    assert sorted(re.split("[,;]", g.get("aria-label") or "")[0] for g in outlined) == ["Andy", "E"]
    plain = render(view, highlight_last=False)
    assert 'class="last-turn"' in plain and 'stroke="#f08c00"' not in plain


def test_ships_point_towards_their_owner() -> None:
    root = parsed(render(view_of("opening")))
    ships = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "ship"]
    for ship in ships:
        polygon = ship.find(f"{SVG_NS}polygon")
        assert polygon is not None
        (_, base), _, (_, tip) = (tuple(map(float, p.split(","))) for p in polygon.get("points", "").split())
        owner = 0 if "seat 0's" in (ship.findtext(f"{SVG_NS}title") or "") else 1
        assert (tip > base) == (owner == 0)
    assert len(ships) == 2


def test_names_are_escaped_and_long_names_cut() -> None:
    view = view_of("opening")
    name = "<&'\"Averyveryverylongsystemname>"
    view["systems"][0]["name"] = name
    root = parsed(render(view))
    texts = [t.text for t in root.iter(f"{SVG_NS}text")]
    assert name[:19] + "…" in texts


def test_a_lost_homeworld_is_said() -> None:
    state = HomeworldsState(Position.from_text("<0>; Alpha(0,r1b2)g3-; Beta(g1)-g3"), Rules(), turn=9)
    view: Any = GAME.view(state, Role.SPECTATOR)
    texts = [t.text for t in parsed(render(view)).iter(f"{SVG_NS}text")]
    assert "seat 1's homeworld is gone" in texts


def replay_views(text: str) -> list[dict[str, Any]]:
    """The view after every turn of a transcript, under the rules SDG accepted."""
    position = Position.initial()
    views = []
    turn_number = 1
    for line in (raw.strip() for raw in text.splitlines()):
        if not line or line.startswith("#"):
            continue
        turn = Turn.parse(line)
        position = play(position, turn, SDG)
        turn_number += 1
        result = position.outcome()
        outcome = None if result is None else Outcome(() if result.winner is None else (result.winner,), "elimination")
        state = HomeworldsState(position, SDG, turn=turn_number, last_turn=str(turn), outcome=outcome)
        views.append(GAME.view(state, Role.SPECTATOR))
    return views


def test_every_position_of_real_games_is_well_formed() -> None:
    reference("games/index.tsv")
    files = sorted(GAMES.glob("notable/*.txt"))[:6] + sorted(GAMES.glob("sdg/*.txt"))[:6]
    drawn = 0
    for path in files:
        try:
            views = replay_views(read_text(path))
        except ValueError:
            continue
        for view in views:
            parsed(render(view))
            drawn += 1
    assert drawn > 200


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_position_of_random_games_is_well_formed(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.initial(2, {})
    parsed(render(GAME.view(state, Role.SPECTATOR)))
    for _ in range(120):
        if state.outcome is not None:
            break
        seat = state.position.to_move
        move = GAME.bots["random"](contract.seat_view(GAME, state, seat), seat, rng, 1)
        state = contract.fold(GAME, state, GAME.decide(state, seat, move))
        parsed(render(GAME.view(state, Role.SPECTATOR)))
