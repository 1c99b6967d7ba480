"""Planet Unknown behind the service contract (:class:`domain.contract.Game`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from domain.contract import JSON, Bot, Event, GameOverError, Option, Outcome, Role, Viewer, parse_options

from . import bots as choosers
from . import powers, rules, scoring
from .board import square_name
from .data import SIZE, TRACKS, civ_cards, objectives, planets
from .events import EVENTS, SeatForfeited
from .model import DESTROYED, GARAGE, Kind, Phase, Seat, State
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
)


class PlanetUnknown:
    """The rules of Planet Unknown as Board Game Arena plays them, on KSB-4156 with Universal Coalition."""

    name = "planet-unknown"
    rules_version = "planet-unknown-1"
    seat_counts = range(1, 7)
    options: Sequence[Option] = OPTIONS
    events: Mapping[str, type[Event]] = EVENTS
    bots: Mapping[str, Bot] = MappingProxyType({"random": choosers.random, "greedy": choosers.greedy})
    pass_move: JSON | None = None

    def initial(self, seats: int, options: Mapping[str, JSON]) -> State:
        """Every seat on KSB-4156 with Universal Coalition, before the deal."""
        if seats not in self.seat_counts:
            raise ValueError(f"Planet Unknown takes 1 to 6 players, not {seats}")
        return rules.initial(seats, parse_options(self.options, options))

    def setup(self, state: State, seed: bytes) -> list[Event]:
        """Load the station, deal civ piles and objectives, pick the commander, and start round 1."""
        out = rules.deal(state, seed)
        for event in out:
            state = rules.evolve(state, event)
        _, more = rules.settle(state)
        return out + more

    def decide(self, state: State, seat: int, move: JSON) -> list[Event]:
        """Check ``move`` (JSON object or text form) and return its events and the automatic ones after it."""
        if state.phase is Phase.OVER:
            raise GameOverError("the game is over")
        out = rules.decide(state, seat, parse_move(move))
        for event in out:
            state = rules.evolve(state, event)
        _, more = rules.settle(state)
        return out + more

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
        """Per seat: total, medals per category, per track and per objective, and the tie-breakers."""
        return {"seats": scoring.score_all(state), "final": state.phase is Phase.OVER}

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
        its printed ``grid``, covered ``rows``, one-line ``position``, ``tracks``, ``tech_level``,
        rovers, lifepods, meteorites, depot and offered tiles, and, for the viewer's own seat,
        ``hand``, ``pending`` benefits and ``rover_moves``. Other seats' civ cards appear once
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
                "tracks": {str(t): p for t, p in zip(TRACKS, seat.tracks, strict=True)},
                "tech_level": powers.tech_level(seat),
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
            if own:
                entry["hand"] = list(seat.hand)
                entry["pending"] = [b.describe() for b in seat.pending]
                entry["rover_moves"] = seat.moves
                entry["civ_picks_waiting"] = list(seat.civ_queue)
            elif shown is not None:
                entry["hand"] = list(shown)
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
            "seats": seats,
            **({"civ_aside": list(state.civ_aside)} if everything else {}),
            **({"scores": scoring.score_all(state)} if over else {}),
        }


def _inspecting(state: State, seat: int, rank: int) -> bool:
    return any(b.rank == rank and b.kind is Kind.CIV for b in state.seats[seat].pending)


def _visible_seat(seat: Seat, own: bool, shown: tuple[int, ...] | None) -> Seat:
    """The seat as a viewer may print it: other seats' civ cards only once revealed."""
    return seat if own else dataclasses.replace(seat, hand=shown or ())
