"""The station's live drone path over a whole evening: CPU per second of stream, and memory.

Run: .venv/bin/python benchmarks/drone_stream.py [--minutes 120] [--held] [--seed 900000]
     .venv/bin/python benchmarks/drone_stream.py --rulings 16 --games 4 --seed 800000
     (or .venv/bin/python benchmarks/drone.py --stream ...)

A board stream is generated on the fly, as the firmware frames it (HELLO, a
STATUS every second, 200 Hz IMU frames, 80 Hz HX711 frames, COBS + CRC, the
board's microsecond clock wrapping at 2³² µs, i.e. after 71.6 minutes): simulated
Pick 'n Packers challenges (``hardware/simulate.py``, one board's IMU offsets)
one after the other, with the drone resting between them at the simulator's own
sensor noise while a hand takes the presents off, as at a table (:func:`cleared_rest`).
``--held`` makes the board repeat its latest HX711 reading on every IMU row instead
(docs/drone-board.md).

The stream goes through the station's real live path — a ``loop://`` serial
link, :class:`hardware.stream.DroneStream` (frames, sample assembly, live
detector) and the table's :class:`station.live.drone.DroneSource` — written
``--step`` seconds of stream per read, as fast as the machine reads it (not in
real time). Per ten minutes of stream (``--segment-minutes``) it prints the
station's CPU time (the board's own work of generating and framing is left out)
per second of stream, the process's resident memory at the end of those minutes
and how many drone events the source handed on late (after a later item:
re-stamped to that item's time); then the first and last segments side by side.
Every time is CPU time (``time.process_time``), and the fixed reference workload
(``benchmarks/reference.py``) is timed in the same run: CPU per second of stream
is printed relative to it too.

``--rulings COUNT`` instead plays COUNT challenges through the same path with a
camera position every 0.25 s and prints how soon after each landing the referee
can rule it (an item past the landing's 0.5 s fall window handed on after it);
``--games COUNT`` then plays COUNT whole hand-dealt games through the same path
into station tables and prints how soon after each landing the table's referee
took it in.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from reference import reference_line, reference_seconds

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout first: devkit/,
# and vision/ (a station table imports it; benchmarks/vision.py would shadow it)

from devkit.hardware.drone_game import compose_game, referee_a_game
from devkit.hardware.fixtures import CALIBRATION
from firmware import frames
from hardware.capture import GRAVITY
from hardware.link import DroneLink
from hardware.paced import BoardLink, PacedBoard
from hardware.samples import Samples
from hardware.simulate import SimulationOptions, simulate_challenge
from station.live.drone import DroneSource, RecordedButtons
from station.live.hub import Hub
from station.live.station import Station
from station.store import EventStore, FixedClock
from station.store.database import open_database

IMU_HZ = 200.0
LOAD_HZ = 80.0
SEGMENT_MINUTES = 10.0  # minutes of stream per line, by default
REST_S = (5.0, 40.0)  # the still drone between two challenges
CLEAR_AFTER_S = (1.0, 2.5)  # a hand comes to take the presents off this long into the rest
CLEAR_TOUCH_S = (0.6, 1.2)  # ...touches the drone this long
CLEAR_SHIVER = (0.1, 0.8)  # m/s²: its tremor in the platform (the simulator's placing hand's)
CLEAR_LEAN_DEG = 0.5  # ...and how far it leans the platform on its feet, at most
CLEAR_CONTACT_G = (1.0, 5.0)  # ...and presses on the stack as it takes hold
LOAD_NOISE_G = 0.04  # the HX711's noise at rest (the simulator draws 0.02-0.06 g)
ACCEL_LSB, GYRO_LSB = 8192, 65.5
GAME_PLAYERS = ["Ana", "Ben", "Cas"]


class EveningBoard:
    """A board that plays challenges for ``seconds`` of stream, framed on the fly.

    Its frames are written to the host's port ``step_s`` of stream at a time, before
    each poll of the host's link (:meth:`link`); :attr:`written` is the stream time
    carried so far (also the host's clock), :attr:`own_cpu_s` the CPU time the board
    spent making its frames.
    """

    def __init__(self, seconds: float, seed: int, *, step_s: float, held: bool) -> None:
        self.seconds, self.step_s, self.held = seconds, step_s, held
        self.written = 0.0
        self.own_cpu_s = 0.0
        self.done = False
        self.before_write: Callable[[], None] | None = None
        self._pieces = self._samples(seed)
        self._pending: list[tuple[float, bytes]] = [(0.0, frames.encode_frame(
            frames.HELLO, 0, 0, frames.pack_hello("bench", 1, int(IMU_HZ), ACCEL_LSB,
                                                  round(GYRO_LSB * 10), b"evening!")))]
        self._seq = 1
        self._last_counts = int(CALIBRATION.tare_counts)
        self._next_load = 0.0
        self._next_status = 1.0

    def monotonic(self) -> float:
        return self.written

    def link(self) -> DroneLink:
        return BoardLink(self)

    def write_next(self, port) -> None:
        if self.before_write is not None:
            self.before_write()
        started = time.process_time()
        self.written += self.step_s
        while (not self._pending or self._pending[-1][0] <= self.written) and not self.done:
            self._frame_next_piece()
        due = [data for at, data in self._pending if at <= self.written]
        self._pending = self._pending[len(due):]
        if due:
            port.write(b"".join(due))
        self.own_cpu_s += time.process_time() - started

    # -- the stream ----------------------------------------------------------------------
    def _samples(self, seed: int) -> Iterator[Samples]:
        """Challenges, each after a rest, in one clock, at one board's IMU offsets."""
        rng = np.random.default_rng(seed)
        offset, reference, carried = 0.0, None, 0.0
        options = SimulationOptions(rate_hz=IMU_HZ, lost_fraction=0.0, lost_bursts=0)
        while True:
            run = simulate_challenge(seed, options)
            columns = run.samples.columns()
            seed += 1
            medians = np.array([np.median(column[:20]) for column in columns[1:]])
            reference = medians.copy() if reference is None else reference
            rest = float(rng.uniform(*REST_S))
            yield cleared_rest(offset, rest, carried, reference, rng)
            imu = [column - shift for column, shift in zip(columns[2:], medians[1:] - reference[1:],
                                                           strict=True)]
            offset += rest
            # One load cell: the challenge starts at the zero the last one ended at (its
            # zero drifts on; a zero set back at each rest came back as a step in the mass).
            force = columns[1] - medians[0] + reference[0]
            yield Samples(columns[0] + offset, force, *imu)
            carried = run.truth[-1]["mass_g"] if run.truth else 0.0  # presents left on it
            reference[0] = float(np.median(force[-20:])) - carried
            offset += float(columns[0][-1]) + 1.0 / IMU_HZ

    def _frame_next_piece(self) -> None:
        piece = next(self._pieces)
        if piece.t[0] >= self.seconds:
            self.done = True
            return
        accel = np.round(np.vstack([piece.ax, piece.ay, piece.az]) / GRAVITY * ACCEL_LSB)
        gyro = np.round(np.vstack([piece.gx, piece.gy, piece.gz]) * GYRO_LSB)
        raw = np.clip(np.vstack([accel, gyro]), -32768, 32767).astype(int).T.tolist()
        counts = CALIBRATION.counts(piece.force_g).tolist()
        for at, row, reading in zip(piece.t.tolist(), raw, counts, strict=True):
            self._frame_row(at, row, int(reading))

    def _frame_row(self, at: float, imu: list[int], reading: int) -> None:
        board_us = round(at * 1e6) & 0xFFFFFFFF
        if at >= self._next_status:
            self._add(at, frames.STATUS, board_us, frames.pack_status(0, True, True, int(IMU_HZ)))
            self._next_status += 1.0
        if at >= self._next_load:  # the HX711 has converted
            self._last_counts = reading
            self._next_load += 1.0 / LOAD_HZ
            self._add(at, frames.SAMPLE_LOAD, board_us, frames.pack_load(reading))
        elif self.held:
            self._add(at, frames.SAMPLE_LOAD, board_us, frames.pack_load(self._last_counts))
        self._add(at, frames.SAMPLE_IMU, board_us, frames.pack_imu(*imu))

    def _add(self, at: float, kind: int, board_us: int, payload: bytes) -> None:
        self._pending.append((at, frames.encode_frame(kind, self._seq, board_us, payload)))
        self._seq = (self._seq + 1) & 0xFFFF


def cleared_rest(start: float, seconds: float, carried: float, reference: np.ndarray,
                 rng: np.random.Generator) -> Samples:
    """The drone resting from ``start`` for ``seconds`` at ``reference`` (force, then the
    IMU's six axes at rest), at the simulator's own sensor noise, while a hand takes off
    the ``carried`` grams left on it: the hand presses a little as it takes hold, lifts
    the presents off over 0.3 s, and shakes the platform as a placing hand does.

    Before, the rest was three times quieter than the challenges' gyro (windows that
    measured their zero on it read the challenges' resting noise as a hand's tremor) and
    the presents left in one sample, with no hand: no table does either."""
    t = np.arange(0.0, seconds, 1.0 / IMU_HZ)
    noise = (LOAD_NOISE_G, *[SimulationOptions.accel_noise] * 3,
             *[SimulationOptions.gyro_noise] * 3)
    columns = [reference[index] + rng.normal(0.0, noise[index], len(t)) for index in range(7)]
    if carried > 0.5:
        touch = float(rng.uniform(*CLEAR_AFTER_S))
        touching = float(rng.uniform(*CLEAR_TOUCH_S))
        phase = np.clip((t - touch) / touching, 0.0, 1.0)
        hand = np.sin(np.pi * phase) ** 0.5  # on quickly, off quickly
        lifted = 0.5 - 0.5 * np.cos(np.pi * np.clip((t - touch - 0.4 * touching) / 0.3, 0, 1))
        columns[0] += carried * (1.0 - lifted) + float(rng.uniform(*CLEAR_CONTACT_G)) * hand
        shiver = float(rng.uniform(*CLEAR_SHIVER))
        for axis, share in ((1, 0.3), (2, 0.3), (3, 1.0)):
            hertz, phase_0 = float(rng.uniform(6.0, 12.0)), float(rng.uniform(0, 2 * np.pi))
            columns[axis] += share * shiver * hand * np.sin(2 * np.pi * hertz * t + phase_0)
        lean = np.radians(float(rng.uniform(-1, 1)) * CLEAR_LEAN_DEG) * hand
        columns[1] -= GRAVITY * np.sin(lean)
        columns[5] += np.degrees(np.gradient(lean, t))  # turning about y leans x
    return Samples(start + t, *columns)


def resident_mb() -> float:
    """This process's resident memory now, in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run(minutes: float, seed: int, step_s: float, held: bool, reference: float,
        segment_s: float = SEGMENT_MINUTES * 60) -> list[dict]:
    """Play the evening, printing a line per ``segment_s`` of stream; those lines' figures."""
    board = EveningBoard(minutes * 60, seed, step_s=step_s, held=held)
    stop = threading.Event()
    source = DroneSource("loop://", calibration=CALIBRATION, link=board.link(),
                         monotonic=board.monotonic, stop=stop)
    segments: list[dict] = []
    events = 0
    marks = {"cpu": time.process_time(), "board": 0.0, "end": segment_s}

    def at_each_read() -> None:  # before the board writes: the station's work so far
        if board.written < marks["end"] and board.written < board.seconds:
            return
        now = time.process_time()
        begun = marks["end"] - segment_s
        segments.append({"minutes": begun / 60,
                         "cpu_s": (now - marks["cpu"]) - (board.own_cpu_s - marks["board"]),
                         "stream_s": min(board.written, marks["end"]) - begun,
                         "rss_mb": resident_mb(), "events": events,
                         "late": source.handed_late,
                         "window_rows": source.stream.detector.window_rows,
                         "pending_rows": source.stream.pending_rows})
        print_segment(segments[-1], reference)
        marks.update(cpu=now, board=board.own_cpu_s, end=marks["end"] + segment_s)
        if board.written >= board.seconds:
            stop.set()

    board.before_write = at_each_read
    for item in source:
        events += (item.observation or {}).get("kind") == "drone-event"
    return segments


HEADER = ("  from min  CPU s per s of stream   (ref)  RSS MB  events so far  late so far"
          "  rows held")


def print_segment(segment: dict, reference: float) -> None:
    per_s = segment["cpu_s"] / segment["stream_s"]
    print(f"  {segment['minutes']:8.0f}  {per_s:21.4f}  {per_s / reference:6.3f}  "
          f"{segment['rss_mb']:6.1f}  {segment['events']:13d}  {segment['late']:11d}  "
          f"{segment['window_rows'] + segment['pending_rows']:9d}", flush=True)


def print_summary(segments: list[dict], segment_s: float = SEGMENT_MINUTES * 60) -> None:
    full = [segment for segment in segments if segment["stream_s"] >= segment_s - 1]
    first, last = (full or segments)[0], (full or segments)[-1]
    cpu_first = first["cpu_s"] / first["stream_s"]
    cpu_last = last["cpu_s"] / last["stream_s"]
    span = f"{segment_s / 60:g} min"
    print(f"first {span}: {cpu_first:.4f} CPU s per s of stream, {first['rss_mb']:.1f} MB; "
          f"last {span}: {cpu_last:.4f} CPU s per s, {last['rss_mb']:.1f} MB "
          f"(CPU {100 * (cpu_last / cpu_first - 1):+.1f} %, "
          f"memory {100 * (last['rss_mb'] / first['rss_mb'] - 1):+.1f} %)")
    print(f"{segments[-1]['events']} drone events handed on, {segments[-1]['late']} of them "
          f"late (after a later item: re-stamped to its time, as the source does)")


FALL_WINDOW_S = 0.5  # the referee holds a landing until this much later is known


def ruling_delays(count: int, seed: int) -> list[float]:
    """How long after each landing the referee can rule it, in stream time.

    Each challenge (``hardware/simulate.py``, 100 Hz) goes through the live path
    (``hardware.paced.PacedBoard``: 0.05 s of stream per read) with a camera
    position every 0.25 s; the referee rules a landing once an item later than its
    fall window is handed on after it (its card is known from the positions before).
    """
    delays = []
    for number in range(seed, seed + count):
        run = simulate_challenge(number)
        positions = [{"t": round(0.25 * step, 2), "card": step % 10}
                     for step in range(int(run.samples.t[-1] * 4))]
        board = PacedBoard(run.samples, CALIBRATION)
        source = DroneSource("loop://", positions=positions, calibration=CALIBRATION,
                             link=board.link(), monotonic=board.monotonic, stop=board.stop)
        handed = [(board.written, item.observation or {}) for item in source]
        for index, (_, observation) in enumerate(handed):
            if observation.get("event") != "land":
                continue
            landed = observation["t"]
            delays += [at - landed for at, later in handed[index:]
                       if later.get("t", -np.inf) > landed + FALL_WINDOW_S][:1]
    return delays


def game_ruling_delays(count: int, seed: int) -> list[float]:
    """How long after each landing a station table's referee took it in, in stream time,
    over ``count`` whole hand-dealt Pick 'n Packers games (``devkit.hardware.drone_game``:
    one simulated challenge per round at 100 Hz, an 80 Hz HX711, the camera's card after
    each landing, the start and foul presses) played through the live path
    (``PacedBoard``: 0.05 s of stream per read) into a table on a fresh SQLite store."""
    delays: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        database = open_database(f"sqlite:///{Path(folder) / 'station.sqlite3'}")
        station = Station(EventStore(database, FixedClock()), Hub())
        for number in range(seed, seed + count):
            game = compose_game(number, rounds=len(GAME_PLAYERS))
            table = f"t{number}"
            station.create_table(table, table)
            station.start_game(table, "pick-n-packers", GAME_PLAYERS, seed=1, options=None,
                               author="organiser", deal="table")
            board = PacedBoard(game.samples, CALIBRATION, load_hz=LOAD_HZ)
            source = DroneSource("loop://", positions=game.positions,
                                 buttons=RecordedButtons(game.presses), calibration=CALIBRATION,
                                 link=board.link(), monotonic=board.monotonic, stop=board.stop)
            _, ruled = referee_a_game(station, table, game, source, lambda b=board: b.written)
            delays += [delay for _, delay in ruled]
        database.close()
    return delays


def print_delays(what: str, delays: list[float]) -> None:
    print(f"{len(delays)} landings of {what}: p50 {np.median(delays):.2f} s, "
          f"p95 {np.percentile(delays, 95):.2f} s, max {max(delays):.2f} s after the landing")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=120.0,
                        help="stream length (default 120: a whole evening)")
    parser.add_argument("--seed", type=int, default=900_000, help="first challenge's seed")
    parser.add_argument("--step", type=float, default=0.25,
                        help="seconds of stream written per read (default 0.25)")
    parser.add_argument("--segment-minutes", type=float, default=SEGMENT_MINUTES,
                        help="minutes of stream per line, compared first against last "
                             f"(default {SEGMENT_MINUTES:g})")
    parser.add_argument("--held", action="store_true",
                        help="the board repeats its latest HX711 reading on every IMU row")
    parser.add_argument("--rulings", type=int, default=0, metavar="COUNT",
                        help="instead: how soon each landing of COUNT challenges can be ruled")
    parser.add_argument("--games", type=int, default=0, metavar="COUNT",
                        help="instead (or after --rulings): COUNT whole games refereed at "
                             "a table, how soon each landing is ruled")
    arguments = parser.parse_args(argv)
    print(reference_line(), flush=True)
    reference = reference_seconds()
    if arguments.rulings or arguments.games:
        started = time.process_time()
        if arguments.rulings:
            print_delays(f"{arguments.rulings} challenges, ruled (an item past the "
                         f"{FALL_WINDOW_S:g} s fall window handed on)",
                         ruling_delays(arguments.rulings, arguments.seed))
        if arguments.games:
            print_delays(f"{arguments.games} whole games, taken in by the table's referee",
                         game_ruling_delays(arguments.games, arguments.seed))
        seconds = time.process_time() - started
        print(f"CPU {seconds:.1f} s ({seconds / reference:.0f} ref)")
        return
    mode = "held on every IMU row" if arguments.held else "new readings only"
    print(f"live path over {arguments.minutes:g} min of board stream: {IMU_HZ:g} Hz IMU, "
          f"{LOAD_HZ:g} Hz HX711 ({mode}), {arguments.step:g} s of stream per read", flush=True)
    print(HEADER)
    segment_s = arguments.segment_minutes * 60
    print_summary(run(arguments.minutes, arguments.seed, arguments.step, arguments.held,
                      reference, segment_s), segment_s)


if __name__ == "__main__":
    main()
