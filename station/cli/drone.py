"""``packref drone ...``: the drone's sensor stream (docs/formats.md §7).

- ``drone events FILE``: events detected in a CSV of samples or a raw capture.
- ``drone record --port PORT --out FILE``: save the board's raw stream as a capture.
- ``drone calibrate --port PORT [--mass G]``: tare, or scale with a known mass.
- ``drone simulate --seed S --out FILE``: a simulated challenge (CSV or capture) and its truth.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from station.errors import InputError
from station.output import emit, emit_lines

ORDER = 50


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "drone", help="the Pick 'n Packers drone: detect events, record, simulate",
        description="The drone's sensor board: detect events in a stream, record the "
        "board's serial stream, simulate challenges.")
    commands = parser.add_subparsers(title="drone commands", metavar="COMMAND",
                                     parser_class=type(parser))
    _add_events(commands)
    _add_record(commands)
    _add_calibrate(commands)
    _add_simulate(commands)
    parser.set_defaults(run=lambda _arguments: _missing_command(parser))


def _missing_command(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _add_events(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "events", help="detect load, lift, land and drop events, and sensor faults, in a file",
        description="Print one JSON line per event (load, lift, land, drop; fault and "
        "fault-cleared for a sensor that reads impossibly) found in FILE: a "
        "CSV with the header t,force_g,ax,ay,az,gx,gy,gz or a raw capture from "
        "'packref drone record'.")
    parser.add_argument("file", metavar="FILE", help="CSV of samples or raw capture")
    parser.set_defaults(run=run_events)


def _add_record(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "record", help="save the board's raw serial stream to a capture file",
        description="Record the drone board's raw stream from PORT into a capture file that "
        "'packref drone events' reads. Stops after --seconds, or at Ctrl-C. Prints a JSON "
        "summary when done.")
    parser.add_argument("--port", required=True,
                        help="serial port, e.g. /dev/ttyACM0, or any pyserial URL (loop://)")
    parser.add_argument("--out", required=True, help="capture file to write")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--calibration", default=None,
                        help="calibration file (default ~/.config/packref/drone-calibration.json)")
    parser.set_defaults(run=run_record)


def _add_calibrate(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "calibrate", help="tare the load cell, or scale it with a known mass",
        description="Without --mass: tare (the platform must be empty). With --mass G: a "
        "known mass of G grams lies on the platform. The result is kept per board in the "
        "calibration file and printed as JSON.")
    parser.add_argument("--port", required=True, help="serial port of the drone board")
    parser.add_argument("--mass", type=float, default=None, help="known mass in grams")
    parser.add_argument("--samples", type=int, default=40, help="readings to average")
    parser.add_argument("--calibration", default=None,
                        help="calibration file (default ~/.config/packref/drone-calibration.json)")
    parser.set_defaults(run=run_calibrate)


def _add_simulate(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "simulate", help="write a simulated challenge's samples and its true events",
        description="Simulate one Pick 'n Packers challenge (hands, tremor, flights, drops, "
        "knocks, noise, lag, lost samples) and write its samples to --out: CSV, or a raw "
        "capture with --capture. The true events go to stdout as JSON Lines.")
    parser.add_argument("--seed", type=int, required=True, help="seed of the challenge")
    parser.add_argument("--out", required=True, help="file to write")
    parser.add_argument("--capture", action="store_true", help="write a raw capture, not CSV")
    parser.set_defaults(run=run_simulate)


def run_events(arguments: argparse.Namespace) -> int:
    from hardware.errors import SampleFileError
    from hardware.events import detect_events
    from hardware.screen import screen_impossible

    try:
        samples, reported = load_samples(arguments.file)
    except SampleFileError as error:
        raise InputError(str(error)) from None
    # An impossible value (NaN, a 1e308 g spike) is its sensor's fault, never a reading:
    # screened out here and reported as the board's own faults are.
    samples, impossible = screen_impossible(samples)
    faults = sorted([*reported, *impossible], key=lambda fault: fault.t)
    emit_lines(event.to_json() for event in detect_events(samples, reported=faults))
    return 0


def load_samples(path: str):
    """Samples from a CSV or a capture file (told apart by the capture's first line), and
    the faults the board reported in a capture's STATUS frames."""
    from hardware.capture import is_capture, read_capture
    from hardware.samples import read_csv

    if is_capture(path):
        capture = read_capture(path)
        return capture.samples, capture.board_faults
    if Path(path).is_file():
        head = Path(path).read_bytes()[:4096]
        if b"\x00" in head:
            raise InputError(f"{path}: line 1: neither a sample CSV nor a packref drone capture")
    return read_csv(path, finite_only=False), []


def run_record(arguments: argparse.Namespace) -> int:
    from hardware.calibration import CalibrationStore
    from hardware.errors import CalibrationError, LinkError
    from hardware.link import record

    if arguments.seconds is not None and arguments.seconds <= 0:
        raise InputError("--seconds: must be more than 0")
    try:
        store = CalibrationStore(arguments.calibration)
        with open(arguments.out, "wb") as out:
            summary = record(arguments.port, out, store, seconds=arguments.seconds,
                             on_status=lambda line: print(f"packref: {line}", file=sys.stderr))
    except (LinkError, CalibrationError) as error:
        raise InputError(f"--port {arguments.port}: {error}") from None
    except OSError as error:
        raise InputError(f"--out {arguments.out}: cannot write ({error.strerror})") from None
    emit(summary)
    return 0


def run_calibrate(arguments: argparse.Namespace) -> int:
    from hardware.calibration import CalibrationStore
    from hardware.errors import CalibrationError, LinkError
    from hardware.link import DroneLink, calibrate_board

    if arguments.mass is not None and arguments.mass <= 0:
        raise InputError("--mass: must be more than 0 grams")
    if not 1 <= arguments.samples <= 1000:
        raise InputError("--samples: must be 1..1000")
    try:
        store = CalibrationStore(arguments.calibration)
        with DroneLink(arguments.port) as link:
            emit(calibrate_board(link, store, arguments.mass, arguments.samples))
    except (LinkError, CalibrationError) as error:
        raise InputError(f"--port {arguments.port}: {error}") from None
    return 0


def run_simulate(arguments: argparse.Namespace) -> int:
    from hardware.calibration import Calibration
    from hardware.capture import encode_capture
    from hardware.simulate import simulate_challenge

    run = simulate_challenge(arguments.seed)
    try:
        if arguments.capture:
            calibration = Calibration(tare_counts=8388, grams_per_count=0.0024)
            Path(arguments.out).write_bytes(encode_capture(run.samples, calibration))
        else:
            Path(arguments.out).write_text(run.samples.to_csv(), encoding="utf-8")
    except OSError as error:
        raise InputError(f"--out {arguments.out}: cannot write ({error.strerror})") from None
    emit_lines({"t": round(event["t"], 3), "event": event["event"],
                "mass_g": round(event["mass_g"], 1)} for event in run.truth)
    return 0
