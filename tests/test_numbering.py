"""Seats are numbered from 0 in messages and results; homeworlds take the seats' names; Planet Unknown
squares have one form, ``"e4"``, and every other form is refused with a message that shows it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from domain import contract
from domain.contract import InvalidMoveError, NotYourTurnError
from domain.homeworlds import GAME as HW
from domain.homeworlds.game import Homeworlds1
from domain.planet_unknown import GAME as PU
from domain.planet_unknown import upcast
from domain.planet_unknown.moves import Place, parse_move
from service.games import GameService, SeatSpec
from tests.conftest import on_memory
from tests.support.seeds import strong_seed

app, service = on_memory()
"""Neither Redis nor a worker is needed here: the app and its service run over an in-memory store."""

SQUARE = re.compile(r"^[a-l](?:[1-9]|1[0-2])$")


def homeworlds(service: GameService, *names: str) -> str:
    return service.create("homeworlds", [SeatSpec(n) for n in names], {}).record.game_id


class TestHomeworldsMessages:
    def test_not_your_turn_names_seats_from_0(self, service: GameService) -> None:
        game_id = homeworlds(service, "Ada", "Bob")
        with pytest.raises(NotYourTurnError, match=r"^it is seat 0's turn, not seat 1's$"):
            service.submit(game_id, 1, "homeworld b2 y1 g3")

    def test_setup_messages_name_seats_from_0(self) -> None:
        state = HW.initial(2, {})
        with pytest.raises(contract.RuleError, match="seat 0 must set up a homeworld"):
            HW.decide(state, 0, "pass")
        with pytest.raises(contract.RuleError, match="seat 0's first turn must set up a homeworld"):
            HW.decide(state, 0, "build g1 Alpha")

    def test_not_your_turn_over_the_api(self, client: Any) -> None:
        game = client.post("/v1/games", json={"game": "homeworlds", "seats": [{"name": "A"}, {"name": "B"}]}).json
        token = {"Authorization": f"Bearer {game['seats'][1]['token']}"}
        response = client.post(f"/v1/games/{game['id']}/moves", json={"move": "homeworld b2 y1 g3"}, headers=token)
        assert response.status_code == 403
        assert response.json["error"]["message"] == "it is seat 0's turn, not seat 1's"

    def test_the_result_names_the_winning_seat(self, service: GameService) -> None:
        game_id = homeworlds(service, "Ada", "Bob")
        service.submit(game_id, 0, {"resign": True})
        record = service.head(game_id)
        result = service.view(record, contract.Role.SPECTATOR)["result"]
        assert result == {"winners": [1], "reason": "resignation", "text": "seat 1 won"}
        scored = service.score(game_id).scored
        assert scored is not None and scored.winners == (1,) and scored.scores["result"] == "seat 1 won"

    def test_games_of_the_first_rules_keep_their_result_text(self) -> None:
        """``homeworlds-1`` games are verified by scoring them again: their text stays as it was recorded."""
        old = contract.get("homeworlds", "homeworlds-1")
        assert isinstance(old, Homeworlds1)
        assert old.result_text(contract.Outcome((1,), "resignation")) == "winner:2"
        assert HW.result_text(contract.Outcome((1,), "resignation")) == "seat 1 won"


class TestHomeworldNames:
    def names_after_setup(self, service: GameService, *names: str) -> list[str]:
        game_id = homeworlds(service, *names)
        service.submit(game_id, 0, "homeworld b2 y1 g3")
        record = service.head(game_id)
        legal = list(record.game.legal_moves(record.state, 1))
        service.submit(game_id, 1, "homeworld b1 r2 g3")
        view = service.view(service.head(game_id), contract.Role.SPECTATOR)
        homes = sorted((s["homeworld_of"], s["name"]) for s in view["systems"] if s["homeworld_of"] is not None)
        assert all(move.endswith(" " + homes[1][1]) for move in legal if move.startswith("homeworld"))
        return [name for _, name in homes]

    def test_seat_names_name_the_homeworlds(self, service: GameService) -> None:
        assert self.names_after_setup(service, "Ada", "Bob") == ["Ada", "Bob"]

    def test_a_name_that_is_no_system_name_falls_back(self, service: GameService) -> None:
        assert self.names_after_setup(service, "Ada Lovelace", "Bob") == ["Player1", "Bob"]

    def test_names_the_seats_share_fall_back(self, service: GameService) -> None:
        assert self.names_after_setup(service, "Ada", "ADA") == ["Player1", "Player2"]

    def test_a_name_in_the_move_wins(self, service: GameService) -> None:
        game_id = homeworlds(service, "Ada", "Bob")
        service.submit(game_id, 0, "homeworld b2 y1 g3 Sol")
        assert service.head(game_id).state.position.index("Sol") is not None

    def test_built_in_bots_use_the_names(self, service: GameService) -> None:
        game_id = homeworlds(service, "Ada", "Bob")
        record = service.head(game_id)
        view = contract.seat_view(record.game, record.state, 0)
        for name in ("random", "greedy"):
            move = record.game.bots[name](view, 0, random.Random(1), 50)
            assert move.endswith(" Ada"), move


class TestPlanetUnknownMessages:
    def test_not_your_turn_names_seats_from_0(self) -> None:
        state = PU.initial(2, {"two_player_auto_rotation": False})
        for event in PU.setup(state, strong_seed("numbering")):
            state = PU.evolve(state, event)
        (commander,) = PU.to_act(state)
        other = 1 - commander
        with pytest.raises(NotYourTurnError, match=rf"^seat {other} has nothing to do now$"):
            PU.decide(state, other, "rotate 1")


def placing() -> tuple[Any, dict[str, Any]]:
    """A solo game at its first placement: earlier choices (objectives, the station) take the first legal move."""
    state = PU.initial(1, {})
    for event in PU.setup(state, strong_seed("squares")):
        state = PU.evolve(state, event)
    while True:
        legal = list(PU.legal_moves(state, 0))
        move = next((m for m in legal if m["action"] == "place"), None)
        if move is not None:
            return state, move
        for event in PU.decide(state, 0, legal[0]):
            state = PU.evolve(state, event)


class TestOneSquareForm:
    def test_moves_and_legal_moves_name_squares(self) -> None:
        state, move = placing()
        assert SQUARE.match(move["anchor"])
        text = f"place {move['tile']} {move['anchor']} {move['rotation']}" + (" flip" if move["flip"] else "")
        assert PU.decide(state, 0, move) == PU.decide(state, 0, text)

    @pytest.mark.parametrize(
        "anchor",
        [[3, 4], (3, 4), [4, 3], 40, "E4", "e04", " e4", "e4 ", "4e", "5,4", "[3, 4]", {"row": 3, "column": 4}, None],
    )
    def test_every_other_form_is_refused_showing_the_documented_one(self, anchor: Any) -> None:
        state, move = placing()
        with pytest.raises(InvalidMoveError) as refused:
            PU.decide(state, 0, move | {"anchor": anchor})
        assert 'like "e4"' in str(refused.value) and repr(anchor) in str(refused.value)

    @pytest.mark.parametrize("square", ["E4", "e04", "4e", "5,4", "40"])
    def test_text_forms_too(self, square: str) -> None:
        with pytest.raises(InvalidMoveError, match='like "e4"'):
            parse_move(f"deploy {square}")
        with pytest.raises(InvalidMoveError, match='like "e4"'):
            parse_move(f"place 57 {square} 90")

    @pytest.mark.parametrize("line", [5, 12, "05", "E", "13"])
    def test_rows_and_columns_are_named_too(self, line: Any) -> None:
        with pytest.raises(InvalidMoveError, match='"5" or "e"'):
            parse_move({"action": "clear", "line": line})

    def test_the_api_refuses_a_row_and_column_pair(self, client: Any) -> None:
        body = {"game": "planet-unknown", "seats": [{"name": "Solo"}], "seed": strong_seed("api-squares").decode()}
        game = client.post("/v1/games", json=body).json
        token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        url = f"/v1/games/{game['id']}"
        while True:
            legal = client.get(f"{url}/legal-moves", headers=token).json["moves"]
            move = next((m for m in legal if m["action"] == "place"), None)
            if move is not None:
                break
            assert client.post(f"{url}/moves", json={"move": legal[0]}, headers=token).status_code == 201
        refused = client.post(f"{url}/moves", json={"move": move | {"anchor": [3, 4]}}, headers=token)
        assert refused.status_code == 422 and refused.json["error"]["code"] == "invalid_move"
        assert 'like "e4"' in refused.json["error"]["message"]
        assert client.post(f"{url}/moves", json={"move": move}, headers=token).status_code == 201

    def test_the_view_names_squares_the_same_way(self) -> None:
        state, move = placing()
        for event in PU.decide(state, 0, move):
            state = PU.evolve(state, event)
        seat = PU.view(state, 0)["seats"][0]
        named = [*seat["lifepods"], *seat["meteorites"], *seat["meteor_symbols"]]
        named += [r for r in seat["rovers"] if r not in ("garage", "destroyed")]
        assert named and all(SQUARE.match(name) for name in named)

    def test_games_of_the_third_rules_still_read_their_recorded_moves(self) -> None:
        """Moves stored under ``planet-unknown-3`` are decided again when such a game is verified."""
        old = contract.get("planet-unknown", "planet-unknown-3")
        state, move = placing()
        place = parse_move(move)
        assert isinstance(place, Place)
        row, column = divmod(place.square, 12)
        recorded = PU.decide(state, 0, move)
        assert old.decide(state, 0, move | {"anchor": [row, column]}) == [upcast.stripped(e) for e in recorded]
