"""Private objectives: the multiplayer option's deal, secrecy and scoring, and all 28 conditions."""

from __future__ import annotations

import dataclasses
import json

import pytest

from domain.contract import IllegalMoveError, Role, rng
from domain.planet_unknown import GAME
from domain.planet_unknown import events as ev
from domain.planet_unknown.data import SIZE, Terrain, objectives, planets, private_objectives
from domain.planet_unknown.model import Phase, Stage
from domain.planet_unknown.notation import parse_seat
from domain.planet_unknown.rules import settle
from domain.planet_unknown.scoring import private_met, score_all

from .helpers import Play

KSB = planets()["ksb-4156"]


def board(letters: dict[int, str], extra: str = "") -> str:
    """A KSB-4156 position with ``letters`` on the given squares."""
    rows = []
    for r in range(SIZE):
        row, run = "", 0
        for c in range(SIZE):
            letter = letters.get(r * SIZE + c, "")
            if letter:
                row += (str(run) if run else "") + letter
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    return "ksb-4156 " + "/".join(rows) + (" " + extra if extra else "")


def block(top: int, left: int, height: int, width: int, letter: str, icons: int = 0) -> dict[int, str]:
    squares = [(top + r) * SIZE + left + c for r in range(height) for c in range(width)]
    return {s: letter.upper() if k < icons else letter for k, s in enumerate(squares)}


def cases(card_id: int) -> tuple[str, str]:
    """A position that meets the card's private side and one that just misses it."""
    card = private_objectives()[card_id]
    c = card.condition
    letter = card.terrain.letter if card.terrain is not None else ""
    if c == "rectangle_of_terrain":
        height, width = card.params["size"]
        met = block(5, 2, height, width, letter)
        missed = dict(met)
        missed.pop(max(missed))
        return board(met), board(missed)
    if c == "one_area_with_resource_icons":
        need = int(card.params["min_icons"])
        met = block(5, 2, 1, need, letter, icons=need)
        split = {**block(5, 2, 1, need - 1, letter, icons=need - 1), 5 * SIZE + 2 + need: letter.upper()}
        return board(met), board(split)
    if c == "tracker_at_maximum":
        index = ("civ", "water", "biomass", "rover", "tech").index(card.params["track"])
        top = ["0"] * 5
        top[index] = "15"
        near = list(top)
        near[index] = "14"
        return board({}, "t:" + ".".join(top)), board({}, "t:" + ".".join(near))
    if c == "resource_icons_on_planet_at_most":
        most = int(card.params["max"])
        return board(block(5, 2, 1, most, letter, icons=most)), board(block(5, 2, 1, most + 1, letter, icons=most + 1))
    if c == "meteorites_collected_at_least":
        need = int(card.params["min"])
        return board({}, f"mc:{need}"), board({}, f"mc:{need - 1}")
    if c == "lifepods_collected_more_than_meteorites_collected":
        return board({}, "lc:2 mc:1"), board({}, "lc:1 mc:1")
    if c in ("no_uncovered_ice", "no_uncovered_land"):
        wanted = sorted(s for s in KSB.squares if (s in KSB.ice) is (c == "no_uncovered_ice"))
        full = {s: "w" for s in wanted}
        missed = dict(full)
        missed.pop(wanted[len(wanted) // 2])
        return board(full), board(missed)
    raise AssertionError(c)


@pytest.mark.parametrize("card", sorted(private_objectives()))
def test_every_private_condition(card: int) -> None:
    met, missed = cases(card)
    assert private_met(parse_seat(met), card), private_objectives()[card].name
    assert not private_met(parse_seat(missed), card), private_objectives()[card].name


def test_28_private_sides() -> None:
    assert sorted(private_objectives()) == list(range(37, 65))


def test_2x5_blocks_count_either_way() -> None:
    upright = board(block(3, 4, 5, 2, "c"))
    assert private_met(parse_seat(upright), 49)
    assert not private_met(parse_seat(upright), 37), "3x3 is a square block"


def test_patches_count_as_biomass() -> None:
    assert private_met(parse_seat(board(block(5, 2, 3, 3, "p"))), 39)


def dealt(players: int = 3, seed: bytes = b"priv") -> Play:
    state = GAME.initial(players, {"private_objectives": True, "events": False})
    log = GAME.setup(state, seed)
    for event in log:
        state = GAME.evolve(state, event)
    play = Play(state)
    play.events.extend(log)
    return play


class TestDeal:
    def test_two_each_before_the_neighbour_cards(self) -> None:
        play = dealt()
        deck = sorted(objectives())
        rng(b"priv", "objectives").shuffle(deck)
        offers = [e for e in play.events if isinstance(e, ev.PrivateObjectivesDealt)]
        assert [e.cards for e in offers] == [tuple(deck[0:2]), tuple(deck[2:4]), tuple(deck[4:6])]
        assert play.state.objectives == tuple(deck[6:9])
        assert all(e.visibility().seats == frozenset({e.seat}) for e in offers)

    def test_everyone_keeps_one_before_round_1(self) -> None:
        play = dealt()
        assert GAME.to_act(play.state) == frozenset({0, 1, 2}) and play.state.round == 0
        offer = play.state.seats[1].objective_offer
        assert play.legal(1) == [f"reject {c}" for c in offer]
        with pytest.raises(IllegalMoveError, match="not one of yours"):
            play.move(1, f"reject {play.state.seats[0].objective_offer[0]}")
        with pytest.raises(IllegalMoveError, match="reject"):
            play.move(1, "confirm")
        play.move(1, f"reject {offer[0]}")
        assert play.state.seats[1].private_objectives == (offer[1],)
        assert GAME.to_act(play.state) == frozenset({0, 2}) and play.state.round == 0
        for seat in (0, 2):
            play.move(seat, play.legal(seat)[0])
        assert play.state.round == 1

    def test_off_by_default(self) -> None:
        state = GAME.initial(3, {"events": False})
        assert not any(isinstance(e, ev.PrivateObjectivesDealt) for e in GAME.setup(state, b"x"))


class TestSecrecy:
    def test_kept_cards_are_hidden_from_others_until_the_end(self) -> None:
        play = dealt()
        for seat in range(3):
            play.move(seat, play.legal(seat)[-1])
        kept = play.state.seats[0].private_objectives
        name = json.dumps(private_objectives()[kept[0]].name)
        assert name in json.dumps(GAME.view(play.state, 0))
        for viewer in (1, 2, Role.SPECTATOR, Role.AUDITOR):
            view = GAME.view(play.state, viewer)
            assert name not in json.dumps(view["seats"][0])
            assert view["seats"][0]["private_objectives"] == 1
        rejected = [e for e in play.events if isinstance(e, ev.ObjectiveRejected)]
        assert all(e.visibility().seats == frozenset({e.seat}) for e in rejected)

    def test_revealed_and_scored_at_the_end(self) -> None:
        play = dealt()
        for seat in range(3):
            play.move(seat, play.legal(seat)[0])
        kept = tuple(s.private_objectives for s in play.state.seats)
        seats = tuple(dataclasses.replace(s, stage=Stage.DONE) for s in play.state.seats)
        state = dataclasses.replace(play.state, seats=seats, phase=Phase.END_GAME, ending=True, shown_hands=((),) * 3)
        state, events = settle(state)
        assert ev.PrivateObjectivesRevealed(kept) in events and state.phase is Phase.OVER
        view = GAME.view(state, 1)
        assert [o["card"] for o in view["seats"][0]["private_objectives"]] == list(kept[0])
        rows = score_all(state)
        for seat, row in enumerate(rows):
            card = kept[seat][0]
            assert row["by_objective"][f"private {card}"] == (5 if private_met(state.seats[seat], card) else 0)


def test_a_met_objective_scores_5() -> None:
    met, _ = cases(55)
    play = dealt()
    seats = list(play.state.seats)
    seats[0] = dataclasses.replace(parse_seat(met), private_objectives=(55,))
    state = dataclasses.replace(play.state, seats=tuple(seats))
    row = score_all(state)[0]
    assert row["by_objective"]["private 55"] == 5 and row["objectives"] >= 5
    assert Terrain.CIV.value == private_objectives()[55].params["track"]
