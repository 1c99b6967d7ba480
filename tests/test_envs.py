"""Both games as PettingZoo AEC environments: PettingZoo's own API test, and random agents playing whole games."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (the test and research extras)")
np = pytest.importorskip("numpy", reason="numpy comes with pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from envs import aec, homeworlds_v0, planet_unknown_v0  # noqa: E402


def play_randomly(env: Any, games: int) -> list[dict[str, float]]:
    """Play ``games`` whole games with uniformly random legal actions; each game's final rewards."""
    rng = np.random.default_rng(7)
    results = []
    for game in range(games):
        env.reset(seed=game)
        final: dict[str, float] = {}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                final[agent] = reward
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            assert len(legal) > 0, f"game {game}: {agent} must act but has no legal action"
            env.step(int(rng.choice(legal)))
        results.append(final)
    return results


@pytest.mark.parametrize(
    ("module", "kwargs"),
    [(homeworlds_v0, {}), (planet_unknown_v0, {"seats": 1}), (planet_unknown_v0, {"seats": 4})],
    ids=["homeworlds", "planet-unknown-solo", "planet-unknown-4"],
)
def test_pettingzoos_api_test_passes(module: Any, kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(module.env(**kwargs), num_cycles=200, verbose_progress=False)


def test_a_random_agent_plays_100_homeworlds_games_to_their_end() -> None:
    results = play_randomly(homeworlds_v0.env(), 100)
    assert len(results) == 100
    for final in results:
        assert set(final) == {"seat_0", "seat_1"}
        assert sorted(final.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_a_random_agent_plays_100_planet_unknown_games_to_their_end() -> None:
    results = play_randomly(planet_unknown_v0.env(seats=1), 100)
    assert len(results) == 100 and all(set(final) == {"seat_0"} for final in results)
    assert {final["seat_0"] for final in results} <= {-1.0, 1.0}


def test_an_observation_is_the_seats_own_view_and_hides_the_others_secrets() -> None:
    env = planet_unknown_v0.raw_env(seats=2)
    env.reset(seed=3)
    mine = aec.decode(env.observe("seat_0")["observation"])
    theirs = aec.decode(env.observe("seat_1")["observation"])
    assert mine == env.game.view(env.state, 0) and theirs == env.game.view(env.state, 1)
    assert mine != theirs


def test_an_action_names_a_legal_move_and_an_illegal_one_is_refused() -> None:
    env = homeworlds_v0.raw_env()
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    assert mask.sum() == len(env.legal_moves(agent)) > 0
    assert env.move_of(agent, 0) == env.legal_moves(agent)[0]
    with pytest.raises(ValueError, match="not one of"):
        env.step(int(mask.sum()))


def test_a_long_game_is_truncated_after_max_cycles() -> None:
    env = planet_unknown_v0.env(seats=2, max_cycles=5)
    env.reset(seed=0)
    moves = 0
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        moves += 1
    assert moves == 5


def test_the_readmes_ten_lines_play_a_game(capsys: Any) -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    start = readme.index("import numpy as np\nfrom envs import homeworlds_v0")
    code = readme[start : readme.index("```", start)]
    assert len(code.strip().splitlines()) == 10
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.split()
    assert sorted(printed[1::2]) in (["-1.0", "1.0"], ["0.0", "0.0"]), printed
