"""A board that writes its stream to the serial link in step with the host's reads.

:class:`PacedBoard` plays samples, framed as the firmware frames them
(:func:`hardware.capture.encode_capture`), into a pyserial ``loop://`` port:
before each poll of its link (:meth:`PacedBoard.link`) it writes the next
``step_s`` of stream time, and it is the host's monotonic clock (the stream
time written so far). So the station's live path — link, frames, samples, live
detector, its checks of a silent port — runs in the stream's own clock, as fast
as the machine allows, and when something is reported can be told in stream
time, not in wall-clock time (which a loaded machine would stretch).

Example::

    board = PacedBoard(samples, CALIBRATION)
    stream = DroneStream("loop://", calibration=CALIBRATION, link=board.link(),
                         monotonic=board.monotonic)
    with stream:
        while not board.stop.is_set():
            for event in stream.read().events:
                print(board.written, event.to_json())   # stream time carried so far
"""

from __future__ import annotations

import threading
from typing import Any

from firmware import frames
from hardware.calibration import Calibration
from hardware.capture import MAGIC, encode_capture
from hardware.link import DroneLink
from hardware.samples import Samples

STEP_S = 0.05  # stream time written before each poll: a host reading 20 times a second


class PacedBoard:
    """``samples`` written to the host ``step_s`` of stream time per poll of its link.

    :attr:`written` is the stream time carried so far; :attr:`stop` is set once the
    whole stream and ``tail_s`` of silence after it have gone by (a live source's
    ``stop``). ``load_hz`` and ``held``: how the board writes its load-cell readings
    (:func:`hardware.capture.encode_capture`).
    """

    def __init__(self, samples: Samples, calibration: Calibration, *, step_s: float = STEP_S,
                 tail_s: float = 0.0, stop: threading.Event | None = None,
                 load_hz: float | None = None, held: bool = False) -> None:
        data = encode_capture(samples, calibration, load_hz=load_hz, held=held)
        if data.startswith(MAGIC):
            data = data[data.find(b"\n", len(MAGIC)) + 1:]
        found = frames.FrameReader().feed(data)
        self._frames = [(frame.board_us / 1e6, frames.encode_frame(
            frame.kind, frame.seq, frame.board_us, frame.payload)) for frame in found]
        self._next = 0
        self.step_s = step_s
        self.written = float(samples.t[0]) - step_s
        self.end = float(samples.t[-1]) + tail_s
        self.stop = stop or threading.Event()

    def __repr__(self) -> str:
        return f"<PacedBoard at {self.written:.2f} s of {self.end:.2f} s>"

    def monotonic(self) -> float:
        """The host's clock: the stream time written so far."""
        return self.written

    def link(self) -> DroneLink:
        """The host's link to this board, over ``loop://``."""
        return BoardLink(self)

    def write_next(self, port: Any) -> None:
        """Write the next ``step_s`` of the stream to ``port`` (set :attr:`stop` at the end)."""
        self.written += self.step_s
        chunk = bytearray()
        while self._next < len(self._frames) and self._frames[self._next][0] <= self.written:
            chunk += self._frames[self._next][1]
            self._next += 1
        if chunk:
            port.write(bytes(chunk))
        if self.written >= self.end:
            self.stop.set()


class BoardLink(DroneLink):
    """A :class:`DroneLink` over ``loop://`` whose board writes before each poll.

    ``board``: anything with ``write_next(port)`` and ``monotonic()`` (the host's clock
    as the board paces it), e.g. a :class:`PacedBoard`.
    """

    def __init__(self, board: Any) -> None:
        super().__init__("loop://", read_timeout=0, monotonic=board.monotonic)
        self.board = board

    def poll(self) -> list[frames.Frame]:
        if self._serial is not None:
            self.board.write_next(self._serial)
        return super().poll()
