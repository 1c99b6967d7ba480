"""Check game transcripts: one turn per line, players alternating, ``#`` lines are comments.

A ``# start-position: <position>`` comment before the first turn starts the game
from that position instead of the empty table. Transcripts are checked under the
rules SuperDuperGames accepted (:data:`~domain.homeworlds.rules.SDG`): a pass
before setting up and a one-star homeworld are allowed.

``main`` is the ``orrery transcripts check --game homeworlds PATH...`` command::

    games/sdg/sdg-00608.txt	OK	winner:2
    games/sdg/sdg-00710.txt	ILLEGAL	line 25: build y2 Ultramar: a build takes the smallest yellow ...
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from .errors import GameOverError
from .notation import Turn
from .position import Position
from .rules import SDG, Rules, play

START_PREFIX = "start-position"


@dataclasses.dataclass(frozen=True, slots=True)
class TranscriptResult:
    """The verdict on one transcript.

    ``result`` is ``winner:1``, ``winner:2``, ``draw`` or ``unfinished``; ``line``
    and ``reason`` say where and why an illegal transcript fails (``line`` counts
    turn lines only, from 1).
    """

    ok: bool
    result: str
    turns: int
    position: Position
    line: int | None = None
    reason: str | None = None

    def row(self, path: str) -> str:
        """The command's output line for this transcript."""
        if self.ok:
            return f"{path}\tOK\t{self.result}"
        return f"{path}\tILLEGAL\tline {self.line}: {self.reason}"


def check_text(text: str, rules: Rules = SDG) -> TranscriptResult:
    """Replay a transcript through the validator and say whether every turn is legal."""
    position = Position.initial()
    turns = 0
    ended_at: int | None = None
    for raw in text.splitlines():
        line = raw.strip().lstrip("\ufeff")
        if not line:
            continue
        if line.startswith("#"):
            comment = line[1:].strip()
            if comment.lower().startswith(START_PREFIX) and ":" in comment and turns == 0:
                try:
                    position = Position.from_text(comment.split(":", 1)[1])
                except ValueError as error:
                    return TranscriptResult(False, "unfinished", 0, position, 0, f"bad start position: {error}")
            continue
        turns += 1
        if ended_at is not None:
            reason = f"the game is already over ({position.outcome()} after line {ended_at})"
            return TranscriptResult(False, str(position.outcome()), turns, position, turns, reason)
        try:
            position = play(position, Turn.parse(line), rules)
        except ValueError as error:
            if isinstance(error, GameOverError):
                error = GameOverError("the game is already over")
            return TranscriptResult(False, "unfinished", turns, position, turns, str(error))
        if position.outcome() is not None:
            ended_at = turns
    outcome = position.outcome()
    return TranscriptResult(True, "unfinished" if outcome is None else str(outcome), turns, position)


def read_text(path: Path) -> str:
    """A transcript file's text: UTF-8 if it decodes, else Latin-1."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def transcript_files(paths: Iterable[str]) -> Iterator[tuple[str, Path | None]]:
    """Each file named, and every ``*.txt`` under each folder named (sorted); None for a missing path."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for found in sorted(p for p in path.rglob("*.txt") if p.is_file()):
                yield str(found), found
        elif path.is_file():
            yield name, path
        else:
            yield name, None


def check_file(path: Path) -> TranscriptResult:
    """Check one transcript file."""
    return check_text(read_text(path))


class _Progress:
    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream, self.total, self.shown = stream, total, -1

    def update(self, done: int) -> None:
        width = 40
        filled = width * done // max(self.total, 1)
        if filled != self.shown or done == self.total:
            self.shown = filled
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total}")
            self.stream.flush()

    def close(self) -> None:
        self.stream.write("\r" + " " * 60 + "\r")
        self.stream.flush()


USAGE = "usage: orrery transcripts check --game homeworlds PATH...\n"


def main(argv: list[str], stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Check the transcripts under ``argv`` (files or folders); 0 only when every file is legal."""
    out = sys.stdout if stdout is None else stdout
    err = sys.stderr if stderr is None else stderr
    if not argv or any(a in ("-h", "--help") for a in argv):
        (out if argv else err).write(USAGE)
        return 0 if argv else 2
    files = list(transcript_files(argv))
    progress = _Progress(err, len(files)) if err.isatty() else None
    failed = False
    for done, (name, path) in enumerate(files, 1):
        if path is None:
            err.write(f"{name}: no such file or folder\n")
            failed = True
            continue
        try:
            verdict = check_file(path)
        except OSError as error:
            err.write(f"{name}: cannot read: {error.strerror or error}\n")
            failed = True
            continue
        failed |= not verdict.ok
        out.write(verdict.row(name) + "\n")
        if progress is not None:
            progress.update(done)
    if progress is not None:
        progress.close()
    if not files:
        err.write("no transcripts found\n")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
