"""Hidden information: no spectator or opponent ever sees a secret, in views or in events."""

from __future__ import annotations

import itertools
import json
import random

from domain.contract import Event, Role, Viewer, effective_viewer, encode_event, project
from domain.planet_unknown import GAME
from domain.planet_unknown.data import civ_cards, private_objectives
from domain.planet_unknown.model import Phase, State

from .helpers import start


def projected(event: Event, viewer: Viewer, over: bool) -> str:
    """The event as ``viewer`` reads it, through the projection every read of the service uses."""
    name, payload = encode_event(event)
    return json.dumps([name, dict(project(event.visibility(), payload, viewer, game_over=over).payload)])


def viewed(state: State, viewer: Viewer, over: bool) -> str:
    """The state as ``viewer`` reads it, as the service shows it (the auditor as a spectator until the end)."""
    return json.dumps(GAME.view(state, effective_viewer(viewer, game_over=over)))


def play_with_snapshots(players: int, seed: bytes) -> list[tuple[State, list[Event]]]:
    rng = random.Random(seed)
    state = start(players, seed)
    log: list[Event] = list(GAME.setup(GAME.initial(players, {"events": False}), seed))
    snapshots = [(state, list(log))]
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        new = GAME.decide(state, seat, rng.choice(list(GAME.legal_moves(state, seat))))
        for event in new:
            state = GAME.evolve(state, event)
        log.extend(new)
        snapshots.append((state, list(log)))
    return snapshots


def secrets_for(state: State, viewer: Viewer) -> list[str]:
    """Strings that would betray a secret to ``viewer`` in ``state``."""
    out = []
    for stack in state.stacks:
        hidden = stack[1:]
        for a, b in itertools.pairwise(hidden):
            out.append(f"[{a}, {b}]")
    seen = {c for hand in (state.shown_hands or ()) for c in hand}
    for seat, s in enumerate(state.seats):
        if seat != viewer:
            out.extend(json.dumps(civ_cards()[c].name) for c in s.hand if c not in seen)
    inspecting = {
        b.rank for b in (state.seats[viewer].pending if isinstance(viewer, int) else ()) if b.kind.value == "civ"
    }
    for rank, pile in enumerate(state.civ_piles, start=1):
        if rank not in inspecting:
            out.extend(json.dumps(civ_cards()[c].name) for c in pile)
    out.extend(json.dumps(civ_cards()[c].name) for c in state.civ_aside)
    return out


def test_no_secret_reaches_spectators_or_opponents() -> None:
    for players in (2, 4):
        snapshots = play_with_snapshots(players, b"hidden-%d" % players)
        for index, (state, log) in enumerate(snapshots):
            if index % 7 and state.phase is not Phase.OVER:
                continue
            over = state.phase is Phase.OVER
            viewers: list[Viewer] = [Role.SPECTATOR, *range(players)]
            if not over:
                viewers.append(Role.AUDITOR)
            for viewer in viewers:
                text = viewed(state, viewer, over) + "".join(projected(e, viewer, over) for e in log)
                for secret in secrets_for(state, viewer):
                    assert secret not in text, (viewer, secret)
                assert '"stacks": [[' not in text and '"piles": [[' not in text
                for seat in range(players):
                    if seat != viewer:
                        assert "pending" not in GAME.view(state, viewer)["seats"][seat]


def test_the_seat_sees_its_own_cards_and_the_auditor_sees_all_at_the_end() -> None:
    snapshots = play_with_snapshots(3, b"own")
    state, log = snapshots[-1]
    for seat in range(3):
        assert GAME.view(state, seat)["seats"][seat]["hand"] == list(state.seats[seat].hand)
    audit = GAME.view(state, Role.AUDITOR)
    assert "civ_aside" in audit and all("tiles" in s for s in audit["station"])
    assert all('"card"' in projected(e, Role.AUDITOR, True) for e in log if type(e).__name__ == "CivCardTaken")
    mid = snapshots[len(snapshots) // 2][0]
    assert GAME.view(mid, Role.AUDITOR) == GAME.view(mid, Role.SPECTATOR)


def test_event_deck_and_private_objectives_stay_secret() -> None:
    rng = random.Random(5)
    players = 3
    initial = GAME.initial(players, {"private_objectives": True})
    log: list[Event] = list(GAME.setup(initial, b"modules"))
    state = initial
    for event in log:
        state = GAME.evolve(state, event)
    deck = state.event_deck
    while GAME.outcome(state) is None:
        over = False
        kept = [s.private_objectives for s in state.seats]
        for viewer in (Role.SPECTATOR, *range(players)):
            text = viewed(state, viewer, over) + "".join(projected(e, viewer, over) for e in log)
            for a, b in itertools.pairwise(state.event_deck):
                assert f"[{a}, {b}]" not in text, (viewer, "event deck order")
            for seat, cards in enumerate(kept):
                if seat != viewer:
                    assert not any(json.dumps(private_objectives()[c].name) in text for c in cards), (viewer, seat)
                    assert '"next_event"' not in json.dumps(GAME.view(state, viewer)["seats"][seat])
        for _ in range(9):
            if GAME.outcome(state) is not None:
                break
            seat = min(GAME.to_act(state))
            new = GAME.decide(state, seat, rng.choice(list(GAME.legal_moves(state, seat))))
            for event in new:
                state = GAME.evolve(state, event)
            log.extend(new)
    revealed = [e for e in log if type(e).__name__ == "EventRevealed"]
    assert [e.card for e in revealed] == list(deck[: len(revealed)])  # type: ignore[attr-defined]
    end = json.dumps(GAME.view(state, 1))
    assert all(json.dumps(private_objectives()[c].name) in end for s in state.seats for c in s.private_objectives)
