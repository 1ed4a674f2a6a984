"""Recordings and the feeder that hands a source's items to a table at their pace."""

from __future__ import annotations

import asyncio
from pathlib import Path

from station.demo.recordings import record_random_game
from station.live.hub import Hub
from station.live.sources import Recording, Timed, feed
from station.live.station import Station
from station.store import EventStore, FixedClock, open_database


def test_a_recording_survives_its_file_round_trip(tmp_path: Path, toy_game: str) -> None:
    recording = record_random_game(toy_game, seed=5)
    assert recording.items and recording.final_scores is not None
    recording.write(tmp_path / "race.jsonl")
    assert Recording.read(tmp_path / "race.jsonl") == recording


def test_the_feeder_keeps_the_recorded_pace_and_runs_referee_steps(tmp_path: Path,
                                                                   toy_game: str) -> None:
    station = Station(EventStore(open_database(f"sqlite:///{tmp_path / 's.db'}"), FixedClock()))
    station.create_table("T", "t")
    station.start_game("t", toy_game, ["Ana", "Ben"], seed=0, options=None, author="o")
    items = [Timed(2.0, {"kind": "declared", "action": {"type": "add", "n": 2}}),
             Timed(4.0, {"kind": "declared", "action": {"type": "add", "n": 9}}),
             Timed(5.0, None, "referee", "accept")]
    waits: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        waits.append(seconds)

    assert asyncio.run(feed(station, "t", items, "demo", speed=2.0, sleep=fake_sleep)) == 3
    assert [round(wait, 1) for wait in waits] == [1.0, 2.0, 2.5]  # nothing really slept
    kinds = [e.kind for e in station.store.events("t")]
    assert kinds == ["game", "observation", "action", "observation", "flag", "accept"]


def test_a_slow_client_loses_old_updates_never_the_newest() -> None:
    async def scenario() -> list[str]:
        hub = Hub()
        hub.attach(asyncio.get_running_loop())
        queue = hub.subscribe("table:t")
        for index in range(20):
            hub.publish("table:t", str(index))
        return [queue.get_nowait() for _ in range(queue.qsize())]

    received = asyncio.run(scenario())
    assert received[-1] == "19" and len(received) == 8


def test_a_slow_client_is_sent_the_newest_snapshot_not_a_backlog() -> None:
    """Snapshots published as the latest of their kind replace the one still waiting, so a
    client that fell behind gets the newest at once; other kinds (advice) keep theirs."""
    async def scenario() -> list[str]:
        hub = Hub()
        hub.attach(asyncio.get_running_loop())
        slow, other = hub.subscribe("table:t"), hub.subscribe("table:t")
        for index in range(20):
            hub.publish("table:t", f"snapshot {index}", latest="snapshot")
            if index == 10:
                hub.publish("table:t", "advice 10", latest="advice")
            if index < 5:
                assert await other.get() == f"snapshot {index}"  # this one keeps up
        return [slow.get_nowait() for _ in range(slow.qsize())]

    assert asyncio.run(scenario()) == ["advice 10", "snapshot 19"]
