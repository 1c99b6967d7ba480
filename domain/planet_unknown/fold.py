"""The fold: what each event does to the state, applied without checking it.

``evolve`` is one small case per event (eventsourcing's ``mutate``): an event carries what the rules
decided (its outcome fields, :mod:`.events`), and folding it only copies, adds and removes the values it
holds, with data lookups such as a tile's squares. The events of the event deck, solo mode, private
objectives and the corporations are folded by ``_evolve_modules``. An event stored without its outcome
(rules ``planet-unknown-3`` to ``-5``) is completed first (:mod:`.upcast`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from domain.contract import Event

from . import events as ev
from .board import footprint
from .corporation_state import CorporationState, FluxState, JumpDriveState, merged
from .data import TRACKS, Terrain
from .edits import (
    advance_used,
    changed_seat,
    cover,
    drop,
    event_drawn,
    moved_rover,
    patched,
    stored,
    take_from_station,
    tile_letters,
    use_one,
    with_seat,
)
from .model import DESTROYED, GARAGE, Benefit, Kind, Phase, Seat, Stage, State
from .powers import Piece
from .upcast import upcast


def _all_seats(state: State, **changes: Any) -> tuple[Seat, ...]:
    return tuple(dataclasses.replace(s, **changes) for s in state.seats)


def _gained(seat: Seat, gains: tuple[Benefit, ...] | None, moves: int | None = 0) -> Seat:
    """The seat with recorded ``gains`` added to its pending benefits and ``moves`` to its rover movement."""
    assert gains is not None and moves is not None, "an event without its outcome"
    return dataclasses.replace(seat, pending=seat.pending + gains, moves=seat.moves + moves)


def _owned(seat: Seat, recorded: CorporationState | None) -> Seat:
    """The seat with the corporation state an event recorded (None: unchanged), its hidden fields kept."""
    if recorded is None:
        return seat
    return dataclasses.replace(seat, corporation_state=merged(recorded, seat.corporation_state))


def _freed(seat: Seat, powers_freed: bool | None) -> Seat:
    return dataclasses.replace(seat, powers_used=()) if powers_freed else seat


def evolve(state: State, event: Event) -> State:
    """Apply one event without validating it."""
    event = upcast(state, event)
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
        case ev.RoundStarted(round=number, powers_freed=freed):
            seats = tuple(dataclasses.replace(_freed(s, freed), stage=Stage.IDLE) for s in state.seats)
            return dataclasses.replace(
                state, round=number, phase=Phase.ROTATION, event_card=None, drafted=False, seats=seats
            )
        case ev.StationRotated(rotation=rotation):
            return dataclasses.replace(state, rotation=rotation, phase=Phase.DRAFT)
        case ev.TileRevealed(stack=stack):
            revealed = list(state.revealed)
            revealed[stack] = True
            return dataclasses.replace(state, revealed=tuple(revealed))
        case ev.LastRoundTriggered():
            return dataclasses.replace(state, last_round=True)
        case ev.DraftStarted(moves=moves, powers_freed=freed):
            assert moves is not None
            owned = event.corporation_states or (None,) * len(state.seats)
            started = tuple(
                dataclasses.replace(_owned(_freed(s, freed), own), moves=s.moves + m, stage=Stage.CHOOSING)
                for s, m, own in zip(state.seats, moves, owned, strict=True)
            )
            return dataclasses.replace(state, drafted=True, seats=started)
        case ev.TilePlaced():
            return _evolve_tile_placed(state, event)
        case ev.TileTaken(seat=i, tile=tile, gains=gains):
            state = take_from_station(state, tile)
            seat = _gained(state.seats[i], gains)
            return changed_seat(state, i, unplaced=(*seat.unplaced, tile), pending=seat.pending, stage=Stage.RESOLVING)
        case ev.TrackAdvanced(seat=i, track=track, pending=index, position=position, gains=gains, moves=moves):
            seat = state.seats[i]
            positions = list(seat.tracks)
            assert position is not None and event.queued is not None
            positions[TRACKS.index(track)] = position
            seat = dataclasses.replace(
                seat,
                pending=advance_used(seat.pending, index, track),
                tracks=tuple(positions),
                civ_queue=seat.civ_queue + event.queued,
            )
            return with_seat(state, i, _gained(_owned(seat, event.corporation_state), gains, moves))
        case ev.BenefitLost(seat=i, pending=index):
            seat = state.seats[i]
            benefit = seat.pending[index]
            kept = seat.stored_patches - (1 if benefit.kind is Kind.PATCH and benefit.final else 0)
            return changed_seat(state, i, pending=drop(seat.pending, index), stored_patches=kept)
        case ev.RoverDeployed(seat=i, rover=rover, square=square, pending=index):
            seat = moved_rover(state.seats[i], rover, square)
            return with_seat(state, i, _arrived(dataclasses.replace(seat, pending=drop(seat.pending, index)), event))
        case ev.RoverMoved(seat=i, rover=rover, square=square, moves=cost):
            assert cost is not None
            seat = moved_rover(state.seats[i], rover, square)
            return with_seat(state, i, _arrived(dataclasses.replace(seat, moves=seat.moves - cost), event))
        case ev.RoverTeleported(seat=i, rover=rover, square=square, pending=index):
            seat = moved_rover(state.seats[i], rover, square)
            return with_seat(state, i, _arrived(dataclasses.replace(seat, pending=drop(seat.pending, index)), event))
        case ev.PatchPlaced(seat=i, square=square, pending=index, gains=gains, powers_used=used):
            assert used is not None
            seat = _owned(patched(state.seats[i], square, index), event.corporation_state)
            return with_seat(state, i, _gained(dataclasses.replace(seat, powers_used=seat.powers_used + used), gains))
        case ev.PatchStored(seat=i, pending=index, gains=gains, powers_used=used):
            assert used is not None
            seat = _owned(stored(state.seats[i], index), event.corporation_state)
            return with_seat(state, i, _gained(dataclasses.replace(seat, powers_used=seat.powers_used + used), gains))
        case ev.CivPileShown(seat=i, rank=rank):
            seat = state.seats[i]
            marked = tuple(
                dataclasses.replace(b, shown=True) if b.kind is Kind.CIV and b.rank == rank else b for b in seat.pending
            )
            return changed_seat(state, i, pending=marked)
        case ev.CivCardTaken(seat=i, rank=rank, card=card, pending=index, gains=gains, moves=moves):
            remaining = list(state.civ_piles)
            remaining[rank - 1] = tuple(c for c in remaining[rank - 1] if c != card)
            state = dataclasses.replace(state, civ_piles=tuple(remaining))
            seat = state.seats[i]
            seat = dataclasses.replace(seat, hand=(*seat.hand, card), pending=drop(seat.pending, index))
            return with_seat(state, i, _gained(seat, gains, moves))
        case ev.LifepodCollected(seat=i, square=square, pending=index, gains=gains):
            seat = state.seats[i]
            seat = dataclasses.replace(
                seat,
                lifepods=seat.lifepods - {square},
                lifepods_collected=seat.lifepods_collected + 1,
                pending=use_one(seat.pending, index),
            )
            return with_seat(state, i, _gained(seat, gains))
        case ev.MeteoriteDestroyed(seat=i, square=square, pending=index):
            seat = state.seats[i]
            return changed_seat(state, i, meteorites=seat.meteorites - {square}, pending=use_one(seat.pending, index))
        case ev.LineCleared(seat=i, pending=index, destroyed=destroyed):
            assert destroyed is not None
            seat = state.seats[i]
            return changed_seat(state, i, meteorites=seat.meteorites - destroyed, pending=drop(seat.pending, index))
        case ev.TurnConfirmed(seat=i):
            state = changed_seat(state, i, stage=Stage.DONE, moves=0, pending=())
            if state.phase is Phase.CIV:
                return dataclasses.replace(state, civ_order=state.civ_order[1:])
            return state
        case ev.CivPhaseStarted(order=order):
            return dataclasses.replace(
                state, phase=Phase.CIV, civ_order=order, seats=_all_seats(state, stage=Stage.IDLE)
            )
        case ev.CivSlotStarted(seat=i, gains=gains, moves=moves, powers_freed=freed):
            seat = dataclasses.replace(_freed(state.seats[i], freed), civ_queue=(), stage=Stage.RESOLVING)
            return with_seat(state, i, _gained(_owned(seat, event.corporation_state), gains, moves))
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
            return _evolve_end_game_turn(state, event)
        case ev.GameEnded():
            return dataclasses.replace(state, phase=Phase.OVER, seats=_all_seats(state, stage=Stage.IDLE))
        case ev.SeatForfeited(seat=i):
            return dataclasses.replace(state, phase=Phase.OVER, forfeited=i, seats=_all_seats(state, stage=Stage.IDLE))
    return _evolve_modules(state, event)


def _evolve_modules(state: State, event: Event) -> State:
    """The events of the event deck, solo mode and private objectives."""
    match event:
        case ev.PrivateObjectivesDealt(seat=i, cards=cards):
            return changed_seat(state, i, objective_offer=cards)
        case ev.SetupDealt(seat=i, planet=planet, corporation=corp):
            return changed_seat(state, i, setup_offer=(planet, corp))
        case ev.SetupChosen(seat=i, planet=planet, corporation=corp, flux=flux):
            return changed_seat(state, i, setup_choice=(planet, corp), setup_track=Terrain(flux) if flux else None)
        case ev.SetupRevealed(choices=picked, lifepods=lifepods, rovers=counts, corporation_states=corporations):
            assert lifepods is not None and counts is not None and corporations is not None
            seats = tuple(
                dataclasses.replace(
                    seat,
                    planet=planet,
                    corporation=corp,
                    lifepods=pods,
                    rovers=(GARAGE,) * count,
                    corporation_state=own,
                    setup_offer=None,
                    setup_choice=None,
                    setup_track=None,
                )
                for seat, (planet, corp), pods, count, own in zip(
                    state.seats, picked, lifepods, counts, corporations, strict=True
                )
            )
            return dataclasses.replace(state, seats=seats)
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
                return changed_seat(state, i, private_objectives=kept, objective_offer=())
            kept = tuple(c for c in seat.private_objectives if c != card)
            return changed_seat(state, i, private_objectives=kept, pending=drop(seat.pending, index))
        case ev.ObjectiveDrawn(seat=i, card=card, pending=index):
            seat = state.seats[i]
            state = dataclasses.replace(state, objective_deck=state.objective_deck[1:])
            kept = (*seat.private_objectives, card)
            return changed_seat(state, i, private_objectives=kept, pending=drop(seat.pending, index))
        case ev.PrivateObjectivesRevealed(hands=hands):
            return dataclasses.replace(state, shown_objectives=hands)
        case ev.EventRevealed():
            return _evolve_event_revealed(state, event)
        case ev.CivPilesChanged(piles=piles, aside=aside):
            return dataclasses.replace(state, civ_piles=piles, civ_aside=aside, civ_changes=0)
        case ev.EventResolved():
            return dataclasses.replace(state, phase=Phase.DRAFT, seats=_all_seats(state, stage=Stage.IDLE))
        case ev.TrackRegressed(seat=i, track=track, pending=index, position=position):
            assert position is not None
            seat = state.seats[i]
            positions = list(seat.tracks)
            positions[TRACKS.index(track)] = position
            return changed_seat(state, i, tracks=tuple(positions), pending=drop(seat.pending, index))
        case ev.AlternativePicked(seat=i, pending=index, option=option):
            seat = state.seats[i]
            chosen = seat.pending[index].alternatives[option]
            return changed_seat(state, i, pending=drop(seat.pending, index) + chosen)
        case ev.StationTurned(seat=i, rotation=rotation, pending=index):
            state = dataclasses.replace(state, rotation=rotation)
            return changed_seat(state, i, pending=drop(state.seats[i].pending, index))
        case ev.MeteoriteLanded(seat=i, square=square, pending=index):
            seat = state.seats[i]
            hit = tuple(DESTROYED if r == square else r for r in seat.rovers)
            landed = seat.meteorites | {square}
            return changed_seat(state, i, meteorites=landed, rovers=hit, pending=drop(seat.pending, index))
        case ev.MeteoriteCollected(seat=i, square=square, pending=index, gains=gains):
            seat = state.seats[i]
            seat = dataclasses.replace(
                seat,
                meteorites=seat.meteorites - {square},
                meteorites_collected=seat.meteorites_collected + 1,
                pending=use_one(seat.pending, index),
            )
            return with_seat(state, i, _gained(seat, gains))
        case ev.LifepodMoved(seat=i, pending=index, corporation_state=own):
            seat = _owned(state.seats[i], own)
            return changed_seat(
                state, i, pending=use_one(seat.pending, index), corporation_state=seat.corporation_state
            )
        case ev.HeightClaimed(seat=i, pending=index, gains=gains, moves=moves, queued=queued):
            assert queued is not None
            seat = state.seats[i]
            seat = dataclasses.replace(seat, pending=drop(seat.pending, index), civ_queue=seat.civ_queue + queued)
            return with_seat(state, i, _gained(seat, gains, moves))
        case ev.SharedObjectiveDrawn(seat=i, cards=cards, pending=index):
            seat = state.seats[i]
            own = seat.corporation_state
            assert isinstance(own, JumpDriveState)
            state = dataclasses.replace(state, objective_deck=state.objective_deck[len(cards) :])
            pending = (*drop(seat.pending, index), Benefit(Kind.KEEP))
            offered = dataclasses.replace(own, shared_offer=cards)
            return changed_seat(state, i, pending=pending, corporation_state=offered)
        case ev.SharedObjectiveChosen(seat=i, card=card, pending=index):
            seat = state.seats[i]
            own = seat.corporation_state
            assert isinstance(own, JumpDriveState)
            state = dataclasses.replace(state, shared_objectives=(*state.shared_objectives, card))
            pending = drop(seat.pending, index)
            return changed_seat(state, i, pending=pending, corporation_state=dataclasses.replace(own, shared_offer=()))
        case ev.FluxChosen(seat=i, track=track, pending=index):
            pending = drop(state.seats[i].pending, index)
            return changed_seat(state, i, pending=pending, corporation_state=FluxState(track))
        case ev.PowerUsed():
            return _evolve_power_used(state, event)
        case ev.RoverDestroyed(seat=i, rover=rover, pending=index):
            seat = state.seats[i]
            rovers = list(seat.rovers)
            rovers[rover] = DESTROYED
            return changed_seat(state, i, rovers=tuple(rovers), pending=use_one(seat.pending, index))
        case ev.LifepodDestroyed(seat=i, square=square, pending=index):
            seat = state.seats[i]
            return changed_seat(state, i, lifepods=seat.lifepods - {square}, pending=use_one(seat.pending, index))
        case ev.StackEmptied(seat=i, stack=stack, pending=index):
            stacks = list(state.stacks)
            removed = state.removed + stacks[stack]
            stacks[stack] = ()
            revealed = list(state.revealed)
            revealed[stack] = False
            state = dataclasses.replace(state, stacks=tuple(stacks), revealed=tuple(revealed), removed=removed)
            return changed_seat(state, i, pending=drop(state.seats[i].pending, index))
        case ev.NextEventPeeked(seat=i, card=card, pending=index):
            return changed_seat(state, i, peeked=card, pending=drop(state.seats[i].pending, index))
    raise TypeError(f"unknown event {event!r}")


def _arrived(seat: Seat, event: ev.RoverDeployed | ev.RoverMoved | ev.RoverTeleported) -> Seat:
    """The seat once its rover arrived on the event's square: the pieces collected there, the meteorites
    left, the gains."""
    assert event.collected is not None and event.meteorites is not None
    if Piece.LIFEPOD in event.collected:
        seat = dataclasses.replace(
            seat, lifepods=seat.lifepods - {event.square}, lifepods_collected=seat.lifepods_collected + 1
        )
    if Piece.METEORITE in event.collected:
        seat = dataclasses.replace(seat, meteorites_collected=seat.meteorites_collected + 1)
    return _gained(_owned(dataclasses.replace(seat, meteorites=event.meteorites), event.corporation_state), event.gains)


def _evolve_tile_placed(state: State, event: ev.TilePlaced) -> State:
    assert event.meteorites is not None
    state = take_from_station(state, event.tile)
    seat = state.seats[event.seat]
    cells = footprint(event.tile, event.anchor, event.rotation, event.flip)
    assert cells is not None
    squares = tuple(sorted(cells))
    seat = dataclasses.replace(cover(seat, tile_letters(cells)), pending=drop(seat.pending, event.pending))
    seat = dataclasses.replace(
        seat,
        meteor_symbols=seat.meteor_symbols | {s for s, c in cells.items() if c.meteor},
        meteorites=seat.meteorites | event.meteorites,
        placed=(*seat.placed, event.tile),
        last_tile=squares,
        tile_squares=(*seat.tile_squares, squares),
        stage=Stage.RESOLVING,
    )
    return with_seat(state, event.seat, _gained(seat, event.gains))


def _evolve_power_used(state: State, event: ev.PowerUsed) -> State:
    assert event.once is not None
    seat = state.seats[event.seat]
    pending = list(seat.pending)
    if event.replaced is not None:
        assert event.replacement is not None
        pending[event.replaced] = event.replacement
    positions = list(seat.tracks)
    if event.track is not None:
        assert event.position is not None
        positions[TRACKS.index(event.track)] = event.position
    seat = dataclasses.replace(
        seat,
        powers_used=(*seat.powers_used, event.level),
        pending=tuple(pending),
        tracks=tuple(positions),
        once_used=(*seat.once_used, event.level) if event.once else seat.once_used,
    )
    return with_seat(state, event.seat, _gained(_owned(seat, event.corporation_state), event.gains, event.moves))


def _evolve_end_game_turn(state: State, event: ev.EndGameTurnStarted) -> State:
    assert event.gains is not None and event.moves is not None and event.end_cards is not None
    seats = []
    owned = event.corporation_states or (None,) * len(state.seats)
    for seat, gains, moves, cards, own in zip(
        state.seats, event.gains, event.moves, event.end_cards, owned, strict=True
    ):
        seat = dataclasses.replace(_owned(_freed(seat, event.powers_freed), own), moves=seat.moves + moves)
        stage = Stage.RESOLVING if gains or seat.moves else Stage.DONE
        seats.append(dataclasses.replace(seat, pending=gains, end_cards_used=seat.end_cards_used + cards, stage=stage))
    return dataclasses.replace(state, phase=Phase.END_GAME, ending=True, seats=tuple(seats))


def _evolve_event_revealed(state: State, event: ev.EventRevealed) -> State:
    assert event.gains is not None and event.rovers_gained is not None
    assert event.lifepods_lost is not None and event.meteorites_lost is not None
    seats = []
    for seat, gains, rovers, lifepods, meteorites in zip(
        state.seats, event.gains, event.rovers_gained, event.lifepods_lost, event.meteorites_lost, strict=True
    ):
        pending = seat.pending + gains
        seats.append(
            dataclasses.replace(
                seat,
                peeked=None,
                pending=pending,
                rovers=seat.rovers + (GARAGE,) * rovers,
                lifepods_collected=seat.lifepods_collected - lifepods,
                meteorites_collected=seat.meteorites_collected - meteorites,
                stage=Stage.RESOLVING if pending else Stage.DONE,
            )
        )
    assert event.changes_piles is not None
    return dataclasses.replace(
        event_drawn(state, event.card, event.changes_piles), phase=Phase.EVENT, seats=tuple(seats)
    )
