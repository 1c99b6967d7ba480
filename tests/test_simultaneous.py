"""``expected_version`` per seat: another seat's simultaneous move does not make it stale; one's own does."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from domain.table.record import relevant_to
from service.games import GameService, SeatSpec, StaleVersion
from tests.support.seeds import strong_seed


def to_draft(service: GameService, game_id: str) -> Any:
    """Let the commander rotate the station, so that everyone drafts at once."""
    record = service.head(game_id)
    while len(record.game.to_act(record.state)) == 1:
        seat = next(iter(record.game.to_act(record.state)))
        service.submit(game_id, seat, next(iter(record.game.legal_moves(record.state, seat))))
        record = service.head(game_id)
    return record


def drafting(service: GameService, players: int, name: str) -> tuple[str, Any]:
    seats = [SeatSpec(f"P{i}") for i in range(players)]
    game_id = service.create("planet-unknown", seats, {}, strong_seed(name)).record.game_id
    record = to_draft(service, game_id)
    assert record.game.to_act(record.state) == frozenset(range(players))
    return game_id, record


def first_move(record: Any, seat: int) -> Any:
    return next(iter(record.game.legal_moves(record.state, seat)))


class TestPlanetUnknown:
    def test_two_seats_placing_with_the_version_they_read_both_succeed(self, service: GameService) -> None:
        game_id, record = drafting(service, 2, "simultaneous-two")
        read = record.version
        service.submit(game_id, 0, first_move(record, 0), expected_version=read)
        done = service.submit(game_id, 1, first_move(record, 1), expected_version=read)
        assert done.record.version > read
        assert {e.seat for e in service.events(game_id, after=read)} == {0, 1}

    def test_concurrent_placements_with_expected_version_all_succeed(self, service: GameService) -> None:
        game_id, record = drafting(service, 4, "simultaneous-four")
        barrier = threading.Barrier(4)
        errors: list[Exception] = []

        def place(seat: int) -> None:
            barrier.wait()
            try:
                service.submit(game_id, seat, first_move(record, seat), expected_version=record.version)
            except Exception as error:
                errors.append(error)

        threads = [threading.Thread(target=place, args=(seat,)) for seat in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert {e.seat for e in service.events(game_id, after=record.version)} == {0, 1, 2, 3}

    def test_a_seats_own_double_submit_is_stale(self, service: GameService) -> None:
        game_id, record = drafting(service, 2, "simultaneous-double")
        read = record.version
        placed = service.submit(game_id, 0, first_move(record, 0), expected_version=read)
        again = first_move(placed.record, 0)
        with pytest.raises(StaleVersion) as stale:
            service.submit(game_id, 0, again, expected_version=read)
        assert stale.value.details == {
            "current_version": placed.record.version,
            "seat_version": placed.record.version,
        }
        service.submit(game_id, 1, first_move(record, 1), expected_version=read)
        head = service.head(game_id)
        assert head.seat_version(0) == placed.record.version < head.version
        service.submit(game_id, 0, again, expected_version=head.seat_version(0))

    def test_a_version_ahead_of_the_game_is_stale(self, service: GameService) -> None:
        game_id, record = drafting(service, 2, "simultaneous-ahead")
        with pytest.raises(StaleVersion):
            service.submit(game_id, 0, first_move(record, 0), expected_version=record.version + 1)

    def test_the_seat_to_act_alone_sees_every_change(self, service: GameService) -> None:
        """While the commander alone rotates the station, its moves are relevant to everyone."""
        seats = [SeatSpec("A"), SeatSpec("B")]
        game_id = service.create(
            "planet-unknown", seats, {"two_player_auto_rotation": False}, strong_seed("rotation")
        ).record.game_id
        record = service.head(game_id)
        (commander,) = record.game.to_act(record.state)
        done = service.submit(game_id, commander, first_move(record, commander))
        assert done.record.seat_versions == (done.record.version,) * 2

    def test_over_the_api_the_409_names_the_seat_version(self, client: Any) -> None:
        body = {"game": "planet-unknown", "seats": [{"name": "A"}, {"name": "B"}], "seed": strong_seed("api").decode()}
        game = client.post("/v1/games", json=body).json
        tokens = {s["index"]: {"Authorization": f"Bearer {s['token']}"} for s in game["seats"]}
        url = f"/v1/games/{game['id']}"
        while len(game["to_act"]) == 1:
            seat = game["to_act"][0]
            legal = client.get(f"{url}/legal-moves", headers=tokens[seat]).json["moves"]
            assert client.post(f"{url}/moves", json={"move": legal[0]}, headers=tokens[seat]).status_code == 201
            game = client.get(url, headers=tokens[0]).json
        read = game["version"]
        moves = {s: client.get(f"{url}/legal-moves", headers=tokens[s]).json["moves"][0] for s in (0, 1)}
        first = client.post(f"{url}/moves", json={"move": moves[0], "expected_version": read}, headers=tokens[0])
        assert first.status_code == 201, first.json
        second = client.post(f"{url}/moves", json={"move": moves[1], "expected_version": read}, headers=tokens[1])
        assert second.status_code == 201, second.json
        again = client.post(f"{url}/moves", json={"move": moves[0], "expected_version": read}, headers=tokens[0])
        assert again.status_code == 409
        error = again.json["error"]
        assert error["code"] == "stale_version" and error["seat_version"] > read


class TestHomeworlds:
    def test_the_check_stays_strict(self, service: GameService) -> None:
        game_id = service.create("homeworlds", [SeatSpec("Ada"), SeatSpec("Bob")], {}).record.game_id
        read = service.head(game_id).version
        service.submit(game_id, 0, "homeworld b2 y1 g3", expected_version=read)
        with pytest.raises(StaleVersion):
            service.submit(game_id, 1, "homeworld b1 r2 g3", expected_version=read)
        with pytest.raises(StaleVersion):
            service.submit(game_id, 1, {"resign": True}, expected_version=read)
        head = service.head(game_id)
        assert head.seat_versions == (head.version, head.version)
        service.submit(game_id, 1, "homeworld b1 r2 g3", expected_version=head.version)

    def test_an_offer_of_a_draw_makes_a_resignation_stale(self, service: GameService) -> None:
        """The one move that leaves the seat to act unchanged still counts: one seat acts at a time."""
        game_id = service.create("homeworlds", [SeatSpec("Ada"), SeatSpec("Bob")], {}).record.game_id
        read = service.head(game_id).version
        service.submit(game_id, 0, {"draw": "offer"}, expected_version=read)
        with pytest.raises(StaleVersion):
            service.submit(game_id, 1, {"resign": True}, expected_version=read)


class TestTheRule:
    @pytest.mark.parametrize(
        ("seat", "actor", "before", "after", "over", "relevant"),
        [
            (0, 1, {0, 1}, {0, 1}, False, False),
            (0, 1, {0, 1}, {0}, False, False),
            (0, 0, {0, 1}, {0, 1}, False, True),
            (0, None, {0, 1}, {0, 1}, False, True),
            (0, 1, {0, 1}, {1}, False, True),
            (0, 1, {1}, {1}, False, True),
            (0, 1, {1}, {0}, False, True),
            (0, 1, {0}, {0}, False, True),
            (0, 1, {0, 1}, set(), True, True),
        ],
    )
    def test_relevant_to(
        self, seat: int, actor: int | None, before: set[int], after: set[int], over: bool, relevant: bool
    ) -> None:
        assert relevant_to(seat, actor, frozenset(before), frozenset(after), over) is relevant
