"""The firmware's driver logic against fake ``machine`` objects, on CPython."""

from __future__ import annotations

import importlib
import struct
import sys
import types

import pytest

from firmware import frames
from firmware.board import Board
from firmware.hx711 import HX711, HX711Error
from firmware.imu import MPU6050, IMUError
from firmware.outbox import Outbox
from tests.firmware.micropython import FIRMWARE


class Interrupts:
    """disable_irq / enable_irq that remember whether interrupts are on."""

    def __init__(self) -> None:
        self.enabled = True

    def disable(self) -> int:
        state, self.enabled = self.enabled, False
        return state

    def enable(self, state: int) -> None:
        self.enabled = bool(state)


class FakeHX711Chip:
    """The chip's side of the two wires: shifts out a reading on each rising clock edge."""

    def __init__(self, interrupts: Interrupts) -> None:
        self.interrupts = interrupts
        self.pending: list[int] = []
        self.bits: list[int] = []
        self.pulses = 0
        self.high_with_interrupts_on = 0
        self.clock_high = False
        chip = self

        class ClockPin:
            def value(self, level: int) -> None:
                if level and not chip.clock_high:
                    chip.pulses += 1
                    chip.high_with_interrupts_on += chip.interrupts.enabled
                    if chip.bits:
                        chip.bits.pop(0)
                chip.clock_high = bool(level)

        class DataPin:
            def value(self) -> int:
                if chip.bits:
                    return chip.bits[0] if chip.pulses else 0
                return 1

        self.clock_pin, self.data_pin = ClockPin(), DataPin()

    def convert(self, value: int) -> None:
        """A conversion is ready: 24 bits, MSB first, then the line goes high again."""
        raw = value & 0xFFFFFF
        self.bits = [0] + [(raw >> (23 - i)) & 1 for i in range(24)]
        self.pulses = 0


@pytest.mark.parametrize(("gain", "pulses"), [(128, 25), (32, 26), (64, 27)])
@pytest.mark.parametrize("value", [0, 1, 123456, -1, -8388608, 8388607])
def test_hx711_reads_signed_values_with_the_clock_short_and_protected(gain, pulses, value):
    interrupts = Interrupts()
    chip = FakeHX711Chip(interrupts)
    cell = HX711(chip.clock_pin, chip.data_pin, interrupts.disable, interrupts.enable, gain)
    assert cell.read() is None  # nothing ready: it does not wait
    chip.convert(value)
    assert cell.read() == value
    assert chip.pulses == pulses
    assert chip.high_with_interrupts_on == 0 and interrupts.enabled
    assert not chip.clock_high
    assert "readings=1" in repr(cell)


def test_hx711_refuses_an_impossible_gain() -> None:
    interrupts = Interrupts()
    chip = FakeHX711Chip(interrupts)
    with pytest.raises(HX711Error):
        HX711(chip.clock_pin, chip.data_pin, interrupts.disable, interrupts.enable, gain=100)


def test_hx711_powers_down_with_a_long_high_clock() -> None:
    interrupts = Interrupts()
    chip = FakeHX711Chip(interrupts)
    cell = HX711(chip.clock_pin, chip.data_pin, interrupts.disable, interrupts.enable)
    slept = []
    cell.power_down(slept.append)
    assert chip.clock_high and slept == [80]
    cell.power_up()
    assert not chip.clock_high


class FakeI2C:
    """An MPU-6050's registers behind readfrom_mem / writeto_mem."""

    def __init__(self, identity: int = 0x68, present: bool = True) -> None:
        self.registers = {0x75: identity, 0x3A: 0}
        self.present = present
        self.fifo = bytearray()
        self.writes: list[tuple[int, int]] = []

    def writeto_mem(self, address: int, register: int, data: bytes) -> None:
        assert address == 0x68
        self.registers[register] = data[0]
        self.writes.append((register, data[0]))

    def readfrom_mem(self, address: int, register: int, count: int) -> bytes:
        if not self.present:
            raise OSError(19, "ENODEV")
        if register == 0x74:
            data, self.fifo[:count] = bytes(self.fifo[:count]), b""
            return data
        if register == 0x72:
            return struct.pack(">H", len(self.fifo))
        return bytes(self.registers.get(register + i, 0) for i in range(count))


def test_mpu6050_is_set_up_and_read() -> None:
    i2c = FakeI2C()
    imu = MPU6050(i2c, rate_hz=200, accel_range_g=4, gyro_range_dps=500)
    assert (0x6B, 0x01) in i2c.writes and (0x1C, 0x08) in i2c.writes
    assert (0x1B, 0x08) in i2c.writes and (0x19, 4) in i2c.writes
    assert (imu.rate_hz, imu.accel_lsb_per_g, imu.gyro_lsb_per_dps_x10) == (200, 8192, 655)
    raw = struct.pack(">hhhhhhh", 1, -2, 8192, 999, -4, 5, -32768)
    for offset, byte in enumerate(raw):
        i2c.registers[0x3B + offset] = byte
    assert not imu.data_ready()
    i2c.registers[0x3A] = 1
    assert imu.data_ready()
    assert imu.read_raw() == (1, -2, 8192, -4, 5, -32768)
    assert imu.set_rate(333) == 333 and i2c.registers[0x19] == 2


def test_mpu6050_fifo_gives_whole_samples_oldest_first() -> None:
    i2c = FakeI2C()
    imu = MPU6050(i2c)
    imu.enable_fifo()
    assert i2c.registers[0x23] == 0x78 and i2c.registers[0x6A] == 0x40
    i2c.fifo += struct.pack(">hhhhhh", 1, 2, 3, 4, 5, 6) + struct.pack(">hhhhhh", 7, 8, 9, 10, 11,
                                                                       12) + b"\x01\x02"
    assert imu.read_fifo() == [(1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12)]
    assert "fifo" in repr(imu)


def test_mpu6050_that_is_missing_or_something_else() -> None:
    with pytest.raises(IMUError, match="no IMU answers"):
        MPU6050(FakeI2C(present=False))
    with pytest.raises(IMUError, match="not an MPU-6050"):
        MPU6050(FakeI2C(identity=0x12))
    with pytest.raises(IMUError, match="rate"):
        MPU6050(FakeI2C(), rate_hz=2000)


class SlowPort:
    def __init__(self, accept: list[int | None]) -> None:
        self.accept = accept
        self.data = bytearray()

    def write(self, frame: bytes) -> int | None:
        size = self.accept.pop(0) if self.accept else len(frame)
        if size:
            self.data.extend(frame[:size])
        return size


def test_outbox_never_blocks_and_drops_the_oldest_when_full() -> None:
    port = SlowPort([])
    outbox = Outbox(port, writable=lambda: False, capacity_bytes=100)
    for index in range(10):
        outbox.put(bytes([index]) * 30)
    assert len(outbox) == 3 and outbox.dropped == 7
    assert outbox.pump() == 0 and port.data == b""  # the host is not reading: nothing waits
    outbox.writable = lambda: True
    assert outbox.pump() == 3
    assert port.data == bytes([7]) * 30 + bytes([8]) * 30 + bytes([9]) * 30


def test_outbox_finishes_a_partly_written_frame_first() -> None:
    port = SlowPort([10, None])
    outbox = Outbox(port, writable=lambda: True)
    outbox.put(b"a" * 30)
    outbox.put(b"b" * 5)
    assert outbox.pump() == 0 and outbox.pump() == 0
    assert outbox.pump() == 2
    assert port.data == b"a" * 30 + b"b" * 5
    outbox.put(b"x" * 5000)
    assert outbox.dropped == 1


class FakeImu:
    rate_hz = 100
    accel_lsb_per_g = 8192
    gyro_lsb_per_dps_x10 = 655

    def __init__(self) -> None:
        self.broken = False

    def data_ready(self) -> bool:
        if self.broken:
            raise OSError(5, "EIO")
        return True

    def read_raw(self):
        return (0, 0, 8192, 0, 0, 0)

    def set_rate(self, rate_hz: int) -> int:
        if rate_hz > 1000:
            raise IMUError("rate must be 4..1000 Hz")
        self.rate_hz = rate_hz
        return rate_hz


class FakeCell:
    def __init__(self) -> None:
        self.next = 5000

    def read(self):
        self.next += 1
        return self.next


def make_board(incoming: list[bytes]):
    port = SlowPort([])
    clock = [0]
    board = Board(FakeCell(), FakeImu(), Outbox(port, lambda: True, capacity_bytes=100_000),
                  lambda: incoming.pop(0) if incoming else b"", lambda: clock[0],
                  lambda a, b: a - b, b"\x11" * 8)
    return board, port, clock


def run_board(board, clock, steps: int) -> None:
    for _ in range(steps):
        clock[0] += 2500
        board.step()


def acks(port) -> dict[int, int]:
    found = frames.FrameReader().feed(bytes(port.data))
    return {frames.unpack_ack(f.payload)["command_seq"]: frames.unpack_ack(f.payload)["result"]
            for f in found if f.kind == frames.ACK}


def test_board_answers_commands() -> None:
    incoming = [frames.encode_command("calibrate", 1, mass_mg=50_000, samples=3),
                frames.encode_command("tare", 2, samples=3),  # busy: calibrating
                frames.encode_command("set-rate", 3, rate_hz=50),
                frames.encode_command("set-rate", 4, rate_hz=5000),
                frames.encode_frame(0x55, 5, 0),
                frames.encode_frame(frames.CMD_TARE, 6, 0, b"\x01"),
                frames.encode_command("hello?", 7)]
    board, port, clock = make_board(incoming)
    run_board(board, clock, 20)
    assert acks(port) == {1: frames.ACK_OK, 2: frames.ACK_BUSY, 3: frames.ACK_OK,
                          4: frames.ACK_BAD_PAYLOAD, 5: frames.ACK_UNKNOWN,
                          6: frames.ACK_BAD_PAYLOAD, 7: frames.ACK_OK}
    found = frames.FrameReader().feed(bytes(port.data))
    calibration = [frames.unpack_calibration(f.payload) for f in found
                   if f.kind == frames.CALIBRATION]
    # readings 5002..5004: the ones after the command arrived
    assert calibration == [{"kind": "calibrate", "mean_counts": 5003, "samples": 3,
                            "mass_mg": 50_000}]
    hellos = [frames.unpack_hello(f.payload) for f in found if f.kind == frames.HELLO]
    assert len(hellos) == 2 and hellos[1]["rate_hz"] == 50


def test_board_reports_a_failing_imu_in_its_status() -> None:
    board, port, clock = make_board([])
    board.imu.broken = True
    run_board(board, clock, 500)  # 1.25 s: one status message
    found = frames.FrameReader().feed(bytes(port.data))
    statuses = [frames.unpack_status(f.payload) for f in found if f.kind == frames.STATUS]
    assert statuses and statuses[0]["imu_ok"] is False and statuses[0]["load_ok"] is True
    assert not any(f.kind == frames.SAMPLE_IMU for f in found)
    assert "seq=" in repr(board)


def test_board_time_keeps_counting_when_ticks_wrap() -> None:
    period = 2**30
    ticks = [period - 1000]
    board = Board(FakeCell(), FakeImu(), Outbox(SlowPort([]), lambda: True), lambda: b"",
                  lambda: ticks[0], lambda a, b: (a - b + period // 2) % period - period // 2)
    start = board.now_us()
    ticks[0] = 500  # wrapped
    assert board.now_us() - start == 1500


def test_main_starts_in_safe_mode_and_builds_the_real_board(monkeypatch) -> None:
    written = []

    class Pin:
        IN, OUT, PULL_UP = 0, 1, 2

        def __init__(self, number, *args):
            self.number = number

        def value(self, *level):
            if level:
                written.append((self.number, level[0]))
                return None
            return 0 if self.number == 22 else 1

    machine = types.SimpleNamespace(Pin=Pin, I2C=lambda *a, **k: FakeI2C(),
                                    disable_irq=lambda: 1, enable_irq=lambda state: None,
                                    unique_id=lambda: b"\x42" * 8)
    micropython = types.SimpleNamespace(kbd_intr=lambda code: None)
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    monkeypatch.syspath_prepend(str(FIRMWARE))
    for name in ("main", "board", "frames", "hx711", "imu", "outbox"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    main = importlib.import_module("main")  # GP22 held low: returns at once
    poller = types.SimpleNamespace(register=lambda *a: None, poll=lambda timeout: [])
    monkeypatch.setattr(main, "select", types.SimpleNamespace(poll=lambda: poller,
                                                              POLLIN=1, POLLOUT=4))
    monkeypatch.setattr(main, "sys", types.SimpleNamespace(
        stdin=types.SimpleNamespace(buffer=None), stdout=types.SimpleNamespace(buffer=None)))
    monkeypatch.setattr(main, "time", types.SimpleNamespace(ticks_us=lambda: 0,
                                                            ticks_diff=lambda a, b: a - b))
    board = main.build_board()
    assert board.board_id == b"\x42" * 8 and board.imu.rate_hz == 200
    assert (15, 0) in written  # the HX711 clock starts low
