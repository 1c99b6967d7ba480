"""Events carry their outcomes (issue 17, item 1): the rules decide them, the fold only copies them, and
events stored without them (rules 3-5) are completed by the upcast to the same states."""

from __future__ import annotations

import dataclasses
import inspect
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from domain import contract
from domain.contract import Event, Role, decode_event, encode_event, fold, project
from domain.planet_unknown import GAME, PREVIOUS_VERSIONS, PlanetUnknown, event_deck, gains, outcomes, setup, upcast
from domain.planet_unknown import events as ev
from domain.planet_unknown.benefits import clear
from domain.planet_unknown.corporation_state import JumpDriveState, MakeshiftState, merged, public
from domain.planet_unknown.data import civ_cards
from domain.planet_unknown.gains import card_benefits
from domain.planet_unknown.model import Benefit, Kind, Phase, State
from domain.planet_unknown.powers import CORPORATIONS, Corporation
from domain.planet_unknown.rules import evolve
from events.envelope import canonical
from service.games import GameService, SeatSpec
from tests.conftest import on_memory
from tests.support.seeds import strong_seed

from .helpers import EMPTY, start, with_seat

app, service = on_memory()

OLD = {game.rules_version: game for game in PREVIOUS_VERSIONS}

CONFIGURATIONS: list[tuple[str, int, dict[str, Any]]] = [
    ("solo", 1, {}),
    ("four", 4, {}),
    ("events-2", 2, {"events": True}),
    ("events-mix-3", 3, {"events": True, "event_mix": {"green": 8, "orange": 6, "red": 6}}),
    ("dealt-2", 2, {"asymmetric_planets": True, "asymmetric_corporations": True}),
    (
        "everything-4",
        4,
        {"events": True, "asymmetric_planets": True, "asymmetric_corporations": True, "private_objectives": True},
    ),
    (
        "every-corporation-3",
        3,
        {
            "events": True,
            "seat_setup": [
                {"planet": "arashi", "corporation": "jump-drive"},
                {"planet": "petra", "corporation": "makeshift"},
                {"planet": "cerberus", "corporation": "flux-industries", "flux": "water"},
            ],
        },
    ),
    (
        "more-corporations-3",
        3,
        {
            "events": True,
            "seat_setup": [
                {"planet": "tartarus", "corporation": "cosmos-inc"},
                {"planet": "gaia", "corporation": "horizon-group"},
                {"planet": "lacuna", "corporation": "wormhole-corp"},
            ],
        },
    ),
    (
        "republic-oasis-2",
        2,
        {
            "events": True,
            "seat_setup": [
                {"planet": "kaax", "corporation": "republic"},
                {"planet": "k-273", "corporation": "oasis-ultd"},
            ],
        },
    ),
]


@dataclasses.dataclass(frozen=True)
class Played:
    """A complete game: the state before any event, its events as the rules version stores them, the end."""

    initial: State
    log: list[Event]
    final: State


def played(game: PlanetUnknown, seats: int, options: dict[str, Any], seed: str) -> Played:
    """A whole game of random legal moves (seats and moves chosen by a seeded generator)."""
    choose = random.Random(seed)
    initial = game.initial(seats, options)
    log = list(game.setup(initial, seed.encode()))
    state = fold(game, initial, log)
    while game.outcome(state) is None:
        seat = choose.choice(sorted(game.to_act(state)))
        move = choose.choice(sorted(game.legal_moves(state, seat), key=canonical))
        events = game.decide(state, seat, move)
        state = fold(game, state, events)
        log.extend(events)
    return Played(initial, log, state)


@pytest.fixture(scope="module", params=[c[0] for c in CONFIGURATIONS])
def new_game(request: pytest.FixtureRequest) -> Played:
    _, seats, options = next(c for c in CONFIGURATIONS if c[0] == request.param)
    return played(GAME, seats, options, f"outcomes-{request.param}")


def without_outcomes(event: Event) -> tuple[str, dict[str, Any]]:
    """The stored form of ``event`` as rules 3-5 wrote it: its payload without the outcome keys."""
    name, payload = encode_event(event)
    dropped = upcast.OUTCOMES.get(type(event), ())
    return name, {key: value for key, value in payload.items() if key not in dropped}


def _forbidden(name: str) -> Callable[..., Any]:
    def called(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"the fold called the rule {name}")

    return called


@pytest.fixture
def rules_forbidden(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every rule entry point the fold called before events carried their outcomes raises."""
    for module in (event_deck, gains, outcomes):
        for name, value in vars(module).items():
            if inspect.isfunction(value) and not name.startswith("__"):
                monkeypatch.setattr(module, name, _forbidden(f"{module.__name__}.{name}"))
    monkeypatch.setattr(setup, "new_seat", _forbidden("setup.new_seat"))
    monkeypatch.setattr(clear, "in_line", _forbidden("clear.in_line"))
    monkeypatch.setattr(upcast, "record", _forbidden("outcomes.record"))
    hooks = [name for name, value in vars(Corporation).items() if inspect.isfunction(value)]
    classes: set[type[Corporation]] = {Corporation, *(type(c) for c in CORPORATIONS.values())}
    for cls in classes:
        for name in hooks:
            if name in vars(cls):
                monkeypatch.setattr(cls, name, _forbidden(f"{cls.__name__}.{name}"))
    yield


class TestTheFoldAppliesNoRules:
    def test_folding_a_whole_game_calls_no_rule(self, new_game: Played, rules_forbidden: None) -> None:
        assert fold(GAME, new_game.initial, new_game.log) == new_game.final

    def test_the_patches_do_bite(self, new_game: Played, rules_forbidden: None) -> None:
        """The same events without their outcomes need the rules: the upcast is what calls them."""
        first = next(e for e in new_game.log if isinstance(e, ev.RoundStarted))
        with pytest.raises(AssertionError, match=r"outcomes\.record"):
            evolve(new_game.initial, upcast.stripped(first))
        seat = new_game.initial.seats[0]
        for corp in CORPORATIONS.values():
            with pytest.raises(AssertionError, match="called the rule"):
                corp.round_start(seat)
        with pytest.raises(AssertionError, match="called the rule"):
            event_deck.reveal(new_game.initial, seat)
        with pytest.raises(AssertionError, match="called the rule"):
            setup.new_seat("ksb-4156", "universal-coalition")

    def test_every_event_with_an_outcome_records_it(self, new_game: Played) -> None:
        assert all(upcast.recorded(e) for e in new_game.log)
        kinds = {type(e) for e in new_game.log} & set(upcast.OUTCOMES)
        assert {ev.TilePlaced, ev.TrackAdvanced, ev.DraftStarted, ev.EndGameTurnStarted} <= kinds


class TestOldEventsFoldTheSame:
    def test_payloads_without_outcome_keys_fold_to_the_same_state(self, new_game: Played) -> None:
        old = [decode_event(GAME.events, *without_outcomes(e)) for e in new_game.log]
        assert not any(upcast.recorded(e) for e in old if type(e) in upcast.OUTCOMES)
        assert fold(GAME, new_game.initial, old) == new_game.final

    def test_the_upcast_records_the_outcome_the_rules_decided(self, new_game: Played) -> None:
        state = new_game.initial
        for event in new_game.log:
            assert upcast.upcast(state, upcast.stripped(event)) == event
            state = GAME.evolve(state, event)

    @pytest.mark.parametrize("version", ["planet-unknown-5", "planet-unknown-4", "planet-unknown-3"])
    def test_the_old_versions_store_no_outcomes_and_fold_as_before(self, version: str) -> None:
        game = OLD[version]
        played_game = played(game, 2, {"events": True}, f"outcomes-old-{version}")
        stored = [e for e in played_game.log if type(e) in upcast.OUTCOMES]
        assert stored and not any(upcast.recorded(e) for e in stored)
        state = played_game.initial
        for event in played_game.log:
            recorded = upcast.upcast(state, event)
            assert upcast.stripped(recorded) == event
            state = game.evolve(state, recorded)
        assert state == played_game.final

    def test_rules_5_and_6_play_the_same_game(self) -> None:
        """Same rulings: the same moves give the same states; only the stored events differ."""
        new = played(GAME, 3, {"events": True, "asymmetric_corporations": True}, "outcomes-5-6")
        old = played(OLD["planet-unknown-5"], 3, {"events": True, "asymmetric_corporations": True}, "outcomes-5-6")
        assert new.final == old.final
        assert [upcast.stripped(e) for e in new.log] == old.log


class TestCodec:
    def test_benefits_and_corporation_states_round_trip(self) -> None:
        event = ev.SetupRevealed(
            (("arashi", "jump-drive"),),
            ("",),
            (frozenset({3, 4}),),
            (1,),
            (JumpDriveState(pod_slots=(2,)),),
        )
        name, payload = encode_event(event)
        assert payload["corporation_states"] == [["JumpDriveState", {"pod_slots": [2]}]]
        assert decode_event(GAME.events, name, json.loads(json.dumps(payload))) == event
        choice = Benefit(Kind.SELECT, alternatives=((Benefit(Kind.CHOOSE, source="synergy"),), (Benefit(Kind.PEEK),)))
        placed = ev.TilePlaced(0, 57, 40, 90, False, gains=(choice,), meteorites=frozenset({41}))
        name, payload = encode_event(placed)
        assert payload["gains"] == [
            {"kind": "select", "alternatives": [[{"kind": "choose", "source": "synergy"}], [{"kind": "peek"}]]}
        ]
        assert decode_event(GAME.events, name, json.loads(json.dumps(payload))) == placed


def read_by(event: Event, viewer: contract.Viewer) -> str:
    _, payload = encode_event(event)
    return json.dumps(dict(project(event.visibility(), payload, viewer, game_over=False).payload))


class TestHiddenOutcomes:
    def test_a_recorded_corporation_state_leaves_out_what_it_keeps_hidden(self) -> None:
        """Jump Drive's drawn objectives ride in no public event: the event holds the public part of the
        state, and the fold keeps the seat's own hidden part."""
        drawn = JumpDriveState(pod_slots=(1,), shared_offer=(7, 9))
        assert public(drawn) == JumpDriveState(pod_slots=(1,))
        assert merged(JumpDriveState(pod_slots=(1, 2)), drawn) == JumpDriveState((1, 2), (7, 9))
        assert public(MakeshiftState((0, 1))) == MakeshiftState((0, 1)) and public(None) is None
        state = start(2)
        seat = dataclasses.replace(state.seats[0], corporation_state=drawn, pending=(Benefit(Kind.CHOOSE),))
        state = dataclasses.replace(state, seats=(seat, *state.seats[1:]))
        moved_seat = dataclasses.replace(seat, corporation_state=JumpDriveState((1, 2), (7, 9)))
        recorded = outcomes.state_change(seat, moved_seat)
        assert recorded == JumpDriveState(pod_slots=(1, 2)), "the drawn objectives stay out of the event"
        assert outcomes.state_change(seat, seat) is None
        moved = ev.LifepodMoved(0, "area", "slot2", 0, corporation_state=recorded)
        after = evolve(state, moved)
        assert after.seats[0].corporation_state == JumpDriveState((1, 2), (7, 9)) and after.seats[0].pending == ()

    def test_what_a_civ_card_gives_is_seen_by_its_owner_only(self) -> None:
        state = start(2)
        card = next(c for c in range(1, 37) if card_benefits(c, state.rulings)[0])
        taken = outcomes.record(state, ev.CivCardTaken(0, 1, card, 0))
        assert isinstance(taken, ev.CivCardTaken) and taken.gains
        for viewer in (1, Role.SPECTATOR, Role.AUDITOR):
            assert json.loads(read_by(taken, viewer)) == {"seat": 0, "rank": 1, "pending": 0}
        assert '"gains"' in read_by(taken, 0)

    def test_an_end_game_turn_naming_civ_cards_is_read_by_nobody_until_the_end(self) -> None:
        medals = next(c for c in range(1, 37) if civ_cards()[c].kind == "medals_and_advance")
        state = with_seat(start(2), 1, EMPTY)
        seats = (state.seats[0], dataclasses.replace(state.seats[1], hand=(medals,)))
        state = dataclasses.replace(state, seats=seats, phase=Phase.CIV)
        turn = outcomes.record(state, ev.EndGameTurnStarted())
        assert isinstance(turn, ev.EndGameTurnStarted) and turn.end_cards == ((), (medals,))
        for viewer in (0, 1, Role.SPECTATOR, Role.AUDITOR):
            assert json.loads(read_by(turn, viewer)) == {}
        assert turn.visibility().allows(Role.AUDITOR, game_over=True)
        quiet = outcomes.record(dataclasses.replace(state, seats=(state.seats[0],) * 2), ev.EndGameTurnStarted())
        assert quiet.visibility().public

    def test_outcomes_naming_civ_cards_are_redacted_in_every_game(self, new_game: Played) -> None:
        for event in new_game.log:
            if isinstance(event, ev.CivCardTaken):
                others = [s for s in range(new_game.initial.players) if s != event.seat]
                viewers: list[contract.Viewer] = [*others, Role.SPECTATOR, Role.AUDITOR]
                for viewer in viewers:
                    assert set(json.loads(read_by(event, viewer))) == {"seat", "rank", "pending"}
            if isinstance(event, ev.EndGameTurnStarted) and any(event.end_cards or ()):
                assert not event.visibility().allows(Role.SPECTATOR, game_over=False)


@pytest.fixture
def as_current(app: Any) -> Iterator[Callable[[PlanetUnknown], None]]:
    """Make a rules version the one new games get; the registry is restored after the test."""
    saved = {name: dict(games) for name, games in contract._registry.items()}
    current = dict(contract._current)

    def make_current(game: PlanetUnknown) -> None:
        contract.register(game)

    yield make_current
    contract._registry.clear()
    contract._registry.update(saved)
    contract._current.clear()
    contract._current.update(current)


class TestVerifier:
    @pytest.mark.parametrize("version", ["planet-unknown-6", "planet-unknown-5", "planet-unknown-4"])
    def test_games_of_every_version_verify(
        self, version: str, service: GameService, as_current: Callable[[PlanetUnknown], None]
    ) -> None:
        as_current(GAME if version == GAME.rules_version else OLD[version])
        made = service.create("planet-unknown", [SeatSpec("Ada")], {"events": True}, strong_seed(f"verify-{version}"))
        game_id = made.record.game_id
        choose = random.Random(version)
        record = service.head(game_id)
        assert record.created.rules_version == version
        while not record.over:
            seat = min(record.game.to_act(record.state))
            move = choose.choice(sorted(record.game.legal_moves(record.state, seat), key=canonical))
            service.submit(game_id, seat, move)
            record = service.head(game_id)
        service.score(game_id)
        assert service.verify(game_id).ok
