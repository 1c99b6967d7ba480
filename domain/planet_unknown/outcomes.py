"""What the rules decide an event brings, recorded in the event before it is stored.

:func:`record` fills an event's outcome fields (:mod:`.events`) from the state before it: the benefits a
placed tile, a tracker's space, a civ card or an event card gives, where a tracker lands, what a rover
collects, what a corporation's power does. The decide side (:func:`.turn.play`, :func:`.flow.settle`)
records every event it makes, so that the fold (:func:`.fold.evolve`) only copies what the events hold;
:func:`.upcast.upcast` records the events of games stored without outcomes the same way.
"""

from __future__ import annotations

import dataclasses

from domain.contract import Event

from . import edits, event_deck
from . import events as ev
from .benefits.clear import in_line
from .board import footprint
from .corporation_state import CorporationState, public
from .data import TRACKS, Terrain, civ_cards, planets, tiles
from .gains import arrive, card_benefits, claim_space, one_of, placement_benefits
from .model import Benefit, Kind, Seat, State
from .powers import Piece, corporation
from .setup import new_seat


def record(state: State, event: Event) -> Event:
    """``event`` with its outcome fields filled from ``state``, the state before it (an event without
    outcome fields as it is)."""
    match event:
        case ev.RoundStarted():
            return dataclasses.replace(event, powers_freed=state.rulings.once_per_round)
        case ev.DraftStarted():
            return _draft_started(state, event)
        case ev.TilePlaced():
            return _tile_placed(state, event)
        case ev.TileTaken():
            return _tile_taken(state, event)
        case ev.TrackAdvanced():
            return _track_advanced(state, event)
        case ev.RoverDeployed() | ev.RoverMoved() | ev.RoverTeleported():
            return _rover_arrived(state, event)
        case ev.PatchPlaced() | ev.PatchStored():
            return _patch_used(state, event)
        case ev.CivCardTaken(card=card):
            gains, moves = card_benefits(card, state.rulings)
            return dataclasses.replace(event, gains=tuple(gains), moves=moves)
        case ev.LifepodCollected(seat=i) | ev.MeteoriteCollected(seat=i):
            piece = Piece.LIFEPOD if isinstance(event, ev.LifepodCollected) else Piece.METEORITE
            return dataclasses.replace(event, gains=corporation(state.seats[i]).collection_gains(state.seats[i], piece))
        case ev.LineCleared(seat=i, line=line):
            destroyed = frozenset(m for m in state.seats[i].meteorites if in_line(m, line))
            return dataclasses.replace(event, destroyed=destroyed)
        case ev.CivSlotStarted():
            return _civ_slot_started(state, event)
        case ev.EndGameTurnStarted():
            return _end_game_turn_started(state, event)
        case ev.SetupRevealed():
            return _setup_revealed(state, event)
        case ev.EventRevealed():
            return _event_revealed(state, event)
        case ev.TrackRegressed(seat=i, track=track, steps=steps):
            seat = state.seats[i]
            return dataclasses.replace(event, position=corporation(seat).regress_to(seat, track, steps))
        case ev.HeightClaimed():
            return _height_claimed(state, event)
        case ev.LifepodMoved():
            return _lifepod_moved(state, event)
        case ev.PowerUsed():
            return _power_used(state, event)
    return event


def state_change(before: Seat, after: Seat) -> CorporationState | None:
    """The corporation state a hook left, as every seat may see it; None when the hook did not change it."""
    return None if after.corporation_state == before.corporation_state else public(after.corporation_state)


def _added(before: tuple[Benefit, ...], after: tuple[Benefit, ...]) -> tuple[Benefit, ...]:
    """The benefits a rule appended to ``before``."""
    assert after[: len(before)] == before, "a rule changed pending benefits it should only add to"
    return after[len(before) :]


def reset_point(state: State, seat: Seat, round_start: bool = False) -> Seat:
    """The seat at one of BGA's reset points (the tile phase, its civ-card slot, the end-game turn): there,
    once-per-round powers are free again and round-start bonuses come. With the ``once_per_round`` ruling
    only the tile phase (``round_start``) gives the bonuses, and the powers are freed when a round starts."""
    corp = corporation(seat)
    if not state.rulings.once_per_round:
        return corp.round_start(seat)
    return corp.round_bonus(seat) if round_start else seat


def _draft_started(state: State, event: ev.DraftStarted) -> Event:
    reset = [reset_point(state, s, round_start=True) for s in state.seats]
    return dataclasses.replace(
        event,
        moves=tuple(r.moves - s.moves for r, s in zip(reset, state.seats, strict=True)),
        powers_freed=not state.rulings.once_per_round,
        corporation_states=tuple(state_change(s, r) for r, s in zip(reset, state.seats, strict=True)),
    )


def _tile_placed(state: State, event: ev.TilePlaced) -> Event:
    seat = state.seats[event.seat]
    cells = footprint(event.tile, event.anchor, event.rotation, event.flip)
    assert cells is not None
    resources = True if event.pending is None else seat.pending[event.pending].resources
    symbols = frozenset(s for s, c in cells.items() if c.meteor)
    meteorites = symbols if corporation(seat).meteor_symbols_land(seat) else frozenset()
    covered = edits.cover(seat, edits.tile_letters(cells))
    groups = placement_benefits(seat, covered, cells) if resources else []
    gains: list[Benefit] = []
    if len(groups) > 1 and event_deck.one_resource_only(state):
        gains.append(Benefit(Kind.SELECT, alternatives=tuple(groups)))
    else:
        gains.extend(b for group in groups for b in group)
    if resources:
        synergy = not event_deck.synergy_blocked(state)
        gains.extend(corporation(covered).placement_extras(covered, cells, planets()[seat.planet].ice, synergy))
    if event.pending is None and event_deck.deploys_on_placed_tile(state):
        gains.append(Benefit(Kind.DEPLOY))
    return dataclasses.replace(event, gains=tuple(gains), meteorites=meteorites)


def _tile_taken(state: State, event: ev.TileTaken) -> Event:
    resources = tiles()[event.tile].resources
    if Terrain.ENERGY in resources:
        other = next(t for t in resources if t is not Terrain.ENERGY)
        gains = [Benefit(Kind.ADVANCE, track=other)] * 2
    else:
        gains = [Benefit(Kind.ADVANCE, track=t) for t in resources]
    if state.rulings.one_resource_when_taken and event_deck.one_resource_only(state):
        gains = one_of(gains)
    return dataclasses.replace(event, gains=tuple(gains))


def _track_advanced(state: State, event: ev.TrackAdvanced) -> Event:
    seat = state.seats[event.seat]
    seat = dataclasses.replace(seat, pending=edits.advance_used(seat.pending, event.pending, event.track))
    lane = Terrain(event.lane) if event.lane else None
    after = arrive(state, seat, event.track, event.synergy, event.benefits, lane, event.side)
    return dataclasses.replace(
        event,
        position=after.track(event.track),
        gains=_added(seat.pending, after.pending),
        moves=after.moves - seat.moves,
        queued=after.civ_queue[len(seat.civ_queue) :],
        corporation_state=state_change(seat, after),
    )


def _rover_arrived(state: State, event: ev.RoverDeployed | ev.RoverMoved | ev.RoverTeleported) -> Event:
    """A rover's arrival: the pieces it collected, the meteorites left (or carried) and the gains."""
    seat = state.seats[event.seat]
    start = None if isinstance(event, ev.RoverDeployed) else seat.rovers[event.rover]
    cost = 0
    if isinstance(event, ev.RoverMoved):
        assert start is not None
        found = corporation(seat).rover_entry(seat, start, event.square)
        assert found is not None, f"a rover may not enter {event.square}"
        cost = found
        seat = dataclasses.replace(edits.moved_rover(seat, event.rover, event.square), moves=seat.moves - cost)
    else:
        seat = edits.moved_rover(seat, event.rover, event.square)
        seat = dataclasses.replace(seat, pending=edits.drop(seat.pending, event.pending))
    after = corporation(seat).rover_arrives(seat, start, event.square)
    collected = []
    if after.meteorites_collected > seat.meteorites_collected:
        collected.append(Piece.METEORITE)
    if after.lifepods_collected > seat.lifepods_collected:
        collected.append(Piece.LIFEPOD)
    gains = _added(seat.pending, after.pending)
    arrival = dataclasses.replace(
        event,
        collected=tuple(collected),
        meteorites=after.meteorites,
        gains=gains,
        corporation_state=state_change(seat, after),
    )
    return dataclasses.replace(arrival, moves=cost) if isinstance(arrival, ev.RoverMoved) else arrival


def _patch_used(state: State, event: ev.PatchPlaced | ev.PatchStored) -> Event:
    """What the corporation adds to a gained patch placed or stored (a stored patch placed adds nothing)."""
    seat = state.seats[event.seat]
    if isinstance(event, ev.PatchPlaced):
        if seat.pending[event.pending].final:
            return dataclasses.replace(event, gains=(), powers_used=())
        seat = edits.patched(seat, event.square, event.pending)
    else:
        seat = edits.stored(seat, event.pending)
    after = corporation(seat).patch_used(seat)
    used = after.powers_used[len(seat.powers_used) :]
    return dataclasses.replace(
        event, gains=_added(seat.pending, after.pending), powers_used=used, corporation_state=state_change(seat, after)
    )


def _civ_slot_started(state: State, event: ev.CivSlotStarted) -> Event:
    seat = state.seats[event.seat]
    reset = reset_point(state, seat)
    picks = tuple(Benefit(Kind.CIV, rank=rank) for rank in reset.civ_queue)
    return dataclasses.replace(
        event,
        gains=picks,
        moves=reset.moves - seat.moves,
        powers_freed=not state.rulings.once_per_round,
        corporation_state=state_change(seat, reset),
    )


def _end_game_turn_started(state: State, event: ev.EndGameTurnStarted) -> Event:
    gains, moves, end_cards, own = [], [], [], []
    for seat in state.seats:
        reset = reset_point(state, seat)
        mine = [Benefit(Kind.PATCH, final=True)] * reset.stored_patches
        if not (state.ending and state.rulings.end_game_gains_once):
            mine.extend(corporation(reset).end_game_gains(reset))
        cards = tuple(
            card
            for card in reset.hand
            if civ_cards()[card].kind == "medals_and_advance" and card not in reset.end_cards_used
        )
        mine.extend(Benefit(Kind.CHOOSE, source="end") for _ in cards)
        gains.append(tuple(mine))
        moves.append(reset.moves - seat.moves)
        end_cards.append(cards)
        own.append(state_change(seat, reset))
    return dataclasses.replace(
        event,
        gains=tuple(gains),
        moves=tuple(moves),
        powers_freed=not state.rulings.once_per_round,
        end_cards=tuple(end_cards),
        corporation_states=tuple(own),
    )


def _setup_revealed(state: State, event: ev.SetupRevealed) -> Event:
    fresh = []
    for n, (planet, corp) in enumerate(event.choices):
        flux = event.flux[n] if n < len(event.flux) else ""
        fresh.append(new_seat(planet, corp, Terrain(flux) if flux else None))
    return dataclasses.replace(
        event,
        lifepods=tuple(s.lifepods for s in fresh),
        rovers=tuple(len(s.rovers) for s in fresh),
        corporation_states=tuple(s.corporation_state for s in fresh),
    )


def _event_revealed(state: State, event: ev.EventRevealed) -> Event:
    changes_piles = event_deck.changes_piles(event.card)
    drawn = edits.event_drawn(state, event.card, changes_piles)
    gains, rovers, lifepods, meteorites = [], [], [], []
    for seat in drawn.seats:
        seat = dataclasses.replace(seat, peeked=None)
        after = event_deck.reveal(drawn, seat)
        gains.append(_added(seat.pending, after.pending))
        rovers.append(len(after.rovers) - len(seat.rovers))
        lifepods.append(seat.lifepods_collected - after.lifepods_collected)
        meteorites.append(seat.meteorites_collected - after.meteorites_collected)
    return dataclasses.replace(
        event,
        changes_piles=changes_piles,
        gains=tuple(gains),
        rovers_gained=tuple(rovers),
        lifepods_lost=tuple(lifepods),
        meteorites_lost=tuple(meteorites),
    )


def _height_claimed(state: State, event: ev.HeightClaimed) -> Event:
    seat = state.seats[event.seat]
    seat = dataclasses.replace(seat, pending=edits.drop(seat.pending, event.pending))
    board = corporation(seat)
    after = seat
    for track in TRACKS:
        after = claim_space(state, after, track, board.spaces(track)[event.height], True, False)
    return dataclasses.replace(
        event,
        gains=_added(seat.pending, after.pending),
        moves=after.moves - seat.moves,
        queued=after.civ_queue[len(seat.civ_queue) :],
    )


def _lifepod_moved(state: State, event: ev.LifepodMoved) -> Event:
    seat = state.seats[event.seat]
    seat = dataclasses.replace(seat, pending=edits.use_one(seat.pending, event.pending))
    after = corporation(seat).lifepod_moved(seat, event.origin, event.target)
    return dataclasses.replace(event, corporation_state=state_change(seat, after))


def _power_used(state: State, event: ev.PowerUsed) -> Event:
    seat = state.seats[event.seat]
    seat = dataclasses.replace(seat, powers_used=(*seat.powers_used, event.level))
    after = corporation(seat).use_action(seat, event.level)
    kept = len(seat.pending)
    changed = [n for n in range(kept) if after.pending[n] != seat.pending[n]]
    assert len(changed) <= 1, "a power changes at most one pending benefit"
    moved = [n for n, (a, b) in enumerate(zip(seat.tracks, after.tracks, strict=True)) if a != b]
    assert len(moved) <= 1, "a power moves at most one tracker"
    return dataclasses.replace(
        event,
        gains=after.pending[kept:],
        replaced=changed[0] if changed else None,
        replacement=after.pending[changed[0]] if changed else None,
        moves=after.moves - seat.moves,
        track=TRACKS[moved[0]] if moved else None,
        position=after.tracks[moved[0]] if moved else None,
        once=len(after.once_used) > len(seat.once_used),
        corporation_state=state_change(seat, after),
    )
