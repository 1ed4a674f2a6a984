"""The serial link to the drone board: frames in, commands out, and it survives unplugging.

The port is opened exclusively through ``serial.serial_for_url``, so the same
code reads a real port (``/dev/ttyACM0``), a socat pty, ``loop://`` in tests or
a recorded capture (``replay://capture.bin``, see :mod:`hardware.replay`).
Garbage and cut frames are skipped (COBS resynchronises at the next zero),
lost frames are counted from the sequence numbers, and when the board goes
away the link closes the port, says so in :attr:`DroneLink.status`, and tries
to open it again every ``retry_s`` seconds — it never raises for that.

Example::

    with DroneLink("/dev/ttyACM0") as link:
        link.send_command("tare", samples=32)
        while True:
            for frame in link.poll():
                print(frame)
            print(link.status.describe())
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

import serial

from firmware import frames
from hardware import replay
from hardware.calibration import Calibration
from hardware.capture import SequenceCounter, capture_header
from hardware.errors import LinkError

BAUDRATE = 115200  # USB CDC ignores it; a UART bridge needs it


@dataclass
class LinkStatus:
    """What the link knows about its board and its health."""

    port: str
    state: str = "closed"  # closed, connected, reconnecting
    frames: int = 0
    bad_frames: int = 0
    lost_frames: int = 0
    received: int = 0  # bytes read from the port
    reconnects: int = 0
    board: dict | None = None  # the last HELLO
    last_error: str | None = None

    def describe(self) -> str:
        """One line for a person, e.g. ``connected to /dev/ttyACM0 (board e661…, 12 lost)``."""
        board = f"board {self.board['board_id']}, " if self.board else ""
        health = (f"{board}{self.frames} frames, {self.lost_frames} lost, "
                  f"{self.bad_frames} bad")
        if self.state == "connected":
            return f"connected to {self.port} ({health})"
        if self.state == "reconnecting":
            return f"lost {self.port} ({self.last_error}); retrying ({health})"
        return f"{self.port} closed ({health})"


def open_serial_port(port: str, timeout: float) -> Any:
    """Open ``port`` (a device or a pyserial URL) exclusively."""
    replay.register()  # pyserial knows replay:// (idempotent)
    return serial.serial_for_url(port, baudrate=BAUDRATE, timeout=timeout, exclusive=True)


class DroneLink:
    """Frames from the drone board over a serial port, reconnecting when it comes back."""

    def __init__(self, port: str, *, read_timeout: float = 0.05, retry_s: float = 1.0,
                 open_port: Callable[[str, float], Any] = open_serial_port,
                 monotonic: Callable[[], float] = time.monotonic,
                 on_bytes: Callable[[bytes], None] | None = None) -> None:
        self.status = LinkStatus(port)
        self.read_timeout = read_timeout
        self.retry_s = retry_s
        self._open_port = open_port
        self._monotonic = monotonic
        self.on_bytes = on_bytes
        self._serial: Any = None
        self._reader = frames.FrameReader()
        self._sequence = SequenceCounter()
        self._next_retry = 0.0
        self._command_seq = 0

    def __repr__(self) -> str:
        return f"<DroneLink {self.status.describe()}>"

    def __enter__(self) -> DroneLink:
        self.open()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def open(self) -> None:
        """Open the port; a missing or busy port raises :class:`LinkError`."""
        try:
            self._serial = self._open_port(self.status.port, self.read_timeout)
        except (serial.SerialException, OSError, ValueError) as error:
            raise LinkError(f"cannot open {self.status.port}: {_reason(error)}") from None
        self.status.state = "connected"
        self.status.last_error = None
        self._reader = frames.FrameReader()  # a cut frame from before is garbage now

    def close(self) -> None:
        if self._serial is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                self._serial.close()
        self._serial = None
        self.status.state = "closed"

    def poll(self) -> list[frames.Frame]:
        """The frames that arrived since the last call (waits at most ``read_timeout``)."""
        if self.status.state == "reconnecting":
            self._try_reconnect()
        if self._serial is None:
            return []
        try:
            data = self._serial.read(max(1, self._serial.in_waiting or 0))
        except (serial.SerialException, OSError, TypeError, AttributeError) as error:
            self._disconnected(error)
            return []
        if not data:
            return []
        self.status.received += len(data)
        if self.on_bytes is not None:
            self.on_bytes(data)
        return self._take(data)

    def _take(self, data: bytes) -> list[frames.Frame]:
        found = self._reader.feed(data)
        self.status.bad_frames += self._reader.bad_frames
        self._reader.bad_frames = 0
        for frame in found:
            if frame.kind == frames.HELLO:
                self._sequence.restart()
                try:
                    self.status.board = frames.unpack_hello(frame.payload)
                except frames.FrameError:
                    self.status.bad_frames += 1
            self._sequence.see(frame.seq)
        self.status.frames += len(found)
        self.status.lost_frames = self._sequence.lost
        return found

    def _disconnected(self, error: BaseException) -> None:
        self.close()
        self.status.state = "reconnecting"
        self.status.last_error = _reason(error)
        self._next_retry = self._monotonic() + self.retry_s
        self._sequence.restart()

    def _try_reconnect(self) -> None:
        if self._monotonic() < self._next_retry:
            return
        try:
            self.open()
        except LinkError as error:
            self.status.state = "reconnecting"
            self.status.last_error = str(error)
            self._next_retry = self._monotonic() + self.retry_s
            return
        self.status.reconnects += 1
        self.send_command("hello?")

    def send_command(self, name: str, **arguments: int) -> int | None:
        """Send ``tare`` / ``calibrate`` / ``set-rate`` / ``hello?``; its sequence number,
        or None when the board is not connected."""
        if self._serial is None:
            return None
        seq = self._command_seq
        self._command_seq = (seq + 1) & 0xFFFF
        try:
            self._serial.write(frames.encode_command(name, seq, **arguments))
        except (serial.SerialException, OSError) as error:
            self._disconnected(error)
            return None
        return seq


def _reason(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    if "lock" in text.lower() or "busy" in text.lower():
        return f"port is busy ({text})"
    return text


def record(port: str, out: BinaryIO, store: Any, seconds: float | None = None,
           link: DroneLink | None = None, monotonic: Callable[[], float] = time.monotonic,
           on_status: Callable[[str], None] | None = None,
           hello_wait_s: float = 2.0, sleep: Callable[[float], None] = time.sleep) -> dict:
    """Write the board's raw stream to ``out`` as a capture until ``seconds`` (or Ctrl-C).

    The header holds the board's calibration from ``store`` (looked up by the id in
    its HELLO, asked for at the start); raw bytes are kept exactly as they came.
    """
    pending = bytearray()
    link = link or DroneLink(port)
    link.on_bytes = pending.extend
    written = 0
    header_done = False
    start = monotonic()
    last_state = None
    with link:
        link.send_command("hello?")
        try:
            while seconds is None or monotonic() - start < seconds:
                if not link.poll() and not pending:
                    sleep(0.005)  # a quiet port (or the end of a replay): do not spin
                if not header_done and (link.status.board or monotonic() - start > hello_wait_s):
                    out.write(_header_for(link, store))
                    header_done = True
                if header_done and pending:
                    out.write(bytes(pending))
                    written += len(pending)
                    pending.clear()
                if on_status and link.status.state != last_state:
                    last_state = link.status.state
                    on_status(link.status.describe())
        except KeyboardInterrupt:
            pass
        if not header_done:
            out.write(_header_for(link, store))
        out.write(bytes(pending))
        written += len(pending)
    board = link.status.board or {}
    return {"port": port, "bytes": written, "frames": link.status.frames,
            "lost_frames": link.status.lost_frames, "bad_frames": link.status.bad_frames,
            "reconnects": link.status.reconnects, "board_id": board.get("board_id"),
            "calibrated": bool(board and store.load(board["board_id"])),
            "seconds": round(monotonic() - start, 3)}


def _header_for(link: DroneLink, store: Any) -> bytes:
    board = link.status.board or {}
    board_id = board.get("board_id", "")
    calibration = store.load(board_id) if board_id else None
    imu = ({"accel_lsb_per_g": board["accel_lsb_per_g"],
            "gyro_lsb_per_dps": board["gyro_lsb_per_dps"]} if board else None)
    return capture_header(board_id, calibration, imu, firmware=board.get("firmware"))


def measure(link: DroneLink, command: str, timeout_s: float = 10.0,
            monotonic: Callable[[], float] = time.monotonic, **arguments: int) -> dict:
    """Send ``tare`` or ``calibrate`` and wait for the board's CALIBRATION answer."""
    seq = link.send_command(command, **arguments)
    if seq is None:
        raise LinkError(f"{link.status.port} is not connected")
    deadline = monotonic() + timeout_s
    while monotonic() < deadline:
        for frame in link.poll():
            if frame.kind == frames.ACK:
                ack = frames.unpack_ack(frame.payload)
                if ack["command_seq"] == seq and ack["result"] != frames.ACK_OK:
                    raise LinkError(f"the board refused {command} (code {ack['result']})")
            if frame.kind == frames.CALIBRATION:
                return frames.unpack_calibration(frame.payload)
    raise LinkError(f"no answer to {command} within {timeout_s:g} s")


def calibrate_board(link: DroneLink, store: Any, mass_g: float | None = None,
                    samples: int = 40, **wait: Any) -> dict:
    """Tare (``mass_g`` None: the platform is empty) or scale (a known mass lies on it).

    The result is kept in ``store`` under the board's id: a tare keeps the scale
    already known (or a typical one), a known mass needs a tare first.
    """
    if not link.status.board:
        link.send_command("hello?")
        deadline = time.monotonic() + 3.0
        while not link.status.board and time.monotonic() < deadline:
            link.poll()
    if not link.status.board:
        raise LinkError(f"no HELLO from the board on {link.status.port}")
    board_id = link.status.board["board_id"]
    known = store.load(board_id)
    if mass_g is None:
        answer = measure(link, "tare", samples=samples, **wait)
        calibration = (known.with_tare(answer["mean_counts"]) if known
                       else Calibration(answer["mean_counts"], TYPICAL_GRAMS_PER_COUNT))
    else:
        if known is None:
            raise LinkError(f"board {board_id} has no tare yet: calibrate without --mass first")
        answer = measure(link, "calibrate", samples=samples, mass_mg=round(mass_g * 1000), **wait)
        calibration = Calibration.from_readings(known.tare_counts, answer["mean_counts"], mass_g)
    store.save(board_id, calibration)
    return {"board_id": board_id, **calibration.to_json(), "mean_counts": answer["mean_counts"],
            "samples": answer["samples"]}


TYPICAL_GRAMS_PER_COUNT = 0.0024  # a 1 kg bar cell at gain 128; replaced by --mass
