"""The ladder (issue 16, item 5): registered bots that opted in play rated games paired by rating, at most
one running game per pair, against each other and the built-in reference players; ``ORRERY_LADDER`` turns
beat's rounds on."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from app import Settings, main, make_celery, queue_names
from domain.homeworlds import GAME as HOMEWORLDS
from domain.table.seats import players
from events.keys import Keyspace
from events.store import RedisStore
from service.bots import BotRegistry
from service.games import GameService, challenge_id
from service.ladder import Entrant, Ladder, pair_key, pairings, run
from service.ratings import Ratings
from tests.conftest import NAMESPACE, Worker, wait_for

SEARCH, RANDOM, GREEDY = "builtin-search", "builtin-random", "builtin-greedy"


def entrant(player: str, rating: float, games: int = 0) -> Entrant:
    """A ladder player rated ``rating`` (the ordinal, in whole points)."""
    return Entrant(player, round(rating * 1000), games)


@pytest.fixture
def fresh(service: GameService) -> Iterator[GameService]:
    """A service over a namespace of its own, with the reference players registered: no worker plays its
    games, and every rating starts new."""
    namespace = f"{NAMESPACE}:ladder-{uuid.uuid4().hex[:8]}"
    own = GameService(RedisStore(service.store.redis, Keyspace(namespace)))
    BotRegistry(own).ensure_reference_players()
    yield own
    forget(service.store.redis, namespace)


def forget(client: Any, namespace: str) -> None:
    keys = list(client.scan_iter(f"{namespace}:*", count=1000))
    for i in range(0, len(keys), 500):
        client.unlink(*keys[i : i + 500])


def ladder_bot(svc: GameService, *, limit: int | None = 5, games: tuple[str, ...] = ("homeworlds",)) -> str:
    """A new stream bot on the ladder; with ``limit``, it accepts every challenge while it plays fewer games."""
    policy = None if limit is None else {"games": list(games), "max_concurrent": limit}
    made = BotRegistry(svc).register("Climber", list(games), webhook=None, stream=True, auto_accept=policy, ladder=True)
    return str(made.bot["id"])


class TestSetting:
    def test_the_ladder_is_off_by_default(self) -> None:
        settings = Settings.from_env({})
        assert settings.ladder is False
        assert "ladder-round" not in make_celery(settings, current=False).conf.beat_schedule

    @pytest.mark.parametrize("raw", ["on", "ON", " on "])
    def test_on_schedules_a_round_on_the_main_queue(self, raw: str) -> None:
        settings = Settings.from_env({"ORRERY_LADDER": raw, "ORRERY_LADDER_INTERVAL_S": "2", "ORRERY_QUEUE": "q"})
        assert settings.ladder is True
        celery = make_celery(settings, current=False)
        entry = celery.conf.beat_schedule["ladder-round"]
        assert (entry["task"], entry["schedule"]) == ("workers.tasks.ladder_round", 2.0)
        assert celery.amqp.router.route({}, entry["task"])["queue"].name == queue_names(settings).main

    @pytest.mark.parametrize("raw", ["off", "OFF", ""])
    def test_off(self, raw: str) -> None:
        assert Settings.from_env({"ORRERY_LADDER": raw}).ladder is False

    @pytest.mark.parametrize("raw", ["yes", "true", "1", "sometimes"])
    def test_any_other_value_is_refused_by_name(self, raw: str) -> None:
        with pytest.raises(ValueError, match=f"ORRERY_LADDER is on or off, not '{raw}'"):
            Settings.from_env({"ORRERY_LADDER": raw})

    @pytest.mark.parametrize(
        ("name", "raw"),
        [("ORRERY_LADDER_INTERVAL_S", "0"), ("ORRERY_LADDER_INTERVAL_S", "soon"), ("ORRERY_LADDER_THINK_MS", "1.5")],
    )
    def test_numbers_must_be_positive(self, name: str, raw: str) -> None:
        with pytest.raises(ValueError, match=f"{name} is a positive"):
            Settings.from_env({name: raw})

    def test_defaults(self) -> None:
        settings = Settings.from_env({"ORRERY_LADDER": "on"})
        assert (settings.ladder_interval_s, settings.ladder_think_ms) == (5.0, 200)


class TestPairing:
    def test_a_new_bot_is_paired_with_the_nearest_reference_player(self) -> None:
        field = [entrant(SEARCH, 9, 40), entrant(GREEDY, 4, 40), entrant(RANDOM, -3, 40), entrant("bot_new", 0)]
        assert pairings(field, running=()) == [("bot_new", RANDOM)]

    def test_neighbours_by_rating(self) -> None:
        field = [entrant("bot_d", 10, 5), entrant("bot_a", 40, 5), entrant("bot_c", 20, 5), entrant("bot_b", 30, 5)]
        assert pairings(field, running=()) == [("bot_a", "bot_b"), ("bot_c", "bot_d")]

    def test_no_second_game_for_a_pair_whose_game_runs(self) -> None:
        field = [entrant(SEARCH, 9, 40), entrant(RANDOM, -3, 40), entrant("bot_new", 0)]
        assert pairings(field, running={pair_key("bot_new", RANDOM)}) == [("bot_new", SEARCH)]
        assert pairings(field, running={pair_key("bot_new", RANDOM), pair_key("bot_new", SEARCH)}) == []

    def test_a_new_bot_chooses_first_and_when_its_neighbour_is_busy_plays_the_nearest_reference(self) -> None:
        field = [entrant("bot_old", 1, 3), entrant("bot_peer", 0.5, 0), entrant(SEARCH, 9, 40), entrant("bot_new", 0)]
        assert pairings(field, running=()) == [("bot_peer", "bot_new"), ("bot_old", SEARCH)]
        field = [entrant("bot_peer", 0.5, 0), entrant(SEARCH, 9, 40), entrant("bot_new", 0)]
        assert pairings(field, running={pair_key("bot_peer", "bot_new")}) == [("bot_peer", SEARCH), ("bot_new", SEARCH)]

    def test_a_registered_bot_gets_one_new_game_a_round_and_a_reference_player_any_number(self) -> None:
        field = [entrant(RANDOM, 0, 40), entrant("bot_a", 0), entrant("bot_b", 0)]
        assert pairings(field, running=()) == [("bot_a", "bot_b")]
        field = [entrant(RANDOM, 0, 40), entrant("bot_a", 0), entrant("bot_b", 0)]
        assert pairings(field, running={pair_key("bot_a", "bot_b")}) == [("bot_a", RANDOM), ("bot_b", RANDOM)]

    def test_reference_players_meet_only_when_the_round_says_so(self) -> None:
        field = [entrant(SEARCH, 9, 40), entrant(RANDOM, -3, 40), entrant(GREEDY, 4, 40)]
        assert pairings(field, running=()) == []
        assert pairings(field, running=(), references_meet=True) == [
            (SEARCH, GREEDY),
            (GREEDY, RANDOM),
            (RANDOM, SEARCH),
        ]


class TestRounds:
    def test_a_new_bot_plays_a_reference_player_in_a_rated_game_that_starts_at_once(self, fresh: GameService) -> None:
        bot = ladder_bot(fresh)
        [match] = Ladder(fresh, think_ms=7).round()
        record = fresh.head(match.game_id)
        assert match.game == "homeworlds" and bot in match.players
        assert set(players(record.created.seats)) == set(match.players)
        assert any(p.startswith("builtin-") for p in match.players)
        assert record.created.options["rated"] is True
        assert record.started
        reference = next(s["bot"] for s in record.created.seats if "builtin" in s["bot"])
        assert reference["think_ms"] == 7
        assert fresh.store.ladder_pairs("homeworlds") == {pair_key(*match.players): match.game_id}

    def test_one_running_game_per_pair(self, fresh: GameService) -> None:
        bot = ladder_bot(fresh)
        ladder = Ladder(fresh)
        pairs = [pair_key(*m.players) for _ in range(5) for m in ladder.round()]
        assert len(pairs) == len(set(pairs)) == len(HOMEWORLDS.bots), "one pair with each reference player"
        assert all(bot in p for p in pairs)
        assert ladder.round() == []

    def test_a_closed_game_frees_its_pair(self, fresh: GameService) -> None:
        bot = ladder_bot(fresh, limit=None)
        ladder = Ladder(fresh, players=[bot, RANDOM])
        [first] = ladder.round()
        assert not fresh.head(first.game_id).started and ladder.round() == []
        fresh.answer_challenge(challenge_id(first.game_id, first.players.index(bot)), bot, accept=False)
        [second] = ladder.round()
        assert second.game_id != first.game_id
        assert second.players == first.players[::-1]

    def test_a_bot_at_its_auto_accept_limit_sits_out(self, fresh: GameService) -> None:
        bot = ladder_bot(fresh, limit=1)
        fresh.store.claim_bot_game(bot, "elsewhere")
        ladder = Ladder(fresh)
        assert bot not in {e.player for e in ladder.entrants("homeworlds")}
        assert ladder.round() == []
        fresh.store.release_bot_game(bot, "elsewhere")
        [match] = ladder.round()
        assert bot in match.players and fresh.head(match.game_id).started
        assert ladder.round() == []

    def test_a_bot_plays_only_its_own_games(self, fresh: GameService) -> None:
        ladder_bot(fresh, games=("planet-unknown",))
        [match] = Ladder(fresh).round()
        assert match.game == "planet-unknown"
        assert len(fresh.head(match.game_id).created.seats) == 2

    def test_each_pair_alternates_its_first_seat(self, fresh: GameService) -> None:
        ladder = Ladder(fresh, players=[SEARCH, RANDOM], references_meet=True)
        orders = []
        for _ in range(3):
            [match] = ladder.round(["homeworlds"])
            assert ladder.round(["homeworlds"]) == []
            resign(fresh, match.game_id)
            orders.append(match.players)
        assert orders[0] == orders[2] == orders[1][::-1]


def resign(svc: GameService, game_id: str) -> None:
    """End a game at once: the seat to move resigns."""
    record = svc.head(game_id)
    svc.submit(game_id, min(record.to_act()), {"resign": True})
    assert svc.head(game_id).closed


class TestSearchAgainstRandom:
    def test_after_50_ladder_games_search_is_rated_above_random(self, fresh: GameService) -> None:
        """Real games through the ladder's rounds, the service's moves and its scoring, in this process."""
        ladder = Ladder(fresh, think_ms=20, players=[SEARCH, RANDOM], references_meet=True)
        played = run(ladder, "homeworlds", 50)
        assert len(played.finished) == 50
        ratings = Ratings(fresh.store)
        search, rnd = ratings.record("homeworlds", SEARCH), ratings.record("homeworlds", RANDOM)
        assert search is not None and rnd is not None
        assert search.rating.ordinal > rnd.rating.ordinal
        assert search.games == rnd.games == 50
        for match in played.finished:
            assert [e.type for e in fresh.events(match.game_id)].count("RatingsUpdated") == 1
        for match in played.unfinished:
            assert "RatingsUpdated" not in [e.type for e in fresh.events(match.game_id)]
        firsts = [m.players[0] for m in played.finished]
        assert abs(firsts.count(SEARCH) - firsts.count(RANDOM)) <= 1 + 2 * len(played.unfinished)


class TestCommand:
    def test_orrery_ladder_prints_the_leaderboard(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["ladder", "--game", "tictactoe", "-n", "4", "--think-ms", "1"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("4 tictactoe ladder games")
        lines = out.splitlines()
        assert lines[2].split() == ["#", "player", "name", "rating", "mu", "sigma", "games", "W/D/L"]
        rows = lines[3:]
        assert len(rows) >= 2 and all(row.split()[1].startswith("builtin-") for row in rows)
        assert sum(int(row.split()[-2]) for row in rows) == 2 * 4

    def test_an_unknown_player_is_refused(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["ladder", "--players", "builtin-search,bot_0123456789abcdef"]) == 2
        assert "has no player 'bot_0123456789abcdef'" in capsys.readouterr().err


class TestBeat:
    def test_beat_pairs_a_new_bot_with_a_reference_player(self, tmp_path: Path) -> None:
        namespace = f"{NAMESPACE}-ladder-{uuid.uuid4().hex[:6]}"
        env = os.environ | {
            "ORRERY_NAMESPACE": namespace,
            "ORRERY_QUEUE": namespace,
            "ORRERY_LADDER": "on",
            "ORRERY_LADDER_INTERVAL_S": "1",
            "ORRERY_LADDER_THINK_MS": "20",
        }
        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        svc = GameService(RedisStore(client, Keyspace(namespace)))
        worker = Worker(tmp_path, env).start()
        try:
            bot = ladder_bot(svc, limit=2)
            registered = time.monotonic()

            def paired() -> list[str]:
                return [g for p, g in svc.store.ladder_pairs("homeworlds").items() if bot in p and "pending" not in g]

            game_ids = wait_for(paired, timeout=15)
            waited = time.monotonic() - registered
            record = svc.head(game_ids[0])
            seated = players(record.created.seats)
            assert bot in seated and any(p is not None and p.startswith("builtin-") for p in seated)
            assert record.created.options["rated"] is True and record.started
            assert waited < 10, f"the ladder paired the new bot after {waited:.1f} s"
            time.sleep(3)
            assert len(svc.store.bot_games(bot)) <= 2
            pairs = svc.store.ladder_pairs("homeworlds")
            assert all(bot in p for p in pairs), pairs
        finally:
            worker.stop()
            forget(client, namespace)
