"""Per-game translation: stable observations in, game actions out.

A *translator* turns one stable observation of a table (a plain dict: what the
camera read, what the drone's sensors detected) into the game actions it
means, given the current state. A game's translator is the referee its record
names (:mod:`station.games`, e.g. ``rules.games.pick_n_packers.referee.Referee``,
instantiated once per table, with a ``translate(state, observation)`` method);
a game without a record, or whose record names no referee, has none.

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
person entered from the table page's picker (docs/formats.md §9) — likewise.

A person's entries for what no camera sees — ``{"kind": "person", "helpers": [2]}``
(Removal's Helper cards played), ``{"kind": "person", "helper_vehicle": "car"}``
or ``"group"``/``"helper"`` (Moving Day) — are kept and added to each following
observation handed to the game's translator, until one of them leads to actions:
the camera's readings carry only what it sees, and the referee reads the optional
keys a person adds (``docs/rules-notes.md``, "Camera referees").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from rules import Action, IllegalAction, State
from rules.engine import REVEAL
from station.games import game_record, game_records

PASSED_THROUGH = ("declared", "reveal")  # observation kinds that carry their action as it is
PERSON = "person"  # a person's entries, added to the readings that follow


class Translator(Protocol):
    """Turns one stable observation into the actions it means."""

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[Action]:
        ...


TranslatorFactory = Callable[[], Translator]


def _factory(game_name: str) -> TranslatorFactory | None:
    """The referee of the game's record (None: no record, or no referee)."""
    record = game_record(game_name)
    return record.referee if record is not None else None


def translated_games() -> list[str]:
    """Names of the games that have a translator of their own."""
    return sorted(record.name for record in game_records() if record.referee is not None)


class TableTranslator:
    """The translator of one table: declared actions pass, the rest go to the game's own."""

    def __init__(self, game_name: str) -> None:
        factory = _factory(game_name)
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
