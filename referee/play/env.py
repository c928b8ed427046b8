"""The rulesets as a PettingZoo AEC environment, to train bots (issue 23).

    pip install 'referee[env]'        # pettingzoo, gymnasium, numpy

    from referee.play.env import env
    game = env(ruleset="bang", players=5, seed="train-1")
    game.reset()
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        if terminated or truncated:
            action = None
        else:                                    # an index into the seat's legal moves
            action = game.action_space(agent).sample(observation["action_mask"])
        game.step(action)

* **Agents** ``seat_0`` .. ``seat_{n-1}``: one per seat, all alive until the
  game ends (a BANG! player who is out is never selected, and still gets the
  reward of the team it played for).
* **Observation**: a ``Dict`` of ``view``, the seat's view as JSON text
  (``gymnasium.spaces.Text``, printable ASCII: ``json.dumps(seat_view(...),
  ensure_ascii=True)`` — exactly what ``referee.bots.choose`` and the API give
  a seat, ``legal_moves`` included), and ``action_mask``, ``int8`` of
  ``max_actions``: 1 for each move the selected agent may play now (the
  other agents' masks are all 0).
* **Actions**: ``Discrete(max_actions)``, an index into the selected seat's
  ``legal_moves`` (the rules' stable, sorted order; ``legal_moves(agent)``
  gives them). ``max_actions`` defaults per ruleset (``MAX_ACTIONS``: bang
  128, bang-dice 64, bang-faceoff 256, bluffaneer 32; any other ruleset 256),
  each well above the most legal moves random play was seen to offer (35,
  32, 113 and 5): a move past ``max_actions`` can never be chosen (the
  prompts where that happened are counted in ``cut_prompts``). An index the
  mask does not allow raises ``ValueError``.
* **Order**: the lowest awaited seat acts first; when several seats are
  prompted at once (a reaction, a claim window) they are served in seat
  order, one step each, as the platform's workers serve bots. When nobody is
  awaited, the open deadline runs out (the system ``timeout``, as
  ``referee.games.sim.Table.timeout`` issues it) inside ``step``.
* **Rewards**: 0 until the game ends, then ``win_reward`` (+1) for each seat
  in the result's ``winners`` and ``loss_reward`` (-1) for the others; every
  agent terminates then. ``max_moves`` (default: none) truncates a game that
  long.
* **Seeds**: ``reset(seed=s)`` deals game ``s`` (the same seed, the same
  deal, the same game for the same actions); ``reset()`` deals the next game
  of the stream ``seed`` started.

No Redis, no server: the rules, in this process (``referee.games.sim.Table``).
"""
from __future__ import annotations

import json
import secrets
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]

from referee.engine.protocol import Json, Move, seat_view
from referee.games import registry
from referee.games.sim import Table

#: the action space's size per ruleset (see the module's docstring)
MAX_ACTIONS = {"bang": 128, "bang-dice": 64, "bang-faceoff": 256, "bluffaneer": 32}
DEFAULT_MAX_ACTIONS = 256
#: the longest view text (the largest views seen are under 6,000 characters)
MAX_VIEW_CHARS = 1 << 20
#: what ``json.dumps(..., ensure_ascii=True)`` writes: printable ASCII
CHARSET = frozenset(chr(c) for c in range(32, 127))


def env(ruleset: str = "bang", players: int | None = None, seed: int | str | None = None,
        max_actions: int | None = None, **kw: Any) -> RefereeEnv:
    """A new environment for ``ruleset`` (``players`` default: 5, within the
    ruleset's range); ``kw`` as for :class:`RefereeEnv`."""
    return RefereeEnv(ruleset, players, seed=seed, max_actions=max_actions, **kw)


class RefereeEnv(AECEnv):  # type: ignore[misc,unused-ignore]
    """One game of a ruleset at a time, as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {"name": "referee_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, ruleset: str = "bang", players: int | None = None, *, seed: int | str | None = None,
                 max_actions: int | None = None, options: dict[str, Any] | None = None,
                 win_reward: float = 1.0, loss_reward: float = -1.0, max_moves: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.rs = registry.get(ruleset)
        self.players = players if players is not None else min(max(5, self.rs.min_players), self.rs.max_players)
        if not self.rs.min_players <= self.players <= self.rs.max_players:
            raise ValueError(f"{ruleset} takes {self.rs.min_players}–{self.rs.max_players} players")
        self.max_actions = max_actions or MAX_ACTIONS.get(ruleset, DEFAULT_MAX_ACTIONS)
        self.game_options = dict(options or {})
        self.win_reward, self.loss_reward, self.max_moves = float(win_reward), float(loss_reward), max_moves
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{i}" for i in range(self.players)]
        self.action_spaces = {a: spaces.Discrete(self.max_actions) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "view": spaces.Text(MAX_VIEW_CHARS, min_length=1, charset=CHARSET),
            "action_mask": spaces.Box(0, 1, (self.max_actions,), dtype=np.int8)}) for a in self.possible_agents}
        self._stream = str(seed) if seed is not None else secrets.token_hex(8)
        self._dealt = 0
        self.cut_prompts = 0
        self.moves = 0
        self.table: Table | None = None
        self._legal: list[Move] = []

    # -- the AEC API ------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | str | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: game ``seed`` if given (and the stream goes on from
        it), else the stream's next. ``options`` is accepted and unused (the
        game's options are the constructor's)."""
        if seed is not None:
            self._stream, self._dealt = str(seed), 0
        game_seed = self._stream if self._dealt == 0 else f"{self._stream}:{self._dealt}"
        self._dealt += 1
        self.table = Table(self.rs, self.players, options=self.game_options, seed=game_seed)
        self.seed = game_seed
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, Json] = {a: {} for a in self.agents}
        self.moves = 0
        self._advance()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.table is not None
        if action is None:
            raise ValueError(f"{agent} is to act: None is the action of an agent that is done")
        index = int(action)
        if not 0 <= index < min(len(self._legal), self.max_actions):
            raise ValueError(f"action {index} is not allowed for {agent}: its mask allows 0..{len(self._legal) - 1}")
        self._cumulative_rewards[agent] = 0.0
        self.table.play(self._seat(agent), self._legal[index])
        self.moves += 1
        self._clear_rewards()
        result = self._advance()
        if result is not None:
            winners = set(result["winners"])
            for a in self.agents:
                self.rewards[a] = self.win_reward if self._seat(a) in winners else self.loss_reward
                self.terminations[a] = True
        elif self.max_moves is not None and self.moves >= self.max_moves:
            for a in self.agents:
                self.truncations[a] = True
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.table is not None
        seat = self._seat(agent)
        view = seat_view(self.rs, self.table.state, seat, memo=self.table.memo)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[:min(len(self._legal), self.max_actions)] = 1
        return {"view": json.dumps(view, separators=(",", ":"), ensure_ascii=True), "action_mask": mask}

    def render(self) -> str | None:
        """``ansi``: a spectator's view as JSON text (``human``: printed)."""
        if self.render_mode is None or self.table is None:
            return None
        text = json.dumps(seat_view(self.rs, self.table.state, None, memo=self.table.memo), indent=1,
                          ensure_ascii=True)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.table = None

    # -- helpers ------------------------------------------------------------------
    def legal_moves(self, agent: str) -> list[Move]:
        """The moves ``agent``'s actions index now (empty unless it is selected)."""
        return list(self._legal[:self.max_actions]) if agent == self.agent_selection else []

    def result(self) -> Json | None:
        """The game's result (``winners``, ``seats``, ...) once it is over."""
        return self.table.result() if self.table is not None else None

    @staticmethod
    def _seat(agent: str) -> int:
        return int(agent.rpartition("_")[2])

    def _advance(self) -> Json | None:
        """Run out open deadlines until a seat with a legal move is awaited
        (then selected, the lowest) or the game is over (its result)."""
        table = self.table
        assert table is not None
        rs = table.ruleset
        while True:
            result = rs.result(table.state)
            if result is not None:
                self._legal = []
                return result
            for seat in sorted(rs.to_act(table.state)):
                legal = list(rs.legal_moves(table.state, seat, memo=table.memo))
                if legal:
                    self._legal = legal
                    if len(legal) > self.max_actions:
                        self.cut_prompts += 1
                    self.agent_selection = self.possible_agents[seat]
                    return None
            if rs.deadline(table.state) is None:
                raise RuntimeError(f"{rs.name}: nobody can move and no deadline is open (seed {self.seed!r})")
            table.timeout()
