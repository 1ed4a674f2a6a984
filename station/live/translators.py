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
or ``"group"``/``"helper"`` (Moving Day) — are kept by the table
(:class:`station.live.table.LiveTable`, which knows when they are used up or
dropped) and handed to :meth:`TableTranslator.translate` with each camera reading:
the camera's readings carry only what it sees, and the referee reads the optional
keys a person adds (``docs/rules-notes.md``, "Camera referees").

A game's translator may also say whether a reading shows the table exactly as
the engine has it (``shows_state(state, observation)``): a flag the camera
raised closes when it does.
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

    def __repr__(self) -> str:
        return f"<TableTranslator {self.game_name} {type(self.inner).__name__}>"

    @property
    def holds_back(self) -> bool:
        """Whether the game's translator holds inputs it has not decided on yet (``held``)."""
        return bool(getattr(self.inner, "held", None))

    def translate(self, state: State, observation: Mapping[str, Any],
                  entered: Mapping[str, Any] | None = None) -> list[Action]:
        """The actions ``observation`` means; ``entered``: a person's entries waiting,
        added to a camera reading (the reading's own keys win)."""
        kind = observation.get("kind")
        if kind in PASSED_THROUGH:
            action = observation.get("action")
            if not isinstance(action, dict):
                return []
            if kind == "reveal" and action.get("type") != REVEAL:
                raise IllegalAction("a reveal observation carries an action of type 'reveal'")
            return [dict(action)]
        if kind == PERSON or self.inner is None:
            return []
        return list(self.inner.translate(state, {**(entered or {}), **observation}))

    @property
    def tells_state(self) -> bool:
        """Whether the game's translator says when a reading shows the table as the engine
        has it (the camera referees do): the flags its readings raise may then close."""
        return hasattr(self.inner, "shows_state")

    def shows_state(self, state: State, observation: Mapping[str, Any]) -> bool:
        """Whether ``observation`` shows the table just as ``state`` has it (False when the
        game's translator cannot tell)."""
        check = getattr(self.inner, "shows_state", None)
        if check is None or observation.get("kind") in (*PASSED_THROUGH, PERSON):
            return False
        try:
            return bool(check(state, observation))
        except Exception:  # a reading the referee cannot make sense of shows nothing
            return False
