"""Scoring detected events against the truth of a simulated or annotated run.

Example::

    >>> score = match_events([{"t": 1.0, "event": "load", "mass_g": 5.0}],
    ...                      [{"t": 1.04, "event": "load", "mass_g": 5.1}])
    >>> score.recall("load"), score.false_events("load")
    (1.0, 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from hardware.events import EVENT_TYPES

MATCH_WINDOW_S = 0.5


@dataclass
class EventScore:
    """Matches between truth and detections, per event type."""

    truth: dict[str, int] = field(default_factory=lambda: dict.fromkeys(EVENT_TYPES, 0))
    found: dict[str, int] = field(default_factory=lambda: dict.fromkeys(EVENT_TYPES, 0))
    false: dict[str, int] = field(default_factory=lambda: dict.fromkeys(EVENT_TYPES, 0))
    time_errors: dict[str, list[float]] = field(
        default_factory=lambda: {kind: [] for kind in EVENT_TYPES})
    mass_errors: list[float] = field(default_factory=list)

    def __repr__(self) -> str:
        parts = ", ".join(f"{kind} {self.found[kind]}/{self.truth[kind]}+{self.false[kind]}"
                          for kind in EVENT_TYPES)
        return f"<EventScore {parts}>"

    def recall(self, kind: str) -> float:
        return self.found[kind] / self.truth[kind] if self.truth[kind] else 1.0

    def false_events(self, kind: str) -> int:
        return self.false[kind]

    def add(self, other: EventScore) -> None:
        """Add another run's counts to these."""
        for kind in EVENT_TYPES:
            self.truth[kind] += other.truth[kind]
            self.found[kind] += other.found[kind]
            self.false[kind] += other.false[kind]
            self.time_errors[kind].extend(other.time_errors[kind])
        self.mass_errors.extend(other.mass_errors)


def match_events(truth: Iterable[dict], detected: Iterable[dict]) -> EventScore:
    """Pair each true event with the nearest unused detection of its type within 0.5 s."""
    score = EventScore()
    detected = [event for event in detected if event["event"] in EVENT_TYPES]  # not faults
    used = [False] * len(detected)
    for true in truth:
        kind = true["event"]
        score.truth[kind] += 1
        best = None
        for index, candidate in enumerate(detected):
            if used[index] or candidate["event"] != kind:
                continue
            gap = abs(candidate["t"] - true["t"])
            if gap > MATCH_WINDOW_S:
                continue
            if best is None or gap < abs(detected[best]["t"] - true["t"]):
                best = index
        if best is None:
            continue
        used[best] = True
        score.found[kind] += 1
        score.time_errors[kind].append(abs(detected[best]["t"] - true["t"]))
        score.mass_errors.append(abs(detected[best]["mass_g"] - true["mass_g"]))
    for index, candidate in enumerate(detected):
        if not used[index]:
            score.false[candidate["event"]] += 1
    return score
