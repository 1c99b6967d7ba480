"""Reading the state: the depot a seat faces, where its tiles fit, who must act.

Nothing here changes the state; the benefit kinds, the decisions and the automatic flow all read
through these.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import event_deck
from .board import grow, placements
from .data import Terrain, planets, station
from .model import Phase, Seat, Stage, State
from .planets import planet_rules
from .powers import TilePlacement, corporation


def can_advance(seat: Seat, track: Terrain) -> bool:
    """A tracker below the top can advance; the rover tracker always can."""
    return corporation(seat).can_advance(seat, track)


def depot(state: State, seat: int) -> tuple[int, int]:
    """The (outer, inner) stacks of the depot facing ``seat``."""
    return depot_stacks(station()[2][state.players][seat] + state.rotation, state.offset)


def depot_stacks(outer: int, offset: int) -> tuple[int, int]:
    """The (outer, inner) stacks of the depot whose outer stack is ``outer`` (taken modulo 6), with the
    inner ring turned by ``offset``."""
    outer %= 6
    return outer, 6 + (outer + offset) % 6


def station_turns_itself(state: State) -> bool:
    """Whether the station turns one step at the start of each round without a commander: solo, and 2
    players with the automatic rotation."""
    return state.players == 1 or (state.players == 2 and bool(state.options.get("two_player_auto_rotation", True)))


def offered(state: State, seat: int) -> list[int]:
    """The face-up tiles of the depot facing ``seat``."""
    return [state.stacks[k][0] for k in depot(state, seat) if state.stacks[k] and state.revealed[k]]


def depot_empty(state: State) -> bool:
    """Whether some depot has run out of both stacks."""
    return any(not any(state.stacks[s] for s in depot_stacks(k, state.offset)) for k in range(6))


def contact_mask(state: State, seat: Seat) -> int:
    """The squares a new tile or patch must include: the edge first, then the neighbours of what is
    placed (-1: anywhere, with UC tech 1)."""
    corp = corporation(seat)
    if seat.covered == 0:
        return -1 if corp.contact_waived(seat, True, state.options) else planet_rules(seat).first_mask()
    return -1 if corp.contact_waived(seat, False, state.options) else grow(seat.covered)


def _placements(
    state: State, seat_index: int, tile: int, rule: event_deck.TileRule | None
) -> Iterator[tuple[int, int, bool]]:
    seat = state.seats[seat_index]
    covered = seat.covered
    need = contact_mask(state, seat)
    placing = corporation(seat).tile_placement(seat, tile)
    if placing is TilePlacement.REFUSED:
        return
    allows = planet_rules(seat).allows_tile
    free = placing is TilePlacement.FREE
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


def choosing_setup(seat: Seat) -> bool:
    """Whether the seat still has to choose its planet and corporation before round 1."""
    return seat.setup_offer is not None and seat.setup_choice is None


def to_act(state: State) -> frozenset[int]:
    """The seats that must act now."""
    if state.phase is Phase.ROTATION:
        return frozenset({state.commander})
    if state.phase in (Phase.DRAFT, Phase.EVENT, Phase.END_GAME):
        return frozenset(i for i, s in enumerate(state.seats) if s.stage in (Stage.CHOOSING, Stage.RESOLVING))
    if state.phase is Phase.INTERLUDE and state.round == 0:
        return frozenset(i for i, s in enumerate(state.seats) if s.objective_offer or choosing_setup(s))
    if state.phase is Phase.CIV and state.civ_order and state.seats[state.civ_order[0]].stage is Stage.RESOLVING:
        return frozenset({state.civ_order[0]})
    return frozenset()


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
