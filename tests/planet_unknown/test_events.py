"""The event cards (rules notes section 10 and the event cases of 14), each on a position in text notation."""

from __future__ import annotations

import dataclasses

import pytest

from domain.contract import IllegalMoveError
from domain.planet_unknown import GAME
from domain.planet_unknown import events as ev
from domain.planet_unknown.board import footprint, parse_square
from domain.planet_unknown.data import Terrain, event_cards, planets
from domain.planet_unknown.model import DESTROYED, GARAGE, Benefit, Kind, Phase, Stage
from domain.planet_unknown.powers import tech_level
from domain.planet_unknown.rules import depot

from .event_helpers import RICH, at_event
from .helpers import EMPTY, Play, pending
from .test_placement import full_except

A6_B6 = "ksb-4156 12/12/12/12/12/eC10/12/12/12/12/12/12"
ENERGY_CIV = 8  # D2 "C/E"; rotated 90: E left, C right
WATER_ROVER = 104  # D2 "W/R"


def sq(name: str) -> int:
    return parse_square(name)


def moves(play: Play, verb: str) -> list[str]:
    return sorted(m for m in play.legal() if m.split()[0] == verb)


def cards(effect: str, **params: object) -> list[int]:
    return [
        c.id
        for c in event_cards().values()
        if c.effect == effect and all(c.params.get(k) == v for k, v in params.items())
    ]


class TestRevealing:
    def test_one_card_per_round_after_rotation_is_public(self) -> None:
        play = at_event(81, EMPTY)
        revealed = [e for e in play.events if isinstance(e, ev.EventRevealed)]
        assert [e.card for e in revealed] == [81]
        assert revealed[0].gains == ((Benefit(Kind.CHOOSE, source="synergy"),),)
        assert revealed[0].visibility().public
        assert play.state.phase is Phase.EVENT and play.state.event_card == 81

    def test_a_card_with_nothing_to_do_goes_straight_to_the_draft(self) -> None:
        play = at_event(97, EMPTY)
        assert play.state.phase is Phase.DRAFT and play.seat().stage is Stage.CHOOSING

    def test_the_last_card_makes_this_round_the_last(self) -> None:
        play = at_event(81, EMPTY, after=())
        assert ev.LastRoundTriggered("the last event card was drawn") in play.events
        assert play.state.last_round

    def test_civ_milestones_of_the_event_resolve_before_the_draft(self) -> None:
        play = at_event(73, EMPTY + " t:2.0.0.0.0").move(0, "choose 0 civ")
        assert play.state.phase is Phase.CIV and play.seat().pending[0].kind is Kind.CIV
        card = play.state.civ_piles[0][0]
        play.move(0, f"civ {card}")
        while play.state.phase is Phase.CIV:
            play.move(0, "confirm" if all(b.optional for b in play.seat().pending) else play.legal()[0])
        assert play.state.phase is Phase.DRAFT and play.seat().stage is Stage.CHOOSING
        assert card in play.seat().hand

    def test_a_place_a_tile_card_after_the_event_takes_from_the_depot_then_it_refills(self) -> None:
        base = at_event(81, EMPTY).state
        piles = ((5, 6), *base.civ_piles[1:])
        play = at_event(73, EMPTY + " t:2.0.0.0.0", tiles=(ENERGY_CIV, WATER_ROVER), civ_piles=piles)
        outer, _ = depot(play.state, 0)
        following = play.state.stacks[outer][1]
        play.move(0, "choose 0 civ", "civ 5", "place 8 a6 90")
        assert play.seat().pending == () and play.seat().track(Terrain.CIV) == 3
        play.move(0, "confirm")
        assert play.state.phase is Phase.DRAFT and play.seat().stage is Stage.CHOOSING
        assert play.state.stacks[outer][0] == following and play.state.revealed[outer]
        assert sorted(play.state.seats[0].placed) == [ENERGY_CIV]

    def test_every_player_resolves_the_card(self) -> None:
        play = at_event(81, EMPTY, EMPTY, EMPTY, players=3)
        assert play.state.phase is Phase.EVENT
        assert all(s.stage is Stage.RESOLVING for s in play.state.seats)
        play.move(1, "choose 0 water")
        assert play.state.phase is Phase.EVENT and play.state.seats[1].stage is Stage.DONE
        play.move(0, "choose 0 civ").move(2, "choose 0 tech")
        assert play.state.phase is Phase.DRAFT

    def test_the_restriction_ends_with_the_round(self) -> None:
        play = at_event(120, EMPTY)
        assert play.state.event_card == 120
        state = GAME.evolve(play.state, ev.RoundEnded(0))
        assert state.event_card is None and play.state.event_card == 120


class TestGainRover:
    def test_65_extra_rover_deployed_on_the_tile_placed_this_round(self) -> None:
        play = at_event(65, EMPTY, tiles=(WATER_ROVER, None))
        assert play.seat().rovers == (GARAGE, GARAGE, GARAGE)
        play.move(0, "place 104 a6 0")
        assert "deploy" in [b.describe() for b in play.seat().pending]
        play.move(0, "deploy a7")
        assert sq("a7") in play.seat().rovers


class TestCivPiles:
    def test_66_adds_a_set_aside_card_to_every_rank(self) -> None:
        before = at_event(81, EMPTY).state
        play = at_event(66, EMPTY)
        assert [len(p) for p in play.state.civ_piles] == [len(p) + 1 for p in before.civ_piles]
        added = {c for p in play.state.civ_piles for c in p} - {c for p in before.civ_piles for c in p}
        assert added <= set(before.civ_aside) and len(added) == 4
        hidden = [e for e in play.events if isinstance(e, ev.CivPilesChanged)]
        assert hidden and hidden[0].visibility().seats == frozenset()

    def test_112_removes_one_card_from_every_rank(self) -> None:
        before = at_event(81, EMPTY).state
        play = at_event(112, EMPTY)
        assert [len(p) for p in play.state.civ_piles] == [len(p) - 1 for p in before.civ_piles]
        assert len(play.state.civ_aside) == len(before.civ_aside) + 4


class TestObjectiveCards:
    def test_67_draws_one_more_objective(self) -> None:
        play = at_event(67, EMPTY, objective_deck=(50, 51))
        assert play.seat().private_objectives == (50,)
        assert play.state.objective_deck == (51,)
        drawn = next(e for e in play.events if isinstance(e, ev.ObjectiveDrawn))
        assert drawn.visibility().seats == frozenset({0})

    def test_110_destroys_one_of_your_objectives(self) -> None:
        play = at_event(110, EMPTY, objectives=(40, 41, 42))
        assert moves(play, "reject") == ["reject 40", "reject 41", "reject 42"]
        with pytest.raises(IllegalMoveError):
            play.move(0, "confirm")
        play.move(0, "reject 41")
        assert play.seat().private_objectives == (40, 42)
        rejected = next(e for e in play.events if isinstance(e, ev.ObjectiveRejected))
        assert rejected.visibility().seats == frozenset({0})

    def test_110_skipped_without_objectives(self) -> None:
        assert at_event(110, EMPTY).state.phase is Phase.DRAFT


class TestAdvance:
    def test_68_three_spaces_without_any_benefit(self) -> None:
        play = at_event(68, EMPTY)
        assert moves(play, "choose") == ["choose 0 biomass", "choose 0 civ", "choose 0 water"]
        play.move(0, "choose 0 civ")
        assert play.seat().track(Terrain.CIV) == 3
        assert play.seat().civ_queue == () and play.seat().pending == ()
        play = at_event(68, EMPTY).move(0, "choose 0 biomass")
        assert play.seat().track(Terrain.BIOMASS) == 3 and play.seat().pending == ()

    def test_68_stops_at_the_top(self) -> None:
        play = at_event(68, EMPTY + " t:14.0.0.0.0").move(0, "choose 0 civ")
        assert play.seat().track(Terrain.CIV) == 15

    @pytest.mark.parametrize("card", cards("advance", steps=1))
    def test_advance_one_of_two_trackers_once(self, card: int) -> None:
        tracks = event_cards()[card].tracks
        play = at_event(card, A6_B6 + " t:4.4.4.4.4")
        assert moves(play, "choose") == sorted(f"choose 0 {t}" for t in tracks)
        play.move(0, f"choose 0 {tracks[0]}")
        assert play.seat().track(tracks[0]) == 5
        assert all(play.seat().track(t) == 4 for t in tracks[1:])

    def test_advances_claim_their_benefits(self) -> None:
        play = at_event(69, EMPTY + " t:2.0.0.0.0").move(0, "choose 0 civ")
        assert play.state.phase is Phase.CIV and [b.describe() for b in play.seat().pending] == ["civ card rank 1"]


class TestRotate:
    def test_79_turns_the_station_to_any_depot(self) -> None:
        play = at_event(79, EMPTY)
        assert moves(play, "rotate") == [f"rotate {r}" for r in range(6)]
        target = (play.state.rotation + 3) % 6
        play.move(0, f"rotate {target}")
        assert play.state.rotation == target and play.state.phase is Phase.DRAFT


class TestGains:
    def test_80_biomass_patch(self) -> None:
        play = at_event(80, A6_B6)
        assert "patch c6" in moves(play, "patch")
        play.move(0, "patch c6")
        assert play.seat().cover[sq("c6")] == "p"

    @pytest.mark.parametrize("card", cards("synergy"))
    def test_synergy_boost(self, card: int) -> None:
        play = at_event(card, EMPTY)
        assert len(moves(play, "choose")) == 5
        play.move(0, "choose 0 tech")
        assert play.seat().track(Terrain.TECH) == 1

    def test_82_collect_a_lifepod_anywhere(self) -> None:
        play = at_event(82, EMPTY)
        assert moves(play, "collect") == sorted(f"collect {n}" for n in ("h3", "b5", "k5", "c8", "i9", "f10"))
        play.move(0, "collect i9")
        assert play.seat().lifepods_collected == 1 and sq("i9") not in play.seat().lifepods

    def test_83_collect_a_meteorite_anywhere(self) -> None:
        play = at_event(83, A6_B6 + " met:a6")
        assert moves(play, "collect") == ["collect a6"]
        play.move(0, "collect a6")
        assert play.seat().meteorites_collected == 1 and not play.seat().meteorites

    @pytest.mark.parametrize(("card", "position"), [(82, EMPTY), (83, A6_B6 + " met:a6")])
    def test_82_83_are_compulsory_when_possible(self, card: int, position: str) -> None:
        """Every player who can must carry out the event (rules notes 10): no confirming it away."""
        play = at_event(card, position)
        assert "confirm" not in play.legal()
        with pytest.raises(IllegalMoveError, match="resolve these first"):
            play.move(0, "confirm")

    def test_83_without_a_meteorite_on_the_planet_is_done_at_once(self) -> None:
        play = at_event(83, A6_B6)
        assert play.state.phase is Phase.DRAFT and play.seat().pending == ()


class TestRegress:
    @pytest.mark.parametrize("card", cards("regress", steps=1))
    def test_regress_one_listed_tracker_once(self, card: int) -> None:
        tracks = event_cards()[card].tracks
        play = at_event(card, EMPTY + " t:3.3.3.3.3")
        assert moves(play, "regress") == sorted(f"regress {t}" for t in tracks)
        with pytest.raises(IllegalMoveError):
            play.move(0, "confirm")
        play.move(0, f"regress {tracks[-1]}")
        assert play.seat().track(tracks[-1]) == 2 and play.seat().pending == ()

    def test_regress_skips_trackers_at_zero(self) -> None:
        play = at_event(85, EMPTY + " t:2.0.0.0.0")
        assert moves(play, "regress") == ["regress civ"]

    def test_nothing_happens_when_no_listed_tracker_can_regress(self) -> None:
        play = at_event(85, EMPTY + " t:0.5.5.0.5")
        assert play.state.phase is Phase.DRAFT
        assert play.seat().tracks == (0, 5, 5, 0, 5)

    @pytest.mark.parametrize("card", cards("regress", steps=2) + cards("regress", steps=3))
    def test_regress_the_full_amount_when_some_tracker_can(self, card: int) -> None:
        steps = int(event_cards()[card].params["steps"])
        play = at_event(card, EMPTY + f" t:{steps}.1.0.0.{steps + 2}")
        assert moves(play, "regress") == ["regress civ", "regress tech"]
        play.move(0, "regress tech")
        assert play.seat().track(Terrain.TECH) == 2

    @pytest.mark.parametrize("card", cards("regress", steps=2) + cards("regress", steps=3))
    def test_partial_amount_when_no_tracker_can_go_back_that_far(self, card: int) -> None:
        play = at_event(card, EMPTY + " t:1.1.0.0.0")
        assert moves(play, "regress") == ["regress civ", "regress water"]
        play.move(0, "regress water")
        assert play.seat().track(Terrain.WATER) == 0

    def test_regressing_tech_loses_the_power(self) -> None:
        play = at_event(86, EMPTY + " t:0.0.0.0.3")
        assert tech_level(play.seat()) == 1
        play.move(0, "regress tech")
        assert tech_level(play.seat()) == 0


class TestMeteorite:
    @pytest.mark.parametrize("card", cards("meteorite"))
    def test_meteorite_on_an_empty_meteor_symbol_destroys_a_rover(self, card: int) -> None:
        play = at_event(card, A6_B6 + " met:b6 sym:a6,b6 rov:a6,g")
        assert moves(play, "meteorite") == ["meteorite a6"]
        with pytest.raises(IllegalMoveError):
            play.move(0, "confirm")
        play.move(0, "meteorite a6")
        assert play.seat().meteorites == {sq("a6"), sq("b6")}
        assert play.seat().rovers == (DESTROYED, GARAGE)

    def test_skipped_without_an_empty_symbol(self) -> None:
        play = at_event(95, A6_B6 + " met:a6")
        assert play.state.phase is Phase.DRAFT

    def test_optional_with_tech_5(self) -> None:
        play = at_event(107, A6_B6 + " sym:a6 t:0.0.0.0.14")
        assert "confirm" in play.legal()

    def test_placed_tiles_remember_their_meteor_symbols(self) -> None:
        play = at_event(97, EMPTY + " t:0.0.0.0.14", tiles=(20, None)).move(0, "place 20 a6 0")
        assert play.seat().meteor_symbols == {sq("a7")} and not play.seat().meteorites


class TestDestroy:
    def test_111_destroys_one_of_two_rovers(self) -> None:
        play = at_event(111, A6_B6 + " rov:c6,d6")
        assert moves(play, "destroy") == ["destroy c6", "destroy d6"]
        with pytest.raises(IllegalMoveError):
            play.move(0, "confirm")
        play.move(0, "destroy d6")
        assert play.seat().rovers == (sq("c6"), DESTROYED)

    def test_111_spares_a_single_rover(self) -> None:
        play = at_event(111, A6_B6 + " rov:c6,g")
        assert play.state.phase is Phase.DRAFT and play.seat().rovers == (sq("c6"), GARAGE)

    def test_113_destroys_a_lifepod_on_the_planet(self) -> None:
        play = at_event(113, EMPTY)
        assert len(moves(play, "destroy")) == 6
        play.move(0, "destroy b5")
        assert sq("b5") not in play.seat().lifepods and play.seat().lifepods_collected == 0

    def test_113_skipped_without_lifepods(self) -> None:
        play = at_event(113, EMPTY + " pods:")
        assert play.state.phase is Phase.DRAFT

    def test_114_destroys_a_collected_lifepod(self) -> None:
        assert at_event(114, EMPTY + " lc:2").seat().lifepods_collected == 1
        assert at_event(114, EMPTY).seat().lifepods_collected == 0

    def test_115_destroys_a_collected_meteorite(self) -> None:
        play = at_event(115, A6_B6 + " met:a6 mc:4")
        assert play.seat().meteorites_collected == 3 and play.seat().meteorites == {sq("a6")}
        assert at_event(115, EMPTY).seat().meteorites_collected == 0


class TestEmptyStack:
    def test_116_removes_a_stack_of_your_depot(self) -> None:
        play = at_event(116, EMPTY)
        outer, inner = depot(play.state, 0)
        assert moves(play, "empty") == sorted([f"empty {outer}", f"empty {inner}"])
        tiles = play.state.stacks[inner]
        play.move(0, f"empty {inner}")
        assert play.state.stacks[inner] == () and play.state.removed == tiles


class TestSynergyOrPeek:
    @pytest.mark.parametrize("card", cards("synergy_or_peek"))
    def test_synergy_or_a_private_look_at_the_next_card(self, card: int) -> None:
        play = at_event(card, EMPTY, after=(99, 80))
        assert moves(play, "pick") == ["pick 0 0", "pick 0 1"]
        play.move(0, "pick 0 1")
        assert play.seat().peeked == 99
        peek = next(e for e in play.events if isinstance(e, ev.NextEventPeeked))
        assert peek.visibility().seats == frozenset({0})
        play = at_event(card, EMPTY).move(0, "pick 0 0")
        assert len(moves(play, "choose")) == 5

    def test_no_peek_at_the_last_card(self) -> None:
        play = at_event(117, EMPTY, after=())
        assert moves(play, "pick") == ["pick 0 0"]


class TestRoverRestrictions:
    @pytest.mark.parametrize("card", cards("restriction", rule="rovers_cannot_enter"))
    def test_rovers_may_not_enter_the_terrain(self, card: int) -> None:
        terrain = Terrain(event_cards()[card].params["terrain"])
        position = f"ksb-4156 12/12/12/12/12/2{terrain.letter}9/12/12/12/12/12/12 rov:d6,g"
        play = at_event(card, position)
        play.state = pending(play.state, 0)
        play.state = dataclasses.replace(play.state, seats=(dataclasses.replace(play.seat(), moves=2),))
        assert "rover 0 c6" not in play.legal() and "rover 0 e6" in play.legal()
        with pytest.raises(IllegalMoveError, match="closes"):
            play.move(0, "rover 0 c6")
        play.move(0, "rover 0 e6")


class TestTileRestrictions:
    @pytest.mark.parametrize("card", cards("restriction", rule="no_tile_on_edge"))
    def test_no_tile_on_the_edge(self, card: int) -> None:
        play = at_event(card, A6_B6, tiles=(ENERGY_CIV, None))
        edge = planets()["ksb-4156"].edge
        placed = [m.split() for m in moves(play, "place")]
        assert placed
        for _, tile, anchor, rotation, *flip in placed:
            cells = footprint(int(tile), sq(anchor), int(rotation), bool(flip))
            assert cells is not None and not set(cells) & edge
        with pytest.raises(IllegalMoveError, match="forbids"):
            play.move(0, "place 8 a7 90")

    @pytest.mark.parametrize("card", cards("restriction", rule="no_tile_on_edge"))
    def test_relaxed_when_it_leaves_no_legal_tile(self, card: int) -> None:
        play = at_event(card, EMPTY, tiles=(ENERGY_CIV, None))
        assert GAME.view(play.state, 0)["seats"][0]["restriction_relaxed"] is True
        assert "place 8 a6 90" in play.legal()
        play.move(0, "place 8 a6 90")
        blocked = at_event(card, A6_B6, tiles=(ENERGY_CIV, None))
        assert GAME.view(blocked.state, 0)["seats"][0]["restriction_relaxed"] is False

    @pytest.mark.parametrize("card", cards("restriction", rule="no_tile_on_ice"))
    def test_no_tile_on_ice(self, card: int) -> None:
        play = at_event(card, EMPTY, tiles=(WATER_ROVER, None))
        ice = planets()["ksb-4156"].ice
        placed = [m.split() for m in moves(play, "place")]
        assert placed
        for _, tile, anchor, rotation, *flip in placed:
            cells = footprint(int(tile), sq(anchor), int(rotation), bool(flip))
            assert cells is not None and not set(cells) & ice
        with pytest.raises(IllegalMoveError, match="forbids"):
            play.move(0, "place 104 a6 0")

    def test_119_no_square_next_to_the_same_terrain(self) -> None:
        play = at_event(119, A6_B6, tiles=(ENERGY_CIV, None))
        with pytest.raises(IllegalMoveError, match="forbids"):
            play.move(0, "place 8 c6 0")
        assert "place 8 c6 0" not in play.legal()
        play.move(0, "place 8 c5 0")


class TestResourceRestrictions:
    @pytest.mark.parametrize("card", cards("restriction", rule="advance_only_one_resource"))
    def test_only_one_resource_of_the_placed_tile(self, card: int) -> None:
        play = at_event(card, EMPTY, tiles=(ENERGY_CIV, None)).move(0, "place 8 a6 90")
        assert [b.kind for b in play.seat().pending] == [Kind.SELECT]
        assert moves(play, "pick") == ["pick 0 0", "pick 0 1"]
        with pytest.raises(IllegalMoveError):
            play.move(0, "confirm")
        play.move(0, "pick 0 1")
        assert [b.describe() for b in play.seat().pending] == ["advance civ"]

    @pytest.mark.parametrize("card", cards("restriction", rule="no_milestone_benefits"))
    def test_milestones_give_nothing_but_tech_still_rises(self, card: int) -> None:
        play = at_event(card, EMPTY + " t:2.0.2.0.2")
        state = pending(
            play.state,
            0,
            Benefit(Kind.ADVANCE, track=Terrain.CIV),
            Benefit(Kind.ADVANCE, track=Terrain.BIOMASS),
            Benefit(Kind.ADVANCE, track=Terrain.TECH),
        )
        play = Play(state).move(0, "advance civ", "advance biomass", "advance tech")
        assert play.seat().civ_queue == () and play.seat().pending == ()
        assert tech_level(play.seat()) == 1

    @pytest.mark.parametrize("card", cards("restriction", rule="advance_only_one_resource"))
    def test_only_one_resource_of_a_tile_taken_without_placing(self, card: int) -> None:
        """Choice 3 (a seat that cannot place takes a tile) gives one of the two advances, as on BGA."""
        play = at_event(card, full_except("f1"), tiles=(WATER_ROVER, None)).move(0, "take 104")
        assert [b.kind for b in play.seat().pending] == [Kind.SELECT]
        assert moves(play, "pick") == ["pick 0 0", "pick 0 1"]
        play.move(0, "pick 0 1")
        assert [b.describe() for b in play.seat().pending] == ["advance rover"]
        energy = at_event(card, full_except("f1"), tiles=(ENERGY_CIV, None)).move(0, "take 8")
        assert [b.describe() for b in energy.seat().pending] == ["advance civ"]

    def test_122_no_synergy_boost(self) -> None:
        play = at_event(122, EMPTY + " t:0.0.1.0.0")
        play = Play(pending(play.state, 0, Benefit(Kind.ADVANCE, track=Terrain.BIOMASS))).move(0, "advance biomass")
        assert play.seat().track(Terrain.BIOMASS) == 2 and play.seat().pending == ()


def test_rich_position_parses() -> None:
    play = at_event(97, RICH)
    assert play.seat().meteorites_collected == 3 and len([r for r in play.seat().rovers if r >= 0]) == 2


def test_every_card_is_covered_by_a_test_above() -> None:
    by_rule = {
        rule: cards("restriction", rule=rule)
        for rule in (
            "rovers_cannot_enter",
            "no_tile_on_edge",
            "no_tile_on_ice",
            "advance_only_one_resource",
            "no_milestone_benefits",
        )
    }
    covered = {65, 66, 67, 68, 79, 80, 82, 83, 110, 111, 112, 113, 114, 115, 116, 119, 122}
    covered |= set(cards("advance", steps=1)) | set(cards("synergy")) | set(cards("regress")) | set(cards("meteorite"))
    covered |= set(cards("synergy_or_peek")) | {c for ids in by_rule.values() for c in ids}
    assert covered == set(event_cards()) == set(range(65, 125))
