"""Forks start only at turn boundaries and may re-seat a game; bots see only their seat's view; one
visibility rule serves every read."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from domain import contract
from domain.contract import Role, SeatView, Visibility, fold, seat_view
from domain.homeworlds import GAME as HOMEWORLDS
from domain.planet_unknown import GAME as PLANET_UNKNOWN
from domain.planet_unknown.model import State
from domain.table.record import Record
from service.games import GameService, InvalidRequest, SeatSpec
from service.webhook_policy import WebhookPolicy
from tests.conftest import wait_for
from tests.support.tictactoe import GAME as TICTACTOE

CANARY = 987_654_321
"""A number no real card, tile or roll carries: planted in hidden information, it must never reach a bot."""


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(client: Any, squares: tuple[str, ...], **options: Any) -> dict[str, Any]:
    """A tic-tac-toe game created and played over HTTP; its creation response."""
    game = client.post(
        "/v1/games", json={"game": "tictactoe", "seats": [{"name": "a"}, {"name": "b"}], "options": options}
    ).json
    for square in squares:
        seat = client.get(f"/v1/games/{game['id']}").json["to_act"][0]
        moved = client.post(
            f"/v1/games/{game['id']}/moves", json={"move": square}, headers=auth(game["seats"][seat]["token"])
        )
        assert moved.status_code == 201, moved.json
    return game


def fork(client: Any, game: dict[str, Any], **body: Any) -> Any:
    return client.post(f"/v1/games/{game['id']}/fork", json=body, headers=auth(game["creator_token"]))


class TestForksStartAtTurnBoundaries:
    def test_a_version_inside_a_move_is_refused_with_the_nearest_boundaries(
        self, client: Any, service: GameService
    ) -> None:
        game = new_game(client, ("a1", "a2", "b1"), secret_squares=False)
        types = [e.type for e in service.events(game["id"])]
        assert types == ["GameCreated", "FirstPlayerDrawn"] + ["MoveMade", "MarkPlaced"] * 3
        inside = fork(client, game, at=5)
        assert inside.status_code == 422, inside.json
        error = inside.json["error"]
        assert error["field"] == "at" and error["below"] == 4 and error["above"] == 6
        assert "4 and 6" in error["message"]
        for at in (2, 4, 6, 8):
            forked = fork(client, game, at=at)
            assert forked.status_code == 201, forked.json
            assert forked.json["version"] == at and forked.json["forked_from"] == f"{game['id']}@{at}"
            assert service.verify(forked.json["id"]).ok

    def test_a_version_inside_a_timeout_is_refused(self, client: Any, service: GameService) -> None:
        game = new_game(client, ("a1",), secret_squares=False, on_timeout="random")
        timed = service.time_out(game["id"], service.head(game["id"]).version)
        assert timed is not None and [e.type for e in timed.events] == ["TurnTimedOut", "MarkPlaced"]
        group = [e.version for e in timed.events]
        inside = fork(client, game, at=group[0])
        assert inside.status_code == 422 and inside.json["error"]["above"] == group[-1]
        forked = fork(client, game, at=group[-1])
        assert forked.status_code == 201, forked.json
        assert service.verify(forked.json["id"]).ok

    def test_a_finished_game_forks_at_its_last_boundary_without_its_end(
        self, client: Any, service: GameService
    ) -> None:
        game = new_game(client, ("a1", "a2", "b1", "b2", "c1"))
        head = service.head(game["id"])
        assert head.over
        ended = [e.version for e in service.events(game["id"]) if e.type in ("MoveMade", "SeedRevealed")]
        last_move, revealed = ended[-2], ended[-1]
        for at in (last_move + 1, revealed, head.version):
            refused = fork(client, game, at=at)
            assert refused.status_code == 422, refused.json
            assert refused.json["error"]["below"] == last_move - 1 and refused.json["error"]["above"] is None
        forked = fork(client, game, at=last_move - 1)
        assert forked.status_code == 201, forked.json
        assert forked.json["status"] == "active" and forked.json["to_act"]
        types = {e.type for e in service.events(forked.json["id"])}
        assert not types & {"SeedRevealed", "GameScored"}
        assert service.verify(forked.json["id"]).ok

    def test_at_turn_counts_whole_commands_after_the_deal(self, client: Any, service: GameService) -> None:
        game = new_game(client, ("a1", "a2", "b1", "b2", "c1"))
        first = 1 + service.head(game["id"]).created.setup_events
        for turn in range(5):
            forked = fork(client, game, at_turn=turn)
            assert forked.status_code == 201, forked.json
            assert forked.json["version"] == first + 2 * turn
            assert forked.json["forked_from"] == f"{game['id']}@{first + 2 * turn}"
        past = fork(client, game, at_turn=5)
        assert past.status_code == 422 and past.json["error"]["field"] == "at_turn"
        assert "from 0 (the end of the deal) to 4" in past.json["error"]["message"]

    def test_exactly_one_of_at_and_at_turn(self, client: Any) -> None:
        game = new_game(client, ("a1",), secret_squares=False)
        for body in ({}, {"at": 2, "at_turn": 0}):
            response = fork(client, game, **body)
            assert response.status_code == 422 and "exactly one" in response.json["error"]["message"]
        assert fork(client, game, at_turn=-1).status_code == 400

    def test_the_deal_is_not_a_boundary_before_its_end(self, client: Any) -> None:
        game = new_game(client, ("a1", "a2", "b1", "b2", "c1"))
        refused = fork(client, game, at=2)
        assert refused.status_code == 422 and refused.json["error"]["below"] is None
        assert refused.json["error"]["above"] == 4


class TestReseating:
    def test_a_human_seat_becomes_a_bot_that_a_worker_plays(
        self, client: Any, service: GameService, worker: Any
    ) -> None:
        game = new_game(client, ("a1", "a2", "b1", "b2", "c1"))
        first = 1 + service.head(game["id"]).created.setup_events
        at = first + 2
        to_act = sorted(service.at(game["id"], at).game.to_act(service.at(game["id"], at).state))[0]
        seats: list[dict[str, Any]] = [{"name": "Ada"}, {"name": "Ada"}]
        seats[to_act] = {"name": "Robot", "bot": {"builtin": "random", "think_ms": 10}}
        forked = fork(client, game, at=at, seats=seats)
        assert forked.status_code == 201, forked.json
        body = forked.json
        assert body["seats"][to_act]["bot"] == {"builtin": "random", "think_ms": 10}
        assert body["seats"][to_act]["token"] is None and body["seats"][1 - to_act]["token"]
        created = service.events(body["id"])[0]
        assert created.type == "GameCreated" and created.payload["seats"][to_act]["name"] == "Robot"
        assert created.payload["seed_sha256"] == service.events(game["id"])[0].payload["seed_sha256"]
        wait_for(lambda: service.head(body["id"]).version > at)
        moved = service.events(body["id"], after=at)
        assert moved[0].type == "MoveMade" and moved[0].seat == to_act
        assert service.verify(body["id"]).ok

    def test_seats_are_validated_as_at_creation(self, client: Any, service: GameService) -> None:
        game = new_game(client, ("a1",), secret_squares=False)
        one = fork(client, game, at=2, seats=[{"name": "Solo"}])
        assert (
            one.status_code == 422
            and one.json["error"]["field"] == "seats"
            and "2 seats" in one.json["error"]["message"]
        )
        unknown = fork(client, game, at=2, seats=[{"name": "a"}, {"name": "b", "bot": {"builtin": "oracle"}}])
        assert unknown.status_code == 422 and "no built-in bot 'oracle'" in unknown.json["error"]["message"]
        strict = GameService(service.store, webhook_policy=WebhookPolicy())
        hook = SeatSpec("Hook", {"webhook": "http://127.0.0.1:9/turn"})
        with pytest.raises(InvalidRequest, match=r"seat 1: webhook URL refused: 127\.0\.0\.1 is a loopback address"):
            strict.fork(game["id"], 2, Role.AUDITOR, seats=[SeatSpec("a"), hook])

    def test_a_webhook_seat_keeps_its_url_for_the_creator_only(self, client: Any, service: GameService) -> None:
        game = new_game(client, ("a1",), secret_squares=False)
        seats = [{"name": "a"}, {"name": "Hook", "bot": {"webhook": "http://127.0.0.1:9/turn"}}]
        forked = fork(client, game, at=2, seats=seats)
        assert forked.status_code == 201, forked.json
        first = service.events(forked.json["id"])[0]
        assert first.visible_to == () and first.redacted["seats"][1]["bot"] == {"webhook": True}
        assert service.verify(forked.json["id"]).ok


def planted(state: State, bot_seat: int) -> State:
    """``state`` with the canary in every secret the bot's seat may not read."""
    seats = tuple(
        s
        if i == bot_seat
        else dataclasses.replace(s, hand=(CANARY,), private_objectives=(CANARY,), objective_offer=(CANARY,) * 3)
        for i, s in enumerate(state.seats)
    )
    return dataclasses.replace(
        state,
        seats=seats,
        stacks=tuple((stack[0], CANARY, *stack[2:]) for stack in state.stacks),
        civ_piles=tuple((CANARY, *pile[1:]) for pile in state.civ_piles),
        civ_aside=(CANARY,),
        objective_deck=(CANARY, *state.objective_deck[1:]),
        event_deck=(CANARY, *state.event_deck[1:]),
        event_rolls=(CANARY,) * len(state.event_rolls),
        event_roll=CANARY,
    )


class Captured(Exception):
    """Raised by the spy bot once it has its argument."""


class TestBotsSeeOnlyTheirSeat:
    def test_a_canary_in_hidden_information_never_reaches_the_bot(
        self, service: GameService, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        seats = [SeatSpec("Bot", {"builtin": "random"}), SeatSpec("Human")]
        created = service.create("planet-unknown", seats, {"private_objectives": True, "events": True})
        game_id = created.record.game_id
        record = created.record  # not the head: a worker may already have played the bot's turn
        assert 0 in record.game.to_act(record.state)
        secret = dataclasses.replace(record, state=planted(record.state, 0))
        assert str(CANARY) in repr(secret.state), "the canary is planted"
        received: list[Any] = []

        def spy(view: SeatView[State], seat: int, rng: random.Random, think_ms: int) -> contract.JSON:
            received.append((view, seat))
            raise Captured

        def head(wanted: str) -> Record:
            assert wanted == game_id
            return secret

        monkeypatch.setattr(type(PLANET_UNKNOWN), "bots", {"random": spy})
        monkeypatch.setattr(service, "head", head)
        with pytest.raises(Captured):
            service.bot_move(game_id, 0, secret.version)
        [(view, seat)] = received
        assert isinstance(view, SeatView) and view.seat == seat == 0
        assert str(CANARY) not in repr(view)
        assert PLANET_UNKNOWN.view(view.state, 0) == PLANET_UNKNOWN.view(secret.state, 0)

    def test_planet_unknown_seats_see_what_their_view_shows_and_keep_their_moves(self) -> None:
        rng = random.Random(12)
        state = PLANET_UNKNOWN.initial(3, {"private_objectives": True, "events": True})
        state = fold(PLANET_UNKNOWN, state, PLANET_UNKNOWN.setup(state, b"seat-views"))
        steps = 0
        while PLANET_UNKNOWN.outcome(state) is None:
            if steps % 5 == 0:
                for seat in range(3):
                    view = seat_view(PLANET_UNKNOWN, state, seat)
                    assert PLANET_UNKNOWN.view(view.state, seat) == PLANET_UNKNOWN.view(state, seat)
                    assert list(PLANET_UNKNOWN.legal_moves(view.state, seat)) == list(
                        PLANET_UNKNOWN.legal_moves(state, seat)
                    )
                    for k, stack in enumerate(view.state.stacks):
                        hidden = stack[1:] if state.revealed[k] else stack
                        assert list(hidden) == sorted(hidden), "a hidden stack's order is never read"
            seat = min(PLANET_UNKNOWN.to_act(state))
            bot = PLANET_UNKNOWN.bots["greedy" if seat == 0 else "random"]
            move = bot(seat_view(PLANET_UNKNOWN, state, seat), seat, rng, 0)
            state = fold(PLANET_UNKNOWN, state, PLANET_UNKNOWN.decide(state, seat, move))
            steps += 1

    def test_tictactoe_hides_the_other_secret_and_homeworlds_hides_nothing(self) -> None:
        empty = TICTACTOE.initial(2, {"secret_squares": True})
        board = fold(TICTACTOE, empty, TICTACTOE.setup(empty, b"s"))
        for seat in (0, 1):
            secrets = seat_view(TICTACTOE, board, seat).state.secrets
            assert secrets[seat] == board.secrets[seat] and secrets[1 - seat] is None
        table = HOMEWORLDS.initial(2, {})
        assert seat_view(HOMEWORLDS, table, 1).state is table


class TestOneVisibilityRule:
    def test_the_service_projects_through_the_contract(
        self, client: Any, service: GameService, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        game = new_game(client, ("a1",))
        record = service.head(game["id"])
        calls: list[Any] = []
        rule = contract.project

        def spy(visibility: Visibility, payload: Any, viewer: Any, *, game_over: bool) -> contract.Projection:
            calls.append(viewer)
            return rule(visibility, payload, viewer, game_over=game_over)

        monkeypatch.setattr(contract, "project", spy)
        for envelope in service.events(game["id"]):
            for viewer in (0, 1, Role.SPECTATOR, Role.AUDITOR):
                shown = service.project(record, envelope, viewer)
                expected = rule(
                    Visibility.stored(envelope.visible_to, envelope.redacted),
                    envelope.payload,
                    viewer,
                    game_over=record.over,
                )
                if envelope.type != "GameCreated":
                    assert shown["payload"] == expected.payload and shown["redacted"] is expected.redacted
        assert len(calls) == 4 * len(service.events(game["id"]))

    def test_the_auditor_reads_as_a_spectator_until_the_end(self) -> None:
        assert contract.effective_viewer(Role.AUDITOR, game_over=False) is Role.SPECTATOR
        assert contract.effective_viewer(Role.AUDITOR, game_over=True) is Role.AUDITOR
        assert contract.effective_viewer(1, game_over=False) == 1
        private = Visibility(frozenset({1}), {"seat": 1})
        assert contract.project(private, {"square": 4}, 0, game_over=True).redacted
        assert not contract.project(private, {"square": 4}, Role.AUDITOR, game_over=True).redacted
        assert contract.project(private, {"square": 4}, Role.AUDITOR, game_over=False).payload == {"seat": 1}
