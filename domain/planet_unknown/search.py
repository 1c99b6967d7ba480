"""The ``search`` bot: plans a whole turn (tile, placement, benefits, rover moves) and plays it.

A turn is every move a seat makes between two stops: from choosing its tile to confirming, the
resolution of an event card, a civ-card slot, the commander's rotation and the draft after it. The bot
plans the turn it is in on a determinisation of its view (:mod:`.determinise`: the face-down station
tiles drawn at random from those it has not seen), never on the true state, which it is not given:

1. every legal move now is played once and rated by :func:`evaluate`, the offered tiles' placements taking
   turns (:func:`root_order`), so that a step cut short by the budget has rated each tile;
2. from the best rated, in order, a narrow beam search completes the turn (each step keeps the few
   best positions, equal positions once); each complete turn is rated at its end, with what was left
   pending counting nothing;
3. when the station turns by itself (solo; 2 players with the automatic rotation) the tiles of next
   round's depot are face up now (:func:`next_tiles`): in a turn that places a tile, the search stops
   at :data:`SEARCH_SHARE` of the budget and the best complete turns (:data:`RERATED`, distinct end
   positions) add what the best placement of one of those tiles would add to their planet, with the
   rough worth of the advances its resource icons would give there (:func:`next_fit`);
4. when the time is up (``think_ms``, 0 for :data:`DEFAULT_THINK_MS`) the first move of the best
   complete turn is played.

One choice is made without a search: of the objective cards dealt at the start, the one this bot meets
least often is rejected (:func:`dealt_reject`, :data:`MET_RATES`).

The rest of the planned turn is remembered, keyed by the exact view it expects next, so the following
moves of the turn are played at once; any other view is planned afresh. The memory is only a speed-up:
a bot without it would plan again (``use_plans=False``).
"""

from __future__ import annotations

import dataclasses
import heapq
import math
import random as _random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from domain.contract import JSON, RuleError, SeatView

from . import outlook, rules, scoring
from . import seat_state as seat_states
from .benefits.patch import patch_squares
from .board import connected_areas, distance, footprint, neighbours, terrain_of
from .data import (
    PRIVATE_OBJECTIVE_MEDALS,
    SIZE,
    TRACKS,
    Terrain,
    TileSquare,
    objectives,
    planet_lines,
    planets,
    private_objectives,
)
from .determinise import determinise
from .edits import cover, patch_on, tile_letters
from .gains import placement_benefits
from .model import Benefit, Kind, Phase, Seat, State
from .moves import Move, Place, Reject
from .outlook import reach_chance
from .powers import corporation, tech_level
from .progress import objective_share

DEFAULT_THINK_MS = 1000
"""The budget per move when none is given (``think_ms`` 0); the figures in the README were measured with it."""
ROOT_SHARE = 0.45
"""The share of the budget the first step (rating every move now) may use before completions start."""
BEAM = 3
"""Positions kept per step while completing a turn."""
MAX_STEPS = 24
"""Moves planned in one turn at most."""
METEORITE_SHARE = 0.6
"""How much of a row's or column's promise is left per meteorite on it (a rover must take it away)."""
ENGINE = 0.8
"""Worth of each square of rover movement an advance of the rover track gives, while the game has long to go."""
HOLE_SHARE = {1: 0.35, 2: 0.6, 3: 0.85}
"""How much of a row's or column's promise is left per square of it in an uncovered area this small
(few tiles, or only a biomass patch, fit there)."""
TECH_WORTH = (0.0, 2.0, 2.5, 3.5, 5.0, 6.0)
"""Worth of reaching each tech level (cumulative) while the game has long to go: for Universal Coalition
1 places tiles anywhere, 3 adds rover movement, 4 doubles water, 5 stops meteorites."""
LINE_WEIGHT = 1.0
"""Weight of the rows' and columns' promise (see :func:`evaluate`)."""
TRACK_WEIGHT = 0.6
"""Weight of the promise of the tracks' next medals."""
OBJECTIVE_WEIGHT = 0.8
"""Weight of the private objectives' promise."""
NEXT_TILE_WEIGHT = 1.0
"""Weight of what the best placement of one of next round's tiles would add to the planet's worth and the
tracks (see :func:`next_fit`)."""
RERATED = 8
"""Complete turns re-rated with :func:`next_fit`, best first."""
SEARCH_SHARE = 0.6
"""The share of the budget the turn search may use when its best turns are re-rated with :func:`next_fit`."""
WEIGHT_SLOPE = 5.0
"""The promises count fully until the share of the game left (:func:`remaining`) falls below 1 / this,
then fade with it."""
ROUGHNESS = 0.1
"""Medals of the rows' and columns' promise lost per side an uncovered grid square shares with a covered
one: a ragged edge between the tiles and the open planet leaves squares no tile fits."""
SAFETY = 0.75
"""The share of ``think_ms`` the search may spend (the rest covers the bookkeeping around it)."""
TRACKER_PACE = 0.72
"""The chance, each round left, that a tracker the seat must bring to the top of its track advances once
(:func:`tracker_chance`): an objective on a track it has barely begun is then worth about half its medals,
and each early advance is worth nearly a medal."""
CIV_CARD_WORTH = (1.5, 2.2, 2.8, 3.2)
"""What a civ card of rank 1 to 4 is worth, in medals: the better of the two cards a pile holds in solo,
between extra advances, patches, lifepods, meteorites destroyed and end-game medals."""
SUPPLY_WORTH = 0.5
"""Worth of each square the tiles still to come are expected to cover (:func:`.outlook.supply`)."""
SMALL_SHARE = 0.3
"""How much of the difference between a depot's larger and smaller tile the expected supply gives up."""
STORED_PATCH_WORTH = 1.0
"""Worth of each biomass patch stored for the end of the game (Universal Coalition's tech 2, Wormhole's tech 4):
placed then, it goes where it completes a row or column, so storing it can be worth more than placing it at once."""
METEORITE_PULL = 0.5
"""The share of what taking a meteorite off the planet would add to its row and column that a rover on its way
there is worth (see :func:`meteorite_pull`)."""
ROVER_PACE = 0.45
"""The advances of the rover track expected per round left, for the squares the rovers can still travel."""

_PLANS: OrderedDict[tuple[int, State], JSON] = OrderedDict()
_PLAN_LIMIT = 512
_COVER_CACHE: dict[tuple[Any, ...], tuple[int, float, int, float]] = {}
_COVER_LIMIT = 50_000
_PLANS_LOCK = threading.Lock()


# --- Evaluation -----------------------------------------------------------------------------------


def remaining(state: State, seat: int) -> float:
    """A rough share (0-1) of the game still to play: events left in the deck, else uncovered squares."""
    s = state.seats[seat]
    squares = planets()[s.planet].squares
    share = sum(1 for q in squares if not s.cover[q]) / max(1, len(squares))
    if state.event_deck or state.events_drawn:
        share = min(share, len(state.event_deck) / max(1, len(state.event_deck) + state.events_drawn))
    if state.last_round or state.phase is Phase.END_GAME:
        return 0.0
    return share


def _line_share(covered: int, squares: int, blocked: int) -> float:
    """The share of its medal an unfinished row or column promises: the square of its covered share, times
    :data:`METEORITE_SHARE` per meteorite on it."""
    return (covered / squares) ** 2 * METEORITE_SHARE**blocked


def _holes(seat: Seat) -> dict[int, int]:
    """Uncovered grid squares in an uncovered area of 1 to 3 squares, with the area's size."""
    squares = planets()[seat.planet].squares
    out: dict[int, int] = {}
    for area in connected_areas(q for q in squares if not seat.cover[q]):
        if len(area) <= 3:
            out.update((q, len(area)) for q in area)
    return out


_COVER_CONDITIONS = frozenset(
    {
        "rectangle_of_terrain",
        "one_area_with_resource_icons",
        "no_uncovered_ice",
        "no_uncovered_land",
        "resource_icons_on_planet_at_most",
    }
)


def _cover_terms(seat: Seat) -> tuple[int, float, int, float]:
    """What depends only on the seat's planet: (line medals, line promise, cover objectives met, their promise)."""
    key = (seat.planet, seat.cover, seat.meteorites, seat.private_objectives)
    found = _COVER_CACHE.get(key)
    if found is not None:
        return found
    planet = planets()[seat.planet]
    holes = _holes(seat)
    promise = 0.0
    for line, cells in enumerate(planet_lines(seat.planet)):
        if not cells:
            continue
        covered = sum(1 for q in cells if seat.cover[q])
        blocked = sum(1 for q in cells if q in seat.meteorites)
        if covered == len(cells) and not blocked:
            continue
        medal = planet.line_medal(line)
        share = medal * _line_share(covered, len(cells), blocked)
        for q in cells:
            size = holes.get(q)
            if size is not None:
                share *= HOLE_SHARE[size]
        promise += share
    promise -= ROUGHNESS * open_edge(seat)
    met = 0
    objective_promise = 0.0
    for card_id in seat.private_objectives:
        card = private_objectives()[card_id]
        if card.condition not in _COVER_CONDITIONS:
            continue
        progress = _cover_progress(seat, card_id)
        if (progress >= 1.0 or card.condition == "resource_icons_on_planet_at_most") and scoring.private_met(
            seat, card_id
        ):
            met += 1
        else:
            objective_promise += _promise(card_id, min(progress, 0.9))
    found = (scoring.planet_medals(seat), promise, met, objective_promise)
    if len(_COVER_CACHE) >= _COVER_LIMIT:
        _COVER_CACHE.clear()
    _COVER_CACHE[key] = found
    return found


def open_edge(seat: Seat) -> int:
    """How many sides the seat's uncovered grid squares share with covered ones: the longer this edge
    between the tiles and the open planet, the more squares are left that no tile fits."""
    squares = planets()[seat.planet].squares
    count = 0
    for q in squares:
        if not seat.cover[q]:
            count += sum(1 for n in neighbours(q) if n in squares and seat.cover[n])
    return count


def _cover_progress(seat: Seat, card_id: int) -> float:
    """A share (0-1) of the way to a private objective that depends on the planet only."""
    shared = objective_share(seat, card_id)
    if shared is not None:
        return shared
    card = private_objectives()[card_id]
    if card.condition == "rectangle_of_terrain":
        assert card.terrain is not None
        height, width = card.params["size"]
        best = _window(seat, card.terrain, height, width)
        if card.params.get("either_orientation"):
            best = max(best, _window(seat, card.terrain, width, height))
        return best / (height * width)
    return 0.0


def _window(seat: Seat, terrain: Terrain, height: int, width: int) -> int:
    """The most squares of ``terrain`` in a ``height`` x ``width`` block of the planet holding no other terrain."""
    squares = planets()[seat.planet].squares
    best = 0
    for top in range(SIZE - height + 1):
        for left in range(SIZE - width + 1):
            count = 0
            for q in (top * SIZE + left + r * SIZE + c for r in range(height) for c in range(width)):
                letter = seat.cover[q]
                if q not in squares or (letter and terrain_of(letter) is not terrain):
                    count = -1
                    break
                if letter:
                    count += 1
            best = max(best, count)
    return best


_TRACK_CACHE: dict[tuple[Any, ...], tuple[float, float, float]] = {}


def _track_terms(seat: Seat) -> tuple[float, float, float]:
    """(track medals now, promise of the next medals: the share of the way there times the gain, rover
    movement per advance of the rover track)."""
    key = (seat.corporation, seat.tracks, seat.corporation_state)
    found = _TRACK_CACHE.get(key)
    if found is None:
        found = _TRACK_CACHE[key] = _track_terms_of(seat)
        if len(_TRACK_CACHE) > _COVER_LIMIT:
            _TRACK_CACHE.clear()
    return found


def _track_terms_of(seat: Seat) -> tuple[float, float, float]:
    corp = corporation(seat)
    medals = 0.0
    promise = 0.0
    for track in TRACKS:
        spaces = corp.spaces(track)
        position = min(seat.track(track), len(spaces) - 1)
        current = max(space.medal for space in spaces[: position + 1])
        medals += current
        behind = max((k for k in range(position + 1) if spaces[k].medal), default=0)
        ahead = next((k for k in range(position + 1, len(spaces)) if spaces[k].medal > current), None)
        if ahead is not None:
            promise += (spaces[ahead].medal - current) * (position - behind + 1) / (ahead - behind + 1)
    rover = corp.spaces(Terrain.ROVER)
    at = min(seat.track(Terrain.ROVER), len(rover) - 1)
    movement = max((space.rover_moves for space in rover[: at + 1]), default=0)
    return medals, promise, float(movement)


def _step_value(seat: Seat, track: Terrain) -> float:
    """What one more advance on ``track`` is roughly worth, for a benefit not yet used."""
    spaces = corporation(seat).spaces(track)
    position = seat.track(track)
    if position + 1 >= len(spaces):
        return 0.1
    space = spaces[position + 1]
    current = max(s.medal for s in spaces[: position + 1])
    value = 0.4 + max(0, space.medal - current) + 0.3 * bool(space.synergy)
    value += 1.0 * bool(space.civ_rank) + 0.5 * bool(space.rover) + 0.3 * bool(space.patch)
    value += 0.3 * bool(space.tech_level) + 0.1 * space.rover_moves
    return value


def _benefit_worth(seat: Seat, benefit: Benefit) -> float:
    """What a benefit not yet used is roughly worth to ``seat``: its advances by :func:`_step_value`, anything
    else a flat half (a third if it may be declined)."""
    if benefit.kind is Kind.ADVANCE and benefit.track is not None:
        return _step_value(seat, benefit.track)
    if benefit.kind is Kind.CHOOSE:
        options = [t for t in (benefit.options or TRACKS) if t not in benefit.chosen]
        best = max((_step_value(seat, t) for t in options), default=0.0)
        return best * max(1, benefit.count - len(benefit.chosen)) * benefit.steps
    return 0.5 if not benefit.optional else 0.3


def _pending_value(seat: Seat) -> float:
    return sum(_benefit_worth(seat, benefit) for benefit in seat.pending) + 0.15 * seat.moves


def evaluate(state: State, seat: int, *, final: bool = False) -> float:
    """The medals the seat would score now, plus what it is on its way to, weighed by the game left.

    Scored now: rows and columns, tracks, lifepods, meteorites, civ cards, the objectives met. On its way:
    each unfinished row or column (its medal times the square of its covered share, less with a
    meteorite on it or a hole that no tile fits), less :data:`ROUGHNESS` per side of :func:`open_edge`,
    each track's next medal (the share of the way there), the next group of 3 meteorites, the private
    objectives not met yet, the rovers (nearer to a lifepod or meteorite is better, and to a meteorite that
    holds back a row or column still more: :func:`meteorite_pull`), the civ cards the
    seat will pick (:func:`civ_worth`) and, when the rounds left are known, a tracker-at-the-top objective
    as its chance (:func:`tracker_chance`) and the squares the station's tiles still to come can cover
    (:func:`.outlook.supply`, worth :data:`SUPPLY_WORTH` each: an emptied stack costs its depot's later
    tiles), and each patch stored for the end of the game (:data:`STORED_PATCH_WORTH`) until the seat's last
    tile is placed, then the medals the stored patches will add in the end-game turn (:func:`stored_fill`). With
    ``final`` (the end of a turn) benefits and rover movement left pending count nothing; otherwise a rough
    worth each.
    """
    s = state.seats[seat]
    rest = remaining(state, seat)
    lines, line_promise, cover_met, cover_promise = _cover_terms(s)
    tracks, track_promise, movement = _track_terms(s)
    value = float(lines + tracks)
    value += scoring.lifepod_medals(s) + scoring.meteorite_medals(s) + scoring.civ_medals(s)
    value += PRIVATE_OBJECTIVE_MEDALS * cover_met
    objective_promise = cover_promise
    rounds = outlook.rounds_left(state, seat)
    for card_id in s.private_objectives:
        card = private_objectives()[card_id]
        if card.condition in _COVER_CONDITIONS:
            continue
        if scoring.private_met(s, card_id):
            value += PRIVATE_OBJECTIVE_MEDALS
        elif card.condition == "tracker_at_maximum" and rounds is not None:
            value += PRIVATE_OBJECTIVE_MEDALS * tracker_chance(s, card_id, rounds)
        else:
            objective_promise += _promise(card_id, _other_progress(s, card_id))
    weight = min(1.0, WEIGHT_SLOPE * rest)
    value += civ_worth(state, seat, weight, final=final)
    tiles_to_come = outlook.supply(state, seat, SMALL_SHARE)
    if tiles_to_come is not None:
        value += SUPPLY_WORTH * tiles_to_come
    if s.stored_patches and state.phase is not Phase.OVER:
        placed_last = rounds == 0 or state.phase is Phase.END_GAME
        value += stored_fill(state, seat) if placed_last else STORED_PATCH_WORTH * s.stored_patches
    if state.players > 1 and (state.objectives or state.shared_objectives):
        value += _neighbour_objectives(state, seat, weight)
    value += weight * (
        LINE_WEIGHT * line_promise
        + TRACK_WEIGHT * track_promise
        + OBJECTIVE_WEIGHT * PRIVATE_OBJECTIVE_MEDALS * objective_promise
    )
    value += weight * 0.7 * (s.meteorites_collected % 3) / 3
    value += weight * (ENGINE * movement + TECH_WORTH[min(tech_level(s), len(TECH_WORTH) - 1)])
    targets = s.lifepods | s.meteorites
    for at in s.rovers:
        if at >= 0:
            value += 0.8 * weight
            if targets:
                nearest = min(distance(at, q) for q in targets)
                value -= 0.1 * weight * min(nearest, 8)
    value += meteorite_pull(state, seat, weight, final=final)
    if not final:
        value += _pending_value(s)
    return value


def stored_fill(state: State, seat: int) -> int:
    """The medals the seat's stored patches add when the end of the game places them: each in turn on the square
    where it adds most (the rows and columns it completes, a civ card's medal per patch). Greedy, so a row or
    column that only two patches together would complete counts nothing: a lower bound of what the end-game
    turn, which plans the patches together, can reach."""
    s = state.seats[seat]
    start = medals = scoring.planet_medals(s) + scoring.civ_medals(s)
    for _ in range(s.stored_patches):
        best, placed = 0, None
        for square in patch_squares(state, s):
            after = patch_on(s, square)
            gain = scoring.planet_medals(after) + scoring.civ_medals(after) - medals
            if gain > best:
                best, placed = gain, after
        if placed is None:
            break
        s, medals = placed, medals + best
    return medals - start


def meteorite_pull(state: State, seat: int, weight: float, *, final: bool = False) -> float:
    """What the seat's rovers are worth for the meteorites that hold back a row or column.

    Taking a meteorite away lets its row and column score: their medals if one is complete and holds no other
    meteorite, else the promise :data:`METEORITE_SHARE` withheld (weighed by ``weight``, the game left). Each
    meteorite counts :data:`METEORITE_PULL` of that, times the chance-like share ``e / (e + d)``, where ``d``
    is the nearest rover's distance and ``e`` the squares the rovers can still travel: :data:`ROVER_PACE`
    advances a round left (without the event deck, the share of the game left of 20 rounds) at the rover
    track's present movement, and, before the end of a turn, the movement pending. So a rover is drawn, over
    several rounds, to the meteorite that blocks the most.
    """
    s = state.seats[seat]
    rovers = [at for at in s.rovers if at >= 0]
    if not rovers or not s.meteorites:
        return 0.0
    rounds = outlook.rounds_left(state, seat)
    if rounds is None:
        rounds = max(1, round(20 * remaining(state, seat)))
    movement = _track_terms(s)[2]
    travel = ROVER_PACE * max(1.0, movement) * rounds + (0 if final else s.moves)
    if travel <= 0:
        return 0.0
    planet = planets()[s.planet]
    lines = planet_lines(s.planet)
    total = 0.0
    for q in s.meteorites:
        freed = 0.0
        for line in (q // SIZE, SIZE + q % SIZE):
            cells = lines[line]
            if not cells:
                continue
            medal = planet.line_medal(line)
            covered = sum(1 for c in cells if s.cover[c])
            blocked = sum(1 for c in cells if c in s.meteorites)
            without = (
                medal
                if covered == len(cells) and blocked == 1
                else weight * medal * _line_share(covered, len(cells), blocked - 1)
            )
            freed += without - weight * medal * _line_share(covered, len(cells), blocked)
        if freed > 0:
            nearest = min(distance(at, q) for at in rovers)
            total += freed * travel / (travel + nearest)
    return METEORITE_PULL * total


_EASE = {
    "rectangle_of_terrain": 0.2,
    "one_area_with_resource_icons": 0.12,
    "tracker_at_maximum": 0.25,
    "meteorites_collected_at_least": 0.05,
    "lifepods_collected_more_than_meteorites_collected": 0.2,
    "no_uncovered_ice": 0.2,
    "no_uncovered_land": 0.05,
}
"""A guess at how often each kind of private objective is met, before any progress: the base of its promise
(:func:`_promise`), the rest of which grows with the progress. Which of the cards dealt is rejected is set by
:data:`MET_RATES` instead; a kept objective that an event makes the seat discard is still chosen by the
evaluation, where these guesses enter."""


MET_RATES: dict[tuple[str, str | None], float] = {
    ("tracker_at_maximum", "rover"): 0.77,
    ("tracker_at_maximum", "biomass"): 0.74,
    ("tracker_at_maximum", "water"): 0.66,
    ("tracker_at_maximum", "civ"): 0.57,
    ("tracker_at_maximum", "tech"): 0.50,
    ("no_uncovered_ice", None): 0.83,
    ("rectangle_of_terrain", "biomass 2x5"): 0.388,
    ("rectangle_of_terrain", "biomass 3x3"): 0.355,
    ("rectangle_of_terrain", "water 2x5"): 0.287,
    ("rectangle_of_terrain", "water 3x3"): 0.226,
    ("rectangle_of_terrain", "civ 3x3"): 0.185,
    ("rectangle_of_terrain", "rover 3x3"): 0.181,
    ("rectangle_of_terrain", "tech 2x5"): 0.180,
    ("rectangle_of_terrain", "tech 3x3"): 0.133,
    ("rectangle_of_terrain", "civ 2x5"): 0.126,
    ("rectangle_of_terrain", "energy 2x5"): 0.09,
    ("rectangle_of_terrain", "energy 3x3"): 0.09,
    ("rectangle_of_terrain", "rover 2x5"): 0.023,
    ("one_area_with_resource_icons", "civ"): 0.47,
    ("one_area_with_resource_icons", "biomass"): 0.44,
    ("one_area_with_resource_icons", "energy"): 0.36,
    ("one_area_with_resource_icons", "water"): 0.34,
    ("one_area_with_resource_icons", "tech"): 0.24,
    ("one_area_with_resource_icons", "rover"): 0.22,
    ("resource_icons_on_planet_at_most", "energy"): 0.32,
    ("lifepods_collected_more_than_meteorites_collected", None): 0.15,
    ("meteorites_collected_at_least", None): 0.41,
    ("no_uncovered_land", None): 0.15,
}
"""How often this bot met each kind of private objective it kept, by terrain or track, in 200 solo games
(seeds ``pu-solo-400`` to ``-599``: KSB-4156, Universal Coalition, 300 ms a move), each rate drawn towards 0.35
as if by 3 more games. The rectangles are rated by terrain and size (``"rover 2x5"``: a 2x5 block either way
round), from 400 later games drawn the same way (seeds ``pu-solo-1000`` to ``-1199`` run twice, 300 ms a
move): a 2x5 rover block was met in none of 43 games, a 3x3 one in 10 of 58; the energy blocks, nearly always
given up, keep their earlier 0.09 (3 of 41). The dealt card with the lowest rate is the one rejected
(:func:`dealt_reject`), unless a card of a kind in :data:`GIVEN_UP_FIRST` is dealt. "More lifepods than
meteorites" is set at 0.15 by hand: it was met in 17 of 32 games, but those games scored 1.9 less than the
others, with 4.4 meteorites left on the planet against 2.6 (the rovers keep off meteorites while the objective
holds). 9 meteorites collected, once set at 0.15 by hand too (kept in 2 games, met once), was met in 35 of the
86 games that kept it when rated 0.6 (seeds ``pu-solo-10500`` to ``-12499`` that had given it up): 0.41 (43
of 103 with the earlier counts). Kept there instead of the card of next lowest rate, it scored +0.92 ± 0.69 (115
games), and at 0.41 +2.42 ± 0.69 (123 games, seeds ``-12500`` to ``-14499``): the rovers collect the
meteorites, so fewer are left on the planet."""

GIVEN_UP_FIRST = frozenset({"lifepods_collected_more_than_meteorites_collected"})
"""The private objectives given up whenever they are dealt, whatever their rates: keeping more lifepods than
meteorites collected costs more than the card brings. While the lifepods lead, collecting a meteorite costs the
card's 5 medals in the evaluation, so the rovers leave meteorites on the planet. In solo games that dealt it
and kept it, giving it up instead (and keeping the card of lowest rate) scored +1.56 ± 0.84 (81 games, seeds
``pu-solo-4000`` to ``-5199``) and +2.42 ± 0.70 (113 games, seeds ``-5200`` to ``-6599``), 300 ms a move:
about 2 fewer meteorites left on the planet and 2 more planet medals."""


def met_rate(card_id: int) -> float:
    """The :data:`MET_RATES` entry of private objective ``card_id``."""
    card = private_objectives()[card_id]
    if card.condition == "rectangle_of_terrain":
        rows, columns = sorted(card.params["size"])
        return MET_RATES[(card.condition, f"{card.terrain} {rows}x{columns}")]
    kind = card.params.get("track") if card.condition == "tracker_at_maximum" else card.terrain
    return MET_RATES[(card.condition, None if kind is None else str(kind))]


def dealt_reject(state: State, seat: int, moves: list[Move]) -> Move | None:
    """When ``seat`` is to give up one of the objective cards dealt to it (every legal move a reject), the
    reject of a card whose kind is in :data:`GIVEN_UP_FIRST`, else of the card with the lowest :func:`met_rate`;
    else None."""
    if not state.seats[seat].objective_offer:
        return None
    rejects = [m for m in moves if isinstance(m, Reject)]
    if not rejects or len(rejects) != len(moves):
        return None
    return min(
        rejects,
        key=lambda m: (private_objectives()[m.card].condition not in GIVEN_UP_FIRST, met_rate(m.card), m.card),
    )


def _promise(card_id: int, progress: float) -> float:
    card = private_objectives()[card_id]
    ease = _EASE.get(card.condition, 0.2)
    if card.condition == "tracker_at_maximum" and card.params.get("track") == "water":
        ease = 0.6
    return ease + (1 - ease) * progress**1.5


def _neighbour_objectives(state: State, seat: int, weight: float) -> float:
    """The neighbour objectives' medals now, blended (by ``weight``, the game left) with a softer count
    that also rewards widening a lead or narrowing a gap."""
    hard = float(sum(scoring.objective_medals(state, only=seat)[seat].values()))
    if weight <= 0:
        return hard
    soft = 0.0
    for card_id, a, b in scoring.objective_pairs(state):
        if seat not in (a, b):
            continue
        card = objectives()[card_id]
        sign = 1 if card.most else -1
        other = b if seat == a else a
        margin = sign * (
            scoring.metric(state.seats[seat], card.metric, card.terrain)
            - scoring.metric(state.seats[other], card.metric, card.terrain)
        )
        soft += 2.5 + 2.5 * math.tanh(margin / 2)
    shared = sum(v for k, v in scoring.objective_medals(state, only=seat)[seat].items() if k.startswith("shared"))
    return (1 - weight) * hard + weight * (soft + shared)


def _other_progress(seat: Seat, card_id: int) -> float:
    shared = objective_share(seat, card_id)
    if shared is not None:
        return shared
    card = private_objectives()[card_id]
    c = card.condition
    if c == "tracker_at_maximum":
        track = Terrain(card.params["track"])
        return seat.track(track) / corporation(seat).top(track)
    if c == "lifepods_collected_more_than_meteorites_collected":
        return 0.5
    return 0.0


def tracker_chance(seat: Seat, card_id: int, rounds: int) -> float:
    """The chance that a tracker-at-the-top objective is met within ``rounds`` rounds: the advances it
    still needs, each round bringing one with chance :data:`TRACKER_PACE`.

    A smooth promise undervalues such an objective early, when one advance moves it little; as a chance it
    is worth most where it hangs in the balance, so the seat either works towards it from the start or,
    once too far behind, gives it up.
    """
    card = private_objectives()[card_id]
    track = Terrain(card.params["track"])
    need = corporation(seat).top(track) - seat.track(track)
    return reach_chance(need, rounds, TRACKER_PACE)


def civ_worth(state: State, seat: int, weight: float, *, final: bool = False) -> float:
    """The civ cards ``seat`` is on its way to: each pick waiting for the civ-card phase (or, before the end
    of a turn, pending) at :data:`CIV_CARD_WORTH` while its pile holds cards, and the next civ milestone
    of the track as the share of the way there (weighed like the tracks' medals, by ``weight``)."""
    s = state.seats[seat]

    def available(rank: int) -> bool:
        return 0 < rank <= len(state.civ_piles) and bool(state.civ_piles[rank - 1])

    value = sum(CIV_CARD_WORTH[rank - 1] for rank in s.civ_queue if available(rank))
    if not final:
        value += sum(CIV_CARD_WORTH[b.rank - 1] - 0.5 for b in s.pending if b.kind is Kind.CIV and available(b.rank))
    spaces = corporation(s).spaces(Terrain.CIV)
    position = min(s.track(Terrain.CIV), len(spaces) - 1)
    behind = max((k for k in range(position + 1) if spaces[k].civ_rank), default=0)
    ahead = next((k for k in range(position + 1, len(spaces)) if spaces[k].civ_rank), None)
    if ahead is not None and available(spaces[ahead].civ_rank):
        share = (position - behind + 1) / (ahead - behind + 1)
        value += weight * TRACK_WEIGHT * CIV_CARD_WORTH[spaces[ahead].civ_rank - 1] * share
    return value


def _cover_worth(seat: Seat, weight: float) -> float:
    """The part of :func:`evaluate` that depends only on the seat's planet."""
    lines, line_promise, met, objective_promise = _cover_terms(seat)
    return (
        lines
        + PRIVATE_OBJECTIVE_MEDALS * met
        + weight * (LINE_WEIGHT * line_promise + OBJECTIVE_WEIGHT * PRIVATE_OBJECTIVE_MEDALS * objective_promise)
    )


def next_tiles(state: State, seat: int) -> list[int]:
    """The face-up tiles of the depot ``seat`` will face next round, when the station turns by itself
    (solo, and 2 players with the automatic rotation); none in the last round or with a commander."""
    if not rules.station_turns_itself(state) or state.last_round or state.phase in (Phase.END_GAME, Phase.OVER):
        return []
    turned = dataclasses.replace(state, rotation=(state.rotation - 1) % 6)
    return rules.offered(turned, seat)


def next_fit(state: State, seat: int, tiles: list[int], deadline: float = math.inf) -> float:
    """What the best placement of one of ``tiles`` (see :func:`next_tiles`) would add: to the planet's part of
    :func:`evaluate` (rows, columns and the objectives read from the planet), and the rough worth of the
    advances its resource icons would give there (:func:`_benefit_worth`; water only where the tile meets ice,
    energy its best neighbouring track); 0 with no tile.

    This round's event restriction is not applied to them; the placements are looked at until ``deadline``.
    """
    if not tiles:
        return 0.0
    s = state.seats[seat]
    weight = min(1.0, WEIGHT_SLOPE * remaining(state, seat))
    base = _cover_worth(s, weight)
    plain = dataclasses.replace(state, event_card=None)
    lands = corporation(s).meteor_symbols_land(s)
    best = 0.0
    for tile in tiles:
        for anchor, rotation, flip in rules.tile_placements(plain, seat, tile):
            if time.perf_counter() > deadline:
                return best
            cells = footprint(tile, anchor, rotation, flip)
            assert cells is not None
            placed = cover(s, tile_letters(cells))
            if lands:
                placed = dataclasses.replace(
                    placed, meteorites=placed.meteorites | {q for q, c in cells.items() if c.meteor}
                )
            gain = _cover_worth(placed, weight) - base + _resource_worth(s, placed, cells)
            best = max(best, gain)
    return best


def _resource_worth(before: Seat, placed: Seat, cells: dict[int, TileSquare]) -> float:
    """The rough worth (:func:`_benefit_worth`) of the benefits the resource icons of a tile placed on ``cells``
    would give: ``placed`` is the seat ``before`` with the tile on its planet."""
    return sum(
        _benefit_worth(before, benefit)
        for benefits in placement_benefits(before, placed, cells)
        for benefit in benefits
    )


# --- Planning -------------------------------------------------------------------------------------


class _OutOfTime(Exception):
    pass


class _Clock:
    """The search's deadline and, for tests, a cap on the positions it may play."""

    def __init__(self, deadline: float, nodes: int | None) -> None:
        self.deadline = deadline
        self.nodes = nodes
        self.used = 0

    def tick(self) -> None:
        self.used += 1
        if (self.nodes is not None and self.used > self.nodes) or time.perf_counter() > self.deadline:
            raise _OutOfTime


def _play(state: State, seat: int, move: Move) -> State:
    return rules.play(state, seat, move)[0]


def _is_confirm(move: Move) -> bool:
    return bool(move.to_json().get("action") == "confirm")


def plan_turn(
    view: State,
    seat: int,
    rng: _random.Random,
    *,
    deadline: float,
    nodes: int | None = None,
    evaluator: Callable[..., float] = evaluate,
) -> list[Move]:
    """The best complete turn found for ``seat`` from its ``view`` before ``deadline`` (a
    :func:`time.perf_counter` value) or within ``nodes`` positions; at least one legal move."""
    world = determinise(view, rng)
    start = (world.round, world.phase)
    upcoming = next_tiles(world, seat) if world.phase is Phase.DRAFT and NEXT_TILE_WEIGHT else []
    drafting = world.phase is Phase.EVENT and seat in rules.to_act(world) and bool(NEXT_TILE_WEIGHT)
    started = time.perf_counter()
    rerating = bool(upcoming) or drafting
    searching = deadline if not rerating else started + SEARCH_SHARE * max(0.0, deadline - started)
    clock = _Clock(searching, nodes)
    root_moves = root_order(list(rules.legal_moves(world, seat)), rng)
    turns: list[tuple[float, int, list[Move], State]] = []
    offered = 0
    kept = 4 * RERATED

    def ended(after: State) -> bool:
        if seat not in rules.to_act(after) or after.round != start[0]:
            return True
        return after.phase != start[1] and start[1] is not Phase.ROTATION

    def offer(value: float, line: list[Move], end: State) -> None:
        nonlocal offered
        offered += 1
        entry = (value, -offered, line, end)
        if len(turns) < kept:
            heapq.heappush(turns, entry)
        elif entry[:2] > turns[0][:2]:
            heapq.heapreplace(turns, entry)

    root_cut = started + ROOT_SHARE * max(0.0, searching - started)
    rated: list[tuple[float, int, State, Move]] = []
    try:
        for n, move in enumerate(root_moves):
            if n and time.perf_counter() > root_cut:
                break
            clock.tick()
            if _is_confirm(move):
                offer(evaluator(world, seat, final=True), [move], world)
                continue
            try:
                after = _play(world, seat, move)
            except RuleError:
                continue
            if ended(after):
                offer(evaluator(after, seat, final=True), [move], after)
            else:
                rated.append((evaluator(after, seat), n, after, move))
        rated.sort(key=lambda r: (-r[0], r[1]))
        for _, _, after, move in rated:
            _complete(after, [move], seat, clock, ended, offer, evaluator)
    except _OutOfTime:
        pass
    if not turns:
        return [rated[0][3]] if rated else root_moves[:1]
    turns.sort(key=lambda t: (-t[0], -t[1]))
    if drafting:
        return _rerate(turns, seat, lambda end: _draft_offer(end, seat, start[0]), deadline)
    return _rerate(turns, seat, lambda end: upcoming, deadline)


def root_order(moves: list[Move], rng: _random.Random) -> list[Move]:
    """``moves`` in the order the first step rates them: the moves that place no tile first, then the
    placements of every offered tile in turn, one of each tile at a time, each tile's in a random order.

    The first step may run out of its share of the budget before every move is rated (a mid-game turn can
    offer nearly 600 placements of its two tiles, some 250 ms to rate); in the order :func:`.rules.legal_moves`
    gives (one tile, then the other, each by orientation), that cut every placement of the second tile and the
    last orientations of the first, so the turn was planned with one tile only.
    """
    groups: dict[int, list[Move]] = {}
    others: list[Move] = []
    for move in moves:
        if isinstance(move, Place):
            groups.setdefault(move.tile, []).append(move)
        else:
            others.append(move)
    for placements in groups.values():
        rng.shuffle(placements)
    ordered = others
    for k in range(max((len(g) for g in groups.values()), default=0)):
        ordered.extend(g[k] for g in groups.values() if k < len(g))
    return ordered


def _draft_offer(end: State, seat: int, round_number: int) -> list[int]:
    """The tiles ``seat`` will choose from in this round's draft, once its event turn has ended in ``end``
    (none if the turn ended elsewhere)."""
    if end.round != round_number or end.phase is not Phase.DRAFT:
        return []
    return rules.offered(end, seat)


def _rerate(
    turns: list[tuple[float, int, list[Move], State]],
    seat: int,
    tiles_after: Callable[[State], list[int]],
    deadline: float,
) -> list[Move]:
    """The best of ``turns`` (sorted best first) once the first :data:`RERATED` of them add
    :func:`next_fit` of the tiles the seat will be offered after them (``tiles_after`` of the turn's end:
    next round's when the station turns by itself, this round's draft after an event turn, which may have
    emptied a stack or turned the station), as far as ``deadline`` allows."""
    best_line = turns[0][2]
    if not any(tiles_after(end) for _, _, _, end in turns[:RERATED]):
        return best_line
    best_value = float("-inf")
    seen: set[Any] = set()
    for value, _, line, end in turns:
        if len(seen) >= RERATED or time.perf_counter() > deadline:
            break
        key = (end.seats[seat], end.rotation, end.stacks)
        if key in seen:
            continue
        seen.add(key)
        value += NEXT_TILE_WEIGHT * next_fit(end, seat, tiles_after(end), deadline)
        if value > best_value:
            best_value, best_line = value, line
    return best_line


def _complete(
    state: State,
    line: list[Move],
    seat: int,
    clock: _Clock,
    ended: Callable[[State], bool],
    offer: Callable[[float, list[Move], State], None],
    evaluator: Callable[..., float],
) -> None:
    """Beam search from ``state`` to the end of the turn, offering every complete turn it finds."""
    frontier: list[tuple[State, list[Move]]] = [(state, line)]
    for _ in range(MAX_STEPS):
        children: dict[Any, tuple[float, State, list[Move]]] = {}
        for node, path in frontier:
            for move in rules.legal_moves(node, seat):
                clock.tick()
                if _is_confirm(move):
                    offer(evaluator(node, seat, final=True), [*path, move], node)
                    continue
                try:
                    after = _play(node, seat, move)
                except RuleError:
                    continue
                if ended(after):
                    offer(evaluator(after, seat, final=True), [*path, move], after)
                    continue
                key = (after.seats[seat], after.phase)
                value = evaluator(after, seat)
                if key not in children or children[key][0] < value:
                    children[key] = (value, after, [*path, move])
        if not children:
            return
        ranked = sorted(children.values(), key=lambda c: -c[0])[:BEAM]
        frontier = [(after, path) for _, after, path in ranked]


def _remember(view: State, seat: int, line: list[Move]) -> None:
    """Key each move of the planned turn by the view the seat should see when it is due."""
    state = view
    for move in line:
        with _PLANS_LOCK:
            _PLANS[(seat, state)] = move.to_json()
            _PLANS.move_to_end((seat, state))
            while len(_PLANS) > _PLAN_LIMIT:
                _PLANS.popitem(last=False)
        if _is_confirm(move):
            return
        try:
            after = _play(state, seat, move)
        except RuleError:
            return
        if seat not in rules.to_act(after):
            return
        state = seat_states.seat_state(after, seat)


def choose(
    view: SeatView[State],
    seat: int,
    rng: _random.Random,
    think_ms: int,
    *,
    nodes: int | None = None,
    use_plans: bool = True,
) -> JSON:
    """The ``search`` move: see the module's docstring. ``nodes`` caps the positions played (tests)."""
    started = time.perf_counter()
    state = view.state
    moves = list(rules.legal_moves(state, seat))
    if not moves:
        raise ValueError(f"seat {seat} has no move now")
    if len(moves) == 1:
        return moves[0].to_json()
    rejected = dealt_reject(state, seat, moves)
    if rejected is not None:
        return rejected.to_json()
    if use_plans:
        planned = _PLANS.get((seat, state))
        if planned is not None:
            return planned
    budget = (think_ms if think_ms > 0 else DEFAULT_THINK_MS) / 1000
    line = plan_turn(state, seat, rng, deadline=started + SAFETY * budget, nodes=nodes)
    if use_plans:
        _remember(state, seat, line)
    return line[0].to_json()


def search(view: SeatView[State], seat: int, rng: _random.Random, think_ms: int = DEFAULT_THINK_MS) -> JSON:
    """Plan the whole turn on a determinisation of the seat's view and play its first move (see the module)."""
    return choose(view, seat, rng, think_ms)
