"""Where frames come from: a USB camera, the Raspberry Pi camera, or a replay.

Every source is one small seam with the same face: iterate it for BGR frames,
``close()`` it when done (or use it as a context manager). Tests and the demo
use :class:`ReplaySource`.

Example::

    >>> import cv2, numpy as np, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("b.png", "a.png"):
    ...     _ = cv2.imwrite(str(folder / name), np.zeros((4, 4, 3), np.uint8))
    >>> with ReplaySource(folder) as replay:
    ...     [frame.shape for frame in replay]
    [(4, 4, 3), (4, 4, 3)]
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import SourceError
from vision.quiet import quiet_stderr

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


def _quiet_capture(source: int | str) -> cv2.VideoCapture:
    """A VideoCapture opened without OpenCV's or FFmpeg's warnings on stderr
    (a bad source is reported by us, in one line)."""
    with quiet_stderr():
        return cv2.VideoCapture(source)


class FrameSource:
    """Base of every source: iterate for frames; close when done."""

    def __iter__(self) -> Iterator[np.ndarray]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file (safe to call twice)."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class ReplaySource(FrameSource):
    """The images of a folder in name order, or the frames of a video file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise SourceError(f"{self.path}: no such file or folder")
        self._capture: cv2.VideoCapture | None = None
        if self.path.is_dir():
            self.files = sorted(p for p in self.path.iterdir()
                                if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self.files:
                raise SourceError(f"{self.path}: no images in this folder")
        else:
            self.files = []
            self._capture = _quiet_capture(str(self.path))
            if not self._capture.isOpened():
                raise SourceError(f"{self.path}: not a video OpenCV can read")

    def __repr__(self) -> str:
        return f"<ReplaySource {self.path}>"

    def __iter__(self) -> Iterator[np.ndarray]:
        if self._capture is None:
            for file in self.files:
                with quiet_stderr():
                    frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
                if frame is None:
                    raise SourceError(f"{file}: not an image OpenCV can read")
                yield frame
            return
        while True:
            ok, frame = self._capture.read()
            if not ok:
                return
            yield frame

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()


class CameraSource(FrameSource):
    """A camera through OpenCV's VideoCapture (a USB webcam), asked for 1920×1080."""

    def __init__(self, index: int, width: int = 1920, height: int = 1080) -> None:
        self.index = index
        self._capture = _quiet_capture(index)
        if not self._capture.isOpened():
            raise SourceError(f"camera {index}: cannot be opened")
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def __repr__(self) -> str:
        return f"<CameraSource {self.index}>"

    def __iter__(self) -> Iterator[np.ndarray]:
        while True:
            ok, frame = self._capture.read()
            if not ok:
                raise SourceError(f"camera {self.index}: stopped giving frames")
            yield frame

    def close(self) -> None:
        self._capture.release()


class PicameraSource(FrameSource):
    """The Raspberry Pi camera through Picamera2 (only where ``picamera2`` is installed)."""

    def __init__(self, index: int = 0, width: int = 1920, height: int = 1080) -> None:
        from picamera2 import Picamera2  # imported here: only present on a Pi

        self.index = index
        self._camera: Any = Picamera2(index)
        config = self._camera.create_video_configuration(
            main={"size": (width, height), "format": "RGB888"})
        self._camera.configure(config)
        self._camera.start()

    def __repr__(self) -> str:
        return f"<PicameraSource {self.index}>"

    def __iter__(self) -> Iterator[np.ndarray]:
        while True:
            # Picamera2's "RGB888" is laid out B, G, R in memory: OpenCV's order.
            yield self._camera.capture_array("main")

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


def picamera_available() -> bool:
    """Whether Picamera2 is importable and sees at least one camera."""
    if importlib.util.find_spec("picamera2") is None:
        return False
    try:
        from picamera2 import Picamera2

        return bool(Picamera2.global_camera_info())
    except Exception:  # a broken libcamera means "not available"
        return False


def open_camera(index: int) -> FrameSource:
    """Camera ``index``: the Pi camera when Picamera2 sees one, else OpenCV's VideoCapture."""
    if picamera_available():
        return PicameraSource(index)
    return CameraSource(index)
