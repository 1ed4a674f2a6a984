"""Per-game translation: stable observations in, game actions out.

A *translator* turns one stable observation of a table (a plain dict: what the
camera read, what the drone's sensors detected) into the game actions it
means, given the current state. Translators are pluggable, keyed by game name:

- register one here with :func:`register_translator` (``game_name`` and a
  factory that makes a fresh translator for each table); or
- put a module in :mod:`rules.referees` (e.g. ``rules/referees/pick_n_packers.py``)
  that defines ``GAME = "pick-n-packers"`` and either a class ``Referee``
  (instantiated once per table, with a ``translate(state, observation)``
  method) or a function ``translate(state, observation)``. The station finds
  those modules by itself.

``translate`` returns a list of actions (empty when nothing happened), may
raise :class:`rules.IllegalAction` when the observation cannot be made sense
of, and must not change ``state``. A translator may remember earlier
observations; when a station restarts, the stored observations are fed to a
fresh translator again (its output then ignored) to rebuild that memory, so
it must be deterministic.

Every game understands two observation kinds without a translator:
``{"kind": "declared", "action": {...}}`` — an action declared by a referee's
button or a recorded demo — which goes through unchanged, and
``{"kind": "reveal", "action": {"type": "reveal", ...}}`` — a chance outcome a
person entered from the table page's picker (contracts §9) — likewise.

A person's entries for what no camera sees — ``{"kind": "person", "helpers": [2]}``
(Removal's Helper cards played), ``{"kind": "person", "helper_vehicle": "car"}``
or ``"group"``/``"helper"`` (Moving Day) — are kept and added to each following
observation handed to the game's translator, until one of them leads to actions:
the camera's readings carry only what it sees, and the referee reads the optional
keys a person adds (``docs/rules-notes.md``, "Camera referees").
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from rules import Action, IllegalAction, State
from rules.engine import REVEAL

PASSED_THROUGH = ("declared", "reveal")  # observation kinds that carry their action as it is
PERSON = "person"  # a person's entries, added to the readings that follow


class Translator(Protocol):
    """Turns one stable observation into the actions it means."""

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[Action]:
        ...


TranslatorFactory = Callable[[], Translator]

_FACTORIES: dict[str, TranslatorFactory] = {}
_discovered = False
_discovery_lock = threading.Lock()


def register_translator(game_name: str, factory: TranslatorFactory) -> None:
    """Use ``factory()`` to make the translator of each table playing ``game_name``."""
    _FACTORIES[game_name] = factory


class _FunctionTranslator:
    """Wraps a module-level ``translate`` function as a translator."""

    def __init__(self, function: Callable[[State, Mapping[str, Any]], list[Action]]) -> None:
        self.function = function

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[Action]:
        return list(self.function(state, observation))


def _discover_referees() -> None:
    """Register the translators found in :mod:`rules.referees`, if that package exists.

    Tables are set up from several threads at once: the first caller discovers while
    the others wait, so no table is made before every referee is known.
    """
    global _discovered
    with _discovery_lock:
        if _discovered:
            return
        try:
            package = importlib.import_module("rules.referees")
        except ModuleNotFoundError:
            package = None
        if package is not None:
            _register_referees(package)
        _discovered = True


def _register_referees(package: Any) -> None:
    """Register each referee module's ``Referee`` class (or ``translate`` function)."""
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"rules.referees.{info.name}")
        game_name = getattr(module, "GAME", None)
        if not isinstance(game_name, str) or game_name in _FACTORIES:
            continue
        if hasattr(module, "Referee"):
            register_translator(game_name, module.Referee)
        elif callable(getattr(module, "translate", None)):
            function = module.translate
            register_translator(game_name, lambda function=function: _FunctionTranslator(function))


def translated_games() -> list[str]:
    """Names of the games that have a translator of their own."""
    _discover_referees()
    return sorted(_FACTORIES)


class TableTranslator:
    """The translator of one table: declared actions pass, the rest go to the game's own."""

    def __init__(self, game_name: str) -> None:
        _discover_referees()
        factory = _FACTORIES.get(game_name)
        self.game_name = game_name
        self.inner: Translator | None = factory() if factory else None
        self.entered: dict[str, Any] = {}  # a person's entries not yet used by an action

    def __repr__(self) -> str:
        return f"<TableTranslator {self.game_name} {type(self.inner).__name__}>"

    @property
    def holds_back(self) -> bool:
        """Whether the game's translator holds inputs it has not decided on yet (``held``)."""
        return bool(getattr(self.inner, "held", None))

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[Action]:
        kind = observation.get("kind")
        if kind in PASSED_THROUGH:
            action = observation.get("action")
            if not isinstance(action, dict):
                return []
            if kind == "reveal" and action.get("type") != REVEAL:
                raise IllegalAction("a reveal observation carries an action of type 'reveal'")
            return [dict(action)]
        if kind == PERSON:
            self.entered.update((key, value) for key, value in observation.items()
                                if key != "kind")
            return []
        if self.inner is None:
            return []
        actions = list(self.inner.translate(state, {**self.entered, **observation}))
        if actions:
            self.entered = {}
        return actions
