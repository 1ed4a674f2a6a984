"""The serial link: loop://, a socat pty, replayed captures, unplugging and recording."""

from __future__ import annotations

import io
import os
import time

import pytest
import serial

from firmware import frames
from hardware.calibration import Calibration, CalibrationStore
from hardware.capture import encode_capture, read_capture_bytes
from hardware.errors import LinkError
from hardware.link import DroneLink, record
from hardware.simulate import SimulationOptions, simulate_challenge

HELLO = frames.pack_hello("test 1.0", 1, 200, 8192, 655, b"\x01\x02\x03\x04\x05\x06\x07\x08")


def sample_frames(first_seq: int, count: int) -> bytes:
    return b"".join(frames.encode_frame(frames.SAMPLE_LOAD, first_seq + i, 1000 * i,
                                        frames.pack_load(i)) for i in range(count))


def drain(link: DroneLink, polls: int = 20) -> list[frames.Frame]:
    found = []
    for _ in range(polls):
        found += link.poll()
    return found


def test_frames_through_loop_with_garbage_and_a_gap() -> None:
    with DroneLink("loop://", read_timeout=0) as link:
        port = link._serial
        port.write(frames.encode_frame(frames.HELLO, 0, 0, HELLO))
        port.write(b"\xde\xad\xbe\xef")  # line noise
        port.write(sample_frames(1, 5)[:-7])  # the last frame is cut short
        port.write(sample_frames(10, 3))  # 1..5 then 10..12: 4 lost (5 cut, 6..9 never sent)
        found = drain(link)
    assert [frame.kind for frame in found] == [frames.HELLO] + [frames.SAMPLE_LOAD] * 7
    assert link.status.board["board_id"] == "0102030405060708"
    assert link.status.lost_frames == 5
    assert link.status.bad_frames >= 1
    assert "closed" in link.status.describe()


def test_commands_go_out_as_frames_the_board_decodes() -> None:
    with DroneLink("loop://", read_timeout=0) as link:
        seq = link.send_command("calibrate", mass_mg=100_000, samples=32)
        echoed = drain(link)
    assert frames.decode_command(echoed[0]) == {"command": "calibrate", "mass_mg": 100_000,
                                                "samples": 32}
    assert echoed[0].seq == seq


class FlakyPort:
    """A serial port that can be unplugged and plugged back in."""

    def __init__(self, world: dict) -> None:
        self.world = world
        self.in_waiting = 0

    def read(self, size: int) -> bytes:
        if not self.world["plugged"]:
            raise serial.SerialException("device reports readiness to read but returned no data")
        data, self.world["data"] = self.world["data"], b""
        return data

    def write(self, data: bytes) -> int:
        if not self.world["plugged"]:
            raise serial.SerialException("write failed")
        self.world["written"] += data
        return len(data)

    def close(self) -> None:
        self.world["open"] -= 1


def test_unplugging_and_plugging_back_in() -> None:
    world = {"plugged": True, "data": b"", "written": b"", "open": 0}
    clock = [0.0]

    def open_port(port: str, timeout: float) -> FlakyPort:
        if not world["plugged"]:
            raise serial.SerialException(f"could not open port {port}: No such file")
        world["open"] += 1
        return FlakyPort(world)

    link = DroneLink("/dev/ttyACM0", open_port=open_port, retry_s=1.0, monotonic=lambda: clock[0])
    link.open()
    world["data"] = sample_frames(0, 3)
    assert len(link.poll()) == 3
    world["plugged"] = False
    assert link.poll() == []
    assert link.status.state == "reconnecting"
    assert "lost /dev/ttyACM0" in link.status.describe()
    clock[0] = 0.5
    assert link.poll() == []  # too early to retry
    clock[0] = 1.5
    assert link.poll() == []  # retried, still unplugged
    assert "No such file" in link.status.last_error
    world["plugged"] = True
    clock[0] = 3.0
    link.poll()
    assert link.status.state == "connected"
    assert link.status.reconnects == 1
    assert frames.decode_command(frames.FrameReader().feed(world["written"])[-1]) == \
        {"command": "hello?"}
    world["data"] = sample_frames(500, 2)  # a new run of sequence numbers is no loss
    assert len(link.poll()) == 2
    assert link.status.lost_frames == 0
    link.close()
    assert world["open"] == 0


def test_a_missing_port_is_a_link_error() -> None:
    with pytest.raises(LinkError, match="cannot open /dev/no-such-drone"):
        DroneLink("/dev/no-such-drone").open()


def _capture_file(tmp_path, seed: int = 3):
    run = simulate_challenge(seed, SimulationOptions(cards=1))
    path = tmp_path / "capture.bin"
    data = encode_capture(run.samples, Calibration(8000, 0.0024))
    path.write_bytes(data)
    return path, data


def test_a_capture_replays_through_the_link(tmp_path) -> None:
    path, data = _capture_file(tmp_path)
    with DroneLink(f"replay://{path}?chunk=100", read_timeout=0) as link:
        found = drain(link, polls=len(data) // 100 + 5)
    assert len(found) == read_capture_bytes(data).frames


def test_recording_a_replayed_capture_gives_the_same_samples(tmp_path) -> None:
    path, data = _capture_file(tmp_path)
    store = CalibrationStore(tmp_path / "cal.json")
    store.save("73696d756c617465", Calibration(8000, 0.0024))  # "simulate" as the board id
    out = io.BytesIO()
    clock = iter(i * 0.01 for i in range(100_000))
    summary = record(f"replay://{path}", out, store, seconds=20.0,
                     monotonic=lambda: next(clock), sleep=lambda seconds: None)
    again = read_capture_bytes(out.getvalue())
    original = read_capture_bytes(data)
    assert summary["board_id"] == "73696d756c617465" and summary["calibrated"]
    assert summary["frames"] == original.frames
    assert len(again.samples) == len(original.samples)


def test_a_socat_pty_carries_frames_and_is_opened_exclusively(pty_pair) -> None:
    board_end, host_end = pty_pair
    board = os.open(board_end, os.O_RDWR | os.O_NOCTTY)
    try:
        with DroneLink(host_end, read_timeout=0.05) as link:
            with pytest.raises(LinkError, match="busy"):
                DroneLink(host_end).open()
            os.write(board, b"noise" + sample_frames(0, 20))
            found = []
            deadline = time.monotonic() + 5
            while len(found) < 20 and time.monotonic() < deadline:
                found += link.poll()
            link.send_command("tare", samples=8)
            time.sleep(0.1)
            command = frames.FrameReader().feed(os.read(board, 100))
    finally:
        os.close(board)
    assert len(found) == 20 and link.status.lost_frames == 0
    assert frames.decode_command(command[0]) == {"command": "tare", "samples": 8}


class BoardPort:
    """A serial port with the real firmware loop (on fake sensors) at the other end."""

    def __init__(self, counts: list[int]) -> None:
        from firmware.board import Board
        from firmware.outbox import Outbox
        from tests.firmware.test_drivers import FakeImu

        self.output = bytearray()
        self.incoming: list[bytes] = []
        self.clock = [0]
        self.counts = counts

        class Cell:
            def read(cell) -> int:
                return self.counts[0]

        class Sink:
            def write(sink, data: bytes) -> int:
                self.output.extend(data)
                return len(data)

        self.board = Board(Cell(), FakeImu(), Outbox(Sink(), lambda: True),
                           lambda: self.incoming.pop(0) if self.incoming else b"",
                           lambda: self.clock[0], lambda a, b: a - b, b"\xc0\xff\xee" + bytes(5))
        self.in_waiting = 0

    def write(self, data: bytes) -> int:
        self.incoming.append(bytes(data))
        return len(data)

    def read(self, size: int) -> bytes:
        for _ in range(5):
            self.clock[0] += 10_000
            self.board.step()
        data, self.output = bytes(self.output), bytearray()
        return data

    def close(self) -> None:
        pass


def test_calibration_through_the_real_board_loop(tmp_path) -> None:
    from hardware.link import calibrate_board

    counts = [12_000]
    port = BoardPort(counts)
    store = CalibrationStore(tmp_path / "cal.json")
    with DroneLink("fake", open_port=lambda name, timeout: port) as link:
        with pytest.raises(LinkError, match="no tare yet"):
            calibrate_board(link, store, mass_g=100.0, samples=4)
        tare = calibrate_board(link, store, samples=4)
        counts[0] = 52_000
        scaled = calibrate_board(link, store, mass_g=100.0, samples=4)
    assert tare["board_id"] == "c0ffee0000000000" and tare["tare_counts"] == 12_000
    assert scaled["grams_per_count"] == pytest.approx(100.0 / 40_000)
    assert store.load("c0ffee0000000000") == Calibration(12_000, 0.0025)
