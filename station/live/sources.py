"""Sources of observations, and the loop that feeds them to a table.

A source is any iterable of :class:`Timed` items for one table: a camera
reader, the drone's serial link, or a replay of a recording. ``t`` is seconds
from the source's start; the feeder waits until then (divided by ``speed``)
before handing each item on, so a replay runs at the pace it was recorded.

An item carries either an ``observation`` (a plain dict, which goes through the
table's translator) or a ``referee`` step (``"accept"``: accept the last open
flag; ``"undo"``), which recordings use to show a referee at work.

Recordings are JSON Lines files: a first line describing the game
(``{"recording": 1, "game": ..., "players": [...], "seed": ..., "options": {}}``)
then one item per line (``{"t": 1.5, "source": "declared", "observation": {...}}``).
The first line may also hold ``final_scores``: each player's total when the
game was recorded, which a replay through today's engine should reproduce.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from station.live.station import Station
from station.live.table import TableRefusal

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class Timed:
    """One item of a source: an observation or a referee step, at ``t`` seconds."""

    t: float
    observation: dict[str, Any] | None = None
    source: str = "replay"
    referee: str | None = None

    def to_json(self) -> dict[str, Any]:
        item: dict[str, Any] = {"t": round(self.t, 3), "source": self.source}
        if self.observation is not None:
            item["observation"] = self.observation
        if self.referee is not None:
            item["referee"] = self.referee
        return item


@dataclass
class Recording:
    """A recorded game at one table: how it was set up, then its timed items."""

    game: str
    players: list[str]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    items: list[Timed] = field(default_factory=list)
    final_scores: dict[str, int] | None = None  # what the engine scored when it was recorded

    def header(self) -> dict[str, Any]:
        head = {"recording": 1, "game": self.game, "players": self.players,
                "seed": self.seed, "options": self.options}
        if self.final_scores is not None:
            head["final_scores"] = self.final_scores
        return head

    def write(self, path: Path) -> None:
        lines = [self.header(), *(item.to_json() for item in self.items)]
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")

    @classmethod
    def read(cls, path: Path) -> Recording:
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                 if line.strip()]
        if not lines or lines[0].get("recording") != 1:
            raise ValueError(f"{path}: not a packref recording")
        head = lines[0]
        items = [Timed(float(line["t"]), line.get("observation"), line.get("source", "replay"),
                       line.get("referee")) for line in lines[1:]]
        return cls(head["game"], list(head["players"]), int(head["seed"]),
                   dict(head.get("options") or {}), items, head.get("final_scores"))


async def feed(station: Station, table_id: str, items: Iterable[Timed], author: str,
               speed: float = 1.0, sleep: Sleep = asyncio.sleep) -> int:
    """Hand each item to the table at its time; returns how many were fed."""
    started = time.monotonic()
    count = 0
    for item in items:
        delay = item.t / speed - (time.monotonic() - started)
        if delay > 0:
            await sleep(delay)
        await asyncio.to_thread(hand_on, station, table_id, item, author)
        count += 1
    return count


def demo_table_id(recording: Recording) -> str:
    """The table a recording plays at in the demo (one per game: ``demo-GAME``)."""
    return f"demo-{recording.game}"


def hand_on(station: Station, table_id: str, item: Timed, author: str) -> None:
    """Give one item to the table: its observation, then its referee step.

    An item with both an observation and the step ``"undo"`` is a press of an undo
    button: when the table's translator still holds inputs back (a landing not
    decided yet), the observation goes to it, and it takes back the held call;
    otherwise the table's own Undo takes back the last applied action.
    """
    if item.referee == "undo" and item.observation is not None:
        if getattr(station.table(table_id).translator, "holds_back", False):
            station.observe(table_id, item.observation, item.source, author)
        elif station.table(table_id).current is not None:
            with contextlib.suppress(TableRefusal):  # nothing to undo: nothing happens
                station.undo(table_id, author)
        return
    if item.observation is not None:
        station.observe(table_id, item.observation, item.source, author)
    if item.referee == "accept":
        flags = station.table(table_id).flags
        if flags:
            station.accept(table_id, max(flags), author)
    elif item.referee == "undo":
        station.undo(table_id, author)


def items_of(recording: Recording) -> Iterator[Timed]:
    """The items of a recording, in time order."""
    return iter(sorted(recording.items, key=lambda item: item.t))
