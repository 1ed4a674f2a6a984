"""``packref vision read`` and ``packref vision watch``: the overhead camera (docs/contracts.md §6).

``MATS.json`` names the mats to look for::

    {"mats": [{"id": 0, "rows": 8, "cols": 10, "kind": "colour"},
              {"id": 1, "rows": 6, "cols": 5,  "kind": "tags"}]}

A frame's tags mat may add ``"empty": "board.jpg"``, a photo of the empty
board in the frame (see ``docs/vision.md``).

``read`` prints one JSON line per image, in argument order; an image that
cannot be read gets ``{"image": ..., "error": ...}`` and the exit status is 2.
``watch`` prints a JSON line each time the stable observation changes.
``calibrate`` writes ``camera.json`` (the camera's lens) from several views of
the mats; ``read`` and ``watch`` take it with ``--camera-calibration``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from station.errors import InputError
from station.jsonin import Node, load_json_file
from station.output import emit
from vision.config import DEFAULT_CONFIG

ORDER = 40
MAX_GRID = 40


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "vision", help="read the kit's mats, cells and tags from photos or a camera",
        description="Read overhead photos of the printed kit (see docs/vision.md).")
    commands = parser.add_subparsers(title="vision commands", metavar="COMMAND",
                                     parser_class=type(parser))
    read = commands.add_parser(
        "read", help="read photos: one JSON line per image",
        description="Read each IMAGE and print one JSON line per image, in order: the mats "
        "of MATS.json with their cells and tags. Unreadable images get an \"error\" line "
        "and make the exit status 2.")
    read.add_argument("images", nargs="+", metavar="IMAGE", help="photos to read")
    read.add_argument("--mats", required=True, metavar="MATS.json", help="the mats to look for")
    _calibration_option(read)
    read.set_defaults(run=run_read)
    watch = commands.add_parser(
        "watch", help="watch a camera or a replay; print each new stable observation",
        description="Watch a camera, or replay a folder of images (name order) or a video, "
        "and print a JSON line each time the stable observation changes.")
    source = watch.add_mutually_exclusive_group(required=True)
    source.add_argument("--camera", type=int, metavar="N", help="camera number (0 = first)")
    source.add_argument("--replay", metavar="PATH", help="a folder of images or a video file")
    watch.add_argument("--mats", required=True, metavar="MATS.json", help="the mats to look for")
    watch.add_argument("--stable", type=int, default=DEFAULT_CONFIG.stable_frames, metavar="K",
                       help="frames an observation must hold to count (default "
                            f"{DEFAULT_CONFIG.stable_frames})")
    _calibration_option(watch)
    watch.set_defaults(run=run_watch)
    calibrate = commands.add_parser(
        "calibrate", help="calibrate the camera's lens from several views of the mats",
        description="Calibrate the camera (focal length, lens distortion) from frames showing "
        "the mats of MATS.json through 3 or 4 markers each, from several angles; write "
        "camera.json for --camera-calibration.")
    source = calibrate.add_mutually_exclusive_group(required=True)
    source.add_argument("--camera", type=int, metavar="N", help="camera number (0 = first)")
    source.add_argument("--replay", metavar="PATH", help="a folder of images or a video file")
    calibrate.add_argument("--mats", required=True, metavar="MATS.json",
                           help="the mats in view")
    calibrate.add_argument("--out", required=True, metavar="camera.json",
                           help="where to write the calibration")
    calibrate.add_argument("--frames", type=int, default=None, metavar="N",
                           help="use at most N frames (default: a replay's all, a camera's 60)")
    calibrate.set_defaults(run=run_calibrate)
    parser.set_defaults(run=lambda _arguments: _missing_command(parser))


def _calibration_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--camera-calibration", metavar="FILE", default=None,
                        help="camera.json from 'vision calibrate' (default: the lens's "
                        "bending is estimated in each photo)")


def _missing_command(parser: argparse.ArgumentParser) -> int:
    raise InputError(f"{parser.prog}: choose a command: read, watch or calibrate "
                     f"(see '{parser.prog} --help')")


def parse_mats(document: Node) -> list:
    """The ``MatSpec`` list of a ``MATS.json`` document; bad values raise at their JSON path."""
    from vision.layout import MAT_KINDS, MAX_MAT_NUMBER, MatSpec

    specs, seen = [], set()
    for entry in document["mats"].items(min_length=1):
        mat_id = entry["id"].integer(0, MAX_MAT_NUMBER)
        if mat_id in seen:
            raise entry["id"].fail(f"mat {mat_id} is listed twice")
        seen.add(mat_id)
        specs.append(MatSpec(mat_id, entry["rows"].integer(1, MAX_GRID),
                             entry["cols"].integer(1, MAX_GRID),
                             entry["kind"].choice(list(MAT_KINDS))))
    return specs


def load_camera_calibration(path: str | None):
    """The ``vision.lens.CalibratedLens`` of a ``camera.json`` (None for None); a bad file
    is an :class:`InputError` naming the file and the JSON place."""
    if path is None:
        return None
    from vision.errors import CalibrationFileError
    from vision.lens import load_lens

    try:
        return load_lens(path)
    except CalibrationFileError as error:
        raise InputError(f"{path}: {error}") from None


def load_reader(mats_file: str, calibration: str | None = None):
    """A ``vision.reader.Reader`` for ``MATS.json``, with the empty-board photos it names.

    A tags mat may name ``"empty"``: a photo (path relative to ``MATS.json``) of
    the empty game board in its frame, taken by the same camera. ``calibration``
    is a ``camera.json`` from ``vision calibrate``.
    """
    lens = load_camera_calibration(calibration)
    from vision.errors import CalibrationError, VisionError
    from vision.reader import Reader, load_image

    document = load_json_file(mats_file)
    specs = parse_mats(document)
    photos, places = {}, {}
    for spec, entry in zip(specs, document["mats"].items(), strict=True):
        empty = entry.get("empty")
        if empty.is_null():
            continue
        if spec.kind != "tags":
            raise empty.fail("only a tags mat (a frame) takes an empty-board photo")
        path = Path(mats_file).parent / empty.string(non_empty=True)
        try:
            photos[spec.id] = load_image(path)
        except VisionError as error:
            raise empty.fail(f"{path}: {error}") from None
        places[spec.id] = empty
    try:
        return Reader(specs, empty_boards=photos, lens=lens)
    except CalibrationError as error:
        raise places[error.mat_id].fail(str(error)) from None


def run_read(arguments: argparse.Namespace) -> int:
    from vision.errors import ImageError

    reader = load_reader(arguments.mats, arguments.camera_calibration)
    status = 0
    for image in arguments.images:
        try:
            emit(reader.read_file(image))
        except ImageError as error:
            emit({"image": image, "error": str(error)})
            status = 2
    return status


def run_watch(arguments: argparse.Namespace) -> int:
    from vision.errors import SourceError
    from vision.sources import ReplaySource, open_camera
    from vision.stability import watch

    if arguments.stable < 1:
        raise InputError("--stable: must be at least 1")
    reader = load_reader(arguments.mats, arguments.camera_calibration)
    try:
        source = (ReplaySource(Path(arguments.replay)) if arguments.replay is not None
                  else open_camera(arguments.camera))
        with source:
            for observation in watch(source, reader, arguments.stable):
                emit(observation)
    except SourceError as error:
        raise InputError(str(error)) from None
    return 0


def run_calibrate(arguments: argparse.Namespace) -> int:
    import json
    import os
    import tempfile

    from vision.calibrate import calibrate_camera
    from vision.errors import CameraCalibrationError, SourceError
    from vision.sources import ReplaySource, open_camera

    if arguments.frames is not None and arguments.frames < 1:
        raise InputError("--frames: must be at least 1")
    specs = parse_mats(load_json_file(arguments.mats))
    limit = arguments.frames or (60 if arguments.camera is not None else None)
    try:
        source = (ReplaySource(Path(arguments.replay)) if arguments.replay is not None
                  else open_camera(arguments.camera))
        with source:
            lens, rms, views = calibrate_camera(source, specs, max_frames=limit)
    except (SourceError, CameraCalibrationError) as error:
        raise InputError(str(error)) from None
    out = Path(arguments.out)
    document = {**lens.to_json(), "rms_px": round(rms, 4), "views": views}
    try:  # written whole or not at all
        handle, temporary = tempfile.mkstemp(dir=out.parent, prefix=".camera-", suffix=".json")
        with os.fdopen(handle, "w") as file:
            file.write(json.dumps(document, indent=1) + "\n")
        os.replace(temporary, out)
    except OSError as error:
        raise InputError(f"{out}: cannot write ({error.strerror})") from None
    emit({"out": str(out), "views": views, "rms_px": round(rms, 4)})
    return 0
