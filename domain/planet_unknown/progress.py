"""How far a seat is on its way to a private objective, as both the ``greedy`` bot (:mod:`.bots`) and
the ``search`` bot (:mod:`.search`) rate it."""

from __future__ import annotations

from . import scoring
from .data import planets, private_objectives
from .model import Seat


def objective_share(seat: Seat, card_id: int) -> float | None:
    """The share (0-1) of the way to private objective ``card_id``, for the conditions both bots rate alike
    (None for the others, which each bot rates its own way).

    Meteorites: collected over the number named; covering ice or land: the covered share of those squares
    (1 with none); an area with resource icons: icons in the best area over the number named.
    """
    card = private_objectives()[card_id]
    c = card.condition
    if c == "meteorites_collected_at_least":
        return min(1.0, seat.meteorites_collected / int(card.params["min"]))
    if c in ("no_uncovered_ice", "no_uncovered_land"):
        planet = planets()[seat.planet]
        cells = [q for q in planet.squares if (q in planet.ice) is (c == "no_uncovered_ice")]
        return sum(1 for q in cells if seat.cover[q]) / len(cells) if cells else 1.0
    if c == "one_area_with_resource_icons":
        assert card.terrain is not None
        best = max(
            (sum(1 for q in area if seat.cover[q].isupper()) for area in scoring.area_squares(seat, card.terrain)),
            default=0,
        )
        return min(1.0, best / int(card.params["min_icons"]))
    return None
