"""What the rules hand out: the advances a placed tile's icons give, what a tracker claims on the
space it reaches, and what an immediate civ card gives, as pending benefits (recorded in the events by
:mod:`.outcomes`)."""

from __future__ import annotations

import dataclasses
from typing import Any

from . import event_deck
from .board import neighbours, terrain_of
from .data import TRACKS, Space, Terrain, TileSquare, civ_cards, planets
from .model import Benefit, Kind, Phase, Rulings, Seat, State
from .planets import planet_rules
from .powers import corporation


def one_of(gains: list[Benefit]) -> list[Benefit]:
    """Events 104/108 on a tile taken without placing: one of its advances (a ``select`` when they differ)."""
    alternatives = tuple(dict.fromkeys((b,) for b in gains))
    return list(alternatives[0]) if len(alternatives) == 1 else [Benefit(Kind.SELECT, alternatives=alternatives)]


def energy_options(seat: Seat, squares: list[int]) -> tuple[Terrain, ...]:
    """The tracks an energy icon may advance: terrains next to the energy area holding ``squares``."""
    currents = planet_rules(seat).currents(seat)

    def energy(square: int) -> bool:
        return seat.cover[square].lower() == "e" if seat.cover[square] else square in currents

    area = set()
    frontier = [s for s in squares if seat.cover[s] and energy(s)]
    while frontier:
        square = frontier.pop()
        if square in area:
            continue
        area.add(square)
        frontier.extend(n for n in neighbours(square) if energy(n) and n not in area)
    found = set()
    for square in area:
        for n in neighbours(square):
            letter = seat.cover[n]
            if letter and letter.lower() != "e":
                found.add(terrain_of(letter))
    corp = corporation(seat)
    return tuple(t for t in TRACKS if t in found and corp.icon_advances(seat, seat, Terrain.ENERGY, t))


def tech_energy_options(seat: Seat, squares: list[int]) -> tuple[Terrain, ...]:
    """Jump Drive tech D: the tracks a placed tech icon may advance instead of tech: terrains next to
    the tile's tech squares and the energy reached from them; tech itself only when the tile has two
    or more tech squares or they touch other tech terrain (BGA)."""
    area, frontier = set(), list(squares)
    while frontier:
        square = frontier.pop()
        if square in area:
            continue
        area.add(square)
        frontier.extend(n for n in neighbours(square) if seat.cover[n].lower() == "e" and n not in area)
    found = {Terrain.TECH} if len(squares) > 1 else set()
    for square in area:
        for n in neighbours(square):
            letter = seat.cover[n]
            if letter and letter.lower() != "e" and n not in area:
                found.add(terrain_of(letter))
    return tuple(t for t in TRACKS if t in found)


def placement_benefits(before: Seat, seat: Seat, cells: dict[int, TileSquare]) -> list[tuple[Benefit, ...]]:
    """The advances each resource icon of a just-placed tile gives (water only if a water square is on ice)."""
    planet = planets()[seat.planet]
    corp = corporation(seat)
    out: list[tuple[Benefit, ...]] = []
    for cell in cells.values():
        if not cell.icon or not corp.icon_advances(before, seat, cell.terrain, cell.terrain):
            continue
        if cell.terrain is Terrain.ENERGY:
            if options := energy_options(seat, list(cells)):
                out.append((Benefit(Kind.CHOOSE, options=options, source="energy"),))
        elif cell.terrain is Terrain.TECH and corp.tech_as_energy(seat):
            tech = [s for s, c in cells.items() if c.terrain is Terrain.TECH]
            if options := tech_energy_options(seat, tech):
                out.append((Benefit(Kind.CHOOSE, options=options, source="energy"),))
        elif cell.terrain is Terrain.WATER:
            if count := corp.water_count(seat, cells, planet.ice):
                out.append((Benefit(Kind.ADVANCE, track=Terrain.WATER),) * count)
        else:
            out.append((Benefit(Kind.ADVANCE, track=cell.terrain), *corp.icon_extras(seat, cell.terrain)))
    return out


def arrive(
    state: State,
    seat: Seat,
    track: Terrain,
    synergy: bool,
    benefits: bool = True,
    lane: Terrain | None = None,
    side: bool = False,
) -> Seat:
    """The seat after its tracker of ``track`` advances one space (first onto ``lane``, Makeshift) and
    claims what the space gives (nothing without ``benefits``; synergies only with ``synergy``)."""
    corp = corporation(seat)
    if lane is not None:
        moved = corp.enter_lane(seat, track, lane, side)
        if not corp.can_advance(moved, track):
            return seat
        seat = moved
    position = seat.track(track)
    top_again = position >= corp.top(track)
    if (top_again and (track is not Terrain.ROVER or not benefits)) or not corp.can_advance(seat, track):
        return seat
    new_position = corp.next_position(seat, track, position)
    space = corp.space_at(seat, track, new_position)
    positions = list(seat.tracks)
    positions[TRACKS.index(track)] = new_position
    seat = dataclasses.replace(seat, tracks=tuple(positions))
    if not benefits:
        return seat
    milestones = not event_deck.milestones_blocked(state)
    boost = synergy and not event_deck.synergy_blocked(state)
    custom = None if top_again else corp.arrival_gains(seat, track, new_position, milestones, boost)
    if custom is not None:
        return dataclasses.replace(seat, pending=seat.pending + custom)
    return claim_space(state, seat, track, space, synergy, top_again)


def claim_space(state: State, seat: Seat, track: Terrain, space: Space, synergy: bool, top_again: bool) -> Seat:
    """The seat after claiming what ``space`` of ``track`` gives (only its rover movement when ``top_again``)."""
    corp = corporation(seat)
    gains: list[Benefit] = []
    changes: dict[str, Any] = {}
    milestones = not event_deck.milestones_blocked(state)
    if space.rover_moves:
        changes["moves"] = seat.moves + space.rover_moves + corp.rover_bonus(seat)
    if not top_again:
        if synergy and not event_deck.synergy_blocked(state):
            gains.extend([Benefit(Kind.CHOOSE, source="synergy")] * space.synergy)
        if space.patch and milestones:
            gains.append(Benefit(Kind.PATCH))
        if space.rover and milestones:
            gains.append(Benefit(Kind.DEPLOY))
        if space.civ_rank and milestones:
            if state.phase is Phase.CIV:
                gains.append(Benefit(Kind.CIV, rank=space.civ_rank))
            else:
                changes["civ_queue"] = (*seat.civ_queue, space.civ_rank)
        gains.extend(corp.arrival_extras(seat, track, space, milestones, not event_deck.synergy_blocked(state)))
    return dataclasses.replace(seat, pending=seat.pending + tuple(gains), **changes)


def card_benefits(card_id: int, rulings: Rulings) -> tuple[list[Benefit], int]:
    """The pending benefits and rover movement an immediate civ card gives."""
    card = civ_cards()[card_id]
    if card.end_game:
        return [], 0
    e = card.effect
    kind = card.kind
    if kind == "advance_trackers":
        return [Benefit(Kind.CHOOSE, count=e["distinct_trackers"], steps=e["steps_each"], source="card")], 0
    if kind == "gain_biomass_patches":
        return [Benefit(Kind.PATCH)] * e["count"], 0
    if kind == "rover_movement":
        return [], int(e["amount"])
    if kind == "place_tile_from_depot":
        return [Benefit(Kind.PLACE, resources=bool(e["advance_trackers"]))], 0
    if kind == "collect":
        if rulings.exact_collections:
            return [Benefit(Kind.COLLECT, count=e["count"], what=str(e["what"]), forced=True)], 0
        return [Benefit(Kind.COLLECT, count=e["count"])], 0
    if kind == "destroy":
        return [Benefit(Kind.DESTROY, count=e["count"])], 0
    if kind == "destroy_meteorites_in_line":
        return [Benefit(Kind.CLEAR)], 0
    if kind == "teleport_rover":
        return [Benefit(Kind.TELEPORT)], 0
    if kind == "raise_all_trackers_to":
        return [], 0
    raise AssertionError(f"civ card {card_id} has an unknown effect {kind!r}")
