"""One test per rule and edge case of RULES-NOTES.md, positions written in the one-line notation."""

from __future__ import annotations

import pytest

from domain.homeworlds import OFFICIAL, SDG, Outcome, Position, Rules, Turn, is_legal, play
from domain.homeworlds import errors as e

START = "<0>; Alpha(0,b2y1)g3-; Beta(1,b3r1)-g3"


def after(position: str, *turns: str, rules: Rules = OFFICIAL) -> Position:
    """The position after playing ``turns`` from ``position``."""
    result = Position.from_text(position)
    for turn in turns:
        result = play(result, Turn.parse(turn), rules)
    return result


def rejects(position: str, turn: str, error: type[Exception], match: str, rules: Rules = OFFICIAL) -> None:
    with pytest.raises(error, match=match):
        after(position, turn, rules=rules)


def table(position: Position) -> str:
    """The systems only, without the player to move."""
    return position.text().split("; ", 1)[1] if "; " in position.text() else ""


class TestBank:
    def test_thirty_six_pieces_three_of_each(self) -> None:
        position = Position.initial()
        assert position.bank == sum(3 << (2 * k) for k in range(12))

    def test_a_position_may_not_use_a_fourth_copy(self) -> None:
        with pytest.raises(ValueError, match="more than three g3"):
            Position.from_text("<0>; Alpha(0,g3g3)g3-; Beta(1,g3b1)-y3")

    def test_pieces_return_to_the_bank_at_once_and_are_reusable_in_the_turn(self) -> None:
        position = "<0>; Alpha(0,b2y1)g1g3-; Beta(1,b3r1)-g3; Far(g2)g1g1-"
        assert table(after(position, "sacrifice g3 Alpha; build g2 Alpha; build g2 Alpha; build g3 Alpha")) == (
            "Alpha(0,y1b2)g1g2g2g3-; Beta(1,r1b3)-g3; Far(g2)g1g1-"
        )


class TestSetup:
    def test_setup_is_the_first_turn_of_each_player(self) -> None:
        position = after("", "homeworld b2 y1 g3 Alpha", "homeworld b3 r1 g3 Beta")
        assert position == Position.from_text(START)
        assert position.has_set_up(0) and position.has_set_up(1)

    def test_any_pieces_are_allowed_even_two_equal_stars(self) -> None:
        assert after("", "homeworld g1 g1 y1 Same").system("same").stars == tuple(
            Position.from_text("<1>; Same(0,g1g1)y1-").system("Same").stars
        )

    def test_large_ship_can_be_required(self) -> None:
        large = Rules(require_large_ship=True)
        rejects("", "homeworld b2 y1 g2 Alpha", e.SetupError, "requires a large first ship", large)

    def test_second_player_chooses_from_what_is_left(self) -> None:
        position = after("", "homeworld g3 g3 g3 Alpha")
        rejects(position.text(), "homeworld g3 b1 y3 Beta", e.BankError, "needs 1 g3 but the bank has 0")

    def test_first_turn_must_be_a_setup(self) -> None:
        rejects("", "build g1 Alpha", e.SetupError, "first turn must set up a homeworld")

    def test_setup_is_the_whole_turn(self) -> None:
        rejects("", "homeworld b2 y1 g3 Alpha; build g1 Alpha", e.SetupError, "the whole turn")

    def test_only_one_homeworld(self) -> None:
        rejects(START, "homeworld r2 y3 g1 Again", e.SetupError, "already has a homeworld")

    def test_pass_before_setup_is_an_option(self) -> None:
        rejects("", "pass", e.SetupError, "passing is not allowed")
        position = after("", "pass", rules=Rules(allow_pass_before_setup=True))
        assert position.to_move == 1 and not position.has_set_up(0)

    def test_one_star_homeworld_is_a_handicap_option(self) -> None:
        rejects("", "homeworld b2 - g3 Layana", e.SetupError, "needs two stars")
        assert after("", "homeworld b2 - g3 Layana", rules=SDG).system("Layana").stars == (
            Position.from_text("<0>; X(b2)g3-").system("X").stars
        )

    def test_names_are_unique_case_insensitively(self) -> None:
        rejects(after("", "homeworld b2 y1 g3 Alpha").text(), "homeworld b3 r1 g3 ALPHA", e.SystemNameError, "already")

    def test_unnamed_homeworld_gets_a_default_name(self) -> None:
        assert after("", "homeworld b2 y1 g3").index("Player1") is not None


class TestPowers:
    def test_colour_from_a_star(self) -> None:
        assert after(START, "build g1 Alpha").system("Alpha").ships[0] == tuple(
            Position.from_text("<0>; A(g1)g1g3-").system("A").ships[0]
        )

    def test_colour_from_ones_own_ship(self) -> None:
        after("<0>; Alpha(0,b2r1)y1-; Beta(1,b3r1)-g3", "discover y1 Alpha g3 Gamma")

    def test_no_colour_from_enemy_ships(self) -> None:
        position = "<0>; Alpha(0,b2y1)g3-; Beta(1,b3y1)-g3; Mid(g1)y2-r1"
        rejects(position, "attack r1 Mid", e.NoPowerError, "to capture you need a red star or a red ship of yours")

    def test_acting_ship_must_be_there(self) -> None:
        rejects(START, "build g1 Beta", e.NoSuchShipError, "you have no ship at Beta")

    def test_unknown_system(self) -> None:
        rejects(START, "build g1 Nowhere", e.UnknownSystemError, "no system called Nowhere")


class TestBuild:
    def test_build_takes_the_smallest_piece_of_the_colour(self) -> None:
        rejects(START, "build g2 Alpha", e.BankError, "smallest green piece in the bank, which is g1")

    def test_size_follows_the_bank(self) -> None:
        position = "<0>; Alpha(0,g3y1)g1g1g3-; Beta(1,b3r1)-g1"
        assert "g2" in [str(p) for p in after(position, "build g2 Alpha").system("Alpha").ships[0]]

    def test_no_piece_of_the_colour_left(self) -> None:
        position = "<0>; Alpha(0,g3y1)g1g1g2g2g3-; Beta(1,b3r1)-g1g2g3"
        rejects(position, "build g1 Alpha", e.BankError, "no green piece left")

    def test_builds_only_colours_of_ones_ships_there(self) -> None:
        rejects(START, "build y1 Alpha", e.NoSuchShipError, "to build yellow you need a yellow ship")


class TestTrade:
    def test_trade_keeps_size_changes_colour(self) -> None:
        position = after(START, "trade g3 y3 Alpha")
        assert [str(p) for p in position.system("Alpha").ships[0]] == ["y3"]

    def test_other_size_rejected(self) -> None:
        rejects(START, "trade g3 y2 Alpha", e.TradeError, "keeps the size")

    def test_same_colour_rejected_officially_and_a_no_op_for_sdg(self) -> None:
        rejects(START, "trade g3 g3 Alpha", e.TradeError, "changes the colour")
        assert table(after(START, "trade g3 g3 Alpha", rules=SDG)) == table(Position.from_text(START))

    def test_bank_must_have_the_piece(self) -> None:
        rejects("<0>; Alpha(0,b2y3)g3-; Beta(1,y3r1)-y3", "trade g3 y3 Alpha", e.BankError, "no y3 left")


class TestMove:
    def test_move_needs_a_connection(self) -> None:
        position = "<0>; Alpha(0,b2y1)g3-; Beta(1,b3r1)-g3; Near(r1)y1-"
        rejects(position, "move g3 Alpha Near", e.MovementError, "share a star size")

    def test_move_to_a_connected_system_and_fade_the_origin(self) -> None:
        position = "<0>; Alpha(0,b2y1)g3-; Beta(1,b3r1)-g3; Far(g3)y1-"
        moved = after(position, "move y1 Far Alpha")
        assert moved.index("Far") is None
        assert moved.bank == Position.from_text("<1>; Alpha(0,b2y1)g3y1-; Beta(1,b3r1)-g3").bank

    def test_not_to_the_origin(self) -> None:
        rejects("<0>; Alpha(0,b2y1)g3-; Beta(1,b3r1)-g3", "move g3 Alpha Alpha", e.MovementError, "another system")

    def test_homeworlds_connect_by_star_sizes(self) -> None:
        position = "<0>; Alpha(0,g2g2)y3-; Beta(1,b3r1)-g3"
        assert after(position, "move y3 Alpha Beta").system("Beta").ships[0]


class TestDiscover:
    def test_discover_creates_a_connected_system(self) -> None:
        position = after(START, "trade g3 y3 Alpha", "pass", "discover y3 Alpha g3 Gamma")
        assert position.system("Gamma").ships[0]

    def test_new_star_must_connect(self) -> None:
        position = "<0>; Alpha(0,b2y1)y3-; Beta(1,b3r1)-g3"
        rejects(position, "discover y3 Alpha g2 Gamma", e.MovementError, "would not be connected")

    def test_name_must_be_new(self) -> None:
        position = "<0>; Alpha(0,b2y1)y3-; Beta(1,b3r1)-g3"
        rejects(position, "discover y3 Alpha g3 beta", e.SystemNameError, "already a system called beta")

    def test_star_must_be_in_the_bank(self) -> None:
        position = "<0>; Alpha(0,b2y1)y3g3g3-; Beta(1,b3r1)-g3"
        rejects(position, "discover y3 Alpha g3 Gamma", e.BankError, "no g3 left")


class TestCapture:
    def test_capture_needs_a_ship_at_least_as_large(self) -> None:
        position = "<0>; Alpha(r2,b1)y2-g3; Beta(1,b3r1)-g3".replace("(r2,b1)", "(0,r2b1)")
        rejects(
            position,
            "attack g3 Alpha",
            e.CaptureError,
            "capture needs a ship at least as large as g3; your largest ship at Alpha is y2",
        )

    def test_equal_size_is_enough(self) -> None:
        assert after("<0>; Alpha(0,r2b1)y2-g2; Beta(1,b3r1)-g3", "attack g2 Alpha").system("Alpha").ships[1] == ()

    def test_a_large_ship_elsewhere_does_not_help(self) -> None:
        position = "<0>; Alpha(0,r2b1)y1-g2; Beta(1,b3r1)-g3; Far(g3)y3-"
        rejects(position, "attack g2 Alpha", e.CaptureError, "your largest ship at Alpha is y1")

    def test_capturer_need_not_be_red(self) -> None:
        position = "<0>; Alpha(0,y2b1)g3r1-r3; Beta(1,b3r1)-g3"
        assert after(position, "attack r3 Alpha").system("Alpha").ships[1] == ()

    def test_own_ship_cannot_be_captured(self) -> None:
        rejects("<0>; Alpha(0,r2b1)y2-; Beta(1,b3r1)-g3", "attack y2 Alpha", e.CaptureError, "it is yours")


class TestSacrifice:
    def test_sacrifice_gives_up_to_n_actions_of_its_colour_anywhere(self) -> None:
        position = "<0>; Alpha(0,b2r1)g3y3-; Beta(1,b3r1)-g3; Far(g1)g1-"
        after(position, "sacrifice g3 Alpha; build g1 Far; build y1 Alpha; build y1 Alpha")

    def test_fewer_actions_are_allowed(self) -> None:
        after("<0>; Alpha(0,b2r1)g3y3-; Beta(1,b3r1)-g3", "sacrifice g3 Alpha")

    def test_no_more_than_n(self) -> None:
        position = "<0>; Alpha(0,b2r1)g2y3-; Beta(1,b3r1)-g3"
        rejects(
            position,
            "sacrifice g2 Alpha; build y1 Alpha; build y1 Alpha; build y2 Alpha",
            e.TurnStructureError,
            "gives 2 actions, all used",
        )

    def test_only_the_sacrificed_colour(self) -> None:
        position = "<0>; Alpha(0,b2y1)g2y3-; Beta(1,b3r1)-g3"
        rejects(position, "sacrifice g2 Alpha; move y3 Alpha Beta", e.TurnStructureError, "only build actions")

    def test_needs_no_colour_access(self) -> None:
        position = "<0>; Alpha(0,b2y1)r3g1-g1; Beta(1,b3g2)-g3"
        after(position, "sacrifice r3 Alpha; attack g1 Alpha")

    def test_not_after_a_basic_action(self) -> None:
        rejects(START, "build g1 Alpha; sacrifice g1 Alpha", e.TurnStructureError, "already used its action")

    def test_the_sacrificed_ship_cannot_act(self) -> None:
        rejects(
            "<0>; Alpha(0,b2r1)y3-; Beta(1,b3r1)-g3",
            "sacrifice y3 Alpha; move y3 Alpha Beta",
            e.NoSuchShipError,
            "no ship at Alpha",
        )

    def test_emptied_system_fades_first_so_its_star_is_free(self) -> None:
        position = "<0>; Alpha(0,b2r1)g1-; Beta(1,b3r1)-g3; Grn(g1)g2-"
        rebuilt = after(position, "sacrifice g2 Grn; build g1 Alpha; build g1 Alpha")
        assert [str(p) for p in rebuilt.system("Alpha").ships[0]] == ["g1", "g1", "g1"]

    def test_rebuilding_the_same_ship_is_legal(self) -> None:
        position = "<0>; Alpha(0,b2y1)g1g3-; Beta(1,b3r1)-g3"
        assert table(after(position, "sacrifice g1 Alpha; build g1 Alpha")) == table(Position.from_text(position))


class TestCatastrophe:
    def test_needs_four_of_a_colour(self) -> None:
        rejects(START, "catastrophe Alpha b", e.CatastropheError, "four or more blue pieces at Alpha, which has 1")

    def test_counts_stars_and_both_players_ships(self) -> None:
        position = "<0>; Alpha(0,b2y1)g3-; Beta(1,b3r1)b1-b1g3b2"
        assert after(position, "catastrophe Beta b").system("Beta").stars == tuple(
            Position.from_text("<0>; X(r1)-").system("X").stars
        )

    def test_in_ones_own_homeworld(self) -> None:
        position = "<0>; Alpha(0,b2y1)b1b1b3g3-; Beta(1,b3r1)-g3"
        assert after(position, "catastrophe Alpha b").system("Alpha").stars == tuple(
            Position.from_text("<0>; X(y1)-").system("X").stars
        )

    def test_anywhere_even_without_own_ships(self) -> None:
        after("<0>; Alpha(0,b2y1)g3-; Beta(1,b3r1)-g3; Mid(y2)-y1y1y3", "catastrophe Mid y")

    def test_before_between_and_after_sacrifice_actions(self) -> None:
        position = "<0>; Alpha(0,b3g1)y2g2r1r1r1r2g1b1-; Way(b2)y1g1b1b1b3-; Beta(1,r3b2)-y1y1y3"
        won = after(
            position,
            "catastrophe Alpha r; sacrifice y2 Alpha; discover y1 Way r1 New; catastrophe Way b; "
            "move y1 New Beta; catastrophe Beta y",
        )
        assert won.outcome() == Outcome(0)

    def test_may_be_left_untriggered(self) -> None:
        position = after("<0>; Alpha(0,b2y1)g3-; Beta(1,b3r1)-g3; Mid(y2)-y1y1y3", "pass")
        assert position.system("Mid").ships[1]

    def test_several_in_one_turn(self) -> None:
        position = "<0>; Alpha(0,y3g2)g1-; Beta(1,r3b2)r1-r2r2b1b1b1y1g1"
        assert after(position, "catastrophe Beta r; catastrophe Beta b").outcome() == Outcome(0)


class TestFadeAndSupernova:
    def test_empty_non_home_system_fades_immediately(self) -> None:
        position = "<0>; Alpha(0,b2y1)g3-; Beta(1,b3r1)-g3; Far(g3)y1-"
        assert after(position, "sacrifice y1 Far; discover g3 Alpha g3 Far").system("Far").stars

    def test_last_star_gone_sends_every_ship_to_the_bank(self) -> None:
        position = "<0>; Alpha(0,b2y1)g3-; Beta(1,b3r1)-g3; Nova(y2)y1y1r3-y3g1"
        gone = after(position, "catastrophe Nova y")
        assert gone.index("Nova") is None
        assert gone.bank == Position.from_text("<1>; Alpha(0,b2y1)g3-; Beta(1,b3r1)-g3").bank

    def test_supernova_of_a_homeworld_loses(self) -> None:
        position = "<0>; Alpha(0,b2y1)g3-; Beta(1,y3)y1y1-g3y2"
        assert after(position, "catastrophe Beta y").outcome() == Outcome(0)

    def test_one_star_left_changes_the_connections(self) -> None:
        position = "<0>; Alpha(0,b1y2)g1b1b1b2-; Beta(1,b3r1)-g3; Two(r1)y1-"
        rejects(position, "move y1 Two Alpha", e.MovementError, "share a star size")
        after(position, "catastrophe Alpha b; move y1 Two Alpha")


class TestEmptyHomeworld:
    def test_own_homeworld_may_be_empty_during_the_turn(self) -> None:
        position = "<0>; Player1(0,g3y1)y2-; Alpha(b2)g1-; Beta(b1)g1-; Player2(1,g3y2)-g3g1"
        turn = "sacrifice y2 Player1; move g1 Alpha Player1; move g1 Beta Player2; catastrophe Player2 g"
        won = after(position, turn)
        assert won.outcome() == Outcome(0)

    def test_enemy_homeworld_stays_empty_until_the_end_of_the_turn(self) -> None:
        position = "<0>; Alpha(0,b2y1)g3-; Beta(1,b3r1)-g1g1g1; Mid(g2)g3y2r2-"
        won = after(position, "sacrifice y2 Mid; move g3 Mid Beta; catastrophe Beta g; move r2 Mid Beta")
        assert won.outcome() == Outcome(0)
        assert [str(p) for p in won.system("Beta").ships[0]] == ["r2"]

    def test_abandoned_homeworld_is_removed_at_the_end_of_the_turn(self) -> None:
        position = "<0>; Alpha(0,b2y1)g3-; Beta(1,y3r1)-g3; Far(g3)y1-"
        lost = after(position, "move g3 Alpha Far")
        assert lost.index("Alpha") is None
        assert lost.outcome() == Outcome(1)


class TestEndOfTurn:
    def test_no_own_ship_at_home_loses_even_with_stars(self) -> None:
        position = "<0>; Alpha(0,r2b1)g3-; Beta(1,b3y1)r1-g1"
        won = after(position, "attack g1 Beta")
        assert won.outcome() == Outcome(0)
        assert won.system("Beta").stars

    def test_enemy_ships_at_home_do_not_count(self) -> None:
        assert after("<0>; Alpha(0,r2b1)g3-; Beta(1,b3y1)r1y3-g1", "attack g1 Beta").outcome() == Outcome(0)

    def test_one_can_lose_on_ones_own_turn(self) -> None:
        assert after("<0>; Alpha(0,r2b1)g3-; Beta(1,b3y1)-g1", "sacrifice g3 Alpha").outcome() == Outcome(1)

    def test_both_losing_is_a_draw(self) -> None:
        position = "<0>; Alpha(0,b2y1)g2b1b1-; Beta(1,b3r1)b2-b2"
        turn = "sacrifice g2 Alpha; build b1 Alpha; build b3 Beta; catastrophe Beta b; catastrophe Alpha b"
        drawn = after(position, turn)
        assert drawn.outcome() == Outcome(None)

    def test_no_turn_after_the_end(self) -> None:
        won = after("<0>; Alpha(0,r2b1)g3-; Beta(1,b3y1)r1-g1", "attack g1 Beta")
        with pytest.raises(e.GameOverError):
            play(won, Turn.parse("pass"))


class TestTurnStructure:
    def test_pass_is_a_turn(self) -> None:
        assert after(START, "pass").to_move == 1

    def test_catastrophe_and_pass(self) -> None:
        position = "<0>; Alpha(0,b2y1)g3-; Beta(1,b3r1)-g3; Mid(y2)-y1y1y3"
        assert after(position, "catastrophe Mid y").index("Mid") is None

    def test_one_basic_action(self) -> None:
        rejects(START, "build g1 Alpha; build g1 Alpha", e.TurnStructureError, "only one action")

    def test_one_sacrifice(self) -> None:
        position = "<0>; Alpha(0,b2y1)g3g1-; Beta(1,b3r1)-g3"
        rejects(position, "sacrifice g1 Alpha; sacrifice g3 Alpha", e.TurnStructureError, "already sacrificed")

    def test_every_rule_error_is_a_value_error_with_a_rule_name(self) -> None:
        with pytest.raises(ValueError) as caught:
            after(START, "build g2 Alpha")
        assert isinstance(caught.value, e.HomeworldsRuleError) and caught.value.rule == "bank"


class TestConnectivity:
    def test_large_universe_homeworlds_are_three_moves_apart(self) -> None:
        position = "<0>; Alpha(0,r1b2)y3-; Beta(1,b1g3)-g3"
        rejects(position, "move y3 Alpha Beta", e.MovementError, "not connected")
        route = "<0>; Alpha(0,r1b2)y3y1-; Beta(1,b1g3)-g3"
        reached = after(
            route, "sacrifice y3 Alpha; discover y1 Alpha g3 Way; discover y1 Way r2 Step; move y1 Step Beta"
        )
        assert reached.system("Beta").ships[0]

    def test_connection_depends_on_stars_only(self) -> None:
        position = "<0>; Alpha(0,r1b2)y3-; Beta(1,b1g3)-g3; Way(g3)-r3"
        after(position, "move y3 Alpha Way")


class TestNames:
    def test_a_name_is_free_again_once_its_system_is_gone(self) -> None:
        position = "<0>; Alpha(0,b2y1)y3-; Beta(1,b3r1)-g3; Old(g3)y1-"
        after(position, "sacrifice y3 Alpha; move y1 Old Alpha; discover y1 Alpha g3 old")

    def test_names_that_look_like_pieces(self) -> None:
        position = after("<0>; Alpha(0,b2y1)y3-; Beta(1,b3r1)-g3", "discover y3 Alpha g3 G1")
        assert position.system("g1").stars == (Position.from_text("<0>; X(g3)y1-").system("X").stars)

    def test_names_are_matched_case_insensitively(self) -> None:
        after(START, "BUILD G1 alpha")


class TestSacrificeSpread:
    def test_one_ship_may_take_every_action(self) -> None:
        position = "<0>; Alpha(0,r1b2)y3g1-; Beta(1,b1g3)-g3"
        turn = "sacrifice y3 Alpha; discover g1 Alpha g3 Way; discover g1 Way r2 Step; move g1 Step Beta"
        assert [str(p) for p in after(position, turn).system("Beta").ships[0]] == ["g1"]

    def test_capture_anywhere_even_in_the_enemy_homeworld(self) -> None:
        position = "<0>; Alpha(0,b2y1)r2g3-; Beta(1,b3r1)g2-g1y1"
        assert after(position, "sacrifice r2 Alpha; attack g1 Beta; attack y1 Beta").outcome() == Outcome(0)


class TestLegality:
    def test_is_legal(self) -> None:
        position = Position.from_text(START)
        assert is_legal(position, Turn.parse("build g1 Alpha"))
        assert not is_legal(position, Turn.parse("build g2 Alpha"))
