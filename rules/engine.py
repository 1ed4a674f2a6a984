"""The shape every game engine shares.

A game is set up from a catalogue of components and a seed; every shuffle is
made at setup and written into ``setup``, so a game is its setup plus its
action log, and :meth:`State.replay` rebuilds the state from those two alone.

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
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.errors import GameOver, IllegalAction

Action = dict[str, Any]


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


class Game(ABC):
    """A game definition: its name, player counts, option defaults and catalogue."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_options: ClassVar[dict[str, Any]] = {}

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
        seed: int,
        options: Mapping[str, Any] | None = None,
        catalogue: Mapping[str, Any] | None = None,
    ) -> State:
        """A new game, shuffled with ``seed``; ``catalogue`` replaces the default components."""
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(
                f"{self.name} takes {self.min_players} to {self.max_players} players, "
                f"not {len(players)}"
            )
        if len(set(players)) != len(players):
            raise ValueError("player names must be different")
        merged = self.options_with_defaults(options)
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
        self.data: dict[str, Any] = (
            json_copy(dict(restore)) if restore is not None else self.initial_data()
        )

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

    # -- shared behaviour --------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply ``action``, or raise :class:`IllegalAction` and leave the state unchanged."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("an action is an object with a 'type'")
        if self.is_over():
            raise GameOver()
        self.check(action)
        self.perform(action)
        self.log.append(json_copy(action))

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


def require(condition: bool, reason: str) -> None:
    """Raise :class:`IllegalAction` with ``reason`` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(reason)
