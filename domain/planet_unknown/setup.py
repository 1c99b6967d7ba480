"""Setting a game up: the seats before the deal, and the dealing events (station, civ piles,
objectives, event deck, setup offers, commander)."""

from __future__ import annotations

from typing import Any

from domain.contract import Event, rng

from . import event_deck, setup_choice
from . import events as ev
from .data import SIZE, TRACKS, Terrain, civ_cards, objectives, planets, station, tiles
from .model import GARAGE, Rulings, Seat, State
from .powers import CORPORATIONS, STANDARD

PLANET = "ksb-4156"
SOLO_OBJECTIVES = 4
PRIVATE_OBJECTIVES_DEALT = 2


def new_seat(planet: str, corp: str, track: Terrain | None = None) -> Seat:
    """A seat before its first tile: lifepods on their squares, rovers in the garage, trackers on 0, the
    corporation's own state as it starts (``track``: the one named at setup, e.g. Flux Industries' flux track)."""
    board = CORPORATIONS[corp]
    return Seat(
        planet=planet,
        corporation=corp,
        cover=("",) * (SIZE * SIZE),
        covered=0,
        lifepods=planets()[planet].lifepods,
        meteorites=frozenset(),
        rovers=(GARAGE,) * board.rovers,
        tracks=(0,) * len(TRACKS),
        corporation_state=board.initial_state(track),
    )


def initial(players: int, options: dict[str, Any], rulings: Rulings) -> State:
    """Every seat on KSB-4156 with Universal Coalition, or as option ``seat_setup`` fixes, before the deal,
    under ``rulings`` (those of the game's rules version)."""
    if options.get("seat_setup"):
        fixed = setup_choice.parse_seat_setup(options["seat_setup"], players)
        named = setup_choice.seat_setup_tracks(options["seat_setup"])
        seats = tuple(new_seat(planet, corp, track) for (planet, corp), track in zip(fixed, named, strict=True))
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
