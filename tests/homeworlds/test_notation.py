"""SDG notation of turns and the text forms of positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.homeworlds import (
    Build,
    Capture,
    Catastrophe,
    Colour,
    Discover,
    Homeworld,
    Move,
    NotationError,
    Piece,
    Position,
    Sacrifice,
    Trade,
    Turn,
)
from domain.homeworlds.position import Position as PositionClass


class TestTurnNotation:
    @pytest.mark.parametrize(
        ("text", "canonical"),
        [
            ("homeworld r1 b2 g3 Alpha", "homeworld r1 b2 g3 Alpha"),
            ("h R1 B2 G3", "homeworld r1 b2 g3"),
            ("Homeworld B2 - G3 Layana", "homeworld b2 - g3 Layana"),
            ("b g1 Alpha", "build g1 Alpha"),
            ("con G1 Alpha", "build g1 Alpha"),
            ("construct g1 Alpha", "build g1 Alpha"),
            ("buil g1 Alpha", "build g1 Alpha"),
            ("t g1 y1 Alpha", "trade g1 y1 Alpha"),
            ("tr g1 y1 Alpha", "trade g1 y1 Alpha"),
            ("m y1 Alpha Beta", "move y1 Alpha Beta"),
            ("d y1 Alpha r2 Gamma", "discover y1 Alpha r2 Gamma"),
            ("a r2 Alpha", "attack r2 Alpha"),
            ("capture r2 Alpha", "attack r2 Alpha"),
            ("s y3 Alpha", "sacrifice y3 Alpha"),
            ("sac y3 Alpha", "sacrifice y3 Alpha"),
            ("c Alpha blue", "catastrophe Alpha b"),
            ("cat Alpha B", "catastrophe Alpha b"),
            ("P", "pass"),
            ("sacrifice y3 A; move g1 A B; pass; pass", "sacrifice y3 A; move g1 A B"),
            (
                "sacrifice y1 Evilaxe;move g1 New_derbyshire Lorem ;  catastrophe Lorem g",
                "sacrifice y1 Evilaxe; move g1 New_derbyshire Lorem; catastrophe Lorem g",
            ),
            ("build g1 Dy/dx", "build g1 Dy/dx"),
            ("build g1 G1", "build g1 G1"),
            ("BUILD R1 g1", "build r1 g1"),
        ],
    )
    def test_parse_gives_the_canonical_form(self, text: str, canonical: str) -> None:
        assert str(Turn.parse(text)) == canonical

    @pytest.mark.parametrize(
        ("text", "reason"),
        [
            ("", "empty turn"),
            ("jump g1 Alpha", "unknown verb"),
            ("ca Alpha b", "ambiguous verb"),
            ("build g4 Alpha", "not a piece"),
            ("build g1", "takes 2 arguments"),
            ("build g1 Alpha Beta", "takes 2 arguments"),
            ("catastrophe Alpha purple", "not a colour"),
            ("move y1 Alpha Be(ta", "cannot be a system name"),
            ("homeworld - b1 g3 X", "not a piece"),
        ],
    )
    def test_unreadable_turns_say_why(self, text: str, reason: str) -> None:
        with pytest.raises(NotationError, match=reason):
            Turn.parse(text)

    def test_the_empty_turn_is_pass(self) -> None:
        assert Turn.parse("pass") == Turn() and Turn().is_pass

    def test_json_form_round_trips(self) -> None:
        turn = Turn.parse("sacrifice y3 Alpha; discover g1 Alpha r2 Gamma; move g1 Gamma Beta; catastrophe Beta r")
        assert turn.to_json()[1] == {"action": "discover", "ship": "g1", "from": "Alpha", "star": "r2", "name": "Gamma"}
        assert Turn.from_json(turn.to_json()) == turn
        assert Turn.from_json([{"action": "pass"}]) == Turn()

    def test_json_errors_name_the_fields(self) -> None:
        with pytest.raises(NotationError, match="lacks system"):
            Turn.from_json([{"action": "build", "ship": "g1"}])


PIECE = st.sampled_from([Piece.parse(f"{c}{s}") for c in "rygb" for s in "123"])
NAME = st.from_regex(r"[A-Za-z0-9_\-?/'][A-Za-z0-9_\-?/']{0,11}", fullmatch=True).filter(lambda n: n != "-")
ACTION = st.one_of(
    st.builds(Homeworld, PIECE, st.one_of(st.none(), PIECE), PIECE, st.one_of(st.none(), NAME)),
    st.builds(Build, PIECE, NAME),
    st.builds(Trade, PIECE, PIECE, NAME),
    st.builds(Move, PIECE, NAME, NAME),
    st.builds(Discover, PIECE, NAME, PIECE, NAME),
    st.builds(Capture, PIECE, NAME),
    st.builds(Sacrifice, PIECE, NAME),
    st.builds(Catastrophe, NAME, st.sampled_from(list(Colour))),
)
TURN = st.builds(Turn, st.lists(ACTION, max_size=6).map(tuple))


class TestRoundTrip:
    @settings(max_examples=300, deadline=None)
    @given(TURN)
    def test_print_then_parse_gives_the_same_turn(self, turn: Turn) -> None:
        assert Turn.parse(str(turn)) == turn
        assert Turn.from_json(turn.to_json()) == turn

    @settings(max_examples=200, deadline=None)
    @given(TURN, st.randoms(use_true_random=False))
    def test_parse_then_print_is_canonical(self, turn: Turn, rnd: random.Random) -> None:
        sloppy = (
            ";".join(" " * rnd.randint(0, 2) + _sloppy(str(a), rnd) + " " * rnd.randint(0, 2) for a in turn.actions)
            or "PASS"
        )
        assert str(Turn.parse(sloppy)) == str(turn)


def _sloppy(action: str, rnd: random.Random) -> str:
    """The action with random case, abbreviations and spacing."""
    verb, *rest = action.split()
    short = {
        "homeworld": "h",
        "build": "b",
        "trade": "t",
        "move": "m",
        "discover": "d",
        "attack": "a",
        "sacrifice": "sac",
        "catastrophe": "cat",
    }[verb]
    words = [rnd.choice([verb.upper(), short, verb.capitalize()])]
    for slot, word in enumerate(rest):
        is_piece = slot in PIECE_SLOTS[verb] and word != "-"
        words.append(word.upper() if is_piece and rnd.random() < 0.5 else word)
    return "  ".join(words)


PIECE_SLOTS = {
    "homeworld": {0, 1, 2},
    "build": {0},
    "trade": {0, 1},
    "move": {0},
    "discover": {0, 2},
    "attack": {0},
    "sacrifice": {0},
    "catastrophe": set(),
}
"""Which words after the verb are pieces: only those may change case, since a system's name keeps its own
(a system may be called "g1")."""


class TestPositionText:
    PUZZLE = "Player1 (0, b3y1) r1-\nAlpha (b1) r1-\nBeta (b1) g1-\nPlayer2 (1, b3) b3y3y2g1-r2g2"

    def test_reads_the_multiline_puzzle_format(self) -> None:
        position = Position.from_text(self.PUZZLE)
        assert position.to_move == 0
        assert position.text() == "<0>; Player1(0,y1b3)r1-; Alpha(b1)r1-; Beta(b1)g1-; Player2(1,b3)y2y3g1b3-r2g2"
        assert Position.from_text(position.diagram()) == position

    def test_one_line_form_round_trips(self) -> None:
        text = "<1>; Alpha(0,r3b2)g3y2-; Beta(1,r2)-g3g2g2y2; Reach(g3)-y3"
        assert Position.from_text(text).text() == "<1>; Alpha(0,r3b2)y2g3-; Beta(1,r2)-y2g2g2g3; Reach(g3)-y3"
        assert Position.from_text(Position.from_text(text).text()) == Position.from_text(text)

    def test_repr_evaluates_back(self) -> None:
        for position in (Position.initial(), Position.from_text(self.PUZZLE)):
            assert eval(repr(position), {"Position": PositionClass}) == position

    def test_bank_is_what_the_table_does_not_use(self) -> None:
        position = Position.from_text("<0>; A(0,g3g3)g3-")
        assert position.bank == Position.initial().bank - 3 * (1 << (2 * Piece.parse("g3").kind))

    def test_key_ignores_names(self) -> None:
        a = Position.from_text("<0>; A(0,r1b2)g3-; B(1,y3b1)-g3; C(g1)y1-")
        b = Position.from_text("<0>; Home(0,r1b2)g3-; Away(1,y3b1)-g3; Other(g1)y1-")
        assert a.key() == b.key() and a != b

    @pytest.mark.parametrize(
        ("text", "reason"),
        [
            ("<0>; A(0,)g3-", "has no star"),
            ("<0>; A(0,r1)g3-; a(b1)y1-", "two systems are named"),
            ("<0>; A(0,r1)g3-; B(0,b1)y1-", "two homeworlds"),
            ("<0>; A(0,r1) g3", "cannot read"),
        ],
    )
    def test_bad_positions_say_why(self, text: str, reason: str) -> None:
        with pytest.raises(ValueError, match=reason):
            Position.from_text(text)
