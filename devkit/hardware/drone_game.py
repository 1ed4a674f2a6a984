"""A whole Pick 'n Packers game as a drone board streams it, with its truth; and a board
that writes such a stream to a serial port at a paced clock.

:func:`compose_game` plays one simulated challenge (``hardware/simulate.py``) per
round in one board clock, the drone resting between rounds while the pilots clear
it (the stack's mass taken off by hand) and the next round's speculators choose.
Each round ends as a table's would: a present falls in flight (``fall``), the
referee presses *foul* after the last landing (``touch``), or the last landing is
on the wrong card (``wrong-landing``). With it come what the camera and the
referee's buttons would tell the station, in the board's clock: the drone's card
shortly after each true touch-down (twice, as a camera reads it), the drone
parked on "0/9" every second between rounds, and the *start* and *foul* presses.

:class:`PtyBoard` writes the stream, framed as the firmware frames it (HELLO, one
load and one IMU frame per row, the board's microsecond stamps), to the board's
end of a serial cable (a socat pty pair) at ``pace`` times real time, from a
thread, so the station reads it as it would a real board.

Example::

    game = compose_game(7)
    with PtyBoard(game.samples, CALIBRATION, "/tmp/board", pace=3.0) as board:
        source = DroneSource("/tmp/host", positions=game.positions, ...)
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from firmware import frames
from hardware.calibration import Calibration
from hardware.capture import MAGIC, encode_capture
from hardware.samples import Samples
from hardware.simulate import SimulationOptions, simulate_challenge
from station.live.drone import DroneSource
from station.live.sources import hand_on
from station.live.station import Station

FIRST_ROUND_S = 2.0  # the first round's challenge begins this long after the board starts
REST_S = 6.0  # the drone resting between two rounds
CLEAR_AFTER_S = 2.0  # ...cleared by hand this long after the round's last event
START_BEFORE_S = 0.5  # the start press, before the simulated challenge begins
ENDINGS = ("touch", "wrong-landing")  # how a round that does not fall ends, in turn


@dataclass
class GameRound:
    """One round as it really happened: how far it got, how it ended, its speculation."""

    speculation: int
    reached: int
    ending: str
    start_t: float  # board time of its start press
    landings: list[float] = field(default_factory=list)  # true touch-downs that count


@dataclass
class DroneGame:
    """The board's stream of a whole game, and what the camera and buttons saw."""

    samples: Samples
    rounds: list[GameRound]
    positions: list[dict]
    presses: list[dict]
    truth: list[dict]  # every drone event that really happened, in the board clock


def compose_game(seed: int, rounds: int = 3, options: SimulationOptions | None = None
                 ) -> DroneGame:
    """A game of ``rounds`` rounds, reproducible from ``seed`` (see the module)."""
    rng = np.random.default_rng(seed)
    options = options or SimulationOptions(lost_fraction=0.0, lost_bursts=0,
                                           drop_after_landing=0.0, drop_on_table=0.0,
                                           drop_in_flight=0.15)
    pieces: list[Samples] = []
    game = DroneGame(Samples(*[np.zeros(0)] * 8), [], [], [], [])
    offset, reference = FIRST_ROUND_S, None
    speculations = rng.choice(10, size=rounds, replace=False)
    for number in range(rounds):
        cards = int(rng.integers(2, 5))
        run = simulate_challenge(seed * 100 + number,
                                 SimulationOptions(**{**options.__dict__, "cards": cards}))
        columns = run.samples.columns()
        medians = np.array([np.median(column[:20]) for column in columns[1:]])
        reference = medians if reference is None else reference
        shifted = [columns[0] + offset, columns[1] - medians[0]] + [
            column - shift for column, shift in zip(columns[2:], medians[1:] - reference[1:],
                                                    strict=True)]
        if not pieces:  # the drone rests, empty, from the moment the board starts
            pieces.append(_rest(0.0, offset - 0.01, 0.0, reference, rng))
        pieces.append(Samples(*shifted))
        unfallen = sum(played.ending != "fall" for played in game.rounds)
        played = _round_of(run.truth, offset, unfallen, int(speculations[number]))
        game.rounds.append(played)
        game.truth += [{**event, "t": event["t"] + offset} for event in run.truth]
        _camera_and_buttons(game, played, [{**event, "t": event["t"] + offset}
                                           for event in run.truth])
        end = float(shifted[0][-1])
        carried = float(np.median(shifted[1][-20:]))
        pieces.append(_rest(end + 0.01, end + REST_S, carried, reference, rng))
        if carried > 0.5:
            game.truth.append({"t": end + 0.01 + CLEAR_AFTER_S, "event": "drop", "mass_g": 0.0})
        game.positions += [{"t": round(end + second, 2), "card": 0}
                           for second in range(3, int(REST_S))]
        offset = float(pieces[-1].t[-1]) + 0.01
    game.samples = Samples(*[np.concatenate(column) for column in
                             zip(*(piece.columns() for piece in pieces), strict=True)])
    game.positions.sort(key=lambda position: position["t"])
    game.presses.sort(key=lambda press: press["t"])
    return game


def _round_of(truth: list[dict], offset: float, unfallen: int, speculation: int) -> GameRound:
    """How the round went: the landings before any fall, and its ending (``unfallen``:
    the rounds before it that did not fall, to take turns between the other endings)."""
    landings, ending = [], ENDINGS[unfallen % len(ENDINGS)]
    flying = False
    for event in truth:
        if event["event"] == "lift":
            flying = True
        elif event["event"] == "land":
            flying = False
            landings.append(event["t"] + offset)
        elif event["event"] == "drop" and flying:
            ending = "fall"
            break
    return GameRound(speculation=speculation, reached=len(landings), ending=ending,
                     start_t=round(offset - START_BEFORE_S, 3), landings=landings)


def _camera_and_buttons(game: DroneGame, played: GameRound, truth: list[dict]) -> None:
    """The start press, the drone's card after each landing (twice), and a foul."""
    game.presses.append({"t": played.start_t, "button": "start"})
    for card, landed in enumerate(played.landings, 1):
        if played.ending == "wrong-landing" and card == len(played.landings):
            card = (card + 3) % 9  # not the next card
        game.positions += [{"t": round(landed + 0.3, 2), "card": card},
                           {"t": round(landed + 0.4, 2), "card": card}]
    if played.ending == "fall":  # the drone still comes down somewhere after the fall
        after = [event["t"] for event in truth if event["event"] == "land"][len(played.landings):]
        game.positions += [{"t": round(landed + step, 2), "card": len(played.landings) + 1}
                           for landed in after for step in (0.3, 0.4)]
    if played.ending == "touch" and played.landings:
        game.presses.append({"t": round(played.landings[-1] + 1.0, 2), "button": "foul"})
    if played.ending == "wrong-landing":
        played.reached -= 1  # the wrong landing does not count


def _rest(start: float, end: float, carried: float, reference: np.ndarray,
          rng: np.random.Generator) -> Samples:
    """The still drone from ``start`` to ``end``, its stack (``carried`` grams) taken off
    by hand ``CLEAR_AFTER_S`` in; the simulator's own sensor noise (a quieter rest would
    make the challenge's hands look like tremor)."""
    t = np.arange(start, end, 0.01)
    cleared = np.clip((t - start - CLEAR_AFTER_S) / 0.3, 0.0, 1.0)
    force = carried * (1.0 - cleared) + rng.normal(0.0, 0.04, len(t))
    noise = (*[SimulationOptions.accel_noise] * 3, *[SimulationOptions.gyro_noise] * 3)
    imu = [reference[index] + rng.normal(0.0, noise[index - 1], len(t)) for index in range(1, 7)]
    return Samples(t, force, *imu)


def rulebook_scores(players: list[str], pilots: list[tuple[str, str]],
                    speculators: list[str], rounds: list[GameRound]) -> dict[str, int]:
    """Pilots score the card reached; a speculator guess + 1 if right, the guess if lower,
    nothing if higher."""
    totals = dict.fromkeys(players, 0)
    for played, pair, speculator in zip(rounds, pilots, speculators, strict=True):
        for pilot in pair:
            totals[pilot] += played.reached
        if played.speculation == played.reached:
            totals[speculator] += played.speculation + 1
        elif played.speculation < played.reached:
            totals[speculator] += played.speculation
    return totals


class PtyBoard:
    """Writes ``samples`` as board frames to ``port`` (a pty's path) at ``pace`` × real time.

    :meth:`stream_time` is the board time written so far (by the host's clock);
    :attr:`done` is set once everything and ``tail_s`` after it have been written.
    """

    def __init__(self, samples: Samples, calibration: Calibration, port: str, *,
                 pace: float = 1.0, load_hz: float | None = 80.0, tail_s: float = 1.0) -> None:
        data = encode_capture(samples, calibration, load_hz=load_hz)
        data = data[data.find(b"\n", len(MAGIC)) + 1:] if data.startswith(MAGIC) else data
        self._frames = [(frame.board_us / 1e6, frames.encode_frame(
            frame.kind, frame.seq, frame.board_us, frame.payload))
            for frame in frames.FrameReader().feed(data)]
        self.port, self.pace = port, pace
        self.end = float(samples.t[-1]) + tail_s
        self.done = threading.Event()
        self._started = 0.0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __repr__(self) -> str:
        return f"<PtyBoard {self.port} ×{self.pace:g}, {len(self._frames)} frames>"

    def __enter__(self) -> PtyBoard:
        self._started = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.done.set()
        self._thread.join(timeout=5)

    def stream_time(self) -> float:
        """The board time the host's clock says has been written by now."""
        return (time.monotonic() - self._started) * self.pace

    def _run(self) -> None:
        descriptor = os.open(self.port, os.O_RDWR | os.O_NOCTTY)
        try:
            sent = 0
            while not self.done.is_set() and self.stream_time() < self.end:
                now = self.stream_time()
                chunk = bytearray()
                while sent < len(self._frames) and self._frames[sent][0] <= now:
                    chunk += self._frames[sent][1]
                    sent += 1
                if chunk:
                    os.write(descriptor, bytes(chunk))
                time.sleep(0.005)
        finally:
            self.done.set()
            os.close(descriptor)


def referee_a_game(station: Station, table_id: str, game: DroneGame, source: DroneSource,
                   stream_time: Callable[[], float]
                   ) -> tuple[list[dict], list[tuple[float, float]]]:
    """Hand ``source``'s items (``game`` as its board streams it) to the table, the
    speculators choosing before each round's start.

    Returns the observations handed on, and (``t``, ruling delay) of each landing: the
    stream seconds (``stream_time()``, the board time written by now) from its ``t``
    to the moment the referee took it in (no longer holding it back for its fall
    window)."""
    handed: list[dict] = []
    delays: list[tuple[float, float]] = []
    waiting: list[float] = []  # landings handed on, not ruled yet
    declared = 0
    for item in source:
        observation = item.observation or {}
        while (declared < len(game.rounds)
               and observation.get("t", -np.inf) >= game.rounds[declared].start_t - 1.0):
            station.observe(table_id, {"kind": "declared", "action": {
                "type": "speculate", "card": game.rounds[declared].speculation}},
                "declared", "referee")
            declared += 1
        hand_on(station, table_id, item, "drone")
        handed.append(observation)
        if observation.get("event") == "land":
            waiting.append(observation["t"])
        held = {entry["t"] for entry in station.table(table_id).translator.inner.held}
        now = stream_time()
        delays += [(t, round(now - t, 3)) for t in waiting if t not in held]
        waiting = [t for t in waiting if t in held]
    return handed, delays
