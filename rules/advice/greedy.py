"""The greedy player: the action that looks best one move ahead, by the game's evaluator
(:mod:`rules.advice.heuristics`). The ``greedy`` policy of ``packref simulate``, and the
policy every player follows in the advisor's playouts (:func:`rollout_policy`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.advice.tuning import evaluator_for, tuning_for
from rules.engine import Action, PositionEvaluator, State


class GreedyPolicy:
    """The action that looks best right after it (ties drawn at random); with ``sample``,
    the best of that many legal actions drawn at random (a cheap rollout policy)."""

    def __init__(self, evaluator: PositionEvaluator, sample: int | None = None) -> None:
        self.evaluator = evaluator
        self.sample = sample

    def choose(self, state: State, rng: random.Random) -> Action:
        return dict(best_actions(state, state.legal_actions(), self.evaluator, rng,
                                 self.sample)[0][1])


def best_actions(state: State, actions: Sequence[Action], evaluator: PositionEvaluator,
                 rng: random.Random, sample: int | None = None
                 ) -> list[tuple[float, Action]]:
    """(value, action) of ``actions`` (or of ``sample`` of them), best first, ties shuffled."""
    if sample is not None and len(actions) > sample:
        actions = rng.sample(actions, sample)
    else:
        actions = list(actions)
        rng.shuffle(actions)
    values = evaluator.values_after(state, actions)
    order = sorted(range(len(actions)), key=lambda index: -values[index])
    return [(values[index], actions[index]) for index in order]


def rollout_policy(game_name: str) -> GreedyPolicy:
    """The greedy policy the advisor's playouts follow for every player."""
    return GreedyPolicy(evaluator_for(game_name), tuning_for(game_name).rollout_sample)
