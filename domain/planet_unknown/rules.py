"""The rules: what each event does to the state, what each move is allowed to do,
and the automatic steps of the round (refills, civ-card slots, end of game).

``evolve`` applies an event without checking it; ``decide`` checks a move and
returns its events followed by every automatic event that comes after it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from domain.contract import (
    Event,
    IllegalMoveError,
    NotYourTurnError,
    rng,
)

from . import event_deck, setup_choice
from . import events as ev
from .board import footprint, grow, mask_of, neighbours, placements, squares_of, terrain_of
from .data import (
    SIZE,
    TRACKS,
    Space,
    Terrain,
    TileSquare,
    civ_cards,
    objectives,
    planets,
    station,
    tiles,
)
from .model import DESTROYED, GARAGE, Benefit, Kind, Phase, Rulings, Seat, Stage, State
from .moves import Action, Move
from .planets import planet_rules
from .powers import CORPORATIONS, STANDARD, corporation

PLANET = "ksb-4156"
SHARED = "shared"
"""``what`` of the ``draw`` benefit of Jump Drive tech F: three objective cards, one kept for everyone."""
SHARED_DRAW = 3
HEIGHT = "height"
"""``source`` of the ``choose`` benefit of Jump Drive tech E: the track whose tracker's height is claimed."""
FLUX = "flux"
"""``source`` of the ``choose`` benefit that names Flux Industries' flux track (no advance)."""
CIV_RAISE_TO = 5
SOLO_OBJECTIVES = 4
PRIVATE_OBJECTIVES_DEALT = 2


# --- Reading the state --------------------------------------------------------


def can_advance(seat: Seat, track: Terrain) -> bool:
    """A tracker below the top can advance; the rover tracker always can."""
    return corporation(seat).can_advance(seat, track)


def depot(state: State, seat: int) -> tuple[int, int]:
    """The (outer, inner) stacks of the depot facing ``seat``."""
    position = station()[2][state.players][seat]
    outer = (position + state.rotation) % 6
    return outer, 6 + (outer + state.offset) % 6


def offered(state: State, seat: int) -> list[int]:
    """The face-up tiles of the depot facing ``seat``."""
    return [state.stacks[k][0] for k in depot(state, seat) if state.stacks[k] and state.revealed[k]]


def contact_mask(state: State, seat: Seat) -> int:
    """The squares a new tile or patch must include: the edge first, then the neighbours of what is
    placed (-1: anywhere, with UC tech 1)."""
    corp = corporation(seat)
    if seat.covered == 0:
        return -1 if corp.ignores_edge(seat, state.options) else planet_rules(seat).first_mask()
    return -1 if corp.ignores_adjacency(seat) else grow(seat.covered)


def _placements(
    state: State, seat_index: int, tile: int, rule: event_deck.TileRule | None
) -> Iterator[tuple[int, int, bool]]:
    seat = state.seats[seat_index]
    covered = seat.covered
    need = contact_mask(state, seat)
    if not corporation(seat).tile_allowed(seat, tile):
        return
    allows = planet_rules(seat).allows_tile
    free = corporation(seat).free_tile(seat, tile)
    for anchor, rotation, flip, mask in placements(tile, planets()[seat.planet].mask):
        if free:
            if not mask & covered:
                yield anchor, rotation, flip
        elif (
            not mask & covered
            and mask & need
            and allows(seat, tile, anchor, rotation, flip, mask)
            and (rule is None or rule(seat, tile, anchor, rotation, flip, mask))
        ):
            yield anchor, rotation, flip


def tile_rule(state: State, seat_index: int) -> event_deck.TileRule | None:
    """This round's event restriction on tiles for the seat: None when there is none, or when it
    would leave the seat with no legal placement of any offered tile (then it is relaxed)."""
    rule = event_deck.tile_rule(state)
    if rule is None:
        return None
    for tile in offered(state, seat_index):
        if next(_placements(state, seat_index, tile, rule), None) is not None:
            return rule
    return None


def tile_placements(state: State, seat_index: int, tile: int) -> Iterator[tuple[int, int, bool]]:
    """Every legal (anchor, rotation, flip) of ``tile`` on the seat's planet, one per distinct picture."""
    yield from _placements(state, seat_index, tile, tile_rule(state, seat_index))


def can_place(state: State, seat_index: int, tile: int) -> bool:
    """Whether ``tile`` fits anywhere on the seat's planet."""
    return next(tile_placements(state, seat_index, tile), None) is not None


def patch_squares(state: State, seat: Seat) -> list[int]:
    """The squares a biomass patch may go on."""
    free = planets()[seat.planet].mask & ~seat.covered
    allows = planet_rules(seat).allows_patch
    on_tiles, on_meteorites = corporation(seat).patch_on_tiles(seat)
    squares = set(squares_of(free & contact_mask(state, seat)))
    if on_tiles:
        squares |= {
            s
            for s, letter in enumerate(seat.cover)
            if letter and letter != "p" and (on_meteorites or s not in seat.meteorites)
        }
    return [s for s in sorted(squares) if allows(seat, s)]


def choice_tracks(seat: Seat, benefit: Benefit) -> list[Terrain]:
    """The tracks a ``choose`` benefit may advance now."""
    allowed = benefit.options or TRACKS
    if benefit.source in (FLUX, HEIGHT):
        return [t for t in TRACKS if t in allowed]
    return [t for t in TRACKS if t in allowed and t not in benefit.chosen and can_advance(seat, t)]


def regress_choice(seat: Seat, benefit: Benefit) -> tuple[list[Terrain], int]:
    """The tracks a ``regress`` benefit may move back now and by how much: the full amount if some
    listed tracker can go back that far, else the largest amount still possible."""
    corp = corporation(seat)
    positions = {t: corp.regress_room(seat, t) for t in benefit.options}
    amount = min(benefit.steps, max(positions.values(), default=0))
    if amount <= 0:
        return [], 0
    return [t for t in TRACKS if t in positions and positions[t] >= amount], amount


def civ_choices(state: State, seat: Seat, benefit: Benefit) -> tuple[int, ...]:
    """The civ cards a ``civ`` benefit may take: its rank's pile (rank 0: every pile), plus what the
    corporation adds (Republic tech 2)."""
    if benefit.rank == 0:
        return tuple(c for pile in state.civ_piles for c in pile)
    extra = corporation(seat).extra_civ_choices(seat, benefit.rank, state.civ_piles)
    return state.civ_piles[benefit.rank - 1] + extra


def empty_symbols(seat: Seat) -> list[int]:
    """The meteor symbols of the seat's tiles that carry no meteorite."""
    return sorted(seat.meteor_symbols - seat.meteorites)


def targets(seat: Seat, benefit: Benefit) -> list[int]:
    """The squares a ``collect`` or ``destroy`` benefit may take its piece from."""
    what = benefit.what or ("lifepod" if benefit.kind is Kind.COLLECT else "meteorite")
    if what == "carried":
        return sorted(r for r in seat.rovers if r >= 0 and r in seat.meteorites and seat.cover[r].lower() == "w")
    if what == "lifepod":
        return sorted(seat.lifepods)
    if what == "meteorite":
        return sorted(seat.meteorites)
    return sorted(r for r in seat.rovers if r >= 0)


def _free_deploy_squares(seat: Seat) -> list[int]:
    if GARAGE not in seat.rovers:
        return []
    taken = set(seat.rovers)
    return [s for s in seat.last_tile if s not in taken]


def possible(state: State, seat_index: int, benefit: Benefit) -> bool:
    """Whether a pending benefit can be used at all (else it is lost)."""
    seat = state.seats[seat_index]
    k = benefit.kind
    if k is Kind.ADVANCE:
        assert benefit.track is not None
        return can_advance(seat, benefit.track)
    if k is Kind.CHOOSE:
        return bool(choice_tracks(seat, benefit))
    if k is Kind.DEPLOY:
        return bool(_free_deploy_squares(seat))
    if k is Kind.PATCH:
        return bool(patch_squares(state, seat))
    if k is Kind.CIV:
        return bool(civ_choices(state, seat, benefit))
    if k in (Kind.COLLECT, Kind.DESTROY):
        return bool(targets(seat, benefit))
    if k is Kind.CLEAR:
        return bool(seat.meteorites)
    if k is Kind.TELEPORT:
        return any(r >= 0 for r in seat.rovers)
    if k is Kind.PLACE:
        return any(can_place(state, seat_index, t) for t in offered(state, seat_index))
    if k is Kind.REGRESS:
        return bool(regress_choice(seat, benefit)[0])
    if k is Kind.SELECT:
        return any(all(possible(state, seat_index, b) for b in alt) for alt in benefit.alternatives)
    if k is Kind.ROTATE:
        return True
    if k is Kind.METEORITE:
        return bool(empty_symbols(seat))
    if k is Kind.DISCARD:
        return bool(seat.private_objectives)
    if k is Kind.EMPTY:
        return any(state.stacks[s] for s in depot(state, seat_index))
    if k is Kind.DRAW:
        return bool(state.objective_deck)
    if k is Kind.PEEK:
        return bool(state.event_deck)
    if k is Kind.LIFEPOD:
        return bool(corporation(seat).lifepod_moves(seat, benefit))
    if k is Kind.KEEP:
        return bool(seat.shared_offer)
    raise AssertionError(k)


def to_act(state: State) -> frozenset[int]:
    """The seats that must act now."""
    if state.phase is Phase.ROTATION:
        return frozenset({state.commander})
    if state.phase in (Phase.DRAFT, Phase.EVENT, Phase.END_GAME):
        return frozenset(i for i, s in enumerate(state.seats) if s.stage in (Stage.CHOOSING, Stage.RESOLVING))
    if state.phase is Phase.INTERLUDE and state.round == 0:
        return frozenset(i for i, s in enumerate(state.seats) if s.objective_offer or _choosing_setup(s))
    if state.phase is Phase.CIV and state.civ_order and state.seats[state.civ_order[0]].stage is Stage.RESOLVING:
        return frozenset({state.civ_order[0]})
    return frozenset()


def _choosing_setup(seat: Seat) -> bool:
    return seat.setup_offer is not None and seat.setup_choice is None


def depot_empty(state: State) -> bool:
    """Whether some depot has run out of both stacks."""
    return any(not state.stacks[k] and not state.stacks[6 + (k + state.offset) % 6] for k in range(6))


# --- Setup --------------------------------------------------------------------


def new_seat(planet: str, corp: str, flux: Terrain | None = None) -> Seat:
    """A seat before its first tile: lifepods on their squares, rovers in the garage, trackers on 0
    (``flux``: Flux Industries' starting flux track, else the corporation's default)."""
    return Seat(
        planet=planet,
        corporation=corp,
        cover=("",) * (SIZE * SIZE),
        covered=0,
        lifepods=planets()[planet].lifepods,
        meteorites=frozenset(),
        rovers=(GARAGE,) * CORPORATIONS[corp].rovers,
        tracks=(0,) * len(TRACKS),
        flux=flux or CORPORATIONS[corp].default_flux,
    )


def initial(players: int, options: dict[str, Any], rulings: Rulings) -> State:
    """Every seat on KSB-4156 with Universal Coalition, or as option ``seat_setup`` fixes, before the deal,
    under ``rulings`` (those of the game's rules version)."""
    if options.get("seat_setup"):
        fixed = setup_choice.parse_seat_setup(options["seat_setup"], players)
        fluxes = setup_choice.seat_setup_flux(options["seat_setup"])
        seats = tuple(new_seat(planet, corp, flux) for (planet, corp), flux in zip(fixed, fluxes, strict=True))
    else:
        seats = (new_seat(PLANET, STANDARD),) * players
    return State(players=players, options=dict(options), seats=seats, rulings=rulings)


def deal(state: State, seed: bytes) -> list[Event]:
    """The setup events: station stacks, ring offset and rotation, civ piles, objectives, commander."""
    inner, outer, _ = station()
    stacks = []
    for index, shape in enumerate(outer + inner):
        stack = [t.id for t in tiles() if t.shape == shape]
        rng(seed, f"station-stack-{index}").shuffle(stack)
        stacks.append(tuple(stack))
    arrange = rng(seed, "station-arrangement")
    offset, rotation = arrange.randrange(6), arrange.randrange(6)
    piles, aside = [], []
    for rank in range(1, 5):
        cards = sorted(c.id for c in civ_cards().values() if c.rank == rank)
        rng(seed, f"civ-pile-{rank}").shuffle(cards)
        piles.append(tuple(cards[: state.players + 1]))
        aside.extend(cards[state.players + 1 :])
    deck = sorted(objectives())
    rng(seed, "objectives").shuffle(deck)
    out: list[Event] = [
        ev.StationLoaded(tuple(stacks)),
        ev.StationArranged(offset, rotation),
        ev.CivPilesDealt(tuple(piles), tuple(aside)),
    ]
    dealt = 0
    if state.players == 1:
        out.append(ev.PrivateObjectivesDealt(0, tuple(deck[:SOLO_OBJECTIVES])))
        dealt = SOLO_OBJECTIVES
    elif state.options.get("private_objectives"):
        for i in range(state.players):
            out.append(ev.PrivateObjectivesDealt(i, tuple(deck[dealt : dealt + PRIVATE_OBJECTIVES_DEALT])))
            dealt += PRIVATE_OBJECTIVES_DEALT
    count = 0 if state.players == 1 else 3 if state.players == 2 else state.players
    out.append(ev.ObjectivesDealt(tuple(deck[dealt : dealt + count])))
    out.append(ev.ObjectiveDeckStacked(tuple(deck[dealt + count :])))  # events 67 and Jump Drive tech F
    if events_on(state):
        mix_option = state.options.get("event_mix")
        if isinstance(mix_option, dict) and mix_option:
            mix = (int(mix_option["green"]), int(mix_option["orange"]), int(mix_option["red"]))
        else:
            mix = event_deck.random_mix(seed, state.players)
        deck_cards, rolls = event_deck.build(seed, state.players, mix)
        out += [ev.EventDeckMixed(*mix), ev.EventDeckShuffled(deck_cards, rolls)]
    for i, (planet, corp) in enumerate(setup_choice.dealt(state.options, state.players, seed) or ()):
        out.append(ev.SetupDealt(i, planet, corp))
    out.append(ev.CommanderChosen(rng(seed, "commander").randrange(state.players)))
    return out


def events_on(state: State) -> bool:
    """Whether the game uses the event deck (option ``events``)."""
    events = state.options.get("events")
    return state.players == 1 if events is None else bool(events)


# --- Evolve -------------------------------------------------------------------


def _seat(state: State, index: int, **changes: Any) -> State:
    seats = list(state.seats)
    seats[index] = dataclasses.replace(seats[index], **changes)
    return dataclasses.replace(state, seats=tuple(seats))


def _all_seats(state: State, **changes: Any) -> tuple[Seat, ...]:
    return tuple(dataclasses.replace(s, **changes) for s in state.seats)


def _drop(pending: tuple[Benefit, ...], index: int | None) -> tuple[Benefit, ...]:
    if index is None:
        return pending
    return pending[:index] + pending[index + 1 :]


def _use_one(pending: tuple[Benefit, ...], index: int) -> tuple[Benefit, ...]:
    benefit = pending[index]
    if benefit.count > 1:
        return (*pending[:index], dataclasses.replace(benefit, count=benefit.count - 1), *pending[index + 1 :])
    return _drop(pending, index)


def _cover(seat: Seat, letters: dict[int, str]) -> Seat:
    cover = list(seat.cover)
    for square, letter in letters.items():
        cover[square] = letter
    squares = set(letters)
    rovers = tuple(DESTROYED if r in squares else r for r in seat.rovers)
    return dataclasses.replace(
        seat,
        cover=tuple(cover),
        covered=seat.covered | mask_of(squares),
        lifepods=seat.lifepods - squares,
        rovers=rovers,
    )


def _one_of(gains: list[Benefit]) -> list[Benefit]:
    """Events 104/108 on a tile taken without placing: one of its advances (a ``select`` when they differ)."""
    alternatives = tuple(dict.fromkeys((b,) for b in gains))
    return list(alternatives[0]) if len(alternatives) == 1 else [Benefit(Kind.SELECT, alternatives=alternatives)]


def _take_from_station(state: State, tile: int) -> State:
    stacks = list(state.stacks)
    revealed = list(state.revealed)
    for k, stack in enumerate(stacks):
        if stack and stack[0] == tile:
            stacks[k] = stack[1:]
            revealed[k] = False
            break
    return dataclasses.replace(state, stacks=tuple(stacks), revealed=tuple(revealed))


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
    return tuple(t for t in TRACKS if t in found and corp.energy_may_choose(seat, t))


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


def _placement_benefits(before: Seat, seat: Seat, cells: dict[int, TileSquare]) -> list[tuple[Benefit, ...]]:
    """The advances each resource icon of a just-placed tile gives (water only if a water square is on ice)."""
    planet = planets()[seat.planet]
    corp = corporation(seat)
    out: list[tuple[Benefit, ...]] = []
    for cell in cells.values():
        if not cell.icon or not corp.placement_advances(before, seat, cell.terrain):
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


def _arrive(
    state: State,
    seat: Seat,
    track: Terrain,
    synergy: bool,
    benefits: bool = True,
    lane: Terrain | None = None,
    side: bool = False,
) -> Seat:
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
    return _claim_space(state, seat, track, space, synergy, top_again)


def _claim_space(state: State, seat: Seat, track: Terrain, space: Space, synergy: bool, top_again: bool) -> Seat:
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
            gains.extend(corp.civ_milestone_gains(seat, not event_deck.synergy_blocked(state)))
        gains.extend(corp.arrival_extras(seat, track, space, milestones))
    return dataclasses.replace(seat, pending=seat.pending + tuple(gains), **changes)


def _card_benefits(card_id: int, rulings: Rulings) -> tuple[list[Benefit], int]:
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


def evolve(state: State, event: Event) -> State:
    """Apply one event without validating it."""
    match event:
        case ev.StationLoaded(stacks=stacks):
            return dataclasses.replace(state, stacks=stacks, revealed=(False,) * len(stacks))
        case ev.StationArranged(offset=offset, rotation=rotation):
            return dataclasses.replace(state, offset=offset, rotation=rotation)
        case ev.CivPilesDealt(piles=piles, aside=aside):
            return dataclasses.replace(state, civ_piles=piles, civ_aside=aside)
        case ev.ObjectivesDealt(cards=cards):
            return dataclasses.replace(state, objectives=cards)
        case ev.CommanderChosen(seat=first):
            return dataclasses.replace(state, commander=first, phase=Phase.INTERLUDE)
        case ev.RoundStarted(round=number):
            fresh = {"powers_used": ()} if state.rulings.once_per_round else {}
            return dataclasses.replace(
                state,
                round=number,
                phase=Phase.ROTATION,
                event_card=None,
                drafted=False,
                seats=_all_seats(state, stage=Stage.IDLE, **fresh),
            )
        case ev.StationRotated(rotation=rotation):
            return dataclasses.replace(state, rotation=rotation, phase=Phase.DRAFT)
        case ev.TileRevealed(stack=stack):
            revealed = list(state.revealed)
            revealed[stack] = True
            return dataclasses.replace(state, revealed=tuple(revealed))
        case ev.LastRoundTriggered():
            return dataclasses.replace(state, last_round=True)
        case ev.DraftStarted():
            started = tuple(
                dataclasses.replace(_reset_point(state, s, round_start=True), stage=Stage.CHOOSING) for s in state.seats
            )
            return dataclasses.replace(state, drafted=True, seats=started)
        case ev.TilePlaced(seat=i, tile=tile, anchor=anchor, rotation=rotation, flip=flip, pending=index):
            return _evolve_tile_placed(state, i, tile, anchor, rotation, flip, index)
        case ev.TileTaken(seat=i, tile=tile):
            state = _take_from_station(state, tile)
            seat = state.seats[i]
            resources = tiles()[tile].resources
            if Terrain.ENERGY in resources:
                other = next(t for t in resources if t is not Terrain.ENERGY)
                gains = [Benefit(Kind.ADVANCE, track=other)] * 2
            else:
                gains = [Benefit(Kind.ADVANCE, track=t) for t in resources]
            if state.rulings.one_resource_when_taken and event_deck.one_resource_only(state):
                gains = _one_of(gains)
            return _seat(
                state, i, unplaced=(*seat.unplaced, tile), pending=seat.pending + tuple(gains), stage=Stage.RESOLVING
            )
        case ev.TrackAdvanced(
            seat=i, track=track, pending=index, synergy=synergy, benefits=benefits, lane=lane, side=side
        ):
            seat = state.seats[i]
            if index is not None:
                benefit = seat.pending[index]
                if benefit.kind is Kind.CHOOSE and benefit.count > 1:
                    narrowed = dataclasses.replace(benefit, count=benefit.count - 1, chosen=(*benefit.chosen, track))
                    seat = dataclasses.replace(
                        seat, pending=(*seat.pending[:index], narrowed, *seat.pending[index + 1 :])
                    )
                else:
                    seat = dataclasses.replace(seat, pending=_drop(seat.pending, index))
            return _put(state, i, _arrive(state, seat, track, synergy, benefits, Terrain(lane) if lane else None, side))
        case ev.BenefitLost(seat=i, pending=index):
            seat = state.seats[i]
            benefit = seat.pending[index]
            stored = seat.stored_patches - (1 if benefit.kind is Kind.PATCH and benefit.final else 0)
            return _seat(state, i, pending=_drop(seat.pending, index), stored_patches=stored)
        case ev.RoverDeployed(seat=i, rover=rover, square=square, pending=index):
            seat = state.seats[i]
            rovers = list(seat.rovers)
            rovers[rover] = square
            seat = dataclasses.replace(seat, rovers=tuple(rovers), pending=_drop(seat.pending, index))
            return _put(state, i, corporation(seat).rover_arrives(seat, None, square))
        case ev.RoverMoved(seat=i, rover=rover, square=square) | ev.RoverTeleported(seat=i, rover=rover, square=square):
            seat = state.seats[i]
            rovers = list(seat.rovers)
            start = rovers[rover]
            rovers[rover] = square
            if isinstance(event, ev.RoverMoved):
                cost = corporation(seat).step_cost(seat, square)
                seat = dataclasses.replace(seat, rovers=tuple(rovers), moves=seat.moves - cost)
            else:
                seat = dataclasses.replace(seat, rovers=tuple(rovers), pending=_drop(seat.pending, event.pending))
            return _put(state, i, corporation(seat).rover_arrives(seat, start, square))
        case ev.PatchPlaced(seat=i, square=square, pending=index):
            seat = state.seats[i]
            final = seat.pending[index].final
            seat = dataclasses.replace(
                seat, pending=_drop(seat.pending, index), stored_patches=seat.stored_patches - (1 if final else 0)
            )
            if seat.cover[square] and square in seat.meteorites:
                seat = dataclasses.replace(seat, meteorites=seat.meteorites - {square})
            seat = _cover(seat, {square: "p"})
            return _put(state, i, seat if final else corporation(seat).patch_used(seat))
        case ev.PatchStored(seat=i, pending=index):
            seat = state.seats[i]
            seat = dataclasses.replace(seat, pending=_drop(seat.pending, index), stored_patches=seat.stored_patches + 1)
            return _put(state, i, corporation(seat).patch_used(seat))
        case ev.CivPileShown(seat=i, rank=rank):
            seat = state.seats[i]
            marked = tuple(
                dataclasses.replace(b, shown=True) if b.kind is Kind.CIV and b.rank == rank else b for b in seat.pending
            )
            return _seat(state, i, pending=marked)
        case ev.CivCardTaken(seat=i, rank=rank, card=card, pending=index):
            remaining = list(state.civ_piles)
            remaining[rank - 1] = tuple(c for c in remaining[rank - 1] if c != card)
            state = dataclasses.replace(state, civ_piles=tuple(remaining))
            seat = state.seats[i]
            gains, moves = _card_benefits(card, state.rulings)
            return _seat(
                state,
                i,
                hand=(*seat.hand, card),
                pending=_drop(seat.pending, index) + tuple(gains),
                moves=seat.moves + moves,
            )
        case ev.LifepodCollected(seat=i, square=square, pending=index):
            seat = state.seats[i]
            return _seat(
                state,
                i,
                lifepods=seat.lifepods - {square},
                lifepods_collected=seat.lifepods_collected + 1,
                pending=_use_one(seat.pending, index) + corporation(seat).lifepod_gains(seat),
            )
        case ev.MeteoriteDestroyed(seat=i, square=square, pending=index):
            seat = state.seats[i]
            return _seat(state, i, meteorites=seat.meteorites - {square}, pending=_use_one(seat.pending, index))
        case ev.LineCleared(seat=i, line=line, pending=index):
            seat = state.seats[i]
            kept = frozenset(m for m in seat.meteorites if not _in_line(m, line))
            return _seat(state, i, meteorites=kept, pending=_drop(seat.pending, index))
        case ev.TurnConfirmed(seat=i):
            state = _seat(state, i, stage=Stage.DONE, moves=0, pending=())
            if state.phase is Phase.CIV:
                return dataclasses.replace(state, civ_order=state.civ_order[1:])
            return state
        case ev.CivPhaseStarted(order=order):
            return dataclasses.replace(
                state, phase=Phase.CIV, civ_order=order, seats=_all_seats(state, stage=Stage.IDLE)
            )
        case ev.CivSlotStarted(seat=i):
            seat = _reset_point(state, state.seats[i])
            picks = tuple(Benefit(Kind.CIV, rank=rank) for rank in seat.civ_queue)
            seat = dataclasses.replace(seat, civ_queue=(), pending=seat.pending + picks, stage=Stage.RESOLVING)
            return _put(state, i, seat)
        case ev.RoundEnded(commander=commander):
            return dataclasses.replace(
                state,
                commander=commander,
                phase=Phase.INTERLUDE,
                event_card=None,
                seats=_all_seats(state, stage=Stage.IDLE),
            )
        case ev.CivCardsRevealed(hands=hands):
            return dataclasses.replace(state, shown_hands=hands)
        case ev.EndGameTurnStarted():
            seats = []
            for seat in state.seats:
                seat = _reset_point(state, seat)
                gains = [Benefit(Kind.PATCH, final=True)] * seat.stored_patches
                if not (state.ending and state.rulings.end_game_gains_once):
                    gains.extend(corporation(seat).end_game_gains(seat))
                used = list(seat.end_cards_used)
                for card in seat.hand:
                    if civ_cards()[card].kind == "medals_and_advance" and card not in used:
                        gains.append(Benefit(Kind.CHOOSE, source="end"))
                        used.append(card)
                seats.append(
                    dataclasses.replace(
                        seat,
                        pending=tuple(gains),
                        end_cards_used=tuple(used),
                        stage=Stage.RESOLVING if gains or seat.moves else Stage.DONE,
                    )
                )
            return dataclasses.replace(state, phase=Phase.END_GAME, ending=True, seats=tuple(seats))
        case ev.GameEnded():
            return dataclasses.replace(state, phase=Phase.OVER, seats=_all_seats(state, stage=Stage.IDLE))
        case ev.SeatForfeited(seat=i):
            return dataclasses.replace(state, phase=Phase.OVER, forfeited=i, seats=_all_seats(state, stage=Stage.IDLE))
    return _evolve_modules(state, event)


def _evolve_modules(state: State, event: Event) -> State:
    """The events of the event deck, solo mode and private objectives."""
    match event:
        case ev.PrivateObjectivesDealt(seat=i, cards=cards):
            return _seat(state, i, objective_offer=cards)
        case ev.SetupDealt(seat=i, planet=planet, corporation=corp):
            return _seat(state, i, setup_offer=(planet, corp))
        case ev.SetupChosen(seat=i, planet=planet, corporation=corp, flux=flux):
            return _seat(state, i, setup_choice=(planet, corp), setup_flux=Terrain(flux) if flux else None)
        case ev.SetupRevealed(choices=picked, flux=fluxes):
            seats = []
            for n, (seat, (planet, corp)) in enumerate(zip(state.seats, picked, strict=True)):
                flux = fluxes[n] if n < len(fluxes) else ""
                fresh = new_seat(planet, corp, Terrain(flux) if flux else None)
                seats.append(
                    dataclasses.replace(
                        seat,
                        planet=planet,
                        corporation=corp,
                        lifepods=fresh.lifepods,
                        rovers=fresh.rovers,
                        flux=fresh.flux,
                        setup_offer=None,
                        setup_choice=None,
                        setup_flux=None,
                    )
                )
            return dataclasses.replace(state, seats=tuple(seats))
        case ev.ObjectiveDeckStacked(cards=cards):
            return dataclasses.replace(state, objective_deck=cards)
        case ev.EventDeckMixed(green=green, orange=orange, red=red):
            return dataclasses.replace(state, event_mix=(green, orange, red))
        case ev.EventDeckShuffled(cards=cards, rolls=rolls):
            return dataclasses.replace(state, event_deck=cards, event_rolls=rolls)
        case ev.ObjectiveRejected(seat=i, card=card, pending=index):
            seat = state.seats[i]
            if index is None:
                kept = tuple(c for c in seat.objective_offer if c != card)
                return _seat(state, i, private_objectives=kept, objective_offer=())
            kept = tuple(c for c in seat.private_objectives if c != card)
            return _seat(state, i, private_objectives=kept, pending=_drop(seat.pending, index))
        case ev.ObjectiveDrawn(seat=i, card=card, pending=index):
            seat = state.seats[i]
            state = dataclasses.replace(state, objective_deck=state.objective_deck[1:])
            kept = (*seat.private_objectives, card)
            return _seat(state, i, private_objectives=kept, pending=_drop(seat.pending, index))
        case ev.PrivateObjectivesRevealed(hands=hands):
            return dataclasses.replace(state, shown_objectives=hands)
        case ev.EventRevealed(card=card):
            state = dataclasses.replace(
                state,
                event_card=card,
                event_deck=state.event_deck[1:],
                event_roll=state.event_rolls[0] if state.event_rolls else 0,
                event_rolls=state.event_rolls[1:],
                events_drawn=state.events_drawn + 1,
                phase=Phase.EVENT,
                civ_changes=1 if event_deck.changes_piles(card) else 0,
            )
            seats = []
            for seat in state.seats:
                seat = event_deck.reveal(state, dataclasses.replace(seat, peeked=None))
                seats.append(dataclasses.replace(seat, stage=Stage.RESOLVING if seat.pending else Stage.DONE))
            return dataclasses.replace(state, seats=tuple(seats))
        case ev.CivPilesChanged(piles=piles, aside=aside):
            return dataclasses.replace(state, civ_piles=piles, civ_aside=aside, civ_changes=0)
        case ev.EventResolved():
            return dataclasses.replace(state, phase=Phase.DRAFT, seats=_all_seats(state, stage=Stage.IDLE))
        case ev.TrackRegressed(seat=i, track=track, steps=steps, pending=index):
            seat = state.seats[i]
            positions = list(seat.tracks)
            positions[TRACKS.index(track)] = corporation(seat).regress_to(seat, track, steps)
            return _seat(state, i, tracks=tuple(positions), pending=_drop(seat.pending, index))
        case ev.AlternativePicked(seat=i, pending=index, option=option):
            seat = state.seats[i]
            chosen = seat.pending[index].alternatives[option]
            return _seat(state, i, pending=_drop(seat.pending, index) + chosen)
        case ev.StationTurned(seat=i, rotation=rotation, pending=index):
            state = dataclasses.replace(state, rotation=rotation)
            return _seat(state, i, pending=_drop(state.seats[i].pending, index))
        case ev.MeteoriteLanded(seat=i, square=square, pending=index):
            seat = state.seats[i]
            hit = tuple(DESTROYED if r == square else r for r in seat.rovers)
            landed = seat.meteorites | {square}
            return _seat(state, i, meteorites=landed, rovers=hit, pending=_drop(seat.pending, index))
        case ev.MeteoriteCollected(seat=i, square=square, pending=index):
            seat = state.seats[i]
            return _seat(
                state,
                i,
                meteorites=seat.meteorites - {square},
                meteorites_collected=seat.meteorites_collected + 1,
                pending=_use_one(seat.pending, index) + corporation(seat).meteorite_gains(seat),
            )
        case ev.LifepodMoved(seat=i, origin=origin, target=target, pending=index):
            seat = state.seats[i]
            seat = dataclasses.replace(seat, pending=_use_one(seat.pending, index))
            return _put(state, i, corporation(seat).move_lifepod(seat, origin, target))
        case ev.HeightClaimed(seat=i, height=height, pending=index):
            seat = state.seats[i]
            seat = dataclasses.replace(seat, pending=_drop(seat.pending, index))
            board = corporation(seat)
            for track in TRACKS:
                seat = _claim_space(state, seat, track, board.spaces(track)[height], True, False)
            return _put(state, i, seat)
        case ev.SharedObjectiveDrawn(seat=i, cards=cards, pending=index):
            seat = state.seats[i]
            state = dataclasses.replace(state, objective_deck=state.objective_deck[len(cards) :])
            keep = Benefit(Kind.KEEP)
            return _seat(state, i, shared_offer=cards, pending=(*_drop(seat.pending, index), keep))
        case ev.SharedObjectiveChosen(seat=i, card=card, pending=index):
            seat = state.seats[i]
            state = dataclasses.replace(state, shared_objectives=(*state.shared_objectives, card))
            return _seat(state, i, shared_offer=(), pending=_drop(seat.pending, index))
        case ev.FluxChosen(seat=i, track=track, pending=index):
            seat = state.seats[i]
            return _seat(state, i, flux=track, pending=_drop(seat.pending, index))
        case ev.PowerUsed(seat=i, level=level):
            seat = state.seats[i]
            seat = dataclasses.replace(seat, powers_used=(*seat.powers_used, level))
            return _put(state, i, corporation(seat).use_action(seat, level))
        case ev.RoverDestroyed(seat=i, rover=rover, pending=index):
            seat = state.seats[i]
            rovers = list(seat.rovers)
            rovers[rover] = DESTROYED
            return _seat(state, i, rovers=tuple(rovers), pending=_use_one(seat.pending, index))
        case ev.LifepodDestroyed(seat=i, square=square, pending=index):
            seat = state.seats[i]
            return _seat(state, i, lifepods=seat.lifepods - {square}, pending=_use_one(seat.pending, index))
        case ev.StackEmptied(seat=i, stack=stack, pending=index):
            stacks = list(state.stacks)
            removed = state.removed + stacks[stack]
            stacks[stack] = ()
            revealed = list(state.revealed)
            revealed[stack] = False
            state = dataclasses.replace(state, stacks=tuple(stacks), revealed=tuple(revealed), removed=removed)
            return _seat(state, i, pending=_drop(state.seats[i].pending, index))
        case ev.NextEventPeeked(seat=i, card=card, pending=index):
            return _seat(state, i, peeked=card, pending=_drop(state.seats[i].pending, index))
    raise TypeError(f"unknown event {event!r}")


def _reset_point(state: State, seat: Seat, round_start: bool = False) -> Seat:
    """The seat at one of BGA's reset points (the tile phase, its civ-card slot, the end-game turn): there,
    once-per-round powers are free again and round-start bonuses come. With the ``once_per_round`` ruling
    only the tile phase (``round_start``) gives the bonuses, and the powers are freed when a round starts."""
    corp = corporation(seat)
    if not state.rulings.once_per_round:
        return corp.round_start(seat)
    return corp.round_bonus(seat) if round_start else seat


def _put(state: State, index: int, seat: Seat) -> State:
    seats = list(state.seats)
    seats[index] = seat
    return dataclasses.replace(state, seats=tuple(seats))


def _in_line(square: int, line: int) -> bool:
    return square // SIZE == line if line < SIZE else square % SIZE == line - SIZE


def _evolve_tile_placed(
    state: State, i: int, tile: int, anchor: int, rotation: int, flip: bool, index: int | None
) -> State:
    state = _take_from_station(state, tile)
    seat = state.seats[i]
    cells = footprint(tile, anchor, rotation, flip)
    assert cells is not None
    resources = True
    pending = seat.pending
    if index is not None:
        resources = pending[index].resources
        pending = _drop(pending, index)
    letters = {s: (c.terrain.letter.upper() if c.icon else c.terrain.letter) for s, c in cells.items()}
    symbols = {s for s, c in cells.items() if c.meteor}
    meteor = symbols if corporation(seat).meteor_symbols_land(seat) else set()
    before, seat = seat, _cover(seat, letters)
    groups = _placement_benefits(before, seat, cells) if resources else []
    gains: list[Benefit] = []
    if len(groups) > 1 and event_deck.one_resource_only(state):
        gains.append(Benefit(Kind.SELECT, alternatives=tuple(groups)))
    else:
        gains.extend(b for group in groups for b in group)
    if resources:
        synergy = not event_deck.synergy_blocked(state)
        gains.extend(corporation(seat).placement_extras(seat, cells, planets()[seat.planet].ice, synergy))
    if index is None and event_deck.deploys_on_placed_tile(state):
        gains.append(Benefit(Kind.DEPLOY))
    seat = dataclasses.replace(
        seat,
        meteor_symbols=seat.meteor_symbols | symbols,
        meteorites=seat.meteorites | meteor,
        placed=(*seat.placed, tile),
        last_tile=tuple(sorted(cells)),
        tile_squares=(*seat.tile_squares, tuple(sorted(cells))),
        pending=pending + tuple(gains),
        stage=Stage.RESOLVING,
    )
    return _put(state, i, seat)


# --- Automatic steps ----------------------------------------------------------


def _next_automatic(state: State) -> Event | None:
    phase = state.phase
    if phase in (Phase.SETUP, Phase.OVER):
        return None
    for i in _resolving(state):
        for index, benefit in enumerate(state.seats[i].pending):
            if not possible(state, i, benefit):
                return ev.BenefitLost(i, index)
            if benefit.kind is Kind.CIV and not benefit.shown:
                return ev.CivPileShown(i, benefit.rank, civ_choices(state, state.seats[i], benefit))
            if benefit.kind is Kind.DRAW and benefit.what == SHARED:
                return ev.SharedObjectiveDrawn(i, state.objective_deck[:SHARED_DRAW], index)
            if benefit.kind is Kind.DRAW:
                return ev.ObjectiveDrawn(i, state.objective_deck[0], index)
            if benefit.kind is Kind.PEEK:
                return ev.NextEventPeeked(i, state.event_deck[0], index)
    if phase is Phase.INTERLUDE and state.round == 0:
        if any(_choosing_setup(s) for s in state.seats):
            return None
        if any(s.setup_choice for s in state.seats):
            return ev.SetupRevealed(
                tuple(s.setup_choice or (s.planet, s.corporation) for s in state.seats),
                tuple(str(s.setup_flux or "") for s in state.seats),
            )
        if any(s.objective_offer for s in state.seats):
            return None
    if phase is Phase.EVENT:
        for i in _resolving(state):
            if not state.seats[i].pending and not state.seats[i].moves:
                return ev.TurnConfirmed(i)
        if state.civ_changes:
            piles, aside = event_deck.changed_piles(state)
            return ev.CivPilesChanged(piles, aside)
        if not state.event_deck and not state.last_round:
            return ev.LastRoundTriggered("the last event card was drawn")
        if all(s.stage is Stage.DONE for s in state.seats):
            return _civ_phase_or(state, ev.EventResolved())
        return None
    if phase is Phase.INTERLUDE:
        if refill := _refill(state):
            return refill
        if state.round and (state.last_round or depot_empty(state)):
            return _start_end(state)
        return ev.RoundStarted(state.round + 1)
    if phase is Phase.ROTATION and (
        state.players == 1 or (state.players == 2 and state.options.get("two_player_auto_rotation", True))
    ):
        return ev.StationRotated((state.rotation - 1) % 6, None)
    if phase is Phase.DRAFT:
        stages = {s.stage for s in state.seats}
        if stages == {Stage.IDLE}:
            if state.event_deck and state.event_card is None and not state.drafted:
                return ev.EventRevealed(state.event_deck[0])
            if not state.last_round:
                for i in range(state.players):
                    if not any(can_place(state, i, t) for t in offered(state, i)):
                        return ev.LastRoundTriggered(f"seat {i} cannot place either tile")
            return ev.DraftStarted()
        if stages == {Stage.DONE}:
            if refill := _refill(state):
                return refill
            return _civ_phase_or(state, ev.RoundEnded((state.commander + 1) % state.players))
    if phase is Phase.CIV:
        if state.civ_order:
            first = state.civ_order[0]
            if state.seats[first].stage is Stage.IDLE:
                return ev.CivSlotStarted(first)
            return None
        if refill := _refill(state):
            return refill
        if state.ending:
            return ev.EndGameTurnStarted()
        if not state.drafted:
            return ev.EventResolved()
        return ev.RoundEnded((state.commander + 1) % state.players)
    if phase is Phase.END_GAME and all(s.stage is Stage.DONE for s in state.seats):
        hands = tuple(s.hand for s in state.seats)
        if state.shown_hands != hands:
            return _civ_phase_or(state, ev.CivCardsRevealed(hands))
        kept = tuple(s.private_objectives for s in state.seats)
        if any(kept) and state.shown_objectives != kept:
            return _civ_phase_or(state, ev.PrivateObjectivesRevealed(kept))
        return _civ_phase_or(state, ev.GameEnded())
    return None


def _refill(state: State) -> Event | None:
    """The next hidden top tile to turn face up, if any."""
    for k, stack in enumerate(state.stacks):
        if stack and not state.revealed[k]:
            return ev.TileRevealed(k, stack[0])
    return None


def _start_end(state: State) -> Event:
    hands = tuple(s.hand for s in state.seats)
    if state.shown_hands != hands:
        return ev.CivCardsRevealed(hands)
    return ev.EndGameTurnStarted()


def _civ_phase_or(state: State, otherwise: Event) -> Event:
    order = tuple(
        seat
        for seat in ((state.commander + k) % state.players for k in range(state.players))
        if state.seats[seat].civ_queue
    )
    return ev.CivPhaseStarted(order) if order else otherwise


def _resolving(state: State) -> list[int]:
    return [i for i, s in enumerate(state.seats) if s.stage is Stage.RESOLVING]


def settle(state: State) -> tuple[State, list[Event]]:
    """Apply every automatic event until a player must act or the game is over."""
    out = []
    while (event := _next_automatic(state)) is not None:
        out.append(event)
        state = evolve(state, event)
    return state, out


# --- Decide -------------------------------------------------------------------


def _find(seat: Seat, kind: Kind, **match: Any) -> int:
    for index, benefit in enumerate(seat.pending):
        if benefit.kind is kind and all(getattr(benefit, k) == v for k, v in match.items()):
            return index
    raise IllegalMoveError(f"you have no pending {kind.value} benefit" + (f" for {match}" if match else ""))


def decide(state: State, seat_index: int, move: Move) -> list[Event]:
    """The events of ``move`` by ``seat_index`` (before the automatic ones); raises RuleError."""
    if seat_index not in to_act(state):
        raise NotYourTurnError(f"seat {seat_index} has nothing to do now")
    seat = state.seats[seat_index]
    a = move.action
    if a is Action.SETUP:
        return [_setup(seat_index, seat, move)]
    if _choosing_setup(seat) and not seat.objective_offer:
        raise IllegalMoveError("first choose your planet and corporation (setup <planet> <corporation>)")
    if seat.objective_offer:
        if a is not Action.REJECT:
            raise IllegalMoveError("first reject one of the objective cards you were dealt")
        if move.card not in seat.objective_offer:
            raise IllegalMoveError(f"objective {move.card} is not one of yours ({list(seat.objective_offer)})")
        return [ev.ObjectiveRejected(seat_index, move.card, None)]
    if state.phase is Phase.ROTATION:
        if a is not Action.ROTATE:
            raise IllegalMoveError("the commander must rotate the station first")
        return [ev.StationRotated(move.rotation, seat_index)]
    if seat.stage is Stage.CHOOSING:
        if a is Action.PLACE:
            return [_place(state, seat_index, move, None)]
        if a is Action.TAKE:
            return [_take(state, seat_index, move)]
        if a is Action.POWER:
            return _do_power(state, seat_index, move)
        if a is Action.ROVER and seat.moves > 0:
            return _do_rover(state, seat_index, move)
        raise IllegalMoveError("first choose a tile from your depot and place it")
    handler = _HANDLERS.get(a)
    if handler is None:
        raise IllegalMoveError(f"{a.value} is not possible now")
    return handler(state, seat_index, move)


def _setup(i: int, seat: Seat, move: Move) -> Event:
    if not _choosing_setup(seat):
        raise IllegalMoveError("you have no setup choice to make")
    assert seat.setup_offer is not None and move.planet is not None and move.corporation is not None
    planet = setup_choice.planet_slug(move.planet) or move.planet
    corp = setup_choice.corporation_slug(move.corporation) or move.corporation
    allowed = setup_choice.choices(seat.setup_offer)
    if (planet, corp) not in allowed:
        raise IllegalMoveError("choose one of: " + ", ".join(f"setup {p} {c}" for p, c in allowed))
    if CORPORATIONS[corp].default_flux is None:
        if move.track is not None:
            raise IllegalMoveError(f"{corp} has no flux track to choose")
        return ev.SetupChosen(i, planet, corp)
    if move.track is None or move.track not in TRACKS:
        raise IllegalMoveError(f"name the flux track: setup {planet} {corp} <civ|water|biomass|rover|tech>")
    return ev.SetupChosen(i, planet, corp, str(move.track))


def _place(state: State, i: int, move: Move, pending: int | None) -> Event:
    assert move.tile is not None and move.square is not None
    if move.tile not in offered(state, i):
        raise IllegalMoveError(f"tile {move.tile} is not offered by your depot (it offers {offered(state, i)})")
    cells = footprint(move.tile, move.square, move.rotation, move.flip)
    if cells is None:
        raise IllegalMoveError("the tile would leave the planet")
    seat = state.seats[i]
    if not corporation(seat).tile_allowed(seat, move.tile):
        raise IllegalMoveError("you used tech 1 this turn: take a tile with civ terrain")
    mask = mask_of(cells)
    if mask & ~planets()[seat.planet].mask:
        raise IllegalMoveError("every square of the tile must be on a grid square of the planet")
    if mask & seat.covered:
        raise IllegalMoveError("the tile would overlap a tile or patch")
    if corporation(seat).free_tile(seat, move.tile):
        return ev.TilePlaced(i, move.tile, move.square, move.rotation, move.flip, pending)
    if not mask & contact_mask(state, seat):
        if seat.covered == 0:
            raise IllegalMoveError(f"your first tile must cover {planet_rules(seat).first_squares}")
        raise IllegalMoveError("the tile must touch a tile or patch already on your planet")
    if not planet_rules(seat).allows_tile(seat, move.tile, move.square, move.rotation, move.flip, mask):
        raise IllegalMoveError(f"{planets()[seat.planet].name} forbids that placement")
    rule = tile_rule(state, i)
    if rule is not None and not rule(seat, move.tile, move.square, move.rotation, move.flip, mask):
        card = event_deck.card_of(state)
        assert card is not None
        raise IllegalMoveError(f"this round's event {card.id} forbids that placement ({card.params['rule']})")
    return ev.TilePlaced(i, move.tile, move.square, move.rotation, move.flip, pending)


def _take(state: State, i: int, move: Move) -> Event:
    assert move.tile is not None
    choices = offered(state, i)
    if move.tile not in choices:
        raise IllegalMoveError(f"tile {move.tile} is not offered by your depot (it offers {choices})")
    if any(can_place(state, i, t) for t in choices):
        raise IllegalMoveError("a tile you can place must be placed")
    return ev.TileTaken(i, move.tile)


def _do_place(state: State, i: int, move: Move) -> list[Event]:
    index = _find(state.seats[i], Kind.PLACE)
    return [_place(state, i, move, index)]


def _do_advance(state: State, i: int, move: Move) -> list[Event]:
    index = _find(state.seats[i], Kind.ADVANCE, track=move.track)
    lane, side = _checked_route(state.seats[i], move)
    return [ev.TrackAdvanced(i, _checked_track(move), index, lane=lane, side=side)]


def _checked_route(seat: Seat, move: Move) -> tuple[str, bool]:
    """The lane and sideways flag of an advance (Makeshift), checked against the tracker's routes."""
    if move.lane is None:
        return "", False
    assert move.track is not None
    if (move.lane, move.side) not in corporation(seat).routes(seat, move.track):
        raise IllegalMoveError(f"the {move.track} tracker cannot move onto the {move.lane} track that way")
    return str(move.lane), move.side


def _checked_track(move: Move) -> Terrain:
    assert move.track is not None
    return move.track


def _do_choose(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index = move.index
    assert index is not None
    if not 0 <= index < len(seat.pending) or seat.pending[index].kind is not Kind.CHOOSE:
        raise IllegalMoveError(f"pending benefit {index} is not a track choice")
    benefit = seat.pending[index]
    track = _checked_track(move)
    if track not in choice_tracks(seat, benefit):
        raise IllegalMoveError(f"{track} is not one of the tracks you may choose: {benefit.describe()}")
    if benefit.source == FLUX:
        return [ev.FluxChosen(i, track, index)]
    if benefit.source == HEIGHT:
        return [ev.HeightClaimed(i, seat.track(track), index)]
    lane, side = _checked_route(seat, move)
    out: list[Event] = [ev.TrackAdvanced(i, track, index, benefits=benefit.benefits, lane=lane, side=side)]
    corp = corporation(seat)
    position = corp.next_position(seat, track, seat.track(track))
    for _ in range(benefit.steps - 1):
        if (track is not Terrain.ROVER or not benefit.benefits) and position >= corp.top(track):
            break
        if not corp.can_advance(dataclasses.replace(seat, tracks=_at(seat, track, position)), track):
            break
        position = corp.next_position(seat, track, position)
        out.append(ev.TrackAdvanced(i, track, None, benefits=benefit.benefits))
    return out


def _do_deploy(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index = _find(seat, Kind.DEPLOY)
    if move.square not in _free_deploy_squares(seat):
        raise IllegalMoveError("a rover is deployed on a free square of the last tile you placed")
    return [ev.RoverDeployed(i, seat.rovers.index(GARAGE), move.square, index)]


def _rover_on_planet(seat: Seat, rover: int | None) -> int:
    if rover is None or not 0 <= rover < len(seat.rovers) or seat.rovers[rover] < 0:
        raise IllegalMoveError(f"rover {rover} is not on your planet")
    return rover


def _do_rover(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    rover = _rover_on_planet(seat, move.rover)
    if seat.moves <= 0:
        raise IllegalMoveError("you have no rover movement left")
    assert move.square is not None
    jump = move.square in corporation(seat).rover_jumps(seat, seat.rovers[rover])
    steps = set(neighbours(seat.rovers[rover])) | corporation(seat).rover_steps(seat, seat.rovers[rover])
    if not jump and (move.square not in steps or move.square not in planets()[seat.planet].squares):
        raise IllegalMoveError("a rover steps onto an orthogonally adjacent grid square")
    if move.square in seat.rovers:
        raise IllegalMoveError("another rover is on that square")
    if not corporation(seat).rover_may_enter(seat, seat.rovers[rover], move.square):
        raise IllegalMoveError("a rover carrying a meteorite cannot enter a square with a meteorite")
    if not jump and not planet_rules(seat).rover_may_step(seat, seat.rovers[rover], move.square):
        raise IllegalMoveError(f"{planets()[seat.planet].name} closes that step to rovers")
    if not event_deck.rover_may_enter(state, seat, move.square):
        raise IllegalMoveError("this round's event closes that terrain to rovers")
    return [ev.RoverMoved(i, rover, move.square)]


def _same_terrain(seat: Seat, start: int, end: int) -> bool:
    """Whether two squares are covered by the same terrain (a patch is biomass)."""
    a, b = seat.cover[start], seat.cover[end]
    return bool(a and b) and terrain_of(a) is terrain_of(b)


def _teleport_ok(seat: Seat, benefit: Benefit, start: int, end: int) -> bool:
    """Whether a ``teleport`` benefit may take a rover from ``start`` to ``end`` (Jump Drive tech B,
    ``what`` ``terrain``: a square of the same tile terrain)."""
    return benefit.what != "terrain" or _same_terrain(seat, start, end)


def _do_teleport(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index = _find(seat, Kind.TELEPORT)
    rover = _rover_on_planet(seat, move.rover)
    assert move.square is not None
    if move.square not in planets()[seat.planet].squares or move.square in seat.rovers:
        raise IllegalMoveError("the rover must land on a grid square without a rover")
    if not corporation(seat).rover_may_enter(seat, seat.rovers[rover], move.square):
        raise IllegalMoveError("a rover carrying a meteorite cannot land on a square with a meteorite")
    fits = [
        n
        for n, b in enumerate(seat.pending)
        if b.kind is Kind.TELEPORT and _teleport_ok(seat, b, seat.rovers[rover], move.square)
    ]
    if not fits:
        raise IllegalMoveError("this teleport goes to a square of the same terrain as the rover's")
    index = fits[0]
    return [ev.RoverTeleported(i, rover, move.square, index)]


def _do_patch(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index = _find(seat, Kind.PATCH)
    if move.square not in patch_squares(state, seat):
        raise IllegalMoveError("a patch goes on a free grid square, on the edge first, then next to a tile or patch")
    return [ev.PatchPlaced(i, move.square, index)]


def _do_store(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    if not corporation(seat).may_store_patches(seat):
        raise IllegalMoveError("storing biomass patches needs tech level 2")
    if state.ending:
        raise IllegalMoveError("at the end of the game every patch must be placed")
    return [ev.PatchStored(i, _find(seat, Kind.PATCH, final=False))]


def _do_civ(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    assert move.card is not None
    card = civ_cards().get(move.card)
    if card is None:
        raise IllegalMoveError(f"there is no civ card {move.card}")
    picks = [n for n, b in enumerate(seat.pending) if b.kind is Kind.CIV]
    if not picks:
        raise IllegalMoveError("you have no pending civ card benefit")
    index = next((n for n in picks if move.card in civ_choices(state, seat, seat.pending[n])), None)
    if index is None:
        raise IllegalMoveError(f"civ card {move.card} is not one you may take now")
    out: list[Event] = [ev.CivCardTaken(i, card.rank, card.id, index)]
    if card.kind == "raise_all_trackers_to":
        for track in TRACKS:
            position, corp = seat.track(track), corporation(seat)
            while position < CIV_RAISE_TO and can_advance(
                dataclasses.replace(seat, tracks=_at(seat, track, position)), track
            ):
                out.append(ev.TrackAdvanced(i, track, None, False))
                position = corp.next_position(seat, track, position)
    return out


def _at(seat: Seat, track: Terrain, position: int) -> tuple[int, ...]:
    positions = list(seat.tracks)
    positions[TRACKS.index(track)] = position
    return tuple(positions)


def _target(seat: Seat, kind: Kind, square: int | None) -> tuple[int, Benefit]:
    """The pending ``collect``/``destroy`` benefit that may take the piece on ``square``."""
    found = False
    for index, benefit in enumerate(seat.pending):
        if benefit.kind is kind:
            found = True
            if square in targets(seat, benefit):
                return index, benefit
    if not found:
        raise IllegalMoveError(f"you have no pending {kind.value} benefit")
    raise IllegalMoveError(f"there is nothing you may {kind.value} on that square")


def _do_collect(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index, benefit = _target(seat, Kind.COLLECT, move.square)
    assert move.square is not None
    if benefit.what == "meteorite":
        return [ev.MeteoriteCollected(i, move.square, index)]
    return [ev.LifepodCollected(i, move.square, index)]


def _do_destroy(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index, benefit = _target(seat, Kind.DESTROY, move.square)
    assert move.square is not None
    if benefit.what == "rover":
        return [ev.RoverDestroyed(i, seat.rovers.index(move.square), index)]
    if benefit.what == "lifepod":
        return [ev.LifepodDestroyed(i, move.square, index)]
    return [ev.MeteoriteDestroyed(i, move.square, index)]


def _do_regress(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index = _find(seat, Kind.REGRESS)
    track = _checked_track(move)
    for n, benefit in enumerate(seat.pending):  # the first pending regression that allows the track
        if benefit.kind is Kind.REGRESS and track in regress_choice(seat, benefit)[0]:
            index = n
            break
    tracks, amount = regress_choice(seat, seat.pending[index])
    if track not in tracks:
        raise IllegalMoveError(f"regress one of: {', '.join(t.value for t in tracks)}")
    return [ev.TrackRegressed(i, track, amount, index)]


def _do_pick(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index, option = move.index, move.option
    assert index is not None and option is not None
    if not 0 <= index < len(seat.pending) or seat.pending[index].kind is not Kind.SELECT:
        raise IllegalMoveError(f"pending benefit {index} is not a choice between alternatives")
    if option not in pick_options(state, i, seat.pending[index]):
        raise IllegalMoveError(f"option {option} is not available: {seat.pending[index].describe()}")
    return [ev.AlternativePicked(i, index, option)]


def pick_options(state: State, i: int, benefit: Benefit) -> list[int]:
    """The alternatives of a ``select`` benefit that can be used now."""
    return [n for n, alt in enumerate(benefit.alternatives) if all(possible(state, i, b) for b in alt)]


def _do_rotate(state: State, i: int, move: Move) -> list[Event]:
    return [ev.StationTurned(i, move.rotation, _find(state.seats[i], Kind.ROTATE))]


def _do_meteorite(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index = _find(seat, Kind.METEORITE)
    if move.square not in empty_symbols(seat):
        raise IllegalMoveError("a meteorite goes on a meteor symbol of your tiles that has none")
    assert move.square is not None
    return [ev.MeteoriteLanded(i, move.square, index)]


def _do_reject(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index = _find(seat, Kind.DISCARD)
    if move.card not in seat.private_objectives:
        raise IllegalMoveError(f"objective {move.card} is not one of yours ({list(seat.private_objectives)})")
    assert move.card is not None
    return [ev.ObjectiveRejected(i, move.card, index)]


def _do_empty(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index = _find(seat, Kind.EMPTY)
    if move.stack not in depot(state, i) or not state.stacks[move.stack]:
        raise IllegalMoveError(f"empty one of the stacks of your depot that still holds tiles: {depot(state, i)}")
    assert move.stack is not None
    return [ev.StackEmptied(i, move.stack, index)]


def _do_clear(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index = _find(seat, Kind.CLEAR)
    assert move.line is not None
    if not any(_in_line(m, move.line) for m in seat.meteorites):
        raise IllegalMoveError("there is no meteorite in that line")
    return [ev.LineCleared(i, move.line, index)]


def _do_confirm(state: State, i: int, move: Move) -> list[Event]:
    left = [b.describe() for b in state.seats[i].pending if not b.optional]
    if left:
        raise IllegalMoveError("resolve these first: " + ", ".join(left))
    return [ev.TurnConfirmed(i)]


def power_levels(state: State, i: int) -> tuple[int, ...]:
    """The tech powers seat ``i`` may use now as ``power`` moves."""
    seat = state.seats[i]
    corp = corporation(seat)
    placeable: tuple[int, ...] = ()
    if seat.stage is Stage.CHOOSING:
        if not corp.acts_while_choosing:
            return ()
        placeable = tuple(t for t in offered(state, i) if can_place(state, i, t))
    levels = corp.actions(seat, placeable)
    if state.rulings.synergy_powers_blocked and event_deck.synergy_blocked(state):
        return tuple(level for level in levels if level not in corp.synergy_powers)
    return levels


def _do_lifepod(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    assert move.origin is not None and move.target is not None
    for index, benefit in enumerate(seat.pending):
        if benefit.kind is Kind.LIFEPOD and (move.origin, move.target) in corporation(seat).lifepod_moves(
            seat, benefit
        ):
            return [ev.LifepodMoved(i, move.origin, move.target, index)]
    raise IllegalMoveError("no pending lifepod move allows that (lifepod <area|track+position> <area|track+position>)")


def _do_keep(state: State, i: int, move: Move) -> list[Event]:
    seat = state.seats[i]
    index = _find(seat, Kind.KEEP)
    if move.card not in seat.shared_offer:
        raise IllegalMoveError("keep one of the objective cards you drew: " + ", ".join(map(str, seat.shared_offer)))
    assert move.card is not None
    return [ev.SharedObjectiveChosen(i, move.card, index)]


def _do_power(state: State, i: int, move: Move) -> list[Event]:
    if move.level not in power_levels(state, i):
        raise IllegalMoveError(f"tech {move.level} is not a power you may use now (once per round, once unlocked)")
    return [ev.PowerUsed(i, move.level)]


def _not_now(state: State, i: int, move: Move) -> list[Event]:
    raise IllegalMoveError(f"{move.action.value} is only possible when choosing your tile")


_HANDLERS = {
    Action.PLACE: _do_place,
    Action.TAKE: _not_now,
    Action.ADVANCE: _do_advance,
    Action.CHOOSE: _do_choose,
    Action.DEPLOY: _do_deploy,
    Action.ROVER: _do_rover,
    Action.TELEPORT: _do_teleport,
    Action.PATCH: _do_patch,
    Action.STORE: _do_store,
    Action.CIV: _do_civ,
    Action.COLLECT: _do_collect,
    Action.DESTROY: _do_destroy,
    Action.CLEAR: _do_clear,
    Action.CONFIRM: _do_confirm,
    Action.REGRESS: _do_regress,
    Action.PICK: _do_pick,
    Action.ROTATE: _do_rotate,
    Action.METEORITE: _do_meteorite,
    Action.REJECT: _do_reject,
    Action.EMPTY: _do_empty,
    Action.POWER: _do_power,
    Action.LIFEPOD: _do_lifepod,
    Action.KEEP: _do_keep,
}


# --- Legal moves --------------------------------------------------------------


def _rover_moves(state: State, seat: Seat) -> Iterator[Move]:
    if seat.moves <= 0:
        return
    grid = planets()[seat.planet].squares
    corp = corporation(seat)
    for rover, at in enumerate(seat.rovers):
        if at < 0:
            continue
        jumps = corp.rover_jumps(seat, at)
        for n in sorted(set(neighbours(at)) | corp.rover_steps(seat, at) | jumps):
            if (
                n in grid
                and n not in seat.rovers
                and event_deck.rover_may_enter(state, seat, n)
                and (n in jumps or planet_rules(seat).rover_may_step(seat, at, n))
                and corp.rover_may_enter(seat, at, n)
            ):
                yield Move(Action.ROVER, rover=rover, square=n)


def legal_moves(state: State, i: int) -> Iterator[Move]:
    """Every move seat ``i`` may make now."""
    if i not in to_act(state):
        return
    seat = state.seats[i]
    if _choosing_setup(seat):
        assert seat.setup_offer is not None
        for planet, corp in setup_choice.choices(seat.setup_offer):
            if CORPORATIONS[corp].default_flux is None:
                yield Move(Action.SETUP, planet=planet, corporation=corp)
            else:
                yield from (Move(Action.SETUP, planet=planet, corporation=corp, track=t) for t in TRACKS)
    if seat.objective_offer:
        yield from (Move(Action.REJECT, card=c) for c in seat.objective_offer)
        return
    if _choosing_setup(seat):
        return
    if state.phase is Phase.ROTATION:
        yield from (Move(Action.ROTATE, rotation=r) for r in range(6))
        return
    if seat.stage is Stage.CHOOSING:
        found = False
        for tile in offered(state, i):
            for anchor, rotation, flip in tile_placements(state, i, tile):
                found = True
                yield Move(Action.PLACE, tile=tile, square=anchor, rotation=rotation, flip=flip)
        if not found:
            yield from (Move(Action.TAKE, tile=t) for t in offered(state, i))
        yield from (Move(Action.POWER, level=level) for level in power_levels(state, i))
        yield from _rover_moves(state, seat)
        return
    seen: set[tuple[Kind, Any]] = set()
    for index, b in enumerate(seat.pending):
        k = b.kind
        key = (
            k,
            b.track
            if k is Kind.ADVANCE
            else index
            if k in (Kind.CHOOSE, Kind.SELECT, Kind.REGRESS, Kind.LIFEPOD)
            else b.rank
            if k is Kind.CIV
            else b.what,
        )
        if key in seen:
            continue
        seen.add(key)
        if k is Kind.ADVANCE:
            assert b.track is not None
            for lane, side in corporation(seat).routes(seat, b.track):
                yield Move(Action.ADVANCE, track=b.track, lane=lane, side=side)
        elif k is Kind.CHOOSE:
            for t in choice_tracks(seat, b):
                routes = corporation(seat).routes(seat, t) if b.source not in (FLUX, HEIGHT) else [(None, False)]
                yield from (Move(Action.CHOOSE, index=index, track=t, lane=lane, side=side) for lane, side in routes)
        elif k is Kind.DEPLOY:
            yield from (Move(Action.DEPLOY, square=s) for s in _free_deploy_squares(seat))
        elif k is Kind.PATCH:
            yield from (Move(Action.PATCH, square=s) for s in patch_squares(state, seat))
            may_store = not b.final and not state.ending and corporation(seat).may_store_patches(seat)
            if may_store and (Kind.PATCH, "store") not in seen:
                seen.add((Kind.PATCH, "store"))
                yield Move(Action.STORE)
        elif k is Kind.CIV:
            yield from (Move(Action.CIV, card=c) for c in civ_choices(state, seat, b))
        elif k is Kind.KEEP:
            yield from (Move(Action.KEEP, card=c) for c in seat.shared_offer)
        elif k is Kind.LIFEPOD:
            for origin, target in corporation(seat).lifepod_moves(seat, b):
                if (Kind.LIFEPOD, f"{origin} {target}") not in seen:
                    seen.add((Kind.LIFEPOD, f"{origin} {target}"))
                    yield Move(Action.LIFEPOD, origin=origin, target=target)
        elif k in (Kind.COLLECT, Kind.DESTROY):
            action = Action.COLLECT if k is Kind.COLLECT else Action.DESTROY
            yield from (Move(action, square=s) for s in targets(seat, b))
        elif k is Kind.CLEAR:
            lines = sorted({m // SIZE for m in seat.meteorites} | {SIZE + m % SIZE for m in seat.meteorites})
            yield from (Move(Action.CLEAR, line=line) for line in lines)
        elif k is Kind.TELEPORT:
            squares = sorted(planets()[seat.planet].squares - set(seat.rovers))
            board = corporation(seat)
            for rover, at in enumerate(seat.rovers):
                if at >= 0:
                    yield from (
                        Move(Action.TELEPORT, rover=rover, square=s)
                        for s in squares
                        if board.rover_may_enter(seat, at, s) and _teleport_ok(seat, b, at, s)
                    )
        elif k is Kind.PLACE:
            for tile in offered(state, i):
                for anchor, rotation, flip in tile_placements(state, i, tile):
                    yield Move(Action.PLACE, tile=tile, square=anchor, rotation=rotation, flip=flip)
        elif k is Kind.REGRESS:
            yield from (Move(Action.REGRESS, track=t) for t in regress_choice(seat, b)[0])
        elif k is Kind.SELECT:
            yield from (Move(Action.PICK, index=index, option=n) for n in pick_options(state, i, b))
        elif k is Kind.ROTATE:
            yield from (Move(Action.ROTATE, rotation=r) for r in range(6))
        elif k is Kind.METEORITE:
            yield from (Move(Action.METEORITE, square=s) for s in empty_symbols(seat))
        elif k is Kind.DISCARD:
            yield from (Move(Action.REJECT, card=c) for c in seat.private_objectives)
        elif k is Kind.EMPTY:
            yield from (Move(Action.EMPTY, stack=s) for s in depot(state, i) if state.stacks[s])
    yield from _rover_moves(state, seat)
    yield from (Move(Action.POWER, level=level) for level in power_levels(state, i))
    if all(b.optional for b in seat.pending):
        yield Move(Action.CONFIRM)
