"""A table's snapshots paced (station/live/pacing.py): the first write after a quiet spell
is sent at once, those within the interval after it go in one trailing send of the newest
state, nothing is lost and the order stays."""

from __future__ import annotations

import asyncio
import json
import threading
import time

from station.api.live import _forward
from station.live.hub import Hub
from station.live.station import Station
from station.store import Database, EventStore, FixedClock
from tests.station.live.test_station import declared

WRITES = 5


def paced_station(database: Database, toy_game: str, interval: float) -> Station:
    station = Station(EventStore(database, FixedClock()), Hub(), snapshot_interval=interval)
    station.create_table("Table 1", "t1")
    station.start_game("t1", toy_game, ["Ana", "Ben"], seed=0, options=None, author="organiser")
    return station


def snapshots_sent(station: Station) -> list[int]:
    """The seq of each snapshot of t1 sent from now on (a hub watcher sees each publish)."""
    seqs: list[int] = []
    station.hub.watch("table:t1", lambda _channel, message: seqs.append(json.loads(message)["seq"]))
    return seqs


def wait_for(condition: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the trailing snapshot was never sent"
        time.sleep(0.01)


def test_a_write_after_a_quiet_interval_is_sent_at_once(database: Database,
                                                         toy_game: str) -> None:
    station = paced_station(database, toy_game, interval=0.2)
    sent = snapshots_sent(station)
    time.sleep(0.3)  # the interval since the game's snapshot has passed
    station.observe("t1", declared(1), "button", "camera")
    assert sent == [3]  # sent by the writer, before its write returned
    time.sleep(0.3)
    station.observe("t1", declared(2), "button", "camera")
    assert sent == [3, 5]


def test_writes_within_the_interval_go_in_one_trailing_send_of_the_newest_state(
        database: Database, toy_game: str) -> None:
    station = paced_station(database, toy_game, interval=0.5)
    sent = snapshots_sent(station)
    for _ in range(WRITES):  # within 0.5 s of the game's own snapshot
        station.observe("t1", declared(1), "button", "camera")
    last = 1 + 2 * WRITES
    wait_for(lambda: sent and sent[-1] == last)
    assert len(sent) < WRITES  # folded: not one a write
    assert sent == sorted(set(sent))  # in order, none twice
    time.sleep(0.6)
    assert sent[-1] == last and not any(thread.name == "packref-snapshots"
                                        for thread in threading.enumerate())


def test_listeners_follow_the_paced_sends(database: Database, toy_game: str) -> None:
    station = paced_station(database, toy_game, interval=0.5)
    seen: list[int] = []
    station.listeners.append(lambda live: seen.append(live.last_seq))
    for _ in range(WRITES):
        station.observe("t1", declared(1), "button", "camera")
    wait_for(lambda: seen and seen[-1] == 1 + 2 * WRITES)
    assert len(seen) < WRITES


def test_without_an_interval_every_write_is_sent_by_its_writer(database: Database,
                                                                toy_game: str) -> None:
    station = paced_station(database, toy_game, interval=0.0)
    sent = snapshots_sent(station)
    for _ in range(3):
        station.observe("t1", declared(1), "button", "camera")
    assert sent == [3, 5, 7]


class Socket:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, text: str) -> None:
        self.texts.append(text)


def snapshot_message(seq: int, stored_at: float) -> str:
    return json.dumps({"type": "snapshot", "stored_at": stored_at, "seq": seq,
                       "snapshot": {"seq": seq}})


def test_a_socket_is_not_sent_again_the_state_it_has() -> None:
    """A paced send of writes made before the socket opened shows what its first message
    showed: it is skipped; a newer state and other messages go."""
    advice = json.dumps({"type": "advice", "table": "t1"})
    queued = [snapshot_message(3, 2.0), snapshot_message(5, 3.0), advice,
              snapshot_message(7, 4.0)]

    async def forward() -> list[str]:
        queue: asyncio.Queue[str] = asyncio.Queue()
        for message in queued:
            queue.put_nowait(message)
        socket = Socket()
        first = snapshot_message(3, 1.0)
        task = asyncio.create_task(_forward(socket, queue,  # type: ignore[arg-type]
                                            first[first.find('"seq"'):]))
        while not queue.empty():
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        task.cancel()
        return socket.texts

    assert asyncio.run(forward()) == queued[1:]
