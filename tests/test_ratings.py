"""Ratings: every rated game changes its players' ratings exactly once, as a ``RatingsUpdated`` event
appended with ``GameScored``, which an auditor recomputes from the log; the leaderboard and a bot's page."""

from __future__ import annotations

import dataclasses
import random
import threading
import uuid
from collections.abc import Sequence
from typing import Any

import jsonschema_rs
import pytest

from domain import contract
from domain.table.record import GameCreated, GameScored, RatingsUpdated, score_command
from domain.table.verify import verify
from events.envelope import Envelope
from events.keys import Keyspace
from events.store import RedisStore
from service.bots import BotRegistry
from service.games import GameService, SeatSpec, challenge_id
from service.ratings import DEFAULT, Rating, Ratings, Result, rate, replay, seat_ranks, standings
from tests.conftest import NAMESPACE, Worker, wait_for
from tests.support.seeds import strong_seed
from tests.test_audit import reseal

Bots = Sequence[dict[str, Any] | None]
"""The bot of each seat (None: a human)."""

RANDOM: dict[str, Any] = {"builtin": "random", "think_ms": 1}
GREEDY: dict[str, Any] = {"builtin": "greedy", "think_ms": 50}
SEARCH: dict[str, Any] = {"builtin": "search", "think_ms": 1}


@pytest.fixture
def idle(service: GameService) -> GameService:
    """A service over a namespace of its own: no worker plays or scores its games, and every rating starts new."""
    return GameService(RedisStore(service.store.redis, Keyspace(f"{NAMESPACE}:ratings-{uuid.uuid4().hex[:8]}")))


def registered(svc: GameService, name: str, game: str) -> dict[str, Any]:
    """A seat for a new registered (pull) bot that plays ``game``."""
    made = BotRegistry(svc).register(name, [game], webhook=None, stream=True)
    return {"id": made.bot["id"]}


def table(svc: GameService, game: str, bots: Bots, rated: bool | None) -> str:
    """A new game with these seats and table option ``rated`` (None: unset), every registered bot's challenge
    accepted."""
    seats = [SeatSpec(f"Seat{i}", bot) for i, bot in enumerate(bots)]
    options = {} if rated is None else {"rated": rated}
    game_id = svc.create(game, seats, options, strong_seed(uuid.uuid4().hex)).record.game_id
    for seat, bot in enumerate(bots):
        if bot is not None and "id" in bot:
            svc.answer_challenge(challenge_id(game_id, seat), bot["id"], accept=True)
    return game_id


def step(svc: GameService, game_id: str, rng: random.Random) -> None:
    """One move of the first seat to act: its built-in bot's, or a random one for any other seat."""
    record = svc.head(game_id)
    seat = min(record.game.to_act(record.state))
    bot = record.created.seats[seat]["bot"]
    if bot is not None and "builtin" in bot:
        assert svc.bot_move(game_id, seat, record.version) is not None
        return
    view = contract.seat_view(record.game, record.state, seat)
    svc.submit(game_id, seat, record.game.bots["random"](view, seat, rng, 1))


def played(svc: GameService, game: str, bots: Bots, rated: bool | None = True) -> str:
    """A game played to its end, not yet scored."""
    game_id, rng = table(svc, game, bots, rated), random.Random(game)
    while not svc.head(game_id).over:
        step(svc, game_id, rng)
    return game_id


def opened(svc: GameService, bots: Bots, rated: bool | None = True) -> tuple[str, int]:
    """A Homeworlds game whose homeworlds are set up, and the seat on move."""
    game_id, rng = table(svc, "homeworlds", bots, rated), random.Random(0)
    step(svc, game_id, rng)
    step(svc, game_id, rng)
    record = svc.head(game_id)
    return game_id, min(record.game.to_act(record.state))


def resigned(svc: GameService, bots: Bots, rated: bool | None = True) -> tuple[str, int]:
    """A Homeworlds game the seat on move resigned after the set-up, and the winner."""
    game_id, seat = opened(svc, bots, rated)
    svc.submit(game_id, seat, {"resign": True})
    return game_id, 1 - seat


def score_together(svc: GameService, game_id: str, scorers: int) -> list[BaseException]:
    """Score a game from several threads at the same moment; what they raised."""
    start, errors = threading.Barrier(scorers), list[BaseException]()

    def score() -> None:
        start.wait()
        try:
            svc.score(game_id)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=score) for _ in range(scorers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def changes(svc: GameService, game_id: str) -> list[Envelope]:
    return [e for e in svc.events(game_id) if e.type == "RatingsUpdated"]


def rating_of(change: Envelope, player: str, when: str = "after") -> Rating:
    return Rating.from_json(change.payload["players"][player][when])


def counts(svc: GameService, game: str, player: str) -> tuple[int, int, int, int]:
    """A player's games, wins, draws and losses in ``game``."""
    found = Ratings(svc.store).record(game, player)
    assert found is not None
    return found.games, found.wins, found.draws, found.losses


def scored(winners: tuple[int, ...], scores: dict[str, Any] | None = None) -> GameScored:
    return GameScored(winners=winners, reason="test", scores=scores or {})


def created(*bots: dict[str, Any] | None, rated: bool | None = True) -> GameCreated:
    seats = tuple({"name": f"s{i}", "bot": bot} for i, bot in enumerate(bots))
    return GameCreated("homeworlds", "1", seats, {"rated": rated}, "", 0)


class TestRanks:
    def test_totals_rank_the_seats_and_tie_breakers_part_equal_totals(self) -> None:
        seats = [
            {"seat": 0, "total": 40, "aux": 9},
            {"seat": 1, "total": 50, "aux": 8},
            {"seat": 2, "total": 50, "aux": 9},
            {"seat": 3, "total": 40, "aux": 9},
        ]
        assert seat_ranks(scored((2,), {"seats": seats}), 4) == [3, 2, 1, 3]

    def test_a_seat_that_forfeited_ranks_below_the_winners_whatever_its_total(self) -> None:
        seats = [{"seat": 0, "total": 90, "aux": 0}, {"seat": 1, "total": 10, "aux": 0}, {"seat": 2, "total": 5}]
        assert seat_ranks(scored((1,), {"seats": seats}), 3) == [2, 1, 3]

    def test_homeworlds_half_points(self) -> None:
        per_seat = {"0": {"half_points": 0, "ships": 0}, "1": {"half_points": 2, "ships": 9}}
        assert seat_ranks(scored((1,), {"per_seat": per_seat}), 2) == [2, 1]
        draw = {"0": {"half_points": 1}, "1": {"half_points": 1}}
        assert seat_ranks(scored((), {"per_seat": draw}), 2) == [1, 1]

    def test_without_totals_winners_are_first_and_the_rest_second(self) -> None:
        assert seat_ranks(scored((1, 2), {"0": {"win": 0}}), 4) == [2, 1, 1, 2]
        assert seat_ranks(scored(()), 3) == [1, 1, 1]


class TestWhoIsRated:
    def test_humans_and_unregistered_bots_are_left_out(self) -> None:
        game = created(None, RANDOM, {"webhook": "https://bot.example/"}, GREEDY)
        found = standings(game, scored((0,)))
        assert set(found) == {"builtin-random", "builtin-greedy"}
        assert found["builtin-random"].seat == 1 and found["builtin-random"].rank == 2
        assert found["builtin-random"].result is Result.LOSS

    def test_a_player_in_two_seats_is_not_rated_by_that_game(self) -> None:
        assert standings(created(RANDOM, RANDOM, GREEDY), scored((2,))) == {}
        assert set(standings(created(RANDOM, RANDOM, GREEDY, SEARCH), scored((2,)))) == {
            "builtin-greedy",
            "builtin-search",
        }

    def test_an_unrated_game_and_a_lone_rated_player(self) -> None:
        assert standings(created(RANDOM, GREEDY, rated=False), scored((0,))) == {}
        assert standings(created(RANDOM, GREEDY, rated=None), scored((0,))) == {}
        assert standings(created(None, GREEDY), scored((0,))) == {}

    def test_a_draw_counts_as_a_draw_for_everyone(self) -> None:
        found = standings(created(RANDOM, GREEDY), scored(()))
        assert {s.result for s in found.values()} == {Result.DRAW}


class TestModel:
    def test_the_winner_gains_what_the_loser_loses_and_both_grow_surer(self) -> None:
        after = rate({"a": DEFAULT, "b": DEFAULT}, {"a": 1, "b": 2})
        assert after["a"].mu > DEFAULT.mu > after["b"].mu
        assert after["a"].mu - DEFAULT.mu == DEFAULT.mu - after["b"].mu
        assert after["a"].sigma < DEFAULT.sigma and after["b"].sigma < DEFAULT.sigma

    def test_a_draw_between_equals_moves_no_mu(self) -> None:
        after = rate({"a": DEFAULT, "b": DEFAULT}, {"a": 1, "b": 1})
        assert after["a"] == after["b"] and after["a"].mu == DEFAULT.mu

    def test_an_upset_moves_more_than_the_expected_result(self) -> None:
        strong, weak = Rating(35000, 3000), Rating(20000, 3000)
        expected = rate({"s": strong, "w": weak}, {"s": 1, "w": 2})
        upset = rate({"s": strong, "w": weak}, {"s": 2, "w": 1})
        assert upset["w"].mu - weak.mu > expected["s"].mu - strong.mu > 0


class TestExactlyOnce:
    def test_scoring_twice_rates_once(self, idle: GameService) -> None:
        game_id, _ = resigned(idle, [RANDOM, GREEDY])
        first = idle.score(game_id)
        assert first.ratings is not None
        again = idle.score(game_id)
        assert again.version == first.version and len(changes(idle, game_id)) == 1
        record = Ratings(idle.store).record("homeworlds", "builtin-greedy")
        assert record is not None and record.games == 1

    def test_two_concurrent_scorers_rate_once(self, idle: GameService) -> None:
        games = [resigned(idle, [SEARCH, GREEDY])[0] for _ in range(3)]
        for game_id in games:
            assert score_together(idle, game_id, 2) == []
            assert [e.type for e in idle.events(game_id)][-2:] == ["GameScored", "RatingsUpdated"]
            assert len(changes(idle, game_id)) == 1
        ratings = Ratings(idle.store)
        for player in ("builtin-search", "builtin-greedy"):
            record = ratings.record("homeworlds", player)
            assert record is not None and record.games == 3
            assert len(ratings.history("homeworlds", player)) == 3

    def test_a_crash_between_the_ratings_and_the_append(self, idle: GameService) -> None:
        game_id, _ = resigned(idle, [RANDOM, GREEDY])
        record = idle.head(game_id)
        applied = Ratings(idle.store).settle(record, score_command(record))
        assert idle.head(game_id).scored is None
        stored = Ratings(idle.store).record("homeworlds", "builtin-random")
        assert stored is not None and stored.games == 1
        idle.score(game_id)
        logged = changes(idle, game_id)
        assert len(logged) == 1 and logged[0].payload["players"] == applied[0].players
        again = Ratings(idle.store).record("homeworlds", "builtin-random")
        assert again == stored
        assert len(Ratings(idle.store).history("homeworlds", "builtin-random")) == 1

    def test_ratings_that_moved_since_the_read_are_refused_then_decided_again(self, idle: GameService) -> None:
        first, _ = resigned(idle, [RANDOM, GREEDY])
        second, _ = resigned(idle, [GREEDY, RANDOM])
        ratings = Ratings(idle.store)
        stale = idle.head(second)
        idle.score(first)
        players = ["builtin-greedy", "builtin-random"]
        writes = [(p, "", "{}", 0, "{}") for p in players]
        assert idle.store.apply_ratings("homeworlds", second, "{}", writes, keep=10) == ("conflict", "")
        assert ratings.record("homeworlds", "builtin-greedy") is not None
        assert stale.scored is None
        idle.score(second)
        one, two = changes(idle, first)[0], changes(idle, second)[0]
        for player in players:
            assert rating_of(two, player, "before") == rating_of(one, player, "after")
            found = ratings.record("homeworlds", player)
            assert found is not None and found.rating == rating_of(two, player) and found.games == 2
        history = ratings.history("homeworlds", "builtin-random")
        assert [h["game_id"] for h in history] == [second, first]


class TestGames:
    def test_a_homeworlds_win(self, idle: GameService) -> None:
        game_id, winner = resigned(idle, [RANDOM, GREEDY])
        record = idle.score(game_id)
        assert record.ratings is not None
        players = record.ratings.players
        won, lost = ("builtin-random", "builtin-greedy")[winner], ("builtin-random", "builtin-greedy")[1 - winner]
        assert players[won]["rank"] == 1 and players[lost]["rank"] == 2
        assert players[won]["seat"] == winner and players[lost]["seat"] == 1 - winner
        assert players[won]["before"] == players[lost]["before"] == DEFAULT.to_json()
        assert players[won]["after"]["mu"] > DEFAULT.mu > players[lost]["after"]["mu"]
        assert counts(idle, "homeworlds", won) == (1, 1, 0, 0)
        assert counts(idle, "homeworlds", lost) == (1, 0, 0, 1)

    def test_a_homeworlds_draw(self, idle: GameService) -> None:
        game_id, seat = opened(idle, [RANDOM, GREEDY])
        idle.submit(game_id, seat, {"draw": "offer"})
        step(idle, game_id, random.Random(1))
        idle.submit(game_id, 1 - seat, {"draw": "accept"})
        record = idle.score(game_id)
        assert record.outcome is not None and record.outcome.winners == ()
        assert record.ratings is not None
        for change in record.ratings.players.values():
            assert change["rank"] == 1 and change["after"]["mu"] == DEFAULT.mu
            assert change["after"]["sigma"] < DEFAULT.sigma
        found = Ratings(idle.store).record("homeworlds", "builtin-random")
        assert found is not None and (found.games, found.draws) == (1, 1)

    def test_four_players_of_planet_unknown_are_rated_in_the_order_of_their_scores(self, idle: GameService) -> None:
        ada, bea = registered(idle, "Ada", "planet-unknown"), registered(idle, "Bea", "planet-unknown")
        game_id = played(idle, "planet-unknown", [RANDOM, GREEDY, ada, bea])
        record = idle.score(game_id)
        assert record.scored is not None and record.ratings is not None
        players = record.ratings.players
        ids = ["builtin-random", "builtin-greedy", ada["id"], bea["id"]]
        assert set(players) == set(ids)
        totals = {
            s["seat"]: (s["seat"] in record.scored.winners, s["total"], s["aux"]) for s in record.scored.scores["seats"]
        }
        for a in ids:
            for b in ids:
                ours, theirs = players[a], players[b]
                if totals[ours["seat"]] > totals[theirs["seat"]]:
                    assert ours["rank"] < theirs["rank"]
        first = [p for p in ids if players[p]["rank"] == 1]
        last = [p for p in ids if players[p]["rank"] == max(c["rank"] for c in players.values())]
        assert all(players[p]["seat"] in record.scored.winners for p in first)
        assert all(players[p]["after"]["mu"] > DEFAULT.mu for p in first)
        assert all(players[p]["after"]["mu"] < DEFAULT.mu for p in last)
        ratings = Ratings(idle.store)
        total, lines = ratings.leaderboard("planet-unknown")
        assert total == 4 and {line.player for line in lines} == set(ids)
        ordinals = [line.record.rating.ordinal for line in lines]
        assert ordinals == sorted(ordinals, reverse=True)
        assert verify(idle.events(game_id), replay).ok

    def test_unrated_games_append_no_rating_change(self, idle: GameService) -> None:
        humans, _ = resigned(idle, [None, None], rated=None)
        declined, _ = resigned(idle, [RANDOM, GREEDY], rated=False)
        builtins_only, _ = resigned(idle, [RANDOM, GREEDY], rated=None)
        for game_id in (humans, declined):
            record = idle.score(game_id)
            assert record.scored is not None and record.ratings is None
            assert changes(idle, game_id) == []
        assert idle.score(builtins_only).ratings is None
        assert Ratings(idle.store).leaderboard("homeworlds") == (0, [])

    def test_the_worker_that_scores_a_game_rates_it(self, service: GameService, worker: Worker) -> None:
        seats = [SeatSpec("Random", RANDOM), SeatSpec("Greedy", GREEDY)]
        game_id = service.create("homeworlds", seats, {"rated": True}).record.game_id
        record = wait_for(lambda: (found := service.head(game_id)).scored is not None and found, timeout=120)
        assert record.ratings is not None and set(record.ratings.players) == {"builtin-random", "builtin-greedy"}
        assert [e.type for e in service.events(game_id)][-2:] == ["GameScored", "RatingsUpdated"]


class TestAudit:
    def test_a_rated_game_verifies(self, idle: GameService) -> None:
        game_id, _ = resigned(idle, [RANDOM, GREEDY])
        idle.score(game_id)
        assert verify(idle.events(game_id), replay).ok
        without = verify(idle.events(game_id))
        assert not without.ok and "no rating model" in str(without.failure)

    def test_a_tampered_rating_fails_verification(self, idle: GameService) -> None:
        game_id, _ = resigned(idle, [RANDOM, GREEDY])
        idle.score(game_id)
        log = idle.events(game_id)
        change = log[-1]
        assert change.type == "RatingsUpdated"
        players = change.payload["players"]
        player = sorted(players)[0]
        raised = players | {player: players[player] | {"after": {"mu": 40000, "sigma": 1000}}}
        forged = reseal([*log[:-1], dataclasses.replace(change, payload=change.payload | {"players": raised})])
        verdict = verify(forged, replay)
        assert not verdict.ok and verdict.failure_version == change.version
        assert "RatingsUpdated" in str(verdict.failure)

    def test_a_rating_change_for_an_unrated_game_fails_verification(self, idle: GameService) -> None:
        game_id, _ = resigned(idle, [None, None], rated=None)
        idle.score(game_id)
        log = idle.events(game_id)
        change = RatingsUpdated(model="openskill.PlackettLuce/6", players={})
        type_name, payload = contract.encode_event(change)
        extra = dataclasses.replace(log[-1], version=log[-1].version + 1, type=type_name, payload=payload)
        verdict = verify(reseal([*log, extra]), replay)
        assert not verdict.ok and "rating" in str(verdict.failure)


def spec_validator(client: Any, name: str) -> jsonschema_rs.Draft202012Validator:
    spec = client.get("/openapi.json").json
    root = {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
    return jsonschema_rs.Draft202012Validator(root, validate_formats=True)


class TestHTTP:
    def test_the_leaderboard_and_a_bots_page(self, client: Any, service: GameService) -> None:
        bots = [registered(service, "Ada's bot", "homeworlds"), registered(service, "Bea's bot", "homeworlds")]
        game_id, winner = resigned(service, bots, rated=None)
        service.score(game_id)
        won, lost = bots[winner]["id"], bots[1 - winner]["id"]

        board = client.get("/v1/ratings/homeworlds", query_string={"limit": 200})
        assert board.status_code == 200, board.json
        spec_validator(client, "Leaderboard").validate(board.json)
        assert board.json["game"] == "homeworlds" and board.json["model"] == "openskill.PlackettLuce/6"
        lines = {line["player"]: line for line in board.json["players"]}
        assert lines[won]["rank"] < lines[lost]["rank"]
        assert lines[won]["name"] in ("Ada's bot", "Bea's bot")
        assert (lines[won]["games"], lines[won]["wins"], lines[lost]["losses"]) == (1, 1, 1)
        assert lines[won]["rating"] == pytest.approx(lines[won]["mu"] - 3 * lines[won]["sigma"], abs=0.002)
        assert [line["rank"] for line in board.json["players"]] == list(range(1, len(lines) + 1))

        page = client.get(f"/v1/bots/{won}")
        assert page.status_code == 200, page.json
        spec_validator(client, "Bot").validate(page.json)
        rated = page.json["ratings"]["homeworlds"]
        assert (rated["games"], rated["wins"], rated["draws"], rated["losses"]) == (1, 1, 0, 0)
        [entry] = rated["history"]
        assert entry["game_id"] == game_id and entry["rank"] == 1 and entry["result"] == "win"
        assert entry["before"] == {"mu": 25.0, "sigma": 8.333} and entry["after"]["mu"] == rated["mu"]

    def test_paging_and_errors(self, client: Any) -> None:
        everyone = client.get("/v1/ratings/homeworlds", query_string={"limit": 200}).json
        second = client.get("/v1/ratings/homeworlds", query_string={"limit": 1, "offset": 1}).json
        assert second["players"] == everyone["players"][1:2]
        unknown = client.get("/v1/ratings/chess")
        assert unknown.status_code == 404 and unknown.json["error"]["code"] == "unknown_game_kind"
        for query in ({"limit": 0}, {"limit": 201}, {"offset": -1}):
            assert client.get("/v1/ratings/homeworlds", query_string=query).status_code == 400

    def test_a_new_bot_has_no_ratings(self, client: Any, service: GameService) -> None:
        bot = registered(service, "Newcomer", "homeworlds")
        assert client.get(f"/v1/bots/{bot['id']}").json["ratings"] == {}
