"""Raw captures: frames in, samples out, whatever the serial line did to them."""

from __future__ import annotations

import numpy as np
import pytest

from firmware import frames
from hardware.calibration import Calibration
from hardware.capture import (
    MAGIC,
    BoardClock,
    SequenceCounter,
    capture_header,
    encode_capture,
    is_capture,
    read_capture,
    read_capture_bytes,
)
from hardware.errors import SampleFileError
from hardware.simulate import SimulationOptions, simulate_challenge

CALIBRATION = Calibration(8000, 0.0024)


@pytest.fixture(scope="module")
def short_run():
    return simulate_challenge(3, SimulationOptions(cards=1, lost_fraction=0.0, lost_bursts=0))


def test_a_capture_reads_back_as_the_samples_it_was_made_from(short_run) -> None:
    capture = read_capture_bytes(encode_capture(short_run.samples, CALIBRATION))
    assert len(capture.samples) == len(short_run.samples)
    assert np.allclose(capture.samples.t, short_run.samples.t, atol=1e-6)
    assert np.allclose(capture.samples.force_g, short_run.samples.force_g, atol=0.0013)
    assert np.allclose(capture.samples.az, short_run.samples.az, atol=0.001)
    assert np.allclose(capture.samples.gx, short_run.samples.gx, atol=0.01)
    assert capture.lost_frames == 0 and capture.bad_frames == 0


def test_garbage_and_cut_frames_are_skipped_and_counted(short_run) -> None:
    data = encode_capture(short_run.samples, CALIBRATION)
    header_end = data.index(b"\n", len(MAGIC)) + 1
    body = data[header_end:]
    middle = len(body) // 2
    cut = body.index(b"\x00\x00", middle) + 1  # a frame boundary
    damaged = (data[:header_end] + b"\x13\x37garbage" + body[:cut + 6] + b"\x00"
               + body[cut:])
    capture = read_capture_bytes(damaged)
    assert capture.bad_frames >= 2
    assert abs(len(capture.samples) - len(short_run.samples)) <= 1


def test_lost_frames_are_counted_from_sequence_numbers(short_run) -> None:
    data = encode_capture(short_run.samples, CALIBRATION)
    header_end = data.index(b"\n", len(MAGIC)) + 1
    pieces = data[header_end:].split(b"\x00\x00")
    kept = b"\x00\x00".join(pieces[:100] + pieces[110:])  # ten frames never arrived
    capture = read_capture_bytes(data[:header_end] + kept)
    assert capture.lost_frames == 10


def test_a_calibration_given_overrides_the_header(short_run) -> None:
    data = encode_capture(short_run.samples, CALIBRATION)
    doubled = Calibration(8000, 0.0048)
    capture = read_capture_bytes(data, calibration=doubled)
    assert np.allclose(capture.samples.force_g, 2 * short_run.samples.force_g, atol=0.003)


@pytest.mark.parametrize(("data", "message"), [
    (b"t,force_g\n", "x.bin: line 1: not a packref drone capture"),
    (MAGIC, "x.bin: line 2: the JSON header line is missing"),
    (MAGIC + b"{oops\n", "x.bin: line 2: header is not valid JSON"),
    (MAGIC + b"[1]\n", "x.bin: line 2: header must be a JSON object"),
    (capture_header("b", CALIBRATION), "x.bin: no IMU samples"),
    (capture_header("b", None) + frames.encode_frame(frames.SAMPLE_LOAD, 0, 0, frames.pack_load(5))
     + frames.encode_frame(frames.SAMPLE_IMU, 1, 0, frames.pack_imu(0, 0, 8192, 0, 0, 0)),
     "x.bin: no calibration for this board"),
])
def test_bad_captures_name_the_place(data: bytes, message: str) -> None:
    with pytest.raises(SampleFileError) as raised:
        read_capture_bytes(data, "x.bin")
    assert str(raised.value).startswith(message)


def test_files_are_told_apart(tmp_path, short_run) -> None:
    capture = tmp_path / "c.bin"
    capture.write_bytes(encode_capture(short_run.samples, CALIBRATION))
    csv = tmp_path / "c.csv"
    csv.write_text(short_run.samples.to_csv(), encoding="utf-8")
    assert is_capture(capture) and not is_capture(csv) and not is_capture(tmp_path / "none")
    assert len(read_capture(capture).samples) == len(short_run.samples)
    with pytest.raises(SampleFileError, match="no such file"):
        read_capture(tmp_path / "none")


def test_the_board_clock_unwraps() -> None:
    clock = BoardClock()
    assert clock.seconds(2**32 - 1_000_000) == pytest.approx(4294.967296 - 1.0)
    assert clock.seconds(1_000_000) == pytest.approx(4294.967296 + 1.0)


def test_sequence_numbers_wrap_and_restart() -> None:
    counter = SequenceCounter()
    for seq in (65534, 65535, 0, 3):
        counter.see(seq)
    assert counter.lost == 2
    counter.see(1)  # far behind: a restarted board, not 65534 lost frames
    assert counter.lost == 2
