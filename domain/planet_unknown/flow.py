"""The automatic flow of a round: lost and self-resolving benefits, refills, phase changes and the
end of the game, applied until some seat must act (:func:`settle`)."""

from __future__ import annotations

from domain.contract import Event

from . import event_deck
from . import events as ev
from .benefits import automatic, possible
from .fold import evolve
from .model import Phase, Stage, State
from .outcomes import record
from .reading import can_place, choosing_setup, depot_empty, offered, station_turns_itself


def _next_automatic(state: State) -> Event | None:
    phase = state.phase
    if phase in (Phase.SETUP, Phase.OVER):
        return None
    for i in _resolving(state):
        for index, benefit in enumerate(state.seats[i].pending):
            if not possible(state, i, benefit):
                return ev.BenefitLost(i, index)
            if (event := automatic(state, i, index, benefit)) is not None:
                return event
    if phase is Phase.INTERLUDE and state.round == 0:
        if any(choosing_setup(s) for s in state.seats):
            return None
        if any(s.setup_choice for s in state.seats):
            return ev.SetupRevealed(
                tuple(s.setup_choice or (s.planet, s.corporation) for s in state.seats),
                tuple(str(s.setup_track or "") for s in state.seats),
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
    if phase is Phase.ROTATION and station_turns_itself(state):
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
    """Apply every automatic event, its outcome recorded (:func:`.outcomes.record`), until a player must act
    or the game is over."""
    out = []
    while (event := _next_automatic(state)) is not None:
        event = record(state, event)
        out.append(event)
        state = evolve(state, event)
    return state, out
