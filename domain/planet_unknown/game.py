"""Planet Unknown behind the service contract (:class:`domain.contract.Game`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.contract import (
    JSON,
    Bot,
    Event,
    GameOverError,
    InvalidOptionError,
    Option,
    Outcome,
    Role,
    Viewer,
    parse_options,
)

from . import bots as choosers
from . import event_deck, powers, rules, scoring, setup_choice, upcast
from . import seat_state as seat_states
from .board import square_name
from .data import ALERTS, SIZE, TRACKS, civ_cards, objectives, planets, private_objectives
from .events import EVENTS, SeatForfeited
from .model import DESTROYED, GARAGE, RULINGS_4, Kind, Phase, Rulings, Seat, State
from .moves import parse_move
from .notation import print_seat

OPTIONS: tuple[Option, ...] = (
    Option(
        "two_player_auto_rotation",
        bool,
        True,
        "With 2 players the station turns one depot clockwise every round (BGA); false: the commander "
        "chooses the rotation, as in the rulebook's standard game.",
    ),
    Option(
        "uc_tech1_waives_edge",
        bool,
        True,
        "Universal Coalition tech 1 also waives the first-tile-on-the-edge rule (BGA); false: it only "
        "waives adjacency (rulebook wording).",
    ),
    Option(
        "events",
        bool,
        None,
        "Play with the event deck: one event card per round, 20 cards, the last one ends the game. Unset: "
        "on in a solo game (the rulebook's solo game needs it), off with 2-6 players (BGA's default).",
    ),
    Option(
        "event_mix",
        dict,
        {},
        'The deck\'s colours, e.g. {"green": 8, "orange": 6, "red": 6}, adding up to 20 (rulebook); '
        "default {}: a random mix as BGA draws it.",
        check=lambda value: None if value == {} else event_deck.mix_problem(value),
    ),
    Option(
        "private_objectives",
        bool,
        False,
        "2-6 players: deal 2 objective cards per player, each keeps 1 on its private side (5 medals if "
        "met). Solo always deals 4 and keeps 3.",
    ),
    Option(
        "asymmetric_planets",
        bool,
        False,
        "Deal each player one random asymmetric planet; before round 1 each keeps it or takes KSB-4156 (BGA).",
    ),
    Option(
        "asymmetric_corporations",
        bool,
        False,
        "Deal each player one random asymmetric corporation; before round 1 each keeps it or takes "
        "Universal Coalition (BGA). Refused while some asymmetric corporation has no rules here.",
    ),
    Option(
        "seat_setup",
        list,
        [],
        'Fix each seat\'s planet and corporation: [{"planet": "Arashi", "corporation": "Universal Coalition"}, '
        "...], one entry per seat, printed names or slugs; no setup choice then.",
    ),
)


class PlanetUnknown:
    """The rules of Planet Unknown as Board Game Arena plays them: every planet, Universal Coalition.

    A move names a square only by its name (``"e4"``), in its JSON form as in its text form.
    """

    name = "planet-unknown"
    rules_version = "planet-unknown-6"
    records_outcomes = True
    """Whether the events this game stores carry their outcomes (:mod:`.outcomes`); games of rules
    ``planet-unknown-3`` to ``-5`` store them without, as they always did (:func:`.upcast.stripped`)."""
    legacy_moves = False
    """Whether moves are read as rules ``planet-unknown-3`` read them (see :func:`.moves.parse_move`)."""
    rulings: Rulings = Rulings()
    """How the rules settle the points issue 17 corrected; carried by every state this game starts
    (``State.rulings``), where the rules read them."""
    seat_counts = range(1, 7)
    options: Sequence[Option] = OPTIONS
    events: Mapping[str, type[Event]] = EVENTS
    bots: Mapping[str, Bot] = choosers.BOTS
    pass_move: JSON | None = None

    def initial(self, seats: int, options: Mapping[str, JSON]) -> State:
        """Every seat on KSB-4156 with Universal Coalition (or as `seat_setup` fixes), before the deal."""
        if seats not in self.seat_counts:
            raise ValueError(f"Planet Unknown takes 1 to 6 players, not {seats}")
        parsed = parse_options(self.options, options)
        if parsed["events"] is None:
            parsed["events"] = seats == 1 or bool(parsed["event_mix"])
        if parsed["event_mix"]:
            if not parsed["events"]:
                raise InvalidOptionError("option 'event_mix' needs the event deck (set 'events' to true)")
            if (problem := event_deck.mix_problem(parsed["event_mix"], seats)) is not None:
                raise InvalidOptionError(f"option 'event_mix': {problem}")
        if parsed["private_objectives"] and seats == 1:
            raise InvalidOptionError(
                "option 'private_objectives' is for 2-6 players; a solo game always deals 4 objectives and keeps 3"
            )
        setup_choice.check_options(parsed, seats)
        return rules.initial(seats, parsed, self.rulings)

    def setup(self, state: State, seed: bytes) -> list[Event]:
        """Load the station, deal civ piles and objectives, pick the commander, and start round 1."""
        out = rules.deal(state, seed)
        for event in out:
            state = rules.evolve(state, event)
        _, more = rules.settle(state)
        return self._stored(out + more)

    def decide(self, state: State, seat: int, move: JSON) -> list[Event]:
        """Check ``move`` (JSON object or text form) and return its events and the automatic ones after it."""
        if state.phase is Phase.OVER:
            raise GameOverError("the game is over")
        return self._stored(rules.play(state, seat, parse_move(move, legacy=self.legacy_moves))[1])

    def _stored(self, events: list[Event]) -> list[Event]:
        """The events as this rules version stores them (see :attr:`records_outcomes`)."""
        return events if self.records_outcomes else [upcast.stripped(e) for e in events]

    def evolve(self, state: State, event: Event) -> State:
        """Apply one event without validating it."""
        return rules.evolve(state, event)

    def legal_moves(self, state: State, seat: int) -> Iterable[JSON]:
        """Every move ``seat`` may make now, as JSON objects."""
        return (m.to_json() for m in rules.legal_moves(state, seat))

    def to_act(self, state: State) -> frozenset[int]:
        """The seats that must act now (several during the simultaneous draft)."""
        return rules.to_act(state)

    def outcome(self, state: State) -> Outcome | None:
        """The winners once the game is over."""
        if state.phase is not Phase.OVER:
            return None
        return Outcome(winners=scoring.winners(state), reason="score" if state.forfeited is None else "timeout")

    def scores(self, state: State) -> dict[str, JSON]:
        """Per seat: total, medals per category, per track and per objective, and the tie-breakers.

        Solo adds ``solo``: the ``score``, the ``target``, their ``difference`` and the result ``band``.
        """
        out: dict[str, JSON] = {"seats": scoring.score_all(state), "final": state.phase is Phase.OVER}
        if state.players == 1:
            out["solo"] = scoring.solo_result(state)
        return out

    def seat_state(self, state: State, seat: int) -> State:
        """The state as ``seat`` may see it, for its bot: hidden stacks, decks, cards and rolls are replaced by
        stand-ins from what the seat may see (see :mod:`~domain.planet_unknown.seat_state`)."""
        return seat_states.seat_state(state, seat)

    def timed_out(self, state: State, seat: int) -> list[Event]:
        """The seat forfeits: the game ends, and the best of the other seats by score win."""
        if state.phase is Phase.OVER:
            raise GameOverError("the game is over")
        return [SeatForfeited(seat)]

    def view(self, state: State, viewer: Viewer) -> JSON:
        """What ``viewer`` may see, as JSON.

        Keys: ``round``, ``phase``, ``commander``, ``rotation``, ``ring_offset``, ``last_round``,
        ``to_act``, ``station`` (12 stacks: size and face-up top tile), ``civ_piles`` (sizes; the
        cards only for the seat picking from that pile), ``objectives``, and ``seats``: per seat
        its printed ``grid``, covered ``rows``, ``placed_tiles`` (each tile and the squares it
        covers), one-line ``position``, ``tracks``, ``tech_level``,
        rovers, lifepods, meteorites, depot and offered tiles, and, for the viewer's own seat,
        ``hand``, ``pending`` benefits, ``rover_moves``, ``private_objectives`` (others: how many),
        ``objective_offer``, the ``powers`` it may use now (``power`` moves), the ``civ_choices`` of its
        pending civ picks, the peeked ``next_event`` and, before round 1, its ``setup_choices`` and
        ``setup_chosen`` (others see the choices once every seat has chosen). ``events`` describes the event deck
        (None when off): mix, cards left and drawn, this round's card; each seat says whether this
        round's tile restriction is ``restriction_relaxed`` for it. Solo adds ``solo`` (target; score
        and band for the player). Other seats' civ cards and private objectives appear once
        revealed at the end; the auditor sees everything once the game is over (before that,
        what a spectator sees); ``scores`` appear at the end.
        """
        over = state.phase is Phase.OVER
        everything = viewer is Role.AUDITOR and over
        me = viewer if isinstance(viewer, int) else None
        station = []
        for k, stack in enumerate(state.stacks):
            station.append(
                {
                    "stack": k,
                    "ring": "outer" if k < 6 else "inner",
                    "size": len(stack),
                    "top": stack[0] if stack and state.revealed[k] else None,
                    **({"tiles": list(stack)} if everything else {}),
                }
            )
        seats = []
        for i, seat in enumerate(state.seats):
            own = everything or me == i
            shown = state.shown_hands[i] if state.shown_hands is not None else None
            entry: dict[str, Any] = {
                "seat": i,
                "planet": seat.planet,
                "grid": list(planets()[seat.planet].grid),
                "corporation": seat.corporation,
                "position": print_seat(_visible_seat(seat, own, shown)),
                "rows": [
                    "".join(letter or "." for letter in seat.cover[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)
                ],
                "placed_tiles": [
                    {"tile": tile, "squares": [square_name(s) for s in squares]}
                    for tile, squares in zip(seat.placed, seat.tile_squares, strict=False)
                ],
                "tracks": {str(t): p for t, p in zip(TRACKS, seat.tracks, strict=True)},
                "tech_level": powers.tech_level(seat),
                **powers.corporation(seat).view_fields(seat),
                "rovers": [
                    "garage" if r == GARAGE else "destroyed" if r == DESTROYED else square_name(r) for r in seat.rovers
                ],
                "lifepods": [square_name(s) for s in sorted(seat.lifepods)],
                "meteorites": [square_name(s) for s in sorted(seat.meteorites)],
                "lifepods_collected": seat.lifepods_collected,
                "meteorites_collected": seat.meteorites_collected,
                "stored_patches": seat.stored_patches,
                "depot": list(rules.depot(state, i)),
                "offered": rules.offered(state, i),
                "civ_cards": len(seat.hand),
                "stage": seat.stage.value,
            }
            entry["meteor_symbols"] = [square_name(s) for s in sorted(seat.meteor_symbols)]
            entry["private_objectives"] = len(seat.private_objectives)
            if own:
                entry["hand"] = list(seat.hand)
                entry["pending"] = [b.describe() for b in seat.pending]
                entry["rover_moves"] = seat.moves
                entry["civ_picks_waiting"] = list(seat.civ_queue)
                entry["private_objectives"] = _private(seat.private_objectives)
                entry["objective_offer"] = _private(seat.objective_offer)
                entry["shared_offer"] = [
                    {"card": c, "name": objectives()[c].name} for c in powers.corporation(seat).drawn_objectives(seat)
                ]
                entry["powers"] = list(rules.power_levels(state, i)) if i in rules.to_act(state) else []
                entry["civ_choices"] = sorted(
                    {c for b in seat.pending if b.kind is Kind.CIV for c in rules.civ_choices(state, seat, b)}
                )
                if seat.setup_offer is not None:
                    entry["setup_choices"] = [
                        {"planet": p, "corporation": c} for p, c in setup_choice.choices(seat.setup_offer)
                    ]
                    entry["setup_chosen"] = list(seat.setup_choice) if seat.setup_choice else None
                if seat.peeked is not None:
                    entry["next_event"] = seat.peeked
            elif shown is not None:
                entry["hand"] = list(shown)
            if not own and state.shown_objectives is not None:
                entry["private_objectives"] = _private(state.shown_objectives[i])
            if state.event_card is not None:
                entry["restriction_relaxed"] = (
                    event_deck.tile_rule(state) is not None and rules.tile_rule(state, i) is None
                )
            seats.append(entry)
        piles: list[dict[str, Any]] = []
        for rank, pile in enumerate(state.civ_piles, start=1):
            pile_view: dict[str, Any] = {"rank": rank, "size": len(pile)}
            if everything or (me is not None and _inspecting(state, me, rank)):
                pile_view["cards"] = [{"id": c, "name": civ_cards()[c].name} for c in pile]
            piles.append(pile_view)
        return {
            "game": self.name,
            "round": state.round,
            "phase": state.phase.value,
            "commander": state.commander,
            "rotation": state.rotation,
            "ring_offset": state.offset,
            "last_round": state.last_round,
            "to_act": sorted(rules.to_act(state)),
            "station": station,
            "civ_piles": piles,
            "objectives": [
                {"card": card, "name": objectives()[card].name, "seats": [a, b]}
                for card, a, b in scoring.objective_pairs(state)
            ],
            "shared_objectives": [{"card": c, "name": objectives()[c].name} for c in state.shared_objectives],
            "seats": seats,
            "events": self._events_view(state, everything),
            **({"solo": self._solo_view(state, over or me == 0)} if state.players == 1 else {}),
            **({"civ_aside": list(state.civ_aside)} if everything else {}),
            **({"scores": scoring.score_all(state)} if over else {}),
        }

    @staticmethod
    def _solo_view(state: State, full: bool) -> JSON:
        """The solo target; with the score and band for the player (its private objectives count) or at the end."""
        if full:
            return scoring.solo_result(state)
        return {"target": event_deck.solo_target(state.event_mix)}

    @staticmethod
    def _events_view(state: State, everything: bool) -> JSON:
        """The event deck: off (None), or its mix, cards left and drawn, and this round's card."""
        if state.event_mix is None:
            return None
        card = event_deck.card_of(state)
        out: dict[str, Any] = {
            "mix": dict(zip(ALERTS, state.event_mix, strict=True)),
            "left": len(state.event_deck),
            "drawn": state.events_drawn,
            "card": None,
        }
        if card is not None:
            out["card"] = {"id": card.id, "alert": card.alert, "effect": card.effect, **card.params}
        if everything:
            out["deck"] = list(state.event_deck)
        return out


class PlanetUnknown5(PlanetUnknown):
    """Rules ``planet-unknown-5``: rules 6 whose events are stored without their outcomes (the fold computed
    them); reading them, :mod:`.upcast` computes them as that fold did.

    Kept for the games stored under it, which fold, play on and are verified as they were recorded.
    """

    rules_version = "planet-unknown-5"
    records_outcomes = False


class PlanetUnknown4(PlanetUnknown5):
    """Rules ``planet-unknown-4``: the game before issue 17's rulings (:data:`.model.RULINGS_4`): events
    82/83 and civ cards 13/18 collect "up to", event 122 leaves Jump Drive A and C alone, events
    104/108 spare a tile taken without placing, once-per-round powers and bonuses come again at each
    civ-card slot and end-game turn (BGA's resets), and Republic tech 5 at every end-game turn.

    Kept for the games stored under it, which fold and are verified under these rules.
    """

    rules_version = "planet-unknown-4"
    rulings = RULINGS_4


class PlanetUnknown3(PlanetUnknown4):
    """Rules ``planet-unknown-3``: rules 4, whose moves also named squares ``[row, column]`` (from 0).

    Kept for the games stored under it, whose recorded moves are decided again when they are verified.
    """

    rules_version = "planet-unknown-3"
    legacy_moves = True


def _private(cards: tuple[int, ...]) -> list[dict[str, Any]]:
    return [{"card": c, "name": private_objectives()[c].name} for c in cards]


def _inspecting(state: State, seat: int, rank: int) -> bool:
    return any(b.rank == rank and b.kind is Kind.CIV for b in state.seats[seat].pending)


def _visible_seat(seat: Seat, own: bool, shown: tuple[int, ...] | None) -> Seat:
    """The seat as a viewer may print it: other seats' civ cards only once revealed."""
    return seat if own else dataclasses.replace(seat, hand=shown or ())
