"""The Planet Unknown replay check (benchmarks/replay_check.py): recorded games still end as recorded,
and a game that ends otherwise is reported."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from benchmarks import replay_check
from benchmarks.replay_check import BY_NAME, CONFIGURATIONS, Baseline, Mismatch

BASELINE = Path(__file__).parent / "replay" / "planet-unknown-4.json"
VERSION = "planet-unknown-4"
REPLAYED = 10
"""Games replayed per configuration here; ``python benchmarks/replay_check.py check`` replays them all."""


def altered_baseline(name: str, games: int, altered: int) -> Baseline:
    """A baseline of ``games`` fresh games of configuration ``name`` whose game ``altered`` scored one more."""
    configuration = BY_NAME[name]
    digests = replay_check.play_all(VERSION, configuration, games)
    wrong = digests[altered]
    digests[altered] = dataclasses.replace(wrong, totals=(wrong.totals[0] + 1, *wrong.totals[1:]))
    return Baseline(VERSION, {name: digests}, {name: configuration.fingerprint(games)})


class TestRecordedGames:
    def test_the_first_games_of_every_configuration_end_as_recorded(self) -> None:
        if not BASELINE.exists():
            pytest.skip(
                f"no baseline at {BASELINE}: record it with `python benchmarks/replay_check.py record "
                f"--version {VERSION} --out tests/replay/{VERSION}.json`"
            )
        baseline = Baseline.loads(BASELINE.read_text())
        assert baseline.rules_version == VERSION
        assert set(baseline.games) == set(BY_NAME), "the baseline covers every configuration"
        mismatches = replay_check.check(baseline, VERSION, REPLAYED, CONFIGURATIONS, quiet=True)
        assert not mismatches, "\n".join(map(str, mismatches))


class TestMismatch:
    def test_a_game_that_scored_otherwise_is_reported(self) -> None:
        baseline = altered_baseline("every-combination-solo", 2, altered=1)
        configuration = BY_NAME["every-combination-solo"]
        [mismatch] = replay_check.check(baseline, VERSION, None, [configuration], quiet=True)
        assert (mismatch.configuration, mismatch.index) == ("every-combination-solo", 1)
        assert [d.split()[0] for d in mismatch.differences] == ["totals"]

    def test_the_command_exits_1_and_names_the_game(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        path = tmp_path / "baseline.json"
        path.write_text(altered_baseline("every-combination-solo", 2, altered=0).dumps())
        code = replay_check.main(["check", "--baseline", str(path), "--config", "every-combination-solo"])
        assert code == 1
        assert "MISMATCH every-combination-solo #0: totals" in capsys.readouterr().out

    def test_a_changed_configuration_is_refused(self) -> None:
        baseline = altered_baseline("every-combination-solo", 1, altered=0)
        other = dataclasses.replace(BY_NAME["every-combination-solo"], seats=2)
        with pytest.raises(ValueError, match="has changed"):
            replay_check.check(baseline, VERSION, None, [other], quiet=True)


class TestBaselineFile:
    def test_a_baseline_reads_back_as_written(self) -> None:
        baseline = altered_baseline("mix-solo", 2, altered=0)
        again = Baseline.loads(baseline.dumps())
        assert again == baseline
        assert replay_check.compare("mix-solo", again.games["mix-solo"], baseline.games["mix-solo"]) == []
        assert str(Mismatch("mix-solo", 3, ("plies 90, baseline 91",))) == "mix-solo #3: plies 90, baseline 91"
