"""One seat's view of a game as a :class:`~.model.State`: what a built-in bot of that seat is given.

Everything :meth:`PlanetUnknown.view <domain.planet_unknown.game.PlanetUnknown.view>` hides from the
seat is replaced by stand-ins derived only from what the seat may see, so the rules still play on
the result and the seat's legal moves stay the same:

* the station: a face-up top tile stays; every hidden tile of a stack becomes one of the tiles of
  that stack's shape that are nowhere in sight (not face up, not on a planet, not taken out), in
  order of their ids, so neither the order nor the content of a stack is read;
* the civ piles: a card the seat may pick now stays where it is; every other card of a pile becomes
  an unseen card of its rank. The cards set aside and other seats' hands (until they are revealed)
  become unseen cards as well;
* the objective deck, and other seats' private objectives, objective offers and Jump Drive draws
  (until they are revealed), become unseen objective cards;
* the event deck: the next card if the seat peeked at it, then unseen event cards; every secret
  roll becomes 0; another seat's peek is forgotten;
* other seats' dealt setup choices (before round 1) become their current planet and corporation.

Counts stay as they are (they are public), so whose turn it is and what may be done do not change.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Iterator

from . import event_deck, rules
from .data import civ_cards, objectives, station, tiles
from .model import Kind, Seat, State
from .powers import corporation


def seat_state(state: State, seat: int) -> State:
    """``state`` as ``seat`` may see it; see the module's docstring."""
    own = state.seats[seat]
    civ, aside, hands = _civ(state, seat)
    deck, offers = _objectives(state, seat)
    seats = []
    for i, other in enumerate(state.seats):
        if i == seat:
            seats.append(other)
            continue
        objectives_of, offer, shared = offers[i]
        seen_by_other = dataclasses.replace(
            other,
            hand=hands[i],
            private_objectives=objectives_of,
            objective_offer=offer,
            peeked=None,
            setup_offer=None if other.setup_offer is None else (other.planet, other.corporation),
            setup_choice=None if other.setup_choice is None else (other.planet, other.corporation),
            setup_track=None,
        )
        seats.append(corporation(other).with_drawn_objectives(seen_by_other, shared))
    return dataclasses.replace(
        state,
        seats=tuple(seats),
        stacks=_stacks(state),
        civ_piles=civ,
        civ_aside=aside,
        objective_deck=deck,
        event_deck=_event_deck(state, own),
        event_rolls=(0,) * len(state.event_rolls),
        event_roll=0,
    )


class _Unseen:
    """Stand-ins handed out in order from a pool of cards (or tiles) the seat has not seen."""

    def __init__(self, pool: Iterable[int]) -> None:
        self._pool = sorted(set(pool))
        self._next: Iterator[int] = itertools.cycle(self._pool)

    def take(self, count: int) -> tuple[int, ...]:
        return tuple(itertools.islice(self._next, count)) if self._pool else ()


def _stacks(state: State) -> tuple[tuple[int, ...], ...]:
    inner, outer, _ = station()
    shapes = outer + inner
    in_sight = set(state.removed)
    for s in state.seats:
        in_sight.update(s.placed, s.unplaced)
    tops = [stack[:1] if stack and shown else () for stack, shown in zip(state.stacks, state.revealed, strict=True)]
    in_sight.update(tile for top in tops for tile in top)
    out = []
    for k, (stack, top) in enumerate(zip(state.stacks, tops, strict=True)):
        unseen = _Unseen(t.id for t in tiles() if t.shape == shapes[k] and t.id not in in_sight)
        out.append(top + unseen.take(len(stack) - len(top)))
    return tuple(out)


def _civ(state: State, seat: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], list[tuple[int, ...]]]:
    """The civ piles, the cards set aside and every seat's hand, as ``seat`` sees them."""
    own = state.seats[seat]
    choosable = {c for b in own.pending if b.kind is Kind.CIV for c in rules.civ_choices(state, own, b)}
    shown = [set(hand) for hand in state.shown_hands] if state.shown_hands is not None else None
    seen = choosable | set(own.hand) | {c for hand in shown or () for c in hand}
    unseen = {card.id: card.rank for card in civ_cards().values() if card.id not in seen}
    by_rank = {rank: _Unseen(c for c, r in unseen.items() if r == rank) for rank in set(unseen.values())}
    nowhere = _Unseen(())
    piles = tuple(
        tuple(c for card in pile for c in ((card,) if card in choosable else by_rank.get(rank, nowhere).take(1)))
        for rank, pile in enumerate(state.civ_piles, start=1)
    )
    used = {c for pile in piles for c in pile}
    rest = _Unseen(c for c in unseen if c not in used)
    hands = []
    for i, s in enumerate(state.seats):
        if i == seat:
            hands.append(s.hand)
        else:
            known = shown[i] if shown is not None else set()
            hidden = [c for c in s.hand if c not in known]
            hands.append(tuple(c for c in s.hand if c in known) + rest.take(len(hidden)))
    return piles, rest.take(len(state.civ_aside)), hands


def _objectives(
    state: State, seat: int
) -> tuple[tuple[int, ...], dict[int, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]]:
    """The objective deck, and each other seat's (private objectives, objective offer, Jump Drive draw)."""
    own = state.seats[seat]
    seen = set(state.objectives) | set(state.shared_objectives)
    seen |= set(own.private_objectives) | set(own.objective_offer) | set(corporation(own).drawn_objectives(own))
    shown = state.shown_objectives
    seen |= {c for cards in shown or () for c in cards}
    unseen = _Unseen(c for c in objectives() if c not in seen)
    deck = unseen.take(len(state.objective_deck))
    others = {}
    for i, s in enumerate(state.seats):
        if i == seat:
            continue
        known = set(shown[i]) if shown is not None else set()
        hidden = [c for c in s.private_objectives if c not in known]
        kept = tuple(c for c in s.private_objectives if c in known) + unseen.take(len(hidden))
        drawn = corporation(s).drawn_objectives(s)
        others[i] = (kept, unseen.take(len(s.objective_offer)), unseen.take(len(drawn)))
    return deck, others


def _event_deck(state: State, own: Seat) -> tuple[int, ...]:
    if not state.event_deck:
        return ()
    peeked = () if own.peeked is None else (own.peeked,)
    seen = {state.event_card, own.peeked}
    unseen = _Unseen(c for cards in event_deck.available(state.players).values() for c in cards if c not in seen)
    return peeked + unseen.take(len(state.event_deck) - len(peeked))
