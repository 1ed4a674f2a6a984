"""A whole hand-dealt Pick 'n Packers game from a drone board over a serial cable (a socat pty).

The board (``devkit.hardware.drone_game.PtyBoard``) streams a composed game — one
simulated challenge per round, the drone resting and cleared between rounds — in the
firmware's wire format (HELLO, 100 Hz IMU frames, 80 Hz HX711 frames, COBS + CRC) at
three times real time; the station's drone source reads the host's end of the cable
as it would a real board, with the camera's positions and the referee's buttons, and
hands its items to a station table. Every drone event must reach the referee in
stream time order, nothing may be flagged, and the record (each round's reach and
ending) and the scores must be the game's truth. The delay of each landing's ruling
(from the touch-down the detector reports to the moment the referee applied it, in
stream time) is printed, not asserted: ``benchmarks/drone_stream.py --rulings``
measures it.
"""

from __future__ import annotations

import numpy as np
import pytest

from devkit.hardware.drone_game import (
    DroneGame,
    PtyBoard,
    compose_game,
    referee_a_game,
    rulebook_scores,
)
from devkit.hardware.fixtures import CALIBRATION
from station.live.drone import DroneSource, RecordedButtons
from station.live.hub import Hub
from station.live.station import Station
from station.store import Database, EventStore, FixedClock

PLAYERS = ["Ana", "Ben", "Cas"]
PACE = 3.0  # stream seconds per second of the test's clock
ORDERED = ("drone-event", "drone-position", "button", "drone-clock")


def play_over_the_cable(station: Station, game: DroneGame, board_end: str, host_end: str
                        ) -> tuple[list[dict], list[tuple[float, float]]]:
    """Stream ``game`` to table t1 over the cable; the observations handed on, and each
    landing's (``t``, ruling delay: stream seconds from its ``t`` to the referee's call)."""
    with PtyBoard(game.samples, CALIBRATION, board_end, pace=PACE) as board:
        source = DroneSource(host_end, positions=game.positions,
                             buttons=RecordedButtons(game.presses), calibration=CALIBRATION,
                             stop=board.done)
        return referee_a_game(station, "t1", game, source, board.stream_time)


@pytest.mark.parametrize("seed", [1])
def test_a_whole_game_over_a_pty_is_refereed_right_and_in_time_order(
        database: Database, pty_pair: tuple[str, str], seed: int) -> None:
    game = compose_game(seed, rounds=len(PLAYERS))
    station = Station(EventStore(database, FixedClock()), Hub())
    station.create_table("Drone table", "t1")
    station.start_game("t1", "pick-n-packers", PLAYERS, seed=1, options=None,
                       author="organiser", deal="table")
    handed, delays = play_over_the_cable(station, game, *pty_pair)

    stream = [o for o in handed if o.get("kind") in ORDERED]
    times = [o["t"] for o in stream]
    assert times == sorted(times)  # one time order, as the referee reads it
    snapshot = station.snapshot("t1")
    assert snapshot["flags"] == [] and snapshot["problems"] == []
    # Every drone event of the game was found, once, and near its true time.
    events = [o for o in stream if o["kind"] == "drone-event"]
    truth = sorted(game.truth, key=lambda event: event["t"])
    assert [e["event"] for e in events] == [event["event"] for event in truth]
    assert all(abs(e["t"] - event["t"]) < 0.3 for e, event in zip(events, truth, strict=True))
    # The record and the scores are the game's.
    state = snapshot["game"]["state"]
    results = state["results"]
    assert [(r["reached"], r["ending"]) for r in results] == [
        (played.reached, played.ending) for played in game.rounds]
    pilots = [tuple(r["pilots"]) for r in results]
    speculators = [next(iter(r["speculations"])) for r in results]
    assert [r["speculations"][who] for r, who in zip(results, speculators, strict=True)] == [
        played.speculation for played in game.rounds]
    expected = rulebook_scores(PLAYERS, pilots, speculators, game.rounds)
    assert {s["player"]: s["total"] for s in snapshot["game"]["scores"]} == expected
    seconds = [delay for _, delay in delays]
    print(f"\n{len(delays)} landings ruled, stream seconds after the touch-down: "
          f"{', '.join(f'{t:.2f}: {delay:.2f}' for t, delay in delays)}"
          f" (p50 {np.median(seconds):.2f}, max {max(seconds):.2f})")
