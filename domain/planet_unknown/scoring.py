"""Final scoring: medals per category, neighbour and private objectives, the tie-breakers, and the
solo result against its target."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import event_deck, powers
from .board import connected_areas, terrain_of
from .data import (
    PRIVATE_OBJECTIVE_MEDALS,
    SIZE,
    TRACKS,
    Metric,
    PrivateObjective,
    Terrain,
    civ_cards,
    objectives,
    planet_lines,
    planets,
    private_objectives,
)
from .model import Seat, State
from .planets import planet_rules

SPACE_CITIZEN_DECREE = 28
COMMERCE = {0: 0, 1: 1, 2: 3, 3: 6, 4: 10}
CATEGORIES = ("planet", "tracks", "lifepods", "meteorites", "civ_cards", "objectives")


def _terrain_at(seat: Seat, square: int) -> Terrain | None:
    letter = seat.cover[square]
    return terrain_of(letter) if letter else None


def planet_medals(seat: Seat) -> int:
    """Medals of every row and column whose grid squares are all covered (Petra: uncovered currents
    count) and that hold no meteorite, plus the planet's own medals (Gaia cities, Cerberus sub-planets)."""
    planet = planets()[seat.planet]
    rules = planet_rules(seat)
    currents = rules.currents(seat)
    total = 0
    for line, squares in enumerate(planet_lines(seat.planet)):
        filled = all(seat.cover[s] or s in currents for s in squares)
        if squares and filled and not any(s in seat.meteorites for s in squares):
            total += planet.line_medal(line)
    return total + rules.bonus_medals(seat)


def track_medals(seat: Seat) -> dict[str, int]:
    """Per track, the highest medal at or below its tracker."""
    return powers.medals(seat)


def lifepod_medals(seat: Seat) -> int:
    """1 per collected lifepod that scores, and 1 more per collected lifepod with Space Citizen
    Decree (also those on Cosmos tracks, 14.21)."""
    scored = powers.corporation(seat).scored_lifepods(seat)
    return scored + (seat.lifepods_collected if SPACE_CITIZEN_DECREE in seat.hand else 0)


def meteorite_medals(seat: Seat) -> int:
    """Per full group of 3 collected meteorites: 1, plus 1 per Meteorite Repo card."""
    repos = sum(1 for c in seat.hand if civ_cards()[c].effect.get("set") == "meteorite_repo")
    return seat.meteorites_collected // 3 * (1 + repos)


def civ_medals(seat: Seat) -> int:
    """End-game civ cards: fixed medals, medals per patch, and the Commerce Agreement set."""
    total = 0
    commerce = 0
    for card_id in seat.hand:
        card = civ_cards()[card_id]
        e = card.effect
        if card.kind == "medals":
            total += e["amount"]
        elif card.kind == "medals_and_advance":
            total += e["medals"]
        elif card.kind == "medals_per" and card_id != SPACE_CITIZEN_DECREE:
            total += e["amount"] * sum(1 for letter in seat.cover if letter == "p")
        elif e.get("set") == "commerce_agreement":
            commerce += 1
    return total + COMMERCE[commerce]


def area_squares(seat: Seat, terrain: Terrain) -> list[set[int]]:
    """The orthogonally connected areas of ``terrain`` (patches count as biomass)."""
    return connected_areas(s for s in range(SIZE * SIZE) if _terrain_at(seat, s) is terrain)


def areas(seat: Seat, terrain: Terrain) -> list[int]:
    """Sizes of the orthogonally connected areas of ``terrain`` (patches count as biomass)."""
    return [len(area) for area in area_squares(seat, terrain)]


def metric(seat: Seat, metric: Metric, terrain: Terrain | None) -> int:
    """The value a neighbour objective compares for one seat."""
    icons = [
        s for s, letter in enumerate(seat.cover) if letter and letter.isupper() and _terrain_at(seat, s) is terrain
    ]
    if metric is Metric.ICONS_ON_EDGE:
        return sum(1 for s in icons if s in planets()[seat.planet].edge)
    if metric is Metric.ICONS_ON_PLANET:
        return len(icons)
    if metric is Metric.LARGEST_AREA:
        assert terrain is not None
        return max(areas(seat, terrain), default=0)
    if metric is Metric.AREAS:
        assert terrain is not None
        return len(areas(seat, terrain))
    if metric is Metric.TRACKS_AT_TOP:
        return sum(1 for t in TRACKS if seat.track(t) >= powers.corporation(seat).top(t))
    if metric is Metric.METEORITES:
        return seat.meteorites_collected
    if metric is Metric.LIFEPODS:
        return seat.lifepods_collected
    raise AssertionError(metric)


def has_rectangle(seat: Seat, terrain: Terrain, height: int, width: int) -> bool:
    """Whether a ``height`` x ``width`` block of squares is entirely of ``terrain`` (Petra's uncovered
    currents are energy)."""
    currents = planet_rules(seat).currents(seat) if terrain is Terrain.ENERGY else frozenset()

    def matches(square: int) -> bool:
        return _terrain_at(seat, square) is terrain or square in currents

    for top in range(SIZE - height + 1):
        for left in range(SIZE - width + 1):
            if all(matches((top + r) * SIZE + left + c) for r in range(height) for c in range(width)):
                return True
    return False


def _rectangle(seat: Seat, card: PrivateObjective) -> bool:
    assert card.terrain is not None
    height, width = card.params["size"]
    if has_rectangle(seat, card.terrain, height, width):
        return True
    return bool(card.params.get("either_orientation")) and has_rectangle(seat, card.terrain, width, height)


def _area_with_icons(seat: Seat, card: PrivateObjective) -> bool:
    assert card.terrain is not None
    need = int(card.params["min_icons"])
    return any(sum(1 for s in area if seat.cover[s].isupper()) >= need for area in area_squares(seat, card.terrain))


def _no_uncovered(seat: Seat, ice: bool) -> bool:
    planet = planets()[seat.planet]
    currents = frozenset() if ice else planet_rules(seat).currents(seat)
    return all(seat.cover[s] or s in currents for s in planet.squares if (s in planet.ice) is ice)


PRIVATE_CONDITIONS: dict[str, Callable[[Seat, PrivateObjective], bool]] = {
    "rectangle_of_terrain": _rectangle,
    "one_area_with_resource_icons": _area_with_icons,
    "tracker_at_maximum": lambda seat, card: (
        seat.track(Terrain(card.params["track"])) >= powers.corporation(seat).top(Terrain(card.params["track"]))
    ),
    "resource_icons_on_planet_at_most": lambda seat, card: (
        metric(seat, Metric.ICONS_ON_PLANET, card.terrain) <= int(card.params["max"])
    ),
    "meteorites_collected_at_least": lambda seat, card: seat.meteorites_collected >= int(card.params["min"]),
    "lifepods_collected_more_than_meteorites_collected": lambda seat, card: (
        seat.lifepods_collected > seat.meteorites_collected
    ),
    "no_uncovered_ice": lambda seat, card: _no_uncovered(seat, ice=True),
    "no_uncovered_land": lambda seat, card: _no_uncovered(seat, ice=False),
}
"""Per private-objective condition: whether a seat meets it."""


def private_met(seat: Seat, card_id: int) -> bool:
    """Whether the seat meets the condition of the private side of objective ``card_id``."""
    card = private_objectives()[card_id]
    return PRIVATE_CONDITIONS[card.condition](seat, card)


def private_medals(seat: Seat) -> dict[str, int]:
    """Per kept private objective (key ``private <id>``): 5 if met, else 0."""
    return {f"private {c}": PRIVATE_OBJECTIVE_MEDALS if private_met(seat, c) else 0 for c in seat.private_objectives}


def objective_pairs(state: State) -> list[tuple[int, int, int]]:
    """(card, seat, seat) for every neighbour objective: between seats i and i+1, or shared by 2 players."""
    if state.players == 2:
        return [(card, 0, 1) for card in state.objectives]
    return [(card, i, (i + 1) % state.players) for i, card in enumerate(state.objectives)]


def objective_medals(state: State, only: int | None = None) -> list[dict[str, int]]:
    """Per seat, medals from each neighbour objective card it shares (5 better, 2 tied, 0 worse), and
    from each Jump Drive tech F card (key ``shared <id>``: 5 the best of all seats, 2 a tied best,
    0 the others; 5 in a solo game, BGA).

    With ``only``, just the cards that seat shares are compared.
    """
    out: list[dict[str, int]] = [{} for _ in state.seats]
    for card_id, a, b in objective_pairs(state):
        if only is not None and only not in (a, b):
            continue
        card = objectives()[card_id]
        sign = 1 if card.most else -1
        va = sign * metric(state.seats[a], card.metric, card.terrain)
        vb = sign * metric(state.seats[b], card.metric, card.terrain)
        out[a][str(card_id)] = 5 if va > vb else 2 if va == vb else 0
        out[b][str(card_id)] = 5 if vb > va else 2 if va == vb else 0
    for card_id in state.shared_objectives:
        card = objectives()[card_id]
        sign = 1 if card.most else -1
        values = [sign * metric(s, card.metric, card.terrain) for s in state.seats]
        best = max(values)
        for n, value in enumerate(values):
            if only is not None and n != only:
                continue
            tied = values.count(best) > 1
            won = 5 if state.players == 1 else (2 if tied else 5) if value == best else 0
            out[n][f"shared {card_id}"] = won
    return out


def uncovered(seat: Seat) -> int:
    """Grid squares left uncovered (first tie-breaker: fewer is better)."""
    return sum(1 for s in planets()[seat.planet].squares if not seat.cover[s])


def seat_score(state: State, index: int, objective_part: dict[str, int]) -> dict[str, Any]:
    """One seat's breakdown, total and tie-breakers."""
    seat = state.seats[index]
    objective_part = {**objective_part, **private_medals(seat)}
    by_track = track_medals(seat)
    parts = {
        "planet": planet_medals(seat),
        "tracks": sum(by_track.values()),
        "lifepods": lifepod_medals(seat),
        "meteorites": meteorite_medals(seat),
        "civ_cards": civ_medals(seat),
        "objectives": sum(objective_part.values()),
    }
    empty = uncovered(seat)
    return {
        "seat": index,
        "total": sum(parts.values()),
        **parts,
        "by_track": by_track,
        "by_objective": objective_part,
        "tie_breakers": {"uncovered_squares": empty, "meteorites_on_planet": len(seat.meteorites)},
        "aux": 10000 - 100 * empty - len(seat.meteorites),
    }


def score_all(state: State) -> list[dict[str, Any]]:
    """Every seat's breakdown."""
    objective_part = objective_medals(state)
    return [seat_score(state, i, objective_part[i]) for i in range(state.players)]


def solo_result(state: State) -> dict[str, Any]:
    """The solo score against the target: ``score``, ``target``, ``difference``, ``band`` (-15 ... +15) and its
    ``rating`` name."""
    score = int(seat_score(state, 0, {})["total"])
    target = event_deck.solo_target(state.event_mix)
    band, rating = event_deck.solo_band(score - target)
    return {"score": score, "target": target, "difference": score - target, "band": band, "rating": rating}


def winners(state: State) -> tuple[int, ...]:
    """Highest total, then fewest uncovered squares, then fewest meteorites on the planet; ties share.

    A seat that forfeited (ran out of time) cannot win. Solo: the seat wins when it reaches the target.
    """
    if state.players == 1:
        reached = state.forfeited is None and solo_result(state)["difference"] >= 0
        return (0,) if reached else ()
    scores = [s for s in score_all(state) if s["seat"] != state.forfeited]
    if not scores:
        return ()
    best = max((s["total"], s["aux"]) for s in scores)
    return tuple(s["seat"] for s in scores if (s["total"], s["aux"]) == best)
