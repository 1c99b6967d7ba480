"""Planet Unknown replay check: seeded random games whose final scores must not change.

Every configuration in :data:`CONFIGURATIONS` plays N seeded games of random legal moves through the
game contract alone. ``record`` writes a digest of each game's end (the scores as ``GameScored``
carries them, the outcome, and a hash of the auditor's view of the final state); ``check`` plays the
same games again under a rules version and reports every game whose digest differs (exit code 1).

A rules version must fold its games the same forever, so a baseline recorded under one version and
checked under the same version after a refactoring finds any change the refactoring made. Run from
the repository root:

    python benchmarks/replay_check.py record --version planet-unknown-4 --out tests/replay/planet-unknown-4.json
    python benchmarks/replay_check.py check --baseline tests/replay/planet-unknown-4.json --jobs 2

The game seed is ``sha256("<configuration>:<index>")`` and the move choice comes from
``random.Random("<configuration>:<index>")``: the seat to act among those that must, then a move among
the legal moves sorted by their canonical JSON (so that the order a generator lists them in does not
matter).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import domain.planet_unknown
from domain import contract
from domain.arena import progress_bar
from domain.contract import JSON, Game, Role
from events.envelope import canonical

GAME_NAME = "planet-unknown"
DEFAULT_GAMES = 500
MAX_PLIES = 5000
"""A game still running after this many moves is recorded as unfinished (outcome None)."""
HASH_CHARS = 16
"""Hex digits kept of each sha256: plenty to tell two results apart, and half the file size."""
COLUMNS = ("totals", "winners", "reason", "plies", "scores_sha256", "view_sha256")
"""The fields of one game's row in a baseline file, in order."""

PLANETS = (
    "ksb-4156",
    "arashi",
    "cerberus",
    "charybdis",
    "gaia",
    "k-273",
    "kaax",
    "lacuna",
    "oblivion",
    "pajitnov",
    "persephone",
    "petra",
    "tartarus",
)
CORPORATIONS = (
    "universal-coalition",
    "cosmos-inc",
    "flux-industries",
    "horizon-group",
    "jump-drive",
    "makeshift",
    "oasis-ultd",
    "republic",
    "wormhole-corp",
)
FLUX_TRACKS = ("civ", "water", "biomass", "rover", "tech")


def every_combination(slot: int) -> dict[str, str]:
    """The ``seat_setup`` entry of the ``slot``-th seat over a configuration's games.

    Planets and corporations advance together; since 13 and 9 share no factor, every (planet,
    corporation) pair comes once in 117 seats, and Flux Industries takes each flux track in turn.
    """
    entry = {"planet": PLANETS[slot % len(PLANETS)], "corporation": CORPORATIONS[slot % len(CORPORATIONS)]}
    if entry["corporation"] == "flux-industries":
        entry["flux"] = FLUX_TRACKS[slot // len(CORPORATIONS) % len(FLUX_TRACKS)]
    return entry


@dataclasses.dataclass(frozen=True, slots=True)
class Configuration:
    """A named set-up of the game: its seats and options.

    With ``every_combination`` the seats of game ``i`` also get fixed planets and corporations
    (option ``seat_setup``), seat ``s`` taking :func:`every_combination` of ``i * seats + s``.
    """

    name: str
    seats: int
    options: Mapping[str, JSON] = dataclasses.field(default_factory=dict)
    every_combination: bool = False

    def options_for(self, index: int) -> dict[str, JSON]:
        """The options of game ``index``."""
        options = dict(self.options)
        if self.every_combination:
            options["seat_setup"] = [every_combination(index * self.seats + s) for s in range(self.seats)]
        return options

    def fingerprint(self, games: int) -> str:
        """A hash of the seats and options of the first ``games`` games: a baseline of other games does not compare."""
        played = [[self.seats, self.options_for(i)] for i in range(games)]
        return _hash(played)


CONFIGURATIONS: tuple[Configuration, ...] = (
    Configuration("core-solo", 1),
    Configuration("core-4", 4),
    Configuration("core-2-rulebook", 2, {"two_player_auto_rotation": False, "uc_tech1_waives_edge": False}),
    Configuration("events-2", 2, {"events": True}),
    Configuration("events-mix-3", 3, {"events": True, "event_mix": {"green": 8, "orange": 6, "red": 6}}),
    Configuration("planets-dealt-2", 2, {"asymmetric_planets": True}),
    Configuration("corporations-dealt-2", 2, {"asymmetric_corporations": True}),
    Configuration("every-combination-solo", 1, every_combination=True),
    Configuration("every-combination-3", 3, every_combination=True),
    Configuration("mix-solo", 1, {"asymmetric_planets": True, "asymmetric_corporations": True}),
    Configuration(
        "mix-4",
        4,
        {"events": True, "asymmetric_planets": True, "asymmetric_corporations": True, "private_objectives": True},
    ),
)
"""What the check covers: the core game (solo, 2 seats with the rulebook's variants, 4 seats), the event
deck (a random mix and a fixed one), the asymmetric planets and corporations as dealt, every planet
with every corporation (and every flux track), and everything at once."""

BY_NAME = {c.name: c for c in CONFIGURATIONS}


@dataclasses.dataclass(frozen=True, slots=True)
class Digest:
    """How one game ended: the totals per seat, the winners and reason (None: unfinished), its length,
    and short hashes of its scores and of the auditor's view of its final state."""

    totals: tuple[int, ...]
    winners: tuple[int, ...] | None
    reason: str | None
    plies: int
    scores_sha256: str
    view_sha256: str

    def row(self) -> list[JSON]:
        """The digest as a row of :data:`COLUMNS`."""
        winners = None if self.winners is None else list(self.winners)
        return [list(self.totals), winners, self.reason, self.plies, self.scores_sha256, self.view_sha256]

    @classmethod
    def from_row(cls, row: Sequence[JSON]) -> Digest:
        """Read a row of :data:`COLUMNS`."""
        totals, winners, reason, plies, scores, view = row
        return cls(tuple(totals), None if winners is None else tuple(winners), reason, plies, scores, view)

    def differences(self, baseline: Digest) -> list[str]:
        """What differs from ``baseline``, one phrase per field; empty when they agree."""
        return [
            f"{name} {getattr(self, name)!r}, baseline {getattr(baseline, name)!r}"
            for name in COLUMNS
            if getattr(self, name) != getattr(baseline, name)
        ]


@dataclasses.dataclass(frozen=True, slots=True)
class Mismatch:
    """A replayed game whose digest is not the baseline's."""

    configuration: str
    index: int
    differences: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.configuration} #{self.index}: " + "; ".join(self.differences)


def _hash(value: JSON) -> str:
    return hashlib.sha256(canonical(value).encode()).hexdigest()[:HASH_CHARS]


def rules(version: str | None = None) -> Game[Any]:
    """Planet Unknown under rules ``version`` (None: the current one), registering its versions first."""
    if GAME_NAME not in contract.names():
        for previous in domain.planet_unknown.PREVIOUS_VERSIONS:
            contract.register(previous, current=False)
        contract.register(domain.planet_unknown.GAME)
    return contract.get(GAME_NAME, version)


def play(game: Game[Any], configuration: Configuration, index: int) -> Digest:
    """Play game ``index`` of ``configuration`` with random legal moves, and digest its end."""
    key = f"{configuration.name}:{index}"
    choose = random.Random(key)
    state = game.initial(configuration.seats, configuration.options_for(index))
    state = contract.fold(game, state, game.setup(state, hashlib.sha256(key.encode()).digest()))
    plies = 0
    while game.outcome(state) is None and plies < MAX_PLIES:
        seat = choose.choice(sorted(game.to_act(state)))
        move = choose.choice(sorted(game.legal_moves(state, seat), key=canonical))
        state = contract.fold(game, state, game.decide(state, seat, move))
        plies += 1
    scores = game.scores(state)
    outcome = game.outcome(state)
    return Digest(
        totals=tuple(row["total"] for row in scores["seats"]),
        winners=None if outcome is None else outcome.winners,
        reason=None if outcome is None else outcome.reason,
        plies=plies,
        scores_sha256=_hash(scores),
        view_sha256=_hash(game.view(state, Role.AUDITOR)),
    )


def _play_by_name(version: str, name: str, index: int) -> Digest:
    return play(rules(version), BY_NAME[name], index)


def play_all(
    version: str,
    configuration: Configuration,
    games: int,
    *,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[Digest]:
    """Games 0 to ``games - 1`` of ``configuration`` under rules ``version``, on ``jobs`` processes."""
    indexes = range(games)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results: Iterable[Digest] = pool.map(
                _play_by_name, [version] * games, [configuration.name] * games, indexes, chunksize=5
            )
            return _with_progress(results, games, progress)
    game = rules(version)
    return _with_progress((play(game, configuration, i) for i in indexes), games, progress)


def _with_progress(results: Iterable[Digest], games: int, progress: Callable[[int, int], None] | None) -> list[Digest]:
    out = []
    for digest in results:
        out.append(digest)
        if progress is not None:
            progress(len(out), games)
    return out


def compare(configuration: str, replayed: Sequence[Digest], baseline: Sequence[Digest]) -> list[Mismatch]:
    """Every replayed game that differs from the same game of ``baseline``."""
    return [
        Mismatch(configuration, i, tuple(differences))
        for i, (digest, recorded) in enumerate(zip(replayed, baseline, strict=False))
        if (differences := digest.differences(recorded))
    ]


# --- Baseline files -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Baseline:
    """A recorded baseline: per configuration, its fingerprint and one digest per game."""

    rules_version: str
    games: Mapping[str, Sequence[Digest]]
    fingerprints: Mapping[str, str]

    def dumps(self) -> str:
        """The baseline as JSON text, one game per line."""
        head = {"game": GAME_NAME, "rules_version": self.rules_version, "columns": list(COLUMNS)}
        parts = [json.dumps(head)[:-1] + ', "configurations": {']
        for n, (name, digests) in enumerate(self.games.items()):
            configuration = BY_NAME[name]
            about = {"seats": configuration.seats, "options": configuration.options_for(0)}
            about |= {"every_combination": configuration.every_combination, "fingerprint": self.fingerprints[name]}
            rows = ",\n   ".join(json.dumps(d.row()) for d in digests)
            comma = "," if n < len(self.games) - 1 else ""
            parts.append(f' {json.dumps(name)}: {json.dumps(about)[:-1]}, "games": [\n   {rows}\n ]}}{comma}')
        parts.append("}}\n")
        return "\n".join(parts)

    @classmethod
    def loads(cls, text: str) -> Baseline:
        """Read a baseline written by :meth:`dumps`."""
        data = json.loads(text)
        if data["game"] != GAME_NAME or list(data["columns"]) != list(COLUMNS):
            raise ValueError("not a Planet Unknown replay baseline of this format")
        configurations = data["configurations"]
        return cls(
            data["rules_version"],
            {name: [Digest.from_row(row) for row in c["games"]] for name, c in configurations.items()},
            {name: c["fingerprint"] for name, c in configurations.items()},
        )


def record(version: str, games: int, configurations: Sequence[Configuration], *, jobs: int = 1) -> Baseline:
    """Play ``games`` games of each configuration under ``version``, printing a line per configuration."""
    recorded: dict[str, list[Digest]] = {}
    for configuration in configurations:
        started = time.perf_counter()
        recorded[configuration.name] = play_all(
            version, configuration, games, jobs=jobs, progress=progress_bar(configuration.name)
        )
        _report(configuration, games, time.perf_counter() - started, None)
    fingerprints = {c.name: c.fingerprint(games) for c in configurations}
    return Baseline(version, recorded, fingerprints)


def check(
    baseline: Baseline,
    version: str,
    games: int | None,
    configurations: Sequence[Configuration],
    *,
    jobs: int = 1,
    quiet: bool = False,
) -> list[Mismatch]:
    """Replay the first ``games`` games (None: all) of each configuration of ``baseline`` under ``version``."""
    mismatches: list[Mismatch] = []
    for configuration in configurations:
        recorded = baseline.games.get(configuration.name)
        if recorded is None:
            raise ValueError(f"the baseline has no configuration {configuration.name!r}")
        count = len(recorded) if games is None else games
        if count > len(recorded):
            raise ValueError(f"the baseline has {len(recorded)} games of {configuration.name!r}, not {count}")
        if configuration.fingerprint(len(recorded)) != baseline.fingerprints[configuration.name]:
            raise ValueError(f"configuration {configuration.name!r} has changed since the baseline was recorded")
        started = time.perf_counter()
        progress = None if quiet else progress_bar(configuration.name)
        replayed = play_all(version, configuration, count, jobs=jobs, progress=progress)
        found = compare(configuration.name, replayed, recorded)
        mismatches.extend(found)
        if not quiet:
            _report(configuration, count, time.perf_counter() - started, len(found))
    return mismatches


def _report(configuration: Configuration, games: int, seconds: float, mismatches: int | None) -> None:
    line = f"{configuration.name:24} {games:5} games {seconds:7.1f} s {1000 * seconds / max(games, 1):7.1f} ms/game"
    print(line if mismatches is None else f"{line} {mismatches:5} mismatches", flush=True)


# --- Command line -----------------------------------------------------------------------------------


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _configurations(names: Sequence[str] | None) -> list[Configuration]:
    if not names:
        return list(CONFIGURATIONS)
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        raise SystemExit(f"unknown configuration {unknown[0]!r}; known: {', '.join(BY_NAME)}")
    return [BY_NAME[n] for n in names]


def main(argv: Sequence[str] | None = None) -> int:
    """``record`` or ``check``; returns the exit code (1 when ``check`` finds a mismatch)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    recording = commands.add_parser("record", help="play the games and write their digests")
    recording.add_argument("--version", help="the rules version (default: the current one)")
    recording.add_argument("--games", type=_positive_int, default=DEFAULT_GAMES, help="games per configuration")
    recording.add_argument("--out", type=Path, required=True, help="the baseline file to write")
    checking = commands.add_parser("check", help="replay the games of a baseline and report every difference")
    checking.add_argument("--version", help="the rules version (default: the baseline's)")
    checking.add_argument("--baseline", type=Path, required=True, help="a file written by record")
    checking.add_argument("--games", type=_positive_int, help="replay only the first N games of each configuration")
    for sub in (recording, checking):
        sub.add_argument("--config", action="append", help="only this configuration (repeatable)")
        sub.add_argument("--jobs", type=_positive_int, default=1, help="processes to play on")
    args = parser.parse_args(argv)
    configurations = _configurations(args.config)
    started = time.perf_counter()
    if args.command == "record":
        version = rules(args.version).rules_version
        print(f"recording {args.games} games of {len(configurations)} configurations under {version}")
        baseline = record(version, args.games, configurations, jobs=args.jobs)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(baseline.dumps())
        size = args.out.stat().st_size
        print(f"wrote {args.out} ({size / 1024:.0f} KiB) in {time.perf_counter() - started:.0f} s")
        return 0
    baseline = Baseline.loads(args.baseline.read_text())
    version = rules(args.version or baseline.rules_version).rules_version
    print(f"checking {args.baseline} (recorded under {baseline.rules_version}) under {version}")
    try:
        mismatches = check(baseline, version, args.games, configurations, jobs=args.jobs)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for mismatch in mismatches:
        print(f"MISMATCH {mismatch}")
    print(f"{len(mismatches)} mismatches in {time.perf_counter() - started:.0f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
