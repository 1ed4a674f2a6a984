"""The Pick 'n Packers referee: drone events, positions and buttons in, challenge actions out.

A pure translator: it takes plain values and returns plain values, with no
clock, no I/O and no import of ``hardware`` or ``station``.

Inputs, each a list of dicts with a time ``t`` in seconds (one clock for all):

- drone events, as ``packref drone events`` prints them:
  ``{"t": 3.4, "event": "load" | "lift" | "land" | "drop", "mass_g": 12.1}``;
- drone positions from the camera: ``{"t": 7.4, "card": 1}`` (0–9; 0 and 9
  both name the "0/9" card);
- button presses: ``{"t": 9.0, "button": "start" | "foul" | "undo"}``.

Output: the engine's challenge actions in order — ``{"type": "load"}``,
``{"type": "land", "card": k}``, ``{"type": "fall"}``, ``{"type": "touch"}`` —
and ``reached``, the last card safely landed on, as the rulebook counts it.

Readings (``docs/rules-notes.md`` and ``docs/drone-events.md``):

- The challenge starts at the first ``start`` press (or at the first input when
  there is none) and ends at "0/9" (9 reached), a fall, a touch or a landing on
  any card but the next; later inputs are ignored until the next ``start``,
  which begins a new challenge (its actions follow in the same list).
- ``load`` is sent once per card: the engine loads the present of the drone's
  card, and a second load event at the same card (a re-placed present) is noted
  and skipped.
- A landing's card is the first position seen from 0.2 s before the impact to
  ``position_window_s`` after it, else the last one before it. With no
  positions at all, every landing is taken to be on the next card.
- A drop within ``landing_fall_window_s`` after a landing is a fall *during* the
  landing: ``fall`` is sent and the landing does not count.
- ``foul`` is a touch of a loaded present; ``undo`` takes back the last action of
  the current challenge, even the one that ended it.
- Anything not sent (a drop with nothing loaded, a landing without the card's
  present loaded, a landing whose card nobody saw) is explained in ``notes``.

Example::

    >>> referee = PickNPackersReferee()
    >>> result = referee.translate(
    ...     events=[{"t": 1.0, "event": "load", "mass_g": 5.0},
    ...             {"t": 2.0, "event": "lift", "mass_g": 5.0},
    ...             {"t": 4.0, "event": "land", "mass_g": 5.0},
    ...             {"t": 6.0, "event": "drop", "mass_g": 0.0}],
    ...     positions=[{"t": 4.2, "card": 1}])
    >>> result.actions
    [{'type': 'load'}, {'type': 'land', 'card': 1}, {'type': 'fall'}]
    >>> result.reached, result.ending
    (1, 'fall')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

SHOP_CARDS = 9  # "0/9" and 1..8
FULL_CIRCUIT = 9


@dataclass
class RefereeResult:
    """The actions for the engine, the round's ``reached`` and how the challenge ended."""

    actions: list[dict] = field(default_factory=list)
    reached: int = 0
    ending: str | None = None  # home, fall, wrong-landing, touch; None while it goes on
    notes: list[dict] = field(default_factory=list)

    def __repr__(self) -> str:
        return (f"<RefereeResult {len(self.actions)} actions, reached={self.reached}, "
                f"ending={self.ending}>")


@dataclass
class _Challenge:
    """The referee's own view of one challenge, enough to keep the engine's rules."""

    reached: int = 0
    loaded: int = 0
    loaded_here: bool = False
    ending: str | None = None

    def copy(self) -> _Challenge:
        return _Challenge(self.reached, self.loaded, self.loaded_here, self.ending)


class PickNPackersReferee:
    """Turns drone events, positions and button presses into Pick 'n Packers actions."""

    def __init__(self, position_window_s: float = 1.5, landing_fall_window_s: float = 0.5) -> None:
        self.position_window_s = position_window_s
        self.landing_fall_window_s = landing_fall_window_s

    def __repr__(self) -> str:
        return (f"PickNPackersReferee(position_window_s={self.position_window_s}, "
                f"landing_fall_window_s={self.landing_fall_window_s})")

    def translate(self, events: Iterable[dict], positions: Iterable[dict] | None = None,
                  buttons: Iterable[dict] = ()) -> RefereeResult:
        """The actions of the challenge(s) in these inputs (see the module's readings)."""
        timeline = _timeline(events, buttons)
        positions = None if positions is None else sorted(positions, key=lambda p: p["t"])
        started = not any(item.get("button") == "start" for item in timeline)
        result = RefereeResult()
        state = _Challenge()
        history: list[tuple[dict, _Challenge]] = []
        skip_landing_at: set[float] = set()
        for index, item in enumerate(timeline):
            if item.get("button") == "start":
                if started and state.ending is None and history:
                    _note(result, item, "start pressed during a challenge: ignored")
                    continue
                started, state = True, _Challenge()
                history.clear()
                continue
            if item.get("button") == "undo" and started:
                state = self._undo(result, history, item, state)
                continue
            if not started or state.ending is not None:
                _note(result, item, "outside a challenge: ignored")
                continue
            action = self._action(item, timeline[index + 1:], positions, state, result,
                                  skip_landing_at)
            if action is not None:
                history.append((action, state.copy()))
                result.actions.append(action)
                self._apply(action, state)
        result.reached, result.ending = state.reached, state.ending
        return result

    # -- one input -----------------------------------------------------------------
    def _action(self, item: dict, later: Sequence[dict], positions: list[dict] | None,
                state: _Challenge, result: RefereeResult, skip: set[float]) -> dict | None:
        kind = item.get("event") or item.get("button")
        if kind == "load":
            if state.loaded_here:
                return _note(result, item, "this card's present is already loaded")
            return {"type": "load"}
        if kind in ("drop", "foul"):
            if state.loaded == 0:
                return _note(result, item, "nothing is loaded on the drone")
            return {"type": "fall" if kind == "drop" else "touch"}
        if kind == "land":
            return self._landing(item, later, positions, state, result, skip)
        return None  # lift: the engine has no action for it

    def _landing(self, item: dict, later: Sequence[dict], positions: list[dict] | None,
                 state: _Challenge, result: RefereeResult, skip: set[float]) -> dict | None:
        if item["t"] in skip:
            return None
        fall = next((other for other in later if other.get("event") == "drop"
                     and other["t"] - item["t"] <= self.landing_fall_window_s), None)
        if fall is not None and state.loaded:
            skip.add(item["t"])
            _note(result, item, "a present fell during the landing: the landing does not count")
            return None
        if not state.loaded_here:
            return _note(result, item, "landing without the present of the card it left")
        card = self._card_at(item["t"], positions, state)
        if card is None:
            return _note(result, item, "no position of the drone near this landing")
        return {"type": "land", "card": card}

    def _card_at(self, t: float, positions: list[dict] | None, state: _Challenge) -> int | None:
        if positions is None:
            return state.reached + 1  # 9 names "0/9" too
        after = [p for p in positions if t - 0.2 <= p["t"] <= t + self.position_window_s]
        before = [p for p in positions if p["t"] < t - 0.2]
        chosen = after[0] if after else (before[-1] if before else None)
        return None if chosen is None else int(chosen["card"])

    # -- the challenge's state -------------------------------------------------------
    @staticmethod
    def _apply(action: dict, state: _Challenge) -> None:
        kind = action["type"]
        if kind == "load":
            state.loaded += 1
            state.loaded_here = True
        elif kind == "land":
            target = (state.reached + 1) % SHOP_CARDS
            if action["card"] % SHOP_CARDS != target:
                state.ending = "wrong-landing"
                return
            state.reached += 1
            state.loaded_here = False
            if state.reached == FULL_CIRCUIT:
                state.ending = "home"
        else:
            state.ending = kind

    @staticmethod
    def _undo(result: RefereeResult, history: list, item: dict, state: _Challenge) -> _Challenge:
        if not history:
            _note(result, item, "nothing to undo")
            return state
        action, before = history.pop()
        result.actions.pop()
        _note(result, item, f"undid {action}")
        return before


def _timeline(events: Iterable[dict], buttons: Iterable[dict]) -> list[dict]:
    """Events and presses in time order; at one instant, a press comes after the events."""
    merged = [(item["t"], 0, item) for item in events]
    merged += [(item["t"], 1, item) for item in buttons]
    merged.sort(key=lambda entry: (entry[0], entry[1]))
    return [item for _, _, item in merged]


def _note(result: RefereeResult, item: dict, reason: str) -> Any:
    result.notes.append({"t": item["t"], "input": item.get("event") or item.get("button"),
                         "reason": reason})
    return None


def translate(events: Iterable[dict], positions: Iterable[dict] | None = None,
              buttons: Iterable[dict] = ()) -> RefereeResult:
    """:meth:`PickNPackersReferee.translate` with the default settings."""
    return PickNPackersReferee().translate(events, positions, buttons)
