"""One process owns each camera (Picamera2 opens a camera for one process only).

A station that reads camera ``N`` holds ``camera-N.lock`` in the run directory
(``/run/packref``, which the service's unit provides; else ``DATA/run``;
``$PACKREF_RUN_DIR`` overrides both) with an exclusive ``flock`` for as long as
it runs; the file says who holds it. A second station asking for the same camera
is refused with a message naming the owner. A station that died leaves the file
but not the lock (the kernel drops it), so the next one simply takes over.
Replays (folders, videos) are not devices and need no owner.

Example::

    >>> import tempfile, pathlib
    >>> run = pathlib.Path(tempfile.mkdtemp())
    >>> first = CameraOwnership.take("0", "packref serve", run)
    >>> CameraOwnership.take("0", "another station", run)
    Traceback (most recent call last):
    ...
    station.appliance.ownership.CameraBusy: camera 0 is owned by packref serve (pid ...)
    >>> first.release()
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from pathlib import Path
from typing import Any

from station.appliance.config import RUN_DIR
from station.errors import InputError


class CameraBusy(InputError):
    """Another process owns the camera; the message names it."""


def is_device(where: str) -> bool:
    """Whether a camera source is a device (a number) rather than a replay."""
    return str(where).strip().isdigit()


def run_dir(data_dir: Path | None = None) -> Path:
    """Where the lock files are: ``$PACKREF_RUN_DIR``, ``/run/packref``, else ``DATA/run``."""
    if os.environ.get("PACKREF_RUN_DIR"):
        chosen = Path(os.environ["PACKREF_RUN_DIR"])
    else:
        chosen = RUN_DIR
        try:
            chosen.mkdir(parents=True, exist_ok=True)
            if not os.access(chosen, os.W_OK):
                raise PermissionError(chosen)
        except OSError:
            if data_dir is None:
                raise
            chosen = data_dir / "run"
    chosen.mkdir(parents=True, exist_ok=True)
    return chosen


def _lock_path(where: str, directory: Path) -> Path:
    return directory / f"camera-{int(str(where).strip())}.lock"


def _describe(path: Path) -> str:
    try:
        owner = json.loads(path.read_text(encoding="utf-8"))
        return f"{owner['name']} (pid {owner['pid']}, since {owner['since']})"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process (its lock file says no more)"


class CameraOwnership:
    """This process's hold on one camera; :meth:`release` (or exit) lets it go."""

    def __init__(self, where: str, path: Path, handle: Any) -> None:
        self.where = where
        self.path = path
        self._handle = handle

    def __repr__(self) -> str:
        return f"<CameraOwnership camera {self.where} {self.path}>"

    @classmethod
    def take(cls, where: str, name: str, directory: Path) -> CameraOwnership:
        """Own camera ``where`` as ``name``; :class:`CameraBusy` names the owner if taken."""
        path = _lock_path(where, directory)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        handle = os.fdopen(descriptor, "r+", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise CameraBusy(f"camera {where} is owned by {_describe(path)}") from None
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps({"pid": os.getpid(), "name": name, "camera": str(where),
                                 "since": time.strftime("%Y-%m-%d %H:%M:%S")}) + "\n")
        handle.flush()
        return cls(str(where), path, handle)

    def release(self) -> None:
        if self._handle is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._handle, fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None


def camera_owner(where: str, data_dir: Path | None = None) -> str | None:
    """Who owns camera ``where`` now (None: nobody, or not a device)."""
    if not is_device(where):
        return None
    path = _lock_path(where, run_dir(data_dir))
    if not path.exists():
        return None
    with open(path, encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _describe(path)
        fcntl.flock(handle, fcntl.LOCK_UN)
    return None


def own_cameras(cameras: dict[str, str], name: str,
                data_dir: Path | None = None) -> list[CameraOwnership]:
    """Own every device among ``cameras`` (table -> source) for this process, or none:
    :class:`CameraBusy` (naming the table and the owner) releases those taken."""
    held: list[CameraOwnership] = []
    for table, where in cameras.items():
        if not is_device(where):
            continue
        try:
            held.append(CameraOwnership.take(where, name, run_dir(data_dir)))
        except CameraBusy as error:
            for ownership in held:
                ownership.release()
            raise CameraBusy(f"--camera: table {table!r}: {error}") from None
    return held
