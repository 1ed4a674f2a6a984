"""The shape every game engine shares.

A game is set up from a catalogue of components. Every draw is a *chance step*
whose legal outcomes are the components not yet seen (OpenSpiel's chance nodes,
adapted to a table dealt by hand):

- a **seeded** game (``deal="seed"``, the default) shuffles at setup and writes
  the order into ``setup``; the engine takes each outcome from there as soon as
  the draw happens (:meth:`State.seeded_reveal`), without logging it, so a
  seeded game is its setup plus its players' actions, exactly as before;
- a game **dealt by hand** (``deal="table"``, docs/formats.md §9) knows no order: each
  outcome is a ``{"type": "reveal", ...}`` action learnt from what the table
  shows or entered by a person, checked against :meth:`State.chance_outcomes`
  and logged like any other action.

Either way :meth:`Game.replay` rebuilds the state from setup and log alone, and
``data`` (the position) holds only what the table can see, so the same game
seeded, or dealt by hand with the seed's outcomes entered as reveals, reaches
the same ``data``. What one player may not see (a hand card) stays out of
:meth:`State.public_view`.

Actions are plain JSON objects (``dict``) with a ``"type"`` key, so that a
referee fed by a camera or a sensor, the dashboard and the event store all
speak the same language as the engine.

Example::

    >>> from rules import get_game
    >>> game = get_game("small-warehouse")
    >>> state = game.new_game(["Ana", "Ben"], seed=7)
    >>> action = state.legal_actions()[0]
    >>> state.apply(action)
    >>> state.to_json()["log"] == [action]
    True
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from rules.errors import GameOver, IllegalAction

Action = dict[str, Any]
REVEAL = "reveal"
DEALS = ("seed", "table")


@dataclass(frozen=True)
class Outcome:
    """One legal outcome of a chance step: the reveal action and how many such components
    are still unseen (its weight when a simulation draws at random)."""

    action: Action
    count: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"action": dict(self.action), "count": self.count}


@dataclass(frozen=True)
class PlayerScore:
    """One player's score and its breakdown; ``parts`` always add up to ``total``."""

    player: str
    total: int
    parts: dict[str, int] = field(default_factory=dict)


def winners_by(scores: Sequence[PlayerScore], keys: Mapping[str, tuple]) -> list[str]:
    """Names of the players with the best ``keys[player]`` (higher is better), input order kept."""
    best = max(keys[score.player] for score in scores)
    return [score.player for score in scores if keys[score.player] == best]


def json_copy(value: Any) -> Any:
    """A deep copy of a JSON-compatible value (faster than ``copy.deepcopy``; refuses non-JSON).

    Equal to ``json.loads(json.dumps(value))``. Plain JSON data (dicts with string keys,
    lists, strings, numbers, booleans, None) is copied directly, several times faster for
    the small values copied on every move; anything else (a tuple, a number as a key, an
    object) takes the JSON round trip, which converts it or refuses it.
    """
    try:
        return _plain_copy(value)
    except (_NotPlain, RecursionError):
        return json.loads(json.dumps(value))


_JSON_SCALARS = frozenset({str, int, float, bool, type(None)})


class _NotPlain(Exception):
    """A value :func:`_plain_copy` leaves to the JSON round trip."""


def _plain_copy(value: Any) -> Any:
    """A deep copy of plain JSON data: dicts with string keys, lists, and scalars."""
    if type(value) in _JSON_SCALARS:
        return value
    if isinstance(value, dict):
        copy = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            copy[key] = _plain_copy(item)
        return copy
    if isinstance(value, list):
        return [_plain_copy(item) for item in value]
    raise _NotPlain


class FrozenAction(dict):
    """A read-only action: a ``dict`` (equal to, and written to JSON like, the plain dict with
    the same items) that refuses changes, so that an engine may hand out the same objects from
    ``legal_actions()`` call after call instead of building fresh ones. Nested values must be
    immutable (strings, numbers, booleans, None). ``dict(action)`` gives a changeable copy.
    """

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a legal action is read-only: change a copy, dict(action)")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[Any, ...]:  # copy, deepcopy and pickle rebuild it whole
        return (type(self), (dict(self),))


class PositionEvaluator(Protocol):
    """How good a position looks for a player, and each action for the player who takes it:
    the advisor's one-move heuristic (:mod:`rules.advice.heuristics` has the default)."""

    def value(self, state: State, player: int) -> float:
        """The value of ``state`` for ``player``."""

    def values_after(self, state: State, actions: Sequence[Action]) -> list[float]:
        """The acting player's value right after each of ``actions``."""


@dataclass(frozen=True)
class AdviceTuning:
    """How the advisor (:mod:`rules.advice`) studies a game: a game that needs other
    settings than these defaults sets its own :attr:`Game.advice_tuning`."""

    # Actions screened by the one-move heuristic at the root, at most (a random sample beyond).
    root_screen: int = 400
    # Actions a greedy rollout step compares (a random sample of the legal ones).
    rollout_sample: int = 4
    # The one-move heuristic; None: the game's own scores.
    evaluator: PositionEvaluator | None = None
    # Fills in, at random, the choices a player laid face down (None in the public view).
    guess_face_down: Callable[[State, random.Random], None] | None = None


class Game(ABC):
    """A game definition: its name, player counts, option defaults and catalogue, and how
    the advisor studies it."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_options: ClassVar[dict[str, Any]] = {}
    advice_tuning: ClassVar[AdviceTuning] = AdviceTuning()
    #: Properties of components the table cannot see until the game is over, by the key the
    #: components are listed under in the setup and the catalogue (Removal: ``{"boxes":
    #: ("value",)}``, a box's back side). :mod:`rules.public` hides them from the public.
    secret_properties: ClassVar[dict[str, tuple[str, ...]]] = {}

    #: The bounds (both included) of each whole-number option: what a station takes at its
    #: edge, so no option makes a game too large to referee (docs/formats.md "Game options").
    option_limits: ClassVar[dict[str, tuple[int, int]]] = {}
    #: The words each text option takes.
    option_choices: ClassVar[dict[str, tuple[str, ...]]] = {}

    def option_problem(self, key: str, value: Any) -> str | None:
        """What is wrong with ``value`` for the option ``key`` (None: nothing), judged by
        the option's default (true/false), :attr:`option_limits` and :attr:`option_choices`;
        a rule between options (Pick 'n' Packers' starting player and the player count)
        stays the engine's to check."""
        if key not in self.default_options:
            known = ", ".join(sorted(self.default_options)) or "none"
            return f"{self.name} has no option {key!r} (its options: {known})"
        if isinstance(self.default_options[key], bool):
            return None if isinstance(value, bool) else "must be true or false"
        if key in self.option_limits:
            low, high = self.option_limits[key]
            whole = isinstance(value, int) and not isinstance(value, bool)
            return None if whole and low <= value <= high else \
                f"must be a whole number {low}..{high}"
        if key in self.option_choices and value not in self.option_choices[key]:
            return f"must be one of {', '.join(self.option_choices[key])}"
        return None

    def options_with_defaults(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        merged = dict(self.default_options)
        for key, value in (options or {}).items():
            if key not in merged:
                raise ValueError(f"{self.name} has no option {key!r}")
            merged[key] = value
        return merged

    def new_game(
        self,
        players: Sequence[str],
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        catalogue: Mapping[str, Any] | None = None,
        deal: str = "seed",
    ) -> State:
        """A new game; ``catalogue`` replaces the default components.

        ``deal="seed"`` shuffles with ``seed``; ``deal="table"`` leaves every draw to
        reveals (the components were shuffled and dealt by hand; ``seed`` is unused).
        """
        if deal not in DEALS:
            raise ValueError(f"deal must be one of {', '.join(DEALS)}, not {deal!r}")
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(
                f"{self.name} takes {self.min_players} to {self.max_players} players, "
                f"not {len(players)}"
            )
        if len(set(players)) != len(players):
            raise ValueError("player names must be different")
        merged = self.options_with_defaults(options)
        if deal == "table":
            setup = self.make_table_setup(list(players), merged, catalogue)
            setup["deal"] = "table"
        else:
            setup = self.make_setup(list(players), seed, merged, catalogue)
        return self.state_class(self, list(players), merged, setup)

    @property
    @abstractmethod
    def state_class(self) -> type[State]:
        """The class of this game's states."""

    @abstractmethod
    def make_setup(
        self,
        players: list[str],
        seed: int,
        options: dict[str, Any],
        catalogue: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """Everything random or catalogue-given about a game, as JSON: shuffled decks, layouts."""

    def make_table_setup(
        self,
        players: list[str],
        options: dict[str, Any],
        catalogue: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """The setup of a game dealt by hand: the catalogue's components, no order."""
        raise ValueError(f"{self.name} cannot be dealt by hand yet")

    def from_json(self, document: Mapping[str, Any]) -> State:
        """The state written by :meth:`State.to_json`, restored without replaying."""
        state = self.state_class(
            self, list(document["players"]), dict(document["options"]), document["setup"],
            restore=document["state"],
        )
        state.log = [dict(action) for action in document["log"]]
        return state

    def replay(self, document: Mapping[str, Any]) -> State:
        """The state rebuilt from setup and action log alone."""
        state = self.state_class(
            self, list(document["players"]), dict(document["options"]), document["setup"]
        )
        for action in document["log"]:
            state.apply(dict(action))
        return state

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class State(ABC):
    """A game in progress. Subclasses keep their whole position in ``self.data``.

    ``self.data`` is JSON-compatible (dicts, lists, strings, numbers, booleans,
    None) so that the round trip and the dashboard need nothing per game.
    """

    def __init__(
        self,
        game: Game,
        players: list[str],
        options: dict[str, Any],
        setup: Mapping[str, Any],
        restore: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.setup = json_copy(dict(setup))
        self.log: list[Action] = []
        self.deal: str = self.setup.get("deal", "seed")
        # Reveals the seed made, as (actions logged before it, reveal): not part of the game's
        # JSON (replay makes them again), kept so a test can deal the same game by hand.
        self.seed_reveals: list[tuple[int, Action]] = []
        if restore is not None:
            self.data: dict[str, Any] = json_copy(dict(restore))
        else:
            self.data = self.initial_data()
            self._deal_from_seed()

    # -- what each game provides ------------------------------------------------
    @abstractmethod
    def initial_data(self) -> dict[str, Any]:
        """The position right after setup, built from ``self.setup``."""

    @abstractmethod
    def current_player(self) -> int | None:
        """Index of the player to act, or None when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now (empty when the game is over)."""

    @abstractmethod
    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason if ``action`` is not allowed now."""

    @abstractmethod
    def perform(self, action: Action) -> None:
        """Carry out an action already checked."""

    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def scores(self) -> list[PlayerScore]:
        """Each player's score now, in player order, with its breakdown."""

    @abstractmethod
    def winners(self) -> list[str]:
        """The players who win (several when the tie-breaks leave a shared victory)."""

    # -- chance: what each game that draws provides ----------------------------------
    def is_chance(self) -> bool:
        """True when the next step is a reveal: nobody may act before it is made."""
        return False

    def chance_outcomes(self) -> list[Outcome]:
        """The reveals the rules allow now, each with how many such components are unseen.

        When :meth:`is_chance` is true these are the only legal steps; otherwise they are
        reveals a person may enter at any time (a face-up card the camera does not see).
        Empty when nothing is waiting to be revealed.
        """
        return []

    def seeded_reveal(self) -> Action | None:
        """In a seeded game, the reveal the seed gives for the next draw still unseen, or None."""
        return None

    def unseen(self) -> dict[str, int]:
        """The components not yet seen (in the draw piles, bags, hidden hands), with counts."""
        return {}

    def public_view(self) -> dict[str, Any]:
        """The position as the table sees it (no draw order, no hidden hand); JSON."""
        return json_copy(self.data)

    def public_action(self, action: Action) -> Action:
        """``action`` as the whole table sees it (a card laid face down hides its face); JSON."""
        return json_copy(action)

    def public_choice(self, action: Action) -> Action:
        """``action`` not made yet (a legal move, a refused one) as the whole table may see
        it: what :meth:`public_action` hides, and what a player would only show by making it
        (a card still in a hand); JSON."""
        return self.public_action(action)

    def public_reason(self, action: Action, reason: str) -> str:
        """The engine's ``reason`` for refusing ``action``, as the whole table may read it:
        a refusal of a move that involves what the table cannot see names no reason (the
        reason could name the hidden card)."""
        if self.public_choice(action) != action:
            return "refused: it involves what the table cannot see (the organiser sees why)"
        return reason

    def check_reveal(self, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is one of :meth:`chance_outcomes`."""
        outcomes = self.chance_outcomes()
        if not any(outcome.action == action for outcome in outcomes):
            raise IllegalAction(self.reveal_refusal(action, outcomes))

    def reveal_refusal(self, action: Action, outcomes: Sequence[Outcome]) -> str:
        """Why a reveal is not a legal outcome, in a person's words (games may say more)."""
        if not outcomes:
            return "nothing is waiting to be revealed now"
        return f"{_brief(action)} is not a legal outcome now ({len(outcomes)} are)"

    # -- shared behaviour --------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply ``action``, or raise :class:`IllegalAction` and leave the state unchanged.

        A reveal (``{"type": "reveal", ...}``) must be one of :meth:`chance_outcomes`;
        any other action is refused while :meth:`is_chance` holds. In a seeded game the
        draws an action leads to are revealed from the seed straight after it.
        """
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("an action is an object with a 'type'")
        if self.is_over():
            raise GameOver()
        if action["type"] == REVEAL:
            self.check_reveal(action)
        else:
            # A seeded game has revealed every draw by now (after setup and each action).
            if self.deal != "seed" and self.is_chance():
                raise IllegalAction("a draw must be revealed first: "
                                    "the next step is the table's, not a player's")
            self.check(action)
        self.perform(action)
        self.log.append(json_copy(action))
        self._deal_from_seed()

    def _deal_from_seed(self) -> None:
        """Reveal every draw the seed already decides (nothing in a game dealt by hand)."""
        if self.deal != "seed":
            return
        while (reveal := self.seeded_reveal()) is not None:
            self.perform(reveal)
            self.seed_reveals.append((len(self.log), reveal))

    def to_json(self) -> dict[str, Any]:
        """The whole game as JSON: setup, action log and the current position."""
        return {
            "game": self.game.name,
            "players": list(self.players),
            "options": dict(self.options),
            "setup": json_copy(self.setup),
            "log": json_copy(self.log),
            "state": json_copy(self.data),
        }

    def clone(self) -> State:
        return self.game.from_json(self.to_json())

    def position_copy(self) -> State:
        """A copy of the position alone, for a search's playouts: ``data`` copied, no log,
        and the setup and whatever the game derived from it shared, not rebuilt (play never
        changes them). Several times faster than building the state afresh from its setup
        (a Removal catalogue's tile specs, a Moving Day fleet); the copy plays on apart
        from ``self``. A game that keeps something derived from ``data`` beside it forgets
        it in :meth:`forget_derived`."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.players = list(self.players)
        copy.options = dict(self.options)
        copy.log = []
        copy.seed_reveals = []
        copy.data = json_copy(self.data)
        copy.forget_derived()
        return copy

    def forget_derived(self) -> None:
        """Drop what was derived from ``data`` and kept beside it (a copy builds it again):
        nothing for a game that keeps nothing."""
        return None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return json.dumps(self.to_json(), sort_keys=True) == json.dumps(
            other.to_json(), sort_keys=True
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        turn = "over" if self.is_over() else f"{self.players[self.current_player() or 0]} to act"
        return f"<{type(self).__name__} {self.game.name} after {len(self.log)} actions, {turn}>"


def _brief(action: Action) -> str:
    """A reveal in a few words: its fields other than ``type``, as JSON (its indices as the
    JSON has them, from 0)."""
    fields = {key: value for key, value in action.items() if key != "type"}
    return f"the reveal {json.dumps(fields, default=repr)}" if fields else "this reveal"


def require(condition: bool, reason: str) -> None:
    """Raise :class:`IllegalAction` with ``reason`` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(reason)
