"""The Pick 'n Packers referee: drone events, positions and buttons in, challenge actions out.

A pure translator: it takes plain values and returns plain values, with no
clock, no I/O and no import of ``hardware`` or ``station``. It comes in two
forms that share one implementation (:class:`_Core`, fed one input at a time in
time order):

- the batch :meth:`PickNPackersReferee.translate` (``packref`` tools, tests):
  whole lists in, a :class:`RefereeResult` out;
- the live :class:`Referee`, one per station table (named by the game's record in
  the station): one observation at a time in, the actions it settles out (see
  "Live" below).

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

Live (:class:`Referee`), the observations of one table, one at a time and in
time order (``t`` in the drone stream's clock)::

    {"kind": "drone-event", "t": 7.31, "event": "land", "mass_g": 12.0}
    {"kind": "drone-position", "t": 7.5, "card": 1}
    {"kind": "button", "t": 9.0, "button": "start" | "foul" | "undo"}
    {"kind": "drone-clock", "t": 9.31, "mass_g": 12.0}   # the detector has settled up to t

- The challenge is the engine's: inputs count only while the state is in its
  challenge phase, and the referee reads ``reached`` and what is loaded from the
  state at every call, so a referee's correction or undo at the table is seen.
- **A landing is held back** until it is sure: until an observation arrives
  whose ``t`` is past ``landing_fall_window_s`` after the impact (a drop
  before that makes it a fall during the landing) and the drone's card is
  known (a position seen from 0.2 s before the impact, or an observation past
  ``position_window_s``). The observations behind it wait with it; the one
  that releases it returns the landing's action and theirs, in order. The
  station's drone source sends a ``drone-clock`` observation a little after
  each event, so the last landing of a challenge is released too.
- **A drone sensor fault** (``{"kind": "drone-event", "event": "fault", "sensor",
  "reason"}``, docs/formats.md §7) is refused with "drone sensor fault: SENSOR: REASON; ...
  judge by eye", which flags the table; from its ``t`` until its ``fault-cleared``'s
  no load or drop (nor, for the ``imu`` or the ``link``, a landing) is ruled from
  the drone. Faults and their clearing may come ahead of inputs from before them
  (the station hands them on at once, its events only once they have settled):
  those inputs are ruled as usual.
- Deterministic: the same observations give the same actions, so a restarted
  station rebuilds the memory (held inputs, positions) by feeding them again.
- Refused with :class:`rules.IllegalAction` (a flag at the table): a malformed
  observation, one older than an observation already read, ``start`` or
  ``foul`` outside the challenge, and ``undo`` of a call already applied (the
  table's own Undo takes that back). Drone events outside the challenge (the
  drone handled between rounds) are noted in :attr:`Referee.notes` and ignored,
  and so are observation kinds this referee does not read.

Games dealt by hand (``state.deal == "table"``; a seeded game is refereed as
above and nothing is revealed): neither unknown of the game blocks play (see
:mod:`rules.games.pick_n_packers`), so the referee reveals what the table shows
and leaves the rest unknown:

- the shop layout, from the camera's reading of the shop grid
  (``{"kind": "shop", "cards": [[id or null, ...] × 3] × 3}``, the ``cards`` of
  :func:`vision.games.pick_n_packers.read_shop`): each card read in an empty
  cell is revealed there, a cell not read waits, and once eight are known the
  ninth is the last cell's; a reading that contradicts the grid is a misread,
  noted and ignored (the shop cards stay where they lie all game);
- the present loaded, from the load's mass: the mass the load event added over
  the latest mass before it, revealed (right after the ``load``) only when it
  is within ``mass_tolerance_g`` (:data:`PRESENT_MASS_TOLERANCE_G`) of exactly
  one present not yet seen this round; otherwise a note names the candidates
  and the present stays unknown (a person may enter it from the picker).

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

import bisect
import itertools
import math
from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine import State
from rules.errors import IllegalAction
from rules.words import at

GAME = "pick-n-packers"
SHOP_CARDS = 9  # "0/9" and 1..8
SHOP_GRID = 3  # the shop cards lie in a 3 × 3 grid
FULL_CIRCUIT = 9
BEFORE_IMPACT_S = 0.2  # a position this long before the impact still names the landing's card
BUTTONS = ("start", "foul", "undo")
EVENTS = ("load", "lift", "land", "drop")
FAULT_EVENTS = ("fault", "fault-cleared")  # a drone sensor reads impossibly / again plausibly
MOTION_SENSORS = ("imu", "link")  # no lift or landing is ruled while one of these is faulty
KEPT_NOTES = 100
# A loaded present is named by its mass only when one unseen present lies this close to the
# mass the load added (each event's mass is within 0.11 g at p95, docs/drone-events.md).
PRESENT_MASS_TOLERANCE_G = 0.4


@dataclass
class RefereeResult:
    """The actions for the engine, the round's ``reached`` and how the challenge ended."""

    actions: list[dict] = field(default_factory=list)
    reached: int = 0
    ending: str | None = None  # home, fall, wrong-landing, touch; None while it goes on
    notes: list[dict] = field(default_factory=list)
    loads: list[dict] = field(default_factory=list)  # the load event behind each load sent

    def __repr__(self) -> str:
        return (f"<RefereeResult {len(self.actions)} actions, reached={self.reached}, "
                f"ending={self.ending}>")


@dataclass
class _FaultSpan:
    """A drone sensor faulty from ``start`` until ``end`` (``inf``: not cleared yet)."""

    sensor: str
    start: float
    end: float = math.inf


@dataclass
class _Challenge:
    """The referee's own view of one challenge, enough to keep the engine's rules."""

    reached: int = 0
    loaded: int = 0
    loaded_here: bool = False
    ending: str | None = None

    def copy(self) -> _Challenge:
        return _Challenge(self.reached, self.loaded, self.loaded_here, self.ending)

    @property
    def under_way(self) -> bool:
        """Something happened already: a present is loaded or a card was reached."""
        return bool(self.loaded or self.reached)


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
        started = not any(item.get("button") == "start" for item in timeline)
        core = _Core(self, with_positions=positions is not None, started=started)
        for is_position, item in _merged(positions or (), timeline):
            core.push_position(item) if is_position else core.push(item)
        core.release(final=True)
        core.result.reached, core.result.ending = core.state.reached, core.state.ending
        return core.result


class _Core:
    """The one implementation of the readings: inputs one at a time, in time order.

    Positions are kept (a landing's card is looked up among them); the other
    inputs queue in ``held`` and are read in order as soon as the first is sure:
    only a landing waits, until :meth:`_settled` (``final`` reads everything).
    Actions and notes go to :attr:`result`.
    """

    def __init__(self, settings: PickNPackersReferee, with_positions: bool,
                 started: bool) -> None:
        self.settings = settings
        self.positions: list[dict] | None = [] if with_positions else None
        self.started = started
        self.state = _Challenge()
        self.history: list[tuple[dict, _Challenge]] = []
        self.held: list[dict] = []
        self.clock = -math.inf  # the latest t seen
        self.skip: set[float] = set()
        self.faults: list[_FaultSpan] = []  # when drone sensors were faulty (oldest first)
        self.result = RefereeResult()

    def push(self, item: dict) -> None:
        """One drone event or button press (the latest so far)."""
        self.clock = max(self.clock, item["t"])
        self.held.append(item)
        self.release()

    def push_position(self, position: dict) -> None:
        """One position of the drone (the latest so far)."""
        self.clock = max(self.clock, position["t"])
        if self.positions is not None:
            bisect.insort(self.positions, position, key=lambda p: p["t"])
        self.release()

    def release(self, final: bool = False) -> None:
        """Read the held inputs in order, up to a landing that is not sure yet."""
        while self.held:
            if not final and self.held[0].get("event") == "land" and not self._settled():
                return
            self._step(self.held.pop(0))

    def _settled(self) -> bool:
        """Whether the first held input, a landing, can be read now."""
        landing, later = self.held[0], self.held[1:]
        if self._fall_during(landing, later) is not None:
            return True
        settings, t = self.settings, landing["t"]
        card_known = (self.positions is None or self.clock > t + settings.position_window_s
                      or any(p["t"] >= t - BEFORE_IMPACT_S for p in self.positions))
        return card_known and self.clock > t + settings.landing_fall_window_s

    def _fall_during(self, landing: dict, later: Sequence[dict]) -> dict | None:
        window = self.settings.landing_fall_window_s
        return next((other for other in later if other.get("event") == "drop"
                     and other["t"] - landing["t"] <= window), None)

    # -- one input -----------------------------------------------------------------
    def sensor(self, item: dict) -> None:
        """A drone sensor fault, or its end: no call is made from a sensor while it was faulty.

        A fault is kept as the span it covers (from its ``t`` until a ``fault-cleared``
        of its sensor), so it may be read ahead of inputs from before it began (the live
        source hands faults on at once, its events only once they have settled): those
        are ruled as usual.
        """
        t, sensor = item["t"], item["sensor"]
        if item["event"] == "fault":
            self.faults.append(_FaultSpan(sensor, t))
        else:
            began = [span for span in self.faults
                     if span.sensor == sensor and span.start <= t and span.end == math.inf]
            if began:
                began[-1].end = t
        oldest = min([self.clock, *(held["t"] for held in self.held)])
        self.faults = [span for span in self.faults if span.end > oldest]

    def faulty_at(self, t: float) -> list[str]:
        """The drone sensors that were faulty at ``t``."""
        return sorted({span.sensor for span in self.faults if span.start <= t < span.end})

    def _step(self, item: dict) -> None:
        if item.get("event") == "clock":
            return  # only moves time on (live)
        if item.get("event") in FAULT_EVENTS:
            self.sensor(item)
            return
        button = item.get("button")
        if button == "start":
            if self.started and self.state.ending is None and self.state.under_way:
                self._note(item, "start pressed during a challenge: ignored")
                return
            self.started, self.state = True, _Challenge()
            self.history.clear()
            return
        if button == "undo" and self.started:
            self._undo(item)
            return
        if not self.started or self.state.ending is not None:
            self._note(item, "outside a challenge: ignored")
            return
        action = self._action(item)
        if action is not None:
            self.history.append((action, self.state.copy()))
            self.result.actions.append(action)
            _apply(action, self.state)

    def _action(self, item: dict) -> dict | None:
        kind = item.get("event") or item.get("button")
        faulty = self.faulty_at(item["t"])
        unsure = faulty if kind in ("load", "drop") else sorted(
            set(faulty) & set(MOTION_SENSORS) if kind == "land" else ())
        if unsure:
            return self._note(item, f"drone sensor fault ({', '.join(unsure)}): "
                                    "no call from it, judge by eye")
        if kind == "load":
            if self.state.loaded_here:
                return self._note(item, "this card's present is already loaded")
            self.result.loads.append(item)
            return {"type": "load"}
        if kind in ("drop", "foul"):
            if self.state.loaded == 0:
                return self._note(item, "nothing is loaded on the drone")
            return {"type": "fall" if kind == "drop" else "touch"}
        if kind == "land":
            return self._landing(item)
        return None  # lift: the engine has no action for it

    def _landing(self, item: dict) -> dict | None:
        if item["t"] in self.skip:
            return None
        if self._fall_during(item, self.held) is not None and self.state.loaded:
            self.skip.add(item["t"])
            return self._note(item, "a present fell during the landing: the landing does not count")
        if not self.state.loaded_here:
            return self._note(item, "landing without the present of the card it left")
        card = self._card_at(item["t"])
        if card is None:
            return self._note(item, "no position of the drone near this landing")
        return {"type": "land", "card": card}

    def _card_at(self, t: float) -> int | None:
        if self.positions is None:
            return self.state.reached + 1  # 9 names "0/9" too
        window = self.settings.position_window_s
        after = [p for p in self.positions if t - BEFORE_IMPACT_S <= p["t"] <= t + window]
        before = [p for p in self.positions if p["t"] < t - BEFORE_IMPACT_S]
        chosen = after[0] if after else (before[-1] if before else None)
        return None if chosen is None else int(chosen["card"])

    def _undo(self, item: dict) -> None:
        if not self.history:
            self._note(item, "nothing to undo")
            return
        action, self.state = self.history.pop()
        self.result.actions.pop()
        if action["type"] == "load":
            self.result.loads.pop()
        self._note(item, f"undid {action}")

    def _note(self, item: dict, reason: str) -> Any:
        self.result.notes.append({"t": item["t"], "input": item.get("event") or item.get("button"),
                                  "reason": reason})
        return None


def _apply(action: dict, state: _Challenge) -> None:
    """Move the referee's view of the challenge on by one action, as the engine would."""
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


def _timeline(events: Iterable[dict], buttons: Iterable[dict]) -> list[dict]:
    """Events and presses in time order; at one instant, a press comes after the events."""
    merged = [(item["t"], 0, item) for item in events]
    merged += [(item["t"], 1, item) for item in buttons]
    merged.sort(key=lambda entry: (entry[0], entry[1]))
    return [item for _, _, item in merged]


def _merged(positions: Iterable[dict], timeline: list[dict]) -> list[tuple[bool, dict]]:
    """Positions and the timeline as one stream in time order (a position first at a tie)."""
    stream = [(p["t"], 0, index, True, p) for index, p in enumerate(positions)]
    stream += [(item["t"], 1, index, False, item) for index, item in enumerate(timeline)]
    stream.sort(key=lambda entry: entry[:3])
    return [(is_position, item) for *_, is_position, item in stream]


# ------------------------------------------------------------------------------ live
class Referee:
    """The live referee of one table: one observation in, the actions it settles out.

    The station makes one per table (it finds this class through ``GAME``). See the
    module's "Live" readings: a landing is held back until an observation past its
    windows releases it, so the call that releases it returns its action too.

    Example::

        >>> from rules import get_game
        >>> state = get_game(GAME).new_game(["Ana", "Ben", "Cas"], seed=1)
        >>> state.apply({"type": "speculate", "card": 2})
        >>> referee = Referee()
        >>> referee.translate(state, {"kind": "drone-event", "t": 1.0, "event": "load",
        ...                           "mass_g": 5.0})
        [{'type': 'load'}]
        >>> state.apply({"type": "load"})
        >>> referee.translate(state, {"kind": "drone-event", "t": 4.0, "event": "land",
        ...                           "mass_g": 5.0})   # held: a present may still fall
        []
        >>> referee.translate(state, {"kind": "drone-position", "t": 4.2, "card": 1})
        []
        >>> referee.translate(state, {"kind": "drone-clock", "t": 6.0, "mass_g": 5.0})
        [{'type': 'land', 'card': 1}]
    """

    def __init__(self, position_window_s: float = 1.5, landing_fall_window_s: float = 0.5,
                 with_positions: bool = True) -> None:
        self.settings = PickNPackersReferee(position_window_s, landing_fall_window_s)
        self.with_positions = with_positions
        self.notes: deque[dict] = deque(maxlen=KEPT_NOTES)
        self._core = _Core(self.settings, with_positions, started=False)
        self._round: int | None = None
        self.mass_tolerance_g = PRESENT_MASS_TOLERANCE_G
        self._mass_g = 0.0  # the mass the drone carried at the latest drone observation

    def __repr__(self) -> str:
        return (f"<Referee {self.settings!r}, {len(self._core.held)} held, "
                f"round {self._round}>")

    @property
    def held(self) -> list[dict]:
        """The inputs read but not decided yet (a landing first), oldest first."""
        return list(self._core.held)

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[dict]:
        """The actions this observation settles (often none); ``state`` is only read."""
        if observation.get("kind") == "shop":
            reveals, notes = shop_reveals(state, observation)
            self.notes.extend(notes)
            return reveals
        item = _read_observation(observation)
        if item is None:
            return []
        self._follow(state)
        core = self._core
        if item.get("event") in FAULT_EVENTS:  # a span of time, read whenever it comes
            core.sensor(item)
            if item["event"] == "fault":
                raise IllegalAction(f"drone sensor fault: {item['sensor']}: {item['reason']}; "
                                    "no call from it until it is cleared: judge by eye")
            return []
        if item["t"] < core.clock:
            raise IllegalAction(f"this {observation['kind']} at t={item['t']} comes after one at "
                                f"t={core.clock}: the referee reads observations in time order")
        self._refuse_out_of_place(item, state)
        core.result = RefereeResult()
        core.history = []
        self._weigh(item, observation.get("mass_g"))
        if "card" in item:
            core.push_position(item)
        else:
            core.push(item)
        actions = core.result.actions
        if core.result.loads and state.deal == "table":
            actions = self._with_present_reveals(state, actions, core.result)
        self.notes.extend(core.result.notes)
        return actions

    def _weigh(self, item: dict, mass_g: Any) -> None:
        """Give a load the mass carried before it; keep the latest mass carried."""
        if not isinstance(mass_g, int | float) or isinstance(mass_g, bool):
            return
        if item.get("event") == "load":
            item["before_g"] = self._mass_g
        self._mass_g = float(mass_g)

    def _with_present_reveals(self, state: State, actions: list[dict],
                              result: RefereeResult) -> list[dict]:
        """``actions`` with, after each load, the reveal of the present loaded when its mass
        names it (a game dealt by hand); what it cannot name goes to the notes."""
        trial, loads, out = state.clone(), iter(result.loads), []
        for index, action in enumerate(actions):
            out.append(action)
            try:
                trial.apply(action)
            except IllegalAction:  # the table flags it; nothing after it is applied
                return out + actions[index + 1:]
            if action["type"] == "load":
                reveal, note = present_reveal(trial, next(loads), self.mass_tolerance_g)
                if reveal is not None:
                    out.append(reveal)
                    trial.apply(reveal)
                if note is not None:
                    result.notes.append(note)
        return out

    def _follow(self, state: State) -> None:
        """Start afresh in a new round; take the challenge as the engine has it now."""
        data = state.data
        if data["round"] != self._round:
            self._round = data["round"]
            clock, faults = self._core.clock, self._core.faults
            self._core = _Core(self.settings, self.with_positions, started=False)
            self._core.clock, self._core.faults = clock, faults
        in_challenge = data["phase"] == "challenge"
        self._core.started = in_challenge
        self._core.state = _engine_view(state) if in_challenge else _Challenge()

    def _refuse_out_of_place(self, item: dict, state: State) -> None:
        button = item.get("button")
        if button in ("start", "foul") and state.data["phase"] != "challenge":
            raise IllegalAction(f"{button} pressed, but no challenge is under way: "
                                f"the game is in its {state.data['phase']} phase")
        if button == "undo" and not self._core.held:
            raise IllegalAction("undo pressed, but the last call is already on the table: "
                                "the referee takes it back with the table's Undo")


def _engine_view(state: State) -> _Challenge:
    """The challenge as the engine's state has it."""
    data = state.data
    here = data["reached"] % SHOP_CARDS in data["loaded"]  # the numbers of the loaded cards
    return _Challenge(data["reached"], len(data["loaded"]), here)


def _read_observation(observation: Mapping[str, Any]) -> dict | None:
    """The referee's input for an observation (None: not for this referee), or IllegalAction."""
    kind = observation.get("kind")
    if kind not in ("drone-event", "drone-position", "button", "drone-clock"):
        return None
    t = observation.get("t")
    if not isinstance(t, int | float) or isinstance(t, bool) or not math.isfinite(t):
        raise IllegalAction(f"a {kind} observation needs a time 't' in seconds, not {t!r}")
    if kind == "drone-event" and observation.get("event") in FAULT_EVENTS:
        sensor = observation.get("sensor")
        if not isinstance(sensor, str) or not sensor:
            raise IllegalAction(f"a drone sensor fault names its sensor, not {sensor!r}")
        return {"t": t, "event": observation["event"], "sensor": sensor,
                "reason": str(observation.get("reason") or "faulty")}
    if kind == "drone-event":
        if observation.get("event") not in EVENTS:
            raise IllegalAction(f"a drone event is one of {', '.join(EVENTS)}, "
                                f"not {observation.get('event')!r}")
        return {"t": t, "event": observation["event"], "mass_g": observation.get("mass_g")}
    if kind == "drone-position":
        card = observation.get("card")
        if type(card) is not int or not 0 <= card <= FULL_CIRCUIT:
            raise IllegalAction(f"a drone position's card is a number 0-9, not {card!r}")
        return {"t": t, "card": card}
    if kind == "button":
        if observation.get("button") not in BUTTONS:
            raise IllegalAction(f"the referee's buttons are {', '.join(BUTTONS)}, "
                                f"not {observation.get('button')!r}")
        return {"t": t, "button": observation["button"]}
    return {"t": t, "event": "clock"}  # moves the clock on; not an event of the challenge


def translate(events: Iterable[dict], positions: Iterable[dict] | None = None,
              buttons: Iterable[dict] = ()) -> RefereeResult:
    """:meth:`PickNPackersReferee.translate` with the default settings."""
    return PickNPackersReferee().translate(events, positions, buttons)


# --------------------------------------------------------------- games dealt by hand
def present_reveal(state: State, load: Mapping[str, Any],
                   tolerance_g: float = PRESENT_MASS_TOLERANCE_G,
                   ) -> tuple[dict | None, dict | None]:
    """The reveal of the present just loaded (``state`` is the game after the load), or None,
    and a note when its mass does not name it.

    The present added ``load["mass_g"] - load["before_g"]``; it is named only when exactly
    one present not yet seen this round weighs that within ``tolerance_g``. Otherwise it
    stays unknown (which present it is changes no ruling and no score) and the note lists
    the candidates, for a person to enter from the picker if they wish.
    """
    data, presents = state.data, state.setup["presents"]
    number = data["loaded"][-1]
    if data["present_cards"][number] is not None:
        return None, None
    mass, before = load.get("mass_g"), load.get("before_g", 0.0)
    if not isinstance(mass, int | float):
        return None, _hand_note(load, "load", f"the load on shop card {number} gave no mass: "
                                f"its present stays unknown")
    added = mass - before
    unseen = [present for present in presents if present not in data["present_cards"]]
    fits = [present for present in unseen
            if abs(presents[present]["mass_g"] - added) <= tolerance_g]
    if len(fits) == 1:
        return {"type": "reveal", "zone": "present", "shop": number, "present": fits[0]}, None
    which = (" or ".join([", ".join(fits[:-1]), fits[-1]]) if len(fits) > 1
             else "no unseen present")
    return None, _hand_note(load, "load", f"the present loaded on shop card {number} weighs "
                            f"{added:.1f} g: {which}; it stays unknown (it changes no score)")


def shop_reveals(state: State, observation: Mapping[str, Any]) -> tuple[list[dict], list[dict]]:
    """The reveals a camera reading of the shop grid makes, and notes on what it ignores.

    ``observation``: ``{"kind": "shop", "cards": [[id or null, ...], ...]}`` (3 rows of 3,
    as :func:`vision.games.pick_n_packers.read_shop` gives them; ``"found": false``
    reads nothing). A card read in an empty cell of the grid is revealed there; a cell
    not read (null: a hand, the drone) waits; a card read where the grid already
    differs, or in two cells at once, is a misread and noted. Once eight cards are known
    the ninth is the last cell's. A seeded game knows its layout: nothing to reveal.
    """
    cards = observation.get("cards")
    if observation.get("found") is False or state.deal != "table" or state.is_over():
        return [], []
    if (not isinstance(cards, list) or len(cards) != SHOP_GRID
            or any(not isinstance(row, list) or len(row) != SHOP_GRID
                   or any(card is not None and not isinstance(card, str) for card in row)
                   for row in cards)):
        raise IllegalAction(f"a shop reading's cards are {SHOP_GRID} rows of {SHOP_GRID} "
                            f"shop card ids or null, not {cards!r}")
    known = [list(row) for row in state.data["shop"]]
    copies = Counter(card for row in cards for card in row if card is not None)
    reveals, notes = [], []
    for row, col in itertools.product(range(SHOP_GRID), repeat=2):
        card = cards[row][col]
        if card is None or known[row][col] == card:
            continue
        problem = _misread(state, known, card, copies[card], row, col)
        if problem is not None:
            notes.append(_hand_note(observation, "shop", problem))
            continue
        known[row][col] = card
        reveals.append(_shop_reveal(row, col, card))
    empty = [(row, col) for row, col in itertools.product(range(SHOP_GRID), repeat=2)
             if known[row][col] is None]
    placed = {card for row in known for card in row}
    unplaced = [card for card in state.setup["shop_cards"] if card not in placed]
    if len(empty) == 1 and len(unplaced) == 1:  # the last card can only lie in the last cell
        reveals.append(_shop_reveal(*empty[0], unplaced[0]))
    return reveals, notes


def _misread(state: State, known: list[list[str | None]], card: str, copies: int,
             row: int, col: int) -> str | None:
    """Why a card read at a cell is not taken (None: it is revealed there)."""
    if card not in state.setup["shop_cards"]:
        return f"{card!r} is not a shop card of this copy: ignored"
    if copies > 1:
        return f"{card} read in {copies} cells at once: ignored"
    if known[row][col] is not None:
        return f"{card} read at {at(row, col)}, where {known[row][col]} lies: a misread, ignored"
    there = next((at(r, c) for r, c in itertools.product(range(SHOP_GRID), repeat=2)
                  if known[r][c] == card), None)
    if there is not None:
        return f"{card} read at {at(row, col)}, but it lies at {there}: a misread, ignored"
    return None


def _shop_reveal(row: int, col: int, card: str) -> dict:
    return {"type": "reveal", "zone": "shop", "row": row, "col": col, "card": card}


def _hand_note(source: Mapping[str, Any], kind: str, reason: str) -> dict:
    return {"t": source.get("t"), "input": kind, "reason": reason}
