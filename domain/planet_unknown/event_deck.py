"""The event deck module: building the deck, what each card does, its round restrictions,
and the solo target.

A card's effect is data (``facts/events.json``) read by one small rule per effect name in
:data:`REVEAL`: it turns the card into what each seat must resolve (pending benefits) or
into an automatic change. Round restrictions are read where the rules they change are
applied (:func:`tile_rule`, :func:`rover_may_enter`, :func:`milestones_blocked`,
:func:`synergy_blocked`, :func:`one_resource_only`, :func:`deploys_on_placed_tile`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from typing import Any

from domain.contract import rng

from .board import footprint, neighbours, terrain_of
from .data import ALERTS, EventCard, Terrain, civ_cards, event_cards, event_tables, planets
from .model import GARAGE, Benefit, Kind, Seat, State
from .powers import corporation

DECK_SIZE = 20
ROLL_RANGE = 1 << 30


# --- Building the deck ---------------------------------------------------------


def available(players: int) -> dict[str, list[int]]:
    """The card ids of each alert colour a game of ``players`` may use (no solo-only cards in multiplayer)."""
    out: dict[str, list[int]] = {colour: [] for colour in ALERTS}
    for card in event_cards().values():
        if players == 1 or not card.solo:
            out[card.alert].append(card.id)
    return out


def mix_problem(mix: Any, players: int | None = None) -> str | None:
    """Why ``mix`` is not a valid ``{"green": n, "orange": n, "red": n}`` deck of 20, or None."""
    if not isinstance(mix, Mapping) or set(mix) != set(ALERTS):
        return 'give the number of cards of each colour: {"green": n, "orange": n, "red": n}'
    for colour in ALERTS:
        n = mix[colour]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            return f"the number of {colour} cards must be a whole number from 0, not {n!r}"
    if sum(mix.values()) != DECK_SIZE:
        return f"the colours must add up to {DECK_SIZE} cards, not {sum(mix.values())}"
    if players is not None:
        for colour, cards in available(players).items():
            if mix[colour] > len(cards):
                where = "a solo game" if players == 1 else "a multiplayer game (no solo-only cards)"
                return f"{where} has only {len(cards)} {colour} cards, not {mix[colour]}"
    return None


def random_mix(seed: bytes, players: int) -> tuple[int, int, int]:
    """BGA's mix: green and orange each 0-13 at random, red the rest (drawn again if red would not fit)."""
    bounds = event_tables()["bga_random_mix"]
    reds = len(available(players)["red"])
    draw = rng(seed, "event-mix")
    while True:
        green, orange = draw.randint(0, bounds["green"]), draw.randint(0, bounds["orange"])
        red = DECK_SIZE - green - orange
        if 0 <= red <= reds:
            return green, orange, red


def build(seed: bytes, players: int, mix: tuple[int, int, int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The shuffled deck for ``mix`` (random cards within each colour) and one secret roll per card."""
    cards: list[int] = []
    for colour, count in zip(ALERTS, mix, strict=True):
        pool = sorted(available(players)[colour])
        rng(seed, f"events-{colour}").shuffle(pool)
        cards.extend(pool[:count])
    rng(seed, "event-deck").shuffle(cards)
    roll = rng(seed, "event-rolls")
    return tuple(cards), tuple(roll.randrange(ROLL_RANGE) for _ in cards)


# --- Solo target ---------------------------------------------------------------


def solo_target(mix: tuple[int, int, int] | None) -> int:
    """60, adjusted by how many cards of each colour the deck holds (no deck: 60)."""
    table = event_tables()["solo_target"]
    target = int(table["base"])
    for colour, count in zip(ALERTS, mix or (0, 0, 0), strict=True):
        reached = sum(1 for start in table["from"] if count >= start)
        if reached:
            target += int(table[colour][reached - 1])
    return target


def solo_band(difference: int) -> tuple[int, str]:
    """The result band (-15 ... +15, by fives) of a final score ``difference`` above the target, and its name."""
    bands = event_tables()["solo_bands"]
    best = bands[0]
    for band in bands:
        if difference >= band[0]:
            best = band
    return int(best[0]), str(best[1])


# --- Revealing a card ----------------------------------------------------------


def card_of(state: State) -> EventCard | None:
    """This round's event card, if any."""
    return event_cards()[state.event_card] if state.event_card is not None else None


def _add(seat: Seat, *benefits: Benefit) -> Seat:
    return dataclasses.replace(seat, pending=seat.pending + benefits)


def _gain_rover(state: State, seat: Seat, card: EventCard) -> Seat:
    return dataclasses.replace(seat, rovers=(*seat.rovers, GARAGE))


def _nothing(state: State, seat: Seat, card: EventCard) -> Seat:
    return seat


def _draw_objective(state: State, seat: Seat, card: EventCard) -> Seat:
    return _add(seat, Benefit(Kind.DRAW))


def _advance(state: State, seat: Seat, card: EventCard) -> Seat:
    steps = int(card.params.get("steps", 1))
    bare = not card.params.get("benefits", True)
    return _add(seat, Benefit(Kind.CHOOSE, options=card.tracks, steps=steps, source="event", benefits=not bare))


def _rotate(state: State, seat: Seat, card: EventCard) -> Seat:
    return _add(seat, Benefit(Kind.ROTATE))


def _patch(state: State, seat: Seat, card: EventCard) -> Seat:
    return _add(seat, Benefit(Kind.PATCH))


def _synergy(state: State, seat: Seat, card: EventCard) -> Seat:
    return _add(seat, Benefit(Kind.CHOOSE, source="synergy"))


def _collect(state: State, seat: Seat, card: EventCard) -> Seat:
    what = str(card.params["what"])
    return _add(seat, Benefit(Kind.COLLECT, what=what, forced=state.rulings.compulsory_events))


def _regress(state: State, seat: Seat, card: EventCard) -> Seat:
    return _add(seat, Benefit(Kind.REGRESS, options=card.tracks, steps=int(card.params.get("steps", 1))))


def _meteorite(state: State, seat: Seat, card: EventCard) -> Seat:
    return _add(seat, Benefit(Kind.METEORITE, forced=corporation(seat).meteor_symbols_land(seat)))


def _discard_objective(state: State, seat: Seat, card: EventCard) -> Seat:
    return _add(seat, Benefit(Kind.DISCARD))


def _destroy(state: State, seat: Seat, card: EventCard) -> Seat:
    what = str(card.params["what"])
    if card.params["from"] == "collected":
        if what == "lifepod":
            if corporation(seat).scored_lifepods(seat) <= 0:  # Cosmos: only from the scoring area
                return seat
            return dataclasses.replace(seat, lifepods_collected=seat.lifepods_collected - 1)
        return dataclasses.replace(seat, meteorites_collected=max(0, seat.meteorites_collected - 1))
    if what == "rover" and sum(1 for r in seat.rovers if r >= 0) < int(card.params.get("min_rovers", 1)):
        return seat
    return _add(seat, Benefit(Kind.DESTROY, what=what, forced=True))


def _empty_stack(state: State, seat: Seat, card: EventCard) -> Seat:
    return _add(seat, Benefit(Kind.EMPTY))


def _synergy_or_peek(state: State, seat: Seat, card: EventCard) -> Seat:
    choice = ((Benefit(Kind.CHOOSE, source="synergy"),), (Benefit(Kind.PEEK),))
    return _add(seat, Benefit(Kind.SELECT, alternatives=choice))


REVEAL: dict[str, Callable[[State, Seat, EventCard], Seat]] = {
    "gain_rover": _gain_rover,
    "civ_piles_add": _nothing,
    "civ_piles_remove": _nothing,
    "draw_objective": _draw_objective,
    "advance": _advance,
    "rotate_station": _rotate,
    "patch": _patch,
    "synergy": _synergy,
    "collect": _collect,
    "regress": _regress,
    "meteorite": _meteorite,
    "restriction": _nothing,
    "discard_objective": _discard_objective,
    "destroy": _destroy,
    "empty_stack": _empty_stack,
    "synergy_or_peek": _synergy_or_peek,
}
"""Per effect name: what revealing the card does to one seat (automatic changes and benefits to resolve)."""

CHANGES_CIV_PILES = frozenset({"civ_piles_add", "civ_piles_remove"})


def changes_piles(card_id: int) -> bool:
    """Whether revealing the card adds or removes civ cards (an automatic, secret change)."""
    return event_cards()[card_id].effect in CHANGES_CIV_PILES


def reveal(state: State, seat: Seat) -> Seat:
    """The seat once this round's card has been revealed."""
    card = card_of(state)
    assert card is not None
    return REVEAL[card.effect](state, seat, card)


def changed_piles(state: State) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Events 66/112: one card of each rank added from the set-aside cards or removed from the pile, at random."""
    card = card_of(state)
    assert card is not None
    roll = state.event_roll
    piles = [list(p) for p in state.civ_piles]
    aside = list(state.civ_aside)
    for rank, pile in enumerate(piles, start=1):
        if card.effect == "civ_piles_add":
            choices = [c for c in aside if civ_cards()[c].rank == rank]
            if choices:
                chosen = choices[(roll + rank) % len(choices)]
                aside.remove(chosen)
                pile.append(chosen)
        elif pile:
            chosen = pile[(roll + rank) % len(pile)]
            pile.remove(chosen)
            aside.append(chosen)
    return tuple(tuple(p) for p in piles), tuple(aside)


# --- Round restrictions --------------------------------------------------------


def _restriction(state: State) -> EventCard | None:
    card = card_of(state)
    return card if card is not None and card.effect == "restriction" else None


def _rule(state: State) -> str | None:
    card = _restriction(state)
    return str(card.params["rule"]) if card is not None else None


TileRule = Callable[[Seat, int, int, int, bool, int], bool]
"""``(seat, tile, anchor, rotation, flip, mask) -> allowed``."""


def _off_edge(seat: Seat, tile: int, anchor: int, rotation: int, flip: bool, mask: int) -> bool:
    return not mask & planets()[seat.planet].edge_mask


@functools.cache
def _ice_mask(planet: str) -> int:
    return sum(1 << s for s in planets()[planet].ice)


def _off_ice(seat: Seat, tile: int, anchor: int, rotation: int, flip: bool, mask: int) -> bool:
    return not mask & _ice_mask(seat.planet)


def _no_matching_neighbour(seat: Seat, tile: int, anchor: int, rotation: int, flip: bool, mask: int) -> bool:
    cells = footprint(tile, anchor, rotation, flip)
    assert cells is not None
    for square, cell in cells.items():
        for n in neighbours(square):
            letter = seat.cover[n]
            if letter and terrain_of(letter) is cell.terrain:
                return False
    return True


TILE_RULES: dict[str, TileRule] = {
    "no_tile_on_edge": _off_edge,
    "no_tile_on_ice": _off_ice,
    "no_matching_neighbours": _no_matching_neighbour,
}


def tile_rule(state: State) -> TileRule | None:
    """This round's restriction on where tiles go (before relaxing it for a seat it would block)."""
    rule = _rule(state)
    return TILE_RULES.get(rule) if rule is not None else None


def rover_may_enter(state: State, seat: Seat, square: int) -> bool:
    """Whether a rover may step onto ``square`` this round (events 97-102 close one terrain)."""
    card = _restriction(state)
    if card is None or card.params["rule"] != "rovers_cannot_enter":
        return True
    letter = seat.cover[square]
    return not letter or terrain_of(letter) is not Terrain(card.params["terrain"])


def milestones_blocked(state: State) -> bool:
    """Events 109/123: civ cards, patches and rover deployments on track spaces give nothing this round."""
    return _rule(state) == "no_milestone_benefits"


def synergy_blocked(state: State) -> bool:
    """Event 122: no synergy boosts this round (from track spaces and corporation techs; not civ-card
    advances)."""
    return _rule(state) == "no_synergy"


def one_resource_only(state: State) -> bool:
    """Events 104/108: only one of the two resources of the placed tile advances."""
    return _rule(state) == "advance_only_one_resource"


def deploys_on_placed_tile(state: State) -> bool:
    """Event 65: the tile placed this round brings a rover deployment."""
    card = card_of(state)
    return card is not None and card.effect == "gain_rover"
