"""Public events of a long-played table: ``Station.public_events`` after a cursor.

A table on a fresh SQLite file plays ``--games`` games of Pick 'n Packers of
``--events`` events each (the ``game`` event, then flags carrying a face-down
speculation, stored through the real store one game per transaction). The table's
live view is loaded first; then each page (``after``, ``limit``) is asked for
``--repeats`` times and the median CPU time printed (``time.process_time``: SQLite
runs in this process), in milliseconds and relative to the CPU time of the fixed
reference workload (``benchmarks/reference.py``) timed in the same run.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/public_events.py [--games 200] [--events 100]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from reference import reference_line, reference_seconds

from station.live.hub import Hub
from station.live.station import Station
from station.live.table import LiveTable
from station.store import EventStore, FixedClock, open_database

TABLE = "long"
PAGE = 50
FACE_DOWN = {"action": {"type": "speculate", "card": 4}, "reason": "benchmark"}


def build(station: Station, games: int, events: int) -> None:
    """``games`` games of ``events`` events each at table ``TABLE``."""
    station.create_table("Long table", TABLE)
    start = LiveTable(station.table(TABLE).info).plan_game(
        "pick-n-packers", ["Ana", "Ben", "Cas"], 1, None)
    for _ in range(games):
        station.store.append(TABLE, start + [("flag", FACE_DOWN)] * (events - 1), "bench")


def pages(games: int, events: int) -> dict[str, tuple[int, int | None]]:
    """The pages timed: name -> (after, limit)."""
    last = games * events
    current = last - events + 1  # the current game's ``game`` event
    return {"in the current game": (last - 10, None),
            "from just before the current game": (current - 2, None),
            f"{PAGE} events mid-history": (last // 2, PAGE),
            f"{PAGE} events near the start": (events // 2, PAGE),
            "the whole record": (0, None)}


def median_ms(station: Station, after: int, limit: int | None, repeats: int) -> float:
    timings = []
    for _ in range(repeats):
        started = time.process_time()
        station.public_events(TABLE, after, limit)
        timings.append(time.process_time() - started)
    return statistics.median(timings) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--events", type=int, default=100, help="events per game")
    parser.add_argument("--repeats", type=int, default=7)
    arguments = parser.parse_args()
    print(reference_line())
    with tempfile.TemporaryDirectory() as folder:
        database = open_database(f"sqlite:///{Path(folder) / 'station.sqlite3'}")
        station = Station(EventStore(database, FixedClock()), Hub())
        build(station, arguments.games, arguments.events)
        station.forget(TABLE)  # written past the live view: load it as a running station has
        station.table(TABLE)
        print(f"{arguments.games * arguments.events} events over {arguments.games} games; "
              f"median CPU of {arguments.repeats} calls")
        print(f"{'page':<36} {'after':>6} {'limit':>5} {'ms':>9} {'ref':>7}")
        for name, (after, limit) in pages(arguments.games, arguments.events).items():
            ms = median_ms(station, after, limit, arguments.repeats)
            print(f"{name:<36} {after:>6} {limit or '-':>5} {ms:>9.2f} "
                  f"{ms / 1000 / reference_seconds():>7.4f}")
        database.close()


if __name__ == "__main__":
    main()
