"""Planet Unknown on the service: simultaneous moves, and bots to the scored end."""

from __future__ import annotations

import json
import threading
from typing import Any

from domain.contract import Role
from service.games import GameService, SeatSpec
from tests.conftest import Worker, wait_for
from tests.support.seeds import strong_seed


def human_seats(n: int) -> list[SeatSpec]:
    return [SeatSpec(f"P{i}") for i in range(n)]


def to_draft(service: GameService, game_id: str) -> Any:
    """Let the commander rotate the station, so that everyone drafts at once."""
    record = service.head(game_id)
    while len(record.game.to_act(record.state)) == 1:
        seat = next(iter(record.game.to_act(record.state)))
        service.submit(game_id, seat, next(iter(record.game.legal_moves(record.state, seat))))
        record = service.head(game_id)
    return record


def test_six_players_placing_at_the_same_moment_all_succeed(service: GameService) -> None:
    game_id = service.create("planet-unknown", human_seats(6), {}, strong_seed("six")).record.game_id
    record = to_draft(service, game_id)
    assert record.game.to_act(record.state) == frozenset(range(6))
    moves = {seat: next(iter(record.game.legal_moves(record.state, seat))) for seat in range(6)}
    barrier = threading.Barrier(6)
    errors: list[Exception] = []

    def place(seat: int) -> None:
        barrier.wait()
        try:
            service.submit(game_id, seat, moves[seat])
        except Exception as error:
            errors.append(error)

    threads = [threading.Thread(target=place, args=(seat,)) for seat in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    envelopes = service.events(game_id, after=record.version)
    assert sorted({e.seat for e in envelopes if e.seat is not None}) == list(range(6))
    assert [e.version for e in envelopes] == list(range(record.version + 1, record.version + 1 + len(envelopes)))


def test_hidden_stacks_and_cards_do_not_reach_spectators(service: GameService) -> None:
    game_id = service.create("planet-unknown", human_seats(3), {}, strong_seed("hide")).record.game_id
    record = service.head(game_id)
    state = record.state
    text = json.dumps(
        [service.view(record, Role.SPECTATOR)]
        + [service.project(record, e, Role.SPECTATOR) for e in service.events(game_id)]
    )
    for stack in state.stacks:
        assert len(stack) > 2
        assert json.dumps(list(stack[1:3])) not in text.replace(" ", "").replace(",", ", ")
    assert any(e.visible_to == () for e in service.events(game_id))


def test_six_builtin_bots_play_to_the_scored_end(service: GameService, worker: Worker) -> None:
    seats = [SeatSpec(f"Bot{i}", {"builtin": "random", "think_ms": 1}) for i in range(6)]
    game_id = service.create("planet-unknown", seats, {}, strong_seed("bots")).record.game_id

    def scored() -> Any:
        record = service.head(game_id)
        return record if record.scored is not None else None

    record = wait_for(scored, timeout=240, interval=0.5)
    assert record.outcome.reason == "score"
    seats = record.scored.scores["seats"]
    assert [s["seat"] for s in seats] == list(range(6))
    assert all(isinstance(s["total"], int) for s in seats)
    assert max(s["total"] for s in seats) == seats[record.outcome.winners[0]]["total"]


def test_a_solo_game_of_greedy_plays_to_its_end(service: GameService, worker: Worker) -> None:
    seats = [SeatSpec("Solo", {"builtin": "greedy", "think_ms": 1})]
    game_id = service.create("planet-unknown", seats, {}, strong_seed("solo")).record.game_id
    assert any(e.type == "EventDeckShuffled" for e in service.events(game_id))

    def scored() -> Any:
        record = service.head(game_id)
        return record if record.scored is not None else None

    record = wait_for(scored, timeout=240, interval=0.5)
    solo = record.scored.scores["solo"]
    assert set(solo) >= {"score", "target", "band"}
    assert (record.outcome.winners == (0,)) == (solo["score"] >= solo["target"])
    assert -15 <= solo["band"] <= 15
