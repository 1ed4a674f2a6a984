"""Monte Carlo advice: the acting player's best actions, with expected final scores and
every player's chance to win.

Flat Monte Carlo over determinizations: the candidates are the actions that look best
one move ahead (:mod:`rules.advice.heuristics`); each playout copies the acting player's
information set (:mod:`rules.advice.knowledge`), takes a candidate, then plays to the end
with every draw dealt at random from the components not yet seen and every player
following the greedy rollout policy. Candidates take turns, so each has about as many
playouts; every other playout starts from the position itself, the player to act following
the rollout policy too, and those give every player's chance to win from here
(:attr:`Advice.win_chances`). A shared victory counts as a fraction of a win for each of
its winners.

Example::

    >>> import random
    >>> from rules import get_game
    >>> state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=3)
    >>> advice = Advisor("small-warehouse").advise(state, random.Random(1), max_playouts=16)
    >>> answer = advice.to_json(state.players)
    >>> len(answer["actions"]), answer["playouts"], round(sum(answer["win_chances"].values()), 3)
    (3, 16, 1.0)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.advice.config import MAX_STEPS, ROOT_CANDIDATES, TOP_ACTIONS
from rules.advice.greedy import GreedyPolicy, best_actions, rollout_policy
from rules.advice.knowledge import (
    deal_face_down,
    fresh_copy,
    has_chance_api,
    information_set,
    reveal_pending,
)
from rules.advice.tuning import evaluator_for, tuning_for
from rules.engine import Action, State
from rules.errors import IllegalAction

DEFAULT_PLAYOUTS = 64  # when no stop callback is given


class NothingToAdvise(ValueError):
    """The game is over: there is no action to advise."""


@dataclass
class Candidate:
    """One action under study and what its playouts gave (None: a reveal is due first)."""

    action: Action | None
    heuristic: float
    players: int
    playouts: int = 0
    score_sum: float = 0.0
    wins: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.wins = [0.0] * self.players

    @property
    def win_chances(self) -> list[float]:
        return [win / self.playouts if self.playouts else 0.0 for win in self.wins]

    @property
    def expected_score(self) -> float:
        return self.score_sum / self.playouts if self.playouts else self.heuristic


@dataclass
class Advice:
    """The best actions found (best first), and every player's chance to win from here."""

    player: int | None
    actions: list[Candidate]
    playouts: int
    determinized: bool
    position: Candidate  # the playouts from the position itself, every move the rollout's

    @property
    def win_chances(self) -> list[float]:
        """Every player's chance to win from this position: their share of the wins of the
        playouts from the position itself, where every player, the one to act too, plays
        as the rollout policy does (0s before such a playout).

        Not the best candidate's rate: with eight candidates each has an eighth of the
        playouts, and the best of eight noisy rates reads high (a Small Warehouse position
        studied with 32 playouts said "100 %" and was won two times in three). Nor the
        candidates' rates pooled: a candidate is one of the eight best moves by the one-move
        heuristic, better than the rollout policy plays, so their pooled rate overrates the
        player to act (Small Warehouse: shown at 70-80 %, won 60 %: docs/advisor.md)."""
        return self.position.win_chances

    def to_json(self, players: list[str], top: int = TOP_ACTIONS) -> dict[str, Any]:
        def chances(candidate: Candidate) -> dict[str, float] | None:
            if not candidate.playouts:  # unknown, not zero
                return None
            return {name: round(chance, 4)
                    for name, chance in zip(players, candidate.win_chances, strict=True)}

        return {
            "player": None if self.player is None else players[self.player],
            "playouts": self.playouts,
            "position_playouts": self.position.playouts,
            "determinized": self.determinized,
            "win_chances": chances(self.position),
            "actions": [{"action": candidate.action, "playouts": candidate.playouts,
                         "expected_score": round(candidate.expected_score, 3),
                         "win_chances": chances(candidate)}
                        for candidate in self.actions[:top] if candidate.action is not None],
        }


def sure_actions(known: State) -> list[Action]:
    """The legal actions of an information set that name no component still unseen: a
    hand card nobody has seen (a Small Warehouse card ``supply-or-hand``) is no move to
    advise, the player may not hold it. All legal actions if every one names one."""
    actions = known.legal_actions()
    unseen = known.unseen()
    if not unseen:
        return actions
    sure = [action for action in actions
            if not any(type(value) is str and value in unseen for value in action.values())]
    return sure or actions


class Advisor:
    """Flat Monte Carlo with greedy rollouts for one game (see the module docstring)."""

    def __init__(self, game_name: str, candidates: int = ROOT_CANDIDATES) -> None:
        self.evaluator = evaluator_for(game_name)
        self.rollout: GreedyPolicy = rollout_policy(game_name)
        self.candidates = candidates
        self.screen = tuning_for(game_name).root_screen

    def advise(self, state: State, rng: random.Random,
               stop: Callable[[], bool] | None = None,
               max_playouts: int | None = None, min_playouts: int = 0,
               enough: Callable[[Candidate], bool] | None = None) -> Advice:
        """Study ``state`` until ``stop()`` is true or ``max_playouts`` are played (by
        default :data:`DEFAULT_PLAYOUTS` when there is no ``stop``), and ``stop`` is not
        asked before ``min_playouts`` are played (a starved worker still says something).

        Every other playout is one from the position itself (the win chances), the rest go
        to the candidate moves in turn (their ranking); while a draw is awaited there is no
        move to rank and every playout is the position's. ``enough(position)``, asked after
        each playout from the position, ends the search early (a benchmark timing how soon
        the win chances are sure enough to show)."""
        if state.is_over():
            raise NothingToAdvise("the game is over")
        player = None if state.is_chance() else state.current_player()
        known = information_set(state, player)
        candidates = self._candidates(known, player, rng)
        position = Candidate(None, 0.0, len(state.players))
        limit = max_playouts if max_playouts is not None else (
            None if stop is not None else DEFAULT_PLAYOUTS)
        played = 0
        while limit is None or played < limit:
            asked = stop if played >= min_playouts else None
            if asked is not None and asked():
                break
            studied = (position if not candidates or played % 2 == 0
                       else candidates[(played // 2) % len(candidates)])
            if not self._playout(known, studied, player, rng, asked):
                break
            played += 1
            if enough is not None and studied is position and enough(position):
                break
        ranked = sorted(candidates, key=lambda c: self._rank_key(c, player), reverse=True)
        return Advice(player, ranked, played, has_chance_api(state), position)

    def _candidates(self, known: State, player: int | None,
                    rng: random.Random) -> list[Candidate]:
        count = len(known.players)
        if player is None:  # a draw is awaited: no move to rank
            return []
        guessed = fresh_copy(known)
        deal_face_down(guessed, rng)
        actions = sure_actions(guessed)
        screened = best_actions(guessed, actions, self.evaluator, rng,
                                self.screen if len(actions) > self.screen else None)
        return [Candidate(dict(action), value, count)
                for value, action in screened[:self.candidates]]

    def _playout(self, known: State, candidate: Candidate, player: int | None,
                 rng: random.Random, stop: Callable[[], bool] | None) -> bool:
        """Play one game out from ``candidate`` and record it; False when ``stop`` cut it."""
        game = fresh_copy(known)
        if candidate.action is not None:
            game.apply(dict(candidate.action))
        deal_face_down(game, rng)  # after the candidate: a card it takes is nobody else's
        for _ in range(MAX_STEPS):
            reveal_pending(game, rng)
            if game.is_over():
                break
            if stop is not None and stop():
                return False
            try:
                game.apply(self.rollout.choose(game, rng))
            except IllegalAction as refused:  # a rollout must only ever pick legal actions
                raise RuntimeError(f"rollout chose an illegal action: {refused}") from None
        else:
            raise RuntimeError(f"{game!r} did not end within {MAX_STEPS} steps")
        winners = game.winners()
        for index, name in enumerate(game.players):
            if name in winners:
                candidate.wins[index] += 1 / len(winners)
        if player is not None:
            candidate.score_sum += game.scores()[player].total
        candidate.playouts += 1
        return True

    @staticmethod
    def _rank_key(candidate: Candidate, player: int | None) -> tuple[float, ...]:
        """Most wins for the acting player, then the highest expected score; candidates
        never played come last, by their one-move value."""
        if not candidate.playouts or player is None:
            return (0, 0.0, 0.0, candidate.heuristic)
        return (1, candidate.win_chances[player], candidate.expected_score, candidate.heuristic)


class AdvisorPolicy:
    """The advisor as a player: takes the best action of a fresh search each turn."""

    def __init__(self, game_name: str,
                 stop_factory: Callable[[], Callable[[], bool]] | None = None,
                 max_playouts: int | None = None) -> None:
        self.advisor = Advisor(game_name)
        self.stop_factory = stop_factory
        self.max_playouts = max_playouts

    def choose(self, state: State, rng: random.Random) -> Action:
        stop = self.stop_factory() if self.stop_factory is not None else None
        advice = self.advisor.advise(state, rng, stop, self.max_playouts)
        return dict(advice.actions[0].action)
