"""Transcript checking, against the SDG corpus and the notable games of games/INDEX.md."""

from __future__ import annotations

import csv
import functools
import io
import re
from pathlib import Path

import pytest

from domain.homeworlds import Position
from domain.homeworlds.transcripts import TranscriptResult, check_file, check_text, main

from .shared import GAMES, reference


@functools.cache
def corpus() -> dict[str, TranscriptResult]:
    reference("games/index.tsv")
    return {f"{p.parent.name}/{p.name}": check_file(p) for p in sorted(GAMES.glob("*/*.txt"))}


def index_rows() -> list[dict[str, str]]:
    with reference("games/index.tsv").open() as f:
        return list(csv.DictReader(f, delimiter="\t"))


class TestCorpus:
    def test_every_legal_sdg_game_replays(self) -> None:
        rows = index_rows()
        legal = [r for r in rows if r["replay_status"] == "legal"]
        assert len(legal) == 3687
        bad = [(r["file"], corpus()[r["file"]].row("")) for r in legal if not corpus()[r["file"]].ok]
        assert bad == []

    def test_eliminations_end_on_the_last_line_with_the_recorded_winner(self) -> None:
        elim = [r for r in index_rows() if r["ending"] == "elim"]
        assert len(elim) == 1617
        for row in elim:
            verdict = corpus()[row["file"]]
            seat = 1 if row["recorded_winner"].lower() == row["player1_first"].lower() else 2
            assert verdict.result == f"winner:{seat}", row["file"]
            assert verdict.turns == int(row["plies"]), row["file"]

    def test_other_games_are_unfinished(self) -> None:
        for row in index_rows():
            if row["ending"] == "no-elim":
                assert corpus()[row["file"]].result == "unfinished", row["file"]

    def test_the_four_sdg_quirks_are_rejected_at_the_listed_line(self) -> None:
        index = reference("games/INDEX.md").read_text()
        listed = re.findall(r"\* `(sdg/sdg-\d+\.txt)`: replay stops: line (\d+)", index)
        assert len(listed) == 4
        for name, line in listed:
            verdict = corpus()[name]
            assert not verdict.ok and verdict.line == int(line), verdict

    def test_notable_games_match_the_index(self) -> None:
        table = reference("games/INDEX.md").read_text().split("## Notable")[1].split("## SDG")[0]
        rows = re.findall(r"^\| `notable/([^`]+)` \| (.+?) \| .*? \| (\d+) \| .*? \| (.+?) \|$", table, re.M)
        assert len(rows) == 21
        for name, players, plies, replay in rows:
            verdict = corpus()[f"notable/{name}"]
            assert verdict.ok and verdict.turns == int(plies), name
            won = re.search(r"elimination after line (\d+): (.+) wins", replay)
            if won is None:
                assert verdict.result == "unfinished", name
            else:
                first = players.split(" v ")[0]
                assert verdict.result == ("winner:1" if won.group(2) == first else "winner:2"), name

    def test_final_positions_match_the_recorded_ones(self) -> None:
        reference("games/sdg")
        checked = 0
        for path in sorted(GAMES.glob("sdg/*.txt")):
            text = path.read_text(encoding="utf-8", errors="replace")
            if "# final position" not in text:
                continue
            diagram = "\n".join(line[1:] for line in text.split("# final position", 1)[1].splitlines()[1:])
            verdict = corpus()[f"sdg/{path.name}"]
            ours = verdict.position
            recorded = Position.from_text(diagram, to_move=ours.to_move, established=ours.established)
            assert recorded == ours, path.name
            checked += 1
        assert checked >= 3680


GOOD = "# a comment\nhomeworld b2 y1 g3 Alpha\nhomeworld b3 r1 g3 Beta\n\nbuild g1 Alpha\n"


class TestCheckText:
    def test_unfinished_game(self) -> None:
        verdict = check_text(GOOD)
        assert verdict.ok and verdict.result == "unfinished" and verdict.turns == 3

    def test_illegal_line_counts_turn_lines(self) -> None:
        verdict = check_text(GOOD + "build g3 Beta\n")
        assert not verdict.ok and verdict.line == 4
        assert verdict.reason is not None and "smallest green" in verdict.reason

    def test_unreadable_line(self) -> None:
        verdict = check_text("homeworld b2 y1 g9 Alpha")
        assert verdict.row("x.txt") == "x.txt\tILLEGAL\tline 1: 'g9' is not a piece (the ship must be like g3)"

    def test_turns_after_the_end(self) -> None:
        verdict = check_text("homeworld b2 y1 g3 A\nhomeworld b3 r1 g3 B\nsacrifice g3 A\npass\n")
        assert not verdict.ok and verdict.line == 4 and "already over" in (verdict.reason or "")

    def test_start_position(self) -> None:
        text = "# start-position: <1>; A(0,b2y1)g3-; B(1,b3r1)r1-g3\nattack r1 B\n"
        assert check_text(text).result == "unfinished"

    def test_draw(self) -> None:
        text = "# start-position: <0>; Alpha(0,b2y1)g2b1b1-; Beta(1,b3r1)b2-b2\n"
        text += "sacrifice g2 Alpha; build b1 Alpha; build b3 Beta; catastrophe Beta b; catastrophe Alpha b\n"
        assert check_text(text).result == "draw"

    def test_pass_before_setup_is_accepted(self) -> None:
        assert check_text("pass\nhomeworld b2 y1 g3 A\nhomeworld b3 r1 g3 B\n").ok


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


class TestCommand:
    def write(self, folder: Path) -> None:
        (folder / "sub").mkdir()
        (folder / "b.txt").write_text(GOOD)
        (folder / "sub" / "a.txt").write_text("homeworld b2 y1 g3 A\nhomeworld b3 r1 g3 B\nsacrifice g3 A\n")
        (folder / "c.txt").write_bytes(b"homeworld b2 y1 g3 Caf\xe9\nhomeworld b3 r1 g3 B\nbuild g2 Caf\xe9\n")
        (folder / "notes.md").write_text("not a transcript")

    def test_output_and_exit_code(self, tmp_path: Path) -> None:
        self.write(tmp_path)
        out, err = io.StringIO(), io.StringIO()
        assert main([str(tmp_path)], out, err) == 1
        assert out.getvalue().splitlines() == [
            f"{tmp_path}/b.txt\tOK\tunfinished",
            f"{tmp_path}/c.txt\tILLEGAL\tline 3: build g2 Café: a build takes the smallest green piece in the bank, "
            "which is g1",
            f"{tmp_path}/sub/a.txt\tOK\twinner:2",
        ]
        assert err.getvalue() == ""

    def test_all_ok_exits_zero(self, tmp_path: Path) -> None:
        self.write(tmp_path)
        out = io.StringIO()
        assert main([str(tmp_path / "b.txt"), str(tmp_path / "sub")], out, io.StringIO()) == 0

    def test_progress_bar_only_on_a_terminal(self, tmp_path: Path) -> None:
        self.write(tmp_path)
        err = _Tty()
        main([str(tmp_path)], io.StringIO(), err)
        assert "3/3" in err.getvalue()

    def test_missing_path(self, tmp_path: Path) -> None:
        err = io.StringIO()
        assert main([str(tmp_path / "nope.txt")], io.StringIO(), err) != 0
        assert "no such file" in err.getvalue()

    def test_usage(self) -> None:
        assert main([], io.StringIO(), io.StringIO()) == 2

    @pytest.mark.parametrize("text", ["\ufeffhomeworld b2 y1 g3 A\r\n", "homeworld b2 y1 g3 A;\n", "  \n\n#\n"])
    def test_tolerates_unseen_files(self, text: str) -> None:
        assert check_text(text).ok
