"""A rules upgrade does not break old games: every rules version a stored game uses stays registered,
the game list reads metadata only, and snapshots are canonical JSON that is dropped when it does not fit."""

from __future__ import annotations

import dataclasses
import enum
import json
import random
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.games import summary
from domain import contract
from domain.contract import Role
from domain.homeworlds.state import HomeworldsState
from domain.table.record import Record, fold_envelope
from domain.table.verify import verify
from events import codec
from events.envelope import Envelope
from events.keys import Keyspace
from events.store import RedisStore
from service import listing, snapshots
from service.games import GameService, RulesVersionUnavailable, SeatSpec
from tests.conftest import NAMESPACE, ROOT, shared_dir
from tests.support.seeds import strong_seed
from tests.support.tictactoe import GAME as TICTACTOE
from tests.support.tictactoe import TicTacToe

SEATS = [SeatSpec("Ada"), SeatSpec("Bob")]


class TicTacToeBumped(TicTacToe):
    """The test game after a rules change: only its version differs."""

    rules_version = "tictactoe-2"


BUMPED = TicTacToeBumped()


@pytest.fixture
def registry(app: Any) -> Iterator[None]:
    """The game registry (with the test game the app loads), restored as it was after the test."""
    saved = {name: dict(games) for name, games in contract._registry.items()}
    current = dict(contract._current)
    yield
    contract._registry.clear()
    contract._registry.update(saved)
    contract._current.clear()
    contract._current.update(current)


@pytest.fixture
def store(service: GameService) -> RedisStore:
    """A namespace of this module's own, which no worker reads."""
    return RedisStore(service.store.redis, Keyspace(f"{NAMESPACE}:upgrades"))


@pytest.fixture
def fresh(store: RedisStore, service: GameService) -> GameService:
    return GameService(store, snapshot_every=4, webhook_policy=service.webhook_policy)


@pytest.fixture
def api(app: Any, fresh: GameService, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The API's test client over this module's service."""
    monkeypatch.setitem(app.extensions, "orrery.service", fresh)
    return app.test_client()


def play(service: GameService, game_id: str, *moves: Any) -> Record:
    """Each move by the seat to act."""
    for move in moves:
        record = service.head(game_id)
        service.submit(game_id, min(record.game.to_act(record.state)), move)
    return service.head(game_id)


def full_fold(store: RedisStore, game_id: str) -> Record:
    record = None
    for envelope in store.read(game_id):
        record = fold_envelope(record, envelope)
    assert record is not None
    return record


def listed(api: Any, game_id: str) -> dict[str, Any]:
    response = api.get("/v1/games?limit=100")
    assert response.status_code == 200, response.json
    return next(g for g in response.json["games"] if g["id"] == game_id)


# --- the registry ----------------------------------------------------------------


class TestRegistry:
    def test_versions_are_kept_side_by_side(self, registry: None) -> None:
        contract.register(BUMPED)
        assert contract.get("tictactoe") is BUMPED
        assert contract.get("tictactoe", "tictactoe-1") is TICTACTOE
        assert contract.get("tictactoe", "tictactoe-2") is BUMPED
        assert contract.versions("tictactoe") == ["tictactoe-1", "tictactoe-2"]
        assert "tictactoe" in contract.names()

    def test_a_previous_version_does_not_become_current(self, registry: None) -> None:
        contract.register(BUMPED)
        contract.register(TICTACTOE, current=False)
        assert contract.get("tictactoe") is BUMPED

    def test_an_unknown_version_is_a_typed_error_that_names_it(self, registry: None) -> None:
        with pytest.raises(contract.UnknownRulesVersion) as raised:
            contract.get("tictactoe", "tictactoe-99")
        assert isinstance(raised.value, KeyError)
        assert "tictactoe-99" in str(raised.value) and "tictactoe-1" in str(raised.value)
        with pytest.raises(KeyError):
            contract.get("no-such-game")


# --- a rules-version bump -------------------------------------------------------


class TestRulesBump:
    def test_old_games_stay_readable_and_go_on_under_their_own_rules(
        self, registry: None, fresh: GameService, store: RedisStore, api: Any
    ) -> None:
        made = fresh.create("tictactoe", SEATS, {}, strong_seed("bump-finished"))
        finished = made.record.game_id
        play(fresh, finished, "a1", "resign")
        fresh.score(finished)
        running = fresh.create("tictactoe", SEATS, {}, strong_seed("bump-running")).record.game_id
        play(fresh, running, "a1", "b1")

        contract.register(BUMPED)
        after = GameService(store, snapshot_every=4)
        api.application.extensions["orrery.service"] = after

        done = after.head(finished)
        assert done.over and done.game is TICTACTOE and done.scored is not None
        detail = api.get(f"/v1/games/{finished}")
        assert detail.status_code == 200 and detail.json["status"] == "finished"
        verdict = api.get(f"/v1/games/{finished}/verify")
        assert verdict.status_code == 200 and verdict.json["verdict"] == "ok" and verdict.json["seed"] == "verified"
        creator = {"Authorization": f"Bearer {made.creator_token}"}
        lines = api.get(f"/v1/games/{finished}/export", headers=creator).get_data(as_text=True).splitlines()
        header = json.loads(lines[0])
        assert header["rules_version"] == "tictactoe-1" and header["complete"] is True
        assert verify([Envelope.from_json(line) for line in lines[1:]]).ok

        moved = play(after, running, "c1")
        assert moved.game is TICTACTOE
        assert {e.rules_version for e in store.read(running)} == {"tictactoe-1"}
        assert api.get(f"/v1/games/{running}").json["version"] == moved.version

        new = after.create("tictactoe", SEATS, {}, strong_seed("bump-new")).record
        assert new.game is BUMPED and new.created.rules_version == "tictactoe-2"
        play(after, new.game_id, "b2")
        assert {e.rules_version for e in store.read(new.game_id)} == {"tictactoe-2"}

        for game_id in (finished, running, new.game_id):
            entry = listed(api, game_id)
            assert entry["version"] == store.meta(game_id).version
        assert listed(api, finished)["result"]["scored"] is True

    def test_a_game_under_rules_this_server_lacks_is_listed_and_answers_a_clean_error(
        self, registry: None, fresh: GameService, store: RedisStore, api: Any
    ) -> None:
        game_id = fresh.create("tictactoe", SEATS, {}, strong_seed("orphan")).record.game_id
        play(fresh, game_id, "a1")
        contract.register(BUMPED)
        del contract._registry["tictactoe"]["tictactoe-1"]
        lacking = GameService(store)
        api.application.extensions["orrery.service"] = lacking

        entry = listed(api, game_id)
        assert entry["version"] == store.meta(game_id).version and entry["status"] == "active"
        for path in ("", "/state", "/events", "/verify", "/export"):
            response = api.get(f"/v1/games/{game_id}{path}")
            assert response.status_code == 409, (path, response.status_code)
            error = response.json["error"]
            assert error["code"] == "unknown_rules_version" and error["rules_version"] == "tictactoe-1"
            assert "tictactoe-1" in error["message"]
        with pytest.raises(RulesVersionUnavailable):
            lacking.head(game_id)
        offline = verify(store.read(game_id))
        assert not offline.ok and "tictactoe-1" in (offline.failure or "")


# --- listing reads metadata only ------------------------------------------------------


class TestListing:
    def test_listing_never_folds_and_matches_what_a_spectator_sees(
        self, fresh: GameService, api: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        plain = fresh.create("tictactoe", SEATS, {}, strong_seed("list-plain")).record.game_id
        play(fresh, plain, "a1", "b1", "a2")
        delayed = fresh.create("tictactoe", SEATS, {"spectator_delay": 3}, strong_seed("list-held")).record.game_id
        play(fresh, delayed, "a1", "b1", "a2", "b2")
        early = fresh.create("tictactoe", SEATS, {"spectator_delay": 50}, strong_seed("list-early")).record.game_id
        play(fresh, early, "a1")
        over = fresh.create("tictactoe", SEATS, {"spectator_delay": 2}, strong_seed("list-over")).record.game_id
        play(fresh, over, "a1", "resign")
        fresh.score(over)
        webhook = {"webhook": "http://127.0.0.1:9/turn"}
        hooked = fresh.create("tictactoe", [SeatSpec("Ada"), SeatSpec("Hook", webhook)], {}, strong_seed("list-hook"))
        games = (plain, delayed, early, over, hooked.record.game_id)
        expected = {g: summary(fresh.visible(g, Role.SPECTATOR)) for g in games}
        assert expected[delayed]["version"] == fresh.head(delayed).version - 3
        assert expected[hooked.record.game_id]["seats"][1]["bot"] == {"webhook": True}

        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("listing folded a game")

        for name in ("head", "at", "visible", "_fold", "_from_snapshot"):
            monkeypatch.setattr(GameService, name, refuse)
        monkeypatch.setattr("service.listing.fold_envelope", refuse)
        for game_id in games:
            assert listed(api, game_id) == expected[game_id]

    def test_a_game_stored_before_the_list_kept_its_fields_is_listed_by_folding(
        self, fresh: GameService, store: RedisStore, api: Any
    ) -> None:
        game_id = fresh.create("tictactoe", SEATS, {}, strong_seed("list-legacy")).record.game_id
        play(fresh, game_id, "a1")
        store.redis.hdel(store.keys.game(game_id).meta, *listing.FIELDS)
        assert listed(api, game_id) == summary(fresh.head(game_id))
        play(fresh, game_id, "b1")
        assert set(listing.FIELDS) <= {k.decode() for k in store.redis.hkeys(store.keys.game(game_id).meta)}


# --- snapshots --------------------------------------------------------------------------

MARKER = Path("/tmp") / f"orrery-pickle-ran-{secrets.token_hex(6)}"
PICKLE_PAYLOAD = f"cos\nsystem\n(S'touch {MARKER}'\ntR.".encode()
"""A protocol-0 pickle that runs a shell command when unpickled; it must never be."""


def _garbage(record: Record, other: Record) -> dict[str, dict[str, Any]]:
    good = snapshots.encode(record)
    fields = {"version": good.version, "rules_version": good.rules_version, "schema": good.schema}
    shape = json.loads(good.state)
    return {
        "random bytes": fields | {"state": secrets.token_bytes(300)},
        "json of another shape": fields | {"state": b'{"created": [1, 2], "version": "x"}'},
        "a json list": fields | {"state": b"[1, 2, 3]"},
        "deep json": fields | {"state": b"[" * 100_000 + b"]" * 100_000},
        "a stale schema": fields | {"schema": "0" * 64, "state": good.state},
        "other rules": fields | {"rules_version": "tictactoe-0", "state": good.state},
        "a pickle": fields | {"state": PICKLE_PAYLOAD},
        "a wrong field": fields | {"state": json.dumps(shape | {"version": "seven"}).encode()},
        "a missing field": fields | {"state": json.dumps({k: v for k, v in shape.items() if k != "hash"}).encode()},
        "another game": {**fields, "version": other.version, "state": snapshots.encode(other).state},
        "ahead of the game": fields | {"version": good.version + 10, "state": _bumped(shape, 10)},
        "no fields at all": {"state": good.state},
    }


def _bumped(shape: dict[str, Any], by: int) -> bytes:
    return json.dumps(shape | {"version": shape["version"] + by}).encode()


class TestSnapshots:
    @pytest.mark.parametrize(
        "kind",
        [
            "random bytes",
            "json of another shape",
            "a json list",
            "deep json",
            "a stale schema",
            "other rules",
            "a pickle",
            "a wrong field",
            "a missing field",
            "another game",
            "ahead of the game",
            "no fields at all",
        ],
    )
    def test_a_garbage_snapshot_is_dropped_and_the_game_folds_from_its_events(
        self, kind: str, fresh: GameService, store: RedisStore, api: Any
    ) -> None:
        game_id = fresh.create("tictactoe", SEATS, {}, strong_seed(f"garbage-{kind}")).record.game_id
        record = play(fresh, game_id, "a1", "b1")
        other_id = fresh.create("tictactoe", SEATS, {}, strong_seed(f"other-{kind}")).record.game_id
        garbage = _garbage(record, fresh.head(other_id))[kind]
        key = store.keys.game(game_id).snapshot
        store.redis.delete(key)
        store.redis.hset(key, mapping=garbage)

        reader = GameService(store)
        assert reader.head(game_id) == full_fold(store, game_id)
        assert store.snapshot(game_id) is None
        api.application.extensions["orrery.service"] = GameService(store)
        assert api.get(f"/v1/games/{game_id}").status_code == 200
        assert not MARKER.exists()

    def test_a_good_snapshot_is_used(self, fresh: GameService, store: RedisStore) -> None:
        game_id = fresh.create("tictactoe", SEATS, {}, strong_seed("good-snapshot")).record.game_id
        play(fresh, game_id, "a1", "b1", "a2")
        snap = store.snapshot(game_id)
        assert snap is not None and snap.schema == snapshots.schema(type(fresh.head(game_id).state))
        reads: list[int] = []
        original = store.read

        def spy(game_id: str, **kwargs: Any) -> Any:
            reads.append(kwargs.get("after", 0))
            return original(game_id, **kwargs)

        store.read = spy  # type: ignore[method-assign]
        try:
            assert GameService(store).head(game_id) == full_fold(store, game_id)
        finally:
            store.read = original  # type: ignore[method-assign]
        assert reads[0] == snap.version

    def test_the_schema_hash_follows_fields_types_and_enum_members(self) -> None:
        @dataclasses.dataclass(frozen=True)
        class Seat:
            planet: str
            tracks: tuple[int, ...]

        before = codec.schema_hash(Seat)

        @dataclasses.dataclass(frozen=True)
        class Seat:  # type: ignore[no-redef]
            planet: str
            tracks: tuple[int, ...]
            lifepods: frozenset[int] = frozenset()

        assert codec.schema_hash(Seat) != before

        class Colour(enum.Enum):
            RED = "r"

        first = codec.schema_hash(Colour)

        class Colour(enum.Enum):  # type: ignore[no-redef]
            RED = "r"
            GREEN = "g"

        assert codec.schema_hash(Colour) != first


def _check_every_version(store: RedisStore, game_id: str) -> int:
    """Each version's snapshot decodes to exactly the full fold's record, and encodes canonically."""
    record = None
    for envelope in store.read(game_id):
        record = fold_envelope(record, envelope)
        snap = snapshots.encode(record)
        back = snapshots.decode(snap, game_id)
        assert back == record and back.state == record.state
        again = snapshots.encode(back)
        assert again == snap, f"version {record.version}: the encoding is not canonical"
        assert snapshots.encode(record) == snap
        if hasattr(record.state, "options"):
            assert back.state.options == record.state.options
    assert record is not None
    return record.version


class TestSnapshotsOfWholeGames:
    def test_tictactoe(self, fresh: GameService, store: RedisStore) -> None:
        game_id = fresh.create("tictactoe", SEATS, {}, strong_seed("codec-ttt")).record.game_id
        play(fresh, game_id, "a1", "b1", "a2", "b2", "a3")
        fresh.score(game_id)
        assert _check_every_version(store, game_id) == fresh.head(game_id).version

    def test_a_real_homeworlds_game(self, fresh: GameService, store: RedisStore) -> None:
        shared = shared_dir()
        if shared is None:
            pytest.skip("../shared is not there, so the SuperDuperGames transcripts are not either")
        path = shared / "reference" / "homeworlds" / "games" / "sdg" / "sdg-00608.txt"
        turns = [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
        game_id = fresh.create("homeworlds", SEATS, {}).record.game_id
        record = play(fresh, game_id, *turns)
        assert record.over
        fresh.score(game_id)
        assert _check_every_version(store, game_id) > 50

    def test_a_homeworlds_snapshot_from_before_the_position_history_is_refolded(
        self, fresh: GameService, store: RedisStore
    ) -> None:
        game_id = fresh.create("homeworlds", SEATS, {}).record.game_id
        opening = ["homeworld b2 y1 g3 Alpha", "homeworld b3 r1 g3 Beta", "build g1 Alpha", "build g1 Beta"]
        record = play(fresh, game_id, *opening, "pass", "pass")
        assert len(record.state.history) == 6 and record.game.view(record.state, 0)["repetitions"] == 2
        without = {f.name: f.type for f in dataclasses.fields(HomeworldsState) if f.name != "history"}
        before = dataclasses.make_dataclass("HomeworldsState", list(without.items()), frozen=True, slots=True)
        before.__module__ = HomeworldsState.__module__
        assert snapshots.schema(before) != snapshots.schema(HomeworldsState)
        good = snapshots.encode(record)
        shape = json.loads(good.state)
        del shape["state"]["history"]
        old = dataclasses.replace(good, state=json.dumps(shape).encode(), schema=snapshots.schema(before))
        with pytest.raises(snapshots.SnapshotError):
            snapshots.decode(old, game_id)
        key = store.keys.game(game_id).snapshot
        store.redis.delete(key)
        store.redis.hset(key, mapping=dataclasses.asdict(old))
        head = GameService(store).head(game_id)
        assert head == full_fold(store, game_id) and head.state.history == record.state.history
        assert store.snapshot(game_id) is None

    @pytest.mark.parametrize("seats", [2, 6])
    def test_planet_unknown_with_everything_on(self, seats: int, fresh: GameService, store: RedisStore) -> None:
        options = {
            "asymmetric_planets": True,
            "asymmetric_corporations": True,
            "events": True,
            "private_objectives": True,
        }
        table = [SeatSpec(f"P{i}") for i in range(seats)]
        game_id = fresh.create("planet-unknown", table, options, strong_seed(f"codec-pu-{seats}")).record.game_id
        rng = random.Random(seats)
        record = fresh.head(game_id)
        while not record.over:
            seat = rng.choice(sorted(record.game.to_act(record.state)))
            move = record.game.bots["random"](contract.seat_view(record.game, record.state, seat), seat, rng, 0)
            record = fresh.submit(game_id, seat, move).record
        fresh.score(game_id)
        assert _check_every_version(store, game_id) > 100


# --- no pickle ---------------------------------------------------------------------------


def test_no_module_of_the_project_imports_pickle() -> None:
    pattern = re.compile(r"^\s*(?:import|from)\s+(?:c?pickle|_pickle|dill|shelve)\b|__import__\(\s*['\"]pickle", re.M)
    found = [
        str(path.relative_to(ROOT))
        for path in ROOT.rglob("*.py")
        if not any(p.startswith(".") or p in ("build", "dist", "node_modules") for p in path.relative_to(ROOT).parts)
        and pattern.search(path.read_text(errors="replace"))
    ]
    assert found == []
