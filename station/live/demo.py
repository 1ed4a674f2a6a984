"""The demo: recorded games replayed through the real live loop, table after table.

Each recording gets a table (``demo-<game>``); a pass starts a new game there
with the recording's setup and feeds its items at their recorded pace through
translators, engine, store and broadcast, exactly like live hardware. Passes
repeat until stopped, or once with ``once=True``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from station.live.sources import Recording, feed, items_of
from station.live.station import Station, UnknownTable

DEMO_AUTHOR = "demo"


def demo_table_id(recording: Recording) -> str:
    return f"demo-{recording.game}"


def prepare_tables(station: Station, recordings: Sequence[Recording]) -> list[str]:
    """Create the demo tables that do not exist yet; returns their ids."""
    ids = []
    for recording in recordings:
        table_id = demo_table_id(recording)
        try:
            station.table(table_id)
        except UnknownTable:
            station.create_table(f"Demo: {recording.game}", table_id)
        ids.append(table_id)
    return ids


async def play_recording(station: Station, recording: Recording, speed: float = 1.0,
                         once: bool = False, pause: float = 5.0) -> int:
    """Replay ``recording`` at its table, again and again (or once); returns games played."""
    table_id = demo_table_id(recording)
    played = 0
    while True:
        await asyncio.to_thread(station.start_game, table_id, recording.game,
                                recording.players, recording.seed, recording.options,
                                DEMO_AUTHOR)
        await feed(station, table_id, items_of(recording), DEMO_AUTHOR, speed=speed)
        played += 1
        if once:
            return played
        await asyncio.sleep(pause / speed)


async def run_demo(station: Station, recordings: Sequence[Recording], speed: float = 1.0,
                   once: bool = False) -> int:
    """Play every recording at its own table at the same time; returns games played."""
    prepare_tables(station, recordings)
    results = await asyncio.gather(
        *(play_recording(station, recording, speed, once) for recording in recordings))
    return sum(results)
