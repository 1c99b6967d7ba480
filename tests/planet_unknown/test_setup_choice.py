"""Options and the setup choice before round 1 (BGA's chooseSetup)."""

from __future__ import annotations

import pytest

from domain.contract import IllegalMoveError, InvalidOptionError, Role, fold
from domain.planet_unknown import GAME
from domain.planet_unknown import events as ev
from domain.planet_unknown.data import planets
from domain.planet_unknown.model import Phase, State
from domain.planet_unknown.setup_choice import asymmetric_corporations, asymmetric_planets, choices, missing
from domain.planet_unknown.setup_choice import dealt as deal_offers

from .helpers import Play


def dealt(players: int = 3, seed: bytes = b"choose", **options: object) -> State:
    initial = GAME.initial(players, {"asymmetric_planets": True, **options})
    return fold(GAME, initial, GAME.setup(initial, seed))


class TestOptions:
    def test_defaults_give_the_symmetric_sides(self) -> None:
        state = GAME.initial(2, {})
        assert {(s.planet, s.corporation) for s in state.seats} == {("ksb-4156", "universal-coalition")}

    def test_seat_setup_fixes_each_seat(self) -> None:
        state = GAME.initial(
            2, {"seat_setup": [{"planet": "K'Aax", "corporation": "Universal Coalition"}, {"planet": "petra"}]}
        )
        assert [s.planet for s in state.seats] == ["kaax", "petra"]
        assert state.seats[0].lifepods == planets()["kaax"].lifepods

    @pytest.mark.parametrize(
        "value",
        [
            [{"planet": "gaia"}],
            [{"planet": "nowhere"}, {"planet": "gaia"}],
            [{"planet": "gaia", "corporation": "acme"}, {"planet": "gaia"}],
            [{"planet": "gaia", "rovers": 3}, {"planet": "gaia"}],
            ["gaia", "gaia"],
        ],
    )
    def test_bad_seat_setup_is_refused(self, value: object) -> None:
        with pytest.raises(InvalidOptionError, match="seat_setup"):
            GAME.initial(2, {"seat_setup": value})

    def test_a_corporation_without_rules_is_refused(self) -> None:
        _, corporations = missing()
        for name in corporations:
            with pytest.raises(InvalidOptionError, match="no rules"):
                GAME.initial(1, {"seat_setup": [{"corporation": name}]})
        if corporations:
            with pytest.raises(InvalidOptionError, match="asymmetric_corporations"):
                GAME.initial(2, {"asymmetric_corporations": True})

    def test_every_asymmetric_planet_can_be_dealt(self) -> None:
        assert len(asymmetric_planets()) == 12


class TestChoice:
    def test_each_seat_is_dealt_a_different_planet_and_must_choose(self) -> None:
        state = dealt()
        assert state.phase is Phase.INTERLUDE and state.round == 0
        assert GAME.to_act(state) == frozenset({0, 1, 2})
        offers = [s.setup_offer for s in state.seats]
        assert all(o is not None for o in offers)
        assert len({o[0] for o in offers if o}) == 3

    def test_the_choices_are_the_dealt_planet_or_the_symmetric_one(self) -> None:
        state = dealt()
        planet = state.seats[0].setup_offer[0]  # type: ignore[index]
        moves = Play(state).legal(0)
        assert moves == sorted(["setup ksb-4156 universal-coalition", f"setup {planet} universal-coalition"])
        with pytest.raises(IllegalMoveError, match="choose one of"):
            Play(state).move(
                0, "setup gaia universal-coalition" if planet != "gaia" else "setup petra universal-coalition"
            )

    def test_dealt_options_are_private_and_choices_public_once_all_chose(self) -> None:
        state = dealt()
        assert "setup_choices" in GAME.view(state, 0)["seats"][0]
        assert "setup_choices" not in GAME.view(state, 1)["seats"][0]
        dealing = [
            e
            for e in GAME.setup(GAME.initial(3, {"asymmetric_planets": True}), b"choose")
            if isinstance(e, ev.SetupDealt)
        ]
        assert dealing[0].visibility().seats == frozenset({0})
        play = Play(state)
        planet = state.seats[0].setup_offer[0]  # type: ignore[index]
        play.move(0, f"setup {planet} universal-coalition")
        assert play.events[0].visibility().seats == frozenset({0})
        assert play.state.seats[0].planet == "ksb-4156"  # not applied yet
        play.move(1, "setup ksb-4156 universal-coalition")
        play.move(2, "setup ksb-4156 universal-coalition")
        revealed = [e for e in play.events if isinstance(e, ev.SetupRevealed)]
        assert len(revealed) == 1 and revealed[0].visibility().public
        assert [s.planet for s in play.state.seats] == [planet, "ksb-4156", "ksb-4156"]
        assert play.state.seats[0].lifepods == planets()[planet].lifepods
        assert play.state.round == 1

    def test_choice_and_objective_reject_in_any_order(self) -> None:
        state = dealt(2, private_objectives=True)
        play = Play(state)
        card = state.seats[0].objective_offer[0]
        play.move(0, f"reject {card}")
        assert 0 in GAME.to_act(play.state)
        play.move(0, "setup ksb-4156 universal-coalition")
        other = state.seats[1]
        play.move(1, "setup ksb-4156 universal-coalition", f"reject {other.objective_offer[1]}")
        assert play.state.round == 1

    def test_the_spectator_sees_no_offer(self) -> None:
        seats = GAME.view(dealt(), Role.SPECTATOR)["seats"]
        assert all("setup_choices" not in s for s in seats)

    def test_a_fixed_setup_has_no_choice(self) -> None:
        initial = GAME.initial(
            2, {"asymmetric_planets": True, "seat_setup": [{"planet": "gaia"}, {"planet": "arashi"}]}
        )
        state = fold(GAME, initial, GAME.setup(initial, b"x"))
        assert state.round == 1 and [s.planet for s in state.seats] == ["gaia", "arashi"]


class TestDealing:
    def test_corporations_are_dealt_from_those_with_rules_without_repeats(self) -> None:
        offers = deal_offers({"asymmetric_corporations": True}, 3, b"deal")
        assert offers is not None
        assert all(planet == "ksb-4156" for planet, _ in offers)
        corps = [corp for _, corp in offers]
        assert len(set(corps)) == 3 and set(corps) <= set(asymmetric_corporations())

    def test_both_sides_give_four_choices(self) -> None:
        assert choices(("gaia", "republic")) == [
            ("gaia", "republic"),
            ("gaia", "universal-coalition"),
            ("ksb-4156", "republic"),
            ("ksb-4156", "universal-coalition"),
        ]


class TestViews:
    def test_a_choice_stays_secret_until_everyone_chose(self) -> None:
        state = dealt()
        planet = state.seats[0].setup_offer[0]  # type: ignore[index]
        play = Play(state).move(0, f"setup {planet} universal-coalition")
        other = GAME.view(play.state, 1)["seats"][0]
        assert other["planet"] == "ksb-4156" and "setup_chosen" not in other
        mine = GAME.view(play.state, 0)["seats"][0]
        assert mine["setup_chosen"] == [planet, "universal-coalition"]
