"""The demo: recorded games replayed through the real live loop, table after table.

Each recording gets a table (``demo-<game>``); a pass starts a new game there
with the recording's setup and feeds its items at their recorded pace through
translators, engine, store and broadcast, exactly like live hardware. Passes
repeat until stopped, or once with ``once=True``.

A recording with a ``stream(stop)`` method (a camera replay,
:class:`station.demo.camera_fixtures.CameraRecording`) makes its items as it
plays — frames rendered and read by the camera source — so it is fed from a
thread of its own, paced the same way.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Iterable, Sequence

from station.games import game_record
from station.live.sources import Recording, Timed, demo_table_id, feed, hand_on, items_of
from station.live.station import Station, UnknownTable

DEMO_AUTHOR = "demo"


def prepare_tables(station: Station, recordings: Sequence[Recording]) -> list[str]:
    """Create the demo tables that do not exist yet; returns their ids."""
    ids = []
    for recording in recordings:
        table_id = demo_table_id(recording)
        try:
            station.table(table_id)
        except UnknownTable:
            station.create_table(f"Demo: {game_title(recording.game)}", table_id)
        ids.append(table_id)
    return ids


def game_title(game: str) -> str:
    """The game's name as people write it ("Moving Day"), not its engine's (``moving-day``)."""
    record = game_record(game)
    return record.title if record is not None else game


async def play_recording(station: Station, recording: Recording, speed: float = 1.0,
                         once: bool = False, pause: float = 5.0) -> int:
    """Replay ``recording`` at its table, again and again (or once); returns games played."""
    table_id = demo_table_id(recording)
    played = 0
    while True:
        await asyncio.to_thread(station.start_game, table_id, recording.game,
                                recording.players, recording.seed, recording.options,
                                DEMO_AUTHOR)
        if hasattr(recording, "stream"):
            await _feed_stream(station, table_id, recording, speed)
        else:
            await feed(station, table_id, items_of(recording), DEMO_AUTHOR, speed=speed)
        played += 1
        if once:
            return played
        await asyncio.sleep(pause / speed)


def pace(station: Station, table_id: str, items: Iterable[Timed], speed: float,
         stop: threading.Event, author: str = DEMO_AUTHOR) -> int:
    """Hand each item on at ``t / speed`` seconds from the start (blocking); returns how many."""
    started = time.monotonic()
    count = 0
    for item in items:
        delay = item.t / speed - (time.monotonic() - started)
        if stop.is_set() or (delay > 0 and stop.wait(delay)):
            break
        hand_on(station, table_id, item, author)
        count += 1
    return count


async def _feed_stream(station: Station, table_id: str, recording: Recording,
                       speed: float) -> int:
    """Feed a recording that makes its items as it plays, from a thread; stopped if cancelled."""
    stop = threading.Event()
    note = getattr(recording, "progress_note", None)
    if callable(note) and (text := note()):
        print(f"packref: {table_id}: {text}", file=sys.stderr)
    try:
        stream = recording.stream  # type: ignore[attr-defined]
        return await asyncio.to_thread(lambda: pace(station, table_id, stream(stop), speed, stop))
    finally:
        stop.set()


async def run_demo(station: Station, recordings: Sequence[Recording], speed: float = 1.0,
                   once: bool = False) -> int:
    """Play every recording at its own table at the same time; returns games played."""
    prepare_tables(station, recordings)
    results = await asyncio.gather(
        *(play_recording(station, recording, speed, once) for recording in recordings))
    return sum(results)
