"""The event deck: the transcribed cards, the options, and how the deck is built from the seed."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from domain.contract import InvalidOptionError, parse_options
from domain.planet_unknown import GAME
from domain.planet_unknown import events as ev
from domain.planet_unknown.data import event_cards
from domain.planet_unknown.event_deck import REVEAL, available, build, random_mix

from .helpers import shared_reference


def reference_events() -> dict[str, Any]:
    folder = shared_reference()
    if folder is None:
        pytest.skip("the shared reference folder (ORRERY_SHARED or ../shared) is absent; nothing to cross-check")
    return dict(json.loads((Path(folder) / "cards.json").read_text())["event_cards"])


def setup_events(players: int, seed: bytes, **options: Any) -> list[Any]:
    """The deal of a game with the event deck on (unless ``events`` says otherwise)."""
    return GAME.setup(GAME.initial(players, {"events": True} | options), seed)


def deck_of(players: int, seed: bytes, **options: Any) -> tuple[int, ...]:
    return next(e.cards for e in setup_events(players, seed, **options) if isinstance(e, ev.EventDeckShuffled))


class TestCards:
    def test_60_cards_20_per_colour_6_solo_only(self) -> None:
        cards = event_cards()
        assert sorted(cards) == list(range(65, 125))
        assert Counter(c.alert for c in cards.values()) == {"green": 20, "orange": 20, "red": 20}
        assert sorted(c.id for c in cards.values() if c.solo) == [65, 66, 67, 79, 110, 116]

    def test_every_effect_has_a_rule(self) -> None:
        assert {c.effect for c in event_cards().values()} == set(REVEAL)

    def test_match_the_shared_reference(self) -> None:
        kinds = {
            "gain_rover": "gain_rover",
            "civ_piles_add": "civ_piles_add",
            "civ_piles_remove": "civ_piles_remove",
            "draw_objective": "draw_objective",
            "discard_objective": "discard_objective",
            "advance_one_of": "advance",
            "regress_one_of": "regress",
            "rotate_station": "rotate_station",
            "gain_biomass_patches": "patch",
            "synergy": "synergy",
            "collect": "collect",
            "add_meteorite": "meteorite",
            "round_restriction": "restriction",
            "destroy": "destroy",
            "empty_station_stack": "empty_stack",
            "choose_one": "synergy_or_peek",
        }
        for raw in reference_events()["cards"]:
            card = event_cards()[raw["bga_card_id"]]
            effect = raw["effect"]
            assert (card.alert, card.solo, card.effect) == (raw["alert"], raw["solo_only"], kinds[effect["kind"]])
            if "tracks" in effect:
                assert [t.value for t in card.tracks] == effect["tracks"]
                assert card.params["steps"] == effect["steps"]
                if effect["kind"] == "advance_one_of":
                    assert card.params.get("benefits", True) == effect["with_benefits"]
            for key in ("rule", "terrain", "what"):
                if key in effect:
                    assert card.params[key] == effect[key]
            if effect["kind"] == "destroy":
                assert card.params["from"] == effect["from"]
                assert ("min_rovers" in card.params) == ("only_if" in effect)

    def test_solo_table_matches_the_shared_reference(self) -> None:
        from domain.planet_unknown.event_deck import solo_target

        table = reference_events()["solo_target"]
        assert solo_target(None) == table["base"]
        for colour, index in (("green", 0), ("orange", 1), ("red", 2)):
            for bracket, delta in table[colour].items():
                low = int(bracket.rstrip("+").split("-")[0])
                mix = [0, 0, 0]
                mix[index] = low
                assert solo_target((mix[0], mix[1], mix[2])) == table["base"] + delta, (colour, bracket)


class TestOptions:
    def test_defaults(self) -> None:
        options = parse_options(GAME.options, {})
        assert options["events"] is None and options["event_mix"] == {} and options["private_objectives"] is False

    def test_the_event_deck_is_on_by_default_in_solo_only(self) -> None:
        from domain.planet_unknown.rules import events_on

        assert events_on(GAME.initial(1, parse_options(GAME.options, {})))
        assert not events_on(GAME.initial(3, parse_options(GAME.options, {})))
        assert events_on(GAME.initial(3, parse_options(GAME.options, {"events": True})))
        assert not events_on(GAME.initial(1, parse_options(GAME.options, {"events": False})))

    def test_defaults_survive_a_second_parse(self) -> None:
        GAME.initial(1, parse_options(GAME.options, {}))

    @pytest.mark.parametrize(
        ("mix", "message"),
        [
            ({"green": 10, "orange": 10}, "each colour"),
            ({"green": 10, "orange": 5, "red": 6}, "add up to 20"),
            ({"green": -1, "orange": 11, "red": 10}, "whole number"),
            ({"green": 1.5, "orange": 8.5, "red": 10}, "whole number"),
            ({"green": True, "orange": 9, "red": 10}, "whole number"),
            ({"green": 5, "orange": 5, "red": 5, "blue": 5}, "each colour"),
        ],
    )
    def test_bad_mixes_are_refused(self, mix: dict[str, Any], message: str) -> None:
        with pytest.raises(InvalidOptionError, match=message):
            GAME.initial(2, {"event_mix": mix})

    def test_a_mix_must_fit_the_cards_of_the_game(self) -> None:
        with pytest.raises(InvalidOptionError, match="only 16 green"):
            GAME.initial(3, {"event_mix": {"green": 17, "orange": 3, "red": 0}})
        with pytest.raises(InvalidOptionError, match="only 18 red"):
            GAME.initial(3, {"event_mix": {"green": 0, "orange": 1, "red": 19}})
        GAME.initial(1, {"event_mix": {"green": 20, "orange": 0, "red": 0}})

    def test_a_mix_needs_the_deck(self) -> None:
        with pytest.raises(InvalidOptionError, match="needs the event deck"):
            GAME.initial(2, {"events": False, "event_mix": {"green": 10, "orange": 5, "red": 5}})

    def test_events_must_be_a_bool(self) -> None:
        with pytest.raises(InvalidOptionError, match="bool"):
            GAME.initial(2, {"events": "yes"})

    def test_private_objectives_are_for_multiplayer(self) -> None:
        with pytest.raises(InvalidOptionError, match="2-6 players"):
            GAME.initial(1, {"private_objectives": True})
        with pytest.raises(InvalidOptionError, match="bool"):
            GAME.initial(3, {"private_objectives": 1})

    def test_no_deck_without_events(self) -> None:
        assert not any(isinstance(e, ev.EventDeckShuffled) for e in setup_events(2, b"x", events=False))


class TestBuilding:
    def test_deck_order_comes_from_the_seed(self) -> None:
        assert deck_of(2, b"a") == deck_of(2, b"a")
        assert deck_of(2, b"a") != deck_of(2, b"b")

    def test_the_deck_is_hidden_and_the_mix_public(self) -> None:
        events = setup_events(2, b"a")
        shuffled = next(e for e in events if isinstance(e, ev.EventDeckShuffled))
        assert shuffled.visibility().seats == frozenset() and shuffled.visibility().redacted == {"size": 20}
        mixed = next(e for e in events if isinstance(e, ev.EventDeckMixed))
        assert mixed.visibility().public and mixed.green + mixed.orange + mixed.red == 20

    def test_chosen_mix(self) -> None:
        deck = deck_of(3, b"m", event_mix={"green": 8, "orange": 6, "red": 6})
        assert Counter(event_cards()[c].alert for c in deck) == {"green": 8, "orange": 6, "red": 6}
        assert len(set(deck)) == 20

    @pytest.mark.parametrize("players", [2, 3, 6])
    def test_no_solo_cards_in_multiplayer(self, players: int) -> None:
        for seed in range(20):
            deck = deck_of(players, b"%d" % seed)
            assert not any(event_cards()[c].solo for c in deck)
        assert not any(event_cards()[c].solo for ids in available(players).values() for c in ids)

    def test_solo_cards_can_appear_in_solo(self) -> None:
        seen = {c for seed in range(30) for c in deck_of(1, b"%d" % seed)}
        assert seen & {65, 66, 67, 79, 110, 116}

    def test_bga_random_mix(self) -> None:
        for seed in range(200):
            for players in (1, 4):
                green, orange, red = random_mix(b"%d" % seed, players)
                assert 0 <= green <= 13 and 0 <= orange <= 13 and green + orange + red == 20
                assert red <= len(available(players)["red"])

    def test_build_gives_one_roll_per_card(self) -> None:
        cards, rolls = build(b"r", 1, (5, 5, 10))
        assert len(cards) == len(rolls) == 20
