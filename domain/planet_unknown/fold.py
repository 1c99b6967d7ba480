"""The fold: what each event does to the state, applied without checking it.

``evolve`` is one case per event; the events of the event deck, solo mode, private objectives and
the corporations' own events are folded by ``_evolve_modules``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from domain.contract import Event

from . import event_deck
from . import events as ev
from .benefits.clear import in_line
from .board import footprint, mask_of
from .data import TRACKS, Terrain, civ_cards, planets, tiles
from .gains import arrive, card_benefits, claim_space, one_of, placement_benefits
from .model import DESTROYED, Benefit, Kind, Phase, Seat, Stage, State
from .powers import Piece, corporation
from .setup import new_seat


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


def _take_from_station(state: State, tile: int) -> State:
    stacks = list(state.stacks)
    revealed = list(state.revealed)
    for k, stack in enumerate(stacks):
        if stack and stack[0] == tile:
            stacks[k] = stack[1:]
            revealed[k] = False
            break
    return dataclasses.replace(state, stacks=tuple(stacks), revealed=tuple(revealed))


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
                gains = one_of(gains)
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
            return _put(state, i, arrive(state, seat, track, synergy, benefits, Terrain(lane) if lane else None, side))
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
                cost = corporation(seat).rover_entry(seat, start, square)
                assert cost is not None, f"a rover may not enter {square}"
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
            gains, moves = card_benefits(card, state.rulings)
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
                pending=_use_one(seat.pending, index) + corporation(seat).collection_gains(seat, Piece.LIFEPOD),
            )
        case ev.MeteoriteDestroyed(seat=i, square=square, pending=index):
            seat = state.seats[i]
            return _seat(state, i, meteorites=seat.meteorites - {square}, pending=_use_one(seat.pending, index))
        case ev.LineCleared(seat=i, line=line, pending=index):
            seat = state.seats[i]
            kept = frozenset(m for m in seat.meteorites if not in_line(m, line))
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
            return _seat(state, i, setup_choice=(planet, corp), setup_track=Terrain(flux) if flux else None)
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
                        corporation_state=fresh.corporation_state,
                        setup_offer=None,
                        setup_choice=None,
                        setup_track=None,
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
                pending=_use_one(seat.pending, index) + corporation(seat).collection_gains(seat, Piece.METEORITE),
            )
        case ev.LifepodMoved(seat=i, pending=index):
            seat = state.seats[i]
            seat = dataclasses.replace(seat, pending=_use_one(seat.pending, index))
            return _put(state, i, corporation(seat).evolve(seat, event))
        case ev.HeightClaimed(seat=i, height=height, pending=index):
            seat = state.seats[i]
            seat = dataclasses.replace(seat, pending=_drop(seat.pending, index))
            board = corporation(seat)
            for track in TRACKS:
                seat = claim_space(state, seat, track, board.spaces(track)[height], True, False)
            return _put(state, i, seat)
        case ev.SharedObjectiveDrawn(seat=i, cards=cards, pending=index):
            seat = state.seats[i]
            state = dataclasses.replace(state, objective_deck=state.objective_deck[len(cards) :])
            seat = dataclasses.replace(seat, pending=(*_drop(seat.pending, index), Benefit(Kind.KEEP)))
            return _put(state, i, corporation(seat).evolve(seat, event))
        case ev.SharedObjectiveChosen(seat=i, card=card, pending=index):
            seat = state.seats[i]
            state = dataclasses.replace(state, shared_objectives=(*state.shared_objectives, card))
            seat = dataclasses.replace(seat, pending=_drop(seat.pending, index))
            return _put(state, i, corporation(seat).evolve(seat, event))
        case ev.FluxChosen(seat=i, pending=index):
            seat = state.seats[i]
            seat = dataclasses.replace(seat, pending=_drop(seat.pending, index))
            return _put(state, i, corporation(seat).evolve(seat, event))
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
    groups = placement_benefits(before, seat, cells) if resources else []
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
