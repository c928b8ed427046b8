"""``referee.play.env`` (issue 23): every ruleset as a PettingZoo AEC environment
that passes PettingZoo's own ``api_test``, plays whole games to the rules'
result with the rewards it documents, and deals the same game for the same seed."""
from __future__ import annotations

import hashlib
import json
import random
from typing import Any, cast

import numpy as np
import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")

from gymnasium.spaces import Discrete  # noqa: E402

from referee.engine.protocol import seat_view  # noqa: E402
from referee.games import registry  # noqa: E402
from referee.play.env import MAX_ACTIONS, RefereeEnv, env  # noqa: E402


@pytest.mark.parametrize("ruleset", registry.names())
def test_pettingzoos_api_test_passes(ruleset: str) -> None:
    pettingzoo_test.api_test(env(ruleset=ruleset, seed=f"api-{ruleset}"), num_cycles=300)


def _play(game: RefereeEnv, seed: str, picks: random.Random, max_steps: int = 20_000) -> tuple[dict[str, float], str]:
    """A whole game of masked random actions: each agent's final reward and a digest of what was observed."""
    game.reset(seed=seed)
    final: dict[str, float] = {}
    digest = hashlib.sha256()
    for _steps, agent in enumerate(game.agent_iter(max_steps)):
        observation, reward, terminated, truncated, info = game.last()
        digest.update(observation["view"].encode())
        if terminated or truncated:
            final[agent] = reward
            game.step(None)
            continue
        allowed = np.flatnonzero(observation["action_mask"])
        assert len(allowed) == len(game.legal_moves(agent)) > 0
        view = json.loads(observation["view"])
        assert view["legal_moves"][:game.max_actions] == game.legal_moves(agent)
        game.step(int(allowed[picks.randrange(len(allowed))]))
    assert not game.agents, f"the game did not end in {max_steps} steps"
    return final, digest.hexdigest()


@pytest.mark.parametrize("ruleset", [n for n in registry.names() if n != "bang-faceoff"])  # the duel is long
def test_a_whole_game_ends_with_the_results_rewards_and_a_seed_repeats_it(ruleset: str) -> None:
    game = env(ruleset=ruleset, seed="whole")
    final, digest = _play(game, "whole-1", random.Random(1))
    result = game.result()
    assert result is not None
    winners = {f"seat_{s}" for s in result["winners"]}
    assert set(final) == set(game.possible_agents)
    assert final == {a: 1.0 if a in winners else -1.0 for a in game.possible_agents}
    again, digest_again = _play(env(ruleset=ruleset, seed="other"), "whole-1", random.Random(1))
    assert (again, digest_again) == (final, digest)


def test_the_observation_is_the_seats_view_and_only_the_selected_agent_may_act() -> None:
    game = env(ruleset="bang", players=5, seed="obs")
    game.reset(seed="obs")
    assert cast(Discrete, game.action_space("seat_0")).n == MAX_ACTIONS["bang"]
    selected = game.agent_selection
    assert game.table is not None
    for agent in game.possible_agents:
        observation: Any = game.observe(agent)
        seat = int(agent.split("_")[1])
        assert json.loads(observation["view"]) == json.loads(json.dumps(seat_view(game.rs, game.table.state, seat)))
        assert game.observation_space(agent).contains(observation)
        assert observation["action_mask"].any() == (agent == selected)
    with pytest.raises(ValueError, match="not allowed"):
        game.step(MAX_ACTIONS["bang"] - 1)
    # the lowest awaited seat is the one selected
    awaited = [s for s in game.rs.to_act(game.table.state) if game.rs.legal_moves(game.table.state, s)]
    assert selected == f"seat_{min(awaited)}"


def test_max_moves_truncates() -> None:
    game = env(ruleset="bang", seed="short", max_moves=5)
    game.reset()
    for _agent in game.agent_iter(100):
        observation, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    assert game.moves == 5 and not game.agents


def test_a_deadline_with_nobody_awaited_is_run_out_inside_step() -> None:
    from tests import countdown
    with countdown.installed():
        pettingzoo_test.api_test(env(ruleset="countdown", players=2, seed="clock"), num_cycles=50)
        game = env(ruleset="countdown", players=2, seed="clock")
        final, _ = _play(game, "clock-1", random.Random(3))
        assert game.table is not None
        assert any(e.type == "resumed" for e in game.table.events)  # the system's timeouts, issued by the env
        assert sorted(final.values()) == [-1.0, 1.0]
