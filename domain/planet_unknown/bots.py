"""Move choosers for built-in bots: ``random``, ``greedy`` and ``search``, registered in :data:`BOTS`.

Each takes ``(view, seat, rng[, think_ms])`` and returns a legal move of that seat in
the JSON form :meth:`PlanetUnknown.decide` takes. ``view`` is the seat's
:class:`~domain.contract.SeatView`: its state holds stand-ins for every hidden fact
(:mod:`~domain.planet_unknown.seat_state`), so what ``greedy`` plays ahead on is what the seat knows.
``search`` (:mod:`~domain.planet_unknown.search`) plans the whole turn on a determinisation of the view.
"""

from __future__ import annotations

import dataclasses
import random as _random
from collections.abc import Mapping
from types import MappingProxyType

from domain.contract import JSON, Bot, SeatView

from . import rules, scoring
from .board import distance, terrain_of
from .data import PRIVATE_OBJECTIVE_MEDALS, TOP, TRACKS, Terrain, planet_lines, planets, private_objectives
from .model import Seat, State
from .moves import Action, Move, Rotate
from .powers import corporation
from .progress import objective_share
from .search import search


def random(view: SeatView[State], seat: int, rng: _random.Random, think_ms: int = 0) -> JSON:
    """A uniformly random legal move."""
    moves = list(rules.legal_moves(view.state, seat))
    if not moves:
        raise ValueError(f"seat {seat} has no move now")
    return rng.choice(moves).to_json()


def evaluate(state: State, seat: int) -> float:
    """Medals the seat would score now, plus a share of the medals it is working towards.

    * every medal it would score if the game ended now (all categories, objectives included);
    * each row/column without a meteorite: its medal times the square of the share of its
      squares already covered, halved (a nearly full line is worth nearly its medal);
    * each track: the share of the way from its last medal to its next one, times the
      difference, halved;
    * a third of a medal per meteorite towards the next group of 3;
    * 0.4 per pending benefit and 0.1 per unused rover movement (they will become advances);
    * for every rover on the planet, 0.05 less per step to the nearest lifepod or meteorite;
    * each kept private objective not yet met: half its 5 medals times :func:`objective_progress`.
    """
    s = state.seats[seat]
    objective_part = scoring.objective_medals(state, only=seat)[seat]
    value = float(scoring.seat_score(state, seat, objective_part)["total"])
    planet = planets()[s.planet]
    for line, squares in enumerate(planet_lines(s.planet)):
        if not squares or any(q in s.meteorites for q in squares):
            continue
        covered = sum(1 for q in squares if s.cover[q])
        if covered < len(squares):
            medal = planet.line_medal(line)
            value += 0.5 * medal * (covered / len(squares)) ** 2
    for t in TRACKS:
        value += 0.5 * _track_progress(s, t)
    value += (s.meteorites_collected % 3) / 3
    value += 0.4 * len(s.pending) + 0.1 * s.moves
    for card in s.private_objectives:
        if not scoring.private_met(s, card):
            value += 0.5 * PRIVATE_OBJECTIVE_MEDALS * objective_progress(s, card)
    targets = s.lifepods | s.meteorites
    for at in s.rovers:
        if at >= 0 and targets:
            value -= 0.05 * min(distance(at, q) for q in targets)
    return value


def objective_progress(seat: Seat, card_id: int) -> float:
    """A rough share (0-1) of the way to a private objective, cheap enough to rate every move.

    Tracker at the top: position / 15; meteorites: collected / 9; lifepods over meteorites: 1 while
    ahead; covering ice or land: the covered share; an area with 6 icons: icons in the best area / 6;
    a block of one terrain: squares of that terrain / block size, halved; at most 5 energy icons: 1.
    """
    shared = objective_share(seat, card_id)
    if shared is not None:
        return shared
    card = private_objectives()[card_id]
    c = card.condition
    if c == "tracker_at_maximum":
        return seat.track(Terrain(card.params["track"])) / TOP
    if c == "lifepods_collected_more_than_meteorites_collected":
        return 1.0 if seat.lifepods_collected > seat.meteorites_collected else 0.0
    if c == "rectangle_of_terrain":
        assert card.terrain is not None
        height, width = card.params["size"]
        count = sum(1 for letter in seat.cover if letter and terrain_of(letter) is card.terrain)
        return 0.5 * min(1.0, count / (height * width))
    return 1.0


def _track_progress(seat: Seat, track: Terrain) -> float:
    spaces = corporation(seat).spaces(track)
    position = seat.track(track)
    current = max(space.medal for space in spaces[: position + 1])
    behind = max((k for k in range(position + 1) if spaces[k].medal), default=0)
    ahead = next((k for k in range(position + 1, len(spaces)) if spaces[k].medal > current), None)
    if ahead is None:
        return 0.0
    return (spaces[ahead].medal - current) * (position - behind) / (ahead - behind)


def greedy(view: SeatView[State], seat: int, rng: _random.Random, think_ms: int = 0) -> JSON:
    """The legal move whose resulting position :func:`evaluate` rates highest (one ply).

    Ties are broken at random. Confirming is preferred to rover steps that gain nothing,
    so the bot always ends its turn.
    """
    state = view.state
    moves = list(rules.legal_moves(state, seat))
    if not moves:
        raise ValueError(f"seat {seat} has no move now")
    if len(moves) == 1:
        return moves[0].to_json()
    baseline = evaluate(state, seat)
    best: list[Move] = []
    best_value = float("-inf")
    for move in moves:
        if move.action is Action.CONFIRM:
            value = baseline
        elif isinstance(move, Rotate):
            value = _rotation_value(state, seat, move.rotation)
        else:
            value = evaluate(rules.moved(state, seat, move)[0], seat)
            if move.action is Action.ROVER and value <= baseline + 1e-9:
                continue
        if value > best_value + 1e-9:
            best, best_value = [move], value
        elif abs(value - best_value) <= 1e-9:
            best.append(move)
    confirm = [m for m in best if m.action is Action.CONFIRM]
    return (confirm[0] if confirm else rng.choice(best)).to_json()


def _rotation_value(state: State, seat: int, rotation: int) -> float:
    """For the commander: how many tiles its own depot would offer that it can place."""
    turned = dataclasses.replace(state, rotation=rotation)
    return float(sum(1 for t in rules.offered(turned, seat) if rules.can_place(turned, seat, t)))


BOTS: Mapping[str, Bot] = MappingProxyType({"random": random, "greedy": greedy, "search": search})
"""The built-in bots by name."""
