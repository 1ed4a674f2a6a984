"""The shared frame format, on CPython (the same file runs on the board)."""

from __future__ import annotations

import os
import zlib

import pytest

from firmware import frames


@pytest.mark.parametrize("size", [0, 1, 2, 253, 254, 255, 256, 509, 700])
def test_cobs_round_trips_and_leaves_no_zero(size: int) -> None:
    for data in (os.urandom(size), bytes(size), b"\x01" * size):
        encoded = frames.cobs_encode(data)
        assert b"\x00" not in encoded
        assert frames.cobs_decode(encoded) == data


def test_cobs_rejects_malformed_blocks() -> None:
    with pytest.raises(frames.FrameError):
        frames.cobs_decode(b"\x05ab")
    with pytest.raises(frames.FrameError):
        frames.cobs_decode(b"\x02a\x00")


def test_crc32_is_zlibs_with_or_without_the_runtime_one() -> None:
    for data in (b"", b"123456789", os.urandom(1000)):
        assert frames.crc32_pure(data) == zlib.crc32(data)
        assert frames.crc32(data) == zlib.crc32(data)
    assert frames.crc32(b"6789", frames.crc32(b"12345")) == zlib.crc32(b"123456789")


def test_a_frame_has_the_documented_layout() -> None:
    wire = frames.encode_frame(frames.SAMPLE_LOAD, 0x1234, 0xA0B0C0D0, frames.pack_load(-2))
    assert wire[0] == 0 and wire[-1] == 0 and b"\x00" not in wire[1:-1]
    body = frames.cobs_decode(wire[1:-1])
    assert body[:8] == bytes([1, 0x11, 0x34, 0x12, 0xD0, 0xC0, 0xB0, 0xA0])
    assert body[8:12] == (-2).to_bytes(4, "little", signed=True)
    assert int.from_bytes(body[12:], "little") == zlib.crc32(body[:12])


def test_a_flipped_bit_or_another_version_is_refused() -> None:
    wire = frames.encode_frame(frames.STATUS, 1, 2, frames.pack_status(0, True, True, 200))
    body = bytearray(frames.cobs_decode(wire[1:-1]))
    flipped = bytearray(body)
    flipped[9] ^= 0x04
    with pytest.raises(frames.FrameError, match="CRC"):
        frames.decode_frame(frames.cobs_encode(bytes(flipped)))
    body[0] = 2
    body[-4:] = zlib.crc32(bytes(body[:-4])).to_bytes(4, "little")
    with pytest.raises(frames.FrameError, match="version 2"):
        frames.decode_frame(frames.cobs_encode(bytes(body)))


def test_the_reader_resynchronises_after_garbage_and_overlong_runs() -> None:
    good = frames.encode_frame(frames.SAMPLE_IMU, 9, 99, frames.pack_imu(1, 2, 3, 4, 5, 6))
    reader = frames.FrameReader()
    found = reader.feed(b"\x00" + b"\x07" * 600 + good[:6])  # an endless run, then a cut frame
    found += reader.feed(good + good)
    assert [frames.unpack_imu(frame.payload) for frame in found] == [(1, 2, 3, 4, 5, 6)] * 2
    assert reader.bad_frames == 2
    assert "2 frames" in repr(reader)


def test_every_payload_round_trips() -> None:
    hello = frames.unpack_hello(frames.pack_hello("fw 1.2", 1, 200, 8192, 655, b"\xab" * 8))
    assert hello == {"protocol": 1, "imu": 1, "rate_hz": 200, "accel_lsb_per_g": 8192,
                     "gyro_lsb_per_dps": 65.5, "board_id": "ab" * 8, "firmware": "fw 1.2"}
    assert frames.unpack_status(frames.pack_status(7, True, False, 100)) == \
        {"dropped": 7, "load_ok": True, "imu_ok": False, "rate_hz": 100}
    assert frames.unpack_calibration(frames.pack_calibration(2, -123, 16, 50000)) == \
        {"kind": "calibrate", "mean_counts": -123, "samples": 16, "mass_mg": 50000}
    assert frames.unpack_ack(frames.pack_ack(65535, frames.ACK_BUSY)) == \
        {"command_seq": 65535, "result": 3}
    with pytest.raises(frames.FrameError):
        frames.unpack_imu(b"\x00" * 11)


@pytest.mark.parametrize(("name", "arguments", "expected"), [
    ("tare", {"samples": 32}, {"command": "tare", "samples": 32}),
    ("calibrate", {"mass_mg": 200_000, "samples": 8},
     {"command": "calibrate", "mass_mg": 200_000, "samples": 8}),
    ("set-rate", {"rate_hz": 100}, {"command": "set-rate", "rate_hz": 100}),
    ("hello?", {}, {"command": "hello?"}),
])
def test_commands_round_trip(name: str, arguments: dict, expected: dict) -> None:
    (frame,) = frames.FrameReader().feed(frames.encode_command(name, 5, **arguments))
    assert frames.decode_command(frame) == expected


def test_unknown_commands_and_bad_payloads_are_refused() -> None:
    with pytest.raises(frames.FrameError):
        frames.encode_command("explode", 1)
    with pytest.raises(frames.FrameError, match="not a command"):
        frames.decode_command(frames.Frame(frames.SAMPLE_IMU, 0, 0, b""))
    with pytest.raises(frames.FrameError, match="bad payload"):
        frames.decode_command(frames.Frame(frames.CMD_TARE, 0, 0, b"\x01"))
